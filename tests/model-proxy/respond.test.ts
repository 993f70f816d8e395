// Chat completions → Responses, rule by rule; NeMo Gym's recorded outputs rebuilt from the vLLM answers behind them.
import { describe, expect, it } from "vitest";
import type { ModelTurn } from "../../functions/model-proxy/model-call.js";
import { toChatCompletion, toResponse } from "../../functions/model-proxy/respond.js";
import { responseEvents } from "../../functions/model-proxy/stream.js";
import { ResponsesCreateParams } from "../../protocol/index.js";
import { fixtureRollouts } from "../helpers/fixtures.js";

function turn(overrides: Partial<ModelTurn>): ModelTurn {
  return {
    id: "chatcmpl-1",
    created: 1_700_000_000,
    model: "policy",
    content: null,
    reasoning: [],
    toolCalls: [],
    finishReason: "stop",
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    tokens: null,
    logprobs: null,
    upstream: "http://vllm/v1",
    attempts: 1,
    ...overrides,
  };
}
const params = (value: unknown = { input: "x" }) => ResponsesCreateParams.parse(value);
const call = (id: string, name: string, args: string) => ({ id, type: "function" as const, function: { name, arguments: args } });

describe("a turn as a Responses Response", () => {
  it("rebuilds vLLM's recorded tool call (example_tool_call_multireward) as the same function_call", () => {
    const recorded = (fixtureRollouts("example_tool_call_multireward")[0]!.response as { output: Record<string, string>[] }).output[1]!;
    const response = toResponse(
      turn({
        toolCalls: [{ id: recorded.call_id!, type: "function", function: { name: recorded.name!, arguments: recorded.arguments! } }],
        finishReason: "tool_calls",
      }),
      params(),
    );
    expect(response.output).toEqual([
      { id: recorded.call_id, type: "function_call", call_id: recorded.call_id, name: "get_weather", arguments: '{"city": "New York"}', status: "completed" },
    ]);
    expect(response.status).toBe("completed");
  });

  it("rebuilds a recorded reasoning + answer (calendar) from vLLM's reasoning field and content", () => {
    const output = (fixtureRollouts("calendar")[0]!.response as { output: { type: string; summary?: { text: string }[]; content?: { text: string }[] }[] })
      .output;
    const thought = output.find((o) => o.type === "reasoning")!.summary![0]!.text;
    const answer = output.find((o) => o.type === "message")!.content![0]!.text;
    const response = toResponse(turn({ reasoning: [thought], content: answer }), params());
    expect(response.output.map((o) => o.type)).toEqual(["reasoning", "message"]);
    expect(response.output[0]).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text", text: thought }], status: "completed" });
    expect(response.output[1]).toMatchObject({ role: "assistant", content: [{ type: "output_text", text: answer, annotations: [] }] });
  });

  it("text becomes one output_text message; nothing at all becomes an empty one", () => {
    expect(toResponse(turn({ content: "hi" }), params()).output).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "hi", annotations: [] }],
      },
    ]);
    expect(toResponse(turn({}), params()).output).toMatchObject([{ type: "message", content: [{ text: "" }] }]);
  });

  it.each([
    ["length", "max_output_tokens"],
    ["content_filter", "content_filter"],
  ])("finish_reason %s → status incomplete, reason %s", (finishReason, reason) => {
    const response = toResponse(turn({ content: "cut", finishReason }), params());
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason });
  });

  it("usage is carried over, the provider's total as given", () => {
    const response = toResponse(
      turn({
        usage: {
          prompt_tokens: 768,
          completion_tokens: 142,
          total_tokens: 911,
          prompt_tokens_details: { cached_tokens: 512 },
          completion_tokens_details: { reasoning_tokens: 100 },
        },
      }),
      params(),
    );
    expect(response.usage).toEqual({
      input_tokens: 768,
      input_tokens_details: { cached_tokens: 512 },
      output_tokens: 142,
      output_tokens_details: { reasoning_tokens: 100 },
      total_tokens: 911,
    });
  });

  it("token ids go on the last output item only", () => {
    const tokens = { prompt_token_ids: [1, 2], generation_token_ids: [3, 4], generation_log_probs: [-0.1, -0.2] };
    const response = toResponse(turn({ reasoning: ["r"], content: "c", toolCalls: [call("a", "f", "{}"), call("b", "g", "{}")], tokens }), params());
    expect(response.output.map((o) => "prompt_token_ids" in o)).toEqual([false, false, false, true]);
    expect(response.output[3]).toMatchObject({ call_id: "b", ...tokens });
  });

  it("echoes the request's settings, as NeMo Gym's converter does", () => {
    const response = toResponse(
      turn({ content: "x" }),
      params({ input: "x", instructions: "be brief", temperature: 0.3, tool_choice: "none", metadata: { a: "1" } }),
    );
    expect(response).toMatchObject({
      object: "response",
      model: "policy",
      instructions: "be brief",
      temperature: 0.3,
      tool_choice: "none",
      metadata: { a: "1" },
      parallel_tool_calls: true,
      tools: [],
    });
  });
});

describe("a turn as a chat completion (NeMo Gym's /v1/chat/completions)", () => {
  it("folds reasoning into the content as <think> and puts token ids on the message", () => {
    const tokens = { prompt_token_ids: [1], generation_token_ids: [2], generation_log_probs: [-1] };
    const completion = toChatCompletion(turn({ reasoning: ["why"], content: "because", tokens }));
    expect(completion.choices).toEqual([
      { index: 0, message: { role: "assistant", content: "<think>why</think>because", ...tokens }, finish_reason: "stop", logprobs: null },
    ]);
  });
});

describe("streamed Responses events", () => {
  it("follow OpenAI's order, numbered, ending with the finished response", () => {
    const response = toResponse(turn({ reasoning: ["r"], content: "hi", toolCalls: [call("c", "f", '{"a":1}')] }), params());
    const events = responseEvents(response);
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.at(-1)!.response).toEqual(response);
  });
});
