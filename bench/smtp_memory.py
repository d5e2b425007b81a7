"""Peak memory of the SMTP listener when big mails arrive together
(issue 25, point 3).

The listener runs alone in a process of its own (this script started again
with ``--serve``), on the judge's default configuration (config/judge.toml),
storing into a SQLite file or, with ``--database-url``, a fresh schema of a
PostgreSQL server. This process then opens N connections, takes each through
MAIL and RCPT (without a SIZE parameter, as a client that does not state its
mail's size), and lets them all send DATA and a mail of M MB at once. When
every client has its reply, the listener reports its peak resident memory
(``VmHWM``) and its resident memory before the mails (``VmRSS``).

Mails over the size limit (the default 30 MB against 25 MB) are read to the
end and refused with 552; mails under it (``--mb 24``) are stored. Either
way, what the listener holds at once is the figure. The mails are lines of
base64, as a photo is sent, or with ``--blank`` empty lines: what each line
costs, apart from its bytes, shows there.

Usage (see bench/README.md, "Big mails arriving together")::

    .venv/bin/python bench/smtp_memory.py                 # 6 clients x 30 MB
    .venv/bin/python bench/smtp_memory.py --mb 24         # stored, not refused
    .venv/bin/python bench/smtp_memory.py --mb 24 --blank # 12 million empty lines each
"""

from __future__ import annotations

import argparse
import json
import smtplib
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service_common import database, free_port, machine, quiet_logging, work_directory
from sqlmodel import Session, col, func, select

from judge.config import load_config
from judge.db import open_database
from judge.intake.smtp import start_listener
from judge.models import InboundMail

JUDGE_ADDRESS = "judge@judge.test"
SETTINGS = ("max_message_bytes", "max_mails_at_once", "busy_wait_seconds")  # shown
LINE = b"QmlnIG1haWwgYXJyaXZpbmcgdG9nZXRoZXI6IGEgcGhvdG8sIGJhc2U2NC1lbmNvZGVkLCBhcyBt\r\n"


def _status_kb(name: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    raise SystemExit(f"no {name} in /proc/self/status: cannot measure memory here")


# -- the listener (a process of its own) -----------------------------------------


def serve(database_url: str, data_dir: str, changes: str) -> None:
    """Run the listener on the default configuration with ``changes`` (JSON);
    print one JSON line when it listens, and another, with the memory
    figures, when a line comes on stdin."""
    quiet_logging()
    config = load_config(environ={}).with_(
        smtp_port=free_port(), database_url_setting=database_url, data_dir=Path(data_dir),
        **json.loads(changes))
    engine = open_database(database_url)
    controller = start_listener(config, engine)
    settings = {name: getattr(config, name) for name in SETTINGS if hasattr(config, name)}
    print(json.dumps({"port": config.smtp_port, "rss_kb": _status_kb("VmRSS"),
                      "settings": settings}), flush=True)
    sys.stdin.readline()
    peak = _status_kb("VmHWM")
    with Session(engine) as session:
        stored = session.exec(select(func.count(col(InboundMail.id)))).one()
    print(json.dumps({"peak_kb": peak, "stored": stored}), flush=True)
    controller.stop()
    engine.dispose()


class Listener:
    def __init__(self, database_url: str, data_dir: Path, changes: dict[str, Any]) -> None:
        self._process = subprocess.Popen(
            [sys.executable, __file__, "--serve", database_url, str(data_dir),
             json.dumps(changes)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.started = self._read()

    def _read(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise SystemExit("the listener process died; see its error above")
        result: dict[str, Any] = json.loads(line)
        return result

    def report(self) -> dict[str, Any]:
        assert self._process.stdin is not None
        self._process.stdin.write("report\n")
        self._process.stdin.flush()
        report = self._read()
        self._process.wait(60)
        return report

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()


# -- the clients -------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    code: int  # to the end of DATA (or to DATA itself when that was refused); 0: none
    text: str
    seconds: float  # from DATA to this reply


def big_mail(n: int, megabytes: float, line: bytes = LINE) -> bytes:
    head = (f"From: sender{n}@players.test\r\nTo: {JUDGE_ADDRESS}\r\n"
            f"Subject: photo {n}\r\nMessage-ID: <big-{n}-{time.time_ns()}@players.test>\r\n"
            "MIME-Version: 1.0\r\nContent-Type: application/octet-stream\r\n"
            "Content-Transfer-Encoding: base64\r\n\r\n").encode()
    return head + line * int(megabytes * 2**20 / len(line))


def send_together(port: int, mails: list[bytes], timeout: float) -> list[Reply]:
    """Each mail from a client of its own; every client sends DATA when all
    of them are past RCPT. Raises SystemExit if a client fails or is not
    done within ``timeout``."""
    replies: list[Reply | None] = [None] * len(mails)
    failures: list[str] = []
    ready = threading.Barrier(len(mails))

    def client(n: int) -> None:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=timeout) as smtp:
                smtp.ehlo("client.players.test")
                # no SIZE: the listener learns the size only by reading the mail
                for code, text in (smtp.mail(f"sender{n}@players.test"),
                                   smtp.rcpt(JUDGE_ADDRESS)):
                    if code != 250:
                        raise RuntimeError(f"{code} {text!r} before DATA")
                ready.wait(timeout)
                start = time.monotonic()
                try:
                    code, text = smtp.data(mails[n])
                except smtplib.SMTPDataError as refused:  # DATA itself refused: 451 when busy
                    code, text = refused.smtp_code, refused.smtp_error
                replies[n] = Reply(code, text.decode(errors="replace"),
                                   time.monotonic() - start)
        except Exception as exc:  # reported below, all of them
            failures.append(f"client {n}: {exc!r}")
            ready.abort()

    threads = [threading.Thread(target=client, args=(n,), daemon=True)
               for n in range(len(mails))]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(deadline - time.monotonic(), 0.0))
    unfinished = [n for n, thread in enumerate(threads) if thread.is_alive()]
    if failures or unfinished:
        raise SystemExit("cannot measure: " + "; ".join(
            failures + [f"client {n} not done in {timeout} s" for n in unfinished]))
    return [reply for reply in replies if reply is not None]


def run(args: argparse.Namespace) -> dict[str, Any]:
    with work_directory() as directory, database(args.database_url, directory) as url:
        changes = {name: value for name, value in (("max_mails_at_once", args.at_once),
                                                   ("busy_wait_seconds", args.busy_wait))
                   if value is not None}  # none: the checkout's defaults (also before them)
        listener = Listener(url, directory, changes)
        try:
            line = b"\r\n" if args.blank else LINE
            mails = [big_mail(n, args.mb, line) for n in range(args.clients)]
            replies = send_together(listener.started["port"], mails, args.timeout)
            del mails
            report = listener.report()
        finally:
            listener.stop()
    before, peak = listener.started["rss_kb"], report["peak_kb"]
    codes = sorted({r.code for r in replies})
    return {
        "machine": machine(url),
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "settings": listener.started["settings"],
        "clients": args.clients, "mail_mb": args.mb,
        "lines": "empty" if args.blank else f"{len(LINE)} bytes",
        "replies": {code: sum(1 for r in replies if r.code == code) for code in codes},
        "reply_texts": sorted({f"{r.code} {r.text}" for r in replies}),
        "slowest_reply_s": round(max(r.seconds for r in replies), 2),
        "stored": report["stored"],
        "rss_before_mb": round(before / 1024, 1),
        "peak_rss_mb": round(peak / 1024, 1),
        "growth_mb": round((peak - before) / 1024, 1),
    }


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        serve(*sys.argv[2:5])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--mb", type=float, default=30.0, help="each mail's size in MB")
    parser.add_argument("--blank", action="store_true",
                        help="mails of empty lines (what a line costs, not a byte)")
    parser.add_argument("--at-once", type=int, help="smtp.max_mails_at_once (default: "
                        "config/judge.toml's)")
    parser.add_argument("--busy-wait", type=float, help="smtp.busy_wait_seconds")
    parser.add_argument("--database-url", help="a PostgreSQL server (default: SQLite)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds for every client to have its reply")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    result = run(args)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
