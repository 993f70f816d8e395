// A session's bound and refusals, shared by the session paths (run.ts), its Durable Object and the in-process runner.
import type { Outcome } from "../../contracts/rpc.js";
import { EdgegymError } from "../../protocol/index.js";

/** A bound on one operation's own work (a tool, a verifier, a judge call inside it). */
export const OPERATION_TIMEOUT_MS = 60_000;

/** A session-level refusal, as the operation's answer (an envelope, like every other error of a route). */
export function refusal(status: 404 | 410, code: string, message: string): Outcome {
  return { status, body: new EdgegymError(status, code, message).toEnvelope() };
}

/** The answer to an id that is not this owner's: forged, another rollout's or another token's look alike (404, as for no session). */
export const UNKNOWN_SESSION = refusal(404, "unknown_session", "no such session for this caller (a session id comes from /seed_session or /reset)");
/** The answer to a session whose time ran out: its state is gone and it is not opened again. */
export const EXPIRED_SESSION = refusal(410, "session_expired", "the session expired and its state was deleted; open a new one with /seed_session or /reset");
