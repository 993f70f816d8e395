// ruler: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's test ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ruler, { stringMatchAll, stringMatchPart } from "../../environments/ruler/index.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRollouts, fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "ruler";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const verify = (body: Record<string, unknown>) => postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
const response = (text: string) => ({
  id: "resp_test",
  created_at: 0,
  model: "dummy",
  object: "response",
  output: [{ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text, type: "output_text" }] }],
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const params = { input: [{ role: "user", content: "Find all variables that are assigned the value 1." }] };
const task = (subset: string, outputs: string[]) => ({ responses_create_params: params, outputs, length: 4096, subset });
const SUBSET_FIELDS = [
  "cwe",
  "fwe",
  "niah_multikey_1",
  "niah_multikey_2",
  "niah_multikey_3",
  "niah_multiquery",
  "niah_multivalue",
  "niah_single_1",
  "niah_single_2",
  "niah_single_3",
  "qa_1",
  "qa_2",
  "vt",
];

/**
 * NeMo Gym's ruler recordings keep neither `outputs` nor `subset`, and their prompts (262k tokens, filled the context)
 * are none of the example rows'; every recorded response is reasoning only, with no output text. So each recording is
 * re-verified with every example row's task fields: an empty answer contains none of them, reward 0 as recorded.
 */
describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it("the recordings have no answer text and reward 0", () => {
    for (const record of fixtureRollouts(NAME)) {
      expect(record.reward).toBe(0.0);
      expect((record.response as { output: { type: string }[] }).output.map((item) => item.type)).toEqual(["reasoning"]);
    }
  });

  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: reward 0 with every example row's task", async (_i, record) => {
    for (const row of fixtureRows(NAME)) {
      const { responses_create_params: _p, ...fields } = row;
      const answer = await verify({ ...record, ...fields, reward: undefined });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.reward).toBe(record.reward);
      expect(answer.body[fields.subset as string]).toBe(record.reward);
    }
  });
});

describe("NeMo Gym's tests", () => {
  it("test_sanity: the server builds, with no tools", () => {
    expect(ruler.name).toBe("ruler");
    expect([...ruler.tools.keys()]).toEqual([]);
  });
});

// NeMo Skills' ruler evaluator, which NeMo Gym's helpers copy: its arithmetic on cases of our own.
describe("string_match_all_single and string_match_part_single", () => {
  it("all: the share of refs found, case-insensitively", () => {
    expect(stringMatchAll("Answer: NRBQA, kmljx", ["NRBQA", "KMLJX", "LDENQ"])).toBe(2 / 3);
  });
  it("part: 1 if any ref is found", () => {
    expect(stringMatchPart("it was paris", ["London", "Paris"])).toBe(1.0);
    expect(stringMatchPart("it was rome", ["London", "Paris"])).toBe(0.0);
  });
  it("no refs: Python's ZeroDivisionError and max() ValueError become errors", () => {
    expect(() => stringMatchAll("x", [])).toThrow(/division by zero/);
    expect(() => stringMatchPart("x", [])).toThrow(/empty sequence/);
  });
});

describe("verify (workerd)", () => {
  it("vt: the share of outputs in the stripped answer; the subset's own field repeats the reward, the others are null", async () => {
    const answer = await verify({ ...task("vt", ["AAA", "BBB", "CCC", "DDD"]), response: response("  aaa and bbb\n") });
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(0.5);
    for (const field of SUBSET_FIELDS) expect(answer.body[field], field).toBe(field === "vt" ? 0.5 : null);
    expect(answer.body).toMatchObject({ outputs: ["AAA", "BBB", "CCC", "DDD"], length: 4096, subset: "vt" });
  });

  it("qa_2: any one output found scores 1", async () => {
    const answer = await verify({ ...task("qa_2", ["Paris", "Lutetia"]), response: response("The capital is lutetia.") });
    expect(answer.body).toMatchObject({ reward: 1.0, qa_2: 1.0, qa_1: null });
  });

  it("an unknown subset is graded as string_match_all and names no field", async () => {
    const answer = await verify({ ...task("custom", ["x"]), response: response("x") });
    expect(answer.body.reward).toBe(1.0);
    expect(answer.body.custom).toBeUndefined();
  });

  it("an empty answer scores 0; unicode outputs match case-insensitively", async () => {
    expect((await verify({ ...task("vt", ["Ä"]), response: response("") })).body.reward).toBe(0.0);
    expect((await verify({ ...task("vt", ["ÄÖ", "Σ"]), response: response("äö σ") })).body.reward).toBe(1.0);
  });

  it("a task without outputs is refused with 400 and the zod issue's path", async () => {
    const { outputs: _omit, ...rest } = task("vt", ["x"]);
    const answer = await verify({ ...rest, response: response("x") });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues[0].path).toEqual(["outputs"]);
  });
});
