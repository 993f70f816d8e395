// Runs one operation of a session: in the session's Durable Object when the environment keeps state, else right here.
// A session is opened with an id minted here (seed, reset); every later call must carry that id, for the same owner.
import { type Outcome, type SessionOperation, type SessionOutcome, type SessionOwner, withinMs } from "../../contracts/rpc.js";
import type { EnvironmentBindings } from "./bindings.js";
import { environmentConfig } from "./config.js";
import { toolContext } from "./context.js";
import { performAny } from "./gymnasium-perform.js";
import { environmentLog, logOutcome } from "./log.js";
import { noState } from "./perform.js";
import { plainData } from "./plain.js";
import { EXPIRED_SESSION, OPERATION_TIMEOUT_MS, UNKNOWN_SESSION } from "./refusals.js";
import { checkSessionId, checkSessionIdOnce, mintSessionId } from "./session-id.js";
import type { Environment } from "./types.js";

/** What one call of a session needs besides its session id. */
export interface SessionCall {
  environment: Environment;
  env: EnvironmentBindings;
  operation: SessionOperation;
  body: unknown;
  owner: SessionOwner;
  /** false for an outside caller, whose body is checked whole. */
  trusted: boolean;
  signal?: AbortSignal;
}

function run(call: SessionCall, sessionId: string, opens: boolean): Promise<Outcome> {
  const { environment, env, operation, body, trusted, signal } = call;
  if (environment.stateful) {
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));
    // The session object bounds its own work; this bounds the wait for it (a little longer, so its answer wins).
    return withinMs(stub.perform(operation, body, sessionId, trusted, opens), OPERATION_TIMEOUT_MS + 5_000, `${environment.name}'s session`);
  }
  // The operation's signal is made only if a tool, verifier or judge reads it: most never do, and two timers' worth of
  // signals per operation showed in the CPU of every rollout.
  let bounded: AbortSignal | undefined;
  const bound = () => (bounded ??= signal ? AbortSignal.any([signal, AbortSignal.timeout(OPERATION_TIMEOUT_MS)]) : AbortSignal.timeout(OPERATION_TIMEOUT_MS));
  const started = Date.now();
  const context = toolContext({ sessionId, state: noState, signal: bound, models: { judge: env.JUDGE }, secrets: env });
  return performAny(environment, operation, body, context, trusted).then((outcome) =>
    logOutcome(() => environmentLog(env, environment.name), operation, { ...outcome, body: plainData(outcome.body) }, started),
  );
}

/** Opens a session (seed, reset, or a first call that carried no id): a new id, signed for the caller. */
export async function openSession(call: SessionCall): Promise<SessionOutcome> {
  const sessionId = await mintSessionId(environmentConfig(call.env).SESSION_SECRET, call.environment.name, call.owner);
  return { sessionId, ...(await run(call, sessionId, true)) };
}

/** A later call of a session: refused unless the id was minted by this environment for this owner, and still alive. */
export async function continueSession(call: SessionCall, sessionId: string): Promise<Outcome> {
  const config = environmentConfig(call.env);
  // Our own Workers' calls (the agent's tool calls: the same id each turn) are MAC-checked once; an outside caller's always.
  const check = await (call.trusted ? checkSessionIdOnce : checkSessionId)(config.SESSION_SECRET, call.environment.name, sessionId, call.owner);
  if (!check.ok) return UNKNOWN_SESSION;
  // A stateless session keeps nothing to expire by use: it lives SESSION_TTL_SECONDS from its opening. A stateful one
  // lives that long after its last call: its Durable Object deletes the state then and refuses what comes after.
  if (!call.environment.stateful && Date.now() - check.openedAt > config.SESSION_TTL_SECONDS * 1000) return EXPIRED_SESSION;
  return run(call, sessionId, false);
}
