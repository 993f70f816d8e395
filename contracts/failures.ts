// Why a rollout failed, in one place: the classes a failure record carries (`failure_class`) and the job status counts,
// which of the agent's detailed codes falls in each, and NeMo Gym's own routing fields beside them.
import { z } from "zod";
import { NG_FAILURE_CLASS, NG_FAILURE_TERMINAL, nemoGymFailure, ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX } from "../protocol/index.js";

export const FAILURE_CLASSES = [
  /** The model answered an error (after the model proxy's retries), or an answer that was not a response. */
  "model_error",
  /** The model did not answer within its timeout or the rollout's deadline. */
  "model_timeout",
  /** The environment failed a call (seed, tool transport, reset, step), or is not deployed. */
  "tool_error",
  /** An environment call (a tool, seed, reset, step or verify) did not answer within its timeout or the deadline. */
  "tool_timeout",
  /** /verify failed or answered without a numeric reward. */
  "verify_error",
  /** The LLM judge failed inside verify (NeMo Gym's `judge_failed`: reward 0, kept out of the metrics). */
  "judge_failed",
  /** The rollout's attempts ran out on an error that is none of the above (an internal error, a missing input). */
  "exhausted_attempts",
  /** The queue gave up on the message (its deliveries ran out), or the job's healing did: no rollout ran to an answer. */
  "dead_letter",
] as const;

export const FailureClass = z.enum(FAILURE_CLASSES);
export type FailureClass = z.infer<typeof FailureClass>;

/** The agent's detailed failure codes (and NeMo Gym's judge_failed) by class; any other code is `exhausted_attempts`. */
const CLASS_OF_CODE: Record<string, FailureClass> = {
  model_error: "model_error",
  model_invalid_response: "model_error",
  model_timeout: "model_timeout",
  seed_failed: "tool_error",
  reset_failed: "tool_error",
  step_failed: "tool_error",
  environment_error: "tool_error",
  unknown_environment: "tool_error",
  tool_timeout: "tool_timeout",
  verify_failed: "verify_error",
  judge_failed: "judge_failed",
  dead_letter: "dead_letter",
};

export function failureClassOf(code: string): FailureClass {
  return CLASS_OF_CODE[code] ?? "exhausted_attempts";
}

/** A count per class, every class present (0 when none failed so). */
export type FailureCounts = Record<FailureClass, number>;

export function emptyFailureCounts(): FailureCounts {
  return Object.fromEntries(FAILURE_CLASSES.map((name) => [name, 0])) as FailureCounts;
}

/** The class a stored failure is counted under: its `failure_class`, or (an older record's detailed code) that code's class. */
export function countedClass(value: unknown): FailureClass {
  const parsed = FailureClass.safeParse(value);
  if (parsed.success) return parsed.data;
  return typeof value === "string" ? failureClassOf(value) : "exhausted_attempts";
}

export interface FailureFields {
  task_index: number;
  rollout_index: number;
  rollout_id: string;
  environment: string;
  /** The detailed code (the agent's, `judge_failed`, `dead_letter`…); its class is derived. */
  code: string;
  message: string;
  /** The failure's HTTP status, when it had one (it decides NeMo Gym's class: a 4xx is the row's own fault). */
  status?: number;
  agent_ref?: unknown;
  /** Deliveries (or tries) the rollout had. */
  attempts?: number;
  /** The job's attempt (bumped by resume and healing). */
  attempt?: number;
}

/**
 * NeMo Gym's routing fields for a failure (protocol/nemo-gym.ts): its own class names (`transient`, `legitimate`,
 * `timeout_exceeded`, `judge_failed`), so its collector and resume read an edgegym failure as one of theirs.
 */
function nemoGymFields(fields: FailureFields): Record<string, unknown> {
  if (fields.code === "judge_failed") return { [NG_FAILURE_CLASS]: "judge_failed" };
  const { failureClass, terminal } = nemoGymFailure(fields.status ?? 500, fields.code);
  return { [NG_FAILURE_CLASS]: failureClass, ...(terminal ? { [NG_FAILURE_TERMINAL]: true } : {}) };
}

/** A failure record (one line of a job's failures JSONL): where it belongs, its class (ours and NeMo Gym's), why. */
export function failureRecord(fields: FailureFields, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const failureClass = failureClassOf(fields.code);
  const { [NG_FAILURE_TERMINAL]: _terminal, ...rest } = extra;
  return {
    ...rest,
    [TASK_INDEX]: fields.task_index,
    [ROLLOUT_INDEX]: fields.rollout_index,
    [ROLLOUT_ID]: fields.rollout_id,
    agent_ref: fields.agent_ref ?? extra.agent_ref ?? null,
    environment: fields.environment,
    failure_class: failureClass,
    failure_code: fields.code,
    ...nemoGymFields(fields),
    message: fields.message,
    ...(fields.attempts !== undefined ? { attempts: fields.attempts } : {}),
    ...(fields.attempt !== undefined ? { attempt: fields.attempt } : {}),
  };
}

/**
 * The failure record of a rollout given up on without an answer of its own (a dead letter, a stalled job's spent heals):
 * what the Job object and the AWS ledger both write, with its summary (the class the job status counts).
 */
export function abandonedRecord(
  rollout: { job_id: string; task_index: number; rollout_index: number; rollout_id: string; environment: string },
  failure: { failure_class: FailureClass; message: string },
): { record: Record<string, unknown>; summary: { failure_class: unknown } } {
  const record = failureRecord({ ...rollout, code: failure.failure_class, message: failure.message });
  return { record, summary: { failure_class: record.failure_class } };
}
