"""TRL's GRPOTrainer on edgegym: a rollout_func that runs each prompt group on edgegym and hands TRL its tokens and rewards.

    from edgegym_trl import EdgegymRollout, edgegym_reward, rows_dataset

    rollout = EdgegymRollout("http://127.0.0.1:8787", policy_base_url="http://<vllm>/v1", policy_model_name="<name>")
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=edgegym_reward,
                          train_dataset=rows_dataset(rows), rollout_func=rollout, args=GRPOConfig(...))

Each dataset prompt is one NeMo Gym row (JSON text). TRL gives rollout_func each prompt `num_generations` times in a row;
every group goes to edgegym in one `run_batch` call (prompts x group size, `return_token_ids`), so the environment runs
the tools and verify, and the policy model (served OpenAI-style with token ids, e.g. vLLM) generates. TRL gets back the
prompt ids, completion ids and logprobs from the records, `env_mask` (0 on tokens the environment added between turns),
and each record's reward as the extra field `edgegym_reward`, which `edgegym_reward` returns as is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from edgegym_client import Client, trajectory  # noqa: E402

__all__ = ["EdgegymRollout", "edgegym_reward", "rows_dataset", "prompt_of", "split_record"]


def prompt_of(row: Mapping[str, Any]) -> str:
    """A NeMo Gym row as a dataset prompt (TRL passes prompts to rollout_func as they are)."""
    return json.dumps(row, sort_keys=True)


def rows_dataset(rows: Sequence[Mapping[str, Any]]) -> Any:
    """A `datasets.Dataset` with one `prompt` per row."""
    from datasets import Dataset

    return Dataset.from_dict({"prompt": [prompt_of(row) for row in rows]})


def split_record(record: Mapping[str, Any]) -> Dict[str, Any]:
    """One record as TRL's fields: the first model call's prompt, then everything after it as the completion."""
    if record.get("_ng_failure_class"):
        raise RuntimeError(f"edgegym rollout failed ({record['_ng_failure_class']}): {record.get('error_message')}")
    sequence = trajectory(record)
    first = next(item for item in record["response"]["output"] if item.get("generation_token_ids"))
    cut = len(first["prompt_token_ids"])
    return {"prompt_ids": sequence["token_ids"][:cut], "completion_ids": sequence["token_ids"][cut:],
            "logprobs": sequence["logprobs"][cut:], "env_mask": sequence["generation_mask"][cut:],
            "edgegym_reward": float(record["reward"])}


def _groups(prompts: Sequence[Any], size: int) -> List[Any]:
    """The distinct prompts of consecutive groups of `size` identical prompts, as TRL's sampler lays them out."""
    if size < 1 or len(prompts) % size:
        raise ValueError(f"{len(prompts)} prompts are not whole groups of {size}")
    firsts = []
    for start in range(0, len(prompts), size):
        group = prompts[start:start + size]
        if any(p != group[0] for p in group):
            raise ValueError(f"prompts {start}..{start + size - 1} are not one group: TRL's sampler repeats each prompt num_generations times")
        firsts.append(group[0])
    return firsts


class EdgegymRollout:
    """The rollout_func: `rollout(prompts, trainer)` as GRPOTrainer calls it. `records` keeps the last call's records."""

    def __init__(self, gateway: str, token: Optional[str] = None, *, environment: Optional[str] = None,
                 policy_base_url: Any = None, policy_model_name: Optional[str] = None, concurrency: int = 64,
                 client: Optional[Client] = None):
        self.client = client or Client(gateway, token)
        self.environment = environment
        self.policy_base_url = policy_base_url
        self.policy_model_name = policy_model_name
        self.concurrency = concurrency
        self.records: List[Dict[str, Any]] = []

    def __call__(self, prompts: Sequence[Any], trainer: Any) -> Dict[str, List[Any]]:
        size = trainer.num_generations if trainer.model.training else trainer.num_generations_eval
        rows = [json.loads(prompt) if isinstance(prompt, str) else prompt for prompt in _groups(prompts, size)]
        self.records = self.client.run_batch(rows, group_size=size, environment=self.environment, return_token_ids=True,
                                             concurrency=self.concurrency, policy_base_url=self.policy_base_url,
                                             policy_model_name=self.policy_model_name)
        fields: Dict[str, List[Any]] = {"prompt_ids": [], "completion_ids": [], "logprobs": [], "env_mask": [], "edgegym_reward": []}
        for record in self.records:
            for key, value in split_record(record).items():
                fields[key].append(value)
        return fields

    def close(self) -> None:
        self.client.close()


def edgegym_reward(completions: Sequence[Any], edgegym_reward: Sequence[float], **_: Any) -> List[float]:
    """The reward function: edgegym's verify reward for each completion, as the rollout_func passed it."""
    return [float(value) for value in edgegym_reward]
