// NeMo Gym's bookkeeping rules as edgegym applies them: rollout ids, failure classes, reward components.
import { describe, expect, it } from "vitest";
import { nemoGymFailure, nemoGymRolloutId, RunRow, rewardComponentsProblem } from "../../protocol/index.js";

describe("nemoGymRolloutId (nemo_gym/rollout_correlation.py)", () => {
  it("is the row's own id, else task-rollout, with -a<n> for a resumed attempt", () => {
    expect(nemoGymRolloutId({ _ng_rollout_id: "my.id-1", _ng_task_index: 3, _ng_rollout_index: 1 })).toBe("my.id-1");
    expect(nemoGymRolloutId({ _ng_task_index: 3, _ng_rollout_index: 1 })).toBe("3-1");
    expect(nemoGymRolloutId({ _ng_task_index: 3, _ng_rollout_index: 1, _ng_attempt_index: 2 })).toBe("3-1-a2");
    expect(nemoGymRolloutId({ _ng_task_index: 3, _ng_rollout_index: 1, _ng_attempt_index: 0 })).toBe("3-1");
    expect(nemoGymRolloutId({ _ng_task_index: 3, _rowidx: 0 })).toBeUndefined();
  });

  it("a /run row's own id must have NeMo Gym's form", () => {
    const row = { responses_create_params: { input: "hi" } };
    expect(RunRow.safeParse({ ...row, _ng_rollout_id: "job_1-0-3" }).success).toBe(true);
    const bad = RunRow.safeParse({ ...row, _ng_rollout_id: "job:0:3" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(["_ng_rollout_id"]);
    expect(RunRow.safeParse({ ...row, _ng_task_index: -1 }).success).toBe(false);
  });
});

describe("nemoGymFailure", () => {
  it("a timeout is terminal, a 4xx is the row's own and terminal, anything else transient", () => {
    expect(nemoGymFailure(504, "timeout")).toEqual({ failureClass: "timeout_exceeded", terminal: true });
    expect(nemoGymFailure(400, "upstream_rejected")).toEqual({ failureClass: "legitimate", terminal: true });
    expect(nemoGymFailure(502, "model_error")).toEqual({ failureClass: "transient", terminal: false });
  });
});

describe("rewardComponentsProblem (NeMo RL's validate_reward_components_match_scalar)", () => {
  it("accepts a reward equal to the components' sum within math.isclose's tolerances", () => {
    expect(rewardComponentsProblem({ reward: 2, reward_components: { a: 1, b: 1, c: 0 } })).toBeUndefined();
    expect(rewardComponentsProblem({ reward: 0.3, reward_components: { a: 0.1, b: 0.2 } })).toBeUndefined();
    expect(rewardComponentsProblem({ reward: 1 })).toBeUndefined();
    expect(rewardComponentsProblem({ reward: 1, reward_components: {} })).toBeUndefined();
  });

  it("names a reward that is not the sum, and a component that is not a number", () => {
    expect(rewardComponentsProblem({ reward: 3, reward_components: { a: 1, b: 1 } })).toBe("reward is 3 but reward_components sum to 2");
    expect(rewardComponentsProblem({ reward: 1, reward_components: { a: "1" } })).toBe("reward_components.a is not a number");
    expect(rewardComponentsProblem({ reward: 1, reward_components: [1] })).toBe("reward_components is not an object of numbers");
  });
});
