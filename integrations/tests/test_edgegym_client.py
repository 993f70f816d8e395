"""The Python client: bearer token, query flags, waiting out 429/503, GRPO batches, token trajectories."""

from __future__ import annotations

import os
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import edgegym_client  # noqa: E402
from edgegym_client import Client, EdgegymError, TransportError, _retry_after, group_advantages, resolve_token, trajectory  # noqa: E402
from fake_gateway import FakeGateway, echo, json_answer  # noqa: E402

ROW = {"responses_create_params": {"input": "What is 2+2?"}, "expected_answer": "4"}


class ClientTest(unittest.TestCase):
    def setUp(self) -> None:
        self.gateway = FakeGateway()
        self.client = Client(self.gateway.url, token="secret-token", max_wait=5)

    def tearDown(self) -> None:
        self.client.close()
        self.gateway.close()

    def test_run_sends_the_row_the_token_and_the_model_choice(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": 1.0}))
        record = self.client.run(ROW, environment="math", policy_base_url=["http://a:1/v1", "http://b:2/v1"],
                                 policy_model_name="Qwen/Qwen3-4B", return_token_ids=True)
        self.assertEqual(record["reward"], 1.0)
        self.assertEqual(record["expected_answer"], "4")
        sent = self.gateway.requests[0]
        self.assertEqual(sent.headers["authorization"], "Bearer secret-token")
        self.assertEqual(sent.headers["content-type"], "application/json")
        self.assertEqual(sent.query, {"environment": "math", "policy_base_url": "http://a:1/v1,http://b:2/v1",
                                      "policy_model_name": "Qwen/Qwen3-4B", "return_token_ids": "true"})
        self.assertEqual(sent.json(), ROW)

    def test_an_error_envelope_becomes_an_edgegym_error(self) -> None:
        self.gateway.answer("/run", json_answer({"error": {"code": "unknown_environment", "message": "no environment"}}, 404))
        with self.assertRaises(EdgegymError) as raised:
            self.client.run(ROW)
        self.assertEqual((raised.exception.status, raised.exception.code), (404, "unknown_environment"))

    def test_429_and_503_are_waited_out_with_retry_after(self) -> None:
        busy = json_answer({"error": {"code": "busy", "message": "later"}}, 429, {"retry-after": "0"})
        away = json_answer({"error": {"code": "unavailable", "message": "later"}}, 503, {"retry-after": "0"})
        self.gateway.answer("/run", busy, away, echo(lambda row: {**row, "reward": 0.5}))
        self.assertEqual(self.client.run(ROW)["reward"], 0.5)
        self.assertEqual(len(self.gateway.requests), 3)

    def test_a_429_past_the_budget_is_the_answer(self) -> None:
        client = self.client
        client.transport.max_wait = 0.2
        self.gateway.answer("/run", json_answer({"error": {"code": "busy", "message": "later"}}, 429, {"retry-after": "30"}))
        with self.assertRaises(EdgegymError) as raised:
            client.run(ROW)
        self.assertEqual(raised.exception.status, 429)
        self.assertEqual(len(self.gateway.requests), 1)

    def test_retry_after_as_an_http_date(self) -> None:
        self.assertEqual(_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), 0.0)
        self.assertEqual(_retry_after("7"), 7.0)
        self.assertIsNone(_retry_after("soon"))

    def test_run_batch_repeats_each_row_as_a_group_in_order(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": float(row["_ng_rollout_index"])}))
        rows = [ROW, {**ROW, "_ng_task_index": 17}]
        records = self.client.run_batch(rows, group_size=3, concurrency=4)
        self.assertEqual([(r["_ng_task_index"], r["_ng_rollout_index"]) for r in records], [(0, 0), (0, 1), (0, 2), (17, 0), (17, 1), (17, 2)])
        self.assertEqual({r.query["failures"] for r in self.gateway.requests}, {"record"})
        self.assertEqual(group_advantages(records, 3), [-1.0, 0.0, 1.0, -1.0, 0.0, 1.0])

    def test_an_unreachable_gateway_is_a_transport_error_after_the_budget(self) -> None:
        port = self.gateway.server.server_address[1]
        self.gateway.close()
        with self.assertRaises(TransportError):
            with Client(f"http://127.0.0.1:{port}", max_wait=0.3) as client:
                client.run(ROW)

    def test_a_kept_alive_connection_closed_by_the_server_is_replaced(self) -> None:
        gateway = FakeGateway(close_after_each=True)
        try:
            gateway.answer("/v1/environments", json_answer({"object": "list", "data": [{"name": "math"}]}))
            with Client(gateway.url, max_wait=0) as client:
                self.assertEqual([client.environments() for _ in range(3)], [["math"]] * 3)
        finally:
            gateway.close()

    def test_jobs(self) -> None:
        self.gateway.answer("/v1/jobs", echo(lambda body: {"id": "job_1", "status": "running", "body": body}))
        job = self.client.create_job([ROW], num_repeats=4, policy_base_url="http://a:1/v1", policy_model_name="m", return_token_ids=True)
        self.assertEqual(job["body"], {"rows": [ROW], "num_repeats": 4, "skip_invalid": False, "policy_base_url": "http://a:1/v1",
                                       "policy_model_name": "m", "return_token_ids": True})
        self.gateway.answer("/v1/jobs/job_1", json_answer({"id": "job_1", "status": "completed"}))
        self.assertEqual(self.client.wait_job("job_1", poll=0.01)["status"], "completed")
        self.gateway.answer("/v1/jobs/job_1/rollouts", (200, {"content-type": "application/x-ndjson"}, b'{"reward": 1}\n{"reward": 0}\n'))
        self.assertEqual([r["reward"] for r in self.client.job_results("job_1")], [1, 0])


class SavedDevTokenTest(unittest.TestCase):
    """As the CLI does: the token given, else EDGEGYM_TOKEN, else the dev token `npm run dev` saved (local gateways only)."""

    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        saved = Path(folder.name) / "dev-token"
        saved.write_text("edgegym_dev_saved\n")
        without_token = {k: v for k, v in os.environ.items() if k != "EDGEGYM_TOKEN"}
        for patcher in (mock.patch.object(edgegym_client, "DEV_TOKEN_FILE", saved), mock.patch.dict(os.environ, without_token, clear=True)):
            patcher.start()
            self.addCleanup(patcher.stop)
        self.gateway = FakeGateway()
        self.addCleanup(self.gateway.close)

    def test_a_client_without_a_token_sends_the_saved_dev_token_to_a_local_gateway(self) -> None:
        self.gateway.answer("/v1/environments", json_answer({"object": "list", "data": [{"name": "math"}]}))
        with Client(self.gateway.url) as client:
            self.assertEqual(client.environments(), ["math"])
        self.assertEqual(self.gateway.requests[0].headers["authorization"], "Bearer edgegym_dev_saved")

    def test_the_token_given_then_edgegym_token_then_the_saved_one_and_never_to_another_host(self) -> None:
        local = "http://127.0.0.1:8787"
        self.assertEqual(resolve_token(local, "given", {"EDGEGYM_TOKEN": "env"}), "given")
        self.assertEqual(resolve_token(local, None, {"EDGEGYM_TOKEN": "env"}), "env")
        self.assertEqual(resolve_token(local, None, {}), "edgegym_dev_saved")
        self.assertEqual(resolve_token("http://localhost:9000", None, {}), "edgegym_dev_saved")
        self.assertIsNone(resolve_token("https://gateway.example.com", None, {}))

    def test_a_401_says_which_token_went_and_what_to_do(self) -> None:
        self.gateway.answer("/v1/environments", json_answer({"error": {"code": "unauthorized", "message": "missing token"}}, 401))
        edgegym_client.DEV_TOKEN_FILE.unlink()
        with Client(self.gateway.url) as client, self.assertRaises(EdgegymError) as raised:
            client.environments()
        self.assertEqual(raised.exception.status, 401)
        self.assertIn("no token was sent", str(raised.exception))
        self.assertIn("EDGEGYM_TOKEN", str(raised.exception))
        self.assertIn("npm run dev", str(raised.exception))
        self.assertNotIn("authorization", self.gateway.requests[0].headers)


def item(prompt, generated, logprobs=None):
    return {"type": "message", "prompt_token_ids": prompt, "generation_token_ids": generated,
            "generation_log_probs": logprobs or [-0.5] * len(generated)}


class TrajectoryTest(unittest.TestCase):
    def test_turns_that_extend_each_other_become_one_sequence_with_a_mask(self) -> None:
        record = {"response": {"output": [
            item([1, 2, 3], [4, 5]),
            {"type": "function_call_output", "call_id": "c", "output": "x"},
            item([1, 2, 3, 4, 5, 6], [7], [-0.1]),
        ]}}
        self.assertEqual(trajectory(record), {
            "token_ids": [1, 2, 3, 4, 5, 6, 7],
            "logprobs": [0.0, 0.0, 0.0, -0.5, -0.5, 0.0, -0.1],
            "generation_mask": [0, 0, 0, 1, 1, 0, 1],
        })

    def test_a_prompt_that_does_not_extend_the_history_is_refused(self) -> None:
        record = {"response": {"output": [item([1, 2], [3]), item([1, 9, 3, 4], [5])]}}
        with self.assertRaisesRegex(ValueError, "non-contiguous"):
            trajectory(record)

    def test_a_record_without_token_ids_is_refused(self) -> None:
        with self.assertRaisesRegex(ValueError, "return_token_ids"):
            trajectory({"response": {"output": [{"type": "message", "content": []}]}})


if __name__ == "__main__":
    unittest.main()
