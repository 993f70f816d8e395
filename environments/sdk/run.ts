// Runs one operation of a session: in the session's Durable Object when the environment keeps state, else right here.
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import { type Outcome, type SessionOperation, within } from "../../contracts/rpc.js";
import { performAny } from "./gymnasium-perform.js";
import { judgeThrough } from "./judge.js";
import { environmentLog, logOutcome } from "./log.js";
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
  const bounded = signal ? AbortSignal.any([signal, AbortSignal.timeout(OPERATION_TIMEOUT_MS)]) : AbortSignal.timeout(OPERATION_TIMEOUT_MS);
  if (environment.stateful) {
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));
    // The session object bounds its own work; this bounds the wait for it (a little longer, so its answer wins).
    return within(stub.perform(operation, body, sessionId, trusted), AbortSignal.timeout(OPERATION_TIMEOUT_MS + 5_000), `${environment.name}'s session`);
  }
  const started = Date.now();
  const context = { sessionId, state: noState, signal: bounded, judge: judgeThrough(env.JUDGE, bounded) };
  return performAny(environment, operation, body, context, trusted).then((outcome) =>
    logOutcome(environmentLog(env, environment.name), operation, outcome, started),
  );
}
