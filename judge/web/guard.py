"""What every response of the web view carries, and the bounds on every
request: security headers, a rate per client address, a body size.

Plain ASGI (no per-request task or copy of the body), so the bounds cost
next to nothing on the pages fifty readers ask for at once.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from judge.config import WebConfig

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# Nothing inline: page.js is the one script, site.css the one style sheet
# (the maps' SVG styles its texts with presentation attributes, which need
# no 'unsafe-inline'; tests/judge/web/test_maps.py holds every variant to that).
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
# a map's SVG opened on its own: shown, never run
SVG_POLICY = "default-src 'none'; sandbox"

HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    # not no-referrer: under it a browser sends "Origin: null" with the page's
    # own forms, and the app refuses a form whose origin is not this judge
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)
MAX_CLIENTS = 50_000  # the rate's buckets kept; the least recently seen go first


class Bucket:
    """A token bucket: ``per_minute`` requests a minute, as many at once."""

    __slots__ = ("at", "tokens")

    def __init__(self, tokens: float, at: float) -> None:
        self.tokens = tokens
        self.at = at


class Rate:
    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, client: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            bucket = self._buckets.get(client)
            if bucket is None:
                bucket = self._buckets[client] = Bucket(float(self.per_minute), now)
                if len(self._buckets) > MAX_CLIENTS:
                    self._buckets.popitem(last=False)
            else:
                self._buckets.move_to_end(client)
            bucket.tokens = min(float(self.per_minute),
                                bucket.tokens + (now - bucket.at) * self.per_minute / 60)
            bucket.at = now
            if bucket.tokens < 1:
                return False
            bucket.tokens -= 1
            return True


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class Guard:
    def __init__(self, app: App, config: WebConfig) -> None:
        self.app = app
        self.max_body = config.max_body_bytes
        self.requests = Rate(config.requests_per_minute)
        self.posts = Rate(config.posts_per_minute)
        self.refused = 0  # requests refused for their rate: the bench fails on any

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        posting = scope["method"] not in ("GET", "HEAD")
        if not self.requests.allow(client) or (posting and not self.posts.allow(client)):
            self.refused += 1
            await _plain(send, 429, "Too many requests from your address; try again in a "
                                    "minute.", retry=True)
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _plain(send, 413, "That form is too large.")
            return
        await self.app(scope, self._bounded(receive), self._headed(scope, send))

    def _bounded(self, receive: Receive) -> Receive:
        """A body sent in chunks, without a length, stops at the bound too."""
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge
            return message
        return bounded

    @staticmethod
    def _headed(scope: Scope, send: Send) -> Send:
        svg = scope["path"].endswith(".svg")

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"content-security-policy",
                                (SVG_POLICY if svg else POLICY).encode()))
                headers.extend(HEADERS)
                message["headers"] = headers
            await send(message)
        return headed


class BodyTooLarge(Exception):
    """A request body past the bound, found while it was read."""


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


async def _plain(send: Send, status: int, text: str, retry: bool = False) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS,
               (b"content-security-policy", POLICY.encode())]
    if retry:
        headers.append((b"retry-after", b"60"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text.encode()})
