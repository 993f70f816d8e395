// The writer as the `results` consumer: each job's results go to its Job object, which writes them exactly once.
import { ResultMessage, type ResultMessage as Result } from "../../queues/messages.js";
import type { WriterEnv } from "../bindings.js";
import type { JobRpc, ResultEntry } from "./job-types.js";
import { summarize } from "./summary.js";

async function entryOf(env: WriterEnv, result: Result): Promise<ResultEntry> {
  let record = result.record;
  if (!record && result.record_key) {
    const object = await env.BUCKET.get(result.record_key);
    if (!object) throw new Error(`payload ${result.record_key} is missing`);
    record = await object.json();
  }
  if (!record) throw new Error(`result ${result.rollout_id} carries no record`);
  return {
    rollout_id: result.rollout_id,
    kind: result.kind,
    task_index: result.task_index,
    rollout_index: result.rollout_index,
    environment: result.environment,
    line: JSON.stringify(record),
    summary: result.kind === "rollout" ? summarize(record) : {},
  };
}

export async function handleResults(batch: MessageBatch<unknown>, env: WriterEnv): Promise<void> {
  const byJob = new Map<string, { message: Message<unknown>; result: Result }[]>();
  for (const message of batch.messages) {
    const parsed = ResultMessage.safeParse(message.body);
    if (!parsed.success) {
      message.ack(); // not a result message: retrying would not make it one
      continue;
    }
    const list = byJob.get(parsed.data.job_id) ?? [];
    list.push({ message, result: parsed.data });
    byJob.set(parsed.data.job_id, list);
  }
  for (const [jobId, items] of byJob) {
    try {
      const entries = await Promise.all(items.map((item) => entryOf(env, item.result)));
      const job = env.JOBS.get(env.JOBS.idFromName(jobId)) as unknown as JobRpc;
      await job.record(entries);
      for (const item of items) item.message.ack();
    } catch {
      // Only this job's messages come back; the Job object's id set makes the second delivery harmless.
      for (const item of items) item.message.retry({ delaySeconds: Math.min(30, 2 ** item.message.attempts) });
    }
  }
}
