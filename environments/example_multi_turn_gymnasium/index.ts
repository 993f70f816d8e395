// Port of NeMo Gym's example_multi_turn_gymnasium: scripted follow-up questions, then the final answer must contain expected_answer.
import { defineGymnasiumEnvironment, extractText, z } from "../sdk/index.js";

export default defineGymnasiumEnvironment({
  name: "example_multi_turn_gymnasium",
  description: "Replays the row's follow_ups one per model turn, then rewards 1 when the last answer contains expected_answer (case-insensitive).",
  task: z.object({
    follow_ups: z.array(z.string()).optional(),
    expected_answer: z.string().nullish(),
  }),
  state: z.object({ turn: z.number().int().nonnegative() }),
  async reset(_row, ctx) {
    await ctx.state.set({ turn: 0 });
  },
  async step(action, row, ctx) {
    const followUps = row.follow_ups ?? [];
    const turn = (await ctx.state.get())?.turn ?? 0;
    if (turn < followUps.length) {
      await ctx.state.set({ turn: turn + 1 });
      return { observation: followUps[turn], reward: 0, terminated: false, truncated: false };
    }
    const expected = row.expected_answer;
    // Python's `expected.lower() in text.lower()`: an empty or missing expected answer never matches.
    const reward = expected && extractText(action).toLowerCase().includes(expected.toLowerCase()) ? 1 : 0;
    return { reward, terminated: true, truncated: false };
  },
  // NeMo Gym's example_multi_turn_gymnasium_agent config.
  maxSteps: 5,
});
