// The agent as the `rollouts` consumer: expands chunks, runs rollouts (bounded), acks or retries each message on its own.
import { DatasetRow, ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import { EdgegymError } from "../../protocol/index.js";
import { MAX_INLINE_BYTES, type ResultMessage, WorkMessage, jobKeys, rolloutId, type ExpandMessage, type RolloutMessage } from "../../queues/messages.js";
import { cloudflareQueue } from "../../queues/cloudflare.js";
import type { OutgoingMessage } from "../../queues/queue.js";
import { QUEUES, type AgentEnv } from "../bindings.js";
import type { JobRpc } from "../writer/job-types.js";
import { executeRow, positiveInt } from "./execute.js";
import { RolloutFailure } from "./failure.js";
import { environmentFromAgentName } from "./resolve.js";
import { environmentNames } from "../bindings.js";

type Work = { message: Message<unknown>; body: WorkMessage };

function jobStub(env: AgentEnv, jobId: string): JobRpc {
  return env.JOBS.get(env.JOBS.idFromName(jobId)) as unknown as JobRpc;
}

async function readChunk(env: AgentEnv, key: string): Promise<Record<string, unknown>[]> {
  const object = await env.BUCKET.get(key);
  if (!object) throw new EdgegymError(502, "inputs_missing", `the job's inputs chunk ${key} is not in the bucket`);
  return (await object.text())
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A chunk of materialized rows becomes one rollout message per (row, repeat) still wanted. */
async function expand(env: AgentEnv, body: ExpandMessage, numRepeats: number): Promise<void> {
  const rows = await readChunk(env, body.chunk_key);
  const wanted = body.only ? new Set(body.only.map(([t, r]) => `${t}:${r}`)) : undefined;
  const messages: OutgoingMessage<RolloutMessage>[] = [];
  for (const row of rows) {
    const task = row[TASK_INDEX] as number;
    const inline = JSON.stringify(row).length <= MAX_INLINE_BYTES;
    for (let repeat = 0; repeat < numRepeats; repeat++) {
      if (wanted && !wanted.has(`${task}:${repeat}`)) continue;
      messages.push({
        body: {
          kind: "rollout",
          job_id: body.job_id,
          task_index: task,
          rollout_index: repeat,
          attempt: body.attempt,
          ...(inline ? { row } : { chunk_key: body.chunk_key }),
        },
      });
    }
  }
  await cloudflareQueue<RolloutMessage>(env.ROLLOUTS as Queue<RolloutMessage>).sendBatch(messages);
}

async function sendResult(env: AgentEnv, result: ResultMessage, record: Record<string, unknown>): Promise<void> {
  const text = JSON.stringify(record);
  // A rollout with token ids can pass a queue message's 128 KB: it travels through the bucket, the message carries the key.
  if (text.length > MAX_INLINE_BYTES) {
    const key = jobKeys.payload(result.job_id, result.rollout_id);
    await env.BUCKET.put(key, text);
    await env.RESULTS.send({ ...result, record_key: key }, { contentType: "json" });
  } else {
    await env.RESULTS.send({ ...result, record }, { contentType: "json" });
  }
}

function retryDelay(env: AgentEnv, attempts: number): number {
  // Exponential backoff with jitter, capped at a minute: base × 2, 4, 8… seconds (base 1 unless RETRY_BASE_SECONDS says).
  const base = env.RETRY_BASE_SECONDS === undefined ? 1 : Number(env.RETRY_BASE_SECONDS);
  return Math.min(60, base * 2 ** attempts) * (0.75 + Math.random() * 0.5);
}

async function runOne(env: AgentEnv, message: Message<unknown>, body: RolloutMessage): Promise<void> {
  const id = rolloutId(body.job_id, body.task_index, body.rollout_index);
  let row = body.row;
  if (!row && body.chunk_key) row = (await readChunk(env, body.chunk_key)).find((r) => r[TASK_INDEX] === body.task_index);
  const materialized = { ...row, [TASK_INDEX]: body.task_index, [ROLLOUT_INDEX]: body.rollout_index, [ROLLOUT_ID]: id };
  const agentName = (row?.agent_ref as { name?: string } | undefined)?.name;
  const environment = (agentName && environmentFromAgentName(agentName, environmentNames(env.ENVIRONMENTS))) || agentName || "unknown";
  const base = { job_id: body.job_id, rollout_id: id, task_index: body.task_index, rollout_index: body.rollout_index, environment };
  const maxAttempts = positiveInt(env.MAX_ATTEMPTS, 3, "MAX_ATTEMPTS");
  try {
    const parsed = DatasetRow.safeParse(materialized);
    if (!parsed.success) throw new RolloutFailure("invalid_row", `row ${body.task_index} is not a dataset row: ${parsed.error.message}`);
    const { record, environment: resolved } = await executeRow(env, parsed.data);
    // A verifier's own failure (NeMo Gym's judge_failed) is a failure record: out of the metrics, retried on resume.
    const failureClass = record._ng_failure_class;
    if (typeof failureClass === "string") {
      const failure = { ...record, failure_class: failureClass, message: String(record._ng_failure_judge_error ?? failureClass), attempts: message.attempts };
      await sendResult(env, { ...base, environment: resolved, kind: "failure" }, failure);
    } else {
      await sendResult(env, { ...base, environment: resolved, kind: "rollout" }, record);
    }
    message.ack();
  } catch (error) {
    const failure = error instanceof EdgegymError ? error : new EdgegymError(500, "internal_error", error instanceof Error ? error.message : String(error));
    // A 4xx is the row's fault and will not change on a retry; anything else may.
    const retryable = failure.status >= 500;
    if (retryable && message.attempts < maxAttempts) {
      message.retry({ delaySeconds: retryDelay(env, message.attempts) });
      return;
    }
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
    };
    await sendResult(env, { ...base, kind: "failure" }, record);
    message.ack();
  }
}

/** A message the runtime gave up on after its retries: it still becomes a failure record, so its job completes. */
async function deadLetter(env: AgentEnv, message: Message<unknown>): Promise<void> {
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
    };
    await sendResult(
      env,
      { job_id: body.job_id, rollout_id: id, task_index: body.task_index, rollout_index: body.rollout_index, environment: "unknown", kind: "failure" },
      record,
    );
  }
  message.ack();
}

async function pool(items: Work[], limit: number, work: (item: Work) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function handleWork(batch: MessageBatch<unknown>, env: AgentEnv): Promise<void> {
  if (batch.queue === QUEUES.rolloutsDlq) {
    for (const message of batch.messages) await deadLetter(env, message);
    return;
  }
  const work: Work[] = [];
  for (const message of batch.messages) {
    const parsed = WorkMessage.safeParse(message.body);
    // A message that is not ours will never become one: drop it rather than poison the queue.
    if (!parsed.success) message.ack();
    else work.push({ message, body: parsed.data });
  }

  // One call per job per batch: report what starts, and learn whether the job was cancelled.
  const live = new Map<string, { ok: boolean; repeats: number }>();
  for (const jobId of new Set(work.map((w) => w.body.job_id))) {
    const job = await jobStub(env, jobId).started(work.filter((w) => w.body.job_id === jobId && w.body.kind === "rollout").length);
    live.set(jobId, { ok: job !== null, repeats: job?.numRepeats ?? 0 });
  }

  await pool(work, positiveInt(env.BATCH_CONCURRENCY, 32, "BATCH_CONCURRENCY"), async ({ message, body }) => {
    const job = live.get(body.job_id)!;
    if (!job.ok) return message.ack(); // cancelled: queued work is dropped, not run
    if (body.kind === "expand") {
      try {
        await expand(env, body, job.repeats);
        message.ack();
      } catch {
        message.retry({ delaySeconds: retryDelay(env, message.attempts) });
      }
      return;
    }
    await runOne(env, message, body);
  });
}
