// Runs one operation of a session: in the session's Durable Object when the environment keeps state, else right here.
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import type { Outcome, SessionOperation } from "../../contracts/rpc.js";
import { performAny } from "./gymnasium-perform.js";
import { judgeThrough } from "./judge.js";
import { noState } from "./perform.js";
import type { Environment } from "./types.js";

/** A bound on one operation's own work (a tool, a verifier, a judge call inside it). */
export const OPERATION_TIMEOUT_MS = 60_000;

export function runOperation(
  environment: Environment,
  env: EnvironmentEnv,
  operation: SessionOperation,
  body: unknown,
  sessionId: string,
  trusted: boolean,
  signal?: AbortSignal,
): Promise<Outcome> {
  if (environment.stateful) {
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));
    return stub.perform(operation, body, sessionId, trusted);
  }
  // The operation's signal is made only if a tool, verifier or judge reads it: most never do, and two timers' worth of
  // signals per operation showed in the CPU of every rollout.
  let bounded: AbortSignal | undefined;
  const bound = () => (bounded ??= signal ? AbortSignal.any([signal, AbortSignal.timeout(OPERATION_TIMEOUT_MS)]) : AbortSignal.timeout(OPERATION_TIMEOUT_MS));
  const context = {
    sessionId,
    state: noState,
    get signal() {
      return bound();
    },
    judge: judgeThrough(env.JUDGE, bound),
  };
  return performAny(environment, operation, body, context, trusted);
}
