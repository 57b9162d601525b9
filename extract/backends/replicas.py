"""Endpoints of the OpenAI backend: URL checks, the HTTP client, and the replica set.

* :func:`check_base_url` refuses, in one line, a URL that could never work: another scheme
  (``ftp://``), no scheme, no host, a bad port, or ``user:password@`` (the openai client
  would send the key as a Bearer token and the credentials nowhere; the key belongs in
  ``OPENAI_API_KEY``).  The password is never echoed.
* :func:`http_client` caps the size of a response body (:data:`RESPONSE_CAP_FLOOR` or 64
  bytes per ``max_tokens``, whichever is larger): a never-ending body is cut there.
* :class:`ReplicaSet` spreads requests round-robin; a replica that keeps failing is set
  aside for a while; one that refuses us (401/403/404) is set aside for the run while
  others are healthy; and when no replica has ever answered and each has failed to
  connect :data:`CONNECT_FAIL_FAST` times (once, with ``--retries 0``), the run stops:
  "cannot connect to URL (connection refused)".
"""

from __future__ import annotations

import itertools
import os
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

import openai

try:                       # openai 3 is built on httpx2, openai 2 on httpx
    import httpx2 as httpx
except ImportError:        # pragma: no cover - openai 2
    import httpx

from ..errors import FatalBackendError, UsageError
from .transport import ResponseTooLarge

RESPONSE_CAP_FLOOR = 1 << 20
CONNECT_FAIL_FAST = 2


def _masked(url: str) -> str:
    try:
        p = urllib.parse.urlsplit(url)
    except ValueError:
        return url.split("@")[-1]
    if p.password is None and p.username is None:
        return url
    host = p.netloc.rsplit("@", 1)[-1]
    return urllib.parse.urlunsplit((p.scheme, f"{p.username or ''}:***@{host}", p.path,
                                    p.query, p.fragment))


def check_base_url(url: str) -> str:
    """``url`` without a trailing slash, or a :class:`UsageError` naming what is wrong."""
    shown = _masked(url.strip())
    try:
        p = urllib.parse.urlsplit(url.strip())
        port = p.port
    except ValueError as e:
        raise UsageError(f"--base-url {shown}: not a valid URL ({e})") from None
    if not p.scheme or not p.netloc:
        raise UsageError(f"--base-url {shown}: not a URL; give one such as "
                         "http://localhost:8000/v1")
    if p.scheme.lower() not in ("http", "https"):
        raise UsageError(f"--base-url {shown}: scheme {p.scheme}:// is not supported; use "
                         "http:// or https://")
    if p.username is not None or p.password is not None:
        raise UsageError(f"--base-url {shown}: credentials in the URL are not sent; remove "
                         "user:password@ and put the key in OPENAI_API_KEY")
    if not p.hostname or any(c.isspace() for c in p.netloc) or port == 0:
        raise UsageError(f"--base-url {shown}: not a valid URL (bad host or port)")
    return url.strip().rstrip("/")


class _CappedStream(httpx.AsyncByteStream):
    def __init__(self, inner, cap: int):
        self.inner, self.cap, self.seen = inner, cap, 0

    async def __aiter__(self):
        async for chunk in self.inner:
            self.seen += len(chunk)
            if self.seen > self.cap:
                raise ResponseTooLarge(f"the endpoint's response is over {self.cap:,} bytes; "
                                       "not read further")
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


def http_client(timeout: float, max_tokens: int) -> Any:
    """openai's aiohttp transport (less client CPU per request than the default httpx
    stack: bench/throughput.py, 0.63 -> 0.76 of the ceiling), or the httpx one when a proxy
    is configured in the environment (this aiohttp session ignores HTTP(S)_PROXY); both
    with the response cap."""
    cap = max(RESPONSE_CAP_FLOOR, 64 * max_tokens)

    async def capped(response) -> None:
        length = response.headers.get("content-length")
        if length and length.isdigit() and int(length) > cap:
            raise ResponseTooLarge(f"the endpoint's response is {int(length):,} bytes, over "
                                   f"{cap:,}; not read")
        response.stream = _CappedStream(response.stream, cap)

    hooks = {"response": [capped]}
    proxied = any(os.environ.get(v) or os.environ.get(v.upper())
                  for v in ("https_proxy", "http_proxy", "all_proxy"))
    if not proxied:
        try:
            return openai.DefaultAioHttpClient(timeout=timeout, event_hooks=hooks)
        except RuntimeError:
            pass
    return openai.DefaultAsyncHttpxClient(timeout=timeout, event_hooks=hooks)


@dataclass
class Replica:
    url: str
    client: openai.AsyncOpenAI
    streak: int = 0              # consecutive transient failures
    benched_until: float = 0.0
    connect_fails: int = 0       # consecutive failures to connect
    refused: str | None = None   # why it refused us (401/403/404): set aside for the run
    last_fault: str = ""         # the last connection fault, in words
    reached: bool = False        # that fault came after the server took the connection


class ReplicaSet:
    """Round-robin over healthy replicas; ``bench_after`` failures in a row set a replica
    aside for ``bench_seconds`` (doubling while it keeps failing, capped at 5 minutes)."""

    def __init__(self, replicas: list[Replica], bench_after: int = 3, bench_seconds: float = 5.0,
                 fail_fast_after: int = CONNECT_FAIL_FAST):
        self.replicas = replicas
        self.fail_fast_after = fail_fast_after
        self.bench_after = bench_after
        self.bench_seconds = bench_seconds
        self.answered = False        # has any replica ever answered?
        self._cycle = itertools.cycle(range(len(replicas)))

    def pick(self) -> Replica:
        live = [r for r in self.replicas if r.refused is None]
        if not live:
            raise self._all_refused()
        now = time.monotonic()
        for _ in range(len(self.replicas)):
            r = self.replicas[next(self._cycle)]
            if r.refused is None and r.benched_until <= now:
                return r
        return min(live, key=lambda r: r.benched_until)

    def succeeded(self, r: Replica) -> None:
        r.streak = r.connect_fails = 0
        self.answered = True

    def failed(self, r: Replica, connect: bool = False, why: str = "",
               unanswered: bool = False) -> None:
        """A transient failure of ``r``; ``connect``: it could not be reached; ``unanswered``:
        it took the connection and closed it without answering.  Both count toward
        fail-fast while no replica has ever answered, each named for what it is."""
        r.streak += 1
        if len(self.replicas) > 1 and r.streak >= self.bench_after:
            extra = r.streak - self.bench_after
            r.benched_until = time.monotonic() + min(300.0, self.bench_seconds * 2 ** extra)
        if connect or unanswered:
            r.connect_fails += 1
            r.last_fault = why
            r.reached = unanswered
            if not self.answered and all(x.connect_fails >= self.fail_fast_after or x.refused
                                         for x in self.replicas):
                live = [x for x in self.replicas if x.refused is None]
                parts = [f"{x.url} ({x.last_fault or 'no answer'})" for x in live]
                verb = ("no answer from" if all(x.reached for x in live) else
                        "cannot connect to" if not any(x.reached for x in live) else
                        "cannot connect to or get an answer from")
                raise FatalBackendError(f"{verb} {', '.join(parts)}")

    def refuse(self, r: Replica, why: str) -> None:
        """``r`` said 401/403/404: set it aside for the run; stop when none is left."""
        r.refused = why
        if all(x.refused for x in self.replicas):
            raise self._all_refused()

    def _all_refused(self) -> FatalBackendError:
        if len(self.replicas) == 1:
            return FatalBackendError(self.replicas[0].refused or "the endpoint refused us")
        return FatalBackendError("every endpoint refused the request: " + "; ".join(
            f"{r.url}: {r.refused}" for r in self.replicas))
