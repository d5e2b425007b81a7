"""Fixtures for the intake tests: a real Dovecot IMAP server (scripts/dovecot)
for the whole session, one fresh mailbox folder per test, free ports."""

from __future__ import annotations

import imaplib
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from judge.config import ImapConfig
from tests.loopback import free_port

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "dovecot"



@dataclass(frozen=True)
class Dovecot:
    host: str
    port: int
    user: str
    password: str
    maildir: Path

    def imap(self) -> imaplib.IMAP4:
        conn = imaplib.IMAP4(self.host, self.port, timeout=30)
        conn.login(self.user, self.password)
        return conn


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    # Not pytest's tmp_path: its parents are private to root, and Dovecot
    # reads the mailbox as its own unprivileged user.
    base = Path(tempfile.mkdtemp(prefix="judge-dovecot-"))
    user, password = "judge", "judge-test-pw"
    port = free_port()
    try:
        result = subprocess.run(["bash", str(SCRIPT), "start", str(base), str(port), user,
                                 password], capture_output=True, text=True, timeout=900,
                                check=False)
        if result.returncode != 0:
            pytest.fail(f"scripts/dovecot could not install or start Dovecot (exit "
                        f"{result.returncode}); the IMAP intake tests need it.\n"
                        f"{result.stdout}{result.stderr}", pytrace=False)
        yield Dovecot("127.0.0.1", port, user, password, base / "mail" / user / "Maildir")
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop", str(base)], check=False, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def mailbox(dovecot: Dovecot) -> Iterator[ImapConfig]:
    """A new, empty folder of the Dovecot mailbox, and the poller's settings for it."""
    name = f"t{uuid.uuid4().hex[:12]}"
    conn = dovecot.imap()
    try:
        typ, data = conn.create(name)
        assert typ == "OK", data
    finally:
        conn.logout()
    yield ImapConfig(host=dovecot.host, port=dovecot.port, user=dovecot.user,
                     password=dovecot.password, mailbox=name, interval_seconds=0.2)
    conn = dovecot.imap()
    try:
        conn.delete(name)
    finally:
        conn.logout()
