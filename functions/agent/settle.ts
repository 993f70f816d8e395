// One rollout message to its end: a scored record or a failure record on the `results` queue, or "try again later".
// The queue consumer acks or retries the message by what this answers; the rollout runner keeps or re-runs its item.
import { type RolloutMessage, rolloutId } from "../../contracts/messages.js";
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
import type { ChunkReader } from "./chunks.js";
import { executeRow } from "./execute.js";
import type { AgentPorts } from "./ports.js";
import { type ResultBase, sendResult } from "./results.js";

export type Settled = { kind: "done" } | { kind: "retry"; delaySeconds: number };

/** Sends of one result, the first included, before the rollout itself is given up to a retry (which runs it again). */
const SEND_TRIES = 3;

/** A finished rollout's result is sent again on a transient queue error: running the rollout again would cost its model calls. */
async function sendSettled(ports: AgentPorts, base: ResultBase, record: Record<string, unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sendResult(ports, base, record);
    } catch (error) {
      if (attempt >= SEND_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * 4 ** (attempt - 1)));
    }
  }
}

export function retryDelay(ports: Pick<AgentPorts, "config">, attempts: number): number {
  // Exponential backoff with jitter, capped at a minute: base × 2, 4, 8… seconds.
  return Math.min(60, ports.config.RETRY_BASE_SECONDS * 2 ** attempts) * (0.75 + Math.random() * 0.5);
}

/** Runs the rollout of a message delivered for the `attempts`-th time; its result or failure record is sent before this answers. */
export async function settleRollout(
  ports: AgentPorts,
  body: RolloutMessage,
  attempts: number,
  readChunk: ChunkReader,
  model: ModelChoice | undefined,
): Promise<Settled> {
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
      const failure = { ...record, failure_class: failureClass, message: String(record._ng_failure_judge_error ?? failureClass), attempts };
      await sendSettled(ports, { ...base, environment, kind: "failure" }, failure);
    } else {
      await sendSettled(ports, { ...base, environment, kind: "rollout" }, record);
    }
    return { kind: "done" };
  } catch (error) {
    const failure = error instanceof EdgegymError ? error : new EdgegymError(500, "internal_error", error instanceof Error ? error.message : String(error));
    // A 4xx is the row's fault and will not change on a retry; anything else may.
    if (failure.status >= 500 && attempts < ports.config.MAX_ATTEMPTS) return { kind: "retry", delaySeconds: retryDelay(ports, attempts) };
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
      attempts,
      attempt: body.attempt,
      // NeMo Gym's routing fields, so its tools read an edgegym failure as one of their own.
      [NG_FAILURE_CLASS]: failureClass,
      ...(terminal ? { [NG_FAILURE_TERMINAL]: true } : {}),
    };
    try {
      await sendSettled(ports, { ...base, environment, kind: "failure" }, record);
      return { kind: "done" };
    } catch {
      // The failure record could not be sent either: the rollout comes back, and its next run tries again.
      return { kind: "retry", delaySeconds: retryDelay(ports, attempts) };
    }
  }
}
