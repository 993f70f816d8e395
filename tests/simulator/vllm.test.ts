// The simulator behaves as vLLM does where the proxy depends on it: token ids, logprobs, /tokenize, reasoning, limits, faults.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { latencySampler } from "../../local/simulator/latency.js";
import { chatCompletionRequestSchema } from "../../local/simulator/schema.js";
import { startSimulator, type Simulator } from "../../local/simulator/server.js";
import { decodeTokens, IM_END, promptTokenIds } from "../../local/simulator/template.js";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ maxModelLen: 4096 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  sim.configure({ faults: {}, reasoning: false, reasoningField: "reasoning_content", supportsReturnTokenIds: true });
});

// Wire bodies are read field by field; a type for each would repeat the assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sim.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A garbled body stays text.
  }
  return { status: response.status, body: parsed };
}

const weather = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];
const TOKEN_FLAGS = { logprobs: true, top_logprobs: 0, return_tokens_as_token_ids: true, return_token_ids: true };

describe("token ids and logprobs", () => {
  it("prompt_token_ids, token_ids and token_id:<n> logprobs agree with each other, with usage and with /tokenize", async () => {
    const messages = [{ role: "user", content: "What's the weather in Paris?" }];
    const { body } = await post("/v1/chat/completions", { messages, tools: weather, ...TOKEN_FLAGS });
    const choice = body.choices[0];
    expect(choice.token_ids.length).toBeGreaterThan(5);
    expect(choice.logprobs.content.map((e: { token: string }) => Number(e.token.slice("token_id:".length)))).toEqual(choice.token_ids);
    expect(choice.logprobs.content.every((e: { logprob: number; top_logprobs: unknown[] }) => e.logprob <= 0 && e.top_logprobs.length === 0)).toBe(true);
    expect(body.usage).toMatchObject({ prompt_tokens: body.prompt_token_ids.length, completion_tokens: choice.token_ids.length });
    // The model stopped by itself: its last token is the EOS, which the text leaves out.
    expect(choice.token_ids.at(-1)).toBe(IM_END);
    expect(sim.generations[0]).toMatchObject({ prompt_token_ids: body.prompt_token_ids, generation_token_ids: choice.token_ids });

    const tokenized = await post("/tokenize", { model: "edgegym-sim", messages, tools: weather });
    expect(tokenized.body).toEqual({ count: body.prompt_token_ids.length, max_model_len: 4096, tokens: body.prompt_token_ids, token_strs: null });
    const text = await post("/detokenize", { tokens: body.prompt_token_ids });
    expect(text.body.prompt).toContain("<|im_start|>user\nWhat's the weather in Paris?<|im_end|>");
  });

  it("tool calls in vLLM's parsed form: chatcmpl-tool ids, arguments re-dumped by Python's json", async () => {
    const { body } = await post("/v1/chat/completions", { messages: [{ role: "user", content: "weather in Oslo?" }], tools: weather, ...TOKEN_FLAGS });
    const message = body.choices[0].message;
    expect(message.tool_calls).toEqual([
      { id: expect.stringMatching(/^chatcmpl-tool-[0-9a-f]{32}$/), type: "function", function: { name: "get_weather", arguments: '{"city": "Oslo"}' } },
    ]);
    // What the model generated is what the tool call was parsed from.
    expect(sim.generations[0]!.text).toBe('<tool_call>\n{"name": "get_weather", "arguments": {"city":"Oslo"}}\n</tool_call>');
  });

  it("plain token strings without return_tokens_as_token_ids; top alternatives with top_logprobs", async () => {
    sim.script({ content: "Hello world" });
    const { body } = await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }], logprobs: true, top_logprobs: 2 });
    const content = body.choices[0].logprobs.content;
    expect(content.map((e: { token: string }) => e.token).join("")).toBe("Hello world<|im_end|>");
    expect(content[0].top_logprobs).toHaveLength(2);
    expect(body.prompt_token_ids).toBeNull();
  });

  it("an older vLLM ignores return_token_ids: no prompt_token_ids or token_ids, logprobs still there", async () => {
    sim.configure({ supportsReturnTokenIds: false });
    const { body } = await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }], ...TOKEN_FLAGS });
    expect(body.prompt_token_ids).toBeNull();
    expect(body.choices[0]).not.toHaveProperty("token_ids");
    expect(body.choices[0].logprobs.content.length).toBe(body.usage.completion_tokens);
  });

  it("earlier assistant turns that carry their token ids are kept exactly (the on-policy fix); re-templating alone would differ", async () => {
    const first = [{ role: "user", content: "weather in Lima?" }];
    const turn1 = (await post("/v1/chat/completions", { messages: first, tools: weather, ...TOKEN_FLAGS })).body;
    const call = turn1.choices[0].message.tool_calls[0];
    const history = [
      ...first,
      {
        role: "assistant",
        content: null,
        tool_calls: [call],
        prompt_token_ids: turn1.prompt_token_ids,
        generation_token_ids: turn1.choices[0].token_ids,
        generation_log_probs: [],
      },
      { role: "tool", tool_call_id: call.id, content: '{"weather": "mild"}' },
    ];
    const turn2 = (await post("/v1/chat/completions", { messages: history, tools: weather, ...TOKEN_FLAGS })).body;
    const carried = [...turn1.prompt_token_ids, ...turn1.choices[0].token_ids];
    expect(turn2.prompt_token_ids.slice(0, carried.length)).toEqual(carried);

    const stripped = (history as Record<string, unknown>[]).map(({ prompt_token_ids: _p, generation_token_ids: _g, generation_log_probs: _l, ...m }) => m);
    const retemplated = promptTokenIds(chatCompletionRequestSchema.parse({ messages: stripped, tools: weather }));
    expect(retemplated.slice(0, carried.length)).not.toEqual(carried);
  });
});

describe("reasoning", () => {
  it("comes back in reasoning_content when asked (enable_thinking or reasoning_effort), not otherwise", async () => {
    const ask = async (extra: Record<string, unknown>) =>
      (await post("/v1/chat/completions", { messages: [{ role: "user", content: "weather in Rome?" }], tools: weather, ...extra })).body.choices[0].message;
    expect((await ask({})).reasoning_content).toBeNull();
    expect((await ask({ chat_template_kwargs: { enable_thinking: true } })).reasoning_content).toMatch(/get_weather/);
    expect((await ask({ reasoning_effort: "low" })).reasoning_content).toMatch(/get_weather/);
    expect(sim.generations.at(-1)!.text).toMatch(/^<think>\n.*\n<\/think>\n\n<tool_call>/s);
  });

  it("a reasoning model thinks unless told not to; vLLM 0.16+ names the field `reasoning`", async () => {
    sim.configure({ reasoning: true, reasoningField: "reasoning" });
    const thinking = (await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] })).body.choices[0].message;
    expect(thinking.reasoning).toBeTruthy();
    expect(thinking).not.toHaveProperty("reasoning_content");
    const quiet = (await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }], chat_template_kwargs: { enable_thinking: false } })).body;
    expect(quiet.choices[0].message.reasoning).toBeNull();
  });
});

describe("limits", () => {
  it("max_tokens runs out: finish_reason length, exactly max_tokens tokens, no EOS", async () => {
    sim.script({ content: "one two three four five six seven eight nine ten" });
    const { body } = await post("/v1/chat/completions", { messages: [{ role: "user", content: "count" }], max_tokens: 4, ...TOKEN_FLAGS });
    expect(body.choices[0].finish_reason).toBe("length");
    expect(body.choices[0].token_ids).toHaveLength(4);
    expect(body.choices[0].message.content).toBe(decodeTokens(body.choices[0].token_ids));
  });

  it("context-length 400s, worded as vLLM words them", async () => {
    const long = "word ".repeat(5000);
    const prompt = await post("/v1/chat/completions", { messages: [{ role: "user", content: long }] });
    expect(prompt.status).toBe(400);
    expect(prompt.body.error.message).toMatch(/maximum context length is 4096 tokens\. However, your request has \d+ input tokens/);
    const completion = await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }], max_tokens: 5000 });
    expect(completion.body.error.message).toMatch(/maximum context length is 4096 tokens\. However, you requested \d+ tokens/);
  });
});

describe("fault injection", () => {
  const ask = () => fetch(`${sim.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }) });

  it("an error rate with a chosen status", async () => {
    sim.configure({ faults: { errorRate: 1, errorStatus: 429 } });
    const response = await ask();
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ error: { type: "RateLimitError", code: 429 } });
  });

  it("dropped connections and malformed bodies", async () => {
    sim.configure({ faults: { dropRate: 1 } });
    await expect(ask()).rejects.toThrow();
    sim.configure({ faults: { malformedRate: 1 } });
    const garbled = await ask();
    expect(garbled.status).toBe(200);
    await expect(garbled.json()).rejects.toThrow();
  });

  it("hung requests (never answered until the client gives up) and latency spikes, counted as injected", async () => {
    sim.configure({ faults: { hangRate: 1, hangMs: 60_000 } });
    await expect(
      fetch(`${sim.url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
    sim.configure({ faults: { spikeRate: 1, spikeMs: 1 } });
    expect((await ask()).status).toBe(200);
    expect(sim.injected).toMatchObject({ hang: 1, spike: 1 });
  });

  it("a share of requests, reproducibly from the seed", async () => {
    sim.configure({ faults: { errorRate: 0.3, errorStatus: [500, 503] } });
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await ask()).status);
    const failed = statuses.filter((s) => s !== 200);
    expect(failed.length).toBeGreaterThan(4);
    expect(failed.length).toBeLessThan(24);
    expect(new Set(failed)).toEqual(new Set([500, 503]));
    sim.reset();
    const again = [];
    for (let i = 0; i < 40; i++) again.push((await ask()).status);
    expect(again).toEqual(statuses);
  });

  it("scripted faults come first, and an API key is enforced like vllm serve --api-key", async () => {
    sim.script({ drop: true }, { malformed: true });
    await expect(ask()).rejects.toThrow();
    await expect((await ask()).json()).rejects.toThrow();
    const locked = await startSimulator({ apiKey: "secret" });
    try {
      const denied = await fetch(`${locked.url}/v1/models`);
      expect(denied.status).toBe(401);
      const allowed = await fetch(`${locked.url}/v1/models`, { headers: { authorization: "Bearer secret" } });
      expect(allowed.status).toBe(200);
    } finally {
      await locked.close();
    }
  });

  it("long-tailed latency: a log-normal with the given median and p99", () => {
    const sample = latencySampler({ median: 20, p99: 200 }, 7);
    const draws = Array.from({ length: 20_000 }, sample).sort((a, b) => a - b);
    expect(draws[10_000]!).toBeGreaterThan(18);
    expect(draws[10_000]!).toBeLessThan(22);
    expect(draws[19_800]!).toBeGreaterThan(170);
    expect(draws[19_800]!).toBeLessThan(235);
  });
});
