// math_with_judge's answer checking in plain Node: math_verify's behaviour case by case, NeMo Gym's unit tests ported.
import { describe, expect, it } from "vitest";
import type { Response as ResponsesResponse, ResponsesCreateParams } from "../../protocol/index.js";
import { JUDGE_SYSTEM_MESSAGE, judgeBothOrders, judgeOnce, judgePrompt } from "../../environments/math_with_judge/judge.js";
import { verifyWithLibrary } from "../../environments/math_with_judge/library.js";
import { mathKeyMetrics, mathMetrics } from "../../environments/math_with_judge/metrics.js";
import { verifyMathAnswer } from "../../environments/math_with_judge/verify.js";
import type { Judge } from "../../environments/sdk/index.js";

/**
 * [expected, generated, reward, extracted answer], each row's values as NeMo Gym's library check gives
 * them: math-verify 0.8.0 with latex2sympy2_extended 1.10.2 and SymPy 1.14, run on these inputs.
 */
const MATH_VERIFY: [string, string, number, string | null][] = [
  // fractions and decimals
  ["\\frac{1}{2}", "The answer is \\boxed{0.5}", 1, "1/2"],
  ["\\frac{1}{2}", "The answer is \\boxed{1/2}", 1, "1/2"],
  ["0.5", "\\boxed{\\frac{1}{2}}", 1, "1/2"],
  ["\\frac{1}{2}", "\\boxed{\\dfrac{1}{2}}", 1, "1/2"],
  ["\\frac{1}{2}", "\\boxed{\\tfrac12}", 1, "1/2"],
  ["\\frac{1}{3}", "\\boxed{0.333333}", 1, "0.333333000000000"],
  ["\\frac{1}{3}", "\\boxed{0.3333}", 0, "0.333300000000000"],
  ["\\frac{2}{3}", "\\boxed{0.666667}", 1, "0.666667000000000"],
  ["\\frac{2}{3}", "\\boxed{0.67}", 0, "0.670000000000000"],
  ["2\\frac{1}{2}", "\\boxed{2.5}", 1, "2.50000000000000"],
  ["\\frac{7}{2}", "\\boxed{3\\frac{1}{2}}", 1, "7/2"],
  ["-\\frac{1}{2}", "\\boxed{-0.5}", 1, "-0.500000000000000"],
  ["12", "\\boxed{12.0}", 1, "12.0000000000000"],
  ["12", "\\boxed{12.000001}", 0, "12.0000010000000"],
  ["1", "\\boxed{0.9999999}", 0, "0.999999900000000"],
  ["\\pi", "\\boxed{3.14159}", 0, "3.14159000000000"],
  ["\\sqrt{2}", "\\boxed{1.41421356}", 1, "1.41421356000000"],
  ["\\frac{\\sqrt{3}}{2}", "\\boxed{0.866025}", 1, "0.866025000000000"],
  ["1000", "\\boxed{1,000}", 1, "1000"],
  ["1000", "\\boxed{1{,}000}", 1, "1000"],
  // expressions
  ["\\sqrt{8}", "\\boxed{2\\sqrt{2}}", 1, "2*sqrt(2)"],
  ["(x+1)^2", "\\boxed{x^2+2x+1}", 1, "x**2 + 2*x + 1"],
  ["\\sin^2 x + \\cos^2 x", "\\boxed{1}", 1, "1"],
  ["x^2", "\\boxed{X^2}", 1, "x**2"],
  ["\\frac{a}{2b}", "\\boxed{\\frac{a}{2b}}", 1, "a/((2*b))"],
  ["e", "\\boxed{e}", 1, "E"],
  ["\\frac{83}{499}", "\\boxed{\\frac{333}{1997}}", 0, "333/1997"],
  ["2^{10}", "\\boxed{1024}", 1, "1024"],
  ["\\log_2 8", "\\boxed{3}", 1, "3"],
  ["\\ln 2", "\\boxed{\\ln(2)}", 1, "log(2, E)"],
  ["e^{i\\pi}", "\\boxed{-1}", 0, "-1"],
  ["\\frac{1}{2^{100}}", "\\boxed{2^{-100}}", 1, "2**(-100)"],
  ["\\sqrt{x^2}", "\\boxed{x}", 0, "x"],
  ["\\sqrt{x^2}", "\\boxed{|x|}", 1, "Abs(x)"],
  // intervals and sets
  ["[1, 2)", "\\boxed{[1,2)}", 1, "Interval.Ropen(1, 2)"],
  ["[1, 2)", "\\boxed{(1,2]}", 0, "Interval.Lopen(1, 2)"],
  ["(1, 2)", "\\boxed{(1,2)}", 1, "Interval.open(1, 2)"],
  ["(-\\infty, 3) \\cup (4, \\infty)", "\\boxed{(-\\infty,3)\\cup(4,\\infty)}", 1, "Union(Interval.open(-oo, 3), Interval.open(4, oo))"],
  ["[0, \\infty)", "\\boxed{[0,\\infty)}", 1, "Interval(0, oo)"],
  ["1 < x < 2", "\\boxed{(1,2)}", 1, "Interval.open(1, 2)"],
  ["x > 3", "\\boxed{(3, \\infty)}", 1, "Interval.open(3, oo)"],
  ["x \\in [1, 2]", "\\boxed{[1,2]}", 1, "Interval(1, 2)"],
  ["\\mathbb{R}", "\\boxed{(-\\infty, \\infty)}", 1, "Interval(-oo, oo)"],
  ["\\{1, 2, 3\\}", "\\boxed{\\{3,2,1\\}}", 1, "{1, 2, 3}"],
  ["1, 2, 3", "\\boxed{3, 2, 1}", 1, "{1, 2, 3}"],
  ["(1, 2, 3)", "\\boxed{(3,2,1)}", 0, "(3, 2, 1)"],
  ["\\pm 2", "\\boxed{2, -2}", 1, "{-2, 2}"],
  ["2, -2", "\\boxed{x = \\pm 2}", 1, "Eq(x, {-2, 2})"],
  ["\\{1,2\\}", "\\boxed{1 \\text{ and } 2}", 1, "{1, 2}"],
  ["1", "\\boxed{1, 2}", 0, "{1, 2}"],
  // equations and relations
  ["3", "\\boxed{x=3}", 1, "Eq(x, 3)"],
  ["x=3", "\\boxed{3}", 1, "3"],
  ["x=3", "\\boxed{y=3}", 0, "Eq(y, 3)"],
  ["y = 2x + 1", "\\boxed{y=1+2x}", 1, "Eq(y, 2*x + 1)"],
  ["x \\le 3", "\\boxed{3 \\ge x}", 1, "3 >= x"],
  ["a = 1, b = 2", "\\boxed{b=2, a=1}", 1, "{Eq(a, 1), Eq(b, 2)}"],
  // units and text
  ["5", "\\boxed{5 \\text{ cm}}", 1, "5"],
  ["5", "\\boxed{5\\,\\text{cm}}", 1, "5"],
  ["5 \\text{ cm}", "\\boxed{5}", 1, "5"],
  ["3 \\text{ hours}", "\\boxed{3\\text{ hours}}", 1, "3"],
  ["\\$5", "\\boxed{\\$5}", 1, "5"],
  ["\\text{(B)}", "\\boxed{B}", 1, "b"],
  ["B", "\\boxed{\\text{B}}", 1, "b"],
  ["\\text{Monday}", "\\boxed{\\text{monday}}", 1, "monday"],
  ["\\text{even}", "\\boxed{\\text{odd}}", 0, "odd"],
  ["\\text{True}", "\\boxed{True}", 1, "E*r*t*u"],
  // percent and degrees
  ["10\\%", "\\boxed{10\\%}", 1, "10*(1/100)"],
  ["10\\%", "\\boxed{0.1}", 1, "0.100000000000000"],
  ["10", "\\boxed{10\\%}", 0, "10*(1/100)"],
  ["10\\%", "\\boxed{10 percent}", 1, "10*(1/100)"],
  ["25\\%", "The probability is 25%.", 1, "25*(1/100)"],
  ["30^\\circ", "\\boxed{30}", 1, "30"],
  ["30", "\\boxed{30^\\circ}", 1, "30"],
  ["30^\\circ", "\\boxed{\\frac{\\pi}{6}}", 0, "pi/6"],
  ["90", "\\boxed{90°}", 0, "90°"],
  // where the answer is found
  ["2", "\\boxed{1} and later \\boxed{2}", 0, "{1, 2}"],
  ["2", "First \\boxed{1}. After a long long long long long long long long long digression, \\boxed{2}", 0, "{1, 2}"],
  ["5", "\\boxed{4}, no wait \\boxed{5}", 0, "{4, 5}"],
  ["4", "The answer is 4.", 1, "4"],
  ["4", "I think it is 4 but maybe 5", 0, "5"],
  ["4", "no numbers here", 0, null],
  ["5", "The final answer is $5$. I hope it is correct.", 1, "5"],
  ["12", "Answer: $\\frac{24}{2}$", 1, "12"],
  ["17", "\\[ \\boxed{17} \\]", 1, "17"],
  ["4", "\\fbox{4}", 0, null],
  ["42", "<think>lots of 17 and 23</think> The answer is \\boxed{42}", 1, "42"],
  ["12", "answer: 3 * 4", 1, "3*4"],
  ["6", "answer: 12 ÷ 2", 0, "2"],
  ["1234", "answer: 1 234", 1, "1234"],
  ["-4", "Answer: -4", 1, "-4"],
  // malformed
  ["\\frac{1}{2}", "\\boxed{\\frac{1}{2}", 1, "1/2"],
  ["\\frac{1}{2}", "\\boxed{\\frac{1}{}}", 0, "\\frac{1}{}"],
  ["0", "\\boxed{}", 0, null],
  ["", "", 0, null],
  ["1e-7", "\\boxed{0}", 0, "0"],
];

describe("the symbolic check agrees with math_verify", () => {
  it.each(MATH_VERIFY)("%j against %j: reward %d, extracted %j", (expected, generated, reward, extracted) => {
    expect(verifyWithLibrary(expected, generated)).toEqual({ reward, extractedAnswer: extracted });
  });
});

describe("where it differs from math_verify (kept, documented)", () => {
  // SymPy keeps what latex2sympy built unevaluated; the Compute Engine's canonical form evaluates it.
  // The reward is the same; only the printed answer differs.
  it.each([
    ["2\\sqrt{3}", "\\boxed{\\sqrt{12}}", "sqrt(12)", "2*sqrt(3)"],
    ["3", "\\boxed{\\sqrt{9}}", "sqrt(9)", "3"],
    ["\\frac{\\sqrt 2}{2}", "\\boxed{\\frac{1}{\\sqrt 2}}", "1/sqrt(2)", "sqrt(2)/2"],
    ["\\binom{n}{2}", "\\boxed{\\frac{n(n-1)}{2}}", "(n*(n - 1))/2", "n*(n - 1)/2"],
    ["\\frac{2\\pi}{5}", "The answer is $\\frac{2\\pi}{5}$.", "(2*pi)/5", "2*pi/5"],
  ])("%j against %j: same reward, printed %j by NeMo Gym, %j here", (expected, generated, _nemo, ours) => {
    expect(verifyWithLibrary(expected, generated)).toEqual({ reward: 1, extractedAnswer: ours });
  });

  it("\\varnothing: latex2sympy cannot read it (so math_verify scores 0), the engine can (so 1 here)", () => {
    expect(verifyWithLibrary("\\varnothing", "\\boxed{\\emptyset}").reward).toBe(1);
  });

  it("matrices are not parsed: they compare as text", () => {
    expect(verifyWithLibrary("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "\\boxed{\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}}")).toEqual({
      reward: 1,
      extractedAnswer: "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}",
    });
  });
});

describe("NeMo Gym's tests (test_app.py), ported", () => {
  it("test_verify_answer_with_library_async", () => {
    expect(verifyWithLibrary("4", "2 + 2 = \\boxed{4}")).toEqual({ reward: 1, extractedAnswer: "4" });
    expect(verifyWithLibrary("\\boxed{12}", "3 * 4 = \\boxed{12}")).toEqual({ reward: 1, extractedAnswer: "12" });
    expect(verifyWithLibrary("\\boxed{5}", "10 - 5 = \\boxed{5}")).toEqual({ reward: 1, extractedAnswer: "5" });
    expect(verifyWithLibrary("4.0", "2 + 2 = \\boxed{\\frac{8}{2}}")).toEqual({ reward: 1, extractedAnswer: "4" });
    expect(verifyWithLibrary("\\boxed{12}", "3 * 4 = 13")).toEqual({ reward: 0, extractedAnswer: "13" });
    expect(verifyWithLibrary("17.001", "17")).toEqual({ reward: 0, extractedAnswer: "17" });
    expect(verifyWithLibrary("", "")).toEqual({ reward: 0, extractedAnswer: null });
    expect(verifyWithLibrary("3", "3")).toEqual({ reward: 1, extractedAnswer: "3" });
  });

  it("test_library_verifier_returns_promptly_for_pathological_sympy_expression (judge off)", async () => {
    const terms = Array.from({ length: 800 }, (_, e) => (e === 0 ? "1" : `x^${e}`)).join("+");
    const generated = `\\boxed{\\frac{x^{800}-1}{x-1}-(${terms})}`;
    const judge: Judge = () => Promise.reject(new Error("the judge must not be asked"));
    const started = performance.now();
    const verdict = await verifyMathAnswer({ question: "question", expected_answer: "0", response: response(message(generated)) }, judge, {
      shouldUseJudge: false,
      judgeParams: {},
    });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect([0, 1]).toContain(verdict.reward);
    expect(verdict.library_reward).toBe(verdict.reward);
    expect(verdict.judge_evaluations).toBeNull();
  }, 30_000);

  it("test_verify_answer_with_judge: both orders, positional bias ruled out", async () => {
    const first = await judgeBothOrders(scripted("[[A!=B]] is the evaluation").judge, {}, "What is 2 + 2?", "4", "5");
    expect(first[0]).toBe(0);
    expect(first[1].map(promptOf)).toEqual([judgePrompt("What is 2 + 2?", "4", "5")]);

    const equal = scripted("[[A=B]]", "I conclude that [[A=B]]");
    const both = await judgeBothOrders(equal.judge, {}, "What is 3 divided by 6?", "1/2", "0.5");
    expect(both[0]).toBe(1);
    expect(both[1].map(promptOf)).toEqual([judgePrompt("What is 3 divided by 6?", "1/2", "0.5"), judgePrompt("What is 3 divided by 6?", "0.5", "1/2")]);

    const swapped = await judgeBothOrders(scripted("I conclude that [[A=B]]", "[[A!=B]]").judge, {}, "What is 4 times 5?", "20", "20.0");
    expect(swapped[0]).toBe(0);
    expect(swapped[1]).toHaveLength(2);
    expect(swapped[1][1]!.response.output).toEqual(reply("[[A!=B]]").output);
  });

  it("test_generate_judge_evaluation: the request carries the judge's own params; how replies are read", async () => {
    const cases: [ResponsesResponse["output"], boolean][] = [
      [[{ type: "reasoning", id: "reasoning_item", summary: [] }], false],
      [[{ type: "message", id: "refusal_item", role: "assistant", status: "completed", content: [{ type: "refusal", refusal: "I refuse" }] }], false],
      [reply("no evaluation").output, false],
      [reply("Evaluation: [[A!=B]]").output, false],
      [reply("The evaluation is [[A=B]]").output, true],
      [reply("First [[A=B]], then [[A!=B]]").output, true],
      [reply("[[A!=B]] [[A=B]]").output, false],
    ];
    for (const [output, equal] of cases) {
      const seen: ResponsesCreateParams[] = [];
      const judge: Judge = (params) => {
        seen.push(params);
        return Promise.resolve({ ...reply(""), output });
      };
      const [said, evaluation] = await judgeOnce(judge, { max_output_tokens: 1024 }, "question", "question_1", "question_2");
      expect(said, JSON.stringify(output)).toBe(equal);
      expect(seen[0]).toEqual({
        max_output_tokens: 1024,
        input: [
          { type: "message", role: "system", content: JUDGE_SYSTEM_MESSAGE },
          { type: "message", role: "user", content: judgePrompt("question", "question_1", "question_2") },
        ],
      });
      expect(evaluation).toEqual({ responses_create_params: seen[0], response: { ...reply(""), output } });
    }
  });
});

describe("NeMo Gym's TestComputeMetricsIntegration and TestGetKeyMetrics, ported", () => {
  const rollout = (reward: number, extracted: string | null) => ({ reward, library_reward: reward, extracted_answer: extracted });
  const tasks = [
    [rollout(1, "204"), rollout(1, "204"), rollout(1, "204"), rollout(0, null)],
    [rollout(1, "113"), rollout(0, "42"), rollout(0, null), rollout(0, null)],
    [rollout(0, "99"), rollout(0, "42"), rollout(0, "7"), rollout(0, null)],
  ];
  const result = mathMetrics(tasks);

  it("test_pass_at_k", () => {
    expect(result["pass@1/symbolic_accuracy"]).toBeCloseTo(100 / 3, 2);
    expect(result["pass@4/symbolic_accuracy"]).toBeCloseTo(200 / 3, 2);
  });
  it("test_majority_at_k", () => expect(result).toHaveProperty(["majority@4/symbolic_accuracy"]));
  it("test_per_sample_aggregate", () => {
    const perSample = result.per_sample_aggregate as Record<string, number[]>;
    expect(perSample.symbolic_accuracy).toHaveLength(4);
  });
  it("test_no_answer_tracking", () => {
    for (const key of [
      "pass@1/no_answer",
      "pass@4/no_answer",
      "pass@1[avg-of-4]/no_answer",
      "pass@1[avg-of-2]/no_answer/std_dev_across_runs",
      "pass@1[avg-of-4]/no_answer/std_dev_across_runs",
    ]) {
      expect(result, key).toHaveProperty([key]);
    }
    const noAnswer = (result.per_sample_aggregate as Record<string, number[]>).no_answer!;
    expect(noAnswer).toHaveLength(4);
    expect(noAnswer[0]).toBeCloseTo(0);
    expect(noAnswer[3]).toBeCloseTo(100);
  });
  it("test_no_answer_stats", () => {
    expect(result).toHaveProperty(["pass@1[avg-of-4]/no_answer/std_err_across_runs"]);
    expect(result["pass@1[avg-of-4]/no_answer/std_dev_across_runs"] as number).toBeGreaterThan(0);
  });
  it("test_stat_key_separator", () => {
    for (const key of Object.keys(result).filter((k) => k.includes("std_dev_across_runs"))) expect(key).toContain("/std_dev_across_runs");
  });
  it("test_stats_for_all_k_values", () => {
    for (const k of [2, 3, 4]) expect(result).toHaveProperty([`pass@1[avg-of-${k}]/symbolic_accuracy/std_dev_across_runs`]);
  });
  it("test_multi_score: no plain accuracy score", () => {
    expect(result).toHaveProperty(["pass@1/symbolic_accuracy"]);
    expect(Object.keys(result).filter((k) => k.includes("accuracy") && !k.includes("symbolic") && !k.includes("judge"))).toEqual([]);
  });
  it("test_empty_tasks", () => expect(mathMetrics([])).toEqual({}));

  it("test_selects_headlines (get_key_metrics)", () => {
    const agent = {
      "mean/reward": 0.5,
      "mean/library_reward": 0.5,
      "mean/input_tokens": 100.0,
      "mean/output_tokens": 500.0,
      "mean/total_tokens": 600.0,
      "pass@1/symbolic_accuracy": 50.0,
      "pass@1/no_answer": 10.0,
      "pass@1[avg-of-1]/symbolic_accuracy": 50.0,
      "pass@1[avg-of-1]/no_answer": 10.0,
      "pass@1[avg-of-4]/symbolic_accuracy": 45.0,
      "pass@1[avg-of-4]/symbolic_accuracy/std_dev_across_runs": 3.0,
      "pass@1[avg-of-4]/no_answer": 12.0,
      "pass@1[avg-of-4]/no_answer/std_dev_across_runs": 2.0,
      "pass@4/symbolic_accuracy": 70.0,
      "pass@4/no_answer": 15.0,
      "majority@4/symbolic_accuracy": 60.0,
      "majority@4/no_answer": 5.0,
    };
    expect(Object.keys(mathKeyMetrics(agent)).sort()).toEqual(
      [
        "mean/input_tokens",
        "mean/output_tokens",
        "pass@1[avg-of-4]/symbolic_accuracy",
        "pass@1[avg-of-4]/no_answer",
        "pass@4/symbolic_accuracy",
        "majority@4/symbolic_accuracy",
      ].sort(),
    );
  });
});

function message(text: string) {
  return { type: "message" as const, id: "msg", role: "assistant" as const, status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
}

function response(...output: ResponsesResponse["output"]): ResponsesResponse {
  return { id: "resp", object: "response", created_at: 1234.5, model: "response_model", output };
}

function reply(text: string): ResponsesResponse {
  return response(message(text));
}

/** A judge replying with these texts in turn. */
function scripted(...texts: string[]): { judge: Judge } {
  let next = 0;
  return { judge: () => Promise.resolve(reply(texts[next++] ?? "")) };
}

const promptOf = (evaluation: { responses_create_params: ResponsesCreateParams }) => {
  const input = evaluation.responses_create_params.input as { content: unknown }[];
  return input[1]!.content;
};
