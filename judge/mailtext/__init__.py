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

import email
from dataclasses import dataclass
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser

from judge.mailtext.automatic import _automatic
from judge.mailtext.body import _clean_body, _one_line
from judge.mailtext.charsets import _decode
from judge.mailtext.headers import (
    _addresses,
    _decode_words,
    _header_values,
    _message_id,
    _sender,
    clean_address,
)
from judge.mailtext.htmltext import html_to_text
from judge.mailtext.limits import MAX_ADDRESS_CHARS, MAX_NAME_CHARS, MAX_SUBJECT_CHARS
from judge.mailtext.mime import _body_text, _Found, _walk

__all__ = [
    "MAX_ADDRESS_CHARS", "MAX_NAME_CHARS", "MAX_SUBJECT_CHARS", "MailText", "clean_address",
    "html_to_text", "is_automatic", "read_mail",
]


@dataclass(frozen=True)
class MailText:
    sender: str  # the address to answer, lower case, bare 'user@host'; '' if none usable
    sender_name: str  # display name from From, '' if none
    subject: str  # decoded, one line, at most 200 characters
    message_id: str  # '<...>' or ''
    body: str  # the text the judge reads
    automatic: str | None  # None for a person's mail, else why it must never be answered
    problems: tuple[str, ...]  # things worth telling the sender
    # every address the mail names as its own (From, Reply-To, Sender), as
    # `sender` is: so a mail that would have the judge answer itself is seen
    authors: tuple[str, ...] = ()


# Header values past this are hostile or broken; what matters is at the start.
# Limits on MIME structure, so a crafted mail cannot make the walk expensive.


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
        authors=_authors(msg),
    )


def _authors(msg: Message) -> tuple[str, ...]:
    found = (clean_address(address) for name in ("from", "reply-to", "sender")
             for _, address in _addresses(_header_values(msg, name)))
    return _unique([address for address in found if address])


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
