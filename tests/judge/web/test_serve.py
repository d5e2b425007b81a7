"""`judge serve` serves the web view and says where; a taken web port is
one line and a non-zero exit, as a taken SMTP port is (real processes)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.loopback import free_port

pytestmark = pytest.mark.slow


def _env(tmp_path: Path, web_port: int) -> dict[str, str]:
    return {**os.environ, "JUDGE_SMTP_PORT": str(free_port()), "JUDGE_SMTP_HOST": "127.0.0.1",
            "JUDGE_WEB_PORT": str(web_port), "JUDGE_DATA_DIR": str(tmp_path),
            "JUDGE_DATABASE_URL": "", "JUDGE_DEADLINE_WORKERS": "1"}


def test_serve_prints_the_web_view_s_address_and_serves_it(tmp_path: Path) -> None:
    port = free_port()
    judge = subprocess.Popen([sys.executable, "-m", "judge.cli", "serve"],
                             env=_env(tmp_path, port), stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    try:
        assert judge.stdout is not None
        line = judge.stdout.readline()
        assert line == f"judge: web view at http://127.0.0.1:{port}/\n"
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=30)
        assert page.status_code == 200 and "There are no games on this judge yet" in page.text
    finally:
        judge.send_signal(signal.SIGTERM)
        judge.wait(60)
    assert judge.returncode == 0


def test_serve_on_a_busy_web_port_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "judge.cli", "serve"],
                              env=_env(tmp_path, port), capture_output=True, text=True,
                              timeout=90, check=False)
    assert done.returncode != 0, time.monotonic() - started
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("judge:")]
    assert errors == [f"judge: the web view could not listen on 127.0.0.1:{port} (in use?)"], \
        done.stderr
