// The gateway's limits from the environment, at deploy time (`sst deploy`) and for a local run: EDGEGYM_<VARIABLE>.
import { GatewayVars } from "../contracts/config.js";

/** Everything but what the topology sets (ENVIRONMENTS) and the secrets (API_TOKENS, TENANT_QUOTAS). */
const SETTABLE = Object.keys(GatewayVars.shape).filter((name) => !["ENVIRONMENTS", "API_TOKENS", "TENANT_QUOTAS"].includes(name));

/** e.g. EDGEGYM_MAX_IN_FLIGHT=2000 → { MAX_IN_FLIGHT: "2000" }; checked like every variable when the Worker starts. */
export function gatewayVarsFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(SETTABLE.flatMap((name) => (env[`EDGEGYM_${name}`] ? [[name, env[`EDGEGYM_${name}`]!]] : [])));
}
