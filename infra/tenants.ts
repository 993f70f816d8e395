// The AWS path's tenants (EDGEGYM_TENANTS at deploy) and the IAM policy each gets (infra/aws.ts creates them): S3 only on that
// tenant's keys (its jobs, `jobs/job_<tenant>_…`, and its owner index, `owners/<tenant>/…`) and sending to the rollouts queue.
// Attach a tenant's policy to its role or user: the CLI's `--tenant` only says which jobs to show; this is what keeps tenants apart.
import { TENANT_NAME } from "../contracts/tenants.js";

/** `team-a,team-b`: each a-z 0-9 - (no `_`, so that no tenant's id prefix is another's). */
export function tenantsFromEnv(text = process.env.EDGEGYM_TENANTS ?? ""): string[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  names.forEach((name, i) => {
    if (!TENANT_NAME.test(name)) throw new Error(`EDGEGYM_TENANTS entry ${i + 1} ("${name}"): a tenant is 1-40 of a-z 0-9 -`);
  });
  if (new Set(names).size !== names.length) throw new Error("EDGEGYM_TENANTS: a tenant is named twice");
  return names;
}

/** The IAM policy document of one tenant: its objects, listing under its own prefixes, and sending rollouts. */
export function tenantPolicyDocument(tenant: string, bucketArn: string, queueArn: string) {
  const prefixes = [`jobs/job_${tenant}_*`, `owners/${tenant}/*`];
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "TenantObjects",
        Effect: "Allow",
        Action: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
        Resource: prefixes.map((prefix) => `${bucketArn}/${prefix}`),
      },
      { Sid: "TenantListing", Effect: "Allow", Action: "s3:ListBucket", Resource: bucketArn, Condition: { StringLike: { "s3:prefix": prefixes } } },
      { Sid: "SendRollouts", Effect: "Allow", Action: "sqs:SendMessage", Resource: queueArn },
    ],
  };
}
