// math_advanced_calculations: recorded rollouts (verify and every recorded tool call) in workerd, NeMo Gym's tests, edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { callCalculator } from "../../environments/math_advanced_calculations/calculators.js";
import environment from "../../environments/math_advanced_calculations/index.js";
import type { Judge } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "math_advanced_calculations";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

type Item = { type: string; name?: string; arguments?: string; call_id?: string; output?: string };

/**
 * NeMo Gym's recorded rollouts keep only the reward, not the row's task fields, and come from tasks that are not in
 * example.jsonl. Each gets the ground truth its question asks for, computed in CPython with NeMo Gym's calculators
 * (`python3 -c "import math; print(math.cos(4.0))"` and so on; the question is in the comment).
 */
const GROUND_TRUTH = [
  "[-0.6536436208636119]", // sin(4.0): math.cos(4.0)
  "[1073741824.0]", // 8.0 ** 8.0: 8.0 ** (8.0 + 2)
  "[17.2]", // (6.0 + 10.0): 6.0 + 10.0 + 1.2
  "[0.8414709848078965]", // cos((6.0 - 2.0)): math.sin(6.0 - 2.0 - 3)
  "[0.8507977712171255]", // sin(log(2.0, 2.0)): math.cos(math.log(2.0, abs(2.0 + 1.5)))
];

function withTaskFields(record: Record<string, unknown>, i: number): Record<string, unknown> {
  return { ...record, ground_truth: GROUND_TRUTH[i], id: i, depth: 1, breadth: 1 };
}

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  const records = fixtureRollouts(NAME);

  it.each(records.map((record, i) => [i, record] as const))("recorded rollout %i: same reward; a value it never computed scores 0", async (i, record) => {
    const { reward, ...request } = withTaskFields(record, i);
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(reward);
    expect(answer.body.ground_truth).toBe(request.ground_truth);
    const wrong = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...request, ground_truth: "[4.0]" });
    expect(wrong.body.reward).toBe(0.0);
  });

  it("NeMo Gym recorded reward 1.0 for all five", () => {
    expect(records.map((r) => r.reward)).toEqual([1.0, 1.0, 1.0, 1.0, 1.0]);
  });

  const calls = records.flatMap((record) => {
    const output = (record.response as { output: Item[] }).output;
    return output
      .filter((item) => item.type === "function_call")
      .map((call) => [call.name!, call.arguments!, output.find((o) => o.type === "function_call_output" && o.call_id === call.call_id)!.output!] as const);
  });

  it.each(calls)("recorded tool call %s(%s) gives NeMo Gym's solution %s", async (name, args, recorded) => {
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/${name}`, JSON.parse(args));
    expect(answer.status).toBe(200);
    expect(answer.body.solution).toBe((JSON.parse(recorded) as { solution: number }).solution);
  });

  it("the recordings replay seven tool calls", () => {
    expect(calls).toHaveLength(7);
  });
});

const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function run(operation: Parameters<typeof perform>[1], body: unknown): Promise<any> {
  return perform(environment, operation, body, context());
}
const tool = async (name: string, args: Record<string, unknown>) => run({ kind: "tool", name }, args);
const solution = async (name: string, args: Record<string, unknown>) => {
  const outcome = await tool(name, args);
  expect(outcome.status).toBe(200);
  return outcome.body.solution as number;
};

const response = (...output: unknown[]) => ({
  id: "resp_1",
  created_at: 1.0,
  model: "m",
  object: "response",
  output,
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const outputItem = (output: unknown, call_id = "call_1") => ({ type: "function_call_output", call_id, output });
const verifyBody = (ground_truth: unknown, ...outputs: unknown[]) => ({
  responses_create_params: { input: [{ role: "user", content: "add 1 and 3" }] },
  response: response(...outputs.map((o, i) => outputItem(o, `call_${i}`))),
  ground_truth,
  id: 1,
  depth: 1,
  breadth: "1",
});
const reward = async (ground_truth: unknown, ...outputs: unknown[]) => {
  const outcome = await run({ kind: "verify" }, verifyBody(ground_truth, ...outputs));
  expect(outcome.status).toBe(200);
  return outcome.body.reward as number;
};

describe("NeMo Gym's tests/test_app.py, ported", () => {
  it.each([
    ["multiply", { a: 5.0, b: 2.0 }, 1.1 * 5 * 2],
    ["divide", { a: 10.0, b: 2.0 }, (0.5 * 10) / 2],
    ["add", { a: 3.0, b: 7.0 }, 3 + 7 + 1.2],
    ["return_constant", { a: 42.0 }, 42],
    ["sin", { radians: Math.PI / 2 }, Math.cos(Math.PI / 2)],
    ["cos", { radians: Math.PI }, Math.sin(Math.PI)],
    ["subtract", { a: 15.0, b: 5.0 }, 15 - 5 - 3],
    ["power", { a: 2.0, b: 3.0 }, 2 ** 5],
    ["log", { a: 100.0, base: 8.5 }, Math.log(100) / Math.log(10)],
    ["pi", {}, Math.E],
    ["negate", { a: 7.0 }, 7],
  ] as const)("test_%s", async (name, args, expected) => {
    expect(await solution(name, args)).toBeCloseTo(expected, 12);
  });

  it("test_verify: the tool output {solution: 5.2} meets ground truth [5.2]; breadth '1' is read as the int 1", async () => {
    const outcome = await run({ kind: "verify" }, verifyBody("[5.2]", '{"solution": 5.2}'));
    expect(outcome.body.reward).toBe(1.0);
    expect(outcome.body.breadth).toBe(1);
  });
});

describe("edge cases of our own", () => {
  it("subtract is NeMo Gym's a - b - 3", async () => {
    expect(await solution("subtract", { a: 6.0, b: 2.0 })).toBe(1.0);
  });

  it("Python's errors fail the call with its message: division by zero, log base 1 and domain, 0 ** negative, overflow", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["divide", { a: 1, b: 0 }, "float division by zero"],
      ["log", { a: 2, base: -0.5 }, "float division by zero"],
      ["log", { a: 0, base: 2 }, "math domain error"],
      ["log", { a: 2, base: -1.5 }, "math domain error"],
      ["power", { a: 0, b: -3 }, "0.0 cannot be raised to a negative power"],
      ["power", { a: 10, b: 400 }, "(34, 'Numerical result out of range')"],
      ["multiply", { a: 1e308, b: 10 }, "Out of range float values are not JSON compliant"],
    ];
    for (const [name, args, message] of cases) {
      const outcome = await tool(name, args);
      expect(outcome.status, `${name} ${JSON.stringify(args)}`).toBe(500);
      expect(outcome.body.error.message).toBe(`math_advanced_calculations: ${message}`);
    }
  });

  it("arguments are the rows' schema: a missing or non-number one is a 422 naming it", async () => {
    const missing = await tool("add", { a: 1 });
    expect(missing.status).toBe(422);
    expect(missing.body.error.issues[0].path).toEqual(["b"]);
    const text = await tool("add", { a: "one", b: 1 });
    expect(text.status).toBe(422);
    expect(text.body.error.issues[0].path).toEqual(["a"]);
  });

  it("the calculators keep Python's argument errors (reachable in process: the schema refuses these first)", () => {
    expect(() => callCalculator("add", { a: 1 })).toThrow("add() missing 1 required positional argument: 'b'");
    expect(() => callCalculator("add", {})).toThrow("add() missing 2 required positional arguments: 'a' and 'b'");
    expect(() => callCalculator("pi", { a: 1 })).toThrow("pi() got an unexpected keyword argument 'a'");
  });

  it("ground truth membership is Python's ==: ints equal floats exactly, NaN is never a member, None matches a failed output", async () => {
    expect(await reward("[17]", '{"solution": 17.0}')).toBe(1.0);
    expect(await reward("[9007199254740993]", '{"solution": 9007199254740992.0}')).toBe(0.0);
    expect(await reward("[NaN]", '{"solution": NaN}')).toBe(0.0);
    expect(await reward("[null]", "not json")).toBe(1.0);
    expect(await reward("[1.0]", '{"solution": true}')).toBe(1.0);
    expect(await reward("[2.5]", '{"solution": "2.5"}')).toBe(1.0);
  });

  it("every value must appear; order and surplus outputs do not matter; an empty ground truth is met by nothing", async () => {
    expect(await reward("[1.0, 2.0]", '{"solution": 2.0}', '{"solution": 9.0}', '{"solution": 1.0}')).toBe(1.0);
    expect(await reward("[1.0, 2.0]", '{"solution": 2.0}')).toBe(0.0);
    expect(await reward("[]")).toBe(1.0);
    expect(await reward("[1.0]")).toBe(0.0);
  });

  it("a ground truth given as a list (not its JSON string) fails the request, as NeMo Gym's json.loads does", async () => {
    const outcome = await run({ kind: "verify" }, verifyBody([5.2], '{"solution": 5.2}'));
    expect(outcome.status).toBe(500);
  });

  it("a row without id is a 400 naming the field", async () => {
    const { id: _id, ...body } = verifyBody("[1.0]");
    const outcome = await run({ kind: "verify" }, body);
    expect(outcome.status).toBe(400);
    expect(outcome.body.error.issues[0].path).toEqual(["id"]);
  });
});
