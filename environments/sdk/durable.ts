// One Durable Object per session: it runs the stateful environment's operations next to the session's state.
import { DurableObject } from "cloudflare:workers";
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import type { Outcome, SessionOperation, SessionRpc } from "../../contracts/rpc.js";
import { performAny } from "./gymnasium-perform.js";
import { judgeThrough } from "./judge.js";
import { environmentConfig } from "./config.js";
import { environmentLog, logOutcome } from "./log.js";
import { EXPIRED_SESSION, OPERATION_TIMEOUT_MS } from "./run.js";
import type { Environment, SessionState } from "./types.js";

const STATE_KEY = "state";
/** Written when the session opens; gone once the alarm has deleted everything, so a late call is told so, not run afresh. */
const OPENED_KEY = "opened";

export function sessionObjectFor(environment: Environment) {
  return class EnvironmentSession extends DurableObject<EnvironmentEnv> implements SessionRpc {
    private readonly state: SessionState<unknown> = {
      get: () => this.ctx.storage.get(STATE_KEY),
      set: (value) => this.ctx.storage.put(STATE_KEY, value),
      clear: async () => {
        await this.ctx.storage.delete(STATE_KEY);
      },
    };

    /** Operations of one session run one at a time here, so tool calls see each other's writes in order. */
    async perform(operation: SessionOperation, body: unknown, sessionId: string, trusted: boolean, opens = false): Promise<Outcome> {
      if (!opens && (await this.ctx.storage.get(OPENED_KEY)) === undefined) return EXPIRED_SESSION;
      const signal = AbortSignal.timeout(OPERATION_TIMEOUT_MS);
      const started = Date.now();
      const outcome = await performAny(
        environment,
        operation,
        body,
        { sessionId, state: this.state, signal, judge: judgeThrough(this.env.JUDGE, signal), sql: this.ctx.storage.sql },
        trusted,
      );
      // Marked after the operation, not before: a write opens SQLite's implicit transaction, inside which an
      // environment's own PRAGMAs (text_to_sql turns foreign keys off) would do nothing.
      if (opens) await this.ctx.storage.put(OPENED_KEY, Date.now());
      // An abandoned session cleans itself up; every operation pushes the deadline out again.
      await this.ctx.storage.setAlarm(Date.now() + environmentConfig(this.env).SESSION_TTL_SECONDS * 1000);
      return logOutcome(environmentLog(this.env, environment.name), operation, outcome, started);
    }

    override async alarm(): Promise<void> {
      await this.ctx.storage.deleteAll();
    }
  };
}
