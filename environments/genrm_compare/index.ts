// Port of NeMo Gym's genrm_compare: its single-rollout verify (reward = default_score) and its comparison utilities.
import { defineEnvironment, type SimpleEnvironment, z } from "../sdk/index.js";

export { aggregateScores } from "./aggregate.js";
export { extractFromResponseObj, extractOutputText, GenRMOutputParseError, generateComparisonPairs, parseGenrmOutput } from "./genrm.js";

export interface GenrmCompareConfig {
  /** NeMo Gym's default_score (3.0): the reward of every rollout while num_rollouts_per_prompt <= 1. */
  default_score?: number;
  /** NeMo Gym's num_rollouts_per_prompt (1). Cohort mode (> 1) buffers rollouts across sessions: not ported. */
  num_rollouts_per_prompt?: number;
}

// GenRMCompareVerifyRequest: optional principle and prompt_id (cohort keys); the rest of the row is carried.
const Task = z.object({
  principle: z.string().nullish(),
  prompt_id: z.string().nullish(),
});

/** The genrm_compare environment with NeMo Gym's server config (configs/genrm_compare.yaml's values by default). */
export function genrmCompareEnvironment(config: GenrmCompareConfig = {}): SimpleEnvironment {
  const defaultScore = config.default_score ?? 3.0;
  const cohort = config.num_rollouts_per_prompt ?? 1;
  if (cohort > 1) throw new Error("genrm_compare: num_rollouts_per_prompt > 1 (cohort-based verify) is not ported");
  return defineEnvironment({
    name: "genrm_compare",
    description: "GenRM pairwise comparison (RLHF): with one rollout per prompt, NeMo Gym's verify gives every rollout default_score (3.0).",
    task: Task,
    tools: {},
    verify: () => ({ reward: defaultScore }),
  });
}

export default genrmCompareEnvironment();
