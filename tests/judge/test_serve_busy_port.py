"""`judge serve` on an SMTP port already taken says so in one line and
exits non-zero, without a traceback (a real process, a real socket)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "JUDGE_SMTP_PORT": str(port), "JUDGE_SMTP_HOST": "127.0.0.1",
               "JUDGE_DATA_DIR": str(tmp_path), "JUDGE_DATABASE_URL": "",
               # aiosmtpd waits out its whole ready timeout (the judge's 10 s)
               # before it reports a failed bind; the error is the same sooner
               "AIOSMTPD_CONTROLLER_TIMEOUT": "2"}
        done = subprocess.run([sys.executable, "-m", "judge.cli", "serve"], env=env,
                              capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("judge:")]
    assert errors == [f"judge: cannot listen on 127.0.0.1:{port}: address already in use"], \
        done.stderr
