"""The suite's mail fuzzing (tests/judge/test_fuzz_mail.py), run long.

    .venv/bin/python bench/fuzz_mail.py --mails 20000 [--db URL] [--seed N]

Sends that many random mails (tests/judge/fuzz_mails.py: a player's, the
GM's and a stranger's, built from the judge's command vocabulary with
arguments at their extremes) through store_inbound and process_mail to a
live game, and counts the mails that failed or were answered with the
internal-error reply (there must be none). Each such mail is printed, with
the log of its error. Default database: a new SQLite file in a temporary
directory.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.judge

from hypothesis import HealthCheck, given, seed, settings

from judge.db import open_database
from tests.judge.fuzz_mails import FuzzMail, deliver, fuzz_mail, problem


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=20000)
    parser.add_argument("--db", default="", help="database URL (default: a new SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # an internal error's traceback is shown
    with tempfile.TemporaryDirectory() as scratch:
        engine = open_database(args.db or f"sqlite:///{scratch}/fuzz.db")
        counts = {"mails": 0, "failed": 0, "done": 0, "ignored": 0}
        started = time.monotonic()

        @seed(args.seed)
        @settings(max_examples=args.mails, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(fuzz_mail())
        def one_mail(mail: FuzzMail) -> None:
            outcome = deliver(engine, mail)
            counts["mails"] += 1
            counts[outcome.status] = counts.get(outcome.status, 0) + 1
            found = problem(outcome)
            if found is not None:
                counts["failed"] += outcome.status != "failed"  # an error reply all the same
                print(f"--- {found}, {mail.sender}'s mail:\n{mail.body}\n", flush=True)
            if counts["mails"] % 1000 == 0:
                print(f"{counts['mails']} mails, {counts['failed']} internal errors, "
                      f"{time.monotonic() - started:.0f} s", flush=True)

        one_mail()
        engine.dispose()
    elapsed = time.monotonic() - started
    print(f"{counts['mails']} mails ({counts['done']} done, {counts['ignored']} ignored) in "
          f"{elapsed:.0f} s: {counts['failed']} ended in the internal-error reply")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
