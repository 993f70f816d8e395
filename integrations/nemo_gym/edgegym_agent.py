#!/usr/bin/env python3
"""A NeMo Gym agent server that forwards to an edgegym gateway: run it next to the trainer, point NeMo Gym at it.

NeMo Gym's client (ng_collect_rollouts, NeMo RL) builds http://host:port URLs and sends no token. This server listens
on such an address and forwards, over HTTP(S) with the bearer token:

    GET  /global_config_dict_yaml, /server_instances   NeMo Gym's head-server discovery: every edgegym agent, at this address
    POST /run                                           one rollout (the row as it is; NeMo Gym's answer back); with
                                                        --batch-window-ms, the calls that arrive together go as one
                                                        POST /run/batch (coalesce.py)
    POST /aggregate_metrics                             routed by the entries' agent_ref
    GET  /                                              {"status": "ok"} (NeMo Gym's liveness probe)

A 429 or 503 from the gateway (its admission limit) is waited out here, as is a gateway that cannot be reached, within
--max-wait seconds: NeMo Gym's client never retries a status, and one non-2xx /run ends ng_collect_rollouts.

    python3 integrations/nemo_gym/edgegym_agent.py --gateway https://<gateway>   # on port 11000; token from EDGEGYM_TOKEN
    python3 integrations/nemo_gym/edgegym_agent.py --gateway http://127.0.0.1:8787   # `npm run dev`: its saved dev token

It answers only requests meant for it: the Host must be its own address (127.0.0.1, localhost or [::1] with its port,
the address it binds, or --advertise), else 421; a request that carries an Origin (a web page's) is refused with 403
unless --allow-origin names it; with --secret, every request must carry it (Authorization: Bearer <secret>, or Basic
with it as the password), else 401. NeMo Gym's collector sends neither Origin nor a header of its own, so it passes the
first two unchanged; it cannot send the secret, which is therefore optional (for clients that can).

Before it listens it checks the gateway (/health, then /v1/environments with the token) and exits 1 with what to do if
the gateway is unreachable or refuses the token: NeMo Gym would otherwise only see every /run fail.

Standard library only; it imports integrations/python/edgegym_client.py (found next to this repository folder, or on
PYTHONPATH).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from coalesce import Coalescer
from local_guard import WILDCARDS, LocalGuard

try:
    from edgegym_client import Transport, TransportError, is_local, resolve_token, token_hint
except ImportError:  # run from the repository: the client sits in integrations/python
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
    from edgegym_client import Transport, TransportError, is_local, resolve_token, token_hint

VERSION = "0.1"
FORWARDED_ROUTES = {("GET", "/global_config_dict_yaml"), ("GET", "/server_instances"), ("POST", "/run"), ("POST", "/aggregate_metrics")}
MAX_BODY_BYTES = 256 * 1024 * 1024
# How long the start-up check waits for a gateway that cannot be reached (or answers 429/503) before giving up.
CHECK_WAIT_SECONDS = 10.0


def failure_record(row: Dict[str, Any], message: str, model: Optional[str]) -> Dict[str, Any]:
    """NeMo Gym's record of a rollout that could not run: retried on resume (transient), routed to the failures file."""
    record = {k: v for k, v in row.items() if k not in ("reward", "response", "_ng_failure_class", "_ng_failure_terminal", "_ng_no_persist")}
    record.update({
        "response": {"id": f"resp_failed_{uuid.uuid4().hex}", "object": "response", "created_at": int(time.time()),
                     "model": model or "unknown", "output": [], "parallel_tool_calls": False, "tool_choice": "none", "tools": []},
        "reward": 0.0,
        "error_message": message,
        "error_code": "gateway_unreachable",
        "_ng_failure_class": "transient",
    })
    return record


class Forwarder:
    """What every request needs: the gateway, the extra /run query, the address NeMo Gym's clients are told to use."""

    def __init__(self, args: argparse.Namespace):
        self.transport = Transport(args.gateway, args.token, timeout=args.timeout, max_wait=args.max_wait,
                                   user_agent=f"edgegym-nemo-gym-agent/{VERSION}")
        self.run_query = {
            "environment": args.environment,
            "policy_base_url": args.policy_base_url,
            "policy_model_name": args.policy_model,
            "return_token_ids": True if args.token_ids else None,
            "failures": args.failures,
        }
        self.environment = args.environment
        self.failures = args.failures
        self.model = args.policy_model
        self.advertise: Optional[str] = args.advertise
        self.verbose = args.verbose
        # Who may use this server (Host, Origin, the local secret); its addresses are added once serve() knows the port.
        self.guard = LocalGuard(args.allow_origin, args.secret or None, args.advertise)
        self.coalescer: Optional[Coalescer] = None
        if args.batch_window_ms > 0:
            self.coalescer = Coalescer(self.transport, {**self.run_query, "concurrency": min(256, args.batch_max_rows)},
                                       args.batch_window_ms / 1000, args.batch_max_rows, args.max_wait,
                                       one=lambda body: self.forward("POST", "/run", body, coalesce=False),
                                       unreachable=lambda body, message: self.unreachable("/run", body, message), verbose=args.verbose)

    def failure_mode(self, row: Any) -> str:
        """The gateway's rule: a record for a row from NeMo Gym's collector (it stamps _ng_rollout_index), else the error."""
        if self.failures:
            return self.failures
        return "record" if isinstance(row, dict) and "_ng_rollout_index" in row else "error"

    def forward(self, method: str, path: str, body: Optional[bytes], coalesce: bool = True) -> Tuple[int, str, bytes]:
        if coalesce and path == "/run" and self.coalescer is not None and body is not None:
            return self.coalescer.submit(body)
        # The gateway names this address in its discovery answers: NeMo Gym's client must come back here, not to it.
        headers = {"x-forwarded-host": self.advertise} if self.advertise else {}
        query: Dict[str, Any] = {}
        if path == "/run":
            query = self.run_query
        elif path == "/aggregate_metrics" and self.environment:
            query = {"environment": self.environment}
        try:
            status, answer_headers, data = self.transport.request(method, path, body, query, headers)
        except TransportError as error:
            return self.unreachable(path, body, str(error))
        return status, answer_headers.get("content-type", "application/json"), data

    def unreachable(self, path: str, body: Optional[bytes], message: str) -> Tuple[int, str, bytes]:
        if path == "/run":
            try:
                row = json.loads(body or b"{}")
            except ValueError:
                row = None
            if self.failure_mode(row) == "record" and isinstance(row, dict):
                return 200, "application/json", json.dumps(failure_record(row, message, self.model)).encode()
        # NeMo Gym's servers answer an error as a JSON string with a 5xx; NeMo RL counts a 502 as an infrastructure failure.
        return 502, "application/json", json.dumps(f"edgegym gateway: {message}").encode()


class Handler(BaseHTTPRequestHandler):
    # Keep-alive: NeMo Gym's aiohttp client reuses its connections.
    protocol_version = "HTTP/1.1"
    server_version = f"edgegym-nemo-gym-agent/{VERSION}"
    forwarder: Forwarder

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        if self.forwarder.verbose:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    def _send(self, status: int, content_type: str, data: bytes, headers: Optional[Dict[str, str]] = None) -> None:
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        origin = self.headers.get("origin")
        if origin is not None and status not in (401, 403, 421):
            # Only an allowed origin gets this far: its page may read the answer.
            self.send_header("access-control-allow-origin", origin)
            self.send_header("vary", "Origin")
        self.end_headers()
        self.wfile.write(data)

    def _json(self, status: int, value: Any, headers: Optional[Dict[str, str]] = None) -> None:
        self._send(status, "application/json", json.dumps(value).encode(), headers)

    def _body(self) -> Optional[bytes]:
        length = self.headers.get("content-length")
        if length is None:
            return None
        size = int(length)
        if size > MAX_BODY_BYTES:
            raise ValueError(f"request body over {MAX_BODY_BYTES} bytes")
        return self.rfile.read(size)

    def _handle(self, method: str) -> None:
        path = self.path.split("?", 1)[0]
        # Checked before the body is read or anything forwarded; the unread body is why the connection closes.
        refused = self.forwarder.guard.refusal(self.headers)
        if refused:
            status, message, headers = refused
            self.close_connection = True
            return self._json(status, message, {**headers, "connection": "close"})
        try:
            body = self._body() if method == "POST" else None
        except ValueError as error:
            self.close_connection = True
            return self._json(413, str(error))
        if method == "GET" and path == "/":
            return self._json(200, {"status": "ok"})
        if (method, path) not in FORWARDED_ROUTES:
            return self._json(404, {"detail": "Not Found"})
        if self.forwarder.advertise is None:
            self.forwarder.advertise = self.headers.get("host")
        self._send(*self.forwarder.forward(method, path, body))

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._handle("POST")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    # NeMo RL sends a whole batch at once: a deep accept queue, not connection refused.
    request_queue_size = 4096


def _env_list(name: str) -> list:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def parse_args(argv: Optional[list] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A NeMo Gym agent server forwarding to an edgegym gateway.")
    parser.add_argument("--gateway", default=os.environ.get("EDGEGYM_URL"), help="the gateway's URL (default: $EDGEGYM_URL)")
    parser.add_argument("--token", help="bearer token (default: $EDGEGYM_TOKEN; for a gateway on this machine, else the dev "
                                        "token `npm run dev` saved in .edgegym/dev-token)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=11000,
                        help="port to listen on; 0 picks a free one (default 11000: NeMo Gym's head-server port, so its collector needs no config)")
    parser.add_argument("--advertise", help="host:port NeMo Gym's clients are told to use (default: the Host they came in with)")
    parser.add_argument("--environment", help="run every row in this environment, whatever its agent_ref")
    parser.add_argument("--policy-base-url", help="the policy model's base URL(s) ending in /v1, comma-separated (needs the token's model scope)")
    parser.add_argument("--policy-model", help="the policy model's served name (with --policy-base-url)")
    parser.add_argument("--token-ids", action="store_true", help="ask for token ids and logprobs on every rollout (training)")
    parser.add_argument("--failures", choices=["record", "error"],
                        help="a failed rollout as a 200 with NeMo Gym's _ng_failure_* fields, or as an error status "
                             "(default: record for ng_collect_rollouts' rows, error for NeMo RL's)")
    parser.add_argument("--timeout", type=float, default=1200.0, help="seconds to wait for one rollout (default 1200)")
    parser.add_argument("--max-wait", type=float, default=600.0, help="seconds to wait out 429/503 and outages per request (default 600)")
    parser.add_argument("--allow-origin", action="append", default=_env_list("EDGEGYM_FORWARDER_ALLOW_ORIGINS"), metavar="ORIGIN",
                        help="a web page origin (https://host[:port]) whose requests are served; repeatable (default: none, "
                             "every request with an Origin header is refused; $EDGEGYM_FORWARDER_ALLOW_ORIGINS, comma-separated)")
    parser.add_argument("--secret", default=os.environ.get("EDGEGYM_FORWARDER_SECRET"),
                        help="a local secret every request must carry (Authorization: Bearer <secret>); default "
                             "$EDGEGYM_FORWARDER_SECRET, else none: NeMo Gym's collector cannot send it")
    parser.add_argument("--batch-window-ms", type=float, default=0.0,
                        help="hold each /run this long and send those that came together as one POST /run/batch (NeMo RL "
                             "sends a step's rollouts at once); 0, the default, sends one /run each")
    parser.add_argument("--batch-max-rows", type=int, default=256, help="rows per batch at most (default 256; the gateway's limit is 1024)")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args(argv)
    if not args.gateway:
        parser.error("--gateway (or EDGEGYM_URL) is required")
    if args.policy_base_url and not args.policy_model:
        parser.error("--policy-base-url needs --policy-model")
    if args.batch_window_ms < 0 or args.batch_window_ms > 1000:
        parser.error(f"--batch-window-ms must be between 0 and 1000, got {args.batch_window_ms:g}")
    if not 2 <= args.batch_max_rows <= 1024:
        parser.error(f"--batch-max-rows must be between 2 and 1024, got {args.batch_max_rows}")
    args.token = resolve_token(args.gateway, args.token)
    return args


def check_gateway(args: argparse.Namespace) -> Optional[str]:
    """None when the gateway answers /health and accepts the token on a route /run's scope covers; else what is wrong."""
    transport = Transport(args.gateway, args.token, timeout=30.0, max_wait=min(args.max_wait, CHECK_WAIT_SECONDS),
                          user_agent=f"edgegym-nemo-gym-agent/{VERSION}")
    try:
        status, _, data = transport.request("GET", "/health")
        if status != 200:
            return f"{args.gateway}/health answered {status}: is it an edgegym gateway? ({data[:200].decode(errors='replace')})"
        status, _, data = transport.request("GET", "/v1/environments")
    except TransportError as error:
        local = " (is `npm run dev` running?)" if is_local(args.gateway) else ""
        return f"cannot reach the edgegym gateway{local}: {error}"
    finally:
        transport.close()
    if status == 401:
        return f"the gateway {args.gateway} answered 401 Unauthorized: {token_hint(args.gateway, args.token)}"
    if status == 403:
        return f"the gateway {args.gateway} answered 403: the token lacks the `run` scope /run needs (use a token with run)"
    if not 200 <= status < 300:
        return f"the gateway {args.gateway} answered {status} to GET /v1/environments: {data[:300].decode(errors='replace')}"
    return None


def serve(args: argparse.Namespace) -> Server:
    """Binds the server (not yet serving): `serve_forever()` it, in this thread or another."""
    forwarder = Forwarder(args)
    handler = type("BoundHandler", (Handler,), {"forwarder": forwarder})
    server = Server((args.host, args.port), handler)
    if args.advertise is None and args.host not in WILDCARDS:
        forwarder.advertise = f"{args.host}:{server.server_address[1]}"
    forwarder.guard.listen(args.host, server.server_address[1])
    return server


def main(argv: Optional[list] = None) -> None:
    args = parse_args(argv)
    problem = check_gateway(args)
    if problem:
        sys.exit(f"edgegym_agent.py: not started: {problem}")
    server = serve(args)
    host, port = server.server_address[:2]
    # One line on stdout once listening, for whoever started us (scripts, tests); everything else goes to stderr.
    print(json.dumps({"listening": f"http://{host}:{port}", "host": host, "port": port, "gateway": args.gateway}), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
