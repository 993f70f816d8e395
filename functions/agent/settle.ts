// One rollout message to its end: a scored record or a failure record on the `results` queue, or "run it again later".
// The queue consumer acks, reruns or hands back the message by what this answers; the rollout runner keeps or re-runs its item.
import { failureRecord } from "../../contracts/failures.js";
import { type RolloutMessage, rolloutId } from "../../contracts/messages.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import { silentLog } from "../../http/log.js";
import { type DatasetRow, EdgegymError, environmentFromAgentName, ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import type { ChunkReader } from "./chunks.js";
import { executeRow } from "./execute.js";
import type { AgentPorts } from "./ports.js";
import { type ResultBase, sendResult } from "./results.js";

/**
 * `done`: a record or failure record was sent. `retry`: a retryable failure with attempts to spare, to run again after the
 * delay; `unsent` when the rollout did run but its result (or failure record) could not be sent: not to be rerun at once.
 */
export type Settled = { kind: "done" } | { kind: "retry"; delaySeconds: number; unsent?: boolean };

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

/**
 * One run of a rollout, with the job's model choice. `attempts` counts this run with every earlier one (other deliveries,
 * runs in this batch or runner). A retryable failure with attempts to spare asks to run again; the caller decides where.
 */
export async function settleRollout(
  ports: AgentPorts,
  body: RolloutMessage,
  attempts: number,
  readChunk: ChunkReader,
  model: ModelChoice | undefined,
): Promise<Settled> {
  const log = ports.log ?? silentLog;
  const started = Date.now();
  const id = rolloutId(body.job_id, body.task_index, body.rollout_index);
  const base = { job_id: body.job_id, rollout_id: id, task_index: body.task_index, rollout_index: body.rollout_index };
  let row = body.row;
  let environment = "unknown";
  let record: Record<string, unknown>;
  let kind: "rollout" | "failure";
  try {
    if (!row && body.chunk_key) row = (await readChunk(body.chunk_key)).get(body.task_index)?.row;
    if (!row) throw new EdgegymError(400, "invalid_row", `row ${body.task_index} is in neither the message nor its chunk`);
    // The row was checked against the protocol when the job accepted it: it is not parsed again here.
    const materialized: DatasetRow = { ...row, [TASK_INDEX]: body.task_index, [ROLLOUT_INDEX]: body.rollout_index, [ROLLOUT_ID]: id };
    const executed = await executeRow(ports, materialized, model ?? {});
    environment = executed.environment;
    // A verifier's own failure (NeMo Gym's judge_failed) is a failure record: out of the metrics, retried on resume.
    const judged = executed.record._ng_failure_class;
    if (typeof judged === "string") {
      const message = String(executed.record._ng_failure_judge_error ?? judged);
      const fields = { ...base, environment, code: judged, message, attempts, attempt: body.attempt, agent_ref: executed.record.agent_ref };
      record = failureRecord(fields, executed.record);
      kind = "failure";
      log.info("rollout failed", { ...base, environment, outcome: judged, attempts, duration_ms: Date.now() - started });
    } else {
      record = executed.record;
      kind = "rollout";
      log.info("rollout done", { ...base, environment, outcome: "ok", reward: record.reward, attempts, duration_ms: Date.now() - started });
    }
  } catch (error) {
    const failure = error instanceof EdgegymError ? error : new EdgegymError(500, "internal_error", error instanceof Error ? error.message : String(error));
    const agentName = (row?.agent_ref as { name?: string } | undefined)?.name;
    environment = (agentName && environmentFromAgentName(agentName, ports.environments)) || agentName || "unknown";
    const fields = { ...base, environment, attempts, duration_ms: Date.now() - started, error: failure.message };
    // A 4xx is the row's fault and will not change on a retry; anything else may.
    if (failure.status >= 500 && attempts < ports.config.MAX_ATTEMPTS) {
      log.warn("rollout failed; it runs again", { ...fields, outcome: "retried", code: failure.code });
      return { kind: "retry", delaySeconds: retryDelay(ports, attempts) };
    }
    record = failureRecord({
      ...base,
      environment,
      code: failure.code,
      message: failure.message,
      status: failure.status,
      attempts,
      attempt: body.attempt,
      agent_ref: row?.agent_ref,
    });
    kind = "failure";
    log.warn("rollout failed", { ...fields, outcome: String(record.failure_class), code: failure.code });
  }
  try {
    await sendSettled(ports, { ...base, environment, kind }, record);
    return { kind: "done" };
  } catch (error) {
    // The result could not be sent: the rollout comes back later (not at once), and its next run tries again.
    log.warn("a rollout's result could not be sent; it comes back later", { ...base, environment, outcome: "retried", error });
    return { kind: "retry", delaySeconds: retryDelay(ports, attempts), unsent: true };
  }
}
