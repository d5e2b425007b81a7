"""`judge serve` as a real process, for tests that kill it: its
configuration, its start, and the processes it leaves behind."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def write_config(path: Path, data_dir: Path, smtp_port: int, *, workers: int = 1,
                 database_url: str = "") -> Path:
    lines = ["[judge]", f'data_dir = "{data_dir}"', 'address = "judge@judge.test"',
             f"workers = {workers}", "[smtp]", f"port = {smtp_port}",
             "[database]", f'url = "{database_url}"']
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def start_judge(config: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "judge.cli", "--config", str(config),
                                 "serve"], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            return conn.recv(3) == b"220"
    except OSError:
        return False


def _parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    return None if fields[0] == "Z" else int(fields[1])  # a zombie is gone for our purpose


def alive(pid: int) -> bool:
    return _parent_of(pid) is not None


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (children, theirs, ...)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            parent = _parent_of(int(entry.name))
            if parent is not None:
                parents[int(entry.name)] = parent
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def named_semaphores(pids: set[int]) -> set[str]:
    """The POSIX named semaphores (/dev/shm/sem.*) these processes map."""
    found = set()
    for pid in pids:
        try:
            maps = Path(f"/proc/{pid}/maps").read_text()
        except OSError:
            continue
        found |= {line.split()[-1] for line in maps.splitlines() if "/dev/shm/sem." in line}
    return found


def wait_until(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return bool(condition())  # type: ignore[operator]
