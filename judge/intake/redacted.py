"""The copy of a mail kept once it is processed: its header and the text the
judge read, every password masked, attachments and other parts dropped.

The raw mail is stored before processing so that nothing is lost in a
crash; once processed, it has served that purpose, and kept whole it would
keep every password in it in clear. The content hash the intake found
copies by stays in its own column, so a re-delivered copy is still known.
"""

from __future__ import annotations

import re

from parser.commands import masker, redacted_lines

# header fields that describe the body as it came: the copy's body is plain text
_BODY_FIELDS = re.compile(rb"^(content-[!-9;-~]*|mime-version|subject)[ \t]*:", re.IGNORECASE)
NOTE = b"X-Judge-Stored: the text the judge read, passwords masked, attachments dropped"


def redacted_copy(raw: bytes, subject: str, body: str, secrets: frozenset[str]) -> bytes:
    """The header of ``raw`` and the read ``body`` (and ``subject``), masked."""
    data = bytes(raw).replace(b"\r\n", b"\n")
    head = data.partition(b"\n\n")[0] if b"\n\n" in data else data
    kept: list[bytes] = []
    dropping = False
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t"):  # continues the field before it
            if not dropping:
                kept.append(line)
            continue
        dropping = bool(_BODY_FIELDS.match(line))
        if not dropping:
            kept.append(line)
    hide = masker(secrets)
    header = hide(b"\r\n".join(kept).decode("utf-8", "replace"))
    text = hide("\n".join(redacted_lines(body.splitlines())))
    lines = [header, f"Subject: {hide(subject)}", NOTE.decode(), "MIME-Version: 1.0",
             'Content-Type: text/plain; charset="utf-8"', "Content-Transfer-Encoding: 8bit",
             "", text]
    return "\r\n".join(lines).encode("utf-8") + b"\r\n"
