"""One raw incoming mail -> the text the judge reads.

Everything a mail can carry that is not the player's own words is taken off
here: MIME structure, transfer encodings, charsets, HTML, quoted replies,
signatures, `//` comments. What is left is plain lines for the command
parser. Mail from machines (bounces, vacation replies, list traffic) is
recognised so that it is never answered: answering it starts mail loops.

Mail is hostile input. `read_mail` never raises: a part it cannot read is
skipped and named in `problems`, a mail it cannot parse at all is read as raw
text, and every header value that reaches the judge is one clean line.
"""

from __future__ import annotations

import binascii
import codecs
import email
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from html import unescape
from html.parser import HTMLParser


@dataclass(frozen=True)
class MailText:
    sender: str  # the address to answer, lower case, bare 'user@host'; '' if none usable
    sender_name: str  # display name from From, '' if none
    subject: str  # decoded, one line, at most 200 characters
    message_id: str  # '<...>' or ''
    body: str  # the text the judge reads
    automatic: str | None  # None for a person's mail, else why it must never be answered
    problems: tuple[str, ...]  # things worth telling the sender


MAX_SUBJECT_CHARS = 200
MAX_NAME_CHARS = 200
MAX_ADDRESS_CHARS = 254
# Header values past this are hostile or broken; what matters is at the start.
_MAX_HEADER_CHARS = 8192
# Limits on MIME structure, so a crafted mail cannot make the walk expensive.
_MAX_DEPTH = 20
_MAX_PARTS = 500


def read_mail(raw: bytes, max_body_chars: int = 100_000, *, envelope_from: str = "") -> MailText:
    """Read one mail as received. `envelope_from` is the SMTP MAIL FROM when
    known ('<>' for the null sender of bounces); it only feeds `automatic`."""
    try:
        data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else bytes(raw)
    except Exception:
        data = b""
    limit = max(0, max_body_chars) if isinstance(max_body_chars, int) else 100_000
    # Every header is read raw below, so the modern policy's header objects
    # would only cost time (ten times as much on a mail of many parts) and
    # add ways to fail: the old policy comes first, the modern one is the
    # second try, raw text the last.
    for mail_policy in (policy.compat32, policy.default):
        try:
            msg = email.message_from_bytes(data, policy=mail_policy)
            found = _Found()
            _walk(msg, 0, found)
            return _assemble(msg, _body_text(found), found.problems, limit, envelope_from)
        except Exception:
            continue
    note = "the mail's structure could not be read; its raw text was read"
    try:
        # The headers alone parse without recursion, so the sender can still
        # be told (this is where a mail of thousands of nested parts ends).
        head = BytesHeaderParser(policy=policy.compat32).parsebytes(data)
        payload = head.get_payload()
        rest = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
        return _assemble(head, _decode(rest, None, []), [note], limit, envelope_from)
    except Exception:
        pass
    try:
        body, cut = _clean_body(_decode(data, None, []), limit)
        return MailText("", "", "", "", body, None, (note, *cut))
    except Exception:
        return MailText("", "", "", "", "", None, ("the mail could not be read",))


def is_automatic(msg: Message, envelope_from: str = "") -> str | None:
    """Why this mail came from a machine and must not be answered, or None.
    `envelope_from` is the SMTP MAIL FROM if known ('<>' for the null sender)."""
    try:
        return _automatic(msg, envelope_from or "")
    except Exception:
        return None


# --------------------------------------------------------------------------- the whole mail


def _assemble(
    msg: Message, text: str, problems: list[str], limit: int, envelope_from: str
) -> MailText:
    sender, name = _sender(msg)
    subjects = _header_values(msg, "subject")
    subject = _one_line(_decode_words(subjects[0]), MAX_SUBJECT_CHARS) if subjects else ""
    body, cut = _clean_body(text, limit)
    return MailText(
        sender=sender,
        sender_name=name,
        subject=subject,
        message_id=_message_id(msg),
        body=body,
        automatic=is_automatic(msg, envelope_from),
        problems=_unique(problems + cut),
    )


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


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


def _shown(value: str) -> str:
    """A header value made safe to quote in a reason: short, plain."""
    return re.sub(r"[^\w.,+ -]", "", value)[:40].strip() or "(empty)"


# --------------------------------------------------------------------------- machines

_DAEMONS = {"mailer-daemon", "mailerdaemon", "postmaster"}
_REPORT_TYPES = {"message/delivery-status", "message/disposition-notification"}


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


# --------------------------------------------------------------------------- HTML

_BLOCK_TAGS = {
    "address", "article", "blockquote", "br", "dd", "div", "dl", "dt", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section",
    "table", "tr", "ul",
}  # fmt: skip
_SKIPPED_TAGS = {"script", "style", "title", "template"}
# Outlook's reply separator in its plain text; an <hr> plays that part in HTML.
_OUTLOOK_RULE = "_" * 32


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.line_quoted = False
        self.skip = 0
        self.pre = 0
        self.quote = 0

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        # The stdlib asserts on '<![foo' (anything but CDATA and MS Office's
        # '<![if ...]>'); skip such a declaration like a browser would.
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            end = self.rawdata.find(">", i)
            return -1 if end < 0 else end + 1

    def flush(self) -> None:
        text = "".join(self.line) if self.pre else "".join(self.line).strip()
        # A signature separator must survive the stripping as "-- ".
        text = "-- " if text == "--" else text
        self.lines.append(f"> {text}" if self.line_quoted else text)
        self.line = []
        self.line_quoted = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self.skip += 1
        elif tag == "br":
            self.flush()
        elif tag in _BLOCK_TAGS:
            if self.line:
                self.flush()
            self.pre += tag == "pre"
            self.quote += tag == "blockquote"
            if tag == "hr":
                self.lines.append(_OUTLOOK_RULE)
        elif tag in ("td", "th"):
            self.line.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK_TAGS and tag != "br":
            if self.line:
                self.flush()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            if tag == "blockquote":
                self.quote = max(0, self.quote - 1)

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if data.strip() and not "".join(self.line).strip():
            self.line_quoted = self.quote > 0
        if self.pre:
            for i, piece in enumerate(data.split("\n")):
                if i:
                    self.flush()
                self.line.append(piece)
            return
        self.line.append(re.sub(r"\s+", " ", data))


def _defuse(html: str) -> str:
    """Escape every '<' that does not open a complete tag before the next '<'.
    html.parser rescans an unclosed tag up to the end of the input, once per
    such tag, so '<div <div <div ...' takes quadratic time; a browser would
    show those as text anyway. Comments are kept whole. Linear: every search
    stops at the next '<', and the search for '-->' is done once per '-->'."""
    out: list[str] = []
    i = 0
    comment_end = -2  # -2: not searched yet; -1: there is none
    while True:
        lt = html.find("<", i)
        if lt < 0:
            out.append(html[i:])
            return "".join(out)
        out.append(html[i:lt])
        if html.startswith("<!--", lt):
            if comment_end != -1 and comment_end < lt + 4:
                comment_end = html.find("-->", lt + 4)
            if comment_end >= 0:
                out.append(html[lt : comment_end + 3])
                i = comment_end + 3
                continue
        else:
            nxt = html.find("<", lt + 1)
            gt = html.find(">", lt + 1, nxt if nxt >= 0 else len(html))
            if gt >= 0:
                out.append(html[lt : gt + 1])
                i = gt + 1
                continue
        out.append("&lt;")
        i = lt + 1


def html_to_text(html: str) -> str:
    """Readable lines of an HTML mail. Quoted blocks come out as '>' lines so
    that the plain-text rules drop them."""
    parser = _HtmlText()
    try:
        parser.feed(_defuse(html))
        parser.close()
    except Exception:
        # Markup the parser rejects: fall back to dropping every tag.
        return unescape(re.sub(r"<[^>]*>", "\n", html))
    if parser.line:
        parser.flush()
    return "\n".join(parser.lines)


# --------------------------------------------------------------------------- the body

_NEWLINES = re.compile("\r\n|[\r\v\f\u2028\u2029]")
# Tabs and every Unicode space except the plain one.
_SPACES = re.compile("[\t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
# Controls, lone surrogates, and invisible characters that would split words
# (zero-width space, BOM, soft hyphen, bidirectional overrides).
_INVISIBLE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_SIGNOFF = re.compile(r"(?i)\s*signoff\s*")
_FORWARD = re.compile(
    r"(?i)-{2,}\s*(original message|forwarded message|message d'origine|"
    r"urspr\u00fcngliche nachricht|weitergeleitete nachricht)\s*-{2,}|begin forwarded message:"
)
_HEADER_START = re.compile(r"(?i)\s*(from|de|von|da|van|fra|fr\u00e5n|od)\s?:")
_ATTRIBUTION = re.compile(
    r"(?i).*\b(wrote|writes|schrieb|a \u00e9crit|escribi\u00f3|ha scritto|scrisse|schreef|skrev|"
    r"escreveu|napisa\u0142|\u043d\u0430\u043f\u0438\u0441\u0430\u043b\w*)\s*:\s*"
)
_ATTRIBUTION_START = re.compile(r"(On|Le|Am|El|Il|Op|Em|Den)\s")


def _normalise(text: str) -> str:
    text = _NEWLINES.sub("\n", text)
    text = _SPACES.sub(" ", text)
    return _INVISIBLE.sub("", text)


def _one_line(text: str, limit: int) -> str:
    return re.sub(r"\s+", " ", _normalise(text)).strip()[:limit].strip()


def _outlook_rule(stripped: str) -> bool:
    return len(stripped) >= 30 and stripped == "_" * len(stripped)


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _next_content(lines: list[str], start: int) -> str:
    """The next non-blank line from `start`, looking a few lines ahead only."""
    for line in lines[start : start + 4]:
        if line.strip():
            return line
    return ""


def _attribution(lines: list[str], i: int) -> int:
    """How many lines at `i` form an 'On <date>, <name> wrote:' line (it may be
    wrapped over two) that heads a quote; 0 if they do not."""
    line = lines[i]
    if len(line) > 1000:
        return 0
    if _ATTRIBUTION.fullmatch(line) and _quoted(_next_content(lines, i + 1)):
        return 1
    if (
        _ATTRIBUTION_START.match(line)
        and i + 1 < len(lines)
        and len(lines[i + 1]) < 1000
        and _ATTRIBUTION.fullmatch(lines[i + 1])
        and _quoted(_next_content(lines, i + 2))
    ):
        return 2
    return 0


def _clean_body(text: str, limit: int) -> tuple[str, list[str]]:
    """The mail's text as the judge reads it, and a note if it was cut."""
    lines = _normalise(text).split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _SIGNOFF.fullmatch(line):
            kept.append(stripped)
            break
        if line == "-- " or _FORWARD.fullmatch(stripped):
            break
        if _outlook_rule(stripped) and _HEADER_START.match(_next_content(lines, i + 1)):
            break
        if stripped.startswith((">", "//")):
            i += 1
            continue
        # An attribution goes with its quote; what follows the quote is the
        # sender's own answer (bottom posting), so it is kept.
        skip = _attribution(lines, i)
        if skip:
            i += skip
            continue
        kept.append(line.rstrip())
        i += 1
    body = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n")
    if len(body) <= limit:
        return body, []
    cut = body[:limit]
    # Better to lose a whole last line than to read half an order.
    if "\n" in cut and body[limit] != "\n":
        cut = cut[: cut.rindex("\n")]
    return cut.rstrip(), [f"the text was longer than {limit} characters; the rest was ignored"]
