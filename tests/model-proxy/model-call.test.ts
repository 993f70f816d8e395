// The body sent to vLLM (overrides, token flags) and the token ids read back from it, with a stand-in upstream.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig, type ProxyConfig } from "../../functions/model-proxy/config.js";
import { callModel, prepareChatBody } from "../../functions/model-proxy/model-call.js";
import { backoffMs } from "../../functions/model-proxy/retry.js";
import { affinityIndex } from "../../functions/model-proxy/upstream.js";
import type { ChatBody } from "../../functions/model-proxy/wire.js";

const config = (vars: Record<string, string> = {}): ProxyConfig =>
  readConfig({ MODEL_BASE_URL: "http://vllm.test/v1", MODEL_NAME: "policy", MODEL_RETRY_BASE_MS: "0", ...vars });
const body = (extra: Record<string, unknown> = {}): ChatBody => ({ model: "caller", messages: [{ role: "user", content: "hi" }], ...extra });

describe("the body vLLM gets", () => {
  it("the proxy's model; token flags forced when token ids are on (top_logprobs pinned to 0)", () => {
    const prepared = prepareChatBody(config({ RETURN_TOKEN_ID_INFORMATION: "true" }), body({ top_logprobs: 5, logprobs: false }), undefined);
    expect(prepared).toMatchObject({ model: "policy", logprobs: true, top_logprobs: 0, return_tokens_as_token_ids: true, return_token_ids: true });
    expect(() => prepareChatBody(config({ RETURN_TOKEN_ID_INFORMATION: "true" }), body({ n: 2 }), undefined)).toThrow(/n must be 1/);
  });

  it("extra_body under the caller's fields, a row's metadata.extra_body over the proxy's; sampling overrides over everything", () => {
    const proxy = config({
      EXTRA_BODY: JSON.stringify({ top_k: 20, min_p: 0.1, temperature: 0.1 }),
      SAMPLING_OVERRIDES: JSON.stringify({ temperature: 1.0, top_p: 1.0 }),
    });
    const prepared = prepareChatBody(proxy, body({ temperature: 0.7, top_p: 0.5, top_k: 5, metadata: { extra_body: '{"min_p": 0.05, "seed": 3}' } }), {
      extra_body: '{"min_p": 0.05, "seed": 3}',
    });
    expect(prepared).toMatchObject({ temperature: 1.0, top_p: 1.0, top_k: 5, min_p: 0.05, seed: 3 });
    expect(prepared).not.toHaveProperty("metadata");
  });

  it("chat_template_kwargs: the proxy's, the caller's, then the row's metadata (a JSON string, as NeMo Gym reads it)", () => {
    const proxy = config({ CHAT_TEMPLATE_KWARGS: JSON.stringify({ enable_thinking: true, a: 1 }) });
    const prepared = prepareChatBody(proxy, body({ chat_template_kwargs: { b: 2 } }), { chat_template_kwargs: '{"enable_thinking": false}' });
    expect(prepared.chat_template_kwargs).toEqual({ enable_thinking: false, a: 1, b: 2 });
    expect(() => prepareChatBody(proxy, body(), { chat_template_kwargs: "{not json" })).toThrow(/metadata.chat_template_kwargs/);
  });

  it("developer → system by default; stream options never reach vLLM", () => {
    const prepared = prepareChatBody(
      config(),
      body({ messages: [{ role: "developer", content: "d" }], stream: true, stream_options: { include_usage: true } }),
      undefined,
    );
    expect(prepared.messages[0]!.role).toBe("system");
    expect(prepared).not.toHaveProperty("stream");
    expect(prepared).not.toHaveProperty("stream_options");
  });
});

describe("configuration", () => {
  it("is checked with names", () => {
    expect(() => readConfig({ MODEL_NAME: "m" })).toThrow(/MODEL_BASE_URL/);
    expect(() => readConfig({ MODEL_NAME: "m", MODEL_BASE_URL: "http://a/v1", MODEL_MAX_ATTEMPTS: "0" })).toThrow(/MODEL_MAX_ATTEMPTS/);
    expect(() => readConfig({ MODEL_NAME: "m", MODEL_BASE_URL: "http://a/v1", EXTRA_BODY: "[1]" })).toThrow(/EXTRA_BODY must be a JSON object/);
    expect(readConfig({ MODEL_NAME: "m", MODEL_BASE_URLS: "http://a/v1/, http://b/v1", MODEL_MAX_RETRIES: "1" })).toMatchObject({
      upstreams: ["http://a/v1", "http://b/v1"],
      maxAttempts: 2,
    });
  });

  it("backoff doubles per retry, jittered, capped", () => {
    const c = config({ MODEL_RETRY_BASE_MS: "100", MODEL_RETRY_MAX_MS: "1000" });
    for (let i = 0; i < 50; i++) {
      expect(backoffMs(c, 1)).toBeGreaterThanOrEqual(50);
      expect(backoffMs(c, 1)).toBeLessThanOrEqual(100);
      expect(backoffMs(c, 3)).toBeGreaterThanOrEqual(200);
      expect(backoffMs(c, 10)).toBeLessThanOrEqual(1000);
    }
    expect(backoffMs(c, 1, 5000)).toBe(1000);
  });

  it("session affinity is NeMo Gym's: SHA-256's first 8 bytes, big-endian, modulo the pool", async () => {
    for (const session of ["a", "session-1", crypto.randomUUID()]) {
      const expected = Number(createHash("sha256").update(session).digest().readBigUInt64BE(0) % 3n);
      expect(await affinityIndex(session, 3)).toBe(expected);
    }
  });
});

describe("token ids read back", () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A stand-in vLLM: answers each call in turn with the next body, recording what it was sent. */
  function upstream(...answers: unknown[]): { url: string; body: unknown }[] {
    const seen: { url: string; body: unknown }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      seen.push({ url, body: JSON.parse(String(init.body ?? "null")) });
      return Response.json(answers.shift());
    });
    return seen;
  }
  const completion = (extra: Record<string, unknown>, choice: Record<string, unknown> = {}) => ({
    id: "c",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop", ...choice }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    ...extra,
  });
  const logprobs = (ids: number[]) => ({ content: ids.map((id) => ({ token: `token_id:${id}`, logprob: -id / 10, top_logprobs: [] })) });
  const on = config({ RETURN_TOKEN_ID_INFORMATION: "true" });

  it("from vLLM's prompt_token_ids and token_ids, checked against the logprob tokens", async () => {
    upstream(completion({ prompt_token_ids: [1, 2, 3] }, { token_ids: [7, 8], logprobs: logprobs([7, 8]) }));
    const turn = await callModel(on, prepareChatBody(on, body(), undefined), {});
    expect(turn.tokens).toEqual({ prompt_token_ids: [1, 2, 3], generation_token_ids: [7, 8], generation_log_probs: [-0.7, -0.8] });
  });

  it("from the logprob tokens and /tokenize (at the server root) when vLLM does not return token ids", async () => {
    const seen = upstream(completion({}, { logprobs: logprobs([7, 8]) }), { count: 3, max_model_len: 100, tokens: [1, 2, 3] });
    const turn = await callModel(on, prepareChatBody(on, body(), undefined), {});
    expect(turn.tokens?.prompt_token_ids).toEqual([1, 2, 3]);
    expect(seen[1]!.url).toBe("http://vllm.test/tokenize");
    expect(seen[1]!.body).toEqual({ model: "policy", messages: [{ role: "user", content: "hi" }] });
  });

  it("conflicting sources are an error, not a guess", async () => {
    upstream(completion({ prompt_token_ids: [1] }, { token_ids: [7, 9], logprobs: logprobs([7, 8]) }));
    await expect(callModel(on, prepareChatBody(on, body(), undefined), {})).rejects.toThrow(/disagree/);
    upstream(completion({ prompt_token_ids: [1] }, { logprobs: logprobs([7]) }));
    await expect(callModel(on, prepareChatBody(on, body(), undefined), {})).rejects.toThrow(/missing: choices\[0\].token_ids/);
    upstream(completion({}, { logprobs: { content: [{ token: "hello", logprob: -1 }] } }));
    await expect(callModel(on, prepareChatBody(on, body(), undefined), {})).rejects.toThrow(/token_id:<n>/);
    upstream(completion({}, {}));
    await expect(callModel(on, prepareChatBody(on, body(), undefined), {})).rejects.toThrow(/no choices\[0\].logprobs.content/);
  });

  it("a complete bundle on the message wins, checked against vLLM's ids", async () => {
    const bundle = { prompt_token_ids: [1], generation_token_ids: [2], generation_log_probs: [-1] };
    upstream(completion({ prompt_token_ids: [1] }, { token_ids: [2], message: { role: "assistant", content: "ok", ...bundle } }));
    expect((await callModel(on, prepareChatBody(on, body(), undefined), {})).tokens).toEqual(bundle);
    upstream(completion({ prompt_token_ids: [1] }, { token_ids: [3], message: { role: "assistant", content: "ok", ...bundle } }));
    await expect(callModel(on, prepareChatBody(on, body(), undefined), {})).rejects.toThrow(/disagree/);
  });

  it("reasoning from vLLM's field and from <think> text; a reasoning field without a reasoning parser is an error", async () => {
    upstream(completion({}, { message: { role: "assistant", reasoning: "a", content: "<think>b</think>answer" } }));
    const turn = await callModel(config(), body(), {});
    expect([turn.reasoning, turn.content]).toEqual([["a", "b"], "answer"]);
    upstream(completion({}, { message: { role: "assistant", reasoning_content: "a", content: "x" } }));
    await expect(callModel(config({ USES_REASONING_PARSER: "false" }), body(), {})).rejects.toThrow(/USES_REASONING_PARSER/);
  });
});

describe("an attempt's timer", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  const answer = { id: "c", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }] };

  it("is cleared once the turn is read (none left armed for MODEL_TIMEOUT_MS after each model turn)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    vi.stubGlobal("fetch", async () => Response.json(answer));
    const turn = await callModel(config({ MODEL_TIMEOUT_MS: "300000" }), body(), {});
    expect(turn.content).toBe("ok");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("still ends an upstream that does not answer: upstream_timeout after MODEL_TIMEOUT_MS per attempt", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    vi.stubGlobal(
      "fetch",
      (_url: string, init: RequestInit) => new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason))),
    );
    const failed = callModel(config({ MODEL_TIMEOUT_MS: "1000", MODEL_MAX_ATTEMPTS: "2" }), body(), {}).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await failed).toMatchObject({ status: 504, code: "upstream_timeout" });
  });
});
