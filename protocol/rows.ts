// Dataset rows, seed/verify bodies and rollout records: NeMo Gym's data contract.
import { z } from "zod";
import { ROLLOUT_ID_PATTERN } from "./nemo-gym.js";
import { ResponsesCreateParams } from "./params.js";
import { Response } from "./response.js";

export const AgentRef = z.looseObject({ type: z.string().optional(), name: z.string() });
export type AgentRef = z.infer<typeof AgentRef>;

/** One line of a NeMo Gym dataset: the model request plus any task fields, which pass through untouched. */
export const DatasetRow = z.looseObject({
  responses_create_params: ResponsesCreateParams,
  agent_ref: AgentRef.nullish(),
});
export type DatasetRow = z.infer<typeof DatasetRow>;

/**
 * A row as a trainer posts it to /run: NeMo Gym's bookkeeping fields, when present, have the types and the id form its
 * collector relies on (nemo_gym/rollout_correlation.py); everything else passes as for any row.
 */
export const RunRow = DatasetRow.extend({
  _ng_task_index: z.number().int().nonnegative().optional(),
  _ng_rollout_index: z.number().int().nonnegative().optional(),
  _ng_attempt_index: z.number().int().nonnegative().optional(),
  _ng_rollout_id: z
    .string()
    .regex(ROLLOUT_ID_PATTERN, "must be letters, digits, '.', '_' or '-', starting with a letter or digit (NeMo Gym's rollout id)")
    .optional(),
});
export type RunRow = z.infer<typeof RunRow>;

/** `/seed_session` receives the whole row, as NeMo Gym's simple agent sends it. */
export const SeedSessionRequest = DatasetRow;
export type SeedSessionRequest = DatasetRow;

export const VerifyRequest = DatasetRow.extend({ response: Response });
export type VerifyRequest = z.infer<typeof VerifyRequest>;

export const VerifyResponse = VerifyRequest.extend({
  reward: z.number(),
  reward_components: z.record(z.string(), z.number()).optional(),
});
export type VerifyResponse = z.infer<typeof VerifyResponse>;

export const TASK_INDEX = "_ng_task_index";
export const ROLLOUT_INDEX = "_ng_rollout_index";
export const ROLLOUT_ID = "_ng_rollout_id";

/** One line of output JSONL: the verify response plus where it came from. */
export const RolloutRecord = VerifyResponse.extend({
  [TASK_INDEX]: z.number().int().nonnegative(),
  [ROLLOUT_INDEX]: z.number().int().nonnegative(),
  [ROLLOUT_ID]: z.string(),
  agent_ref: AgentRef,
});
export type RolloutRecord = z.infer<typeof RolloutRecord>;

/** NeMo Gym's recorded rollouts: a verify response whose bookkeeping fields may be missing. */
export const RecordedRollout = VerifyResponse.extend({
  [TASK_INDEX]: z.number().int().optional(),
  [ROLLOUT_INDEX]: z.number().int().optional(),
});
export type RecordedRollout = z.infer<typeof RecordedRollout>;

/** One verify response sent to /aggregate_metrics: any fields, but its indices (0 when absent, as NeMo Gym reads them) are integers. */
const MetricsVerifyResponse = z.looseObject({
  [TASK_INDEX]: z.number().int().nonnegative().optional(),
  [ROLLOUT_INDEX]: z.number().int().nonnegative().optional(),
});

/** `/aggregate_metrics` body: verify responses, each (task, rollout) pair at most once (the metrics group by it). */
export const AggregateMetricsRequest = z.object({ verify_responses: z.array(MetricsVerifyResponse) }).superRefine((request, ctx) => {
  const seen = new Map<string, number>();
  request.verify_responses.forEach((response, i) => {
    const key = `${response[TASK_INDEX] ?? 0}:${response[ROLLOUT_INDEX] ?? 0}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else
      ctx.addIssue({
        code: "custom",
        path: ["verify_responses", i, ROLLOUT_INDEX],
        message: `(${TASK_INDEX}, ${ROLLOUT_INDEX}) = (${key.replace(":", ", ")}) is already verify_responses[${first}]'s (absent indices count as 0)`,
      });
  });
});
export type AggregateMetricsRequest = z.infer<typeof AggregateMetricsRequest>;
