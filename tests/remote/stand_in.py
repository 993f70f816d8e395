"""A stand-in NeMo Gym resources server for edgegym's remote tests (issue 24), standard library only.

It speaks NeMo Gym's resources-server protocol (nemo_gym/base_resources_server.py): POST /seed_session, POST /<tool>,
POST /verify, POST /aggregate_metrics, GET /reverify_mode; its session lives in a signed cookie named as NeMo Gym names
it (server_utils.py: session_cookie = "<Class>___<config name>", re-sent on every answer), its state in memory by the
cookie's session id. Stateful: the tool `count` adds to the session's counter; /verify scores the counter against the
row's `expected_count`. Faults are switched by POST /_fault {"mode": ..., "every": N, "ms": M}:
  slow   - tools wait `ms` before answering        error  - seed and tools answer 500
  huge   - tools answer a body of `ms` kilobytes    wrong  - verify answers 200 without a reward
  lost   - forget every session (a restart)          none   - no fault
`every` applies the fault to every Nth matching call only. GET /_seen lists the headers of every request seen.
Run: python3 stand_in.py [port]; prints "listening <port>" once ready.
"""

import base64
import hashlib
import hmac
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COOKIE = "StandInResourcesServer___stand_in"
KEY = COOKIE.encode()
LOCK = threading.Lock()
STATE = {"sessions": {}, "fault": {"mode": "none", "every": 1, "ms": 0}, "calls": 0, "seen": [], "tool_calls": 0, "faulted": 0}


def compact(value):
    # FastAPI's JSONResponse: compact separators, non-ASCII as is.
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def sign(data):
    payload = base64.urlsafe_b64encode(json.dumps(data).encode()).decode()
    stamp = str(int(time.time()))
    mac = hmac.new(KEY, f"{payload}.{stamp}".encode(), hashlib.sha256).hexdigest()[:27]
    return f"{payload}.{stamp}.{mac}"


def unsign(value):
    try:
        payload, stamp, mac = value.split(".")
        good = hmac.new(KEY, f"{payload}.{stamp}".encode(), hashlib.sha256).hexdigest()[:27]
        if not hmac.compare_digest(mac, good):
            return {}
        return json.loads(base64.urlsafe_b64decode(payload.encode()))
    except Exception:
        return {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # One write per answer, sent at once: headers and body apart would wait on Nagle and the client's delayed ACK (40 ms).
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def session(self):
        for part in (self.headers.get("Cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE:
                return unsign(value)
        return {}

    def answer(self, status, body, session=None):
        data = body if isinstance(body, bytes) else compact(body)
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        if session is not None:
            self.send_header("set-cookie", f"{COOKIE}={sign(session)}; path=/; Max-Age=1209600; httponly; samesite=lax")
        self.end_headers()
        self.wfile.write(data)

    def faulty(self, mode):
        with LOCK:
            fault = STATE["fault"]
            if fault["mode"] != mode:
                return False
            STATE["calls"] += 1
            hit = STATE["calls"] % max(1, fault["every"]) == 0
            STATE["faulted"] += hit
            return hit

    def read(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        return json.loads(raw) if raw else {}

    def do_GET(self):
        if self.path == "/reverify_mode":
            return self.answer(200, "stateless")
        if self.path == "/_seen":
            with LOCK:
                return self.answer(200, {"seen": STATE["seen"], "tool_calls": STATE["tool_calls"], "faulted": STATE["faulted"]})
        self.answer(404, {"detail": "Not Found"})

    def do_POST(self):
        body = self.read()
        route = self.path.lstrip("/")
        if route == "_fault":
            with LOCK:
                STATE["fault"] = {"mode": body.get("mode", "none"), "every": body.get("every", 1), "ms": body.get("ms", 0)}
                STATE["calls"] = 0
                if STATE["fault"]["mode"] == "lost":
                    STATE["sessions"].clear()
            return self.answer(200, STATE["fault"])
        with LOCK:
            STATE["seen"].append({k.lower(): v for k, v in self.headers.items()})
            del STATE["seen"][:-200]
        session = self.session()
        cookieless = not session.get("session_id")
        sid = session.get("session_id") or str(uuid.uuid4())
        session = {"session_id": sid}
        if route == "seed_session":
            if self.faulty("error"):
                return self.answer(500, "An unknown error occurred", session)
            with LOCK:
                STATE["sessions"][sid] = 0
            return self.answer(200, {}, session)
        if route == "verify":
            if self.faulty("wrong"):
                return self.answer(200, {"score": "high"}, session)
            if cookieless:
                # Re-verification (reverify_mode stateless): no session, the record's own count is scored.
                reward = 1.0 if body.get("count") == body.get("expected_count") else 0.0
                return self.answer(200, {**body, "reward": reward}, session)
            with LOCK:
                if sid not in STATE["sessions"]:
                    return self.answer(500, f"KeyError('{sid}')", session)
                count = STATE["sessions"].pop(sid)
            reward = 1.0 if count == body.get("expected_count") else 0.0
            return self.answer(200, {**body, "reward": reward, "count": count}, session)
        if route == "aggregate_metrics":
            rewards = [r.get("reward", 0) for r in body.get("verify_responses", [])]
            mean = sum(rewards) / len(rewards) if rewards else 0
            return self.answer(200, {"group_level_metrics": [], "agent_metrics": {"mean/reward": mean, "stand_in": True}, "key_metrics": {"mean/reward": mean}})
        if route == "count":
            with LOCK:
                STATE["tool_calls"] += 1
            if self.faulty("slow"):
                time.sleep(STATE["fault"]["ms"] / 1000)
            if self.faulty("error"):
                return self.answer(500, "An unknown error occurred", session)
            if self.faulty("huge"):
                return self.answer(200, {"count": "x" * (STATE["fault"]["ms"] * 1024)}, session)
            if self.faulty("lost"):
                with LOCK:
                    STATE["sessions"].clear()
            with LOCK:
                if sid not in STATE["sessions"]:
                    return self.answer(500, f"KeyError('{sid}')", session)
                STATE["sessions"][sid] += int(body.get("by", 1))
                count = STATE["sessions"][sid]
            return self.answer(200, {"count": count}, session)
        self.answer(404, {"detail": "Not Found"}, session)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that hung up (a timed-out call, a closed keep-alive connection) is no error of the server's.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


if __name__ == "__main__":
    server = Server(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
    print(f"listening {server.server_address[1]}", flush=True)
    server.serve_forever()
