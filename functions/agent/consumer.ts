// The agent as the `rollouts` consumer: expands chunks, runs rollouts (bounded), acks or retries each message on its own.
import pLimit from "p-limit";
import { type ExpandMessage, type RolloutMessage, rolloutId, WorkMessage } from "../../contracts/messages.js";
import { QUEUES } from "../../contracts/names.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import {
  type DatasetRow,
  EdgegymError,
  environmentFromAgentName,
  NG_FAILURE_CLASS,
  NG_FAILURE_TERMINAL,
  nemoGymFailure,
  ROLLOUT_ID,
  ROLLOUT_INDEX,
  TASK_INDEX,
} from "../../protocol/index.js";
import { ENVELOPE_BYTES, fitsInBytes, type OutgoingMessage, type ReceivedBatch, type ReceivedMessage } from "../../queues/queue.js";
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
      // A failed read is not kept: the next message that needs the chunk tries again.
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

function retryDelay(ports: AgentPorts, attempts: number): number {
  // Exponential backoff with jitter, capped at a minute: base × 2, 4, 8… seconds.
  return Math.min(60, ports.config.RETRY_BASE_SECONDS * 2 ** attempts) * (0.75 + Math.random() * 0.5);
}

async function runOne(
  ports: AgentPorts,
  message: ReceivedMessage,
  body: RolloutMessage,
  readChunk: (key: string) => Promise<Chunk>,
  model: ModelChoice | undefined,
): Promise<void> {
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
    const failureClass = record._ng_failure_class;
    if (typeof failureClass === "string") {
      const failure = { ...record, failure_class: failureClass, message: String(record._ng_failure_judge_error ?? failureClass), attempts: message.attempts };
      await sendResult(ports, { ...base, environment, kind: "failure" }, failure);
    } else {
      await sendResult(ports, { ...base, environment, kind: "rollout" }, record);
    }
    message.ack();
  } catch (error) {
    const failure = error instanceof EdgegymError ? error : new EdgegymError(500, "internal_error", error instanceof Error ? error.message : String(error));
    // A 4xx is the row's fault and will not change on a retry; anything else may.
    if (failure.status >= 500 && message.attempts < ports.config.MAX_ATTEMPTS) {
      message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
      return;
    }
    const agentName = (row?.agent_ref as { name?: string } | undefined)?.name;
    const environment = (agentName && environmentFromAgentName(agentName, ports.environments)) || agentName || "unknown";
    const { failureClass, terminal } = nemoGymFailure(failure.status, failure.code);
    const record = {
      [TASK_INDEX]: body.task_index,
      [ROLLOUT_INDEX]: body.rollout_index,
      [ROLLOUT_ID]: id,
      agent_ref: row?.agent_ref ?? null,
      environment,
      failure_class: failure.code,
      message: failure.message,
      attempts: message.attempts,
      attempt: body.attempt,
      // NeMo Gym's routing fields, so its tools read an edgegym failure as one of their own.
      [NG_FAILURE_CLASS]: failureClass,
      ...(terminal ? { [NG_FAILURE_TERMINAL]: true } : {}),
    };
    try {
      await sendResult(ports, { ...base, environment, kind: "failure" }, record);
      message.ack();
    } catch {
      // The failure record could not be sent either: the message comes back, and its next delivery tries again.
      message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
    }
  }
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
  const limit = pLimit(ports.config.BATCH_CONCURRENCY);
  await Promise.all(
    work.map(({ message, body }) =>
      limit(async () => {
        const job = live.get(body.job_id);
        if (!job) return message.ack(); // cancelled: queued work is dropped, not run
        if (body.kind === "rollout") return runOne(ports, message, body, readChunk, job.model);
        try {
          await expand(ports, body, job.numRepeats, readChunk);
          message.ack();
        } catch {
          // Expanding again is safe: rollout ids are deterministic, and the Job object writes each result once.
          message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
        }
      }),
    ),
  );
}
