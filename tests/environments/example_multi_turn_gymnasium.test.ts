// example_multi_turn_gymnasium: NeMo Gym's recorded conversations replayed through /reset and /step in workerd, and the scoring rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import environment from "../../environments/example_multi_turn_gymnasium/index.js";
import { fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "example_multi_turn_gymnasium";
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

/** NeMo Gym's gymnasium records keep only the request: the task fields come from the example row with the same input. */
function exampleRow(record: Record<string, unknown>): Record<string, unknown> {
  const row = fixtureRows(NAME).find((r) => inputKey(r) === inputKey(record));
  if (!row) throw new Error("no example row matches a recorded rollout");
  return row;
}

/** Plays a conversation: reset, then one step per assistant text; returns each step's answer. */
async function play(row: Record<string, unknown>, replies: unknown[]): Promise<Json[]> {
  const reset = await postJson(`${base()}/reset`, row);
  expect(reset.body).toEqual({ observation: null, info: {} });
  // The episode's id, as /reset issued it.
  const headers = { "x-session-id": reset.headers.get("x-session-id")! };
  const steps: Json[] = [];
  for (const reply of replies) {
    const item = typeof reply === "string" ? message(reply) : reply;
    steps.push((await postJson(`${base()}/step`, { ...row, response: response(item) }, headers)).body);
  }
  return steps;
}

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "recorded rollout %i: the same follow-ups, reward, terminated, truncated and info",
    async (_i, record: Json) => {
      const output = record.response.output as Json[];
      const assistant = output.filter((item) => item.role === "assistant");
      const steps = await play(exampleRow(record), assistant);
      // Each step's observation is the user message NeMo Gym put after that turn; the last ends the episode.
      const users = output.filter((item) => item.role === "user").map((item) => item.content);
      expect(steps.map((s) => s.observation)).toEqual([...users, null]);
      expect(steps.reduce((sum, s) => sum + s.reward, 0)).toBe(record.reward);
      expect(steps.at(-1)).toMatchObject({ terminated: record.terminated, truncated: record.truncated, info: record.info });
    },
  );
});

describe("NeMo Gym's tests, ported, and the scoring rules", () => {
  it("sanity: the environment is defined (NeMo Gym's only test constructs the server)", () => {
    expect(environment).toMatchObject({ name: NAME, stateful: true, maxSteps: 5 });
  });

  const row = fixtureRows(NAME)[1]!; // 15 × 8, then "divide by 6": expected 20

  it("a wrong final answer scores 0; the follow-ups are asked whatever the answers", async () => {
    const steps = await play(row, ["It is 100.", "Then 7."]);
    expect(steps.map((s) => [s.observation, s.reward, s.terminated])).toEqual([
      ["Now divide that result by 6.", 0, false],
      [null, 0, true],
    ]);
  });

  it("the expected answer is a case-insensitive substring of all the final turn's text", async () => {
    const words = { ...row, expected_answer: "Twenty" };
    const split = {
      ...message(""),
      content: [
        { type: "output_text", text: "it is TWEN" },
        { type: "output_text", text: "TY exactly" },
      ],
    };
    expect((await play(words, ["120", split])).at(-1).reward).toBe(1);
  });

  it("only the final turn counts: the answer given early scores nothing", async () => {
    expect((await play(row, ["20", "I cannot say."])).at(-1).reward).toBe(0);
  });

  it("no follow-ups: the first step is final; no expected answer never scores", async () => {
    const single = { responses_create_params: { input: "Say 20." }, expected_answer: "20" };
    expect(await play(single, ["20"])).toEqual([{ observation: null, reward: 1, terminated: true, truncated: false, info: {} }]);
    expect((await play({ responses_create_params: { input: "hi" } }, ["anything"])).at(-1)).toMatchObject({ reward: 0, terminated: true });
    expect((await play({ ...single, expected_answer: "" }, ["20"])).at(-1).reward).toBe(0);
  });

  it("a step without a reset starts at the first follow-up, as NeMo Gym's counter defaults to 0", async () => {
    const step = await postJson(`${base()}/step`, { ...row, response: response(message("120")) });
    expect(step.body).toMatchObject({ observation: "Now divide that result by 6.", terminated: false });
  });

  it("follow_ups of the wrong type is a 400 naming it", async () => {
    const bad = await postJson(`${base()}/reset`, { ...row, follow_ups: "Now divide." });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toEqual(["follow_ups"]);
  });
});
