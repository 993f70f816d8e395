// Tenants on the AWS path (a bucket and SQS, no gateway): a tenant's jobs record their owner and carry it in their id (the
// prefix its IAM policy names); another tenant's list, status, results, cancel and resume say "no job", as the gateway does.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bucketStore, parseBucket } from "../../aws/ports.js";
import { ownerKeys } from "../../ledger/index.js";
import { BucketJobsClient } from "../../local/cli/bucket-client.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { type AwsStack, exampleFile, type QueueAndBucket, queueAndBucket, startAwsStack } from "./stack.js";

const ENV = "example_single_tool_call";
const run = promisify(execFile);
let stack: AwsStack;
let where: QueueAndBucket;
let dir: string;
let file: string;
beforeAll(async () => {
  stack = await startAwsStack();
  where = await queueAndBucket(stack);
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-tenants-"));
  file = path.join(dir, "rows.jsonl");
  writeFileSync(file, readFileSync(exampleFile(ENV), "utf8").split("\n").slice(0, 2).join("\n"));
});
afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const client = (tenant?: string) =>
  new BucketJobsClient({ bucket: where.bucket, queueUrl: where.queueUrl, clients: stack.clients, ...(tenant ? { tenant } : {}) });

describe("--tenant on a jobs bucket", () => {
  let idA: string;
  let idB: string;
  beforeAll(async () => {
    idA = (await client("team-a").create(file, { environment: ENV })).id;
    idB = (await client("team-b").create(file, { environment: ENV })).id;
  });

  it("a tenant's job records its owner, carries it in its id, and is in its owner index", async () => {
    expect(idA).toMatch(/^job_team-a_[a-z0-9]+$/);
    expect(idB).toMatch(/^job_team-b_[a-z0-9]+$/);
    expect((await client("team-a").get(idA)).owner).toBe("team-a");
    const store = bucketStore(stack.clients, parseBucket(where.bucket));
    expect(await store.get(ownerKeys.job("team-a", idA))).not.toBeNull();
    expect(await store.get(ownerKeys.job("team-b", idA))).toBeNull();
  });

  it("each tenant lists its own jobs only; the operator (no --tenant) lists both", async () => {
    expect((await client("team-a").list()).data.map((job) => job.id)).toEqual([idA]);
    expect((await client("team-b").list()).data.map((job) => job.id)).toEqual([idB]);
    expect(new Set((await client().list()).data.map((job) => job.id))).toEqual(new Set([idA, idB]));
  });

  it('another tenant\'s job is "no job" for status, results, cancel and resume, as one that does not exist; the job is untouched', async () => {
    const b = client("team-b");
    const missing = (id: string) => `no job "${id}" in ${where.bucket}`;
    await expect(b.get(idA)).rejects.toThrow(missing(idA));
    await expect(b.lines(idA, "rollouts")).rejects.toThrow(missing(idA));
    await expect(b.lines(idA, "failures")).rejects.toThrow(missing(idA));
    await expect(b.cancel(idA)).rejects.toThrow(missing(idA));
    await expect(b.resume(idA)).rejects.toThrow(missing(idA));
    const nobody = "job_team-b_zzzzzzzzzzzz";
    await expect(b.get(nobody)).rejects.toThrow(missing(nobody));
    expect((await client("team-a").get(idA)).status).toBe("running");
  });

  it("the CLI: `jobs status` of another tenant's id exits non-zero with no job; its own is shown", async () => {
    const cli = (tenant: string, ...args: string[]) =>
      run(process.execPath, [path.join(PROJECT_ROOT, "bin", "edgegym.js"), "jobs", ...args, "--bucket", where.bucket, "--tenant", tenant], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...stack.env },
      });
    await expect(cli("team-b", "status", idA)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining(`no job "${idA}"`) });
    expect(JSON.parse((await cli("team-a", "status", idA, "--json")).stdout)).toMatchObject({ id: idA, owner: "team-a" });
    await expect(cli("Team_B", "list")).rejects.toMatchObject({ stderr: expect.stringContaining('--tenant "Team_B": a tenant is 1-40 of a-z 0-9 -') });
  });
});
