// `edgegym worker` on any machine and `edgegym collect --queue-url --bucket`, as a user runs them (child processes), over
// fauxqs with real conditional puts: two workers on one queue, rollouts longer than the visibility timeout, SIGTERM mid-batch.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bucketStore, parseBucket } from "../../aws/ports.js";
import { rolloutId } from "../../contracts/messages.js";
import { bucketJobs } from "../../ledger/index.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { sqsQueue } from "../../queues/sqs.js";
import { sleep } from "./fauxqs.js";
import { type AwsStack, enqueueJob, exampleFile, exampleRows, queueAndBucket, startAwsStack } from "./stack.js";

const ENV = "example_single_tool_call";
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");

let stack: AwsStack;
let dir: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  stack = await startAwsStack();
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-worker-"));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, "SIGKILL");
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
}

function edgegym(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...stack.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stderr: () => err, exited };
}

function worker(queueUrl: string, bucket: string, extra: string[] = [], env: Record<string, string> = {}): Run {
  const args = ["worker", "--queue-url", queueUrl, "--bucket", bucket, "--environments", ENV, "--wait-seconds", "1", "--progress-seconds", "1"];
  return edgegym([...args, ...extra], env);
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const jsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);

describe("edgegym worker", () => {
  it("two workers on one queue, rollouts longer than the visibility timeout: collect gets rows × repeats records, each rollout run once", async () => {
    const where = await queueAndBucket(stack);
    stack.simulator.reset();
    stack.simulator.configure({ latencyMs: 1500 }); // two model turns: 3 s a rollout, over the 2 s visibility timeout
    const workers = [0, 1].map(() => worker(where.queueUrl, where.bucket, ["--concurrency", "8", "--visibility-timeout", "2"]));
    const output = path.join(dir, "two.jsonl");
    const collect = edgegym(["collect", "-i", exampleFile(ENV), "-o", output, "-e", ENV, "-n", "8", "--queue-url", where.queueUrl, "--bucket", where.bucket]);
    expect(await collect.exited, collect.stderr()).toBe(0);

    const rows = exampleRows(ENV);
    const records = jsonl(output);
    expect(records).toHaveLength(rows * 8);
    expect(new Set(records.map((r) => r._ng_rollout_id)).size).toBe(rows * 8);
    expect(records.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual(Array.from({ length: rows * 8 }, (_, i) => [Math.floor(i / 8), i % 8]));
    // Every rollout was started once (one first model turn each): none was handed to a second consumer while it ran.
    const firstTurns = stack.simulator.requests.filter((r) => !r.messages.some((m) => m.role === "assistant" || m.role === "tool"));
    expect(firstTurns).toHaveLength(rows * 8);
    const metrics = JSON.parse(readFileSync(output.replace(/\.jsonl$/, ".metrics.json"), "utf8"));
    expect(metrics[ENV].agent_metrics["mean/reward"]).toBe(1);

    for (const w of workers) w.child.kill("SIGTERM");
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    for (const w of workers) expect(w.stderr()).not.toMatch(/ignores conditional writes/);
    // Both took a share of the work, and their counts add up to the rollouts (the job's expand message is none).
    const done = workers.map((w) => Number(/worker: (\d+) done/.exec(w.stderr().split("\n").filter(Boolean).at(-1) ?? "")?.[1] ?? 0));
    for (const n of done) expect(n).toBeGreaterThan(0);
    expect(done[0]! + done[1]!).toBe(rows * 8);
  });

  it("warns when the bucket ignores conditional writes (fauxqs without the proxy) and falls back to the in-process emulation", async () => {
    const where = await queueAndBucket(stack);
    const w = worker(where.queueUrl, where.bucket, [], { AWS_ENDPOINT_URL_S3: stack.aws.endpoint });
    await until("the worker to start", () => /worker: .*at a time/.test(w.stderr()));
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    expect(w.stderr()).toMatch(/ignores conditional writes \(If-None-Match\); results are kept exactly once only while this is the one worker/);
  });

  it("consumes the dead-letter queue its queue's redrive policy names: a poison message becomes one failure record", async () => {
    const where = await queueAndBucket(stack, 2);
    stack.simulator.configure({ latencyMs: 0 });
    const created = await enqueueJob(stack, where, readFileSync(exampleFile(ENV), "utf8").split("\n")[0]!, ENV, 1);
    // The job's one rollout message, as its expand message would send it (the expand message itself taken off the queue).
    const { Messages: [expand] = [] } = await stack.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: where.queueUrl, WaitTimeSeconds: 1 }));
    await stack.clients.sqs.send(new DeleteMessageCommand({ QueueUrl: where.queueUrl, ReceiptHandle: expand!.ReceiptHandle! }));
    const chunk_key = JSON.parse(expand!.Body!).chunk_key as string;
    await sqsQueue(stack.clients.sqs, where.queueUrl).send({ kind: "rollout", job_id: created.id, task_index: 0, rollout_index: 0, attempt: 1, chunk_key });
    // Its consumers die twice (received, never answered), and the third receive moves it to the dead-letter queue.
    for (let delivery = 0; delivery < 2; delivery++) {
      const { Messages = [] } = await stack.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: where.queueUrl, VisibilityTimeout: 1, WaitTimeSeconds: 2 }));
      expect(Messages).toHaveLength(1);
      await sleep(1100);
    }
    await stack.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: where.queueUrl, WaitTimeSeconds: 1 }));

    const w = worker(where.queueUrl, where.bucket);
    const jobs = bucketJobs(bucketStore(stack.clients, parseBucket(where.bucket)));
    await until("the dead letter to be recorded", async () => (await jobs.info(created.id))?.status === "completed");
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    expect(w.stderr()).toMatch(/dead letters: /);
    expect(await jobs.info(created.id)).toMatchObject({ status: "completed", counts: { total: 1, done: 0, failed: 1 } });
    let text = "";
    for await (const chunk of jobs.lines(created.id, "failure")) text += chunk;
    expect(JSON.parse(text)).toMatchObject({ _ng_rollout_id: rolloutId(created.id, 0, 0), failure_class: "dead_letter" });
  });

  it("SIGTERM during a batch loses nothing: unfinished rollouts go back to the queue and another worker finishes the job", async () => {
    const where = await queueAndBucket(stack);
    stack.simulator.reset();
    stack.simulator.configure({ latencyMs: 1000 });
    const created = await enqueueJob(stack, where, readFileSync(exampleFile(ENV), "utf8"), ENV, 4);
    const first = worker(where.queueUrl, where.bucket, ["--concurrency", "6", "--grace-seconds", "0"]);
    // Stopped once it is in the middle of its rollouts: some model calls made, none of its messages finished.
    await until("the first worker's rollouts to start", () => stack.simulator.requests.length >= 3);
    first.child.kill("SIGTERM");
    expect(await first.exited, first.stderr()).toBe(0);
    expect(first.stderr()).toMatch(/handed back to the queue unfinished/);

    const jobs = bucketJobs(bucketStore(stack.clients, parseBucket(where.bucket)));
    const before = await jobs.info(created.id);
    expect(before!.counts.done).toBeLessThan(created.counts.total);

    const second = worker(where.queueUrl, where.bucket, ["--concurrency", "8"]);
    await until("the job to complete", async () => (await jobs.info(created.id))?.status === "completed", 45_000);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);

    const info = await jobs.info(created.id);
    expect(info!.counts).toMatchObject({ total: created.counts.total, done: created.counts.total, failed: 0 });
    let text = "";
    for await (const chunk of jobs.lines(created.id, "rollout")) text += chunk;
    const ids = text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line)._ng_rollout_id);
    expect(ids).toHaveLength(created.counts.total);
    expect(new Set(ids).size).toBe(created.counts.total);
  });
});
