"""The NeMo Gym agent server: what NeMo Gym's client sends arrives at the gateway with the token; what it needs comes back."""

from __future__ import annotations

import base64
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "nemo_gym"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import edgegym_agent  # noqa: E402
import edgegym_client  # noqa: E402
from fake_gateway import FakeGateway, echo, json_answer  # noqa: E402

COLLECTOR_ROW = {"responses_create_params": {"input": "hi"}, "agent_ref": {"name": "math_simple_agent"}, "_ng_task_index": 2, "_ng_rollout_index": 1}
NEMO_RL_ROW = {"responses_create_params": {"input": "hi", "temperature": 1.0, "top_p": 1.0}, "agent_ref": {"name": "math_simple_agent"}, "_rowidx": 0}


class AgentServer:
    def __init__(self, *argv: str):
        self.server = edgegym_agent.serve(edgegym_agent.parse_args(["--port", "0", "--max-wait", "1", *argv]))
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def call(self, method: str, path: str, body=None, connection=None):
        own = connection is None
        connection = connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        connection.request(method, path, body=data, headers={"content-type": "application/json"} if data is not None else {})
        response = connection.getresponse()
        answer = response.status, json.loads(response.read())
        if own:
            connection.close()
        return answer

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.server.RequestHandlerClass.forwarder.transport.close()


class GatewayCase(unittest.TestCase):
    """A fake gateway, and agent servers started against it (all closed after each test)."""

    def setUp(self) -> None:
        self.gateway = FakeGateway()
        self.servers = []

    def tearDown(self) -> None:
        for server in self.servers:
            server.close()
        self.gateway.close()

    def start(self, *argv: str) -> AgentServer:
        server = AgentServer("--gateway", self.gateway.url, "--token", "tok", *argv)
        self.servers.append(server)
        return server


class AgentTest(GatewayCase):
    def test_liveness_is_answered_here(self) -> None:
        self.assertEqual(self.start().call("GET", "/"), (200, {"status": "ok"}))
        self.assertEqual(self.gateway.requests, [])

    def test_discovery_comes_from_the_gateway_naming_this_address(self) -> None:
        yaml_text = "head_server:\n  host: 127.0.0.1\n"
        self.gateway.answer("/global_config_dict_yaml", json_answer(yaml_text))
        agent = self.start()
        self.assertEqual(agent.call("GET", "/global_config_dict_yaml"), (200, yaml_text))
        sent = self.gateway.requests[0]
        self.assertEqual(sent.headers["authorization"], "Bearer tok")
        self.assertEqual(sent.headers["x-forwarded-host"], f"127.0.0.1:{agent.port}")

    def test_run_forwards_the_row_byte_for_byte_with_the_trainers_flags(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": 1.0}))
        agent = self.start("--policy-base-url", "http://10.0.0.5:9001/v1", "--policy-model", "Qwen/Qwen3-4B", "--token-ids", "--failures", "error")
        raw = b'{"responses_create_params":{"input":"hi"},"_rowidx":3}'
        status, record = agent.call("POST", "/run", raw)
        self.assertEqual((status, record["reward"], record["_rowidx"]), (200, 1.0, 3))
        sent = self.gateway.requests[0]
        self.assertEqual(sent.body, raw)
        self.assertEqual(sent.query, {"policy_base_url": "http://10.0.0.5:9001/v1", "policy_model_name": "Qwen/Qwen3-4B",
                                      "return_token_ids": "true", "failures": "error"})

    def test_the_gateways_admission_limit_is_waited_out_not_passed_on(self) -> None:
        busy = json_answer({"error": {"code": "overloaded", "message": "later"}}, 503, {"retry-after": "0"})
        self.gateway.answer("/run", busy, echo(lambda row: {**row, "reward": 1.0}))
        status, record = self.start().call("POST", "/run", COLLECTOR_ROW)
        self.assertEqual((status, record["reward"]), (200, 1.0))
        self.assertEqual(len(self.gateway.requests), 2)

    def test_an_unreachable_gateway_is_a_failure_record_for_the_collector_and_a_502_for_nemo_rl(self) -> None:
        port = self.gateway.server.server_address[1]
        self.gateway.close()
        agent = AgentServer("--gateway", f"http://127.0.0.1:{port}", "--max-wait", "0.3")
        self.servers.append(agent)
        status, record = agent.call("POST", "/run", COLLECTOR_ROW)
        self.assertEqual(status, 200)
        self.assertEqual((record["_ng_failure_class"], record["reward"], record["_ng_task_index"]), ("transient", 0.0, 2))
        self.assertEqual(record["response"]["output"], [])
        status, body = agent.call("POST", "/run", NEMO_RL_ROW)
        self.assertEqual(status, 502)
        self.assertIn("unreachable", body)

    def test_gateway_statuses_pass_through(self) -> None:
        self.gateway.answer("/run", json_answer({"error": {"code": "upstream_failed", "message": "model down"}}, 502))
        status, body = self.start().call("POST", "/run", NEMO_RL_ROW)
        self.assertEqual((status, body["error"]["code"]), (502, "upstream_failed"))

    def test_aggregate_metrics_is_forwarded_with_the_fixed_environment(self) -> None:
        metrics = {"agent_metrics": {"mean/reward": 1.0}, "key_metrics": {}, "group_level_metrics": []}
        self.gateway.answer("/aggregate_metrics", json_answer(metrics))
        status, body = self.start("--environment", "math").call("POST", "/aggregate_metrics", {"verify_responses": [{"reward": 1.0}]})
        self.assertEqual((status, body), (200, metrics))
        self.assertEqual(self.gateway.requests[0].query, {"environment": "math"})

    def test_one_kept_alive_connection_carries_many_requests(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": 1.0}))
        agent = self.start()
        connection = http.client.HTTPConnection("127.0.0.1", agent.port, timeout=10)
        try:
            answers = [agent.call("POST", "/run", COLLECTOR_ROW, connection)[0] for _ in range(3)]
        finally:
            connection.close()
        self.assertEqual(answers, [200, 200, 200])

    def test_unknown_routes_are_404(self) -> None:
        self.assertEqual(self.start().call("POST", "/v1/responses", {})[0], 404)



def call_with(port: int, method: str, path: str, headers: dict, body=None):
    """A request with these headers as they are (Host included): the status, the JSON answer and the answer's headers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"content-type": "application/json", **headers})
        response = connection.getresponse()
        return response.status, json.loads(response.read()), response.headers
    finally:
        connection.close()


class LocalGuardTest(GatewayCase):
    """Only requests for its own address, from no web page (or an allowed one), with its secret when set, reach the gateway."""

    def run_row(self, agent: AgentServer, headers: dict):
        return call_with(agent.port, "POST", "/run", {"host": f"127.0.0.1:{agent.port}", **headers}, COLLECTOR_ROW)

    def test_a_host_that_is_not_its_address_is_421_and_nothing_is_forwarded(self) -> None:
        agent = self.start()
        for host in ("evil.example", f"evil.example:{agent.port}", f"127.0.0.2:{agent.port}", f"localhost:{agent.port + 1}", ""):
            status, message, _ = call_with(agent.port, "POST", "/run", {"host": host}, COLLECTOR_ROW)
            self.assertEqual(status, 421, host)
            self.assertIn("is not this server's address", message)
            self.assertIn(f"127.0.0.1:{agent.port}", message)
            self.assertIn("--advertise", message)
        # Discovery (whose answers name addresses) and liveness are refused too.
        self.assertEqual(call_with(agent.port, "GET", "/global_config_dict_yaml", {"host": "evil.example"})[0], 421)
        self.assertEqual(call_with(agent.port, "GET", "/", {"host": "evil.example"})[0], 421)
        self.assertEqual(self.gateway.requests, [])

    def test_its_loopback_names_bound_address_and_advertised_name_are_served(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": 1.0}))
        agent = self.start("--advertise", "trainer.internal:11000")
        for host in (f"127.0.0.1:{agent.port}", f"LOCALHOST:{agent.port}", f"[::1]:{agent.port}", "trainer.internal:11000"):
            status, record, _ = call_with(agent.port, "POST", "/run", {"host": host}, COLLECTOR_ROW)
            self.assertEqual((status, record["reward"]), (200, 1.0), host)
        self.assertEqual(len(self.gateway.requests), 4)

    def test_a_request_from_a_web_page_is_403_unless_its_origin_is_allowed(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": 1.0}))
        agent = self.start()
        status, message, headers = self.run_row(agent, {"origin": "https://evil.example"})
        self.assertEqual(status, 403)
        self.assertIn("(Origin 'https://evil.example') are refused", message)
        self.assertIn("--allow-origin", message)
        self.assertIsNone(headers.get("access-control-allow-origin"))
        self.assertEqual(self.run_row(agent, {"origin": "null"})[0], 403)
        self.assertEqual(self.gateway.requests, [])

        allowed = self.start("--allow-origin", "https://notebook.example:8888", "--allow-origin", "http://localhost:3000")
        status, record, headers = self.run_row(allowed, {"origin": "https://notebook.example:8888"})
        self.assertEqual((status, record["reward"]), (200, 1.0))
        self.assertEqual(headers.get("access-control-allow-origin"), "https://notebook.example:8888")
        self.assertEqual(self.run_row(allowed, {"origin": "http://localhost:3000"})[0], 200)
        self.assertEqual(self.run_row(allowed, {"origin": "https://evil.example"})[0], 403)

    def test_allowed_origins_from_the_environment(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": 1.0}))
        with mock.patch.dict(os.environ, {"EDGEGYM_FORWARDER_ALLOW_ORIGINS": "https://a.example, https://b.example"}):
            agent = self.start()
        self.assertEqual(self.run_row(agent, {"origin": "https://b.example"})[0], 200)
        self.assertEqual(self.run_row(agent, {"origin": "https://c.example"})[0], 403)

    def test_with_a_secret_every_request_must_carry_it(self) -> None:
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": 1.0}))
        agent = self.start("--secret", "local-s3cret")
        for authorization in (None, "Bearer wrong", "Bearer local-s3cret-and-more", "Basic !!!", "Token local-s3cret"):
            status, message, headers = self.run_row(agent, {} if authorization is None else {"authorization": authorization})
            self.assertEqual(status, 401, authorization)
            self.assertIn("local secret", message)
            self.assertEqual(headers.get("www-authenticate"), 'Bearer realm="edgegym-forwarder"')
        self.assertEqual(call_with(agent.port, "GET", "/", {"host": f"127.0.0.1:{agent.port}"})[0], 401)
        self.assertEqual(self.gateway.requests, [])
        basic = "Basic " + base64.b64encode(b"edgegym:local-s3cret").decode()
        for authorization in ("Bearer local-s3cret", basic):
            status, record, _ = self.run_row(agent, {"authorization": authorization})
            self.assertEqual((status, record["reward"]), (200, 1.0))
        # The gateway gets the forwarder's token, never the local secret.
        self.assertEqual([r.headers["authorization"] for r in self.gateway.requests], ["Bearer tok", "Bearer tok"])

    def test_the_secret_from_the_environment(self) -> None:
        with mock.patch.dict(os.environ, {"EDGEGYM_FORWARDER_SECRET": "from-env"}):
            agent = self.start()
        self.assertEqual(self.run_row(agent, {})[0], 401)
        self.assertEqual(call_with(agent.port, "GET", "/", {"host": f"127.0.0.1:{agent.port}", "authorization": "Bearer from-env"})[0], 200)

    def test_nemo_gym_collectors_own_requests_pass_unchanged(self) -> None:
        # What aiohttp (NeMo Gym's ServerClient, server_utils.py) and requests (its discovery) send: no Origin, no auth.
        self.gateway.answer("/global_config_dict_yaml", json_answer("head_server: {}\n"))
        self.gateway.answer("/run", echo(lambda row: {**row, "reward": 1.0}))
        agent = self.start()
        aiohttp = {"host": f"127.0.0.1:{agent.port}", "accept": "*/*", "accept-encoding": "gzip, deflate", "user-agent": "Python/3.12 aiohttp/3.11.18"}
        requests_lib = {"host": f"127.0.0.1:{agent.port}", "user-agent": "python-requests/2.32.3", "accept": "*/*", "connection": "keep-alive"}
        self.assertEqual(call_with(agent.port, "GET", "/global_config_dict_yaml", requests_lib)[0], 200)
        status, record, _ = call_with(agent.port, "POST", "/run", aiohttp, COLLECTOR_ROW)
        self.assertEqual((status, record["reward"]), (200, 1.0))


AGENT = Path(__file__).resolve().parent.parent / "nemo_gym" / "edgegym_agent.py"
ENVIRONMENTS = json_answer({"object": "list", "data": [{"name": "math"}]})


class StartCheckTest(unittest.TestCase):
    """Started as a user starts it: refused by the gateway, it exits 1 saying what to do, and never says it listens."""

    def setUp(self) -> None:
        self.gateway = FakeGateway()
        self.addCleanup(self.gateway.close)
        self.gateway.answer("/health", json_answer({"status": "ok"}))

    def start(self, *argv: str) -> subprocess.CompletedProcess:
        env = {k: v for k, v in os.environ.items() if k not in ("EDGEGYM_TOKEN", "EDGEGYM_URL")}
        return subprocess.run([sys.executable, str(AGENT), "--port", "0", "--max-wait", "1", *argv], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)

    def test_a_401_at_start_is_exit_1_with_the_hint_not_a_silent_start(self) -> None:
        self.gateway.answer("/v1/environments", json_answer({"error": {"code": "unauthorized", "message": "missing or unknown token"}}, 401))
        # No token given (and none saved, or one saved by another `npm run dev`): both point at `npm run dev` and the token.
        done = self.start("--gateway", self.gateway.url)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertIn("not started", done.stderr)
        self.assertIn("401 Unauthorized", done.stderr)
        self.assertIn("EDGEGYM_TOKEN=<token>", done.stderr)
        self.assertIn("`npm run dev`", done.stderr)
        self.assertEqual([r.path for r in self.gateway.requests], ["/health", "/v1/environments"])

        wrong = self.start("--gateway", self.gateway.url, "--token", "wrong")
        self.assertEqual(wrong.returncode, 1)
        self.assertIn("401 Unauthorized: the token was refused: pass the gateway's token", wrong.stderr)
        self.assertEqual(self.gateway.requests[-1].headers["authorization"], "Bearer wrong")

    def test_a_token_without_the_run_scope_is_exit_1(self) -> None:
        self.gateway.answer("/v1/environments", json_answer({"error": {"code": "insufficient_scope", "message": "needs run"}}, 403))
        done = self.start("--gateway", self.gateway.url, "--token", "jobs-only")
        self.assertEqual(done.returncode, 1)
        self.assertIn("`run` scope", done.stderr)

    def test_an_unreachable_gateway_at_start_is_exit_1(self) -> None:
        port = self.gateway.server.server_address[1]
        self.gateway.close()
        done = self.start("--gateway", f"http://127.0.0.1:{port}", "--token", "t")
        self.assertEqual(done.returncode, 1)
        self.assertIn("cannot reach the edgegym gateway (is `npm run dev` running?)", done.stderr)

    def test_an_accepted_token_passes_the_check(self) -> None:
        self.gateway.answer("/v1/environments", ENVIRONMENTS)
        self.assertIsNone(edgegym_agent.check_gateway(edgegym_agent.parse_args(["--gateway", self.gateway.url, "--token", "ok"])))

    def test_without_a_token_a_local_gateway_gets_the_saved_dev_token(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        saved = Path(folder.name) / "dev-token"
        saved.write_text("edgegym_dev_saved\n")
        without_token = {k: v for k, v in os.environ.items() if k != "EDGEGYM_TOKEN"}
        with mock.patch.object(edgegym_client, "DEV_TOKEN_FILE", saved), mock.patch.dict(os.environ, without_token, clear=True):
            args = edgegym_agent.parse_args(["--gateway", self.gateway.url])
        self.assertEqual(args.token, "edgegym_dev_saved")
        self.gateway.answer("/v1/environments", ENVIRONMENTS)
        self.assertIsNone(edgegym_agent.check_gateway(args))
        self.assertEqual(self.gateway.requests[-1].headers["authorization"], "Bearer edgegym_dev_saved")


if __name__ == "__main__":
    unittest.main()
