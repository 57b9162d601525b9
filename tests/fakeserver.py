"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks.

It speaks ``POST /v1/chat/completions`` (plain, ``tools`` and ``response_format``
json_schema/json_object requests) and answers from a script of actions, then from a
default responder.  Actions inject faults: an HTTP status with headers (429 with
Retry-After, 500), a delay (client timeouts), a dropped connection, malformed JSON,
schema-invalid JSON and truncated output.  Every request is recorded for assertions.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


def abstract_of(body: dict) -> str:
    """The abstract inside the first user message of a chat request."""
    for m in body.get("messages", []):
        if m.get("role") == "user":
            content = m.get("content") or ""
            if isinstance(content, list):
                content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
            return content.split("Abstract:\n", 1)[-1]
    return ""


_CAMEL = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+\b")
_PCT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)%")


def heuristic_answer(abstract: str) -> dict:
    """A deterministic, grounded answer derived from the abstract (a stand-in model)."""
    words = abstract.split()
    names = list(dict.fromkeys(_CAMEL.findall(abstract)))[:2]
    numbers = [{"text": m.group(0), "value": float(m.group(1)), "unit": "%", "kind": "result",
                "about": "reported share"} for m in _PCT.finditer(abstract)][:4]
    return {"task": " ".join(words[:6]) or "unknown task", "contribution": "method",
            "method_names": names, "datasets": [], "numbers": numbers}


class FakeOpenAI:
    """Start with ``with FakeOpenAI() as server:``; ``server.base_url`` ends in ``/v1``."""

    def __init__(self, responder: Callable[[dict], dict] | None = None, latency: float = 0.0):
        self.responder = responder or (lambda body: heuristic_answer(abstract_of(body)))
        self.latency = latency
        self.script: deque = deque()
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.lock = threading.Lock()
        self.fault: Callable[[dict, int], dict | None] | None = None
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

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
        return sum(1 for r in self.requests if r["path"].endswith("/chat/completions"))

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
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

    def _next_action(self, body: dict) -> dict:
        with self.lock:
            n = self.chat_count
            if self.script:
                return self.script.popleft()
        if self.fault is not None:
            action = self.fault(body, n)
            if action:
                return action
        return {}

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

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

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    return self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
                self._send(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    return self._send(400, {"error": {"message": "invalid JSON body"}})
                with server.lock:
                    server.requests.append({"path": self.path, "body": body})
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                action = server._next_action(body)
                if server.latency:
                    time.sleep(server.latency)
                if "delay" in action:
                    time.sleep(action["delay"])
                if action.get("reset"):
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                               b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.close_connection = True
                    self.connection.close()
                    return
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
