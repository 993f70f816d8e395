// Port of NeMo Gym's grl_tetris: a seeded Tetris board the model plays with <action>Left|Right|Down</action> tags.
import { EdgegymError } from "../../protocol/index.js";
import { pythonFindall } from "../sdk/python/findall.js";
import { pyIsDigit, pyLower, pyStrip } from "../sdk/python/index.js";
import { defineGymnasiumEnvironment, extractText, z } from "../sdk/index.js";
import { constructorShapeCounts, Game, newGame, render, step } from "./game.js";
import { PyRandom } from "./mt.js";

const ACTION_LOOKUP: Record<number, string> = { 0: "Left", 1: "Right", 2: "Down" };
const REVERSE_LOOKUP: Record<string, number> = { left: 0, right: 1, down: 2 };
const ACTION_TAG_PATTERN = "<action>\\s*(left|right|down|[0-2])\\s*</action>";

const Session = z.object({
  game: Game,
  observation: z.string(),
  total_reward: z.number(),
  done: z.boolean(),
  last_info: z.record(z.string(), z.unknown()),
});

/** NeMo Gym's _format_observation. */
function formatObservation(observation: string): string {
  return `Tetris board:\n${observation}\n\nLegend: _=empty, #=settled block, X=falling piece.\nRespond with one or more moves using <action>Left</action>, <action>Right</action>, or <action>Down</action>. Multiple action tags in one turn are applied in order.`;
}

/** NeMo Gym's _parse_actions: every tag in order; a label is matched by its lower-cased text, a digit by int(). */
export function parseActions(text: string): number[] {
  const ids: number[] = [];
  for (const found of pythonFindall(ACTION_TAG_PATTERN, text, true)) {
    const token = pyLower(pyStrip(found as string));
    const id = pyIsDigit(token) ? Number.parseInt(token, 10) : (REVERSE_LOOKUP[token] ?? -1);
    if (id in ACTION_LOOKUP) ids.push(id);
  }
  return ids;
}

export default defineGymnasiumEnvironment({
  name: "grl_tetris",
  description:
    "Tetris on a small board (4x4 by default): move the falling piece with <action>Left|Right|Down</action>; -0.1 a move, +10 a cleared line, which ends the episode.",
  task: z.object({
    // The row's metadata NeMo Gym reads (dim_board in its example rows is not among them: every example board is 4x4).
    // np.random.seed accepts 0..2**32-1 only (NeMo Gym fails with a ValueError outside it).
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .nullish(),
    dim_x: z.number().int().min(1).max(64).default(4),
    dim_y: z.number().int().min(1).max(64).default(4),
    box_type: z.number().int().default(3),
    // edgegym's addition: the shape counts TetrisEnv's constructor leaves behind (drawn unseeded in NeMo Gym, and here
    // when absent); with them a seed gives NeMo Gym's board exactly.
    shape_counts: z.array(z.number().int().min(0)).optional(),
  }),
  state: Session,
  async reset(row, ctx) {
    // NeMo Gym leaves what is unseeded to the process's random state; here fresh seeds are drawn.
    const unseeded = () => crypto.getRandomValues(new Uint32Array(1))[0]!;
    let game: Game;
    try {
      const counts = row.shape_counts ?? constructorShapeCounts(row.dim_x, row.dim_y, row.box_type, new PyRandom(unseeded()));
      game = newGame(row.dim_x, row.dim_y, row.box_type, row.seed ?? unseeded(), counts);
    } catch (error) {
      if (error instanceof RangeError) throw new EdgegymError(400, "bad_board", `grl_tetris: dim_x ${row.dim_x}, box_type ${row.box_type}: ${error.message}`);
      throw error;
    }
    const observation = render(game);
    await ctx.state.set({ game, observation, total_reward: 0, done: false, last_info: {} });
    return { observation: formatObservation(observation), info: {} };
  },
  async step(action, _row, ctx) {
    const session = await ctx.state.get();
    if (!session) throw new EdgegymError(400, "no_session", "Session not initialized. Call /reset first.");
    const ids = parseActions(extractText(action));
    if (ids.length === 0) throw new EdgegymError(400, "no_actions", "No <action>Left|Right|Down</action> tags found in response.");
    let stepReward = 0.0;
    const applied: Record<string, unknown>[] = [];
    for (const id of ids) {
      const { state, reward, done, info } = step(session.game, id);
      stepReward += reward;
      session.total_reward += reward;
      session.observation = state;
      session.last_info = { ...info };
      applied.push({ action_id: id, action_label: ACTION_LOOKUP[id], reward, info });
      if (done) {
        session.done = true;
        break;
      }
    }
    await ctx.state.set(session);
    const info = { ...session.last_info, total_reward: session.total_reward, num_actions_applied: applied.length, actions: applied };
    const observation = session.done ? session.observation : formatObservation(session.observation);
    return { observation, reward: stepReward, terminated: session.done, truncated: false, info };
  },
  // NeMo Gym's grl_tetris_gymnasium_agent config.
  maxSteps: 20,
});
