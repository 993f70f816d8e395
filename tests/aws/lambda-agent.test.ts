// The agent as an AWS Lambda: a bundled dataset's job enqueued to SQS, consumed by the handler invoked with real SQS event
// shapes (an event source mapping emulated over fauxqs), the results written once each to S3 through real conditional puts.
import { DeleteMessageBatchCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLambda } from "../../aws/lambda.js";
import { bucketStore, parseBucket } from "../../aws/ports.js";
import { rolloutId } from "../../contracts/messages.js";
import { bucketJobs } from "../../ledger/index.js";
import type { SqsBatchResponse } from "../../queues/sqs-consumer.js";
import { sleep } from "./fauxqs.js";
import {
  type AwsStack,
  enqueueJob,
  exampleFile,
  exampleRows,
  lambdaRecord,
  loadEnvironment,
  type QueueAndBucket,
  queueAndBucket,
  startAwsStack,
} from "./stack.js";
import { readFileSync } from "node:fs";

const ENV = "example_single_tool_call";
let stack: AwsStack;
beforeAll(async () => {
  stack = await startAwsStack();
});
afterAll(async () => {
  await stack?.stop();
});
beforeEach(() => stack.simulator.configure({ latencyMs: 0 }));

type Handler = (event: unknown) => Promise<SqsBatchResponse>;

async function lambdaFor(where: QueueAndBucket, extra: Record<string, string> = {}): Promise<Handler> {
  return createLambda(await loadEnvironment(ENV), {
    ...stack.env,
    EDGEGYM_QUEUE_URL: where.queueUrl,
    EDGEGYM_DLQ_URL: where.dlqUrl,
    EDGEGYM_BUCKET: where.bucket,
    ...extra,
  });
}

/**
 * One poll of Lambda's event source mapping: receive up to 10 messages, invoke the function with them as an SQS event, and
 * delete every record the answer does not list as a failure. Returns how many records the function was given.
 */
async function invokeOnce(handler: Handler, queueUrl: string, arn: string, visibilityTimeout = 30): Promise<number> {
  const { Messages = [] } = await stack.clients.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: visibilityTimeout,
      WaitTimeSeconds: 0,
      MessageSystemAttributeNames: ["All"],
      MessageAttributeNames: ["All"],
    }),
  );
  if (!Messages.length) return 0;
  const event = { Records: Messages.map((m) => lambdaRecord(m, arn)) };
  const { batchItemFailures } = await handler(event);
  const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
  const done = event.Records.filter((r) => !failed.has(r.messageId));
  if (done.length)
    await stack.clients.sqs.send(
      new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })) }),
    );
  return Messages.length;
}

function jobsOf(where: QueueAndBucket) {
  return bucketJobs(bucketStore(stack.clients, parseBucket(where.bucket)));
}

async function linesOf(where: QueueAndBucket, id: string, kind: "rollout" | "failure"): Promise<Record<string, any>[]> {
  let text = "";
  for await (const chunk of jobsOf(where).lines(id, kind)) text += chunk;
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** Runs the mapping (two concurrent pollers, as Lambda scales out) until the job completes. */
async function drain(handler: Handler, where: QueueAndBucket, id: string, timeoutMs = 40_000) {
  const deadline = Date.now() + timeoutMs;
  const jobs = jobsOf(where);
  const poller = async () => {
    while (Date.now() < deadline) {
      const info = await jobs.info(id);
      if (info?.status === "completed") return;
      if ((await invokeOnce(handler, where.queueUrl, where.queueArn)) === 0) await sleep(50);
    }
  };
  await Promise.all([poller(), poller()]);
  const info = await jobs.info(id);
  if (info?.status !== "completed") throw new Error(`job ${id} did not complete: ${JSON.stringify(info?.counts)}`);
  return info;
}

describe("the agent Lambda on SQS and S3", () => {
  it("runs a bundled dataset × 4 repeats: exactly rows × repeats records in S3, no duplicate, ordered, with metrics", async () => {
    const where = await queueAndBucket(stack);
    const handler = await lambdaFor(where);
    const created = await enqueueJob(stack, where, readFileSync(exampleFile(ENV), "utf8"), ENV, 4);
    const rows = exampleRows(ENV);
    expect(created.counts.total).toBe(rows * 4);

    const info = await drain(handler, where, created.id);
    expect(info.counts).toMatchObject({ total: rows * 4, done: rows * 4, failed: 0 });
    const rollouts = await linesOf(where, created.id, "rollout");
    expect(rollouts).toHaveLength(rows * 4);
    const ids = rollouts.map((r) => r._ng_rollout_id);
    expect(new Set(ids).size).toBe(rows * 4);
    expect(rollouts.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual(Array.from({ length: rows * 4 }, (_, i) => [Math.floor(i / 4), i % 4]));
    expect(rollouts.every((r) => r.reward === 1)).toBe(true);
    expect(info.metrics?.[ENV]?.agent_metrics["mean/reward"]).toBe(1);
    expect(await linesOf(where, created.id, "failure")).toEqual([]);
  });

  it("a message whose invocations die every time ends on the dead-letter queue, then as one failure record", async () => {
    const where = await queueAndBucket(stack, 2);
    const handler = await lambdaFor(where);
    const created = await enqueueJob(stack, where, readFileSync(exampleFile(ENV), "utf8").split("\n")[0]!, ENV, 1);
    // The expand message becomes the job's one rollout message; that one is the poison.
    expect(await invokeOnce(handler, where.queueUrl, where.queueArn)).toBe(1);
    // Each invocation that receives it dies (a timeout, an out-of-memory kill) before answering: nothing is deleted.
    for (let delivery = 0; delivery < 2; delivery++) {
      const { Messages = [] } = await stack.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: where.queueUrl, VisibilityTimeout: 1, WaitTimeSeconds: 2 }));
      expect(Messages).toHaveLength(1);
      await sleep(1100);
    }
    // A third receive moves it to the dead-letter queue (maxReceiveCount 2), which the same function is subscribed to.
    await stack.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: where.queueUrl, WaitTimeSeconds: 1 }));
    expect(await invokeOnce(handler, where.dlqUrl, where.dlqArn)).toBe(1);

    const info = await jobsOf(where).info(created.id);
    expect(info).toMatchObject({ status: "completed", counts: { total: 1, done: 0, failed: 1 } });
    const failures = await linesOf(where, created.id, "failure");
    expect(failures).toEqual([expect.objectContaining({ _ng_rollout_id: rolloutId(created.id, 0, 0), failure_class: "dead_letter" })]);
    expect(await linesOf(where, created.id, "rollout")).toEqual([]);
  });

  it("a rollout that outlives the queue's visibility timeout is kept hidden and run once", async () => {
    const where = await queueAndBucket(stack, 5, 2);
    const handler = await lambdaFor(where, { EDGEGYM_VISIBILITY_TIMEOUT: "2" });
    const created = await enqueueJob(stack, where, readFileSync(exampleFile(ENV), "utf8").split("\n")[0]!, ENV, 1);
    expect(await invokeOnce(handler, where.queueUrl, where.queueArn, 2)).toBe(1); // the expand message
    stack.simulator.configure({ latencyMs: 2500 }); // two model turns: about 5 s, over twice the 2 s visibility
    const requestsBefore = stack.simulator.requests.length;
    const slow = invokeOnce(handler, where.queueUrl, where.queueArn, 2);
    // Meanwhile another consumer keeps asking for work: the running rollout's message must never reach it.
    let stolen = 0;
    const spy = (async () => {
      const until = Date.now() + 5500;
      while (Date.now() < until) {
        const { Messages = [] } = await stack.clients.sqs.send(
          new ReceiveMessageCommand({ QueueUrl: where.queueUrl, VisibilityTimeout: 0, WaitTimeSeconds: 1 }),
        );
        stolen += Messages.length;
      }
    })();
    expect(await slow).toBe(1);
    await spy;
    expect(stolen).toBe(0);
    // Its two model turns (a tool call, then the answer), once: no second consumer started it again.
    expect(stack.simulator.requests.length - requestsBefore).toBe(2);
    const info = await jobsOf(where).info(created.id);
    expect(info).toMatchObject({ status: "completed", counts: { done: 1, failed: 0 } });
  });
});
