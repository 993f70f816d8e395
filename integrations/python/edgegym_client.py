"""A client for an edgegym gateway, in the Python standard library only.

    from edgegym_client import Client, trajectory

    client = Client("https://<gateway>", token="...")
    records = client.run_batch(rows, group_size=8, return_token_ids=True)   # GRPO: prompts x group size
    for record in records:
        reward = record["reward"]
        tokens = trajectory(record)        # token ids, logprobs and the mask of generated tokens

Every call carries the bearer token: the one given, else $EDGEGYM_TOKEN, else (for a gateway on this machine) the dev
token `npm run dev` saved in .edgegym/dev-token, as the edgegym CLI finds it. A 429 or 503 is waited out (its Retry-After, else a growing backoff) and a
connection that fails is tried again, both within `max_wait` seconds; a rollout that takes long is simply waited for.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import math
import os
import random
import socket
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple
from urllib.parse import urlencode, urlsplit

__all__ = ["Client", "EdgegymError", "Transport", "TransportError", "trajectory", "group_advantages", "is_local", "resolve_token",
           "saved_dev_token", "token_hint"]

USER_AGENT = "edgegym-python/0.1"
# Where `npm run dev` saves the dev token it made up (local/cli/token.ts): .edgegym/ at the repository's root.
DEV_TOKEN_FILE = Path(__file__).resolve().parent.parent.parent / ".edgegym" / "dev-token"
LOOPBACK_HOSTS = frozenset({"localhost", "::1"})
# Statuses that mean "not now": the gateway's admission limit, or a server that is briefly away.
WAIT_STATUSES = frozenset({429, 503})


class TransportError(Exception):
    """The gateway could not be reached (or did not answer in time) within the budget."""


class EdgegymError(Exception):
    """A non-2xx answer, with the gateway's error envelope when it sent one."""

    def __init__(self, status: int, code: str, message: str, body: Any = None):
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body


def is_local(url: str) -> bool:
    """A gateway on this machine (a loopback address): the only one the saved dev token is sent to."""
    host = (urlsplit(url).hostname or "").lower()
    return host in LOOPBACK_HOSTS or host.startswith("127.")


def saved_dev_token(url: str) -> Optional[str]:
    """The token a running `npm run dev` saved, when `url` is a gateway on this machine; else None."""
    if not is_local(url):
        return None
    try:
        return DEV_TOKEN_FILE.read_text().strip() or None
    except OSError:
        return None


def resolve_token(url: str, token: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """The token the edgegym CLI would use: the one given, else $EDGEGYM_TOKEN, else the saved dev token (local only)."""
    if token:
        return token
    from_env = (os.environ if env is None else env).get("EDGEGYM_TOKEN")
    return from_env or saved_dev_token(url)


def token_hint(url: str, token: Optional[str]) -> str:
    """What to do about a 401: which token was sent, and how to give the right one."""
    give = "pass the gateway's token with --token (token= in Python) or EDGEGYM_TOKEN=<token>"
    if not token and is_local(url):
        return (f"no token was sent (none given, no EDGEGYM_TOKEN, no dev token saved in {DEV_TOKEN_FILE}): start "
                f"`npm run dev`, which saves its dev token there, or {give}")
    if not token:
        return f"no token was sent: {give}"
    if is_local(url) and token == saved_dev_token(url):
        return f"the dev token saved in {DEV_TOKEN_FILE} was refused (saved by an `npm run dev` on another port?): {give}"
    return f"the token was refused: {give}"


def _retry_after(value: Optional[str]) -> Optional[float]:
    """Retry-After as seconds: a number of seconds, or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class Transport:
    """HTTP(S) to one base URL: a kept-alive connection per thread, the bearer token, waiting out 429/503 and outages."""

    def __init__(self, base_url: str, token: Optional[str] = None, timeout: float = 1200.0, max_wait: float = 600.0,
                 user_agent: str = USER_AGENT, ssl_context: Optional[ssl.SSLContext] = None):
        parts = urlsplit(base_url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"the gateway URL must be http(s)://host[:port][/path], got {base_url!r}")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.base_path = parts.path
        self.token = token
        self.timeout = timeout
        self.max_wait = max_wait
        self.user_agent = user_agent
        self.ssl_context = ssl_context or (ssl.create_default_context() if parts.scheme == "https" else None)
        self._local = threading.local()
        # Every thread's connection, so close() can end them all.
        self._open: "set[http.client.HTTPConnection]" = set()
        self._open_lock = threading.Lock()

    def close(self) -> None:
        """Closes every kept-alive connection (any thread's); the transport opens new ones if used again."""
        with self._open_lock:
            connections, self._open = self._open, set()
        for connection in connections:
            connection.close()

    def _connection(self) -> Tuple[http.client.HTTPConnection, bool]:
        """This thread's connection and whether it was used before (a kept-alive one may have been closed by the server)."""
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            return connection, True
        if self.scheme == "https":
            connection = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=self.ssl_context)
        else:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        self._local.connection = connection
        with self._open_lock:
            self._open.add(connection)
        return connection, False

    def _drop(self) -> None:
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            with self._open_lock:
                self._open.discard(connection)
            connection.close()

    def _once(self, method: str, target: str, body: Optional[bytes], headers: Mapping[str, str]) -> Tuple[int, Dict[str, str], bytes]:
        for fresh_try in (False, True):
            connection, reused = self._connection()
            if connection.sock is None:
                try:
                    connection.connect()
                except OSError as error:
                    self._drop()
                    # Not connected at all (refused, unreachable, connect timeout): the caller may try again.
                    raise ConnectionError(f"cannot connect: {error}") from error
            try:
                connection.request(method, target, body=body, headers=dict(headers))
                response = connection.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as error:
                self._drop()
                # A kept-alive connection the server had already closed: a new one, once, at no cost to the budget.
                if reused and not fresh_try:
                    continue
                raise error
            except BaseException:
                self._drop()
                raise
            if response.getheader("connection", "").lower() == "close" or response.will_close:
                self._drop()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data
        raise AssertionError("unreachable")

    def request(self, method: str, path: str, body: Optional[bytes] = None, query: Optional[Mapping[str, Any]] = None,
                headers: Optional[Mapping[str, str]] = None) -> Tuple[int, Dict[str, str], bytes]:
        """One call: (status, lower-cased headers, body). A 429/503 is returned only once `max_wait` is spent."""
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        target = self.base_path + path + (f"?{urlencode(params)}" if params else "")
        sent = {"user-agent": self.user_agent, "accept": "application/json"}
        if body is not None:
            sent["content-type"] = "application/json"
        if self.token:
            sent["authorization"] = f"Bearer {self.token}"
        sent.update({k.lower(): v for k, v in (headers or {}).items()})
        deadline = time.monotonic() + self.max_wait
        attempt = 0
        while True:
            attempt += 1
            backoff = min(10.0, 0.5 * 2 ** (attempt - 1)) * (0.5 + random.random() / 2)
            try:
                status, answer_headers, data = self._once(method, target, body, sent)
            except socket.timeout as error:
                # Connected, and the gateway is still at work on it: running it again would not be faster.
                raise TransportError(f"{method} {path}: no answer within {self.timeout:g} s") from error
            except OSError as error:
                if time.monotonic() + backoff > deadline:
                    raise TransportError(f"{method} {path}: {self.scheme}://{self.host}:{self.port} unreachable ({error})") from error
                time.sleep(backoff)
                continue
            if status not in WAIT_STATUSES:
                return status, answer_headers, data
            wait = _retry_after(answer_headers.get("retry-after"))
            wait = backoff if wait is None else wait
            if time.monotonic() + wait > deadline:
                return status, answer_headers, data
            time.sleep(wait)


    def stream(self, path: str, body: bytes, query: Optional[Mapping[str, Any]] = None) -> Tuple[int, Dict[str, str], Iterator[bytes]]:
        """A POST whose answer is read line by line as it comes (NDJSON), on a connection of its own. A 429/503 before
        the stream starts is waited out as in `request`; an error answer's lines are its body."""
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        target = self.base_path + path + (f"?{urlencode(params)}" if params else "")
        sent = {"user-agent": self.user_agent, "accept": "application/x-ndjson", "content-type": "application/json"}
        if self.token:
            sent["authorization"] = f"Bearer {self.token}"
        deadline = time.monotonic() + self.max_wait
        attempt = 0
        while True:
            attempt += 1
            backoff = min(10.0, 0.5 * 2 ** (attempt - 1)) * (0.5 + random.random() / 2)
            if self.scheme == "https":
                connection: http.client.HTTPConnection = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=self.ssl_context)
            else:
                connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                connection.request("POST", target, body=body, headers=sent)
                response = connection.getresponse()
            except socket.timeout as error:
                connection.close()
                raise TransportError(f"POST {path}: no answer within {self.timeout:g} s") from error
            except OSError as error:
                connection.close()
                if time.monotonic() + backoff > deadline:
                    raise TransportError(f"POST {path}: {self.scheme}://{self.host}:{self.port} unreachable ({error})") from error
                time.sleep(backoff)
                continue
            headers = {k.lower(): v for k, v in response.getheaders()}
            if response.status in WAIT_STATUSES:
                response.read()
                connection.close()
                wait = _retry_after(headers.get("retry-after"))
                wait = backoff if wait is None else wait
                if time.monotonic() + wait <= deadline:
                    time.sleep(wait)
                    continue

            def lines(response: http.client.HTTPResponse = response, connection: http.client.HTTPConnection = connection) -> Iterator[bytes]:
                try:
                    while True:
                        try:
                            line = response.readline()
                        except (OSError, http.client.HTTPException):
                            return  # the stream was cut: the caller sees which rows never came
                        if not line:
                            return
                        yield line
                finally:
                    connection.close()

            return response.status, headers, lines()

def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _error(status: int, data: bytes) -> EdgegymError:
    try:
        body = json.loads(data)
    except ValueError:
        return EdgegymError(status, f"http_{status}", data[:500].decode(errors="replace"))
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        return EdgegymError(status, str(error.get("code", f"http_{status}")), str(error.get("message", "")), body)
    return EdgegymError(status, f"http_{status}", str(body)[:500], body)


class Client:
    """The gateway's API: /run one at a time or as a GRPO batch, jobs, environments.

    `token`: the bearer token; without one, $EDGEGYM_TOKEN, else the dev token `npm run dev` saved (local gateways)."""

    def __init__(self, url: str, token: Optional[str] = None, *, timeout: float = 1200.0, max_wait: float = 600.0):
        self.transport = Transport(url, resolve_token(url, token), timeout=timeout, max_wait=max_wait)
        self.url = url

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _error(self, status: int, data: bytes) -> EdgegymError:
        error = _error(status, data)
        if status == 401:
            # Not the gateway's fault: say which token went and how to give the right one.
            error = EdgegymError(401, error.code, f"{error.message} ({token_hint(self.url, self.transport.token)})", error.body)
        return error

    def _json(self, method: str, path: str, body: Any = None, query: Optional[Mapping[str, Any]] = None) -> Any:
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        status, _, answer = self.transport.request(method, path, data, query)
        if not 200 <= status < 300:
            raise self._error(status, answer)
        return json.loads(answer)

    @staticmethod
    def _model_query(policy_base_url: Any, policy_model_name: Optional[str], return_token_ids: Optional[bool]) -> Dict[str, Any]:
        return {"policy_base_url": policy_base_url, "policy_model_name": policy_model_name, "return_token_ids": return_token_ids}

    def environments(self) -> List[str]:
        return [e["name"] for e in self._json("GET", "/v1/environments")["data"]]

    def run(self, row: Mapping[str, Any], *, environment: Optional[str] = None, max_steps: Optional[int] = None,
            policy_base_url: Any = None, policy_model_name: Optional[str] = None, return_token_ids: Optional[bool] = None,
            failures: Optional[str] = None) -> Dict[str, Any]:
        """One rollout: the scored record. A failed rollout raises EdgegymError, or with failures="record" comes back as a
        record with NeMo Gym's `_ng_failure_class` and reward 0."""
        query = {"environment": environment, "max_steps": max_steps, "failures": failures,
                 **self._model_query(policy_base_url, policy_model_name, return_token_ids)}
        return self._json("POST", "/run", row, query)

    def run_batch(self, rows: Sequence[Mapping[str, Any]], *, group_size: int = 1, concurrency: int = 64,
                  batched: bool = False, **options: Any) -> List[Dict[str, Any]]:
        """Each row `group_size` times, consecutively (a GRPO group), run concurrently; records in the same order.
        `batched=True`: one POST /run/batch per 1,024 rollouts, records streamed back (stream_batch), not a /run each.

        Rollout k of row i carries `_ng_task_index` (the row's own, else i) and `_ng_rollout_index` k. A rollout that fails
        comes back as a failure record (`_ng_failure_class`, reward 0) rather than raising, so one bad row does not lose
        the batch; drop or mask those before the update."""
        if group_size < 1:
            raise ValueError("group_size must be at least 1")
        batch: List[Dict[str, Any]] = []
        for i, row in enumerate(rows):
            task = row.get("_ng_task_index", i)
            for k in range(group_size):
                batch.append({**json.loads(json.dumps(row)), "_ng_task_index": task, "_ng_rollout_index": k})
        options.setdefault("failures", "record")
        if batched:
            records: List[Optional[Dict[str, Any]]] = [None] * len(batch)
            for index, record in self.stream_batch(batch, concurrency=min(256, concurrency), **options):
                records[index] = record
            return [r for r in records if r is not None]
        with ThreadPoolExecutor(max_workers=max(1, min(concurrency, len(batch)))) as pool:
            return list(pool.map(lambda r: self.run(r, **options), batch))

    def stream_batch(self, rows: Sequence[Mapping[str, Any]], *, environment: Optional[str] = None, max_steps: Optional[int] = None,
                     policy_base_url: Any = None, policy_model_name: Optional[str] = None, return_token_ids: Optional[bool] = None,
                     failures: Optional[str] = None, concurrency: Optional[int] = None,
                     max_retries: int = 10) -> Iterator[Tuple[int, Dict[str, Any]]]:
        """Rows through POST /run/batch: (index, record) as each rollout ends, in the order they end. A failed rollout is
        NeMo Gym's failure record with failures="record" (the default for rows carrying `_ng_rollout_index`), else raises
        EdgegymError. Rows refused admission (429/503) or lost with a cut stream are sent again after the longest
        Retry-After, at most `max_retries` times; 1,024 rows go per request."""
        query = {"environment": environment, "max_steps": max_steps, "failures": failures, "concurrency": concurrency,
                 **self._model_query(policy_base_url, policy_model_name, return_token_ids)}
        pending = list(range(len(rows)))
        for retry in range(max_retries + 1):
            again: List[int] = []
            wait = 0.0
            for start in range(0, len(pending), 1024):
                part = pending[start:start + 1024]
                body = json.dumps({"rows": [rows[i] for i in part]}, separators=(",", ":")).encode()
                status, _, lines = self.transport.stream("/run/batch", body, query)
                if status != 200:
                    raise self._error(status, b"".join(lines))
                open_rows = set(part)
                for raw in lines:
                    line = json.loads(raw)
                    if line.get("done"):
                        continue
                    index = part[line["index"]]
                    open_rows.discard(index)
                    if "record" in line:
                        yield index, line["record"]
                        continue
                    error = line["error"]
                    if error["status"] in WAIT_STATUSES and retry < max_retries:
                        again.append(index)
                        wait = max(wait, float(error.get("retry_after_seconds") or 0))
                        continue
                    raise EdgegymError(error["status"], error["code"], error["message"], {"error": error, "index": index})
                again.extend(sorted(open_rows))  # the stream was cut before these rows' lines came
            pending = again
            if not pending:
                return
            time.sleep(wait + random.random() * max(wait, 0.2) * 0.5)
        raise EdgegymError(503, "over_capacity", f"{len(pending)} rows were still refused after {max_retries} retries")

    def create_job(self, rows: Iterable[Mapping[str, Any]], *, environment: Optional[str] = None, num_repeats: int = 1,
                   policy_base_url: Any = None, policy_model_name: Optional[str] = None,
                   return_token_ids: Optional[bool] = None, skip_invalid: bool = False,
                   policy_version: Optional[int] = None) -> Dict[str, Any]:
        """A job through the queues (large datasets, offline collection): its status, with its id.

        policy_version tags the job with the trainer's policy version; its groups carry it on the feed (job_groups).
        """
        body: Dict[str, Any] = {"rows": list(rows), "num_repeats": num_repeats, "skip_invalid": skip_invalid}
        for key, value in {"environment": environment, "return_token_ids": return_token_ids, "policy_model_name": policy_model_name,
                           "policy_version": policy_version,
                           "policy_base_url": _query_value(policy_base_url) if policy_base_url is not None else None}.items():
            if value is not None:
                body[key] = value
        return self._json("POST", "/v1/jobs", body)

    def job(self, job_id: str) -> Dict[str, Any]:
        return self._json("GET", f"/v1/jobs/{job_id}")

    def wait_job(self, job_id: str, *, poll: float = 2.0, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Polls until the job is completed or cancelled."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            info = self.job(job_id)
            if info["status"] != "running":
                return info
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"job {job_id} still running after {timeout:g} s")
            time.sleep(poll)

    def job_groups(self, job_id: str, *, cursor: str = "default", limit: int = 16, min_groups: int = 1, wait: float = 20,
                   min_version: Optional[int] = None, current_version: Optional[int] = None,
                   max_staleness: Optional[int] = None) -> Dict[str, Any]:
        """One take of the async feed: the next completed groups (every repeat of a task) on `cursor`.

        Consumers sharing a cursor each get different groups. Waits up to `wait` seconds (at most 30) for `min_groups`.
        Groups older than `min_version`, or than current_version - max_staleness, are dropped (counted in "dropped").
        """
        query = {"cursor": cursor, "limit": limit, "min_groups": min_groups, "wait": wait, "min_version": min_version,
                 "current_version": current_version, "max_staleness": max_staleness}
        return self._json("GET", f"/v1/jobs/{job_id}/groups", query={k: v for k, v in query.items() if v is not None})

    def feed_groups(self, job_id: str, **options: Any) -> Iterator[List[Dict[str, Any]]]:
        """Batches of groups (job_groups' options) until nothing more will come on the cursor."""
        while True:
            batch = self.job_groups(job_id, **options)
            if batch["data"]:
                yield batch["data"]
            if batch["finished"]:
                return
            if not batch["data"] and options.get("wait", 20) < 1:
                time.sleep(1.0)

    def job_results(self, job_id: str, *, failures: bool = False) -> Iterator[Dict[str, Any]]:
        """The job's scored rollouts (or failure records) in task-then-repeat order."""
        status, _, data = self.transport.request("GET", f"/v1/jobs/{job_id}/{'failures' if failures else 'rollouts'}")
        if not 200 <= status < 300:
            raise self._error(status, data)
        for line in data.splitlines():
            if line.strip():
                yield json.loads(line)


def trajectory(record: Mapping[str, Any]) -> Dict[str, List[Any]]:
    """A scored rollout as one token sequence for training, checked as NeMo RL checks it.

    Returns `token_ids`, `logprobs` (0.0 on prompt tokens) and `generation_mask` (1 on tokens the policy generated). Each
    model call's prompt must extend everything before it token for token; a record without token ids (run it with
    return_token_ids=True) or whose prompts do not extend each other raises ValueError."""
    seen: List[int] = []
    logprobs: List[float] = []
    mask: List[int] = []
    for item in record["response"]["output"]:
        generated = item.get("generation_token_ids")
        if not generated:
            continue
        prompt = item["prompt_token_ids"]
        if prompt[: len(seen)] != seen:
            raise ValueError("non-contiguous turns: a model call's prompt_token_ids do not start with the tokens before it")
        new = prompt[len(seen):]
        values = item["generation_log_probs"]
        if len(values) != len(generated) or any(math.isnan(v) for v in values):
            raise ValueError("generation_log_probs must be one number per generated token")
        seen += new + generated
        logprobs += [0.0] * len(new) + list(values)
        mask += [0] * len(new) + [1] * len(generated)
    if not mask:
        raise ValueError("the record has no generation token ids: run it with return_token_ids=True")
    return {"token_ids": seen, "logprobs": logprobs, "generation_mask": mask}


def group_advantages(records: Sequence[Mapping[str, Any]], group_size: int) -> List[float]:
    """GRPO's advantage: each reward minus its group's mean, over the group's standard deviation (0 when all are equal)."""
    if len(records) % group_size:
        raise ValueError("the batch is not a whole number of groups")
    advantages: List[float] = []
    for start in range(0, len(records), group_size):
        rewards = [float(r["reward"]) for r in records[start:start + group_size]]
        mean = sum(rewards) / len(rewards)
        std = math.sqrt(sum((x - mean) ** 2 for x in rewards) / max(1, len(rewards) - 1))
        advantages += [(x - mean) / std if std > 0 else 0.0 for x in rewards]
    return advantages
