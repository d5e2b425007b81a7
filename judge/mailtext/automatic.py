"""Mail from machines (bounces, auto-replies, bulk), never to be answered."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.message import Message

from judge.mailtext.charsets import _shown
from judge.mailtext.headers import _addresses, _first_token, _header_values
from judge.mailtext.limits import _MAX_DEPTH, _MAX_PARTS, _REPORT_TYPES
from judge.mailtext.mime import _content_type, _param

# --------------------------------------------------------------------------- machines

_DAEMONS = {"mailer-daemon", "mailerdaemon", "postmaster"}


def _automatic(msg: Message, envelope_from: str) -> str | None:
    envelope = re.sub(r"\s", "", envelope_from)
    if envelope == "<>":
        return "bounce (empty envelope sender)"
    bare = envelope.strip("<>")
    if (bare.rpartition("@")[0] if "@" in bare else bare).lower() in _DAEMONS:
        return f"bounce (envelope sender {_shown(bare)})"
    for value in _header_values(msg, "return-path"):
        if re.sub(r"\s", "", value) == "<>":
            return "bounce (Return-Path: <>)"
    for value in _header_values(msg, "from"):
        if "mailer-daemon" in value.lower():
            return "bounce (MAILER-DAEMON)"
    for _, addr in _addresses(_header_values(msg, "from")):
        local = addr.rpartition("@")[0] if "@" in addr else addr
        if local.strip().lower() in _DAEMONS:
            return f"bounce ({local.strip()[:20]})"
    ctype = _content_type(msg)
    if ctype == "multipart/report":
        report = _param(_header_values(msg, "content-type"), "report-type")
        return f"report (multipart/report{'; ' + _shown(report) if report else ''})"
    for part, _ in _parts(msg):
        if _content_type(part) in _REPORT_TYPES:
            return f"report ({_content_type(part)})"
    for value in _header_values(msg, "auto-submitted")[:1]:
        token = _first_token(value)
        if token != "no":
            return f"Auto-Submitted: {_shown(token)}"
    for value in _header_values(msg, "precedence")[:1]:
        token = _first_token(value)
        if token in ("bulk", "list", "junk"):
            return f"Precedence: {token}"
    # RFC 3834 section 2: mail from a list goes to many; a reply to it would
    # go to the list (or its robot) and may come back to us
    for header in ("list-id", "list-unsubscribe", "list-post"):
        if _header_values(msg, header):
            return f"mailing list ({header.title()})"
    for header in ("x-autoreply", "x-autorespond"):
        for value in _header_values(msg, header)[:1]:
            return f"{header.title()}: {_shown(value)}"
    for value in _header_values(msg, "x-auto-response-suppress"):
        tokens = {t.strip().lower() for t in value.split(",")}
        if tokens & {"all", "oof"}:
            return f"X-Auto-Response-Suppress: {_shown(value)}"
    return None


def _parts(msg: Message) -> Iterator[tuple[Message, int]]:
    """Every part with its depth, without recursion and within the limits."""
    stack = [(msg, 0)]
    seen = 0
    while stack and seen < _MAX_PARTS:
        part, depth = stack.pop()
        seen += 1
        yield part, depth
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list) and depth < _MAX_DEPTH:
            children = [p for p in payload if isinstance(p, Message)]
            stack.extend((child, depth + 1) for child in reversed(children))
