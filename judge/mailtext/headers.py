"""Header values: decoded words, addresses, Message-ID."""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator
from email.message import Message
from email.utils import getaddresses

from judge.mailtext.body import _one_line
from judge.mailtext.charsets import _decode
from judge.mailtext.limits import _MAX_HEADER_CHARS, MAX_ADDRESS_CHARS, MAX_NAME_CHARS

# --------------------------------------------------------------------------- headers


def _header_values(msg: Message, name: str) -> list[str]:
    """Every value of header `name`, unfolded, as text, cut to a sane length.
    Raw items, because the modern policy's header parsers can raise on
    crafted values."""
    values = []
    for key, value in msg.raw_items():
        if isinstance(key, str) and key.strip().lower() == name:
            text = _desurrogate(str(value)[: _MAX_HEADER_CHARS * 2])
            values.append(re.sub(r"[\r\n]+", "", text)[:_MAX_HEADER_CHARS])
    return values


def _desurrogate(text: str) -> str:
    """Header bytes that were not ASCII arrive as surrogate escapes; read
    them as UTF-8 (SMTPUTF8 mail) or else as Windows Latin-1."""
    if not re.search("[\udc80-\udcff]", text):
        return text
    data = text.encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


_ENCODED_WORD = re.compile(r"=\?([^?\s]{1,60})\?([bBqQ])\?([^?\s]*)\?=")


def _decode_words(value: str) -> str:
    """RFC 2047 encoded words to text. Done here rather than with
    email.header so that bad charsets and bad base64 cannot raise, and
    neighbouring words in one charset are joined as bytes first (a UTF-8
    character is often split between two words)."""
    out: list[str] = []
    pending = b""
    pending_charset = ""
    last_end = 0
    after_word = False
    for match in _ENCODED_WORD.finditer(value):
        gap = value[last_end : match.start()]
        charset = match.group(1).split("*", 1)[0]
        # Blanks between two encoded words are folding, not text.
        joined = after_word and not gap.strip()
        if pending and (not joined or charset.lower() != pending_charset.lower()):
            out.append(_decode(pending, pending_charset, []))
            pending = b""
        if not joined:
            out.append(gap)
        pending_charset = charset
        pending += _word_bytes(match.group(2).lower(), match.group(3))
        last_end = match.end()
        after_word = True
    if pending:
        out.append(_decode(pending, pending_charset, []))
    out.append(value[last_end:])
    return "".join(out)


def _word_bytes(encoding: str, text: str) -> bytes:
    if encoding == "b":
        text = re.sub(r"[^A-Za-z0-9+/]", "", text)
        text += "=" * (-len(text) % 4)
        try:
            return binascii.a2b_base64(text)
        except (binascii.Error, ValueError):
            return b""
    raw = text.replace("_", " ").encode("latin-1", "replace")
    return re.sub(rb"=([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), raw)


_ATOM = r"[\w!#$%&'*+/=?^`{|}~-]+"
_ADDR_SPEC = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@(?:[\w-]+(?:\.[\w-]+)*|\[[A-Za-z0-9:.]+\])")


def clean_address(address: str) -> str:
    """A bare lower-case addr-spec, or '' if `address` is not one we would
    ever put in a To: line (quoted local parts, whitespace, controls, too long)."""
    addr = address.strip()
    if addr.startswith("<") and addr.endswith(">"):
        addr = addr[1:-1]
    if len(addr) > MAX_ADDRESS_CHARS or not _ADDR_SPEC.fullmatch(addr):
        return ""
    local, _, domain = addr.rpartition("@")
    if len(local) > 64:
        return ""
    if not domain.isascii():
        try:
            domain = domain.encode("idna").decode("ascii")
        except Exception:
            return ""
        if len(local) + 1 + len(domain) > MAX_ADDRESS_CHARS:
            return ""
    return f"{local}@{domain}".lower()


def _addresses(values: list[str]) -> Iterator[tuple[str, str]]:
    """(display name, raw address) pairs of some address headers, in order."""
    for value in values:
        try:
            pairs = getaddresses([value])
        except Exception:
            continue
        yield from pairs


def _first_valid(values: list[str]) -> tuple[str, str]:
    for name, addr in _addresses(values):
        clean = clean_address(addr)
        if clean:
            return clean, name
    return "", ""


def _sender(msg: Message) -> tuple[str, str]:
    from_addr, raw_name = _first_valid(_header_values(msg, "from"))
    reply_to, _ = _first_valid(_header_values(msg, "reply-to"))
    name = _one_line(_decode_words(raw_name), MAX_NAME_CHARS) if raw_name else ""
    return reply_to or from_addr, name


_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")


def _message_id(msg: Message) -> str:
    for value in _header_values(msg, "message-id"):
        match = _MESSAGE_ID.search(value)
        if match:
            return match.group(0)
    return ""


def _first_token(value: str) -> str:
    """'auto-replied; owner=x (comment)' -> 'auto-replied'."""
    value = re.sub(r"\([^()]*\)", " ", value)
    return value.split(";", 1)[0].strip().strip('"').lower()


