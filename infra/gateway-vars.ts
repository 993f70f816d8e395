// The gateway's limits from the environment, at deploy time (`sst deploy`) and for a local run: EDGEGYM_<VARIABLE>.
import { GatewayVars } from "../contracts/config.js";

/** Everything but what the topology sets (ENVIRONMENTS) and the secret (API_TOKENS). */
const SETTABLE = Object.keys(GatewayVars.shape).filter((name) => name !== "ENVIRONMENTS" && name !== "API_TOKENS");

/** e.g. EDGEGYM_MAX_IN_FLIGHT=2000 → { MAX_IN_FLIGHT: "2000" }; checked like every variable when the Worker starts. */
export function gatewayVarsFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(SETTABLE.flatMap((name) => (env[`EDGEGYM_${name}`] ? [[name, env[`EDGEGYM_${name}`]!]] : [])));
}
