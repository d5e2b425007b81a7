"""The Maildir the judge writes its outgoing mail into when no relay is
configured (config.maildir).

Each mail is one file, written so that:

* the file's name is a function of its outbox row alone, so after a crash
  the sender can see whether the mail got there (and never writes it twice);
* it appears in new/ whole or not at all (written in tmp/, synced, renamed);
* its line ends are LF, as in every Maildir (mail readers show a CR as ^M);
* its first lines say whom it is for, one ``X-Envelope-To:`` line per
  recipient: a mail to a whole game has only "Players of GAME:;" in its To
  line, and whoever hands the Maildir to a mail server needs the envelope
  (docs/cli.md shows how, taking these lines off again).
"""

from __future__ import annotations

import hashlib
import os
import re
from datetime import datetime
from pathlib import Path

from judge.outbox import check_address

ENVELOPE_FIELD = b"X-Envelope-To"


def maildir_name(outbox_id: int, message_id: str, created_at: datetime) -> str:
    """The row's file name: time.unique.host as Maildir readers expect; the
    Message-ID's hash keeps two databases writing to one Maildir apart."""
    digest = hashlib.sha256(message_id.encode()).hexdigest()[:12]
    host = re.sub(r"[^A-Za-z0-9.-]", "_", message_id.rpartition("@")[2]) or "judge"
    return f"{int(created_at.timestamp())}.outbox{outbox_id}_{digest}.{host}"


def in_maildir(root: Path, name: str, *, look_in_cur: bool) -> bool:
    """Whether the file is there: in new/, or (look_in_cur) moved to cur/
    by a mail reader, which adds ':2,flags' to its name."""
    if (root / "new" / name).exists():
        return True
    if look_in_cur and (root / "cur").is_dir():
        with os.scandir(root / "cur") as entries:
            return any(e.name == name or e.name.startswith(name + ":") for e in entries)
    return False


def maildir_content(recipients: tuple[str, ...], raw: bytes) -> bytes:
    """The file: the envelope's recipients, then the message, LF line ends.
    The recipients are checked again (the row may have been written by
    hand): an address that is not one would break the header."""
    head = b"".join(ENVELOPE_FIELD + b": " + check_address(a).encode("ascii") + b"\n"
                    for a in recipients)
    return head + re.sub(rb"\r\n|\r", b"\n", raw)


def write_to_maildir(root: Path, name: str, recipients: tuple[str, ...], raw: bytes) -> Path:
    """Write the mail into root/new/ under ``name``; the file's path.
    OSError when the Maildir cannot be written (the caller retries later);
    OutboxError for a recipient that is not a mail address."""
    content = maildir_content(recipients, raw)
    for sub in ("tmp", "new", "cur"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    temporary = root / "tmp" / name
    final = root / "new" / name
    _write_durably(temporary, content)
    os.rename(temporary, final)  # atomic: the mail is in new/ whole or not at all
    _sync_directory(root / "new")
    return final


def _write_durably(path: Path, data: bytes) -> None:
    # a leftover in tmp/ is a write a crash cut short: ours to replace
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_directory(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a directory; the rename stands
    finally:
        os.close(fd)
