// The writer as the `results` consumer: each job's results go to its Job object, which writes them exactly once.
import type { JobNamespace, ResultEntry } from "../../contracts/jobs.js";
import { decodeResult, type ResultMessage } from "../../contracts/messages.js";
import type { ReceivedBatch, ReceivedMessage } from "../../queues/queue.js";
import type { ObjectStore } from "../../storage/store.js";

export interface WriterPorts {
  store: ObjectStore;
  jobs: JobNamespace;
}

async function entryOf(store: ObjectStore, { header, line }: ResultMessage): Promise<ResultEntry> {
  let text = line;
  if (text === undefined && header.line_key) {
    const object = await store.get(header.line_key);
    if (!object) throw new Error(`payload ${header.line_key} is missing`);
    text = await object.text();
  }
  if (text === undefined) throw new Error(`result ${header.rollout_id} carries no record`);
  const { job_id: _job, line_key: _key, ...entry } = header;
  return { ...entry, line: text };
}

function decoded(message: ReceivedMessage): ResultMessage | undefined {
  if (typeof message.body !== "string") return undefined;
  try {
    return decodeResult(message.body);
  } catch {
    // Not a result message: retrying would not make it one (the caller acks it).
    return undefined;
  }
}

export async function handleResults(batch: ReceivedBatch, ports: WriterPorts): Promise<void> {
  const byJob = new Map<string, { message: ReceivedMessage; result: ResultMessage }[]>();
  for (const message of batch.messages) {
    const result = decoded(message);
    if (!result) {
      message.ack();
      continue;
    }
    const list = byJob.get(result.header.job_id) ?? [];
    list.push({ message, result });
    byJob.set(result.header.job_id, list);
  }
  for (const [jobId, items] of byJob) {
    try {
      const entries = await Promise.all(items.map((item) => entryOf(ports.store, item.result)));
      await ports.jobs.get(ports.jobs.idFromName(jobId)).record(entries);
      for (const item of items) item.message.ack();
    } catch {
      // Only this job's messages come back; the Job object's id set makes the second delivery harmless.
      for (const item of items) item.message.retry({ delaySeconds: Math.min(30, 2 ** item.message.attempts) });
    }
  }
}
