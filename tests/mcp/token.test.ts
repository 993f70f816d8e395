// The MCP session token on its own: what it binds (session, environment, tools, expiry) and what it refuses.
import { describe, expect, it } from "vitest";
import { checkMcpToken, mintMcpToken } from "../../environments/sdk/mcp/token.js";
import { mintSessionId } from "../../environments/sdk/session-id.js";

const SECRET = "a-test-secret-of-at-least-32-characters!";
const claims = { sid: "s1", env: "alpha", tools: ["a"], exp: 2_000 };

describe("the MCP token", () => {
  it("round-trips its claims while alive, and expires at exp", async () => {
    const token = await mintMcpToken(SECRET, claims);
    expect(await checkMcpToken(SECRET, "alpha", token, 1_999_999)).toEqual({ ok: true, claims });
    expect(await checkMcpToken(SECRET, "alpha", token, 2_000_000)).toMatchObject({ ok: false, refusal: "mcp_token_expired" });
  });

  it("is refused by another environment, under another secret, and when missing or malformed", async () => {
    const token = await mintMcpToken(SECRET, claims);
    expect(await checkMcpToken(SECRET, "beta", token, 0)).toMatchObject({ ok: false, refusal: "mcp_token_other_environment" });
    expect(await checkMcpToken(`${SECRET}x`, "alpha", token, 0)).toMatchObject({ ok: false, refusal: "mcp_token_invalid" });
    expect(await checkMcpToken(SECRET, "alpha", undefined, 0)).toMatchObject({ ok: false, refusal: "mcp_token_missing" });
    expect(await checkMcpToken(SECRET, "alpha", "x.y", 0)).toMatchObject({ ok: false, refusal: "mcp_token_invalid" });
  });

  it("is not a session id, nor a session id a token (the purpose label)", async () => {
    const sessionId = await mintSessionId(SECRET, "alpha", { rollout: "", token: "" });
    expect(await checkMcpToken(SECRET, "alpha", sessionId, 0)).toMatchObject({ ok: false, refusal: "mcp_token_invalid" });
  });
});
