"""Decoding text in any charset, never raising."""

from __future__ import annotations

import codecs
import re

# --------------------------------------------------------------------------- charsets

# Labels mail programs use that Python does not know, or knows too narrowly.
_CHARSET_ALIASES = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "iso-8859-8-i": "iso8859_8",
    "x-sjis": "shift_jis",
    "windows-874": "cp874",
    "x-mac-roman": "mac_roman",
    "ks_c_5601-1987": "cp949",
    "unicode-1-1-utf-7": "utf-7",
}
# Real codecs that are not charsets: they would reinterpret the text.
_NOT_CHARSETS = {"unicode_escape", "raw_unicode_escape", "idna", "punycode", "undefined"}
_ASCII_LIKE = {"ascii", "latin_1", "iso8859-1", "cp1252"}


def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    label = charset.strip().strip("\"'").lower()
    label = _CHARSET_ALIASES.get(label, label)
    if not label or len(label) > 40:
        return None
    try:
        info = codecs.lookup(label)
    except Exception:
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARSETS:
        return None
    return info.name


def _decode(data: bytes, charset: str | None, problems: list[str]) -> str:
    """Bytes to text: the declared charset, then UTF-8, then Windows Latin-1
    (the superset of Latin-1 that mislabelled mail almost always means)."""
    codec = _codec(charset)
    if charset and codec is None:
        problems.append(f"the charset {_shown(charset)!r} is unknown; the text was read as UTF-8")
    for name in (codec, "utf-8"):
        if name:
            try:
                return data.decode(name)
            except Exception:
                pass
    fallback = codec if codec and codec not in _ASCII_LIKE and codec != "utf-8" else "cp1252"
    try:
        text = data.decode(fallback, "replace")
    except Exception:
        text = data.decode("cp1252", "replace")
    if "\ufffd" in text:
        problems.append("some characters could not be decoded")
    return text


def _unflow(text: str, delsp: bool) -> str:
    """RFC 3676 format=flowed: lines ending in a space go on in the next line."""
    out: list[str] = []
    carry = ""
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.startswith(">"):
            if carry:
                out.append(carry)
                carry = ""
            out.append(line)
            continue
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if line.endswith(" ") and line != "-- ":
            carry += line[:-1] if delsp else line
            continue
        out.append(carry + line)
        carry = ""
    if carry:
        out.append(carry)
    return "\n".join(out)


def _shown(value: str) -> str:
    """A header value made safe to quote in a reason: short, plain."""
    return re.sub(r"[^\w.,+ -]", "", value)[:40].strip() or "(empty)"
