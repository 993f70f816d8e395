#!/usr/bin/env python3
"""GRPO-style rollouts on edgegym: a batch of prompts x group size in, rewards and token ids out.

    python3 integrations/python/examples/grpo_batch.py --gateway http://127.0.0.1:8787 \
        --data environments/example_multi_step/data/example.jsonl --environment example_multi_step \
        --prompts 4 --group-size 8 [--policy-base-url http://<your vllm>/v1 --policy-model <name>]

The token: --token, else $EDGEGYM_TOKEN, else (a gateway on this machine) the dev token `npm run dev` saved.

Each step of a GRPO loop does this: sample prompts, run each `group_size` times on the current policy, score each
rollout, and turn rewards into advantages within each prompt's group. The policy update itself is the trainer's; this
prints what it would get: one JSON line per rollout (reward, advantage, token counts) and a summary line last.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from edgegym_client import Client, EdgegymError, TransportError, group_advantages, trajectory  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gateway", default=os.environ.get("EDGEGYM_URL", "http://127.0.0.1:8787"))
    parser.add_argument("--token", help="bearer token (default: $EDGEGYM_TOKEN, else the dev token `npm run dev` saved)")
    parser.add_argument("--data", required=True, help="NeMo Gym JSONL: responses_create_params plus task fields")
    parser.add_argument("--environment", help="the environment, when the rows carry no agent_ref")
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--policy-base-url", help="the policy being trained, served by your vLLM (needs the token's model scope)")
    parser.add_argument("--policy-model", help="its served model name")
    args = parser.parse_args()

    with open(args.data) as file:
        prompts = [json.loads(line) for line in file if line.strip()][: args.prompts]

    try:
        with Client(args.gateway, args.token) as client:
            # One call per step: prompts x group size rollouts, concurrently, in the order of the batch.
            records = client.run_batch(prompts, group_size=args.group_size, environment=args.environment, return_token_ids=True,
                                       policy_base_url=args.policy_base_url, policy_model_name=args.policy_model)
    except (EdgegymError, TransportError) as error:
        sys.exit(f"grpo_batch.py: {args.gateway}: {error}")

    advantages = group_advantages(records, args.group_size)
    trained = failed = tokens = 0
    for record, advantage in zip(records, advantages):
        if record.get("_ng_failure_class"):
            # A rollout that could not run (reward 0, no tokens): leave it out of the update, or re-run it.
            failed += 1
            print(json.dumps({"task": record["_ng_task_index"], "rollout": record["_ng_rollout_index"], "failed": record["error_message"]}))
            continue
        sequence = trajectory(record)  # token_ids, logprobs (the sampling policy's), generation_mask
        trained += 1
        tokens += len(sequence["token_ids"])
        # Here a trainer computes the new policy's logprobs on sequence["token_ids"] and applies the clipped objective
        # on the tokens where generation_mask is 1, weighted by `advantage`.
        print(json.dumps({"task": record["_ng_task_index"], "rollout": record["_ng_rollout_index"], "reward": record["reward"],
                          "advantage": round(advantage, 6), "tokens": len(sequence["token_ids"]),
                          "generated": sum(sequence["generation_mask"])}))
    rewards = [float(r["reward"]) for r in records]
    print(json.dumps({"rollouts": len(records), "trained": trained, "failed": failed, "tokens": tokens,
                      "mean_reward": sum(rewards) / len(rewards)}))


if __name__ == "__main__":
    main()
