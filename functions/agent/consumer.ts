// The agent as the `rollouts` consumer: expands chunks, runs rollouts (bounded), acks or retries each message on its own.
import pLimit from "p-limit";
import { failureRecord } from "../../contracts/failures.js";
import { type ExpandMessage, type RolloutMessage, rolloutId, WorkMessage } from "../../contracts/messages.js";
import { QUEUES } from "../../contracts/names.js";
import { silentLog } from "../../http/log.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import { type DatasetRow, EdgegymError, environmentFromAgentName, ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import { ENVELOPE_BYTES, fitsInBytes, type OutgoingMessage, type ReceivedBatch, type ReceivedMessage } from "../../queues/queue.js";
import { BatchWatch } from "./batch.js";
import { deadLetter } from "./dead-letter.js";
import { executeRow } from "./execute.js";
import type { AgentPorts } from "./ports.js";
import { sendResult } from "./results.js";

type Work = { message: ReceivedMessage; body: WorkMessage };
/** A chunk's rows by task index, with each row's JSON line as stored (to size messages without serializing again). */
type Chunk = Map<number, { row: DatasetRow; line: string }>;

/** Reads each inputs chunk once per batch, however many of the batch's rollouts need it. */
function chunkReader(ports: AgentPorts): (key: string) => Promise<Chunk> {
  const reads = new Map<string, Promise<Chunk>>();
  return (key) => {
    let read = reads.get(key);
    if (!read) {
      read = (async () => {
        const object = await ports.store.get(key);
        if (!object) throw new EdgegymError(502, "inputs_missing", `the job's inputs chunk ${key} is not in the bucket`);
        const chunk: Chunk = new Map();
        for (const line of (await object.text()).split("\n")) {
          if (!line) continue;
          // Rows stored by the gateway after it checked them: read back as they were written.
          const row = JSON.parse(line) as DatasetRow;
          chunk.set(row[TASK_INDEX] as number, { row, line });
        }
        return chunk;
      })();
      // A failed read is not kept: the next message that needs the chunk tries again (the caller sees the error).
      read.catch(() => reads.delete(key));
      reads.set(key, read);
    }
    return read;
  };
}

/** A chunk of materialized rows becomes one rollout message per (row, repeat) still wanted. */
async function expand(ports: AgentPorts, body: ExpandMessage, numRepeats: number, readChunk: (key: string) => Promise<Chunk>): Promise<void> {
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

export function retryDelay(ports: AgentPorts, attempts: number): number {
  // Exponential backoff with jitter, capped at a minute: base × 2, 4, 8… seconds.
  return Math.min(60, ports.config.RETRY_BASE_SECONDS * 2 ** attempts) * (0.75 + Math.random() * 0.5);
}

/** How a run of one rollout message ended: answered (a record or failure sent, the message acked), or to run again. */
type RunOutcome = { kind: "settled" } | { kind: "again"; delaySeconds: number };

/**
 * One run of a rollout, with the job's model choice. `attempts` counts this run with every earlier one (other deliveries,
 * runs in this batch). A retryable failure with attempts to spare asks to run again; the caller decides where (this batch,
 * or the queue).
 */
async function runOne(
  ports: AgentPorts,
  body: RolloutMessage,
  readChunk: (key: string) => Promise<Chunk>,
  attempts: number,
  model: ModelChoice | undefined,
): Promise<RunOutcome> {
  const log = ports.log ?? silentLog;
  const started = Date.now();
  const id = rolloutId(body.job_id, body.task_index, body.rollout_index);
  const base = { job_id: body.job_id, rollout_id: id, task_index: body.task_index, rollout_index: body.rollout_index };
  let row = body.row;
  try {
    if (!row && body.chunk_key) row = (await readChunk(body.chunk_key)).get(body.task_index)?.row;
    if (!row) throw new EdgegymError(400, "invalid_row", `row ${body.task_index} is in neither the message nor its chunk`);
    // The row was checked against the protocol when the job accepted it: it is not parsed again here.
    const materialized: DatasetRow = { ...row, [TASK_INDEX]: body.task_index, [ROLLOUT_INDEX]: body.rollout_index, [ROLLOUT_ID]: id };
    const { record, environment } = await executeRow(ports, materialized, model ?? {});
    // A verifier's own failure (NeMo Gym's judge_failed) is a failure record: out of the metrics, retried on resume.
    const judged = record._ng_failure_class;
    if (typeof judged === "string") {
      const message = String(record._ng_failure_judge_error ?? judged);
      const fields = { ...base, environment, code: judged, message, attempts, attempt: body.attempt, agent_ref: record.agent_ref };
      await sendResult(ports, { ...base, environment, kind: "failure" }, failureRecord(fields, record));
      log.info("rollout failed", { ...base, environment, outcome: judged, attempts, duration_ms: Date.now() - started });
    } else {
      await sendResult(ports, { ...base, environment, kind: "rollout" }, record);
      log.info("rollout done", { ...base, environment, outcome: "ok", reward: record.reward, attempts, duration_ms: Date.now() - started });
    }
    return { kind: "settled" };
  } catch (error) {
    const failure = error instanceof EdgegymError ? error : new EdgegymError(500, "internal_error", error instanceof Error ? error.message : String(error));
    const agentName = (row?.agent_ref as { name?: string } | undefined)?.name;
    const environment = (agentName && environmentFromAgentName(agentName, ports.environments)) || agentName || "unknown";
    const fields = { ...base, environment, attempts, duration_ms: Date.now() - started, error: failure.message };
    // A 4xx is the row's fault and will not change on a retry; anything else may.
    if (failure.status >= 500 && attempts < ports.config.MAX_ATTEMPTS) {
      log.warn("rollout failed; it runs again", { ...fields, outcome: "retried", code: failure.code });
      return { kind: "again", delaySeconds: retryDelay(ports, attempts) };
    }
    const record = failureRecord({
      ...base,
      environment,
      code: failure.code,
      message: failure.message,
      status: failure.status,
      attempts,
      attempt: body.attempt,
      agent_ref: row?.agent_ref,
    });
    log.warn("rollout failed", { ...fields, outcome: String(record.failure_class), code: failure.code });
    // If even the failure record cannot be sent, the caller retries the message: its next delivery tries again.
    await sendResult(ports, { ...base, environment, kind: "failure" }, record);
    return { kind: "settled" };
  }
}

/** A rollout message to its end: runs, in-batch reruns while the batch is busy anyway, then back to the queue if need be. */
async function settle(
  ports: AgentPorts,
  work: { message: ReceivedMessage; body: RolloutMessage },
  readChunk: (key: string) => Promise<Chunk>,
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
    let outcome: RunOutcome;
    try {
      outcome = await slot(() => runOne(ports, body, readChunk, base + run, model));
    } catch (error) {
      // Its result (or failure record) could not be sent: the rollout ran, so it is not run again here; the queue brings it back.
      (ports.log ?? silentLog).warn("a rollout's result could not be sent; the message goes back to the queue", { job_id: body.job_id, error });
      return handBack(run + 1, retryDelay(ports, base + run) * 1000);
    }
    if (outcome.kind === "settled") return message.ack();
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
  const limit = pLimit(ports.config.BATCH_CONCURRENCY);
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
  await Promise.all(
    work.map(async ({ message, body }) => {
      const job = live.get(body.job_id);
      if (!job) return message.ack(); // cancelled: queued work is dropped, not run
      if (body.kind === "rollout") return settle(ports, { message, body }, readChunk, job.model, slot, watch);
      try {
        await slot(() => expand(ports, body, job.numRepeats, readChunk));
        message.ack();
      } catch (error) {
        // Expanding again is safe: rollout ids are deterministic, and the Job object writes each result once.
        log.warn("a chunk could not be expanded; retried", { job_id: body.job_id, outcome: "retried", chunk: body.chunk_key, error });
        message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
      }
    }),
  );
}
