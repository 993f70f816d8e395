// The agent as the `rollouts` consumer: one call per job to its Job object, then expand → schedule (in the batch or in the
// rollout runners, functions/agent/scheduler.ts); each message is acked or retried on its own.
import { type ExpandMessage, WorkMessage } from "../../contracts/messages.js";
import { QUEUES } from "../../contracts/names.js";
import type { JobWanted } from "../../contracts/jobs.js";
import { silentLog } from "../../http/log.js";
import type { ReceivedBatch, ReceivedMessage } from "../../queues/queue.js";
import { type ChunkReader, chunkReader } from "./chunks.js";
import { deadLetter } from "./dead-letter.js";
import { expandChunk } from "./expand.js";
import { runnerScheduler } from "./hand-off.js";
import { inBatchScheduler } from "./in-batch.js";
import type { AgentPorts } from "./ports.js";
import type { QueuedRollout, Scheduler } from "./scheduler.js";
import { retryDelay } from "./settle.js";

type Work = { message: ReceivedMessage; body: WorkMessage };

/** The runners when the agent has them (`ports.runner`), else the batch itself. */
function schedulerFor(ports: AgentPorts, readChunk: ChunkReader): Scheduler {
  return ports.runner ? runnerScheduler(ports, ports.runner) : inBatchScheduler(ports, readChunk);
}

/** An expand message's rollouts into the scheduler; the message is acked once they are all taken over, else retried. */
async function expand(
  ports: AgentPorts,
  scheduler: Scheduler,
  work: { message: ReceivedMessage; body: ExpandMessage },
  job: JobWanted,
  readChunk: ChunkReader,
): Promise<void> {
  const { message, body } = work;
  try {
    await scheduler.take(body.job_id, job.model, () => expandChunk(ports, body, job.numRepeats, readChunk));
    message.ack();
  } catch (error) {
    // Expanding again is safe: rollout ids are deterministic, and the Job object writes each result once.
    (ports.log ?? silentLog).warn("a chunk could not be expanded; retried", { job_id: body.job_id, outcome: "retried", chunk: body.chunk_key, error });
    message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
  }
}

export async function handleWork(batch: ReceivedBatch, ports: AgentPorts): Promise<void> {
  if (batch.queue === QUEUES.rolloutsDlq) {
    for (const message of batch.messages) await deadLetter(ports, message);
    return;
  }
  const log = ports.log ?? silentLog;
  const byJob = new Map<string, Work[]>();
  for (const message of batch.messages) {
    const parsed = WorkMessage.safeParse(message.body);
    // A message that is not ours will never become one: drop it (logged) rather than poison the queue.
    if (!parsed.success) {
      log.error("a rollouts message that is not a work message was dropped", { outcome: "dropped", message_id: message.id });
      message.ack();
      continue;
    }
    const list = byJob.get(parsed.data.job_id) ?? [];
    list.push({ message, body: parsed.data });
    byJob.set(parsed.data.job_id, list);
  }

  const readChunk = chunkReader(ports);
  const scheduler = schedulerFor(ports, readChunk);
  const rollouts: QueuedRollout[] = [];
  const expansions: { message: ReceivedMessage; body: ExpandMessage; job: JobWanted }[] = [];
  // One call per job per batch: report the rollouts that start (started) or, with none, only ask (wanted), and learn
  // whether the job was cancelled. A job whose call fails has only its own messages retried; the batch's other jobs go on.
  for (const [jobId, items] of byJob) {
    const starting = items.filter((w) => w.body.kind === "rollout").length;
    let job: JobWanted | null;
    try {
      job = await (starting > 0 ? ports.job(jobId).started(starting) : ports.job(jobId).wanted());
    } catch (error) {
      log.warn(`the Job object did not answer ${starting > 0 ? "started()" : "wanted()"}; its messages are retried`, {
        job_id: jobId,
        outcome: "retried",
        error,
      });
      for (const { message } of items) message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
      continue;
    }
    for (const { message, body } of items) {
      if (!job)
        message.ack(); // cancelled: queued work is dropped, not run
      else if (body.kind === "rollout") rollouts.push({ message, body, ...(job.model ? { model: job.model } : {}) });
      else expansions.push({ message, body, job });
    }
  }
  await Promise.all([scheduler.run(rollouts), ...expansions.map(({ job, ...work }) => expand(ports, scheduler, work, job, readChunk))]);
}
