"""Password hashes: scrypt, salted, slow on purpose. Passwords are never
stored or mailed in clear; only these hashes reach the database."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import threading
from collections import OrderedDict

# scrypt cost: about 30 ms a check here; enough to make guessing slow,
# cheap enough for a judge that checks one password per mail.
_N, _R, _P = 2**14, 8, 1


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    stored = f"scrypt${_N}${_R}${_P}${_b64(salt)}${_b64(digest)}"
    # known to match: a SIGNON later in the same mail (JOIN, then SIGNON)
    # is checked without a second scrypt, inside the transaction
    _remember(_tag(password, stored))
    return stored


# Successful checks are remembered, as keyed tags only (the key never leaves
# this process), so a player's tenth mail does not pay scrypt again; a wrong
# password always does. Order mails come in bursts before deadlines.
_KEY = os.urandom(32)
_VERIFIED: OrderedDict[bytes, None] = OrderedDict()
_VERIFIED_MAX = 10_000
_LOCK = threading.Lock()


def _tag(password: str, stored: str) -> bytes:
    return hmac.new(_KEY, f"{stored}\0{password}".encode("utf-8", "surrogatepass"),
                    hashlib.sha256).digest()


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from. Slow (scrypt)
    unless it matched before: never call it holding the write lock."""
    if remembered(password, stored):
        return True
    if not _scrypt_matches(password, stored):
        return False
    _remember(_tag(password, stored))
    return True


def remembered(password: str, stored: str) -> bool:
    """Whether this process already knows ``password`` matches ``stored``
    (checked or made here before): fast, and False when it does not know."""
    tag = _tag(password, stored)
    with _LOCK:
        if tag in _VERIFIED:
            _VERIFIED.move_to_end(tag)
            return True
    return False


def _remember(tag: bytes) -> None:
    with _LOCK:
        _VERIFIED[tag] = None
        if len(_VERIFIED) > _VERIFIED_MAX:
            _VERIFIED.popitem(last=False)


def _scrypt_matches(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        actual = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt),
                                n=int(n), r=int(r), p=int(p), dklen=len(expected))
    except (ValueError, TypeError, MemoryError):
        return False
    return hmac.compare_digest(actual, expected)
