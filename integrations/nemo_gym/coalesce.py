"""Coalescing for the forwarder: /run calls that arrive within a short window go to the gateway as one POST /run/batch.

NeMo RL sends a whole step's rollouts at once, one /run each; with --batch-window-ms the forwarder holds each for at
most that long, sends the rows that came together in one request, and answers each caller the moment its own line comes
back from the stream. A row the gateway refused admission (429/503) is queued again after its Retry-After, within the
forwarder's --max-wait; a batch the gateway refuses whole for a bad row (4xx) is sent again row by row, so only the bad
row gets its 4xx; a row whose line never came (the stream cut) is answered as an unreachable gateway is.

Standard library only.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

Answer = Tuple[int, str, bytes]
WAIT_STATUSES = frozenset({429, 503})


class Pending:
    """One /run call waiting for its line: its body, its deadline for waiting out refusals, and its answer."""

    def __init__(self, body: bytes, deadline: float):
        self.body = body
        self.deadline = deadline
        self.answer: Optional[Answer] = None
        self.done = threading.Event()

    def settle(self, answer: Answer) -> None:
        self.answer = answer
        self.done.set()


class Coalescer:
    """Collects /run bodies for up to `window` seconds (or `max_rows` of them) and sends each lot as one batch."""

    def __init__(self, transport: Any, query: Dict[str, Any], window: float, max_rows: int, max_wait: float,
                 one: Callable[[bytes], Answer], unreachable: Callable[[bytes, str], Answer], verbose: bool = False):
        self.transport = transport
        self.query = query
        self.window = window
        self.max_rows = max_rows
        self.max_wait = max_wait
        self.one = one
        self.unreachable = unreachable
        self.verbose = verbose
        self.queue: "queue.Queue[Pending]" = queue.Queue()
        threading.Thread(target=self._collect, name="coalesce", daemon=True).start()

    def submit(self, body: bytes) -> Answer:
        item = Pending(body, time.monotonic() + self.max_wait)
        self.queue.put(item)
        item.done.wait()
        assert item.answer is not None
        return item.answer

    def _collect(self) -> None:
        while True:
            items = [self.queue.get()]
            closes = time.monotonic() + self.window
            while len(items) < self.max_rows:
                left = closes - time.monotonic()
                if left <= 0:
                    break
                try:
                    items.append(self.queue.get(timeout=left))
                except queue.Empty:
                    break
            threading.Thread(target=self._send, args=(items,), daemon=True).start()

    def _send(self, items: List[Pending]) -> None:
        try:
            self._send_batch(items)
        except Exception as error:  # noqa: BLE001 (every caller must get an answer, whatever went wrong)
            for item in items:
                if not item.done.is_set():
                    item.settle(self.unreachable(item.body, f"the batch failed: {error}"))

    def _send_batch(self, items: List[Pending]) -> None:
        rows = []
        for item in items:
            try:
                rows.append(json.loads(item.body))
            except ValueError:
                rows.append(None)
        if any(not isinstance(row, dict) for row in rows) or len(items) == 1:
            # A body that is not a row, or a lot of one: plain /run calls, each answered as the gateway answers it.
            for item in items:
                item.settle(self.one(item.body))
            return
        if self.verbose:
            sys.stderr.write(f"POST /run/batch: {len(items)} rows\n")
        body = json.dumps({"rows": rows}, separators=(",", ":")).encode()
        status, _, lines = self.transport.stream("/run/batch", body, self.query)
        if status != 200:
            data = b"".join(lines)
            if 400 <= status < 500 and status not in WAIT_STATUSES:
                # One bad row refuses the whole batch: row by row, so only that row's caller gets the 4xx.
                for item in items:
                    item.settle(self.one(item.body))
                return
            for item in items:
                item.settle((status, "application/json", data))
            return
        requeued = set()
        for raw in lines:
            line = json.loads(raw)
            if line.get("done"):
                continue
            item = items[line["index"]]
            if "record" in line:
                item.settle((200, "application/json", json.dumps(line["record"]).encode()))
                continue
            error = line["error"]
            wait = float(error.get("retry_after_seconds") or 0)
            if error["status"] in WAIT_STATUSES and time.monotonic() + wait < item.deadline:
                requeued.add(id(item))
                threading.Timer(wait, self.queue.put, args=(item,)).start()
                continue
            envelope = {"error": {k: v for k, v in error.items() if k in ("code", "message")}}
            item.settle((int(error["status"]), "application/json", json.dumps(envelope).encode()))
        for item in items:
            # A refused row waits on its timer: not answered yet, and not lost.
            if not item.done.is_set() and id(item) not in requeued:
                item.settle(self.unreachable(item.body, "the gateway's batch answer ended before this row's record"))

