// Per-token rate limits: a token bucket per token name in a Durable Object of its own, so the limit holds across every
// isolate and location of the deployment (and locally, where one workerd runs them all), at one small call per request.
import { DurableObject } from "cloudflare:workers";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import type { RateLimiterRpc } from "../../contracts/rpc.js";

export class TokenRateLimiter extends DurableObject<GatewayEnv> implements RateLimiterRpc {
  // Kept in memory: an object is evicted only after a quiet spell long enough to refill its bucket anyway.
  private tokens: number | undefined;
  private updated = 0;

  /** The bucket now: what it held, refilled for the time since. */
  private level(ratePerSecond: number, burst: number, now: number): number {
    return Math.min(burst, (this.tokens ?? burst) + ((now - this.updated) / 1000) * ratePerSecond);
  }

  async wait(ratePerSecond: number, burst: number): Promise<number> {
    const tokens = this.level(ratePerSecond, burst, Date.now());
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / ratePerSecond));
  }

  async take(ratePerSecond: number, burst: number): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
    const now = Date.now();
    const tokens = this.level(ratePerSecond, burst, now);
    this.updated = now;
    if (tokens >= 1) {
      this.tokens = tokens - 1;
      return { ok: true };
    }
    this.tokens = tokens;
    // Retry-After is whole seconds: the time until one token has dripped back in, rounded up.
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / ratePerSecond)) };
  }
}
