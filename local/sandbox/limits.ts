// The local service's limits are every provider's (environments/sdk/sandbox/limits.ts): re-exported for local/sandbox's files.
export { aboveCeiling, CEILINGS, DEFAULT_LIMITS, effectiveLimits, type Limits } from "../../environments/sdk/sandbox/limits.js";
