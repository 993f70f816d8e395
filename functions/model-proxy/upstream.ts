// The pool of vLLM upstreams: session affinity (so vLLM's prefix cache is reused) and skipping upstreams that keep failing.

/** Consecutive connection-level failures after which an upstream is skipped for a while. */
export const FAILURES_BEFORE_UNHEALTHY = 2;

interface Health {
  failures: number;
  unhealthyUntil: number;
}

// Per isolate: every request this isolate serves shares what it learned about the upstreams.
const health = new Map<string, Health>();
let roundRobin = 0;

/**
 * The upstream a session belongs to: the first 8 bytes of SHA-256(session id), big-endian, modulo the pool size —
 * the same assignment NeMo Gym's vllm_model makes, so a session's turns hit one server and its prefix cache.
 */
export async function affinityIndex(sessionId: string, size: number): Promise<number> {
  if (size <= 1) return 0;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sessionId));
  return Number(new DataView(digest).getBigUint64(0, false) % BigInt(size));
}

/** The pool in the order a request tries it: its own upstream first, then the next ones around the ring. */
export async function candidates(upstreams: readonly string[], sessionId: string | undefined): Promise<string[]> {
  const start = sessionId ? await affinityIndex(sessionId, upstreams.length) : roundRobin++ % upstreams.length;
  return upstreams.map((_, i) => upstreams[(start + i) % upstreams.length]!);
}

export function isHealthy(url: string, now = Date.now()): boolean {
  const state = health.get(url);
  return !state || state.unhealthyUntil <= now;
}

/**
 * The upstream for an attempt: the first healthy candidate not already failed at connection level in this request;
 * when none is left, the candidates in turn (a pool that looks all down is still tried, never refused).
 */
export function pick(order: readonly string[], skip: ReadonlySet<string>, attempt: number, tracked = true): string {
  const now = Date.now();
  return order.find((url) => !skip.has(url) && (!tracked || isHealthy(url, now))) ?? order[(attempt - 1) % order.length]!;
}

export function recordSuccess(url: string): void {
  health.delete(url);
}

/** A connection-level failure (unreachable, dropped, timed out, 502/503/504); enough in a row marks the upstream unhealthy. */
export function recordFailure(url: string, unhealthyMs: number): void {
  const state = health.get(url) ?? { failures: 0, unhealthyUntil: 0 };
  state.failures += 1;
  if (state.failures >= FAILURES_BEFORE_UNHEALTHY) state.unhealthyUntil = Date.now() + unhealthyMs;
  health.set(url, state);
}

/** For tests and health reports: what this isolate currently thinks of each upstream. */
export function poolHealth(upstreams: readonly string[]): { url: string; healthy: boolean; failures: number }[] {
  return upstreams.map((url) => ({ url, healthy: isHealthy(url), failures: health.get(url)?.failures ?? 0 }));
}
