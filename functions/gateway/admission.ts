// Admission control: at most MAX_IN_FLIGHT /run calls (and job uploads) at once for the whole deployment, counted by one
// Durable Object; a call beyond it is refused at once (503 with Retry-After), never queued or left hanging.
import { DurableObject } from "cloudflare:workers";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import type { AdmissionRpc } from "../../contracts/rpc.js";

/** The longest Retry-After a refused caller is told, in seconds. */
const MAX_RETRY_AFTER = 60;

/**
 * Every slot is a lease row in SQLite, so the count survives the object's eviction; a lease whose holder never gave it
 * back (its isolate died mid-call) is taken back once it expires, looked for at most once a second while slots run out.
 *
 * Retry-After spreads the refused callers over the time the deployment needs to serve them: with W callers refused
 * lately, L slots and calls holding a slot D seconds on average, a refusal is told a random wait in [min, min + W/L·D],
 * so they come back about as fast as slots free up rather than all at once.
 */
export class Admission extends DurableObject<GatewayEnv> implements AdmissionRpc {
  private inFlight = 0;
  private lastReclaim = 0;
  /** When each lease of this object's lifetime began (for the mean hold time; lost on eviction, which only resets it). */
  private readonly began = new Map<string, number>();
  private meanHoldMs: number | undefined;
  /** Times of recent refusals: about how many callers are waiting for a slot. */
  private refusals: number[] = [];

  constructor(ctx: DurableObjectState, env: GatewayEnv) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, expires INTEGER NOT NULL)");
      ctx.storage.sql.exec("CREATE INDEX IF NOT EXISTS leases_expires ON leases (expires)");
      this.inFlight = ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM leases").one().n;
    });
  }

  async acquire(
    limit: number,
    leaseSeconds: number,
    minRetryAfterSeconds: number,
  ): Promise<{ ok: true; lease: string } | { ok: false; inFlight: number; retryAfterSeconds: number }> {
    const now = Date.now();
    if (this.inFlight >= limit && now - this.lastReclaim >= 1000) {
      this.lastReclaim = now;
      this.inFlight -= this.#deleted("DELETE FROM leases WHERE expires < ? RETURNING id", now);
    }
    if (this.inFlight >= limit) return { ok: false, inFlight: this.inFlight, retryAfterSeconds: this.#retryAfter(limit, minRetryAfterSeconds, now) };
    const lease = crypto.randomUUID();
    this.ctx.storage.sql.exec("INSERT INTO leases (id, expires) VALUES (?, ?)", lease, now + leaseSeconds * 1000);
    this.inFlight++;
    this.began.set(lease, now);
    return { ok: true, lease };
  }

  async release(lease: string): Promise<void> {
    this.inFlight -= this.#deleted("DELETE FROM leases WHERE id = ? RETURNING id", lease);
    const began = this.began.get(lease);
    if (began === undefined) return;
    this.began.delete(lease);
    const held = Date.now() - began;
    this.meanHoldMs = this.meanHoldMs === undefined ? held : 0.9 * this.meanHoldMs + 0.1 * held;
  }

  #retryAfter(limit: number, minimum: number, now: number): number {
    const hold = this.meanHoldMs ?? 0;
    const since = now - Math.max(1000, hold);
    let first = 0;
    while (first < this.refusals.length && this.refusals[first]! < since) first++;
    this.refusals = this.refusals.slice(first);
    this.refusals.push(now);
    const spreadSeconds = ((this.refusals.length / limit) * hold) / 1000;
    return Math.min(MAX_RETRY_AFTER, Math.max(minimum, Math.ceil(minimum + Math.random() * spreadSeconds)));
  }

  /** Rows a DELETE took away (counted by RETURNING: rowsWritten would count index entries too). */
  #deleted(query: string, binding: string | number): number {
    return this.ctx.storage.sql.exec(query, binding).toArray().length;
  }
}
