"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks.

It speaks ``POST /v1/chat/completions`` (plain, ``tools`` and ``response_format``
json_schema/json_object requests) and answers from a script of actions, then from a
default responder (:func:`fakescript.answer_for`: a hybrid answer to a hybrid request,
else a PaperExtraction-shaped one).  Actions inject faults: an HTTP status with headers (429 with
Retry-After, 500) and message, a delay (``{"delay": seconds}``: the answer is held until the
client hangs up, i.e. until its timeout however slow the machine, at most that long), a
dropped connection, malformed JSON, schema-invalid JSON, truncated output, a body dripped one byte at a time
(``{"drip": seconds}``), a body that never ends (``{"endless": True}``) and a 200 whose
body is an error object (``{"error_body": message}``).  Every request is recorded.

It also speaks the OpenAI Batch API (``POST /v1/files`` multipart upload, ``GET
/v1/files/{id}`` and ``/content``, ``POST /v1/batches``, ``GET /v1/batches/{id}``): a batch
is answered line by line in a background thread with the same script, fault and responder
as live requests.  :class:`FaultPlan` is a deterministic fault mode (every fault kind, each
abstract eventually answered).  ``python tests/fakeserver.py --latency 0.1`` serves in its
own process (benchmarks) and prints its base URL on stdout.
"""

from __future__ import annotations

import argparse
import email.parser
import email.policy
import itertools
import json
import re
import select
import signal
import socket
import sys
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from fakescript import FaultPlan, abstract_of, answer_for, heuristic_answer  # noqa: E402

__all__ = ["FakeOpenAI", "FaultPlan", "abstract_of", "answer_for", "heuristic_answer"]


class _Server(ThreadingHTTPServer):
    request_queue_size = 512      # many clients connect at once (concurrency 32+)
    daemon_threads = True


class FakeOpenAI:
    """Start with ``with FakeOpenAI() as server:``; ``server.base_url`` ends in ``/v1``."""

    def __init__(self, responder: Callable[[dict], dict] | None = None, latency: float = 0.0,
                 keep_requests: bool = True):
        self.responder = responder or answer_for
        self.latency = latency
        self.keep_requests = keep_requests   # False: count requests, keep no bodies (benchmarks)
        self.script: deque = deque()
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.raw_bodies: list[bytes | None] = []
        self.lock = threading.Lock()
        self.fault: Callable[[dict, int], dict | None] | None = None
        self.files: dict[str, dict] = {}       # id -> {"meta": FileObject dict, "data": bytes}
        self.batches: dict[str, dict] = {}     # id -> Batch dict
        self.batch_lines: list[dict] = []      # every batch request line answered
        #: an Event: batches stay in_progress until it is set (a test of a batch not yet done)
        self.batch_gate: threading.Event | None = None
        self._hold: tuple[int, threading.Event] | None = None    # see hold_after
        self._settled: dict[str, threading.Event] = {}    # batch id -> set once it is finished
        self.no_download: set[str] = set()     # file purposes whose content is refused (403)
        self.endless_finished = False          # True if a client read a whole endless body
        self._chat = 0
        self._ids = itertools.count(1)
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        kwargs={"poll_interval": 0.05})  # quick shutdown

    # -- control ---------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def push(self, *actions: dict) -> None:
        """Queue actions for the next chat requests, in order."""
        with self.lock:
            self.script.extend(actions)

    @property
    def chat_count(self) -> int:
        return self._chat

    def hold_after(self, n: int) -> threading.Event:
        """Chat requests after the first ``n`` are held (unanswered) until the returned
        Event is set or their client hangs up: a run stops at a known point, however fast
        or slow the machine."""
        gate = threading.Event()
        with self.lock:
            self._hold = (n, gate)
        return gate

    def wait_batch(self, batch_id: str, timeout: float = 300.0) -> bool:
        """Block until batch ``batch_id`` is finished (completed or failed): woken by the
        batch's thread, not by polling; ``timeout`` only bounds a hung test."""
        with self.lock:
            settled = self._settled[batch_id]
        return settled.wait(timeout)

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._hold is not None:
            self._hold[1].set()
        self._server.shutdown()
        self._server.server_close()

    # -- answers ---------------------------------------------------------------------
    def completion(self, body: dict, payload: Any, finish: str = "stop", raw: str | None = None) -> dict:
        """A chat.completion carrying ``payload`` the way the request asked for it."""
        text = raw if raw is not None else json.dumps(payload)
        message: dict = {"role": "assistant", "content": None}
        tools = body.get("tools") or []
        if tools:
            name = tools[0]["function"]["name"]
            message["tool_calls"] = [{"id": "call_1", "type": "function",
                                      "function": {"name": name, "arguments": text}}]
            if finish == "stop":
                finish = "tool_calls"
        else:
            message["content"] = text
        prompt_tokens = sum(len(str(m.get("content") or "")) for m in body.get("messages", [])) // 4
        completion_tokens = max(1, len(text) // 4)
        return {"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                "model": body.get("model", "fake"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                          "total_tokens": prompt_tokens + completion_tokens}}

    def _note(self, path: str, body: Any, headers: dict, raw: bytes | None = None) -> threading.Event | None:
        """Record a request (its parsed body, and the bytes as sent in ``raw_bodies``); the
        Event it must wait for when it is held (hold_after)."""
        with self.lock:
            if path.endswith("/chat/completions"):
                self._chat += 1
            if self.keep_requests:
                self.requests.append({"path": path, "body": body})
                self.headers.append(headers)
                self.raw_bodies.append(raw)
            if self._hold is not None and path.endswith("/chat/completions") and self._chat > self._hold[0]:
                return self._hold[1]
        return None

    def _next_action(self, body: dict) -> dict:
        with self.lock:
            n = self._chat
            if self.script:
                return self.script.popleft()
        if self.fault is not None:
            action = self.fault(body, n)
            if action:
                return action
        return {}

    # -- Batch API -------------------------------------------------------------------
    def _new_file(self, data: bytes, filename: str, purpose: str) -> dict:
        fid = f"file-{next(self._ids):06d}"
        meta = {"id": fid, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                "filename": filename, "purpose": purpose, "status": "processed"}
        with self.lock:
            self.files[fid] = {"meta": meta, "data": data}
        return meta

    def _upload(self, content_type: str, raw: bytes) -> tuple[int, dict]:
        """``POST /v1/files`` (multipart/form-data with ``purpose`` and ``file``)."""
        msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
        if not msg.is_multipart():
            return 400, {"error": {"message": "expected multipart/form-data"}}
        fields, data, filename = {}, None, "upload"
        for part in msg.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            if name == "file":
                data, filename = payload, part.get_filename() or filename
            elif name:
                fields[name] = payload.decode()
        if data is None:
            return 400, {"error": {"message": "no file part"}}
        return 200, self._new_file(data, filename, fields.get("purpose", "batch"))

    def _create_batch(self, body: dict) -> tuple[int, dict]:
        """``POST /v1/batches``: the batch is answered in a background thread."""
        fid = body.get("input_file_id")
        if fid not in self.files:
            return 404, {"error": {"message": f"no file {fid!r}"}}
        if body.get("endpoint") != "/v1/chat/completions":
            return 400, {"error": {"message": "only /v1/chat/completions is served here"}}
        bid = f"batch_{next(self._ids):06d}"
        batch = {"id": bid, "object": "batch", "endpoint": body["endpoint"], "errors": None,
                 "input_file_id": fid, "completion_window": body.get("completion_window", "24h"),
                 "status": "validating", "output_file_id": None, "error_file_id": None,
                 "created_at": int(time.time()), "metadata": body.get("metadata"),
                 "request_counts": {"total": 0, "completed": 0, "failed": 0}}
        with self.lock:
            self.batches[bid] = batch
            self._settled[bid] = threading.Event()
        threading.Thread(target=self._run_batch, args=(bid,), daemon=True).start()
        return 200, dict(batch)

    def _run_batch(self, bid: str) -> None:
        try:
            self._answer_batch(bid)
        finally:
            self._settled[bid].set()

    def _answer_batch(self, bid: str) -> None:
        batch = self.batches[bid]
        lines = self.files[batch["input_file_id"]]["data"].decode("utf-8").splitlines()
        reqs, ids, problems = [], set(), []
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                req = json.loads(line)
            except ValueError:
                problems.append({"code": "invalid_json_line", "line": n,
                                 "message": "this line is not valid JSON"})
                continue
            if req.get("custom_id") in ids:
                problems.append({"code": "duplicate_custom_id", "line": n,
                                 "message": f"custom_id {req.get('custom_id')!r} is not unique"})
            ids.add(req.get("custom_id"))
            reqs.append(req)
        with self.lock:
            if problems:
                batch.update(status="failed", failed_at=int(time.time()),
                             errors={"object": "list", "data": problems})
                return
            batch.update(status="in_progress", in_progress_at=int(time.time()),
                         request_counts={"total": len(reqs), "completed": 0, "failed": 0})
        if self.batch_gate is not None:
            self.batch_gate.wait()
        out, err = [], []
        for req in reqs:
            line = self._batch_answer(req)
            ok = line["response"] is not None and line["response"]["status_code"] == 200
            (out if ok else err).append(json.dumps(line))
            with self.lock:
                batch["request_counts"]["completed" if ok else "failed"] += 1
        out_meta = self._new_file(("\n".join(out) + "\n").encode() if out else b"",
                                  f"{bid}_output.jsonl", "batch_output")
        err_meta = self._new_file(("\n".join(err) + "\n").encode(), f"{bid}_error.jsonl",
                                  "batch_output") if err else None
        with self.lock:
            batch.update(status="completed", completed_at=int(time.time()),
                         output_file_id=out_meta["id"],
                         error_file_id=err_meta["id"] if err_meta else None)

    def _batch_answer(self, req: dict) -> dict:
        """One line of a batch's output, answered like a live request (script, fault,
        responder); connection-level faults (delay, reset) do not apply to a batch."""
        rid = f"batch_req_{next(self._ids):06d}"
        line = {"id": rid, "custom_id": req.get("custom_id"), "response": None, "error": None}
        if req.get("method") != "POST" or req.get("url") != "/v1/chat/completions":
            line["error"] = {"code": "invalid_url", "message": f"cannot {req.get('method')} {req.get('url')}"}
            return line
        body = req.get("body") or {}
        with self.lock:
            self.batch_lines.append(req)
        action = self._next_action(body)
        if "status" in action:
            answer = {"error": {"message": action.get("message", "injected fault"), "type": "injected"}}
            line["response"] = {"status_code": action["status"], "request_id": rid, "body": answer}
            return line
        if "raw" in action:
            answer = self.completion(body, None, raw=action["raw"])
        elif action.get("truncate"):
            text = json.dumps(action.get("payload") or self.responder(body))
            answer = self.completion(body, None, finish="length", raw=text[: len(text) // 2])
        else:
            answer = self.completion(body, action["payload"] if "payload" in action
                                     else self.responder(body))
        line["response"] = {"status_code": 200, "request_id": rid, "body": answer}
        return line

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True   # headers and body are two writes: no 40 ms stalls

            def log_message(self, *args):  # keep test output clean
                pass

            def _send(self, status: int, obj: Any = None, headers: dict | None = None,
                      raw: bytes | None = None):
                data = raw if raw is not None else json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, str(v))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout): nothing to answer

            def _hold(self, seconds: float, until: threading.Event | None = None) -> bool:
                """Wait until the client hangs up (True), ``until`` is set or ``seconds``
                pass: a client's timeout is met however slow the machine."""
                deadline = time.monotonic() + seconds
                while not (until is not None and until.is_set()):
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    ready, _, _ = select.select([self.connection], [], [], min(left, 0.05))
                    if ready:           # the client hung up (or sent more: it no longer waits)
                        self.close_connection = True
                        return True
                return False

            def _drip(self, data: bytes, every: float):
                """A well-formed answer, one byte every ``every`` seconds."""
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    for i in range(len(data)):
                        self.wfile.write(data[i:i + 1])
                        self.wfile.flush()
                        time.sleep(every)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            def _endless(self):
                """A 200 whose chunked body never ends (until the client hangs up)."""
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b" " * 65536
                frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
                try:
                    self.wfile.write(b"1\r\n{\r\n")
                    for _ in range(200_000):          # ~13 GB: a client must give up first
                        self.wfile.write(frame)
                    server.endless_finished = True
                except (BrokenPipeError, ConnectionResetError, OSError):
                    pass
                self.close_connection = True

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    return self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
                m = re.search(r"/files/([^/?]+)(/content)?$", self.path)
                if m and m.group(1) in server.files:
                    f = server.files[m.group(1)]
                    if m.group(2) and f["meta"]["purpose"] in server.no_download:
                        return self._send(403, {"error": {"message": "Not allowed to download "
                                                          f"files of purpose: {f['meta']['purpose']}"}})
                    return self._send(200, raw=f["data"]) if m.group(2) else self._send(200, f["meta"])
                m = re.search(r"/batches/([^/?]+)$", self.path)
                if m and m.group(1) in server.batches:
                    with server.lock:
                        return self._send(200, dict(server.batches[m.group(1)]))
                self._send(404, {"error": {"message": f"not found: {self.path}"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.path.rstrip("/").endswith("/files"):
                    server._note(self.path, None, {k.lower(): v for k, v in self.headers.items()})
                    return self._send(*server._upload(self.headers.get("Content-Type", ""), raw))
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    return self._send(400, {"error": {"message": "invalid JSON body"}})
                held = server._note(self.path, body, {k.lower(): v for k, v in self.headers.items()}, raw)
                if held is not None and self._hold(3600.0, held):
                    return
                if self.path.rstrip("/").endswith("/batches"):
                    return self._send(*server._create_batch(body))
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                action = server._next_action(body)
                if server.latency:
                    time.sleep(server.latency)
                if "delay" in action and self._hold(action["delay"]):
                    return
                if action.get("reset"):
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                               b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.close_connection = True
                    self.connection.close()
                    return
                if "error_body" in action:
                    return self._send(200, {"error": {"message": action["error_body"],
                                                      "type": "server_error"}})
                if action.get("endless"):
                    return self._endless()
                if "drip" in action:
                    data = json.dumps(server.completion(body, server.responder(body))).encode()
                    return self._drip(data, action["drip"])
                if "status" in action:
                    return self._send(action["status"],
                                      {"error": {"message": action.get("message", "injected fault"),
                                                 "type": "injected"}},
                                      headers=action.get("headers"))
                if "raw" in action:      # malformed JSON inside a well-formed completion
                    return self._send(200, server.completion(body, None, raw=action["raw"]))
                payload = action["payload"] if "payload" in action else server.responder(body)
                finish = "length" if action.get("truncate") else "stop"
                if action.get("truncate"):
                    text = json.dumps(payload)
                    return self._send(200, server.completion(body, None, finish=finish,
                                                             raw=text[: len(text) // 2]))
                self._send(200, server.completion(body, payload, finish=finish))

        return Handler


def main(argv: list[str] | None = None) -> None:
    """Serve in this process until killed: ``python tests/fakeserver.py --latency 0.1``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    ap.add_argument("--faults", type=float, default=0.0, help="FaultPlan rate (0: none)")
    args = ap.parse_args(argv)
    server = FakeOpenAI(latency=args.latency, keep_requests=False)
    if args.faults:
        server.fault = FaultPlan(rate=args.faults)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with server:
        print(server.base_url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except (KeyboardInterrupt, SystemExit):
            pass


if __name__ == "__main__":
    main()
