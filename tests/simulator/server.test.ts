// The simulator's HTTP surface: OpenAI/vLLM wire format, streaming, scripting, latency and errors.
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../local/simulator/server.js";

const weatherTools = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "Get the current weather for a city.",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ model: "edgegym-sim" });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.reset();
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${sim.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The JSON body, typed by the test that knows what it expects. */
async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

interface Completion {
  choices: Array<{
    index: number;
    finish_reason: string;
    logprobs: null;
    message: { role: string; content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> };
  }>;
}

/** Reads an SSE body back into its JSON payloads, checking it ends with [DONE]. */
async function readSse(response: Response): Promise<unknown[]> {
  const lines = (await response.text()).split("\n").filter((line) => line.startsWith("data: "));
  expect(lines.at(-1)).toBe("data: [DONE]");
  return lines.slice(0, -1).map((line) => JSON.parse(line.slice("data: ".length)) as unknown);
}

describe("simulator server", () => {
  it("listens on an ephemeral 127.0.0.1 port and reports health", async () => {
    expect(sim.url).toBe(`http://127.0.0.1:${sim.port}`);
    const response = await fetch(`${sim.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("lists its model like vLLM", async () => {
    const body = await (await fetch(`${sim.url}/v1/models`)).json();
    expect(body).toEqual({
      object: "list",
      data: [{ id: "edgegym-sim", object: "model", created: expect.any(Number), owned_by: "edgegym-simulator", max_model_len: 32768 }],
    });
  });

  it("answers a chat completion with a tool call, readable by the OpenAI SDK", async () => {
    const client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: "unused" });
    const completion = await client.chat.completions.create({
      model: "edgegym-sim",
      messages: [{ role: "user", content: "what's the weather in San Francisco?" }],
      tools: weatherTools,
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.object).toBe("chat.completion");
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls?.[0];
    expect(call?.type).toBe("function");
    // vLLM's tool-call ids.
    expect(call?.id).toMatch(/^chatcmpl-tool-[0-9a-f]{32}$/);
    if (call?.type !== "function") throw new Error("expected a function call");
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "San Francisco" });
    expect(completion.usage?.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]?.messages[0]?.content).toBe("what's the weather in San Francisco?");
  });

  it("answers in text without tools", async () => {
    const response = await post("/v1/chat/completions", { messages: [{ role: "user", content: "Say hello" }] });
    const body = await json<Completion>(response);
    expect(body.choices[0]).toMatchObject({ index: 0, finish_reason: "stop", logprobs: null });
    // vLLM's message: the OpenAI fields, an empty tool_calls list and its reasoning field.
    expect(body.choices[0]?.message).toEqual({
      role: "assistant",
      content: expect.stringContaining("Say hello"),
      refusal: null,
      annotations: null,
      audio: null,
      function_call: null,
      tool_calls: [],
      reasoning_content: null,
    });
  });

  it("streams a completion as SSE chunks that reassemble to the same reply", async () => {
    const response = await post("/v1/chat/completions", {
      messages: [{ role: "user", content: "weather in Tokyo please" }],
      tools: weatherTools,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const chunks = (await readSse(response)) as Array<{
      object: string;
      choices: Array<{
        delta: { role?: string; tool_calls?: Array<{ index: number; function: { name?: string; arguments: string } }> };
        finish_reason: string | null;
      }>;
      usage?: { total_tokens: number };
    }>;
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    const deltas = chunks.flatMap((c) => c.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(deltas.find((d) => d.function.name)?.function.name).toBe("get_weather");
    expect(JSON.parse(deltas.map((d) => d.function.arguments).join(""))).toEqual({ city: "Tokyo" });
    expect(chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(["tool_calls"]);
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("streams text through the OpenAI SDK", async () => {
    const client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: "unused" });
    sim.script({ content: "Hello there, streaming world." });
    const stream = await client.chat.completions.create({
      model: "edgegym-sim",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("Hello there, streaming world.");
  });

  it("consumes scripted replies in order, then falls back to the policy", async () => {
    const queued = await post("/simulator/script", {
      replies: [{ content: "first" }, { tool_calls: [{ name: "get_weather", arguments: { city: "Paris" } }] }],
    });
    expect(await queued.json()).toEqual({ queued: 2, pending: 2 });
    sim.script({ content: "third", finish_reason: "length" });

    const ask = async (): Promise<Completion> => json<Completion>(await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] }));
    expect((await ask()).choices[0]?.message.content).toBe("first");
    const second = (await ask()).choices[0]!;
    expect(second.finish_reason).toBe("tool_calls");
    // As vLLM's hermes parser returns them: re-dumped by Python's json.
    expect(second.message.tool_calls?.[0]?.function.arguments).toBe('{"city": "Paris"}');
    const third = (await ask()).choices[0]!;
    expect(third).toMatchObject({ finish_reason: "length", message: { content: "third" } });
    expect((await ask()).choices[0]?.message.content).toContain("hi");

    const recorded = await json<{ requests: unknown[] }>(await fetch(`${sim.url}/simulator/requests`));
    expect(recorded.requests).toHaveLength(4);
  });

  it("clears the script on DELETE /simulator/script", async () => {
    sim.script({ content: "never" });
    const cleared = await fetch(`${sim.url}/simulator/script`, { method: "DELETE" });
    expect(await cleared.json()).toEqual({ cleared: 1 });
    const body = await json<Completion>(await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] }));
    expect(body.choices[0]?.message.content).not.toBe("never");
  });

  it("answers a scripted error status with vLLM's error envelope", async () => {
    sim.script({ status: 503, error: "overloaded" });
    const response = await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: { message: "overloaded", type: "ServiceUnavailableError", param: null, code: 503 },
    });
  });

  it("waits for a scripted delay", async () => {
    sim.script({ content: "slow", delay_ms: 120 });
    const started = performance.now();
    await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] });
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it.each([
    ["invalid JSON", "{not json", null],
    ["no messages", { model: "edgegym-sim" }, "messages"],
    ["messages not an array", { messages: "hi" }, "messages"],
    ["empty messages", { messages: [] }, "messages"],
    ["an unknown role", { messages: [{ role: "wizard", content: "hi" }] }, "messages.0.role"],
  ])("answers 400 to %s", async (_label, body, param) => {
    const response = await post("/v1/chat/completions", body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), type: "BadRequestError", param, code: 400 },
    });
    expect(sim.requests).toHaveLength(0);
  });

  it("answers 404 to unknown routes in the same envelope", async () => {
    const response = await fetch(`${sim.url}/v1/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: "NotFoundError", code: 404 } });
  });

  it("rejects prompts longer than max_model_len like vLLM", async () => {
    const response = await post("/v1/chat/completions", {
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 40000,
    });
    expect(response.status).toBe(400);
    expect((await json<{ error: { message: string } }>(response)).error.message).toMatch(/maximum context length is 32768 tokens/);
  });
});

describe("simulator latency", () => {
  it("honours a fixed latency", async () => {
    const slow = await startSimulator({ latencyMs: 100 });
    try {
      const started = performance.now();
      await fetch(`${slow.url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    } finally {
      await slow.close();
    }
  });

  it("closes promptly even with a request waiting on latency", async () => {
    const slow = await startSimulator({ latencyMs: { min: 5000, max: 6000 }, seed: 7 });
    const pending = fetch(`${slow.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await slow.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe("simulator load gauges (vLLM's /metrics)", () => {
  it("counts the chat completions it holds, the most at once, and those answered, in vLLM's Prometheus names", async () => {
    const slow = await startSimulator({ latencyMs: 300, model: "gauged" });
    const gauge = async (name: string) => {
      const text = await (await fetch(`${slow.url}/metrics`)).text();
      const line = text.split("\n").find((l) => l.startsWith(`${name}{model_name="gauged"}`));
      return Number(line?.split(" ").pop());
    };
    try {
      const chat = () =>
        fetch(`${slow.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }) }).then((r) =>
          r.arrayBuffer(),
        );
      const held = Promise.all([chat(), chat(), chat()]);
      // Polled until all three are held (each waits 300 ms before it is answered).
      let running = 0;
      for (let tries = 0; running < 3 && tries < 50; tries++) running = await gauge("vllm:num_requests_running");
      expect(running).toBe(3);
      expect(slow.load.running).toBe(3);
      await held;
      expect(await gauge("vllm:num_requests_running")).toBe(0);
      expect(await gauge("edgegym_simulator:num_requests_running_peak")).toBe(3);
      expect(await gauge("edgegym_simulator:requests_answered_total")).toBe(3);
      expect(await gauge("vllm:num_requests_waiting")).toBe(0);
    } finally {
      await slow.close();
    }
  });
});
