// evalplus: NeMo Gym's recorded rollouts re-verified in workerd (EvalPlus's check run in the local sandbox), its tests ported, new cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HUMANEVAL_PLUS_JSONL } from "../../environments/evalplus/data/humaneval_plus.js";
import { extractCodeStrict } from "../../environments/evalplus/extract.js";
import { tasksOf } from "../../environments/evalplus/index.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";
import { withTaskFields } from "../helpers/parity.js";
import { SETUP_TIMEOUT_MS } from "../sandbox/service-harness.js";

const NAME = "evalplus";
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
/** NeMo Gym's test task (its _MOCK_DATASET's HumanEval/0), carried by the row (as a data-file line) instead of patched into the server. */
const MOCK_PROMPT = "def f(x):\n";
const mockTask = (plus: unknown[][] = [[2]], base: unknown[][] = [[1]]) => ({
  task_id: "HumanEval/0",
  prompt: MOCK_PROMPT,
  entry_point: "f",
  base_input: base,
  plus_input: plus,
  atol: 0,
  canonical_solution: "    return x\n",
});
const mockProblem = (plus?: unknown[][], base?: unknown[][]) => JSON.stringify(mockTask(plus, base));
const row = (text: string, verifierMetadata: Record<string, unknown> = { task_id: "HumanEval/0", problem: mockProblem() }) => ({
  responses_create_params: { input: [{ role: "user", content: "complete f" }] },
  response: answer(text),
  verifier_metadata: verifierMetadata,
});

describe("parity with NeMo Gym's recorded rollouts (workerd, local sandbox)", () => {
  const bundled = tasksOf(HUMANEVAL_PLUS_JSONL);
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "recorded rollout %i: same reward, extraction, statuses and base details",
    async (_i, record) => {
      const { reward, ...request } = withTaskFields(NAME, record);
      const got = await verify(request);
      expect(got.status).toBe(200);
      expect(got.body.reward).toBe(reward);
      for (const key of ["extracted_model_output", "extracted_model_code", "base_status", "plus_status", "is_correct", "is_correct_plus"]) {
        expect(got.body[key], key).toEqual(record[key]);
      }
      const recorded = record.metadata as { base_details: number[]; plus_details: number[] };
      expect(got.body.metadata.base_details).toEqual(recorded.base_details);
      // The bundled plus inputs are EvalPlus's first release's (data/SOURCE.md), not v0.1.10's: every one passes, as all of NeMo Gym's did.
      const taskId = (record.verifier_metadata as { task_id: string }).task_id;
      expect(recorded.plus_details.every((d) => d === 1)).toBe(true);
      expect(got.body.metadata.plus_details).toEqual(bundled[taskId]!.problem.plus_input.map(() => 1));
    },
    180_000,
  );
});

describe("NeMo Gym's tests (resources_servers/evalplus/tests/test_app.py), ported", () => {
  it("TestExtractCode: last python fence, strict mode, carriage returns", () => {
    expect(extractCodeStrict("scratch ```python\nx=1\n``` then ```python\ny=2\n```")).toBe("y=2");
    expect(extractCodeStrict("no language tag ```\nz=3\n```")).toBe("");
    expect(extractCodeStrict("```python\nincomplete")).toBe("");
    expect(extractCodeStrict("plain text no fences")).toBe("");
    expect(extractCodeStrict("```python\r\nprint(1)\r\n```")).toBe("print(1)");
    expect(extractCodeStrict("Step 1: ```python\nx=1\n```\nStep 2: ```python\nfinal_answer=42\n```")).toBe("final_answer=42");
  });

  it("test_verify_pass_base_and_plus: reward 1, both verdicts true", async () => {
    const got = await verify(row("```python\ndef f(x):\n    return x\n```"));
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ reward: 1, is_correct: true, is_correct_plus: true, base_status: "pass", plus_status: "pass" });
    expect(got.body.metadata).toEqual({ base_details: [1], plus_details: [1] });
  }, 60_000);

  it("test_verify_passes_base_fails_plus: reward is the strict (plus) verdict", async () => {
    const got = await verify(row("```python\ndef f(x):\n    return x if x < 2 else 0\n```"));
    expect(got.body).toMatchObject({ reward: 0, is_correct: true, is_correct_plus: false, base_status: "pass", plus_status: "fail" });
    expect(got.body.metadata).toEqual({ base_details: [1], plus_details: [0] });
  }, 60_000);

  it("test_verify_fail_base: reward 0, neither verdict", async () => {
    const got = await verify(row("```python\ndef f(x):\n    return -x\n```"));
    expect(got.body).toMatchObject({ reward: 0, is_correct: false, is_correct_plus: false, base_status: "fail", plus_status: "fail" });
  }, 60_000);

  it("test_verify_no_code_block: the output kept, no code", async () => {
    const got = await verify(row("I will solve this by returning x."));
    expect(got.body).toMatchObject({ reward: 0, extracted_model_output: "I will solve this by returning x.", extracted_model_code: null });
  });

  it("test_verify_empty_output: reward 0, no code", async () => {
    const got = await verify(row(""));
    expect(got.body).toMatchObject({ reward: 0, extracted_model_output: null, extracted_model_code: null, base_status: null });
  });

  it("test_verify_unknown_task_id: reward 0 and the error names the task", async () => {
    const got = await verify(row("```python\nx=1\n```", { task_id: "HumanEval/9999" }));
    expect(got.body).toMatchObject({ reward: 0, metadata: { error: "unknown task_id 'HumanEval/9999' for dataset 'humaneval'" } });
  });

  it("test_verify_missing_task_id: reward 0 and the error says so", async () => {
    const got = await verify(row("```python\nx=1\n```", {}));
    expect(got.body).toMatchObject({ reward: 0, metadata: { error: "missing task_id in verifier_metadata" } });
  });

  it("test_verify_prepends_prompt_when_missing: a body-only completion runs under the prompt's signature", async () => {
    // Extraction strips the first line's indent; a comment there keeps the body valid once the prompt is prepended.
    const got = await verify(row("```python\n    # the identity\n    return x\n```"));
    expect(got.body).toMatchObject({ reward: 1, extracted_model_code: "# the identity\n    return x" });
  }, 60_000);

  it("test_verify_does_not_double_prepend: code that already starts with the prompt runs as it is", async () => {
    // Prepending again would make `def f(x):\ndef f(x):` (an IndentationError) and fail.
    const got = await verify(row(`\`\`\`python\n${MOCK_PROMPT}    return x\n\`\`\``));
    expect(got.body).toMatchObject({ reward: 1, base_status: "pass", plus_status: "pass" });
  }, 60_000);

  it("test_verify_missing_response_validation_error: refused with the field's path", async () => {
    const { response: _r, ...body } = row("x");
    const got = await verify(body);
    expect(got.status).toBe(400);
    expect(JSON.stringify(got.body)).toContain("response");
  });
});

describe("new cases", () => {
  it("a program that never finishes loading is a timeout on both, details empty, reward 0", async () => {
    const got = await verify(row("```python\ndef f(x):\n    return x\nwhile True:\n    pass\n```", { task_id: "t", problem: mockProblem([[2]], [[1], [3]]) }));
    expect(got.body).toMatchObject({ reward: 0, base_status: "timeout", plus_status: "timeout", is_correct: false });
    expect(got.body.metadata).toEqual({ base_details: [], plus_details: [] });
  }, 120_000);

  it("one input over its time limit fails that input only (details 1, 0, 1)", async () => {
    const got = await verify(
      row("```python\ndef f(x):\n    while x == 2:\n        pass\n    return x\n```", { task_id: "t", problem: mockProblem([[1], [2], [3]]) }),
    );
    expect(got.body).toMatchObject({ reward: 0, base_status: "pass", plus_status: "fail", is_correct: true });
    expect(got.body.metadata).toEqual({ base_details: [1], plus_details: [1, 0, 1] });
  }, 120_000);

  it("a runtime error on one input fails that input; a syntax error fails the whole check with no details", async () => {
    const raised = await verify(
      row("```python\ndef f(x):\n    if x == 2:\n        raise ValueError(x)\n    return x\n```", { task_id: "t", problem: mockProblem([[1], [2], [3]]) }),
    );
    expect(raised.body.metadata).toEqual({ base_details: [1], plus_details: [1, 0, 1] });
    // The row's task line is echoed back as the text it sent.
    expect(raised.body.verifier_metadata).toEqual({ task_id: "t", problem: mockProblem([[1], [2], [3]]) });
    const broken = await verify(row("```python\ndef f(x:\n    return x\n```"));
    expect(broken.body).toMatchObject({ reward: 0, base_status: "fail", plus_status: "fail", metadata: { base_details: [], plus_details: [] } });
  }, 120_000);

  // HumanEval/2's plus input 1.0 must reach Python as a float (an int 1 makes the expected 0 an int, and 1e-9 a type mismatch).
  it("floats compare within atol 1e-6 (HumanEval/2 bundled): a rounding-level difference passes, a real one fails", async () => {
    const close = await verify(
      row("```python\ndef truncate_number(number: float) -> float:\n    return number - int(number) + 1e-9\n```", { task_id: "HumanEval/2" }),
    );
    expect(close.body).toMatchObject({ reward: 1, base_status: "pass", plus_status: "pass" });
    const far = await verify(
      row("```python\ndef truncate_number(number: float) -> float:\n    return round(number - int(number), 2)\n```", { task_id: "HumanEval/2" }),
    );
    expect(far.body).toMatchObject({ reward: 0, base_status: "fail" });
    // 1.33 - 1 rounds to 0.33, within 1e-6 of 0.33000000000000007; 123.456 gives 0.46, not 0.456.
    expect(far.body.metadata.base_details).toEqual([1, 1, 0]);
  }, 120_000);

  it("the program's prints and its attempts to delete files change nothing", async () => {
    const code =
      "def f(x):\n    import os\n    print(x)\n    try:\n        os.remove('problem.json')\n    except TypeError:\n        pass\n    return x\nprint('noise ✓')";
    const got = await verify(row(`\`\`\`python\n${code}\n\`\`\``));
    expect(got.body).toMatchObject({ reward: 1, plus_status: "pass" });
  }, 60_000);

  it("a row's own task with a malformed field is refused with the zod path", async () => {
    const got = await verify(row("```python\nx=1\n```", { task_id: "t", problem: JSON.stringify({ ...mockTask(), base_input: "1" }) }));
    expect(got.status).toBe(400);
    expect(JSON.stringify(got.body)).toContain("verifier_metadata.problem");
    expect(JSON.stringify(got.body)).toContain("not an EvalPlus task line: base_input: Invalid input: expected array, received string");
  });
});
