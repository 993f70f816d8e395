// An upstream's error body as a short sanitized reason (http/outbound/reason.ts): the envelope's message, never the body.
import { describe, expect, it } from "vitest";
import { printable, REASON_MAX_CHARS, upstreamReason } from "../../http/outbound/reason.js";

describe("upstreamReason", () => {
  it("takes the message of OpenAI's, vLLM's and FastAPI's error bodies", () => {
    expect(upstreamReason(JSON.stringify({ error: { message: "temperature must be non-negative", type: "BadRequestError" } }))).toBe(
      "temperature must be non-negative",
    );
    expect(upstreamReason(JSON.stringify({ object: "error", message: "model not found", code: 404 }))).toBe("model not found");
    expect(upstreamReason(JSON.stringify({ detail: "Not authenticated" }))).toBe("Not authenticated");
    expect(upstreamReason(JSON.stringify({ detail: [{ loc: ["body", "x"], msg: "field required" }] }))).toBe("field required");
    expect(upstreamReason(JSON.stringify({ error: "overloaded" }))).toBe("overloaded");
  });

  it("never passes HTML, plain text or a message-less JSON body: only its size", () => {
    const html = `<html><body><h1>400 Bad Request</h1>${"<p>internal host 10.0.0.5 secret</p>".repeat(300)}</body></html>`;
    expect(upstreamReason(html)).toBe(`a ${html.length}-character body that is not a JSON error`);
    expect(upstreamReason("Internal Server Error")).toBe("a 21-character body that is not a JSON error");
    expect(upstreamReason('{"data":"x"}')).toBe("a 12-character body with no error message");
    expect(upstreamReason("")).toBe("a 0-character body that is not a JSON error");
  });

  it("takes control characters, terminal escapes, bidi overrides and line breaks out, and bounds the length", () => {
    const hostile = `bad\u001b[2J\u001b]0;owned\u0007 request\r\nforged: line\u202Ereversed\u200B\u0000end`;
    const reason = upstreamReason(JSON.stringify({ error: { message: hostile } }));
    expect(reason).toBe("bad [2J ]0;owned request forged: line reversed end");
    expect(reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u202e]/);
    const long = upstreamReason(JSON.stringify({ error: { message: "x".repeat(10_000) } }));
    expect(long).toHaveLength(REASON_MAX_CHARS);
    expect(long.endsWith("…")).toBe(true);
    expect(printable("a\tb", 40)).toBe("a b");
  });
});
