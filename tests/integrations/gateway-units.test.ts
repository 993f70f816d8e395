// The gateway's trainer-facing pieces in plain Node: the advertised address, and naming the policy model under a token's scopes.
import { Hono } from "hono";
import type { Scope } from "../../contracts/tokens.js";
import type { GatewayContext } from "../../functions/gateway/caller.js";
import { describe, expect, it } from "vitest";
import { onError } from "../../http/errors.js";
import { advertisedAddress } from "../../functions/gateway/nemo-gym.js";
import { ModelFields, modelChoice } from "../../functions/gateway/model-choice.js";
import { PolicyUrlAllow } from "../../contracts/outbound.js";

describe("advertisedAddress", () => {
  it("is the address NeMo Gym's client reached, or the one a forwarder names", () => {
    expect(advertisedAddress("http://127.0.0.1:8787/global_config_dict_yaml", undefined)).toEqual({ host: "127.0.0.1", port: 8787 });
    expect(advertisedAddress("https://gw.example.com/global_config_dict_yaml", undefined)).toEqual({ host: "gw.example.com", port: 443 });
    expect(advertisedAddress("https://gw.example.com/x", "127.0.0.1:11000")).toEqual({ host: "127.0.0.1", port: 11000 });
    expect(advertisedAddress("https://gw.example.com/x", "[::1]:11000, proxy")).toEqual({ host: "::1", port: 11000 });
    expect(advertisedAddress("http://gw.example.com/x", "trainer-node")).toEqual({ host: "trainer-node", port: 80 });
  });

  it("ignores a malformed X-Forwarded-Host (no throw): the address the request reached", () => {
    for (const value of ["bad host", "evil.com/path", "a:b:c", "[zz", "host:99999", "host:0", "@evil", "%00", "x".repeat(300), "[::1"]) {
      expect(advertisedAddress("https://gw.example.com/x", value), value).toEqual({ host: "gw.example.com", port: 443 });
    }
  });
});

/** An app whose (stand-in) auth middleware records the caller and its token's scopes, as the gateway's token check does. */
function appWithScopes(scopes: Scope[] | undefined, allow = "trainer") {
  const app = new Hono<GatewayContext>();
  app.onError(onError);
  app.use(async (c, next) => {
    if (scopes) c.set("caller", { name: "trainer", scopes });
    await next();
  });
  app.get("/", (c) => c.json(modelChoice(c, ModelFields.parse(c.req.query()), PolicyUrlAllow.parse(allow))));
  return app;
}

describe("modelChoice", () => {
  const query = "?policy_base_url=http://trainer:9100/v1,http://trainer:9101/v1&policy_model_name=Qwen/Qwen3-4B&return_token_ids=true";

  it("reads NeMo Gym's policy keys and the token-id flag", async () => {
    const answer = await appWithScopes(undefined).request(`/${query}`);
    expect(await answer.json()).toEqual({
      returnTokenIds: true,
      policy: { baseUrls: ["http://trainer:9100/v1", "http://trainer:9101/v1"], model: "Qwen/Qwen3-4B" },
    });
  });

  it("needs the model scope to name the policy model, not to ask for token ids", async () => {
    expect((await appWithScopes(["run"]).request(`/${query}`)).status).toBe(403);
    expect((await appWithScopes(["run", "model"]).request(`/${query}`)).status).toBe(200);
    expect(await (await appWithScopes(["run"]).request("/?return_token_ids=1")).json()).toEqual({ returnTokenIds: true });
  });

  it("refuses a base URL whose host POLICY_URL_ALLOW does not name (none by default) with 403, naming only the host", async () => {
    for (const [allow, why] of [
      ["", "no caller-chosen URL is allowed on this deployment"],
      ["trainer:9100", "it is not in the list"],
    ]) {
      const answer = await appWithScopes(["run", "model"], allow).request(`/${query}`);
      expect(answer.status).toBe(403);
      const body = (await answer.json()) as { error: { code: string; message: string; issues: unknown } };
      expect(body.error.code).toBe("policy_url_not_allowed");
      expect(body.error.message).toContain(`the host "trainer:${allow ? 9101 : 9100}" is not allowed (${why})`);
      expect(body.error.message).toContain("POLICY_URL_ALLOW");
      expect(body.error.message).not.toContain("/v1");
      expect(body.error.issues).toEqual([{ path: ["policy_base_url"], message: expect.stringContaining("is not allowed") }]);
    }
  });

  it("refuses a base URL without its model name, and one that is not http(s)", async () => {
    const app = appWithScopes(undefined);
    expect((await app.request("/?policy_base_url=http://trainer:9100/v1")).status).toBe(400);
    expect(ModelFields.safeParse({ policy_base_url: "ftp://trainer/v1", policy_model_name: "m" }).success).toBe(false);
  });
});
