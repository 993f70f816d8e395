// The SQS MessageQueue against fauxqs: what arrives on the queue, in how many requests, and what is refused.
import { GetQueueAttributesCommand, type Message, ReceiveMessageCommand, type SendMessageBatchRequest, type SQSClient } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageTooLargeError } from "../../queues/queue.js";
import { SQS_LIMITS, SqsSendError, sqsQueue } from "../../queues/sqs.js";
import { countCommands, type LocalAws, startLocalAws, unique } from "./fauxqs.js";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => {
  await aws?.stop();
});

/** A queue that keeps SQS's classic 256 KiB limit, so the emulator refuses what SQS would. */
function freshQueue(): string {
  return aws.server.createQueue(unique("q"), { attributes: { MaximumMessageSize: "262144" } }).queueUrl;
}

async function drain(sqs: SQSClient, queueUrl: string): Promise<Message[]> {
  const out: Message[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 60, MessageAttributeNames: ["All"] }),
    );
    if (!Messages.length) return out;
    out.push(...Messages);
  }
}

async function counts(queueUrl: string): Promise<Record<string, string>> {
  const { Attributes = {} } = await aws.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["All"] }));
  return Attributes;
}

const rollout = (i: number, extra: Record<string, unknown> = {}) => ({
  kind: "rollout",
  job_id: "job-1",
  task_index: i,
  rollout_index: 0,
  attempt: 1,
  ...extra,
});

/** Makes SQS fail the given batch entries on its side (not the sender's fault) `times` times, without sending them. */
function failEntries(client: SQSClient, ids: string[], times: number): void {
  const left = new Map(ids.map((id) => [id, times]));
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== "SendMessageBatchCommand") return next(args);
      const input = args.input as SendMessageBatchRequest;
      const entries = input.Entries ?? [];
      const failing = entries.filter((e) => (left.get(e.Id ?? "") ?? 0) > 0);
      for (const e of failing) left.set(e.Id ?? "", left.get(e.Id ?? "")! - 1);
      const kept = entries.filter((e) => !failing.includes(e));
      const result = kept.length
        ? await next({ ...args, input: { ...input, Entries: kept } })
        : { output: { Successful: [], Failed: [], $metadata: {} }, response: {} };
      const output = result.output as { Failed?: unknown[] };
      output.Failed = [...(output.Failed ?? []), ...failing.map((e) => ({ Id: e.Id, SenderFault: false, Code: "InternalError", Message: "injected" }))];
      return result;
    },
    { step: "initialize", name: "fail-entries" },
  );
}

describe("sqsQueue", () => {
  it("sends 25 messages in 3 SQS batches, each with job_id and rollout_id attributes", async () => {
    const { sqs } = aws.clients();
    const commands = countCommands(sqs);
    const queueUrl = freshQueue();
    await sqsQueue(sqs, queueUrl).sendBatch(Array.from({ length: 25 }, (_, i) => ({ body: rollout(i) })));
    expect(commands.get("SendMessageBatchCommand")).toBe(3);
    const received = await drain(aws.sqs, queueUrl);
    expect(received.map((m) => JSON.parse(m.Body!).task_index).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    const third = received.find((m) => JSON.parse(m.Body!).task_index === 3)!;
    expect(third.MessageAttributes?.job_id?.StringValue).toBe("job-1");
    expect(third.MessageAttributes?.rollout_id?.StringValue).toBe("job-1-3-0");
  });

  it("refuses a CJK body under 256 K characters but over 256 KiB of UTF-8 before sending anything", async () => {
    const queueUrl = freshQueue();
    const text = "漢".repeat(90_000);
    expect(text.length).toBeLessThan(262_144);
    const queue = sqsQueue(aws.sqs, queueUrl);
    await expect(queue.send(rollout(0, { row: { text } }))).rejects.toThrow(MessageTooLargeError);
    const refused = queue.sendBatch([{ body: rollout(1) }, { body: rollout(2, { row: { text } }) }]);
    await expect(refused).rejects.toThrow(/queue message 1 is 270\d{3} bytes \(UTF-8\), over the limit of 262144/);
    expect(await drain(aws.sqs, queueUrl)).toEqual([]);
  });

  it("counts bytes as SQS does: a message of exactly 256 KiB with its attributes goes, one byte more does not", async () => {
    const queueUrl = freshQueue();
    const queue = sqsQueue(aws.sqs, queueUrl);
    // The body {"job_id":"j","text":"…"} plus the job_id attribute: "job_id" + "String" + "j", 13 bytes.
    const overhead = JSON.stringify({ job_id: "j", text: "" }).length + 13;
    const body = (bytes: number) => ({ job_id: "j", text: "x".repeat(bytes - overhead) });
    expect(JSON.stringify(body(SQS_LIMITS.maxMessageBytes)).length + 13).toBe(262_144);
    await queue.send(body(SQS_LIMITS.maxMessageBytes));
    await expect(queue.send(body(SQS_LIMITS.maxMessageBytes + 1))).rejects.toThrow(MessageTooLargeError);
    expect(await drain(aws.sqs, queueUrl)).toHaveLength(1);
  });

  it("keeps a batch within 256 KiB: four messages of 100 KB go in two requests", async () => {
    const { sqs } = aws.clients();
    const commands = countCommands(sqs);
    const queueUrl = freshQueue();
    await sqsQueue(sqs, queueUrl).sendBatch(Array.from({ length: 4 }, (_, i) => ({ body: rollout(i, { row: { text: "y".repeat(100_000) } }) })));
    expect(commands.get("SendMessageBatchCommand")).toBe(2);
    expect(await drain(aws.sqs, queueUrl)).toHaveLength(4);
  });

  it("caps a delay at SQS's 900 seconds instead of failing", async () => {
    const queueUrl = freshQueue();
    const queue = sqsQueue(aws.sqs, queueUrl);
    await queue.send(rollout(0), { delaySeconds: 3_600 });
    await queue.sendBatch([{ body: rollout(1), delaySeconds: 7_200 }]);
    const inspected = aws.server.inspectQueue(queueUrl.split("/").at(-1)!)!;
    expect(inspected.messages.delayed).toHaveLength(2);
    for (const message of inspected.messages.delayed) expect(message.delayUntil! - message.sentTimestamp).toBe(900_000);
  });

  it("sends again the entries SQS failed on its side; each message arrives once", async () => {
    const { sqs } = aws.clients();
    failEntries(sqs, ["3", "7"], 2);
    const queueUrl = freshQueue();
    await sqsQueue(sqs, queueUrl).sendBatch(Array.from({ length: 10 }, (_, i) => ({ body: rollout(i) })));
    const received = await drain(aws.sqs, queueUrl);
    expect(received.map((m) => JSON.parse(m.Body!).task_index).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i));
  });

  it("gives up on an entry that keeps failing and names it; every other message is sent", async () => {
    const { sqs } = aws.clients();
    failEntries(sqs, ["4"], 100);
    const queueUrl = freshQueue();
    const sent = sqsQueue(sqs, queueUrl).sendBatch(Array.from({ length: 12 }, (_, i) => ({ body: rollout(i) })));
    await expect(sent).rejects.toThrow("SQS did not take 1 message(s): 4 (job-1-4-0): InternalError");
    await expect(sent).rejects.toMatchObject({ failed: [{ index: 4, senderFault: false, rolloutId: "job-1-4-0" }] });
    expect(await drain(aws.sqs, queueUrl)).toHaveLength(11);
  });

  it("does not resend what SQS refuses as the sender's fault (a character SQS does not take)", async () => {
    const queueUrl = freshQueue();
    const sent = sqsQueue(aws.sqs, queueUrl).sendBatch([{ body: rollout(0) }, { body: rollout(1, { note: "bad \uFFFF" }) }]);
    await expect(sent).rejects.toBeInstanceOf(SqsSendError);
    await expect(sent).rejects.toMatchObject({ failed: [{ index: 1, code: "InvalidMessageContents", senderFault: true }] });
    expect((await drain(aws.sqs, queueUrl)).map((m) => JSON.parse(m.Body!).task_index)).toEqual([0]);
    expect((await counts(queueUrl)).ApproximateNumberOfMessages).toBe("0");
  });
});
