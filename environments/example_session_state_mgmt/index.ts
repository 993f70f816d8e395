// Port of NeMo Gym's example_session_state_mgmt: a counter kept per session (in the session's Durable Object).
import { defineEnvironment, z } from "../sdk/index.js";

export default defineEnvironment({
  name: "example_session_state_mgmt",
  description: "A counter per session: seeded with initial_count, incremented by tool calls, checked against expected_count.",
  state: z.object({ count: z.number().int() }),
  task: z.object({ initial_count: z.number().int().optional(), expected_count: z.number().int().optional() }),
  tools: {
    increment_counter: {
      description: "",
      parameters: z.object({ count: z.number().int() }),
      execute: async ({ count }, { state }) => {
        const current = (await state.get())?.count ?? 0;
        await state.set({ count: current + count });
        return { success: true };
      },
    },
    get_counter_value: {
      description: "",
      parameters: z.object({}),
      execute: async (_args, { state }) => {
        const current = await state.get();
        // NeMo Gym's setdefault: reading an unknown session creates it at 0.
        if (!current) await state.set({ count: 0 });
        return { count: current?.count ?? 0 };
      },
    },
  },
  seedSession: async (row, { state }) => {
    // NeMo Gym's setdefault: seeding twice keeps the first count.
    if ((await state.get()) === undefined) await state.set({ count: row.initial_count ?? 0 });
    return {};
  },
  verify: async (request, { state }) => {
    const current = await state.get();
    if (current === undefined || request.expected_count === undefined) return { reward: 0.0 };
    return { reward: current.count === request.expected_count ? 1.0 : 0.0 };
  },
});
