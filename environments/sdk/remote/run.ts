// A remote session's calls from the Worker: edgegym's signed session id checked (environments/sdk/session-id.ts, as for a
// native environment), then the call made in that session's Durable Object, which holds the server's cookie.
import type { RemoteEnvironmentConfig } from "../../../contracts/remote.js";
import { type Outcome, type SessionOperation, type SessionOutcome, type SessionOwner, withinMs } from "../../../contracts/rpc.js";
import type { EnvironmentEnv } from "../../../contracts/env.generated.js";
import { environmentConfig } from "../config.js";
import { UNKNOWN_SESSION } from "../refusals.js";
import { checkSessionId, mintSessionId } from "../session-id.js";

function perform(
  config: RemoteEnvironmentConfig,
  env: EnvironmentEnv,
  operation: SessionOperation,
  body: unknown,
  sessionId: string,
  trusted: boolean,
  opens: boolean,
) {
  const stub = env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));
  // The object bounds its own calls (callMs, connectMs); this bounds the wait for it, a little longer so its answer wins.
  const wait = config.timeouts.callMs + config.timeouts.connectMs + 5_000;
  return withinMs(stub.perform(operation, body, sessionId, trusted, opens), wait, `${config.name}'s session`);
}

/** Opens a session: a new id signed for `owner`, the seed made in its object (which keeps the member and the cookie). */
export async function openRemote(
  config: RemoteEnvironmentConfig,
  env: EnvironmentEnv,
  body: unknown,
  owner: SessionOwner,
  trusted: boolean,
): Promise<SessionOutcome> {
  const sessionId = await mintSessionId(environmentConfig(env).SESSION_SECRET, config.name, owner);
  return { sessionId, ...(await perform(config, env, { kind: "seed_session" }, body, sessionId, trusted, true)) };
}

/** A later call: refused unless the id was minted by this environment for this owner. */
export async function continueRemote(
  config: RemoteEnvironmentConfig,
  env: EnvironmentEnv,
  operation: SessionOperation,
  body: unknown,
  sessionId: string,
  owner: SessionOwner,
  trusted: boolean,
): Promise<Outcome> {
  const check = await checkSessionId(environmentConfig(env).SESSION_SECRET, config.name, sessionId, owner);
  if (!check.ok) return UNKNOWN_SESSION;
  return perform(config, env, operation, body, sessionId, trusted, false);
}
