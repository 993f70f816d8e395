"""A scripted stand-in for an edgegym gateway, for the integrations' unit tests: records every request, answers from a script."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

Answer = Tuple[int, Dict[str, str], bytes]


class Recorded:
    def __init__(self, method: str, target: str, headers: Dict[str, str], body: bytes):
        parts = urlsplit(target)
        self.method = method
        self.path = parts.path
        self.query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)


class FakeGateway:
    """`answer(path, ...)` queues answers for a path (the last one repeats); `close_after_each` drops kept-alive connections silently."""

    def __init__(self, close_after_each: bool = False):
        self.requests: List[Recorded] = []
        self.script: Dict[str, List[Any]] = {}
        self.lock = threading.Lock()
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                recorded = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with gateway.lock:
                    gateway.requests.append(recorded)
                    queue = gateway.script.get(recorded.path, [])
                    step = queue.pop(0) if len(queue) > 1 else (queue[0] if queue else None)
                status, headers, data = step(recorded) if callable(step) else (step or (404, {}, b'{"error":{"code":"not_found","message":"no route"}}'))
                self.send_response(status)
                for key, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(key, value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                if close_after_each:
                    # As workerd does with an idle kept-alive connection: closed without a word.
                    self.close_connection = True

            def do_GET(self) -> None:  # noqa: N802
                self._serve()

            def do_POST(self) -> None:  # noqa: N802
                self._serve()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def answer(self, path: str, *answers: Any) -> None:
        """Each answer is (status, headers, body bytes) or a function of the recorded request returning one."""
        with self.lock:
            self.script[path] = list(answers)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def json_answer(value: Any, status: int = 200, headers: Optional[Dict[str, str]] = None) -> Answer:
    return status, headers or {}, json.dumps(value).encode()


def echo(transform: Callable[[Any], Any] = lambda row: row) -> Callable[[Recorded], Answer]:
    return lambda recorded: json_answer(transform(recorded.json()))
