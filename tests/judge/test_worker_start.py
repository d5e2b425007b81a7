"""A spawned worker watches for the judge's end before it imports the
judge (judge.worker_start): the module it starts in, and what the process
is handed, import nothing but the standard library."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

from judge.config import Config

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sqlalchemy", "sqlmodel", "engine", "judge.config", "judge.processing", "judge.maps")


def test_the_worker_start_imports_none_of_the_judge() -> None:
    config = pickle.dumps(Config(address="judge@judge.test"))
    check = (
        "import sys, pickle\n"
        "import judge.worker_start\n"
        f"heavy = {HEAVY!r}\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
        # the configuration travels as bytes: only reading it imports the judge
        f"pickle.loads({config!r})\n"
        "print('judge.config' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out == ["[]", "True"]
