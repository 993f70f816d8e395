// One admitted call: a slot of the tenant's in_flight quota (when it has one), then one of the deployment's MAX_IN_FLIGHT.
// A /run or an upload takes it in the guards; a batched /run takes one per row (run-batch.ts).
import type { Context } from "hono";
import { EdgegymError } from "../../protocol/index.js";
import type { GatewayContext } from "./caller.js";
import { gatewayPorts } from "./ports.js";
import { quotaExceeded, quotaFor } from "./quotas.js";

export type Admitted =
  | { ok: true; release(): void }
  /** 429 quota_exceeded (the tenant's in_flight) or 503 over_capacity (the deployment's), with Retry-After. */
  | { ok: false; error: EdgegymError; retryAfterSeconds: number };

/** A slot goes back off the answer's path: in waitUntil where there is an execution context. */
function later(c: Context, work: Promise<unknown>): void {
  const settled = work.catch(() => undefined);
  try {
    c.executionCtx.waitUntil(settled);
  } catch {
    // No execution context (a test calling the app directly): the promise runs on its own.
  }
}

export async function admitOne(c: Context<GatewayContext>): Promise<Admitted> {
  const config = gatewayPorts(c.env).config;
  const { caller, quota } = quotaFor(c);
  let releaseTenant = () => {};
  if (quota.in_flight !== undefined) {
    const counter = c.env.ADMISSION.getByName(`tenant:${caller.name}`);
    const slot = await counter.acquire(quota.in_flight, config.ADMISSION_LEASE_SECONDS, config.ADMISSION_RETRY_AFTER_SECONDS);
    if (!slot.ok)
      return { ok: false, error: quotaExceeded(caller.name, "in_flight", quota.in_flight, slot.inFlight + 1), retryAfterSeconds: slot.retryAfterSeconds };
    releaseTenant = () => later(c, counter.release(slot.lease));
  }
  const counter = c.env.ADMISSION.getByName("deployment");
  const slot = await counter.acquire(config.MAX_IN_FLIGHT, config.ADMISSION_LEASE_SECONDS, config.ADMISSION_RETRY_AFTER_SECONDS);
  if (!slot.ok) {
    releaseTenant();
    const message = `${slot.inFlight} calls are in flight, this deployment's limit (MAX_IN_FLIGHT ${config.MAX_IN_FLIGHT}); retry after ${slot.retryAfterSeconds} s`;
    return { ok: false, error: new EdgegymError(503, "over_capacity", message), retryAfterSeconds: slot.retryAfterSeconds };
  }
  return {
    ok: true,
    release: () => {
      later(c, counter.release(slot.lease));
      releaseTenant();
    },
  };
}
