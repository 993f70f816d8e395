// equivalence_llm_judge's verifier in plain Node with a scripted judge: NeMo Gym's unit tests ported, and their config variants.
import { describe, expect, it } from "vitest";
import { ResponsesCreateParams, type Response as ResponsesResponse } from "../../protocol/index.js";
import { CLASS_DEFAULT_CONFIG, type EquivalenceJudgeConfig } from "../../environments/equivalence_llm_judge/config.js";
import { lastMatch, questionText } from "../../environments/equivalence_llm_judge/text.js";
import { pyFormat } from "../../environments/sdk/python/format.js";
import { verifyEquivalence, type EquivalenceTask } from "../../environments/equivalence_llm_judge/verify.js";
import type { Judge } from "../../environments/sdk/index.js";

function message(text: string) {
  return { type: "message" as const, id: "msg_id", role: "assistant" as const, status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
}

function response(output: ResponsesResponse["output"]): ResponsesResponse {
  return { id: "resp", object: "response", created_at: 0, model: "m", output };
}

/** A judge replying with these texts in turn, remembering what it was asked. */
function scripted(...texts: string[]): { judge: Judge; asked: ResponsesCreateParams[] } {
  const asked: ResponsesCreateParams[] = [];
  return {
    asked,
    judge: (params) => {
      asked.push(params);
      return Promise.resolve(response([message(texts[asked.length - 1] ?? "")]));
    },
  };
}

/** A verify request as the Worker parses it (NeMo Gym's easy input messages get their type). */
function task(input: unknown[], output: ResponsesResponse["output"], extra: Partial<EquivalenceTask> = {}): EquivalenceTask {
  return { responses_create_params: ResponsesCreateParams.parse({ input }), response: response(output), ...extra };
}

/** NeMo Gym's test fixture: the server class's defaults with the shipped prompt template. */
const config = (changes: Partial<EquivalenceJudgeConfig> = {}): EquivalenceJudgeConfig => ({ ...CLASS_DEFAULT_CONFIG, ...changes });
const promptOf = (params: ResponsesCreateParams) => (params.input as { content: string }[]).at(-1)!.content;

describe("NeMo Gym's tests (test_app.py), ported", () => {
  it("test_verify_equal_then_confirm", async () => {
    const once = scripted("some text [[A=B]] trailing");
    const single = await verifyEquivalence(task([{ role: "user", content: "Q: 1+1?" }], [message("It is 2.")], { expected_answer: "2" }), once.judge, config());
    expect(single).toMatchObject({ reward: 1, expected_answer: "2" });
    expect(single.judge_evaluations).toHaveLength(1);

    const twice = scripted("[[A=B]]", "[[A=B]]");
    const swapped = await verifyEquivalence(
      task([{ role: "user", content: "Q: 1+1?" }], [message("It is 2.")], { expected_answer: "2" }),
      twice.judge,
      config({ checkTwiceSwap: true }),
    );
    expect(swapped.reward).toBe(1);
    expect(swapped.judge_evaluations).toHaveLength(2);
    // The second pass swaps the answers: the generated one is shown as GOLD.
    expect(promptOf(twice.asked[1]!)).toContain("GOLD:\nIt is 2.\n\nCANDIDATE:\n2");
  });

  it("test_verify_not_equal_first", async () => {
    const { judge } = scripted("[[A!=B]]");
    const verdict = await verifyEquivalence(task([{ role: "user", content: "Q: 1+1?" }], [message("It is 3.")], { expected_answer: "2" }), judge, config());
    expect(verdict.reward).toBe(0);
    expect(verdict.judge_evaluations).toHaveLength(1);
  });

  it("test_unexpected_judge_output_defaults_to_not_equal", async () => {
    const { judge } = scripted("no label present");
    const verdict = await verifyEquivalence(task([], [message("text")], { expected_answer: "x" }), judge, config());
    expect(verdict.reward).toBe(0);
  });

  it("test_missing_assistant_text_uses_configured_failure_message", async () => {
    const { judge, asked } = scripted("[[A!=B]]");
    const verdict = await verifyEquivalence(task([], [], { expected_answer: "x" }), judge, config({ extractionFailureMessage: "[CUSTOM EXTRACTION FAILURE]" }));
    expect(promptOf(asked[0]!)).toContain("[CUSTOM EXTRACTION FAILURE]");
    expect(verdict.reward).toBe(0);
  });

  it("test_swap_fails_uses_configured_reward", async () => {
    const { judge } = scripted("[[A=B]]", "[[A!=B]]");
    const verdict = await verifyEquivalence(
      task([{ role: "user", content: "Q?" }], [message("A")], { expected_answer: "B" }),
      judge,
      config({ checkTwiceSwap: true, rewardIfSwapFails: -1 }),
    );
    expect(verdict.reward).toBe(-1);
    expect(verdict.judge_evaluations).toHaveLength(2);
  });

  it("test_per_record_regex_extraction", async () => {
    const { judge, asked } = scripted("[[A=B]]");
    const verdict = await verifyEquivalence(
      task([{ role: "user", content: "What is 2+2?" }], [message("Let me explain: The answer is \\boxed{4} because 2+2=4.")], {
        expected_answer: "4",
        template_metadata: { output_regex: "\\\\boxed\\{(.*?)\\}" },
      }),
      judge,
      config({ usePerRecordRegex: true }),
    );
    expect(verdict.reward).toBe(1);
    expect(verdict.judge_evaluations).toHaveLength(1);
    expect(asked).toHaveLength(1);
    expect(promptOf(asked[0]!)).toMatch(/CANDIDATE:\n4$/);
  });

  it("test_full_generation_rescue_on_extraction_failure", async () => {
    const { judge, asked } = scripted("[[A!=B]]", "[[A=B]]");
    const verdict = await verifyEquivalence(
      task([{ role: "user", content: "What is 2+2?" }], [message("The final answer is clearly 4")], {
        expected_answer: "4",
        template_metadata: { output_regex: "ANSWER:\\s*(.+)" },
      }),
      judge,
      config({ usePerRecordRegex: true, checkFullGenerationOnFail: true, rewardIfFullGenerationSucceeds: 0.5 }),
    );
    expect(verdict.reward).toBe(0.5);
    expect(verdict.judge_evaluations).toHaveLength(2);
    expect(asked).toHaveLength(2);
  });

  it("test_extraction_length_threshold_skips_regex", async () => {
    const { judge, asked } = scripted("[[A=B]]");
    const longAnswer = "Photosynthesis is the process by which plants convert light energy into chemical energy stored in glucose.";
    const verdict = await verifyEquivalence(
      task([{ role: "user", content: "Explain photosynthesis." }], [message(longAnswer)], {
        expected_answer: longAnswer,
        template_metadata: { output_regex: "\\\\boxed\\{(.*?)\\}" },
      }),
      judge,
      config({ usePerRecordRegex: true, extractionLengthThreshold: 50 }),
    );
    expect(verdict.reward).toBe(1);
    expect(verdict.judge_evaluations).toHaveLength(1);
    expect(asked).toHaveLength(1);
  });

  it("test_question_extracted_from_multimodal_user_content", () => {
    const question = questionText(
      ResponsesCreateParams.parse({
        input: [
          { role: "system", content: "Answer the question." },
          {
            role: "user",
            content: [
              { type: "input_text", text: "Which piece delivers mate?" },
              { type: "input_image", image_url: "data:image/jpeg;base64,/9j/4AAQSkZJRg==", detail: "high" },
            ],
          },
        ],
      }),
      null,
    );
    expect(question).toBe("Which piece delivers mate?");
    expect(question).not.toContain("base64");
  });

  it("test_question_extraction_from_string_user_content_is_unchanged", () => {
    const params = ResponsesCreateParams.parse({
      input: [
        { role: "user", content: "first question" },
        { role: "assistant", content: "an answer" },
        { role: "user", content: "  second question  " },
      ],
    });
    expect(questionText(params, null)).toBe("second question");
  });

  it("test_question_extraction_returns_empty_when_no_text_blocks", () => {
    const params = ResponsesCreateParams.parse({
      input: [{ role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" }] }],
    });
    expect(questionText(params, null)).toBe("");
  });
});

describe("new cases", () => {
  it("lc_judge's labels: INCORRECT contains CORRECT, and the earlier position decides", async () => {
    const labels = { equalLabel: "CORRECT", notEqualLabel: "INCORRECT" };
    for (const [reply, reward] of [
      ["CORRECT", 1],
      ["The answer is INCORRECT", 0],
      ["INCORRECT, not CORRECT", 0],
    ] as const) {
      const { judge } = scripted(reply);
      const verdict = await verifyEquivalence(task([{ role: "user", content: "q" }], [message("a")], { expected_answer: "a" }), judge, config(labels));
      expect(verdict.reward, reply).toBe(reward);
    }
  });

  it("a system message when configured; question_extract_regex picks the question (last match, first non-empty group)", async () => {
    const { judge, asked } = scripted("[[A=B]]");
    await verifyEquivalence(
      task([{ role: "user", content: "<text>context</text>\n\nQUESTION: What is the capital of France?" }], [message("Paris")], { expected_answer: "Paris" }),
      judge,
      config({ judgeSystemMessage: "You are a careful arbiter.", questionExtractRegex: "^QUESTION:\\s*(.*)$|</text>\\n\\n(.*)$" }),
    );
    expect((asked[0]!.input as { role: string; content: string }[]).map((m) => m.role)).toEqual(["system", "user"]);
    // Python's re (MULTILINE | DOTALL): the second alternative matches first and runs to the end, so the
    // last match is that one, and its non-empty group keeps the "QUESTION:" prefix.
    expect(promptOf(asked[0]!)).toContain("QUESTION:\nQUESTION: What is the capital of France?\n\nGOLD:\nParis");
  });

  it("the response regex: the last match wins; an invalid Python pattern leaves the whole text", () => {
    expect(lastMatch("Answer:\\s*(\\w+)", "Answer: A\nAnswer: B")).toBe("B");
    expect(lastMatch("Answer:\\s*```(?:\\w+)?\\s*([\\s\\S]*?)\\s*```(?=[\\s\\S]*$)", "Answer: ```bash\nls -la\n```")).toBe("ls -la");
    expect(lastMatch("(?P<x>\\d+)", "1 and 22")).toBe("22");
    expect(lastMatch("(unclosed", "text")).toBeNull();
    expect(lastMatch("no", "nothing here")).toBe("no");
  });

  it("a plain-string input has no user message for NeMo Gym (it iterates the string): the question is empty", () => {
    expect(questionText({ input: "What is 2+2?" }, null)).toBe("");
  });

  it("the template is filled as Python's str.format fills it: {{ and }} are braces, values are not re-read", () => {
    expect(pyFormat("{{x}} {question} {generated_answer}", { question: "a {b}", generated_answer: "{question}" })).toBe("{x} a {b} {question}");
    expect(() => pyFormat("{nope}", {})).toThrow(/nope/);
  });

  it("a refusal as the judge's last part reads as not equal", async () => {
    const judge: Judge = () =>
      Promise.resolve(response([{ type: "message", id: "r", role: "assistant", status: "completed", content: [{ type: "refusal", refusal: "no" }] }]));
    const verdict = await verifyEquivalence(task([{ role: "user", content: "q" }], [message("a")], { expected_answer: "a" }), judge, config());
    expect(verdict).toMatchObject({ reward: 0 });
    expect(verdict.judge_evaluations[0]!.verdict_label).toBeNull();
  });
});
