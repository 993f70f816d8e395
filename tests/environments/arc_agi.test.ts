// arc_agi: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import arcAgi, { parseGrid } from "../../environments/arc_agi/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { Judge } from "../../environments/sdk/index.js";
import { recordedRolloutsMatch } from "../helpers/parity.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "arc_agi";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  recordedRolloutsMatch(NAME, () => local);
});

const message = (text: string, role = "assistant") => ({
  id: "msg",
  type: "message",
  role,
  status: "completed",
  content: [{ annotations: [], text, type: "output_text" }],
});
const response = (...output: unknown[]) => ({ id: "resp_test", created_at: 0, model: "dummy", object: "response", output });

/** A verifier's context in plain Node: no session state, and no judge (these verifiers call none). */
const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: Record<string, unknown>): Promise<any> {
  const outcome = await perform(arcAgi, { kind: "verify" }, body, context());
  return outcome.status === 200 ? outcome.body : outcome;
}
const row = (expected_output: number[][], ...output: unknown[]) => ({
  responses_create_params: { input: "q" },
  response: response(...output),
  expected_output,
});

describe("NeMo Gym's tests (resources_servers/arc_agi/tests/test_app.py), ported", () => {
  it("test_sanity: the environment defines no tools", () => {
    expect(arcAgi.name).toBe("arc_agi");
    expect(arcAgi.tools.size).toBe(0);
  });

  it("test_parse_grid", () => {
    expect(parseGrid("[[1,2],[3,4]]")).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(parseGrid("[[1,2,3],[4,5,6],[7,8,9]]")).toEqual([
      [1, 2, 3],
      [4, 5, 6],
      [7, 8, 9],
    ]);
    expect(parseGrid("[1,2,3,4")).toBeNull();
    expect(parseGrid("")).toBeNull();
  });
});

describe("new cases", () => {
  it.each([
    [
      "whitespace (Python's, NBSP included) inside the grid is ignored",
      "\\boxed{[ [1,\n 2],\u00a0[3, 4] ]}",
      [
        [1, 2],
        [3, 4],
      ],
    ],
    ["a boxed grid wins over an earlier bare one", "[[9]] then \\boxed{[[1]]}", [[1]]],
    ["the first valid bare grid wins over a later correct one", "[[1,2]] and [[3]]", [[1, 2]]],
    ["rows may differ in length, only the first must be non-empty", "[[1],[2, 3],[]]", [[1], [2, 3], []]],
    ["an empty first row is no grid", "[[],[1]]", null],
    ["Unicode digits match the pattern but are not JSON", "\\boxed{[[١,2]]}", null],
    ["leading zeros are not JSON", "[[01]]", null],
    ["nested lists are no grid", "[[1,[2]]]", null],
    ["negative numbers never match the pattern", "[[-1]]", null],
    ["a malformed boxed grid hides a valid bare one (boxed candidates exist, so only they are tried)", "\\boxed{[[1,,2]]} [[1,2]]", null],
    ["an unclosed box leaves the bare grid inside it", "\\boxed{[[5]]", [[5]]],
  ])("%s", (_what, text, grid) => {
    expect(parseGrid(text)).toEqual(grid);
  });

  it("reads every assistant message joined by newlines, ignoring other roles", async () => {
    const r = await verify(row([[1]], message("[[2]]", "user"), message("thinking"), message("\\boxed{[[1]]}")));
    expect(r).toMatchObject({ reward: 1.0, predicted_output: [[1]], extraction_successful: true });
  });

  it("an extracted but wrong grid: extraction_successful with reward 0", async () => {
    expect(await verify(row([[1, 2]], message("\\boxed{[[2, 1]]}")))).toMatchObject({ reward: 0.0, predicted_output: [[2, 1]], extraction_successful: true });
  });

  it("no message or no grid: predicted_output null, extraction_successful false", async () => {
    expect(await verify(row([[1]]))).toMatchObject({ reward: 0.0, predicted_output: null, extraction_successful: false });
    expect(await verify(row([[1]], message("I cannot solve this.")))).toMatchObject({ reward: 0.0, predicted_output: null, extraction_successful: false });
  });

  it("task fields default as in NeMo Gym; a non-integer grid cell is a bad request", async () => {
    const body = { responses_create_params: { input: "q" }, response: response(message("[[1]]")) };
    expect(await verify(body)).toMatchObject({ reward: 0.0, expected_output: [], train: [], test_input: [], extraction_successful: true });
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...body, expected_output: [[1.5]] });
    expect(answer.status).toBe(400);
  });
});
