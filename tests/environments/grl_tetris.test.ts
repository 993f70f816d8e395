// grl_tetris: NeMo Gym's recorded games replayed through /reset and /step in workerd, CPython's boards, its tests ported.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Local } from "../../local/emulation.js";
import { parseActions } from "../../environments/grl_tetris/index.js";
import { constructorShapeCounts, newGame, render, step } from "../../environments/grl_tetris/game.js";
import { PyRandom } from "../../environments/grl_tetris/mt.js";
import { fixtureRollouts, fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "grl_tetris";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const base = () => `${local.url}/v1/environments/${NAME}`;
const message = (text: string) => ({
  id: "msg",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ annotations: [], text, type: "output_text" }],
});
const response = (...output: unknown[]) => ({ id: "r", created_at: 0, model: "m", object: "response", output });

async function start(row: Record<string, unknown>): Promise<{ reset: Json; stepWith: (item: unknown) => Promise<Json> }> {
  const reset = await postJson(`${base()}/reset`, row);
  const headers = { "x-session-id": reset.headers.get("x-session-id")! };
  const stepWith = async (item: unknown) => {
    const answer = await postJson(`${base()}/step`, { ...row, response: response(typeof item === "string" ? message(item) : item) }, headers);
    return { status: answer.status, ...answer.body };
  };
  return { reset: { status: reset.status, ...reset.body }, stepWith };
}

/**
 * The shape counts NeMo Gym's process carried into every reset (its constructor's unseeded draws, the same for every
 * env of one process since the random state is restored): not recorded, inferred. (7, 5, 5) for box_type 3 and (8, 9)
 * for box_type 2 are among the few vectors (of 171 and 18) that reproduce all the recorded boards of that box type.
 */
const RECORDED_COUNTS: Record<number, number[]> = { 3: [7, 5, 5], 2: [8, 9] };
const recordedRow = (i: number) => {
  const row = fixtureRows(NAME)[i]!;
  return { ...row, shape_counts: RECORDED_COUNTS[row.box_type as number] };
};

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "recorded rollout %i: the same boards, reward, terminated, truncated and info",
    async (_i, record: Json) => {
      const { reset, stepWith } = await start(recordedRow(record._ng_task_index));
      // The reset board is the last input message NeMo Gym's agent sent.
      expect(reset.observation).toBe(record.responses_create_params.input.at(-1).content);
      const output = record.response.output as Json[];
      const steps: Json[] = [];
      for (const item of output.filter((o) => o.role === "assistant")) steps.push(await stepWith(item));
      const users = output.filter((o) => o.role === "user").map((o) => o.content);
      expect(steps.slice(0, -1).map((s) => s.observation)).toEqual(users);
      expect(steps.reduce((sum, s) => sum + s.reward, 0)).toBe(record.reward);
      expect(steps.at(-1)).toMatchObject({ terminated: record.terminated, truncated: record.truncated, info: record.info });
    },
  );
});

const GAMES: Json[] = JSON.parse(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "grl_tetris", "cpython-games.json"), "utf8"),
);

describe("CPython's TetrisEnv, game for game (seeds 0 to 2**32-1, boards 3x5 to 6x3, box types 1-3)", () => {
  it.each(GAMES.map((g) => [g.seed, g] as const))("seed %s: the reset board and every step", (_seed, g) => {
    const game = newGame(g.dim_x, g.dim_y, g.box_type, g.seed, g.shape_counts);
    expect(render(game)).toBe(g.reset);
    for (const [k, action] of (g.actions as number[]).entries()) {
      const { state, reward, done, info } = step(game, action);
      expect([state, reward, done, info]).toEqual(g.steps[k]);
    }
  });

  it("PyRandom is CPython's random.Random: getrandbits(32) and randint for seed 60494 (values from CPython 3.11)", () => {
    const random = new PyRandom(60494);
    expect([0, 1, 2, 3, 4].map(() => random.getrandbits(32))).toEqual([2360322538, 3312266446, 2594447584, 1747567658, 110464654]);
    expect([0, 1, 2, 3, 4].map(() => random.randint(1, 17))).toEqual([8, 1, 13, 6, 3]);
  });
});

describe("NeMo Gym's tests/test_app.py, ported against the real board", () => {
  const row = () => ({ ...fixtureRows(NAME)[0]!, seed: 7, shape_counts: GAMES[0].shape_counts });

  it("reset then step: a formatted board, -0.1 a move, num_actions_applied 1", async () => {
    const { reset, stepWith } = await start(row());
    expect(reset.status).toBe(200);
    expect(reset.observation).toContain("Tetris board:\nXX__\n____\n____\n____\n\nLegend:");
    const moved = await stepWith("<action>Right</action>");
    expect(moved.status).toBe(200);
    expect(moved.reward).toBe(-0.1);
    expect(moved.terminated).toBe(false);
    expect(moved.info.num_actions_applied).toBe(1);
    expect(moved.observation).toContain("_XX_\n____");
  });

  it("batched actions apply in order and stop at done (the rest are skipped)", async () => {
    const { stepWith } = await start(row());
    // CPython's seed-7 game tops out on the 12th action of this sequence.
    const g = GAMES[0];
    const tags = [...g.actions, 2, 2, 2].map((a: number) => `<action>${["Left", "Right", "Down"][a]}</action>`).join("");
    const done = await stepWith(tags);
    expect(done.terminated).toBe(true);
    expect(done.info.num_actions_applied).toBe(12);
    expect(done.observation).toBe(g.steps[11][0]);
    // A step after the end: the episode was closed (NeMo Gym would answer the raw board, reward 0, terminated).
    const after = await stepWith("<action>Down</action>");
    expect(after.status).toBe(400);
    expect(JSON.stringify(after)).toContain("Session not initialized. Call /reset first.");
  });

  it("a step without action tags is a 400 naming the tags", async () => {
    const { stepWith } = await start(row());
    const answer = await stepWith("plain text, no tags");
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer)).toContain("No <action>Left|Right|Down</action> tags found in response.");
  });
});

describe("edge cases of our own", () => {
  it("action tags: case-insensitive, Python's \\s inside, digits 0-2; İ matches but lower() drops it", () => {
    expect(parseActions("<ACTION> left\u3000</action><action>2</action><action>3</action><action>down</Action>")).toEqual([0, 2, 2]);
    expect(parseActions("<action>rİght</action><action>rıght</action><action>Right</action>")).toEqual([1]);
    expect(parseActions("")).toEqual([]);
  });

  it("a step before any reset is a 400; a seed outside NumPy's 0..2**32-1 is refused naming seed", async () => {
    const step = await postJson(`${base()}/step`, { ...fixtureRows(NAME)[0]!, response: response(message("<action>Down</action>")) });
    expect(step.status).toBe(400);
    const reset = await postJson(`${base()}/reset`, { ...fixtureRows(NAME)[0]!, seed: 2 ** 32 });
    expect(reset.status).toBe(400);
    expect(reset.body.error.issues[0].path).toEqual(["seed"]);
  });

  it("dim_board is not read (NeMo Gym reads dim_x/dim_y): the 6x6 example row plays on 4x4; dim_x 1 with box_type 3 is a 400", async () => {
    const { reset } = await start(recordedRow(2));
    // NeMo Gym's recorded reset board of this row (task 2), 4x4.
    expect(reset.observation).toContain("Tetris board:\n_XX_\n____\n____\n____\n\n");
    const bad = await postJson(`${base()}/reset`, { ...fixtureRows(NAME)[0]!, dim_x: 1 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("empty range in randrange(1, 1)");
  });

  it("shape_counts of the wrong length is a 400; without them the counts are drawn as TetrisEnv's constructor draws them", async () => {
    const bad = await postJson(`${base()}/reset`, { ...fixtureRows(NAME)[0]!, shape_counts: [1, 2] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("box_type 3 has 3 shapes, shape_counts has 2");
    const counts = constructorShapeCounts(4, 4, 3, new PyRandom(1));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(17);
    const { reset, stepWith } = await start(fixtureRows(NAME)[0]!);
    expect(reset.observation).toMatch(/^Tetris board:\n[_X]{4}\n____\n____\n____\n\n/);
    expect((await stepWith("<action>Down</action>")).reward).toBe(-0.1);
  });
});
