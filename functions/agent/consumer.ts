// The agent as the `rollouts` consumer: expands chunks, runs rollouts (bounded), acks or retries each message on its own.
import pLimit from "p-limit";
import { type ExpandMessage, type RolloutMessage, WorkMessage } from "../../contracts/messages.js";
import { QUEUES } from "../../contracts/names.js";
import { silentLog } from "../../http/log.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import { ENVELOPE_BYTES, fitsInBytes, type OutgoingMessage, type ReceivedBatch, type ReceivedMessage } from "../../queues/queue.js";
import { BatchWatch } from "./batch.js";
import { type ChunkReader, chunkReader } from "./chunks.js";
import { deadLetter } from "./dead-letter.js";
import { expandToRunners, type HandOver, handOff } from "./hand-off.js";
import type { AgentPorts } from "./ports.js";
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

/** A rollout message to its end: runs, in-batch reruns while the batch is busy anyway, then back to the queue if need be. */
async function settle(
  ports: AgentPorts,
  work: { message: ReceivedMessage; body: RolloutMessage },
  readChunk: ChunkReader,
  model: ModelChoice | undefined,
  slot: <T>(run: () => Promise<T>) => Promise<T>,
  watch: BatchWatch,
): Promise<void> {
  const { message, body } = work;
  // Tries on earlier messages (handed back from a batch), then earlier deliveries of this one.
  const base = (body.tries ?? 0) + message.attempts;
  /** Back to the queue after `runs` runs in this delivery; runs the queue did not see travel in a new message's `tries`. */
  const handBack = async (runs: number, delayMs: number): Promise<void> => {
    if (runs <= 1) return message.retry({ delaySeconds: delayMs / 1000 });
    try {
      await ports.rollouts.send({ ...body, tries: base + runs - 1 }, { delaySeconds: Math.ceil(delayMs / 1000) });
      message.ack();
    } catch (error) {
      // The new message could not be sent: the queue's own retry keeps the rollout (its count of runs a little low).
      (ports.log ?? silentLog).warn("a rollout could not be handed back as a new message; the queue retries it", { job_id: body.job_id, error });
      message.retry({ delaySeconds: delayMs / 1000 });
    }
  };
  for (let run = 0; ; run++) {
    const outcome = await slot(() => settleRollout(ports, body, base + run, readChunk, model));
    if (outcome.kind === "done") return message.ack();
    // Its result could not be sent: the rollout ran, so it is not run again here; the queue brings it back.
    if (outcome.unsent) return handBack(run + 1, outcome.delaySeconds * 1000);
    const { inBatch, left } = await watch.wait(outcome.delaySeconds * 1000);
    if (!inBatch) return handBack(run + 1, left);
  }
}

/** What a job's started() answered for this batch: its repeats and model choice, or null when it was cancelled. */
type Started = { numRepeats: number; model?: ModelChoice } | null;

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

  // One call per job per batch: report what starts, and learn whether the job was cancelled. A job whose call fails
  // has only its own messages retried; the batch's other jobs go on.
  const live = new Map<string, Started>();
  const work: Work[] = [];
  for (const [jobId, items] of byJob) {
    try {
      live.set(jobId, await ports.job(jobId).started(items.filter((w) => w.body.kind === "rollout").length));
      work.push(...items);
    } catch (error) {
      log.warn("the Job object did not answer started(); its messages are retried", { job_id: jobId, outcome: "retried", error });
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
  const watch = new BatchWatch();
  // Every message counts as work until it settles or waits: a retry waits only while something else still runs.
  const slot = async <T>(run: () => Promise<T>): Promise<T> => {
    watch.begin();
    try {
      return await limit(run);
    } finally {
      watch.end();
    }
  };
  await Promise.all([
    handOver.length ? handOff(ports, handOver) : Promise.resolve(),
    ...work
      .filter(({ message }) => !handed.has(message))
      .map(async ({ message, body }) => {
        const job = live.get(body.job_id);
        if (!job) return message.ack(); // cancelled: queued work is dropped, not run
        if (body.kind === "rollout") return settle(ports, { message, body }, readChunk, job.model, slot, watch);
        try {
          if (ports.runner) {
            // Straight into the runners, no message per rollout; the Job counts them as started once they are there.
            const started = await slot(() => expandToRunners(ports, body, job.numRepeats, readChunk, job.model));
            await ports.job(body.job_id).started(started);
          } else await slot(() => expand(ports, body, job.numRepeats, readChunk));
          message.ack();
        } catch (error) {
          // Expanding again is safe: rollout ids are deterministic, and the Job object writes each result once.
          log.warn("a chunk could not be expanded; retried", { job_id: body.job_id, outcome: "retried", chunk: body.chunk_key, error });
          message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
        }
      }),
  ]);
}
