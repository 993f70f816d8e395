// One Durable Object per session: it runs the stateful environment's operations next to the session's state.
import { DurableObject } from "cloudflare:workers";
import type { EnvironmentEnv } from "../../functions/bindings.js";
import type { Environment, SessionState } from "./define.js";
import { performAny, type AnyOperation } from "./gymnasium-perform.js";
import { judgeThrough } from "./judge.js";
import type { Outcome } from "./perform.js";

const STATE_KEY = "state";
const DEFAULT_TTL_SECONDS = 3600;
const OPERATION_TIMEOUT_MS = 60_000;

export function sessionObjectFor(environment: Environment) {
  return class EnvironmentSession extends DurableObject<EnvironmentEnv> {
    private readonly state: SessionState<unknown> = {
      get: () => this.ctx.storage.get(STATE_KEY),
      set: (value) => this.ctx.storage.put(STATE_KEY, value),
      clear: async () => {
        await this.ctx.storage.delete(STATE_KEY);
      },
    };

    /** Operations of one session run one at a time here, so tool calls see each other's writes in order. */
    async perform(operation: AnyOperation, body: unknown, sessionId: string): Promise<Outcome> {
      const signal = AbortSignal.timeout(OPERATION_TIMEOUT_MS);
      const outcome = await performAny(environment, operation, body, {
        sessionId,
        state: this.state,
        signal,
        judge: judgeThrough(this.env.JUDGE, signal),
        sql: this.ctx.storage.sql,
      });
      // An abandoned session cleans itself up; every operation pushes the deadline out again.
      const ttl = Number(this.env.SESSION_TTL_SECONDS ?? DEFAULT_TTL_SECONDS);
      await this.ctx.storage.setAlarm(Date.now() + ttl * 1000);
      return outcome;
    }

    override async alarm(): Promise<void> {
      await this.ctx.storage.deleteAll();
    }
  };
}
