// math_with_code: the stateful execute_python kernel in the local sandbox (workerd), NeMo Gym's verifier, recorded rollouts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_HEADER } from "../../contracts/names.js";
import { answersMatch, extractBoxedAnswer, normalizeAnswer } from "../../environments/math_with_code/verify.js";
import mathWithCode from "../../environments/math_with_code/index.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";
import { withTaskFields } from "../helpers/parity.js";
import { SETUP_TIMEOUT_MS } from "../sandbox/service-harness.js";

const NAME = "math_with_code";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
  await local?.stop();
});

const route = (tail: string) => `${local.url}/v1/environments/${NAME}/${tail}`;
async function session(): Promise<Record<string, string>> {
  const seeded = await postJson(route("seed_session"), { responses_create_params: { input: "q" }, expected_result: "1" });
  expect(seeded.status).toBe(200);
  return { [SESSION_HEADER]: seeded.headers.get(SESSION_HEADER) ?? "" };
}
const execute = (headers: Record<string, string>, code: string) => postJson(route("execute_python"), { code }, headers);

/**
 * NeMo Gym's example_rollouts.jsonl was recorded (2025-11-14) with the older extractor `re.search(r"\\boxed\{([^}]+)\}")`,
 * which stops at the first closing brace; 07d6b0d's app.py (since d1f57f7b5) balances braces. These are 07d6b0d's answers:
 * rollouts 0 and 1 as recorded; 2 and 3 extract the whole box and still score 0; 4 extracts `\sqrt{2}`, which now matches
 * the expected `\(\sqrt{2}\)` and scores 1 where the record says 0.
 */
const AT_07D6B0D = [
  { reward: 1, extracted_answer: "-3" },
  { reward: 0, extracted_answer: "0" },
  { reward: 0, extracted_answer: "\\dfrac{83}{499}" },
  { reward: 0, extracted_answer: "x_{2016} \\approx \\frac{1 + \\sqrt{3}}{2\\sqrt{3}} (2 + \\sqrt{3})^{2016}" },
  { reward: 1, extracted_answer: "\\sqrt{2}" },
];

describe("NeMo Gym's recorded rollouts, re-verified in workerd", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "rollout %i: NeMo Gym 07d6b0d's reward and answer",
    async (i, record) => {
      const { reward, extracted_answer, accuracy: _a, ...request } = withTaskFields(NAME, record);
      const got = await postJson(route("verify"), request);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ ...AT_07D6B0D[i], accuracy: AT_07D6B0D[i]!.reward === 1 });
      // Where 07d6b0d agrees with the record, so does this port; where not, the older extractor explains the record.
      const oldExtractor = /\\boxed\{([^}]+)\}/;
      if (AT_07D6B0D[i]!.extracted_answer === extracted_answer) expect(got.body.reward).toBe(reward);
      else expect(oldExtractor.exec(`\\boxed{${AT_07D6B0D[i]!.extracted_answer}}`)?.[1]).toBe(extracted_answer);
    },
    60_000,
  );
});

describe("execute_python: a kernel kept in the session's sandbox", () => {
  it("keeps variables between calls, numpy/scipy/pandas preloaded, the last bare expression as result", async () => {
    const headers = await session();
    const first = await execute(headers, "x = np.array([1, 2, 3])\nprint('set')");
    expect(first.body).toEqual({ success: true, stdout: "set\n", stderr: "", error_message: null, result: null });
    const second = await execute(headers, "y = int(x.sum())\ny * 2");
    expect(second.body).toEqual({ success: true, stdout: "", stderr: "", error_message: null, result: "12" });
    const third = await execute(headers, "print(pd.Series([y]).iloc[0], scipy.__name__)");
    expect(third.body).toMatchObject({ success: true, stdout: "6 scipy\n" });
  }, 60_000);

  it("NeMo Gym's restricted builtins and errors: success false with the exception's message", async () => {
    const headers = await session();
    expect((await execute(headers, "open('/etc/passwd')")).body).toEqual({
      success: false,
      stdout: "",
      stderr: "",
      error_message: "name 'open' is not defined",
      result: null,
    });
    expect((await execute(headers, "1/0")).body.error_message).toBe("division by zero");
  }, 60_000);

  it("an infinite loop times out after max_execution_time (10 s) as 'code timed-out', and the kernel keeps its variables", async () => {
    const headers = await session();
    await execute(headers, "kept = 41");
    const started = Date.now();
    const looped = await execute(headers, "while True:\n    pass");
    expect(looped.body).toEqual({ success: false, stdout: "", stderr: "", error_message: "code timed-out", result: null });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect((await execute(headers, "kept + 1")).body.result).toBe("42");
  }, 60_000);

  it("end_session discards the kernel (its variables are gone); verify ends it too", async () => {
    const headers = await session();
    await execute(headers, "z = 5");
    expect((await postJson(route("end_session"), {}, headers)).body).toMatchObject({ success: true });
    expect((await execute(headers, "z")).body.error_message).toBe("name 'z' is not defined");
    const before = local.sandbox?.store.size ?? 0;
    expect(before).toBeGreaterThan(0);
    const response = { id: "r", created_at: 0, model: "m", object: "response", output: [] };
    const verified = await postJson(route("verify"), { responses_create_params: { input: "q" }, response, expected_result: "1" }, headers);
    expect(verified.body).toMatchObject({ reward: 0, extracted_answer: null, accuracy: false });
    expect(local.sandbox?.store.size).toBe(before - 1);
  }, 60_000);
});

describe("NeMo Gym's verifier (app.py), ported", () => {
  it("test_sanity: the environment offers execute_python and end_session", () => {
    expect(mathWithCode.name).toBe("math_with_code");
    expect([...mathWithCode.tools.keys()].sort()).toEqual(["end_session", "execute_python"]);
  });
  it("_extract_boxed_answer: the last box, braces balanced, empty or unbalanced is none", () => {
    expect(extractBoxedAnswer("\\boxed{1} then \\boxed{\\frac{1}{2}}")).toBe("\\frac{1}{2}");
    expect(extractBoxedAnswer("\\boxed{  }")).toBeNull();
    expect(extractBoxedAnswer("\\boxed{\\frac{1}{2}")).toBeNull();
    expect(extractBoxedAnswer("no box")).toBeNull();
  });
  it("_normalize_answer and _answers_match: wrappers, whitespace, numeric fallback", () => {
    expect(normalizeAnswer("\\( \\frac{1}{2} \\)")).toBe("\\frac{1}{2}");
    expect(normalizeAnswer("$x  +   1$")).toBe("x + 1");
    expect(normalizeAnswer("\\text{yes}")).toBe("yes");
    expect(answersMatch("42", "42.0")).toBe(true);
    expect(answersMatch(".5", "0.5")).toBe(true);
    expect(answersMatch("1000000", "1000000.5")).toBe(true);
    expect(answersMatch("1", "1.001")).toBe(false);
    expect(answersMatch(null, "1")).toBe(false);
    expect(answersMatch("1_000", "1000")).toBe(true);
  });
});
