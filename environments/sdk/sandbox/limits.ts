// The limits a sandbox run gets, for every provider: the deployment's ceilings, the spec's defaults, a run's own (which may only lower them).
import type { RunLimits } from "../../../contracts/sandbox.js";

export type Limits = Required<RunLimits>;

/** What a run gets when nobody says otherwise. */
export const DEFAULT_LIMITS: Limits = {
  cpuSeconds: 10,
  wallMs: 20_000,
  memoryMib: 1024,
  processes: 64,
  outputBytes: 1 << 20,
  diskBytes: 64 << 20,
};

/** The most any run may ask for on this machine; above it is refused (`sandbox_refused`), not silently lowered. */
export const CEILINGS: Limits = {
  cpuSeconds: 120,
  wallMs: 300_000,
  memoryMib: 8192,
  processes: 256,
  outputBytes: 16 << 20,
  diskBytes: 1 << 30,
};

/** The first limit above the ceiling, for the refusal, or undefined. */
export function aboveCeiling(limits: RunLimits | undefined): keyof RunLimits | undefined {
  if (!limits) return undefined;
  for (const key of Object.keys(CEILINGS) as (keyof Limits)[]) {
    const value = limits[key];
    if (value !== undefined && value > CEILINGS[key]) return key;
  }
  return undefined;
}

/** Each limit the lowest of the layers that set it. */
export function effectiveLimits(...layers: (RunLimits | undefined)[]): Limits {
  const result = { ...DEFAULT_LIMITS };
  for (const [index, layer] of layers.entries()) {
    if (!layer) continue;
    for (const key of Object.keys(result) as (keyof Limits)[]) {
      const value = layer[key];
      if (value === undefined) continue;
      // The spec's layer (first) replaces the defaults; later layers may only lower.
      result[key] = index === 0 ? value : Math.min(result[key], value);
    }
  }
  return result;
}
