// Jobs in a bucket alone (the AWS path's Job object): exactly-once records through real conditional puts (412s), completion
// and metrics when the last result lands, a scored rollout over a failure, resume, and the CLI's `jobs` on --bucket.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bucketStore, parseBucket } from "../../aws/ports.js";
import { encodeResult, type ResultHeader, rolloutId as rolloutIdOf } from "../../contracts/messages.js";
import { bucketJobs, ledgerKeys } from "../../ledger/index.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { listAll } from "../../storage/store.js";
import { type AwsStack, enqueueJob, exampleFile, queueAndBucket, startAwsStack } from "./stack.js";

const ENV = "example_single_tool_call";
const run = promisify(execFile);
let stack: AwsStack;
let dir: string;
beforeAll(async () => {
  stack = await startAwsStack();
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-bucket-jobs-"));
});
afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const twoRows = () => readFileSync(exampleFile(ENV), "utf8").split("\n").slice(0, 2).join("\n");

function result(jobId: string, task: number, repeat: number, kind: "rollout" | "failure", reward = 1): string {
  const rolloutId = rolloutIdOf(jobId, task, repeat);
  const record =
    kind === "rollout"
      ? { _ng_task_index: task, _ng_rollout_index: repeat, _ng_rollout_id: rolloutId, reward }
      : { _ng_task_index: task, _ng_rollout_index: repeat, _ng_rollout_id: rolloutId, failure_class: "model_error", message: "down" };
  const header: ResultHeader = {
    job_id: jobId,
    rollout_id: rolloutId,
    task_index: task,
    rollout_index: repeat,
    environment: ENV,
    kind,
    summary: kind === "rollout" ? { reward, _ng_task_index: task, _ng_rollout_index: repeat } : {},
  };
  return encodeResult({ header, line: JSON.stringify(record) });
}

async function setUp(numRepeats: number) {
  const where = await queueAndBucket(stack);
  const store = bucketStore(stack.clients, parseBucket(where.bucket));
  const created = await enqueueJob(stack, where, twoRows(), ENV, numRepeats);
  return { where, store, jobs: bucketJobs(store), id: created.id, created };
}

async function lines(jobs: ReturnType<typeof bucketJobs>, id: string, kind: "rollout" | "failure") {
  let text = "";
  for await (const chunk of jobs.lines(id, kind)) text += chunk;
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("bucket jobs", () => {
  it("writes each result once, however often and however concurrently it is sent; completes with metrics when the last lands", async () => {
    const { store, jobs, id, created } = await setUp(2);
    expect(created).toMatchObject({ status: "running", counts: { total: 4, done: 0, failed: 0, queued: 4 } });
    // Five deliveries of one result at once: the conditional put lets exactly one through.
    const racing = await Promise.all(Array.from({ length: 5 }, () => jobs.recordText(result(id, 0, 0, "rollout"))));
    expect(racing.filter((r) => r.written)).toHaveLength(1);
    expect((await jobs.recordText(result(id, 0, 0, "rollout", 0))).written).toBe(false);
    await jobs.recordText(result(id, 0, 1, "rollout", 0));
    await jobs.recordText(result(id, 1, 0, "rollout"));
    expect((await jobs.info(id))!.status).toBe("running");
    await jobs.recordText(result(id, 1, 1, "rollout"));

    const info = (await jobs.info(id))!;
    expect(info).toMatchObject({ status: "completed", counts: { total: 4, done: 4, failed: 0, queued: 0 }, progress: 1 });
    expect(info.metrics![ENV]!.agent_metrics["mean/reward"]).toBe(0.75); // the first write's reward (1), not the later 0
    expect((await lines(jobs, id, "rollout")).map((r) => [r._ng_task_index, r._ng_rollout_index, r.reward])).toEqual([
      [0, 0, 1],
      [0, 1, 0],
      [1, 0, 1],
      [1, 1, 1],
    ]);
    // The same layout as the Cloudflare writer's: results objects under rollouts/ and failures/, metrics.json beside them.
    const keys: string[] = [];
    for await (const page of listAll(store, { prefix: ledgerKeys.prefix(id) })) keys.push(...page.keys);
    expect(keys).toEqual(expect.arrayContaining([`jobs/${id}/rollouts/000000.jsonl`, `jobs/${id}/failures/000000.jsonl`, `jobs/${id}/metrics.json`]));
    expect(keys.filter((k) => k.includes("/records/"))).toHaveLength(4);
  });

  it("a scored rollout wins over a failure of the same rollout; resume forgets failures and re-enqueues only what has no rollout", async () => {
    const { where, jobs, id } = await setUp(1);
    await jobs.recordText(result(id, 0, 0, "failure"));
    await jobs.recordText(result(id, 1, 0, "failure"));
    await jobs.recordText(result(id, 1, 0, "rollout"));
    expect(await jobs.info(id)).toMatchObject({ status: "completed", counts: { done: 1, failed: 1 } });
    expect((await lines(jobs, id, "failure")).map((r) => r._ng_task_index)).toEqual([0]);

    // Drain the job's own expand message first: only resume's should be left.
    await stack.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: where.queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 600 }));
    const { stdout } = await run(
      process.execPath,
      [path.join(PROJECT_ROOT, "bin", "edgegym.js"), "jobs", "resume", id, "--bucket", where.bucket, "--queue-url", where.queueUrl],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...stack.env },
      },
    );
    expect(stdout).toMatch(/re-enqueued 1 rollout\(s\)/);
    const { Messages = [] } = await stack.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: where.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    expect(Messages.map((m) => JSON.parse(m.Body!))).toEqual([expect.objectContaining({ kind: "expand", job_id: id, only: [[0, 0]], attempt: 2 })]);
    expect(await jobs.info(id)).toMatchObject({ status: "running", counts: { done: 1, failed: 0 } });
    expect(await lines(jobs, id, "failure")).toEqual([]);

    await jobs.recordText(result(id, 0, 0, "rollout"));
    expect(await jobs.info(id)).toMatchObject({ status: "completed", counts: { done: 2, failed: 0 } });
  });

  it("cancel: the agents' wanted() says drop the work, and the status says cancelled", async () => {
    const { jobs, id } = await setUp(1);
    expect(await jobs.wanted(id)).toEqual({ numRepeats: 1 });
    await jobs.recordText(result(id, 0, 0, "rollout"));
    expect(await jobs.cancel(id)).toMatchObject({ status: "cancelled", counts: { done: 1, queued: 0 } });
    expect(await jobs.wanted(id)).toBeNull();
    expect(await jobs.wanted("job_unknown")).toBeNull();
  });

  it("edgegym jobs status / results / list on --bucket: finishes a job whose last writer died before completing it", async () => {
    const { where, store, id } = await setUp(1);
    // The records are all in, but no seal, metrics or completion marker: as if the agent stopped after its last write.
    for (const [task, kind] of [
      [0, "rollout"],
      [1, "failure"],
    ] as const) {
      const key = ledgerKeys.record(id, 0, kind, task, 0);
      await store.put(key, result(id, task, 0, kind));
    }
    const cli = (...args: string[]) =>
      run(process.execPath, [path.join(PROJECT_ROOT, "bin", "edgegym.js"), "jobs", ...args, "--bucket", where.bucket], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...stack.env },
      });
    const status = JSON.parse((await cli("status", id, "--json")).stdout);
    expect(status).toMatchObject({ id, status: "completed", counts: { total: 2, done: 1, failed: 1 } });
    expect(status.metrics[ENV].agent_metrics["mean/reward"]).toBe(1);
    const out = path.join(dir, "results.jsonl");
    await cli("results", id, "-o", out);
    expect(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)._ng_rollout_id),
    ).toEqual([rolloutIdOf(id, 0, 0)]);
    await cli("results", id, "-o", out, "--failures");
    expect(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).failure_class),
    ).toEqual(["model_error"]);
    const listed = (await cli("list")).stdout;
    // Under its header: id, status, progress, done, failed.
    expect(listed).toMatch(/^id\s+status\s+progress\s+done\s+failed\b/);
    expect(listed).toMatch(new RegExp(`^${id}\\s+completed\\s+100\\.0%\\s+1\\s+1\\s`, "m"));
    // Following a job as it runs needs a gateway: said, not a file that silently stops at what the bucket holds now.
    const followed = await cli("results", id, "-o", path.join(dir, "followed.jsonl"), "--follow").then(
      () => "",
      (error: { stderr?: string }) => String(error.stderr),
    );
    expect(followed).toContain("--follow needs a gateway (--url)");
    expect(existsSync(path.join(dir, "followed.jsonl"))).toBe(false);
  });
});
