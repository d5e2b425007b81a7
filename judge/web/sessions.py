"""Signed-on web pages: who is signed on, kept by the judge, named by a
random token in a cookie.

The cookie holds only the token. The judge keeps, under the token's
digest, the game and power signed on to, a CSRF token for its forms, and
the password sealed with a key derived from the token: orders from the page
go to the judge as a mail with a SIGNON line (judge.web.ordering), so the
password is needed again, but neither the cookie nor the judge's memory
holds it in clear, and the judge's memory alone cannot open it. Signing
off, or a session idle ``session_minutes``, forgets all of it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace

MAX_SESSIONS = 10_000  # the oldest are signed off first past this
COOKIE = "judge_session"


@dataclass(frozen=True)
class WebSession:
    game: str
    power: str  # as signed on: a power, or MASTER for the GM
    csrf: str
    sealed: bytes  # the password, sealed with the token (seal/unseal)
    last_seen: float  # time.monotonic()

    @property
    def master(self) -> bool:
        return self.power == "MASTER"


def _pad(token: str, length: int) -> bytes:
    """A keystream from the token: HMAC-SHA256 in counter mode."""
    out = b""
    block = 0
    while len(out) < length:
        out += hmac.new(token.encode(), b"password %d" % block, hashlib.sha256).digest()
        block += 1
    return out[:length]


def seal(token: str, password: str) -> bytes:
    data = password.encode("utf-8")
    return bytes(a ^ b for a, b in zip(data, _pad(token, len(data)), strict=True))


def unseal(token: str, sealed: bytes) -> str:
    return bytes(a ^ b for a, b in zip(sealed, _pad(token, len(sealed)),
                                       strict=True)).decode("utf-8")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    def __init__(self, idle_seconds: float) -> None:
        self._idle = idle_seconds
        self._kept: OrderedDict[str, WebSession] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, game: str, power: str, password: str) -> tuple[str, WebSession]:
        """A new session; its token (for the cookie) and the session."""
        token = secrets.token_urlsafe(32)
        session = WebSession(game, power, secrets.token_urlsafe(24), seal(token, password),
                             time.monotonic())
        with self._lock:
            self._kept[_digest(token)] = session
            while len(self._kept) > MAX_SESSIONS:
                self._kept.popitem(last=False)
        return token, session

    def find(self, token: str | None) -> WebSession | None:
        """The session a cookie's token names, if still open (and now seen)."""
        if not token or len(token) > 100:
            return None
        key = _digest(token)
        now = time.monotonic()
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return None
            if now - found.last_seen > self._idle:
                del self._kept[key]
                return None
            found = replace(found, last_seen=now)
            self._kept[key] = found
            self._kept.move_to_end(key)
            return found

    def close(self, token: str | None) -> None:
        if token:
            with self._lock:
                self._kept.pop(_digest(token), None)
