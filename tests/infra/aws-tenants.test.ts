// The AWS path's tenants in the resource graph: one IAM policy per EDGEGYM_TENANTS name, S3 only on that tenant's keys
// (its job ids' prefix and its owner index) and sending to the rollouts queue; bad names stop the deploy.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { installRecorders, type Recorded } from "./recorder.js";

const INFRA = path.join(PROJECT_ROOT, "infra", "index.ts");

async function deployGraph(tenants?: string): Promise<{ created: Recorded[]; outputs: Record<string, unknown> }> {
  const created = installRecorders();
  process.env.EDGEGYM_BACKEND = "aws";
  if (tenants !== undefined) process.env.EDGEGYM_TENANTS = tenants;
  const infra = (await import(INFRA)) as { deploy(root: string): Promise<Record<string, unknown>> };
  return { created, outputs: await infra.deploy(PROJECT_ROOT) };
}

afterEach(() => {
  delete process.env.EDGEGYM_BACKEND;
  delete process.env.EDGEGYM_TENANTS;
});

const policies = (created: Recorded[]) => created.filter((r) => r.kind === "aws.iam.Policy");

describe("EDGEGYM_TENANTS", () => {
  it("one IAM policy per tenant: its objects and listing under its own prefixes, and sending rollouts", async () => {
    const { created, outputs } = await deployGraph("team-a, team-b");
    expect(policies(created).map((p) => p.name)).toEqual(["TenantTeamAPolicy", "TenantTeamBPolicy"]);
    const document = JSON.parse(policies(created)[0]!.args.policy as string);
    expect(document).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "TenantObjects",
          Effect: "Allow",
          Action: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
          Resource: ["arn:bucket:JobsBucket/jobs/job_team-a_*", "arn:bucket:JobsBucket/owners/team-a/*"],
        },
        {
          Sid: "TenantListing",
          Effect: "Allow",
          Action: "s3:ListBucket",
          Resource: "arn:bucket:JobsBucket",
          Condition: { StringLike: { "s3:prefix": ["jobs/job_team-a_*", "owners/team-a/*"] } },
        },
        { Sid: "SendRollouts", Effect: "Allow", Action: "sqs:SendMessage", Resource: "arn:queue:RolloutsQueue" },
      ],
    });
    // Team b's names only its own keys: nothing of team a's.
    expect(policies(created)[1]!.args.policy).not.toContain("team-a");
    expect(outputs.tenantPolicies).toEqual({ "team-a": "arn:policy:TenantTeamAPolicy", "team-b": "arn:policy:TenantTeamBPolicy" });
  });

  it("no tenants: no policy", async () => {
    expect(policies((await deployGraph()).created)).toEqual([]);
  });

  it("a name with _ or capitals (which could overlap another's id prefix) stops the deploy, naming it", async () => {
    await expect(deployGraph("team-a,team_b")).rejects.toThrow('EDGEGYM_TENANTS entry 2 ("team_b"): a tenant is 1-40 of a-z 0-9 -');
    await expect(deployGraph("Team")).rejects.toThrow('EDGEGYM_TENANTS entry 1 ("Team")');
  });
});
