// Responses ⇄ Chat Completions conversion, on NeMo Gym's recorded conversations.
import type { ChatCompletion } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { fromChatCompletion, toChatRequest } from "../../functions/model-proxy/convert.js";
import { EdgegymError, ResponsesCreateParams } from "../../protocol/index.js";
import { fixtureRollouts } from "../helpers/fixtures.js";

describe("toChatRequest", () => {
  it("folds a recorded multi-step trajectory into chat messages: developer → system, calls on one assistant message, outputs as tool messages", () => {
    const record = fixtureRollouts("example_session_state_mgmt")[0]!;
    const params = record.responses_create_params as ResponsesCreateParams;
    const output = (record.response as { output: unknown[] }).output;
    const request = toChatRequest(ResponsesCreateParams.parse({ ...params, input: [...(params.input as unknown[]), ...output] }), "policy");
    expect(request.model).toBe("policy");
    expect(request.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant", "tool", "assistant"]);
    const first = request.messages[1] as { tool_calls: { id: string; function: { name: string; arguments: string } }[] };
    expect(first.tool_calls.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ["increment_counter", '{"count":13}'],
      ["increment_counter", '{"count":14}'],
    ]);
    expect(request.messages[2]).toEqual({ role: "tool", tool_call_id: first.tool_calls[0]!.id, content: '{"success": true}' });
    expect(request.tools?.map((t) => t.type === "function" && t.function.name)).toEqual(["increment_counter", "get_counter_value"]);
    expect(request.tool_choice).toBe("auto");
    expect(request.parallel_tool_calls).toBe(true);
  });

  it("maps instructions, a string input and sampling fields", () => {
    const request = toChatRequest(
      ResponsesCreateParams.parse({ input: "hi", instructions: "be brief", temperature: 0.5, top_p: 0.9, max_output_tokens: 64, tool_choice: "auto" }),
      "m",
    );
    expect(request.messages).toEqual([{ role: "system", content: "be brief" }, { role: "user", content: "hi" }]);
    expect([request.temperature, request.top_p, request.max_tokens]).toEqual([0.5, 0.9, 64]);
    // tool_choice means nothing without tools, and vLLM rejects it there.
    expect(request.tool_choice).toBeUndefined();
  });

  it("drops reasoning items and joins content parts", () => {
    const request = toChatRequest(
      ResponsesCreateParams.parse({
        input: [
          { role: "user", content: [{ type: "input_text", text: "a" }, { type: "input_text", text: "b" }] },
          { type: "reasoning", id: "r", summary: [{ type: "summary_text", text: "thinking" }] },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "answer" }] },
        ],
      }),
      "m",
    );
    expect(request.messages).toEqual([{ role: "user", content: "ab" }, { role: "assistant", content: "answer" }]);
  });

  it("refuses a tool kind Chat Completions cannot carry, with a 400 naming it", () => {
    const params = ResponsesCreateParams.parse({ input: "hi", tools: [{ type: "web_search" }] });
    expect(() => toChatRequest(params, "m")).toThrow(EdgegymError);
    expect(() => toChatRequest(params, "m")).toThrow(/tools\[0\] has type "web_search"/);
  });
});

describe("fromChatCompletion", () => {
  const completion = (message: Record<string, unknown>, finish_reason = "stop"): ChatCompletion =>
    ({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1700000000,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason, logprobs: null }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }) as ChatCompletion;

  it("turns text into an output_text message and tool calls into function_call items", () => {
    const response = fromChatCompletion(
      completion({ content: "calling", tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: '{"a":1}' } }] }, "tool_calls"),
      ResponsesCreateParams.parse({ input: "x" }),
    );
    expect(response.status).toBe("completed");
    expect(response.output[0]).toMatchObject({ type: "message", role: "assistant", content: [{ type: "output_text", text: "calling" }] });
    expect(response.output[1]).toMatchObject({ type: "function_call", call_id: "call_1", name: "f", arguments: '{"a":1}' });
    expect(response.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
  });

  it("a length stop is an incomplete response, as the Responses API reports it", () => {
    const response = fromChatCompletion(completion({ content: "trunc" }, "length"), ResponsesCreateParams.parse({ input: "x" }));
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });
});
