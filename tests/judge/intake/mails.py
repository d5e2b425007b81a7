"""Sample mails for the intake tests: the files under tests/judge/data/intake
and hostile messages built here (NUL bytes and the like do not belong in a
text file)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "intake"


def load_mail(name: str, *, crlf: bool = False, suffix: str = "") -> bytes:
    raw = (DATA / "mails" / name).read_bytes() + suffix.encode()
    return raw.replace(b"\n", b"\r\n") if crlf else raw


def fingerprint_cases() -> dict[str, Any]:
    with (DATA / "fingerprints.toml").open("rb") as f:
        return tomllib.load(f)


def crlf(raw: bytes) -> bytes:
    """LF line ends made CRLF, as a mail travels over SMTP."""
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def hostile_messages() -> dict[str, bytes]:
    """Messages no sane client sends, each of which must still be stored as
    it came. CRLF line ends and lines under 1000 characters, so SMTP can
    carry them unchanged."""
    long_header = b"".join(b"X-Filler-%04d: %s\r\n" % (i, b"y" * 60) for i in range(1000))
    return {
        "nul bytes": b"From: a@example.org\r\nSubject: \x00nul\x00\r\n"
                     b"Message-ID: <nul\x00@example.org>\r\n\r\nA Par\x00 - Bur\r\n",
        "8-bit headers": b"From: J\xfcrgen <j@example.org>\r\nSubject: Bef\xe9hle \xff\xfe\r\n"
                         b"Message-ID: <\xe4\xf6\xfc@example.org>\r\n\r\nA M\xfcn - Boh\r\n",
        "1000-line header": b"From: many@example.org\r\n" + long_header
                            + b"Message-ID: <long@example.org>\r\n\r\nbody\r\n",
        "no header": b"\r\njust a body\r\n",
        "no body, no blank line": b"Subject: nothing else\r\n",
        "control characters everywhere": bytes(range(1, 32)).replace(b"\r", b"").replace(
            b"\n", b"") + b"\r\n\r\n" + bytes(range(128, 256)) + b"\r\n",
        "huge Message-ID": b"Message-ID: <" + b"m" * 950 + b"\r\n " + b"n" * 950
                           + b"@example.org>\r\n\r\nbody\r\n",
        "header line without colon": b"this is not a header\r\nFrom: x@example.org\r\n\r\nb\r\n",
    }
