// What a trainer takes from a rollout record: per model call, the prompt and generated token ids and their logprobs.
import type { RolloutRecord } from "../protocol/index.js";

/** One model call of a rollout, as the model proxy recorded it (asked with returnTokenIds, or the deployment's setting). */
export interface TrainingTurn {
  prompt_token_ids: number[];
  generation_token_ids: number[];
  generation_log_probs: number[];
}

const isNumbers = (value: unknown): value is number[] => Array.isArray(value) && value.every((n) => typeof n === "number");

/**
 * The record's model calls in order: each call's last output item carries its token ids (NeMo Gym's convention). A
 * record without any throws: a training loop over it would otherwise iterate nothing and learn nothing, silently.
 */
export function trainingTurns(record: Pick<RolloutRecord, "response"> & { _ng_rollout_id?: string }): TrainingTurn[] {
  const turns: TrainingTurn[] = [];
  for (const item of record.response.output as Record<string, unknown>[]) {
    const { prompt_token_ids, generation_token_ids, generation_log_probs } = item;
    if (isNumbers(prompt_token_ids) && isNumbers(generation_token_ids) && isNumbers(generation_log_probs)) {
      turns.push({ prompt_token_ids, generation_token_ids, generation_log_probs });
    }
  }
  if (turns.length === 0) {
    const which = record._ng_rollout_id ? ` (rollout ${record._ng_rollout_id})` : "";
    throw new Error(
      `trainingTurns: the record${which} has no token ids: ask for them with { returnTokenIds: true } on run/batch ` +
        "(return_token_ids=true on /run), or set RETURN_TOKEN_ID_INFORMATION=true on the model proxy",
    );
  }
  return turns;
}
