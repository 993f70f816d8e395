// mcqa: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import mcqa, { mcqaEnvironment, type GradingMode } from "../../environments/mcqa/index.js";
import { pythonFindall, PythonRegexError } from "../../environments/sdk/python/findall.js";
import type { Judge, SimpleEnvironment } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "mcqa";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

/** A recorded rollout with its example row's task fields (NeMo Gym's mcqa records drop `options`). */
function withTaskFields(record: Record<string, unknown>): Record<string, unknown> {
  const row = fixtureRows(NAME).find((r) => inputKey(r) === inputKey(record));
  if (!row) throw new Error("no example row matches a recorded rollout");
  const { responses_create_params: _params, ...task } = row;
  return { ...task, ...record };
}

/** The verifier's own fields of a record: everything but the request NeMo Gym echoes back. */
function verdict(record: Record<string, unknown>): Record<string, unknown> {
  const { responses_create_params: _p, response: _r, _ng_task_index: _t, _ng_rollout_index: _ri, agent_ref: _a, ...rest } = record;
  return rest;
}

/**
 * Records NeMo Gym's own verifier at the ported commit (07d6b0d) no longer reproduces: the rollouts were recorded
 * in 2025-09, before "fix(mcqa): boxed answer extraction" (#1844) taught strict mode to read \boxed{C: option text}.
 * Running that commit's app.py on record 2 gives reward 1.0 and extracted_answer "C"; the port matches the code.
 */
const STALE_RECORDS: Record<number, Record<string, unknown>> = { 2: { reward: 1.0, expected_answer: "C", extracted_answer: "C" } };

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: same reward and fields", async (i, record) => {
    const { reward: _reward, ...request } = withTaskFields(record);
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(200);
    const expected = { ...verdict(record), ...STALE_RECORDS[i] };
    expect(answer.body.reward).toBe(expected.reward);
    for (const [key, value] of Object.entries(expected)) expect(answer.body[key], key).toEqual(value);
  });

  it("only record 2 is stale: the recording itself says reward 0 with no extracted answer", () => {
    expect(verdict(fixtureRollouts(NAME)[2]!)).toEqual({ reward: 0.0, expected_answer: "C", extracted_answer: null });
  });
});

const message = (text: string, id = "msg_test") => ({
  id,
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ annotations: [], text, type: "output_text" }],
});
const response = (...output: unknown[]) => ({
  id: "resp_test",
  created_at: 0,
  model: "dummy",
  object: "response",
  output,
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const lettered = (letters: string, text = (l: string) => `opt${l}`) => [...letters].map((l) => ({ [l]: text(l) }));

/** NeMo Gym's `_make_verify_request`: one assistant text, options opt<letter>, a row grading mode. */
function request(text: string, expected = "B", grading_mode = "strict_single_letter_boxed", options: unknown = lettered("ABCD")): Record<string, unknown> {
  return {
    responses_create_params: { input: [{ role: "user", content: "Q?" }] },
    response: response(message(text)),
    options,
    expected_answer: expected,
    grading_mode,
  };
}

// The verifier's answer in plain Node (same code as the Worker runs), for speed.
/** A verifier's context in plain Node: no session state, and no judge (these verifiers call none). */
const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: Record<string, unknown>, environment: SimpleEnvironment = mcqa): Promise<any> {
  const outcome = await perform(environment, { kind: "verify" }, body, context());
  return outcome.status === 200 ? outcome.body : outcome;
}
const withConfig = (grading_mode: GradingMode) => mcqaEnvironment({ grading_mode });

describe("NeMo Gym's tests (resources_servers/mcqa/tests/test_app.py), ported", () => {
  it("test_sanity: the environment defines no tools", () => {
    expect(mcqa.name).toBe("mcqa");
    expect(mcqa.tools.size).toBe(0);
  });

  it("test_verify_correct: strict needs a box; lenient_boxed matches option text; lenient_answer_colon takes a letter or option text", async () => {
    const base = {
      ...request("The answer is C.", "C"),
      responses_create_params: { input: [{ role: "user", content: "Q?\nA: optA\nB: optB\nC: optC\nD: optD" }], parallel_tool_calls: false, temperature: 0 },
    };
    expect((await verify(base)).reward).toBe(0.0);
    expect((await verify({ ...base, response: response(message("Final: \\boxed{ [C] }")) })).reward).toBe(1.0);
    expect((await verify({ ...base, response: response(message("Final: \\boxed{ optC }")), grading_mode: "lenient_boxed" })).reward).toBe(1.0);
    expect((await verify({ ...base, response: response(message("Answer: c")), grading_mode: "lenient_answer_colon" })).reward).toBe(1.0);
    expect((await verify({ ...base, response: response(message("Answer: optC")), grading_mode: "lenient_answer_colon" })).reward).toBe(1.0);
  });

  const templated = (text: string, output_regex: unknown, options: unknown = lettered("AB")) => ({
    ...request(text, "B", "strict_single_letter_boxed", options),
    template_metadata: { output_regex },
  });

  it("test_template_metadata_basic", async () => {
    const r = await verify(templated("Option Selected: B", "Option Selected:\\s*([A-Za-z])"));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });
  it("test_template_metadata_case_insensitive", async () => {
    const r = await verify(templated("ANSWER IS b", "ANSWER IS\\s*([A-Za-z])"));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });
  it("test_template_metadata_regex_list", async () => {
    const r = await verify(templated("Antwort: B", ["Answer\\s*:\\s*([A-Za-z])", "Antwort\\s*:\\s*([A-Za-z])"]));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });
  it("test_template_metadata_multilingual_letter_normalization", async () => {
    const r = await verify(templated("الإجابة: ب", ["الإجابة:\\s*([أ-د])"]));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });
  it("test_template_metadata_rightmost_match", async () => {
    const r = await verify(templated("Maybe Answer: A? Let me reconsider. Final Answer: B", "Answer:\\s*([A-Za-z])"));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });
  it("test_template_metadata_priority_over_grading_mode", async () => {
    const r = await verify(templated("Final Choice: B", "Final Choice:\\s*([A-Za-z])"));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });
  it("test_template_metadata_invalid_regex: falls back to the grading mode", async () => {
    const r = await verify(templated("\\boxed{B}", "(["));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });
  it("test_template_metadata_without_options: the regex's letter is trusted", async () => {
    const r = await verify(templated("Selected: B", "Selected:\\s*([A-Za-z])", []));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });

  it("TestGradingModeConfig.test_config_grading_mode_overrides_row", async () => {
    const r = await verify(request("I think the answer is B.\n\nAnswer: B"), withConfig("lenient_answer_colon"));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "B"]);
  });
  it("TestGradingModeConfig.test_no_config_grading_mode_uses_row_default", async () => {
    const r = await verify(request("I think the answer is B.\n\nAnswer: B"), mcqaEnvironment({}));
    expect([r.reward, r.extracted_answer]).toEqual([0.0, null]);
  });

  describe("TestGradingModeAnswerColonMD (config grading_mode lenient_answer_colon_md)", () => {
    const md = withConfig("lenient_answer_colon_md");
    const expectLetter = async (text: string, expected: string, letter: string | null, letters = "ABCD", environment = md) => {
      const r = await verify(request(text, expected, "strict_single_letter_boxed", lettered(letters)), environment);
      expect(r.extracted_answer, text).toBe(letter);
      expect(r.reward, text).toBe(letter === expected ? 1.0 : 0.0);
    };
    it("test_plain_answer", () => expectLetter("The answer is B.\n\nAnswer: B", "B", "B"));
    it("test_markdown_bold_answer", () => expectLetter("Reasoning here.\n\n**Answer: C**", "C", "C"));
    it("test_markdown_bold_no_match_old_regex: lenient_answer_colon does not read **Answer: C**", () =>
      expectLetter("**Answer: C**", "C", null, "ABCD", withConfig("lenient_answer_colon")));
    it("test_markdown_underscore_answer", () => expectLetter("__Answer__: A", "A", "A"));
    it("test_leading_letter_answer", () => expectLetter("Answer: B because C is not valid", "B", "B"));
    it("test_repeated_letter_answer", () => expectLetter("Answer: B/B", "B", "B"));
    it("test_wrapped_answers", async () => {
      await expectLetter("Answer: $D$", "D", "D");
      await expectLetter("Answer: (D)", "D", "D");
      await expectLetter("\\boxed{\\text{Answer: G}}", "G", "G", "ABCDEFGHIJ");
    });
    it("test_unextractable_answer", () => expectLetter("Answer: unknown", "B", null));
    it("test_disallowed_answer", () => expectLetter("Answer: G", "B", null));
    it("test_ambiguous_answer_lists", async () => {
      for (const [text, letters] of [
        ["Answer: A/B/C", "ABCD"],
        ["Answer: B/I", "ABCDEFGHIJ"],
        ["**Answer: D/H**", "ABCDEFGHIJ"],
        ["Answer: A or B", "ABCD"],
        ["Answer: A and B", "ABCD"],
        ["Answer: A, B", "ABCD"],
      ] as const) {
        await expectLetter(text, "A", null, letters);
      }
    });
    it("test_rightmost_answer_match", () => expectLetter("Answer: A\nAnswer: B", "B", "B"));
    it("test_invalid_rightmost_answer_fallback", async () => {
      for (const invalid of ["unknown", "G", "A/B/C"]) await expectLetter(`Answer: B\nAnswer: ${invalid}`, "B", "B");
    });
    it("test_no_answer_pattern", () => expectLetter("I think it might be B but I'm not sure", "B", null));
  });

  it("TestComputeMetrics.test_mcqa_server_returns_pass_majority_metrics", async () => {
    const verify_responses = [
      { _ng_task_index: 0, _ng_rollout_index: 0, reward: 1.0, extracted_answer: "A" },
      { _ng_task_index: 0, _ng_rollout_index: 1, reward: 1.0, extracted_answer: "A" },
      { _ng_task_index: 1, _ng_rollout_index: 0, reward: 0.0, extracted_answer: "B" },
      { _ng_task_index: 1, _ng_rollout_index: 1, reward: 1.0, extracted_answer: "C" },
    ];
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/aggregate_metrics`, { verify_responses });
    expect(answer.status).toBe(200);
    const metrics = answer.body.agent_metrics;
    // Values by NeMo Gym's compute_pass_majority_metrics: task 1 ties B(0) and C(1) for majority, so 0.5.
    expect(metrics["pass@2/accuracy"]).toBe(100);
    expect(metrics["pass@1[avg-of-2]/accuracy"]).toBe(75);
    expect(metrics["majority@2/accuracy"]).toBe(75);
    expect(metrics["pass@1[avg-of-2]/no_answer"]).toBe(0);
    expect(metrics["pass@2/no_answer"]).toBe(0);
    expect(metrics["pass@1/accuracy"]).toBe(75);
    expect(metrics["mean/reward"]).toBe(0.75);
    // compute_pass_majority_metrics alone: no add_avg_sample_std_dev.
    expect(Object.keys(metrics).some((k) => k.endsWith("/avg_sample_std_dev"))).toBe(false);
  });

  describe("TestStrictBoxedLatexExtraction", () => {
    const OPTIONS = [..."ABCDEFGHIJ"].map((l) => ({ [l]: `option ${l} text` }));
    const strict = (text: string, expected: string, options: unknown = OPTIONS, mode = "strict_single_letter_boxed") =>
      verify(request(text, expected, mode, options), withConfig(mode as GradingMode));
    it("test_text_wrapped_bare_letter", async () => expect((await strict("\\boxed{\\text{E}}", "E")).extracted_answer).toBe("E"));
    it("test_text_wrapped_letter_with_option_text", async () => {
      const r = await strict("\\boxed{\\text{I: NGS can detect both coding and non-coding regions of the genome.}}", "I");
      expect([r.extracted_answer, r.reward]).toEqual(["I", 1.0]);
    });
    it("test_leading_letter_colon_then_wrapped_text", async () => {
      const r = await strict("\\[ \\boxed{E: \\text{A polygenic risk score can provide a probability.}} \\]", "E");
      expect([r.extracted_answer, r.reward]).toEqual(["E", 1.0]);
    });
    it("test_plain_boxed_letter_unchanged", async () => expect((await strict("\\boxed{B}", "B", lettered("ABCD"))).reward).toBe(1.0));
    it("test_bracketed_letter_unchanged", async () => expect((await strict("Final: \\boxed{ [C] }", "C", lettered("ABCD"))).extracted_answer).toBe("C"));
    it("test_bare_option_text_not_matched_in_strict", async () => {
      const r = await strict("\\boxed{A polygenic risk score can provide a probability.}", "A");
      expect([r.extracted_answer, r.reward]).toEqual([null, 0.0]);
    });
    it("test_lenient_boxed_handles_text_wrapper", async () => {
      const r = await strict("\\boxed{\\text{E}}", "E", OPTIONS, "lenient_boxed");
      expect([r.extracted_answer, r.reward]).toEqual(["E", 1.0]);
    });
    it("test_unbalanced_box_is_no_answer", async () => {
      const r = await strict("\\boxed{B", "B", lettered("ABCD"));
      expect([r.extracted_answer, r.reward]).toEqual([null, 0.0]);
    });
    it("test_last_box_wins_over_thinking_box", async () => {
      const r = await strict("Candidate is \\boxed{C}, but on reflection the answer is \\boxed{E}", "E");
      expect([r.extracted_answer, r.reward]).toEqual(["E", 1.0]);
    });
    it("test_non_letter_thinking_box_does_not_shadow_answer", async () => {
      const r = await strict("Thinking: \\boxed{\\text{some idea}}. Final answer: \\boxed{E}", "E");
      expect([r.extracted_answer, r.reward]).toEqual(["E", 1.0]);
    });
  });
});

describe("new cases", () => {
  it("an empty or whitespace-only answer scores 0 without consulting the template", async () => {
    for (const text of ["", " \n\t\u3000\x1c"]) {
      const r = await verify({ ...request(text, "b"), template_metadata: { output_regex: "(" } });
      expect(r).toMatchObject({ reward: 0.0, extracted_answer: null, expected_answer: "B" });
    }
  });

  it("expected_answer is stripped and upper-cased in the response; a missing one never scores", async () => {
    expect(await verify(request("\\boxed{B}", " b "))).toMatchObject({ reward: 1.0, expected_answer: "B" });
    const { expected_answer: _e, ...noGold } = request("\\boxed{B}");
    expect(await verify(noGold)).toMatchObject({ reward: 0.0, expected_answer: "", extracted_answer: "B" });
  });

  it("strict mode: a lowercase box letter, a letter outside the options, or no options at all extract nothing", async () => {
    expect((await verify(request("\\boxed{b}"))).extracted_answer).toBeNull();
    expect((await verify(request("\\boxed{F}", "F"))).extracted_answer).toBeNull();
    expect((await verify(request("\\boxed{B}", "B", "strict_single_letter_boxed", null))).extracted_answer).toBeNull();
    // An option whose text is null is not a choice.
    expect((await verify(request("\\boxed{B}", "B", "strict_single_letter_boxed", [{ A: "x" }, { B: null }]))).extracted_answer).toBeNull();
  });

  it('kept NeMo Gym quirk: "." is a label delimiter, so \\boxed{E. coli} reads as E', async () => {
    expect((await verify(request("\\boxed{E. coli}", "E", "strict_single_letter_boxed", lettered("ABCDE")))).extracted_answer).toBe("E");
  });

  it("lenient_boxed: option text must single out one option", async () => {
    const options = [{ A: "Circle" }, { B: "Square" }, { C: "Big Square" }];
    expect((await verify(request("\\boxed{  circle }", "A", "lenient_boxed", options))).extracted_answer).toBe("A");
    // "Square" also occurs inside "Big Square": two options match, so none is taken.
    expect((await verify(request("\\boxed{Big   SQUARE}", "C", "lenient_boxed", options))).extracted_answer).toBeNull();
  });

  it("output_text joins every output_text part without a separator (a box split across parts still reads)", async () => {
    const body = {
      ...request(""),
      response: response(message("Final: \\boxed{"), message("B}", "msg_2"), {
        type: "message",
        role: "assistant",
        id: "r",
        content: [{ type: "refusal", refusal: "\\boxed{C}" }],
      }),
    };
    expect((await verify(body)).extracted_answer).toBe("B");
  });

  it("lenient_answer_colon reads Python's Unicode whitespace (NBSP) after the colon", async () => {
    expect((await verify(request("Answer:\u00a0B", "B", "lenient_answer_colon"))).extracted_answer).toBe("B");
  });

  it("a row cannot ask for lenient_answer_colon_md (only the server config can), nor for an unknown mode", async () => {
    for (const grading_mode of ["lenient_answer_colon_md", "fuzzy", null]) {
      const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request("Answer: B", "B", grading_mode as string));
      expect(answer.status).toBe(400);
    }
  });

  it("a template regex with several groups fails the verify (NeMo Gym strips a tuple and raises)", async () => {
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, {
      ...request("Answer: B"),
      template_metadata: { output_regex: "(Answer): ([A-D])" },
    });
    expect(answer.status).toBe(500);
    expect(answer.body.error.message).toContain("several groups");
  });

  it("a template regex Python accepts but JS cannot express fails loudly instead of guessing", async () => {
    // A scoped ignore-case flag has no JS form in every runtime we target. (This case used a possessive repeat,
    // `([A-D])++`, until the shared translator learnt to emulate those: see the next test.)
    const r = await verify({ ...request("Answer: B"), template_metadata: { output_regex: "Answer: (?-i:([A-D]))" } });
    expect(r.status).toBe(500);
    expect(r.body.error.message).toContain("scoped ignore-case");
  });

  it("a possessive repeat (Python 3.11+) matches as in Python", async () => {
    // CPython: re.findall(r"Answer: ([A-D])++", "Answer: B", re.IGNORECASE) == ["B"]
    const r = await verify({ ...request("Answer: B"), template_metadata: { output_regex: "Answer: ([A-D])++" } });
    expect(r.extracted_answer).toBe("B");
  });

  it("a template with no output_regex, or an empty template, uses the grading mode", async () => {
    expect((await verify({ ...request("\\boxed{B}"), template_metadata: {} })).reward).toBe(1.0);
    expect((await verify({ ...request("\\boxed{B}"), template_metadata: { template_id: "x" } })).reward).toBe(1.0);
  });

  it("a template's captured option text maps to its letter", async () => {
    const r = await verify({ ...request("Final: optb"), template_metadata: { output_regex: "Final:\\s*(\\w+)" } });
    expect(r.extracted_answer).toBe("B");
  });

  it("workerd and Node agree on a verify with a Unicode template regex", async () => {
    const body = { ...request("الإجابة: ج", "C"), template_metadata: { output_regex: "الإجابة:\\s*([أ-د])" } };
    const viaWorker = await postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
    expect(viaWorker.body.extracted_answer).toBe("C");
    expect((await verify(body)).extracted_answer).toBe("C");
  });
});

describe("Python re semantics of template regexes (results checked against CPython's re.findall with IGNORECASE)", () => {
  it.each([
    ["([A-D])$", "Answer: B\n", ["B"]], // $ also matches before a final newline
    ["Answer:\\s*(\\d)", "Answer: ٣", ["٣"]], // \d is any Unicode decimal digit
    ["\\bopt(\\w)\\b", "éoptA optB", ["B"]], // \b is Unicode-aware: no boundary between é and o
    ["Answer:\\s*([A-D]{,2})", "Answer: BC", ["BC"]], // {,n}
    ["(?P<l>[A-D])\\)", "A) B)", ["A", "B"]], // named groups
    ["{([A-D])}", "{C}", ["C"]], // a brace that is not a quantifier is literal
    ["(?x) answer \\s* : \\s* ([a-d])  # letter", "ANSWER: d", ["d"]], // verbose mode
    ["Answer:\\s+(\\w)", "Answer:\u00a0C", ["C"]], // NBSP is whitespace…
    ["Answer:\\s+(\\w)", "Answer:\ufeffC", []], // …a BOM is not (it is in JS)
    ["(?s)Answer:(.)", "Answer:\nB", ["\n"]],
    ["Answer:(.)", "Answer:\nB", []],
    ["x*", "axx", ["", "xx", ""]], // empty matches, as findall iterates them
  ])("findall(%j, %j)", (pattern, text, expected) => {
    expect(pythonFindall(pattern, text, true)).toEqual(expected);
  });

  it.each(["([", "a**", "*a", "\\q", "(?<=a+)b", "\\1(a)", "(?i", "a{3,1}", "(?P<1>a)"])("%j is re.error in Python", (pattern) => {
    expect(() => pythonFindall(pattern, "aab", true)).toThrow(PythonRegexError);
  });
});
