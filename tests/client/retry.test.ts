// The client's retries against a stand-in fetch: Retry-After honoured (never less), bounded, only for 429/503 and lost
// connections; errors come back as EdgegymClientError with the gateway's code and request id.
import { describe, expect, it } from "vitest";
import { EdgegymClient, EdgegymClientError, retryAfterMs, retryDelayMs } from "../../client/index.js";

const row = { responses_create_params: { input: "hi" } };
const envelope = (status: number, code: string, headers: Record<string, string> = {}) =>
  Response.json({ error: { code, message: `${code} happened` } }, { status, headers: { "x-request-id": "req-1", ...headers } });

/** A fetch that answers from a script, recording each call. */
function scripted(...answers: (Response | Error)[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    const next = answers.shift();
    if (!next) throw new Error("no more answers scripted");
    if (next instanceof Error) throw next;
    return next;
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

describe("Retry-After", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
  });

  it("the wait is never less than Retry-After, at most half again more; one beyond maxDelayMs ends the retries", () => {
    for (let i = 0; i < 100; i++) {
      const wait = retryDelayMs(1, 2000, {})!;
      expect(wait).toBeGreaterThanOrEqual(2000);
      expect(wait).toBeLessThanOrEqual(3000);
    }
    expect(retryDelayMs(1, 90_000, { maxDelayMs: 60_000 })).toBeUndefined();
    // Without Retry-After: exponential backoff, jittered, capped.
    expect(retryDelayMs(10, undefined, { baseDelayMs: 100, maxDelayMs: 1000 })).toBeLessThanOrEqual(1000);
  });
});

describe("EdgegymClient over a stand-in gateway", () => {
  it("retries 503 and 429 as told, then returns the record; sends the token", async () => {
    const record = { ...row, response: { output: [] }, reward: 1, _ng_rollout_id: "r", agent_ref: { name: "x" } };
    const gateway = scripted(
      envelope(503, "over_capacity", { "retry-after": "0" }),
      envelope(429, "rate_limited", { "retry-after": "0" }),
      Response.json(record),
    );
    const client = new EdgegymClient({ url: "http://gateway/", token: "t0k", fetch: gateway.fetch });
    expect(await client.run(row, { environment: "weather", maxSteps: 4 })).toEqual(record);
    expect(gateway.calls).toHaveLength(3);
    expect(gateway.calls[0]!.url).toBe("http://gateway/run?environment=weather&max_steps=4");
    expect(new Headers(gateway.calls[0]!.init.headers).get("authorization")).toBe("Bearer t0k");
  });

  it("a dropped connection is retried; a 4xx or a 502 is not", async () => {
    const dropped = scripted(new TypeError("fetch failed"), Response.json({ reward: 0 }));
    expect(await new EdgegymClient({ url: "http://g", fetch: dropped.fetch, baseDelayMs: 1 }).run(row)).toEqual({ reward: 0 });
    for (const [status, code] of [
      [400, "invalid_request"],
      [403, "insufficient_scope"],
      [502, "model_error"],
    ] as const) {
      const gateway = scripted(envelope(status, code));
      const error = await new EdgegymClient({ url: "http://g", fetch: gateway.fetch }).run(row).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EdgegymClientError);
      expect(error).toMatchObject({ status, code, requestId: "req-1" });
      expect(gateway.calls).toHaveLength(1);
    }
  });

  it("retries are bounded: the last refusal is the error", async () => {
    const gateway = scripted(...Array.from({ length: 4 }, () => envelope(503, "over_capacity", { "retry-after": "0" })));
    const error = await new EdgegymClient({ url: "http://g", fetch: gateway.fetch, maxRetries: 3 }).run(row).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: "over_capacity" });
    expect(gateway.calls).toHaveLength(4);
  });

  it("a batch keeps prompts and groups in order, and reports a failed rollout instead of throwing", async () => {
    const fetch = (async (_url: string, init: RequestInit) => {
      const sent = JSON.parse(String(init.body)) as { _ng_task_index: number; _ng_rollout_index: number };
      if (sent._ng_task_index === 1 && sent._ng_rollout_index === 2) return envelope(502, "model_error");
      return Response.json({ reward: sent._ng_task_index * 10 + sent._ng_rollout_index, response: { output: [] } });
    }) as typeof globalThis.fetch;
    const client = new EdgegymClient({ url: "http://g", fetch });
    const result = await client.batch([row, row], { groupSize: 3, concurrency: 2 });
    expect(result.groups.map((group) => group.map((r) => r.reward))).toEqual([
      [0, 1, 2],
      [10, 11],
    ]);
    expect(result.failures).toMatchObject([{ task: 1, repeat: 2, error: { code: "model_error" } }]);
  });
});
