// The writer as the `results` consumer: each job's results go to its Job object, which writes them exactly once; and as the
// results dead-letter consumer: a result whose write kept failing becomes a dead_letter failure, so its job still completes.
import type { JobRpc, ResultEntry } from "../../contracts/jobs.js";
import { decodeResult, type ResultMessage } from "../../contracts/messages.js";
import { QUEUES } from "../../contracts/names.js";
import type { Logger } from "../../http/log.js";
import type { ReceivedBatch, ReceivedMessage } from "../../queues/queue.js";
import type { ObjectStore } from "../../storage/store.js";
import type { WriterPorts } from "./ports.js";

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

function decoded(message: ReceivedMessage, log: Logger | undefined): ResultMessage | undefined {
  if (typeof message.body !== "string") {
    log?.error("a results message that is not text was dropped", { outcome: "dropped", message_id: message.id });
    return undefined;
  }
  try {
    return decodeResult(message.body);
  } catch (error) {
    // Not a result message: retrying would not make it one (the caller acks it), so it is logged and dropped.
    log?.error("a results message that is not a result was dropped", { outcome: "dropped", message_id: message.id, error });
    return undefined;
  }
}

const retryDelay = (ports: WriterPorts, message: ReceivedMessage) => Math.min(30, ports.config.RETRY_BASE_SECONDS * 2 ** message.attempts);

function byJob(batch: ReceivedBatch, log: Logger | undefined): Map<string, { message: ReceivedMessage; result: ResultMessage }[]> {
  const jobs = new Map<string, { message: ReceivedMessage; result: ResultMessage }[]>();
  for (const message of batch.messages) {
    const result = decoded(message, log);
    if (!result) {
      message.ack();
      continue;
    }
    const list = jobs.get(result.header.job_id) ?? [];
    list.push({ message, result });
    jobs.set(result.header.job_id, list);
  }
  return jobs;
}

export async function handleResults(batch: ReceivedBatch, ports: WriterPorts): Promise<void> {
  const job = ports.job;
  if (batch.queue === QUEUES.resultsDlq) return handleDeadResults(batch, ports, job);
  for (const [jobId, items] of byJob(batch, ports.log)) {
    const started = Date.now();
    // A result whose payload cannot be read comes back alone: its neighbours are not held hostage by it.
    const read = await Promise.allSettled(items.map((item) => entryOf(ports.store, item.result)));
    const ready = items.filter((_, i) => read[i]!.status === "fulfilled");
    read.forEach((outcome, i) => {
      if (outcome.status === "fulfilled") return;
      const item = items[i]!;
      ports.log.warn("a result's payload could not be read; retried", { job_id: jobId, rollout_id: item.result.header.rollout_id, error: outcome.reason });
      item.message.retry({ delaySeconds: retryDelay(ports, item.message) });
    });
    if (ready.length === 0) continue;
    try {
      const entries = read.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
      const { written, duplicates } = await job(jobId).record(entries);
      for (const item of ready) item.message.ack();
      ports.log.debug("results recorded", { job_id: jobId, outcome: "ok", written, duplicates, duration_ms: Date.now() - started });
    } catch (error) {
      // Only this job's messages come back; the Job object's id set makes the second delivery harmless.
      ports.log.warn("results could not be recorded; retried", { job_id: jobId, outcome: "retried", count: ready.length, error });
      for (const item of ready) item.message.retry({ delaySeconds: retryDelay(ports, item.message) });
    }
  }
}

/** Each dead-lettered result is recorded as a dead_letter failure of its rollout (nothing, if the rollout has a record already). */
async function handleDeadResults(batch: ReceivedBatch, ports: WriterPorts, job: (id: string) => Pick<JobRpc, "abandon">): Promise<void> {
  for (const [jobId, items] of byJob(batch, ports.log)) {
    const pairs = items.map(({ result }): [number, number] => [result.header.task_index, result.header.rollout_index]);
    try {
      const { written } = await job(jobId).abandon(
        { pairs },
        { failure_class: "dead_letter", message: "the rollout's result could not be written after every delivery of its message" },
      );
      for (const item of items) item.message.ack();
      ports.log.error("dead-lettered results recorded as dead_letter failures", { job_id: jobId, outcome: "dead_letter", count: items.length, written });
    } catch (error) {
      ports.log.error("dead-lettered results could not be recorded; retried", { job_id: jobId, outcome: "retried", count: items.length, error });
      for (const item of items) item.message.retry({ delaySeconds: retryDelay(ports, item.message) });
    }
  }
}
