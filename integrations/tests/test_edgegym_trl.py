"""The TRL rollout_func (integrations/trl/edgegym_trl.py) against a fake gateway: groups, token fields, env_mask, rewards."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "trl"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from edgegym_trl import EdgegymRollout, edgegym_reward, prompt_of  # noqa: E402
from fake_gateway import FakeGateway, echo  # noqa: E402

ROWS = [{"responses_create_params": {"input": "2+2?"}, "expected_answer": "4"},
        {"responses_create_params": {"input": "3+3?"}, "expected_answer": "6"}]


def two_turns(row: dict) -> dict:
    """A record of two model calls: prompt [1, 2], generated [10 + k], a tool result [7, 8], generated [20 + k]."""
    k, task = row["_ng_rollout_index"], row["_ng_task_index"]
    output = [{"type": "function_call", "prompt_token_ids": [1, 2], "generation_token_ids": [10 + k], "generation_log_probs": [-0.5]},
              {"type": "function_call_output"},
              {"type": "message", "prompt_token_ids": [1, 2, 10 + k, 7, 8], "generation_token_ids": [20 + k], "generation_log_probs": [-0.25]}]
    return {**row, "response": {"output": output}, "reward": float(task * 10 + k)}


def trainer(num_generations: int) -> SimpleNamespace:
    return SimpleNamespace(num_generations=num_generations, num_generations_eval=1, model=SimpleNamespace(training=True))


class RolloutFuncTest(unittest.TestCase):
    def setUp(self) -> None:
        self.gateway = FakeGateway()
        self.rollout = EdgegymRollout(self.gateway.url, "secret", environment="mcqa", policy_base_url="http://policy/v1",
                                      policy_model_name="tiny")

    def tearDown(self) -> None:
        self.rollout.close()
        self.gateway.close()

    def test_each_group_is_run_on_edgegym_and_its_tokens_and_rewards_go_to_trl(self) -> None:
        self.gateway.answer("/run", echo(two_turns))
        prompts = [prompt_of(ROWS[0])] * 2 + [prompt_of(ROWS[1])] * 2
        out = self.rollout(prompts, trainer(2))
        sent = sorted(((r.json()["_ng_task_index"], r.json()["_ng_rollout_index"]) for r in self.gateway.requests))
        self.assertEqual(sent, [(0, 0), (0, 1), (1, 0), (1, 1)])
        self.assertEqual({(r.query["return_token_ids"], r.query["environment"], r.query["policy_model_name"], r.headers["authorization"])
                          for r in self.gateway.requests}, {("true", "mcqa", "tiny", "Bearer secret")})
        self.assertEqual(out["prompt_ids"], [[1, 2]] * 4)
        self.assertEqual(out["completion_ids"], [[10, 7, 8, 20], [11, 7, 8, 21], [10, 7, 8, 20], [11, 7, 8, 21]])
        self.assertEqual(out["logprobs"], [[-0.5, 0.0, 0.0, -0.25]] * 4)
        self.assertEqual(out["env_mask"], [[1, 0, 0, 1]] * 4)
        self.assertEqual(out["edgegym_reward"], [0.0, 1.0, 10.0, 11.0])
        self.assertEqual(edgegym_reward(["a", "b"], edgegym_reward=[1, 0.5]), [1.0, 0.5])

    def test_prompts_that_are_not_whole_groups_are_refused_before_any_rollout(self) -> None:
        for prompts in ([prompt_of(ROWS[0])] * 3, [prompt_of(ROWS[0]), prompt_of(ROWS[1])]):
            with self.assertRaisesRegex(ValueError, "group"):
                self.rollout(prompts, trainer(2))
        self.assertEqual(self.gateway.requests, [])

    def test_a_failed_rollout_raises_with_edgegym_s_message(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "response": {"output": []}, "reward": 0.0,
                                                      "_ng_failure_class": "transient", "error_message": "model unreachable"}))
        with self.assertRaisesRegex(RuntimeError, "transient.*model unreachable"):
            self.rollout([prompt_of(ROWS[0])], trainer(1))


if __name__ == "__main__":
    unittest.main()
