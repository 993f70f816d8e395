// Admission control: at most MAX_IN_FLIGHT /run calls (and job uploads) at once for the whole deployment, counted by one
// Durable Object; a call beyond it is refused at once (503 with Retry-After), never queued or left hanging.
import { DurableObject } from "cloudflare:workers";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import type { AdmissionRpc } from "../../contracts/rpc.js";

/**
 * Every slot is a lease row in SQLite, so the count survives the object's eviction; a lease whose holder never gave it
 * back (its isolate died mid-call) is taken back once it expires, and only when the slots run out.
 */
export class Admission extends DurableObject<GatewayEnv> implements AdmissionRpc {
  private inFlight = 0;

  constructor(ctx: DurableObjectState, env: GatewayEnv) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, expires INTEGER NOT NULL)");
      ctx.storage.sql.exec("CREATE INDEX IF NOT EXISTS leases_expires ON leases (expires)");
      this.inFlight = ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM leases").one().n;
    });
  }

  async acquire(limit: number, leaseSeconds: number): Promise<{ ok: true; lease: string } | { ok: false; inFlight: number }> {
    const now = Date.now();
    if (this.inFlight >= limit) this.inFlight -= this.#deleted("DELETE FROM leases WHERE expires < ? RETURNING id", now);
    if (this.inFlight >= limit) return { ok: false, inFlight: this.inFlight };
    const lease = crypto.randomUUID();
    this.ctx.storage.sql.exec("INSERT INTO leases (id, expires) VALUES (?, ?)", lease, now + leaseSeconds * 1000);
    this.inFlight++;
    return { ok: true, lease };
  }

  async release(lease: string): Promise<void> {
    this.inFlight -= this.#deleted("DELETE FROM leases WHERE id = ? RETURNING id", lease);
  }

  /** Rows a DELETE took away (counted by RETURNING: rowsWritten would count index entries too). */
  #deleted(query: string, binding: string | number): number {
    return this.ctx.storage.sql.exec(query, binding).toArray().length;
  }
}
