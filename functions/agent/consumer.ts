// The agent as the `rollouts` consumer: expands chunks, runs rollouts (bounded), acks or retries each message on its own.
import pLimit from "p-limit";
import { type ExpandMessage, type RolloutMessage, rolloutId, WorkMessage } from "../../contracts/messages.js";
import { QUEUES } from "../../contracts/names.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import { NG_FAILURE_CLASS, ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import { ENVELOPE_BYTES, fitsInBytes, type OutgoingMessage, type ReceivedBatch, type ReceivedMessage } from "../../queues/queue.js";
import { type ChunkReader, chunkReader } from "./chunks.js";
import { expandToRunners, type HandOver, handOff } from "./hand-off.js";
import type { AgentPorts } from "./ports.js";
import { sendResult } from "./results.js";
import { retryDelay, settleRollout } from "./settle.js";

type Work = { message: ReceivedMessage; body: WorkMessage };
/** A chunk of materialized rows becomes one rollout message per (row, repeat) still wanted. */
async function expand(ports: AgentPorts, body: ExpandMessage, numRepeats: number, readChunk: ChunkReader): Promise<void> {
  const chunk = await readChunk(body.chunk_key);
  const wanted = body.only ? new Set(body.only.map(([t, r]) => `${t}:${r}`)) : undefined;
  // A row travels inline when its message fits; else the message names the chunk that holds it.
  const room = ports.rollouts.limits.maxMessageBytes - ENVELOPE_BYTES - 512;
  const messages: OutgoingMessage<RolloutMessage>[] = [];
  for (const [task, { row, line }] of chunk) {
    const inline = fitsInBytes(line, room);
    for (let repeat = 0; repeat < numRepeats; repeat++) {
      if (wanted && !wanted.has(`${task}:${repeat}`)) continue;
      const message: RolloutMessage = { kind: "rollout", job_id: body.job_id, task_index: task, rollout_index: repeat, attempt: body.attempt };
      messages.push({ body: inline ? { ...message, row } : { ...message, chunk_key: body.chunk_key } });
    }
  }
  await ports.rollouts.sendBatch(messages);
}

async function runOne(
  ports: AgentPorts,
  message: ReceivedMessage,
  body: RolloutMessage,
  readChunk: ChunkReader,
  model: ModelChoice | undefined,
): Promise<void> {
  const settled = await settleRollout(ports, body, message.attempts, readChunk, model);
  if (settled.kind === "retry") message.retry({ delaySeconds: settled.delaySeconds });
  else message.ack();
}

/** A message the runtime gave up on after its retries: it still becomes a failure record, so its job completes. */
async function deadLetter(ports: AgentPorts, message: ReceivedMessage): Promise<void> {
  const parsed = WorkMessage.safeParse(message.body);
  if (parsed.success && parsed.data.kind === "rollout") {
    const body = parsed.data;
    const id = rolloutId(body.job_id, body.task_index, body.rollout_index);
    const record = {
      [TASK_INDEX]: body.task_index,
      [ROLLOUT_INDEX]: body.rollout_index,
      [ROLLOUT_ID]: id,
      failure_class: "dead_letter",
      message: "the rollout message exhausted its deliveries without an answer",
      attempt: body.attempt,
      // Retried on resume, as NeMo Gym retries a transient failure.
      [NG_FAILURE_CLASS]: "transient",
    };
    const base = { job_id: body.job_id, rollout_id: id, task_index: body.task_index, rollout_index: body.rollout_index, environment: "unknown" };
    await sendResult(ports, { ...base, kind: "failure" }, record);
  }
  message.ack();
}

/** What a job's started() answered for this batch: its repeats and model choice, or null when it was cancelled. */
type Started = { numRepeats: number; model?: ModelChoice } | null;

export async function handleWork(batch: ReceivedBatch, ports: AgentPorts): Promise<void> {
  if (batch.queue === QUEUES.rolloutsDlq) {
    for (const message of batch.messages) await deadLetter(ports, message);
    return;
  }
  const byJob = new Map<string, Work[]>();
  for (const message of batch.messages) {
    const parsed = WorkMessage.safeParse(message.body);
    // A message that is not ours will never become one: drop it rather than poison the queue.
    if (!parsed.success) {
      message.ack();
      continue;
    }
    const list = byJob.get(parsed.data.job_id) ?? [];
    list.push({ message, body: parsed.data });
    byJob.set(parsed.data.job_id, list);
  }

  // One call per job per batch: report what starts, and learn whether the job was cancelled. A job whose call fails
  // has only its own messages retried; the batch's other jobs go on.
  const live = new Map<string, Started>();
  const work: Work[] = [];
  for (const [jobId, items] of byJob) {
    try {
      live.set(jobId, await ports.job(jobId).started(items.filter((w) => w.body.kind === "rollout").length));
      work.push(...items);
    } catch {
      // The Job object did not answer: its messages come back later, and nothing of theirs has run yet.
      for (const { message } of items) message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
    }
  }

  const readChunk = chunkReader(ports);
  // With rollout runners, a batch's rollouts are handed over (stored there, then acked) and run beside other batches'.
  const handOver: HandOver[] = [];
  if (ports.runner) {
    for (const { message, body } of work) {
      const job = live.get(body.job_id);
      if (job && body.kind === "rollout") handOver.push({ message, body, ...(job.model ? { model: job.model } : {}) });
    }
  }
  const handed = new Set(handOver.map((h) => h.message));
  // Into runners, chunks expand one at a time: each waits for room, so memory holds a chunk's rollouts, not a whole job's.
  const limit = pLimit(ports.runner ? 1 : ports.config.BATCH_CONCURRENCY);
  await Promise.all([
    handOver.length ? handOff(ports, handOver) : Promise.resolve(),
    ...work
      .filter(({ message }) => !handed.has(message))
      .map(({ message, body }) =>
        limit(async () => {
          const job = live.get(body.job_id);
          if (!job) return message.ack(); // cancelled: queued work is dropped, not run
          if (body.kind === "rollout") return runOne(ports, message, body, readChunk, job.model);
          try {
            if (ports.runner) {
              // Straight into the runners, no message per rollout; the Job counts them as started once they are there.
              const started = await expandToRunners(ports, body, job.numRepeats, readChunk, job.model);
              await ports.job(body.job_id).started(started);
            } else await expand(ports, body, job.numRepeats, readChunk);
            message.ack();
          } catch {
            // Expanding again is safe: rollout ids are deterministic, and the Job object writes each result once.
            message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
          }
        }),
      ),
  ]);
}
