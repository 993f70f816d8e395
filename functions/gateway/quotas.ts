// Each tenant's quotas (TENANT_QUOTAS): unfinished jobs and their rollouts at create, stored upload bytes, calls in flight.
// Over one: 429 quota_exceeded naming the quota, its limit and the use now; nothing already accepted changes.
import type { Context } from "hono";
import type { JobConfig, JobInfo } from "../../contracts/jobs.js";
import { type Quota, type QuotaName, quotaOf } from "../../contracts/quotas.js";
import { allows } from "../../contracts/tokens.js";
import { openUse } from "../../ledger/index.js";
import { EdgegymError } from "../../protocol/index.js";
import { type Caller, callerOf, type GatewayContext } from "./caller.js";
import { gatewayPorts } from "./ports.js";

const WHAT: Record<QuotaName, string> = {
  jobs: "unfinished jobs",
  rollouts: "rollouts in unfinished jobs",
  bytes: "bytes of uploads",
  in_flight: "calls in flight",
};

export function quotaExceeded(tenant: string, quota: QuotaName, limit: number, used: number): EdgegymError {
  const message = `the tenant "${tenant}" is over its ${quota} quota: ${used} ${WHAT[quota]} with this request, at most ${limit} (TENANT_QUOTAS)`;
  return new EdgegymError(429, "quota_exceeded", message, [{ path: ["TENANT_QUOTAS", quota], message: `limit ${limit}, in use ${used}` }]);
}

/** The caller's quotas; admin has none (it acts for the deployment). */
export function quotaFor(c: Context<GatewayContext>): { caller: Caller; quota: Quota } {
  const caller = callerOf(c);
  const quota = allows(caller.scopes, "admin") ? {} : quotaOf(gatewayPorts(c.env).config.TENANT_QUOTAS, caller.name);
  return { caller, quota };
}

/**
 * The jobs and rollouts quotas of a new job: the job count is checked before a row is read; the answer checks the rows'
 * rollouts once they are in (ingest deletes them and creates nothing when it throws).
 */
export async function jobQuotas(c: Context<GatewayContext>): Promise<((config: JobConfig) => Promise<void>) | undefined> {
  const { caller, quota } = quotaFor(c);
  if (quota.jobs === undefined && quota.rollouts === undefined) return undefined;
  const ports = gatewayPorts(c.env);
  const use = await openUse(ports.store, caller.name, (id) => ports.job(id).info());
  if (quota.jobs !== undefined && use.jobs + 1 > quota.jobs) throw quotaExceeded(caller.name, "jobs", quota.jobs, use.jobs + 1);
  return async (config) => {
    const rollouts = use.rollouts + config.tasks.length * config.num_repeats;
    if (quota.rollouts !== undefined && rollouts > quota.rollouts) throw quotaExceeded(caller.name, "rollouts", quota.rollouts, rollouts);
  };
}

/** A resume makes an ended job unfinished again: it is held to the jobs and rollouts quotas as a new job is. */
export async function resumeQuotas(c: Context<GatewayContext>, job: JobInfo): Promise<void> {
  const { caller, quota } = quotaFor(c);
  if (job.status === "running" || (quota.jobs === undefined && quota.rollouts === undefined)) return;
  const ports = gatewayPorts(c.env);
  const use = await openUse(ports.store, caller.name, (id) => ports.job(id).info());
  if (quota.jobs !== undefined && use.jobs + 1 > quota.jobs) throw quotaExceeded(caller.name, "jobs", quota.jobs, use.jobs + 1);
  const rollouts = use.rollouts + job.counts.total;
  if (quota.rollouts !== undefined && rollouts > quota.rollouts) throw quotaExceeded(caller.name, "rollouts", quota.rollouts, rollouts);
}
