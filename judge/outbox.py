"""Mail the judge sends: a value describing it, the finished message built
from it, and its row in the outbox.

The message is built once, when the row is written: every retry then sends
exactly the same bytes under the same Message-ID, and the row commits in the
same transaction as the state change that caused it (the caller's).

Everything that goes into a header may come from a player (a subject quoting
theirs, the Message-ID being answered, their address), so header values are
flattened to one line and addresses are checked before anything is built.
"""

from __future__ import annotations

import binascii
import json
import logging
import re
import secrets
from dataclasses import dataclass, replace
from email import policy
from email.headerregistry import Address, Group
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from functools import lru_cache
from typing import Protocol

from sqlalchemy import insert
from sqlmodel import Session

from judge import models
from judge.db import run

log = logging.getLogger(__name__)

KINDS = frozenset({"reply", "results", "reminder", "press", "notice"})

# RFC 5321 limits an address path to 256 octets, the brackets included
MAX_ADDRESS = 254
# a subject is one line of a mail reader's list; anything longer is a mistake
# or an attack, and a cut subject still says what the mail is
MAX_SUBJECT = 300
MAX_HEADER_VALUE = 2000

# the headers the judge writes itself; extra headers may not replace them
_OWN_HEADERS = frozenset({
    "from", "to", "cc", "bcc", "subject", "date", "message-id", "auto-submitted",
    "in-reply-to", "references", "mime-version", "content-type",
    "content-transfer-encoding", "content-disposition", "sender", "return-path",
})

# a dot-atom local part and a host name: what a judge can be asked to mail.
# Quoted local parts and address literals are legal but never needed here,
# and refusing them keeps every address safe to put in a header unquoted.
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_ADDRESS = re.compile(
    rf"{_ATEXT}(?:\.{_ATEXT})*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*")
# a field name: printable ASCII but the colon (RFC 5322 section 3.6.8)
_FIELD_NAME = re.compile(r"[!-9;-~]+")
_MESSAGE_ID = re.compile(r"<[!-;=?-~]+>")  # no spaces, no brackets inside
_MIME_TYPE = re.compile(r"([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*)/([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*)")
# C0 controls but the tab, DEL, C1 controls and the Unicode line and paragraph
# separators: everything that some reader of a header takes as a line end
_LINE_BREAKERS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]+")


class OutboxError(ValueError):
    """A mail that cannot be built: a recipient that is not a plain mail
    address, no recipient at all, or a bad extra header or kind."""


class JudgeIdentity(Protocol):
    """What building a message needs from the configuration."""

    @property
    def name(self) -> str: ...

    @property
    def address(self) -> str: ...


@dataclass(frozen=True)
class OutgoingMail:
    to: tuple[str, ...]  # addr-specs
    subject: str
    body: str  # plain text, already formatted by its template
    kind: str = "reply"  # reply | results | reminder | press | notice
    game: str = ""
    in_reply_to: str = ""  # the Message-ID being answered ('' none)
    headers: tuple[tuple[str, str], ...] = ()  # extra ones, e.g. List-Id
    attachments: tuple[tuple[str, str, bytes], ...] = ()  # (file name, MIME type, data)
    # When set, the To line is this name as an empty group ("Players of x:;")
    # and the addresses travel only in the envelope: one message reaches
    # every player of a game without showing them each other's addresses.
    group: str = ""


def one_line(value: str, limit: int = MAX_HEADER_VALUE) -> str:
    """A header value that cannot start another header: every line break
    (and every other control character) becomes a space."""
    return _LINE_BREAKERS.sub(" ", value).strip()[:limit]


def check_address(address: str) -> str:
    """The address itself, if it is a plain addr-spec; OutboxError if not."""
    if len(address) > MAX_ADDRESS or not _ADDRESS.fullmatch(address):
        raise OutboxError(f"not a mail address the judge can send to: {one_line(address, 80)!r}")
    return address


def recipients_of(mail: OutgoingMail) -> tuple[str, ...]:
    """The checked recipients, each once (the first spelling kept)."""
    seen: set[str] = set()
    out: list[str] = []
    for address in mail.to:
        check_address(address)
        if address.lower() not in seen:
            seen.add(address.lower())
            out.append(address)
    if not out:
        raise OutboxError("a mail needs at least one recipient")
    return tuple(out)


def is_own_address(config: JudgeIdentity, *addresses: str) -> bool:
    """Whether any of the addresses is the judge's own (in any case)."""
    own = config.address.strip().lower()
    return any(address.strip().strip("<>").lower() == own for address in addresses)


def _domain(address: str) -> str:
    domain = address.rpartition("@")[2]
    return domain if domain and _ADDRESS.fullmatch(f"x@{domain}") else "localhost"


def _message_id_answered(value: str) -> str:
    """The one Message-ID in what the player's mail said, or '' when it
    held none: a garbled In-Reply-To is left out, not passed on."""
    value = one_line(value)
    found = _MESSAGE_ID.search(value)
    if found:
        return found.group(0)
    if value and _MESSAGE_ID.fullmatch(f"<{value}>"):
        return f"<{value}>"
    return ""


def _file_name(name: str) -> str:
    # a path in an attachment's name is at best useless to the reader
    name = one_line(name, 200).replace("/", "_").replace("\\", "_").strip(". ")
    return name or "attachment"


def build_message(mail: OutgoingMail, config: JudgeIdentity) -> tuple[str, bytes]:
    """The finished message: its Message-ID and its bytes, ready for SMTP."""
    if mail.kind not in KINDS:
        raise OutboxError(f"unknown kind of mail: {mail.kind!r}")
    to = recipients_of(mail)
    name = one_line(config.name, 200)
    sender = check_address(config.address)
    # a subject often quotes the player's; an encoded word of theirs would be
    # decoded by the reader (CRLF and all), so it is broken up to stay text
    subject = one_line(mail.subject, MAX_SUBJECT).replace("=?", "= ?")
    message_id = make_msgid(domain=_domain(config.address))
    fields = [("Date", format_datetime(models.utcnow())), ("Message-ID", message_id),
              # RFC 3834: other robots (vacation replies, other judges) must not answer
              ("Auto-Submitted", "auto-replied" if mail.kind == "reply" else "auto-generated")]
    answered = _message_id_answered(mail.in_reply_to)
    if answered:
        fields += [("In-Reply-To", answered), ("References", answered)]
    for field_name, value in mail.headers:
        if not _FIELD_NAME.fullmatch(field_name) or field_name.lower() in _OWN_HEADERS:
            raise OutboxError(f"an extra header may not be called {one_line(field_name, 80)!r}")
        fields.append((field_name, one_line(value)))
    encoding = _body_encoding(mail.body)
    group = one_line(mail.group, 100)
    if group and not _PLAIN_NAME.fullmatch(group):
        group = "Players"  # a name that would need quoting is not worth losing the mail over
    plain = (_mixed_message(name, sender, to, subject, fields, mail.body, group,
                            mail.attachments, encoding) if mail.attachments
             else _plain_message(name, sender, to, subject, fields, mail.body, group, encoding))
    if plain is not None:
        return message_id, plain
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = Address(display_name=name, addr_spec=sender)
    msg["To"] = (Group(display_name=group) if group
                 else [Address(addr_spec=address) for address in to])
    msg["Subject"] = subject
    for field_name, value in fields:
        msg[field_name] = value
    msg.set_content(mail.body, charset="utf-8", cte=encoding)
    for file_name, mime_type, data in mail.attachments:
        found = _MIME_TYPE.fullmatch(mime_type.strip())
        maintype, subtype = found.groups() if found else ("application", "octet-stream")
        msg.add_attachment(bytes(data), maintype=maintype.lower(), subtype=subtype.lower(),
                           filename=_file_name(file_name))
    return message_id, msg.as_bytes()


# A display name of these characters needs no quoting in a From line.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~ -]+")
_LINE = 78  # RFC 5322's recommended longest line
_LONGEST_LINE = 998  # and its limit
# a header line may be folded before any run of spaces (RFC 5322 section 2.2.3)
_FOLD_POINTS = re.compile(r"(?<=[^ \t])(?=[ \t])")


def _folded(field: str) -> str:
    """A header field as lines of at most 78 characters where it has
    spaces to fold at: a line break goes before a space, which stays, so
    a reader that unfolds it reads the value as it was. A word longer than
    a line stays whole on a line of its own (a URL in List-Unsubscribe
    must stay readable to the reader's program; the email package would
    have made it an encoded word)."""
    if len(field) <= _LINE:
        return field
    lines: list[str] = []
    # the value's first word stays on the name's line: a reader drops the
    # spaces that begin a value, and these would begin it
    name, *pieces = _FOLD_POINTS.split(field)
    line = name + (pieces.pop(0) if pieces else "")
    for piece in pieces:
        if len(line) + len(piece) > _LINE:
            lines.append(line)
            line = piece
        else:
            line += piece
    lines.append(line)
    return "\r\n".join(lines)


def _encoded(field_name: str, value: str) -> str:
    """A field whose value is not plain ASCII, in encoded words (RFC 2047),
    folded: the email package's own header folding, which costs little next
    to its building the whole message."""
    header = policy.SMTP.header_store_parse(field_name, value)[1]
    return str(policy.SMTP.fold(field_name, header)).removesuffix("\r\n")


def _head(name: str, sender: str, to: tuple[str, ...], subject: str,
          fields: list[tuple[str, str]], group: str, content: list[str]) -> bytes | None:
    """The header written out directly, folded as RFC 5322 says; None when
    it needs what only the email package does (a display name that must be
    quoted, a line that cannot be cut to 998 characters), which then builds
    the mail."""
    if not _PLAIN_NAME.fullmatch(name):
        return None
    lines = [f"From: {name} <{sender}>"]
    recipients = f"To: {group}:;" if group else "To: " + ", ".join(to)
    if len(recipients) > _LINE and not group:  # folded after each comma, as the email package does
        recipients = "To: " + ",\r\n ".join(to)
    lines.append(recipients)
    for field_name, value in [("Subject", subject), *fields]:
        lines.append(f"{field_name}: {value}" if value.isascii()
                     else _encoded(field_name, value))
    lines += [*content, "MIME-Version: 1.0"]
    # the To line and encoded words come folded already
    head = "\r\n".join(line if "\r\n" in line else _folded(line) for line in lines)
    if not head.isascii() or any(len(line) > _LONGEST_LINE for line in head.split("\r\n")):
        return None
    return head.encode("ascii")


def _plain_message(name: str, sender: str, to: tuple[str, ...], subject: str,
                   fields: list[tuple[str, str]], body: str, group: str = "",
                   encoding: str = "7bit") -> bytes | None:
    """The message written out directly, for the common case where there
    is no attachment; None when its header needs the email package, which
    then builds it. The result reads as what the email package would
    write, at a twentieth of the cost, which matters when a burst of order
    mails each needs a reply."""
    head = _head(name, sender, to, subject, fields, group,
                 ['Content-Type: text/plain; charset="utf-8"',
                  f"Content-Transfer-Encoding: {encoding}"])
    if head is None:
        return None
    return head + b"\r\n\r\n" + b"\r\n".join(_body_lines(body, encoding)) + b"\r\n"


def _body_lines(body: str, encoding: str) -> list[bytes]:
    """The text's lines as the message carries them, each to be ended (the
    last too, as the email package ends it): as they are (7bit), or
    quoted-printable from UTF-8 (Dissolution's results have their § and →)."""
    if encoding == "7bit":
        return body.encode("ascii").splitlines() or [b""]
    text = b"\n".join(body.encode("utf-8").splitlines()) + b"\n"
    return binascii.b2a_qp(text, istext=True).splitlines()


_PLAIN_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,100}")


@lru_cache(maxsize=16)
def _base64_lines(data: bytes) -> bytes:
    """An attachment in base64, 76 characters a line. Kept for a while: a
    phase's map goes to the players and to the list in two messages."""
    # 57 bytes make 76 characters; encoded line by line, no slicing of the encoded whole
    return b"\r\n".join([binascii.b2a_base64(data[n:n + 57], newline=False)
                         for n in range(0, len(data), 57)])


def _mixed_message(name: str, sender: str, to: tuple[str, ...], subject: str,
                   fields: list[tuple[str, str]], body: str, group: str,
                   attachments: tuple[tuple[str, str, bytes], ...],
                   encoding: str = "7bit") -> bytes | None:
    """A text and its attachments written out directly (what the email
    package would write for them, without its cost for each of the map's
    several hundred kilobytes, twice a phase); None when anything in it is
    not plain (the email package then builds it)."""
    parts = []
    for file_name, mime_type, _ in attachments:
        found = _MIME_TYPE.fullmatch(mime_type.strip())
        if found is None or not _PLAIN_FILE_NAME.fullmatch(file_name):
            return None
        parts.append((file_name, mime_type.strip().lower()))
    # "=_" is never in base64, nor in quoted-printable, nor at a 7bit line's start
    boundary = "=_judge_" + secrets.token_hex(12)
    head = _head(name, sender, to, subject, fields, group,
                 [f'Content-Type: multipart/mixed; boundary="{boundary}"'])
    if head is None or boundary in body:
        return None
    mark = f"--{boundary}".encode("ascii")
    chunks = [head, b"", mark, b'Content-Type: text/plain; charset="utf-8"',
              f"Content-Transfer-Encoding: {encoding}".encode("ascii"), b"",
              *_body_lines(body, encoding)]
    chunks.append(b"")  # the line end before a boundary belongs to the boundary
    for (file_name, mime_type), (_, _, data) in zip(parts, attachments, strict=True):
        chunks += [mark, f"Content-Type: {mime_type}".encode("ascii"),
                   f'Content-Disposition: attachment; filename="{file_name}"'.encode("ascii"),
                   b"Content-Transfer-Encoding: base64", b"", _base64_lines(bytes(data))]
    chunks.append(mark + b"--")
    return b"\r\n".join(chunks) + b"\r\n"


def _body_encoding(body: str) -> str:
    """7bit when the body is ASCII in lines SMTP carries as they are;
    otherwise quoted-printable, which every relay carries (8bit needs the
    relay's 8BITMIME) and which keeps the text readable in the raw mail."""
    if body.isascii() and all(len(line) <= 998 for line in body.splitlines()):
        return "7bit"
    return "quoted-printable"


def queue(session: Session, mail: OutgoingMail, config: JudgeIdentity) -> int:
    """Add the mail to the outbox in the caller's session; returns its row's
    id. Nothing is committed here: the mail goes out only if the caller's
    transaction (the change that caused it) commits. OutboxError if the
    mail cannot be built. The judge's own address is never mailed (it
    would read its own mail and answer it): a mail for nobody else is not
    queued, and 0 returned."""
    if any(is_own_address(config, address) for address in mail.to):
        mail = replace(mail, to=tuple(a for a in mail.to if not is_own_address(config, a)))
        if not mail.to:
            log.warning("a %s mail to the judge's own address was not queued", mail.kind)
            return 0
    message_id, raw = build_message(mail, config)
    now = models.utcnow()
    # a plain insert: every order mail queues a reply, and the ORM's unit of
    # work would cost several times the statement itself
    result = run(session, _QUEUE, {
        "message_id": message_id, "recipients": json.dumps(list(recipients_of(mail))),
        "raw": raw, "kind": mail.kind, "game": mail.game[:64], "created_at": now,
        "status": "pending", "attempts": 0, "next_attempt_at": now, "last_error": ""})
    key = result.inserted_primary_key
    assert key is not None  # a single-row insert always has one
    return int(key[0])


_QUEUE = insert(models.Outbox.__table__)  # type: ignore[attr-defined]
