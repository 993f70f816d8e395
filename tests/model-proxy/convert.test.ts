// Responses → Chat Completions, rule by rule, on NeMo Gym's recorded conversations where they fit.
import { describe, expect, it } from "vitest";
import { rejectUnsupportedItems, toChatRequest, type ConvertOptions } from "../../functions/model-proxy/convert.js";
import { EdgegymError, ResponsesCreateParams } from "../../protocol/index.js";
import { fixtureRollouts } from "../helpers/fixtures.js";

const OPTIONS: ConvertOptions = { model: "policy", developerAsSystem: true, reasoningParser: true, returnTokenIds: false };

/** A recorded rollout's whole trajectory (its input then its output) as one request, as the agent sends the last turn. */
function trajectory(name: string, index = 0): ResponsesCreateParams {
  const record = fixtureRollouts(name)[index]!;
  const params = record.responses_create_params as { input: unknown[] };
  const output = (record.response as { output: unknown[] }).output;
  return ResponsesCreateParams.parse({ ...params, input: [...params.input, ...output] });
}

const convert = (params: unknown, options: Partial<ConvertOptions> = {}) => toChatRequest(ResponsesCreateParams.parse(params), { ...OPTIONS, ...options });

// Chat messages are open records; tests read them field by field.
type Message = Record<string, unknown> & { role: string };
const messagesOf = (params: unknown, options: Partial<ConvertOptions> = {}) => convert(params, options).messages as Message[];

describe("input items → chat messages", () => {
  it("a recorded multi-step trajectory: calls of one turn on one assistant message, outputs as tool messages", () => {
    const request = toChatRequest(trajectory("example_session_state_mgmt"), OPTIONS);
    expect(request.model).toBe("policy");
    const messages = request.messages as Message[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant", "tool", "assistant"]);
    const calls = messages[1]!.tool_calls as { id: string; type: string; function: { name: string; arguments: string } }[];
    expect(calls.map((c) => [c.type, c.function.name, c.function.arguments])).toEqual([
      ["function", "increment_counter", '{"count":13}'],
      ["function", "increment_counter", '{"count":14}'],
    ]);
    expect(messages[1]!.content).toBeNull();
    expect(messages[2]).toEqual({ role: "tool", tool_call_id: calls[0]!.id, content: '{"success": true}' });
  });

  it("vLLM's own recorded turn (reasoning + function call) folds into one assistant message; developer becomes system", () => {
    const messages = messagesOf(trajectory("example_tool_call_multireward"));
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    const turn = messages[2]!;
    expect(turn.tool_calls).toEqual([
      { id: "chatcmpl-tool-aecb7a4507d66fe1", type: "function", function: { name: "get_weather", arguments: '{"city": "New York"}' } },
    ]);
    // The recorded reasoning item has an empty summary: nothing to send back.
    expect(turn).not.toHaveProperty("reasoning");
  });

  it("keeps developer messages when asked to", () => {
    const messages = messagesOf(trajectory("example_tool_call_multireward"), { developerAsSystem: false });
    expect(messages[0]!.role).toBe("developer");
  });

  it("a recorded multi-turn chat keeps its assistant turns and its system message first", () => {
    const record = fixtureRollouts("calendar")[0]!;
    const messages = messagesOf(record.responses_create_params);
    const input = (record.responses_create_params as { input: { role: string }[] }).input;
    expect(messages.map((m) => m.role)).toEqual(input.map((i) => i.role));
    expect(messages[0]!.role).toBe("system");
  });

  it("reasoning items go back as vLLM's reasoning field; with no reasoning parser, as <think> text", () => {
    const input = [
      { role: "user", content: "q" },
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "think first" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "answer" }] },
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
    ];
    const [, parsed] = messagesOf({ input });
    expect(parsed).toEqual({
      role: "assistant",
      content: "answer",
      reasoning_content: "think first",
      reasoning: "think first",
      tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
    });
    const [, raw] = messagesOf({ input }, { reasoningParser: false });
    expect(raw!.content).toBe("<think>think first</think>answer");
    expect(raw).not.toHaveProperty("reasoning");
  });

  it("<think> spans already in assistant text become reasoning too", () => {
    const [, message] = messagesOf({
      input: [
        { role: "user", content: "q" },
        { role: "assistant", content: "<think>hmm</think>done" },
      ],
    });
    expect(message).toMatchObject({ content: "done", reasoning: "hmm" });
  });

  it("instructions and the leading system/developer run fold into one system message", () => {
    const messages = messagesOf({
      instructions: "be brief",
      input: [
        { role: "system", content: "you are a bot" },
        { role: "developer", content: [{ type: "input_text", text: "use tools" }] },
        { role: "user", content: "hi" },
      ],
    });
    expect(messages).toEqual([
      { role: "system", content: "be brief\n\nyou are a bot\n\nuse tools" },
      { role: "user", content: "hi" },
    ]);
  });

  it("a string input is one user message; content parts become chat parts, images included", () => {
    expect(messagesOf({ input: "hi" })).toEqual([{ role: "user", content: "hi" }]);
    const [message] = messagesOf({
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "what is this?" },
            { type: "input_image", image_url: "data:image/png;base64,AA" },
          ],
        },
      ],
    });
    expect(message!.content).toEqual([
      { type: "text", text: "what is this?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AA", detail: "auto" } },
    ]);
  });

  it("function_call_output with content parts becomes a tool message with text parts", () => {
    const messages = messagesOf({
      input: [
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: "42" }] },
      ],
    });
    expect(messages[1]).toEqual({ role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "42" }] });
  });
});

describe("request fields", () => {
  it("tools are re-wrapped as chat function tools (strict dropped, as NeMo Gym does)", () => {
    const params = fixtureRollouts("example_tool_call_multireward")[0]!.responses_create_params as object;
    const request = convert(params);
    expect(request.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Get the current weather for a city.",
          parameters: {
            type: "object",
            properties: { city: { type: "string", description: "The city to get the weather for." } },
            required: ["city"],
            additionalProperties: false,
          },
        },
      },
    ]);
    expect([request.tool_choice, request.parallel_tool_calls]).toEqual(["auto", true]);
    // The recorded row's many nulls (store, truncation, top_p…) say nothing and are not sent.
    expect(Object.keys(request).sort()).toEqual(["messages", "model", "parallel_tool_calls", "tool_choice", "tools"]);
  });

  it("tool_choice and parallel_tool_calls are dropped without tools; 'required' without tools is a 400", () => {
    const request = convert({ input: "hi", tool_choice: "auto", parallel_tool_calls: false });
    expect(request).not.toHaveProperty("tool_choice");
    expect(request).not.toHaveProperty("parallel_tool_calls");
    expect(() => convert({ input: "hi", tool_choice: "required" })).toThrow(/needs at least one tool/);
  });

  it("a named tool_choice takes the chat form", () => {
    const request = convert({ input: "hi", tools: [{ type: "function", name: "f" }], tool_choice: { type: "function", name: "f" } });
    expect(request.tool_choice).toEqual({ type: "function", function: { name: "f" } });
  });

  it("max_output_tokens → max_tokens, reasoning.effort → reasoning_effort, text.format → response_format; sampling and vLLM extras pass", () => {
    const request = convert({
      input: "hi",
      max_output_tokens: 64,
      reasoning: { effort: "low" },
      temperature: 0.5,
      top_p: 0.9,
      top_k: 20,
      store: true,
      text: { format: { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true } },
    });
    expect(request).toMatchObject({ max_tokens: 64, reasoning_effort: "low", temperature: 0.5, top_p: 0.9, top_k: 20 });
    expect(request.response_format).toEqual({ type: "json_schema", json_schema: { name: "answer", schema: { type: "object" }, strict: true } });
    expect(request).not.toHaveProperty("store");
    expect(request).not.toHaveProperty("max_output_tokens");
  });
});

describe("what Chat Completions cannot carry: a 400 naming it", () => {
  it("an item type without a chat equivalent", () => {
    const body = {
      input: [
        { role: "user", content: "hi" },
        { type: "web_search_call", id: "ws_1", status: "completed" },
      ],
    };
    expect(() => rejectUnsupportedItems(body)).toThrow(EdgegymError);
    expect(() => rejectUnsupportedItems(body)).toThrow(/input\[1\] has type "web_search_call"/);
  });

  it("a hosted tool", () => {
    expect(() => convert({ input: "hi", tools: [{ type: "web_search" }] })).toThrow(/tools\[0\] has type "web_search"/);
  });

  it("a content part kind", () => {
    expect(() => convert({ input: [{ role: "user", content: [{ type: "input_file", file_id: "f" }] }] })).toThrow(
      /input\[0\]\.content\[0\] has type "input_file"/,
    );
  });
});

describe("token ids carried back (the on-policy fix)", () => {
  const tokens = (n: number) => ({ prompt_token_ids: [n, n + 1], generation_token_ids: [n + 2], generation_log_probs: [-0.5] });
  const input = [
    { role: "user", content: "q" },
    { type: "function_call", call_id: "c1", name: "f", arguments: "{}", ...tokens(1) },
    { type: "function_call_output", call_id: "c1", output: "ok" },
    { type: "reasoning", id: "r", summary: [{ type: "summary_text", text: "t" }] },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }], ...tokens(10) },
  ];

  it("each model call's ids ride on its assistant message", () => {
    const messages = messagesOf({ input }, { returnTokenIds: true });
    expect(messages[1]).toMatchObject(tokens(1));
    expect(messages[3]).toMatchObject({ content: "done", reasoning: "t", ...tokens(10) });
  });

  it("are left out when token ids are off", () => {
    expect(messagesOf({ input })[1]).not.toHaveProperty("prompt_token_ids");
  });

  it("partial or mismatched token information is a 400, never a guess", () => {
    const partial = [{ type: "function_call", call_id: "c", name: "f", arguments: "{}", prompt_token_ids: [1], generation_token_ids: [2] }];
    expect(() => messagesOf({ input: partial }, { returnTokenIds: true })).toThrow(/missing: generation_log_probs/);
    const mismatched = [
      { type: "function_call", call_id: "c", name: "f", arguments: "{}", prompt_token_ids: [1], generation_token_ids: [2, 3], generation_log_probs: [-1] },
    ];
    expect(() => messagesOf({ input: mismatched }, { returnTokenIds: true })).toThrow(/2 generation token ids but 1 log probabilities/);
  });
});
