// Which loop an environment needs: its describe() says `kind: "gymnasium"` (reset/step) or `"simple"` (NeMo Gym's simple agent).
import type { EnvironmentDescription, EnvironmentRpc } from "../../contracts/rpc.js";
import { environmentCall, type RolloutLimits } from "./calls.js";

// An environment's description only changes when it is redeployed; a few minutes of caching per isolate is plenty.
// Only answers are cached, never a request in flight: a Worker must not await I/O another request started.
const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 128;
const cache = new Map<string, { value: EnvironmentDescription; expires: number }>();

/** The environment's description, asked once per isolate and kept a few minutes; a failed lookup is not kept. */
export async function environmentKind(name: string, environment: EnvironmentRpc, limits: RolloutLimits): Promise<EnvironmentDescription> {
  const hit = cache.get(name);
  if (hit && hit.expires > Date.now()) return hit.value;
  const value = await environmentCall(() => environment.describe(), `${name}'s describe()`, limits, "environment_error");
  cache.delete(name);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(name, { value, expires: Date.now() + TTL_MS });
  return value;
}

/** For tests: forget what was learnt. */
export function clearEnvironmentKinds(): void {
  cache.clear();
}
