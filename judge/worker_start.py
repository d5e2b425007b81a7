"""The first code a worker process runs (judge.workers, judge.deadline_workers).

Why a module of its own, importing only the standard library: a spawned
worker spends seconds importing the judge (SQLAlchemy, the rules engine,
the maps) before its work function runs, more on a loaded machine. A judge
killed in those seconds must not leave the worker behind, so the worker
starts watching for the judge's end before it imports any of that: the
work function travels as its dotted name and the configuration as pickled
bytes, which are only read once the watch runs.
"""

from __future__ import annotations

import importlib
import os
import pickle
import threading
import time
from multiprocessing.connection import Connection

PARENT_CHECK_SECONDS = 0.5


def end_with_the_judge(judge_pid: int) -> None:
    """Exit as soon as the judge is gone, even in the middle of a mail or
    a game: its transaction is then rolled back and the work stays for the
    next start. (A worker waiting for work sees its pipe close anyway.)"""
    def watch() -> None:
        while os.getppid() == judge_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="judge-watch", daemon=True).start()


def run(target: str, config: bytes, conn: Connection, judge_pid: int, log_level: int) -> None:
    """Watch the judge, then import ``target`` ("package.module.function")
    and run it with the configuration, the pipe, the judge's pid and the
    log level."""
    end_with_the_judge(judge_pid)
    module, _, name = target.rpartition(".")
    work = getattr(importlib.import_module(module), name)
    work(pickle.loads(config), conn, judge_pid, log_level)
