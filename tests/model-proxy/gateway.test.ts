// The model proxy in workerd, reached through the gateway by the official openai client: shapes, token ids, streams, failures.
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import type { Simulator } from "../../local/simulator/server.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
let sim: Simulator;
let client: OpenAI;

beforeAll(async () => {
  local = await startTestLocal({
    environments: [],
    simulator: { maxModelLen: 4096 },
    vars: {
      modelProxy: {
        RETURN_TOKEN_ID_INFORMATION: "true",
        MODEL_MAX_ATTEMPTS: "3",
        MODEL_RETRY_BASE_MS: "5",
        MODEL_RETRY_MAX_MS: "20",
        SAMPLING_OVERRIDES: JSON.stringify({ temperature: 0.9 }),
      },
    },
  });
  sim = local.simulator!;
  client = new OpenAI({ baseURL: `${local.url}/v1`, apiKey: local.token!, maxRetries: 0 });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => {
  sim.reset();
  sim.configure({ supportsReturnTokenIds: true, faults: {} });
});

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "Get the weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};
const chatWeatherTool = { type: "function" as const, function: { name: "get_weather", parameters: weatherTool.parameters } };

/** The training fields of an output item or message, as the simulator's generation they must equal. */
function expectTokensOf(value: unknown, generation: number): void {
  const record = sim.generations[generation]!;
  expect(value).toMatchObject({
    prompt_token_ids: record.prompt_token_ids,
    generation_token_ids: record.generation_token_ids,
    generation_log_probs: record.generation_log_probs,
  });
}

describe("the openai client against the gateway", () => {
  it("responses.create: a well-formed Response, the generation's token ids on its last item", async () => {
    const response = await client.responses.create({ model: "anything", input: "Say hello." });
    expect(response).toMatchObject({ object: "response", status: "completed", model: "edgegym-sim", error: null });
    expect(response.output_text.length).toBeGreaterThan(0);
    expect(response.usage?.input_tokens).toBe(sim.generations[0]!.prompt_token_ids.length);
    expectTokensOf(response.output.at(-1), 0);
  });

  it("responses.create with tools: a function_call item", async () => {
    const response = await client.responses.create({ model: "anything", input: "What's the weather in Paris?", tools: [weatherTool] });
    const call = response.output.find((item) => item.type === "function_call");
    expect(call && call.type === "function_call" && [call.name, JSON.parse(call.arguments)]).toEqual(["get_weather", { city: "Paris" }]);
    expect(call?.type === "function_call" && call.call_id).toMatch(/^chatcmpl-tool-/);
  });

  it("responses.stream: OpenAI's events, accumulated by the client into the same Response", async () => {
    const stream = client.responses.stream({ model: "anything", input: "What's the weather in Oslo?", tools: [weatherTool], reasoning: { effort: "low" } });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(final.output.map((item) => item.type)).toEqual(["reasoning", "function_call"]);
    expectTokensOf(final.output.at(-1), 0);
  });

  it("chat.completions.create, plain and with tools: NeMo Gym's message with its token ids", async () => {
    const plain = await client.chat.completions.create({ model: "anything", messages: [{ role: "user", content: "hi" }] });
    expect(plain.choices[0]!.message.role).toBe("assistant");
    expect(plain.choices[0]!.finish_reason).toBe("stop");
    expectTokensOf(plain.choices[0]!.message, 0);

    const tools = await client.chat.completions.create({
      model: "anything",
      messages: [{ role: "user", content: "weather in Rome?" }],
      tools: [chatWeatherTool],
    });
    const call = tools.choices[0]!.message.tool_calls?.[0];
    expect(call?.type === "function" && [call.function.name, JSON.parse(call.function.arguments)]).toEqual(["get_weather", { city: "Rome" }]);
    expect(tools.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("chat.completions.stream: chunks the client reassembles; vLLM's token ids in the chunks", async () => {
    const stream = client.chat.completions.stream({
      model: "anything",
      messages: [{ role: "user", content: "weather in Lima?" }],
      tools: [chatWeatherTool],
      stream_options: { include_usage: true },
    });
    const chunks: Record<string, unknown>[] = [];
    for await (const chunk of stream) chunks.push(chunk as unknown as Record<string, unknown>);
    const final = await stream.finalChatCompletion();
    const call = final.choices[0]!.message.tool_calls?.[0];
    expect(call?.type === "function" && JSON.parse(call.function.arguments)).toEqual({ city: "Lima" });
    expect(chunks[0]!.prompt_token_ids).toEqual(sim.generations[0]!.prompt_token_ids);
    const ids = chunks.flatMap((c) => (c.choices as { token_ids?: number[] }[])[0]?.token_ids ?? []);
    expect(ids).toEqual(sim.generations[0]!.generation_token_ids);
    expect(final.usage?.completion_tokens).toBe(ids.length);
  });
});

describe("token ids", () => {
  it("fall back to /tokenize for prompt ids when vLLM does not return them", async () => {
    sim.configure({ supportsReturnTokenIds: false });
    const response = await client.responses.create({ model: "anything", input: "Say hello." });
    expectTokensOf(response.output.at(-1), 0);
  });

  it("a max_output_tokens stop: incomplete, with exactly that many generated ids", async () => {
    sim.script({ content: "one two three four five six seven eight" });
    const response = await client.responses.create({ model: "anything", input: "count", max_output_tokens: 3 });
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect((response.output.at(-1) as unknown as { generation_token_ids: number[] }).generation_token_ids).toHaveLength(3);
  });
});

describe("overrides reach vLLM", () => {
  it("the row's metadata.extra_body and metadata.chat_template_kwargs; sampling overrides beat the caller", async () => {
    await client.responses.create({
      model: "anything",
      input: "hi",
      temperature: 0.1,
      metadata: { extra_body: '{"top_k": 7}', chat_template_kwargs: '{"enable_thinking": true}' },
    });
    expect(sim.requests[0]).toMatchObject({
      model: "edgegym-sim",
      temperature: 0.9,
      top_k: 7,
      chat_template_kwargs: { enable_thinking: true },
      logprobs: true,
      top_logprobs: 0,
      return_tokens_as_token_ids: true,
      return_token_ids: true,
    });
  });
});

describe("failures", () => {
  const ask = () => postJson(`${local.url}/v1/responses`, { input: "hi" });

  it("a context-length 400 is an empty incomplete response, as NeMo Gym answers it", async () => {
    const answer = await postJson(`${local.url}/v1/responses`, { input: "word ".repeat(5000) });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    expect(answer.body.output).toMatchObject([{ type: "message", content: [{ type: "output_text", text: "" }] }]);
    expect(answer.body.output[0]).not.toHaveProperty("prompt_token_ids");
  });

  it("429/5xx, dropped connections and malformed bodies are retried within the budget", async () => {
    sim.script({ status: 503, error: "overloaded" }, { drop: true });
    const first = await ask();
    expect(first.status).toBe(200);
    expect(first.headers.get("x-edgegym-attempts")).toBe("3");
    sim.script({ status: 429, error: "slow down" }, { malformed: true });
    const second = await ask();
    expect(second.status).toBe(200);
    expect(sim.requests).toHaveLength(6);
  });

  it("retries stop at the budget, with an error naming the upstream and the last status", async () => {
    sim.script(...Array.from({ length: 5 }, () => ({ status: 502, error: "bad gateway" })));
    const answer = await ask();
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe("upstream_failed");
    // The upstream by its index in the pool: its address is never shown to callers.
    expect(answer.body.error.message).toContain("upstream #0");
    expect(JSON.stringify(answer.body)).not.toContain(new URL(sim.url).host);
    expect(answer.body.error.message).toContain("after 3 attempts; last: HTTP 502: bad gateway");
    expect(sim.requests).toHaveLength(3);
  });

  it("an upstream 401 is a configuration error, not a 500, and is not retried", async () => {
    sim.script({ status: 401, error: "invalid api key" });
    const answer = await ask();
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe("upstream_auth");
    expect(answer.body.error.message).toMatch(/MODEL_API_KEY/);
    expect(sim.requests).toHaveLength(1);
  });

  it("any other 400 is the request's fault, passed on as a 400", async () => {
    sim.script({ status: 400, error: "temperature must be non-negative" });
    const answer = await ask();
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "upstream_rejected", message: expect.stringContaining("temperature must be non-negative") });
  });

  it("an item with no Chat Completions equivalent is a 400 naming it", async () => {
    const answer = await postJson(`${local.url}/v1/responses`, {
      input: [
        { role: "user", content: "hi" },
        { type: "file_search_call", id: "fs", queries: [], status: "completed" },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/input\[1\] has type "file_search_call"/);
  });
});
