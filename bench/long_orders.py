"""How long the judge takes over one orders mail of many lines: each order
line is checked and merged into the orders on file one unit at a time, so
a mail of 1,000 lines (a pasted log, a signature gone wrong) must still be
answered quickly. Processes, through the real store and processing on a
SQLite file, a seven-player game's sign-ups, then the same orders mail of
N lines several times, and prints the time of each orders mail.

    .venv/bin/python bench/long_orders.py --lines 1000 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from email.message import EmailMessage
from email.policy import SMTP
from itertools import cycle, islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.config import Config
from judge.db import open_database
from judge.intake.store import store_inbound
from judge.processing import process_mail

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
# France's units, some orders illegal or for another power's unit
LINES = ("A PAR - BUR", "A PAR - PIC", "A MAR - SPA", "A MAR - MOS", "F BRE - MAO",
         "A BER - KIE", "F BRE - ENG", "A PAR - GAS", "A XYZ H")


def _mail(sender: str, body: str, number: int) -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"], msg["Subject"] = sender, "judge@bench.test", "bench"
    msg["Message-ID"] = f"<bench-{number}@bench.test>"
    msg.set_content(body)
    return msg.as_bytes()


def main() -> None:
    args = argparse.ArgumentParser()
    args.add_argument("--lines", type=int, default=1000)
    args.add_argument("--repeat", type=int, default=5)
    options = args.parse_args()
    config = Config(name="BENCH", address="judge@bench.test")
    with tempfile.TemporaryDirectory() as work:
        engine = open_database(f"sqlite:///{work}/judge.db")
        mails = [("gm@bench.test", "CREATE g gm-pw\nvariant standard\nplayers 7\nEND")]
        mails += [(f"{p}@bench.test", f"JOIN {p}@g pw-{p}") for p in POWERS]
        body = "SIGNON france@g pw-france\nSET WAIT\n" + "\n".join(
            islice(cycle(LINES), options.lines))
        number = 0
        for sender, text in mails:
            number += 1
            stored, _ = store_inbound(engine, _mail(sender, text, number), "smtp")
            assert process_mail(engine, config, stored) == "done"
        times = []
        for _ in range(options.repeat):
            number += 1
            stored, _ = store_inbound(engine, _mail("france@bench.test", body, number), "smtp")
            start = time.perf_counter()
            assert process_mail(engine, config, stored) == "done"
            times.append(time.perf_counter() - start)
    print(f"{options.lines} order lines: median {statistics.median(times) * 1000:.0f} ms, "
          f"min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
          f"over {options.repeat} mails")


if __name__ == "__main__":
    main()
