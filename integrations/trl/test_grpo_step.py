"""One GRPOTrainer step on CPU with rollouts and rewards from edgegym (run by integrations/trl/run_test.sh: `npm run test:trl`).

Needs EDGEGYM_URL and EDGEGYM_TOKEN (a gateway serving mcqa, e.g. `npm run dev`); builds a tiny random model and
tokenizer here (no download), serves it as the policy, takes one step, and checks: the loss is finite, a weight
changed, and the rewards the trainer saw are the records' rewards from edgegym's verify. Exits 1 on a failed check.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402

from edgegym_trl import EdgegymRollout, edgegym_reward, rows_dataset  # noqa: E402
from tiny_policy import TinyPolicy, serve, tiny_model, tiny_tokenizer  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "environments" / "mcqa" / "data" / "example.jsonl"
PROMPTS, GROUP = 2, 4


def check(ok: bool, what: str) -> None:
    print(f"{'ok' if ok else 'FAILED'}: {what}", flush=True)
    if not ok:
        sys.exit(1)


def mcqa_grade(text: str, expected: str) -> float:
    """mcqa's strict_single_letter_boxed for the tiny vocabulary's texts: 1 when the last \\boxed{} holds the expected letter."""
    letters = re.findall(r"\\boxed\{([A-Z])\}", text)
    return 1.0 if letters and letters[-1] == expected else 0.0


def main() -> None:
    started = time.monotonic()
    torch.manual_seed(0)
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()][:PROMPTS]
    for row in rows:
        row["responses_create_params"].update({"max_output_tokens": 6, "temperature": 1.0})

    tokenizer, model = tiny_tokenizer(), tiny_model(seed=0)
    before = {name: value.detach().clone() for name, value in model.named_parameters()}
    server = serve(TinyPolicy(model, tokenizer, seed=1))
    policy_url = f"http://127.0.0.1:{server.server_address[1]}/v1"

    rollout = EdgegymRollout(os.environ["EDGEGYM_URL"], os.environ["EDGEGYM_TOKEN"], environment="mcqa",
                             policy_base_url=policy_url, policy_model_name="tiny",
                             concurrency=1)  # one rollout at a time: the policy's samples go to the rollouts in order, so a run repeats
    seen: list = []
    texts: list = []

    def reward(completions, **kwargs):  # edgegym_reward, noting what the trainer passed
        values = edgegym_reward(completions, **kwargs)
        seen.extend(values)
        texts.extend(completions)
        return values

    reward.__name__ = "edgegym_reward"
    with tempfile.TemporaryDirectory() as output:
        args = GRPOConfig(output_dir=output, max_steps=1, per_device_train_batch_size=PROMPTS * GROUP, num_generations=GROUP,
                          learning_rate=0.05, beta=0.0, use_cpu=True, report_to=[], logging_steps=1, save_strategy="no",
                          max_completion_length=8, seed=0, dataloader_num_workers=0)
        trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=reward, train_dataset=rows_dataset(rows),
                              rollout_func=rollout, args=args)
        trainer.train()
    server.shutdown()
    rollout.close()

    records = rollout.records
    record_rewards = [float(r["reward"]) for r in records]
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    changed = [name for name, value in model.named_parameters() if not torch.equal(value.detach(), before[name])]
    record_texts = [r["response"]["output"][-1]["content"][0]["text"] for r in records]
    print(json.dumps({"loss": losses, "edgegym_rewards": record_rewards, "trainer_rewards": seen, "completions": record_texts,
                      "weights_changed": len(changed), "seconds": round(time.monotonic() - started, 1)}), flush=True)
    check(len(records) == PROMPTS * GROUP, f"edgegym ran {PROMPTS} prompts x {GROUP} rollouts in one batch ({len(records)} records)")
    check(all(r.get("_ng_task_index") == i // GROUP for i, r in enumerate(records)), "the records come back in group order")
    check(len(losses) == 1 and math.isfinite(losses[0]), f"the step's loss is finite ({losses})")
    check(texts == record_texts, "the completions TRL decoded from the token ids are the texts edgegym's records hold")
    graded = [mcqa_grade(text, rows[i // GROUP]["expected_answer"]) for i, text in enumerate(record_texts)]
    check(record_rewards == graded, f"edgegym's rewards are mcqa's grading of the completions ({graded})")
    check(seen == record_rewards, "the rewards the trainer saw are the rewards in edgegym's records")
    check(len(set(record_rewards)) > 1, "the rewards differ within the batch (so the advantages are not all zero)")
    check(len(changed) > 0, f"{len(changed)} weight tensors changed")


if __name__ == "__main__":
    main()
