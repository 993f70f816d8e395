// The rollouts dead-letter queue: a message the runtime gave up on still ends as failure records, one per rollout it stood
// for (a rollout message: its rollout; an expand message: every rollout of its chunk still without a record).
import { failureRecord } from "../../contracts/failures.js";
import { rolloutId, WorkMessage } from "../../contracts/messages.js";
import { silentLog } from "../../http/log.js";
import type { ReceivedMessage } from "../../queues/queue.js";
import type { AgentPorts } from "./ports.js";
import { sendResult } from "./results.js";

const WHY = "the message exhausted its deliveries without an answer";

export async function deadLetter(ports: AgentPorts, message: ReceivedMessage): Promise<void> {
  const log = ports.log ?? silentLog;
  const parsed = WorkMessage.safeParse(message.body);
  if (!parsed.success) {
    // Not a work message: it stands for no rollout, so there is nothing to record (said loudly, then dropped).
    log.error("a dead-lettered message that is not a work message was dropped", { outcome: "dropped", message_id: message.id });
    message.ack();
    return;
  }
  const body = parsed.data;
  try {
    if (body.kind === "rollout") {
      const id = rolloutId(body.job_id, body.task_index, body.rollout_index);
      const base = { job_id: body.job_id, rollout_id: id, task_index: body.task_index, rollout_index: body.rollout_index, environment: "unknown" };
      const record = failureRecord({
        ...base,
        code: "dead_letter",
        message: `the rollout message: ${WHY}`,
        attempt: body.attempt,
        agent_ref: body.row?.agent_ref,
      });
      await sendResult(ports, { ...base, kind: "failure" }, record);
      log.error("a dead-lettered rollout became a dead_letter failure", { job_id: body.job_id, rollout_id: id, outcome: "dead_letter" });
    } else {
      // The Job object knows which rollouts the chunk holds and which already have a record.
      const scope = body.only ? { chunk_key: body.chunk_key, only: body.only } : { chunk_key: body.chunk_key };
      const { written } = await ports.job(body.job_id).abandon(scope, { failure_class: "dead_letter", message: `the chunk's expand message: ${WHY}` });
      log.error("a dead-lettered chunk became dead_letter failures", { job_id: body.job_id, chunk: body.chunk_key, outcome: "dead_letter", written });
    }
    message.ack();
  } catch (error) {
    // Recording failed: the dead-letter message comes back and tries again (the Job object's stall watch covers the rest).
    log.error("a dead-lettered message could not be recorded; retried", { job_id: body.job_id, outcome: "retried", error });
    message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
  }
}
