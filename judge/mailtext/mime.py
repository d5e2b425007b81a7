"""Walking a mail's MIME structure for the text a person wrote."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.message import Message

from judge.mailtext.charsets import _decode, _unflow
from judge.mailtext.headers import _first_token, _header_values
from judge.mailtext.htmltext import html_to_text
from judge.mailtext.limits import _MAX_DEPTH, _MAX_PARTS, _REPORT_TYPES

# --------------------------------------------------------------------------- MIME structure

_CTYPE = re.compile(r"[a-z0-9!#$&^_.+-]+/[a-z0-9!#$&^_.+-]+")
_SIGNATURE_TYPES = {
    "application/pgp-signature",
    "application/pkcs7-signature",
    "application/x-pkcs7-signature",
}


def _content_type(part: Message) -> str:
    values = _header_values(part, "content-type")
    if not values:
        try:
            return part.get_default_type()
        except Exception:
            return "text/plain"
    main = _first_token(values[0])
    return main if _CTYPE.fullmatch(main) else "text/plain"


def _param(values: list[str], name: str) -> str:
    if not values:
        return ""
    match = re.search(rf"(?i);\s*{name}\*?\s*=\s*\"?([^\";\s]*)", values[0])
    return match.group(1).strip("'") if match else ""


def _is_attachment(part: Message) -> bool:
    values = _header_values(part, "content-disposition")
    return bool(values) and _first_token(values[0]) == "attachment"


@dataclass
class _Found:
    plain: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    parts: int = 0


def _walk(part: Message, depth: int, found: _Found) -> None:
    """Collect the readable text of `part` into `found`. Recursion is bounded
    by _MAX_DEPTH, and the number of parts by _MAX_PARTS."""
    found.parts += 1
    if found.parts > _MAX_PARTS:
        found.problems.append("the mail has too many parts; the rest was ignored")
        return
    ctype = _content_type(part)
    if ctype.startswith("multipart/"):
        payload = part.get_payload()
        if not isinstance(payload, list):
            # No usable boundary: the parser kept the whole body as one text.
            found.problems.append("the mail's MIME structure is broken; it was read as plain text")
            found.plain.append(_part_text(part, found))
            return
        if depth >= _MAX_DEPTH:
            found.problems.append("parts nested too deeply were ignored")
            return
        if ctype == "multipart/encrypted":
            found.problems.append("an encrypted part could not be read")
            return
        children = [p for p in payload if isinstance(p, Message)]
        if ctype == "multipart/alternative" and children:
            children = [_pick_alternative(children)]
        for child in children:
            try:
                _walk(child, depth + 1, found)
            except Exception:
                found.problems.append("a part of the mail could not be read")
        return
    if ctype.startswith("message/"):
        if ctype in ("message/rfc822", "message/global"):
            found.problems.append("a forwarded mail (message/rfc822) was ignored")
        elif ctype not in _REPORT_TYPES:
            found.problems.append(f"a part ({ctype}) was ignored")
        return
    if ctype in _SIGNATURE_TYPES:
        return
    if _is_attachment(part) or ctype not in ("text/plain", "text/html"):
        found.problems.append(f"an attachment ({ctype}) was ignored")
        return
    text = _part_text(part, found)
    (found.plain if ctype == "text/plain" else found.html).append(text)


def _holds(part: Message, ctype: str, depth: int = 0) -> bool:
    """Does `part` carry a readable (not attached) part of type `ctype`?"""
    own = _content_type(part)
    if own.startswith("multipart/"):
        payload = part.get_payload()
        if not isinstance(payload, list) or depth >= _MAX_DEPTH:
            return False
        return any(_holds(p, ctype, depth + 1) for p in payload[:50] if isinstance(p, Message))
    return own == ctype and not _is_attachment(part)


def _pick_alternative(children: list[Message]) -> Message:
    """Of several renderings of one text, the plain one, else the HTML one."""
    for ctype in ("text/plain", "text/html"):
        for child in children:
            if _holds(child, ctype):
                return child
    return children[-1]


def _part_text(part: Message, found: _Found) -> str:
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if not isinstance(data, bytes):
        payload = part.get_payload()
        data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
    content_type = _header_values(part, "content-type")
    text = _decode(data, _param(content_type, "charset") or None, found.problems)
    if _param(content_type, "format").lower() == "flowed":
        text = _unflow(text, _param(content_type, "delsp").lower() == "yes")
    return text


def _body_text(found: _Found) -> str:
    if found.plain:
        return "\n".join(found.plain)
    if found.html:
        found.problems.append("the HTML part was converted to text")
        return "\n".join(html_to_text(h) for h in found.html)
    found.problems.append("the mail has no text part")
    return ""
