// The Lambda SQS adapter: real event records built from messages fauxqs delivered, and the partial batch response.
import { DeleteMessageBatchCommand, GetQueueAttributesCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqsQueue } from "../../queues/sqs.js";
import { handleSqsEvent, queueUrlFromArn, type SqsEventRecord } from "../../queues/sqs-consumer.js";
import { type LocalAws, startLocalAws, unique } from "./fauxqs.js";
import { lambdaRecord } from "./lambda-event.js";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => {
  await aws?.stop();
});

async function deliver(count: number): Promise<{ queueUrl: string; event: { Records: SqsEventRecord[] } }> {
  const { queueUrl, queueArn } = aws.server.createQueue(unique("lambda"));
  await sqsQueue(aws.sqs, queueUrl).sendBatch(
    Array.from({ length: count }, (_, i) => ({ body: { kind: "rollout", job_id: "job-9", task_index: i, rollout_index: 0 } })),
  );
  const { Messages = [] } = await aws.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: 30,
      MessageSystemAttributeNames: ["All"],
      MessageAttributeNames: ["All"],
    }),
  );
  expect(Messages).toHaveLength(count);
  return { queueUrl, event: { Records: Messages.map((m) => lambdaRecord(m, queueArn)) } };
}

/** What Lambda does with the answer: deletes every record not listed as a failure. */
async function lambdaDeletes(queueUrl: string, event: { Records: SqsEventRecord[] }, failures: { itemIdentifier: string }[]): Promise<void> {
  const listed = new Set(failures.map((f) => f.itemIdentifier));
  const done = event.Records.filter((r) => !listed.has(r.messageId));
  if (done.length)
    await aws.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })) }));
}

const taskOf = (body: unknown) => (body as { task_index: number }).task_index;

describe("handleSqsEvent (Lambda)", () => {
  it("lists exactly the retried messages, and their delays hold on the queue", async () => {
    const { queueUrl, event } = await deliver(6);
    const seen: { task: number; attempts: number; queue: string }[] = [];
    const answer = await handleSqsEvent(
      event,
      async (batch) => {
        for (const message of batch.messages) {
          const task = taskOf(message.body);
          seen.push({ task, attempts: message.attempts, queue: batch.queue });
          if (task === 3) message.retry();
          else if (task === 4) message.retry({ delaySeconds: 120 });
          else if (task !== 5) message.ack(); // 5 is left undecided: acked, as a Cloudflare handler's would be
        }
      },
      { client: aws.sqs, queueUrl },
    );
    const idOf = (task: number) => event.Records.find((r) => taskOf(JSON.parse(r.body)) === task)!.messageId;
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: idOf(3) }, { itemIdentifier: idOf(4) }]);
    expect(seen.map((s) => s.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(new Set(seen.map((s) => s.queue))).toEqual(new Set([queueUrl.split("/").at(-1)]));

    await lambdaDeletes(queueUrl, event, answer.batchItemFailures);
    // Retried without a delay: visible again at once, on its second delivery. Retried with 120 s: still hidden.
    const { Messages = [] } = await aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ["ApproximateReceiveCount"] }),
    );
    expect(Messages.map((m) => [taskOf(JSON.parse(m.Body!)), m.Attributes?.ApproximateReceiveCount])).toEqual([[3, "2"]]);
    const hidden = aws.server.inspectQueue(queueUrl.split("/").at(-1)!)!.messages.inflight.find((f) => f.message.messageId === idOf(4))!;
    expect(hidden.visibilityDeadline - Date.now()).toBeGreaterThan(100_000);
  });

  it("a handler that throws retries every message it had not decided", async () => {
    const { queueUrl, event } = await deliver(4);
    const answer = await handleSqsEvent(
      event,
      async (batch) => {
        batch.messages[0]!.ack();
        batch.messages[1]!.retry({ delaySeconds: 5 });
        throw new Error("model unreachable");
      },
      { client: aws.sqs, queueUrl, onError: () => {} },
    );
    expect(answer.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(event.Records.slice(1).map((r) => r.messageId));
    await lambdaDeletes(queueUrl, event, answer.batchItemFailures);
    const { Attributes } = await aws.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["All"] }));
    expect(Attributes?.ApproximateNumberOfMessages).toBe("2"); // the two retried at once
    expect(Attributes?.ApproximateNumberOfMessagesNotVisible).toBe("1"); // the one retried in 5 s
  });

  it("refuses an event that is not an SQS event", async () => {
    await expect(handleSqsEvent({ Records: [{ body: "x" }] }, async () => {}, { client: aws.sqs })).rejects.toThrow();
  });

  it("derives the queue URL from the event source ARN on AWS", () => {
    expect(queueUrlFromArn("arn:aws:sqs:us-east-2:123456789012:my-queue")).toBe("https://sqs.us-east-2.amazonaws.com/123456789012/my-queue");
    expect(queueUrlFromArn("arn:aws-cn:sqs:cn-north-1:123456789012:q")).toBe("https://sqs.cn-north-1.amazonaws.com.cn/123456789012/q");
  });
});
