// code_gen: NeMo Gym's recorded rollouts re-verified in workerd (code run in the local sandbox), its tests ported, new cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractCode, hasReasoningFormatViolation } from "../../environments/code_gen/extract.js";
import type { Local } from "../../local/emulation.js";
import { withTaskFields } from "../helpers/parity.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";
import { SETUP_TIMEOUT_MS } from "../sandbox/service-harness.js";

const NAME = "code_gen";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
  await local?.stop();
});

const verify = (body: unknown) => postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
const answer = (text: string) => ({
  id: "resp",
  created_at: 0,
  model: "dummy",
  object: "response",
  output: [{ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text, type: "output_text" }] }],
});
const row = (text: string, inputs: string[], outputs: string[]) => ({
  responses_create_params: { input: [{ role: "user", content: "solve" }] },
  response: answer(text),
  verifier_metadata: { unit_tests: { inputs, outputs } },
});

describe("parity with NeMo Gym's recorded rollouts (workerd, local sandbox)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "recorded rollout %i: same reward, result and metadata",
    async (_i, record) => {
      const { reward, ...request } = withTaskFields(NAME, record);
      const got = await verify(request);
      expect(got.status).toBe(200);
      expect(got.body.reward).toBe(reward);
      expect(got.body.extracted_model_output).toBe(record.extracted_model_output);
      expect(got.body.extracted_model_code).toBe(record.extracted_model_code);
      expect(got.body.result).toEqual(record.result);
      // The measured execution time differs from run to run: its presence and type are what can match.
      const { "execution time": time, ...metadata } = record.metadata as Record<string, unknown>;
      const { "execution time": gotTime, ...gotMetadata } = got.body.metadata as Record<string, unknown>;
      expect(gotMetadata).toEqual(metadata);
      expect(typeof gotTime).toBe(time === undefined ? "undefined" : "number");
    },
    120_000,
  );
});

describe("NeMo Gym's tests (resources_servers/code_gen/tests/test_app.py), ported", () => {
  it("test_verify_pass_via_response: n squared passes both tests", async () => {
    const got = await verify(row("```python\nn=int(input())\nprint(n*n)\n```", ["2\n", "5\n"], ["4", "25"]));
    expect(got.body).toMatchObject({ reward: 1, result: [true, true], extracted_model_code: "n=int(input())\nprint(n*n)" });
  }, 60_000);

  it("test_verify_fail_wrong_answer: n+1 fails with LiveCodeBench's message", async () => {
    const got = await verify(row("```python\nn=int(input())\nprint(n+1)\n```", ["3\n"], ["9"]));
    expect(got.body.reward).toBe(0);
    expect(got.body.metadata.error_message).toBe("Wrong answer at output_line_idx=0: 4 != 9");
  }, 60_000);

  it("test_verify_missing_response_validation_error: a request without response is refused with the field's path", async () => {
    const { response: _r, ...body } = row("x", ["1\n"], ["1"]);
    const got = await verify(body);
    expect(got.status).toBe(400);
    expect(JSON.stringify(got.body)).toContain("response");
  });

  it("test_verify_no_code_block: raw text is no code, reward 0, the output kept", async () => {
    const got = await verify(row("n=int(input())\nprint(n*n)", ["2\n"], ["4"]));
    expect(got.body).toMatchObject({ reward: 0, extracted_model_output: "n=int(input())\nprint(n*n)", extracted_model_code: null });
  });

  it("test_verify_syntax_error: the compile error is the test framework's error", async () => {
    const got = await verify(row("```python\nprint('hello'  # Missing closing parenthesis\n```", ["\n"], ["hello"]));
    expect(got.body.reward).toBe(0);
    expect(got.body.metadata.error_message).toBe("Error during testing: '(' was never closed (<string>, line 1)");
  }, 60_000);

  it("test_verify_runtime_error: a ZeroDivisionError is a Runtime Error", async () => {
    const got = await verify(row("```python\nn=int(input())\nprint(n/0)\n```", ["5\n"], ["error"]));
    expect(got.body.reward).toBe(0);
    expect(got.body.metadata.error_message).toBe("Runtime Error");
    expect(got.body.result).toEqual([-4]);
  }, 60_000);

  it("extract_code takes the last fenced block; reasoning-format violations are think tags in the answer", () => {
    expect(extractCode("a\n```python\nfirst\n```\nb\n```python\nsecond\n```")).toBe("second");
    expect(extractCode("```python\nonly one fence")).toBe("");
    expect(hasReasoningFormatViolation("x </think> y", "")).toBe(true);
    expect(hasReasoningFormatViolation("ok", "<think>a</think>")).toBe(false);
    expect(hasReasoningFormatViolation("ok", "<think>a<think>b")).toBe(true);
  });
});

describe("new cases", () => {
  it("an infinite loop is a Time Limit Exceeded (-3) within the unit test timeout, reward 0", async () => {
    const started = Date.now();
    const got = await verify(row("```python\nwhile True:\n    pass\n```", ["1\n"], ["1"]));
    expect(got.body.reward).toBe(0);
    expect(got.body.result).toEqual([-3]);
    expect(got.body.metadata.error_message).toBe("Time Limit Exceeded");
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it("wrong output on the second test stops there: [true, -2], reward 0", async () => {
    const got = await verify(row("```python\nprint(int(input()) * 2)\n```", ["2\n", "3\n"], ["4", "7"]));
    expect(got.body).toMatchObject({ reward: 0, result: [true, -2] });
    expect(got.body.metadata.error_message).toBe("Wrong answer at output_line_idx=0: 6 != 7");
  }, 60_000);

  it("a syntax error anywhere is reward 0 with result [-4]", async () => {
    const got = await verify(row("```python\ndef f(:\n    return 1\n```", ["1\n"], ["1"]));
    expect(got.body).toMatchObject({ reward: 0, result: [-4] });
    expect(got.body.metadata.error_message).toMatch(/^Error during testing: invalid syntax/);
  }, 60_000);

  it("a program that kills its own grader (os._exit) fails every test, as NeMo Gym's global timeout does", async () => {
    const got = await verify(row("```python\nimport os\nos._exit(0)\n```", ["1\n", "2\n"], ["1", "2"]));
    expect(got.body).toMatchObject({ reward: 0, result: [-1, -1], metadata: null });
  }, 60_000);

  it("decimal comparison: 1.0 equals 1 line by line", async () => {
    const got = await verify(row("```python\nprint('1.0 2.50')\n```", ["\n"], ["1 2.5"]));
    expect(got.body).toMatchObject({ reward: 1, result: [true] });
  }, 60_000);
});
