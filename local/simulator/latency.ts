// Simulated model latency: fixed, uniform or long-tailed, reproducible from a seed, cancellable on close.

/**
 * Milliseconds to wait before each answer: a fixed number, uniform in [min, max], or log-normal with the given median
 * and 99th percentile (the long tail real model servers have).
 */
export type LatencySpec = number | { min: number; max: number } | { median: number; p99: number };

/** mulberry32: a tiny seeded PRNG, so a seed gives the same latencies on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** z of the standard normal's 99th percentile. */
const Z99 = 2.326348;

export function latencySampler(spec: LatencySpec, seed: number): () => number {
  if (typeof spec === "number") return () => Math.max(0, spec);
  if ("median" in spec) {
    const median = Math.max(0, spec.median);
    const sigma = median > 0 && spec.p99 > median ? Math.log(spec.p99 / median) / Z99 : 0;
    const random = seededRandom(seed);
    // Box-Muller: two uniforms give one standard normal draw.
    return () => median * Math.exp(sigma * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
  }
  const low = Math.max(0, Math.min(spec.min, spec.max));
  const high = Math.max(0, spec.min, spec.max);
  const random = seededRandom(seed);
  return () => low + (high - low) * random();
}

/** Resolves after `ms`, or early when the signal aborts (so closing never waits on timers). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
