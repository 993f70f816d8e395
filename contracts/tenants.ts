// Tenants of the AWS path (`--tenant`, EDGEGYM_TENANTS): their names, and how a job id carries one (`job_<tenant>_…`).

/** Lowercase letters, digits and `-` (no `_`), so that no tenant's `job_<tenant>_` prefix is another's. */
export const TENANT_NAME = /^[a-z0-9-]{1,40}$/;

/** Whether a job id of the AWS path is this tenant's. */
export function isTenantJob(id: string, tenant: string): boolean {
  return id.startsWith(`job_${tenant}_`);
}
