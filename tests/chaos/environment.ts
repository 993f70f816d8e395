// The chaos suite's environment (not bundled, not discovered): its seed, tool and verifier fail or hang at random, at the
// rates each row asks for in its `chaos` task field. Built into the emulation by startLocal's extraEnvironments.
import { defineEnvironment, JudgeError, z } from "../../environments/sdk/index.js";
import * as sdk from "../../environments/sdk/worker.js";
import { ENTRYPOINTS, SESSION_CLASS } from "../../contracts/names.js";

import { CHAOS_ENVIRONMENT } from "./name.js";

const Rates = z
  .object({
    /** Share of seed_session calls that throw (the rollout fails as tool_error, and is retried). */
    seed_error: z.number(),
    /** Share of verify calls that throw (verify_error, retried). */
    verify_error: z.number(),
    /** Share of verify calls whose judge fails (NeMo Gym's judge_failed: a failure record, not retried). */
    judge_error: z.number(),
  })
  .partial();

function roll(rate: number | undefined): boolean {
  return rate !== undefined && rate > 0 && Math.random() < rate;
}

function hang(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

// Stateless on purpose: ten thousand rollouts would open ten thousand session Durable Objects. A tool call does not see
// the row, so the tool's own rates come in its arguments (the row's tool schema gives them as defaults the model fills in).
const environment = defineEnvironment({
  name: CHAOS_ENVIRONMENT,
  description: "A tool that throws or hangs at random, a seed and a verifier that fail at random: for the chaos suite.",
  task: z.object({ chaos: Rates.optional() }),
  tools: {
    work: {
      description: "Does some work on a number.",
      parameters: z.object({
        n: z.number(),
        /** Share of calls that throw (the model sees the error as the tool's output, as in NeMo Gym). */
        tool_error: z.number().optional(),
        /** Share of calls that hang for hang_ms (past the agent's tool timeout: tool_timeout, retried). */
        tool_hang: z.number().optional(),
        hang_ms: z.number().optional(),
      }),
      execute: async ({ n, tool_error, tool_hang, hang_ms }, { signal }) => {
        if (roll(tool_hang)) await hang(hang_ms ?? 60_000, signal);
        if (roll(tool_error)) throw new Error("chaos: the tool failed");
        return { done: n };
      },
    },
  },
  seedSession: (row) => {
    if (roll(row.chaos?.seed_error)) throw new Error("chaos: seeding failed");
    return {};
  },
  verify: (request) => {
    const rates = request.chaos ?? {};
    if (roll(rates.verify_error)) throw new Error("chaos: verify failed");
    if (roll(rates.judge_error)) throw new JudgeError("chaos: the judge is down");
    return { reward: 1 };
  },
});

export default sdk.environmentHandler(environment);
export class EnvironmentEntrypoint extends sdk.EnvironmentEntrypoint {
  protected readonly environment = environment;
}
export class EnvironmentSession extends sdk.EnvironmentSession {
  protected readonly environment = environment;
}
// The names the topology binds must be these (a check at import: a rename fails here, not at start-up).
if (SESSION_CLASS !== "EnvironmentSession" || ENTRYPOINTS.environment !== "EnvironmentEntrypoint") throw new Error("chaos environment: export names changed");
