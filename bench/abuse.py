"""What a hostile mail costs the judge (issue 14): a mail of 1,000 wrong
SIGNONs, and how long other mail waits to be stored meanwhile; one SMTP
line of 20 MB without a line end, and how much the listener grows.

Usage (see bench/README.md, "Abuse")::

    .venv/bin/python bench/abuse.py [--signons 1000] [--line-mb 20]
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path

from judge import passwords
from judge.config import Config
from judge.db import open_database
from judge.intake.smtp import start_listener
from judge.intake.store import store_inbound
from judge.processing import process_mail

CONFIG = Config(name="BENCH", address="judge@judge.test")


def _mail(sender: str, body: str, n: int) -> bytes:
    return (f"From: {sender}\r\nSubject: bench {n}\r\nMessage-ID: <bench-{n}@x.test>\r\n"
            f"\r\n{body}\r\n").encode()


def signon_flood(signons: int) -> None:
    runs = 0
    real = passwords._scrypt_matches

    def counted(password: str, stored: str) -> bool:
        nonlocal runs
        runs += 1
        return real(password, stored)

    passwords._scrypt_matches = counted  # the real scrypt, counted
    with tempfile.TemporaryDirectory() as tmp:
        engine = open_database(f"sqlite:///{Path(tmp) / 'judge.db'}")
        for n, (who, body) in enumerate([
                ("gm@x.test", "CREATE g gm-pw\nvariant standard\nEND"),
                ("f@x.test", "JOIN france@g right-pw")]):
            process_mail(engine, CONFIG, store_inbound(engine, _mail(who, body, n), "smtp")[0])
        flood = store_inbound(engine, _mail("guesser@x.test", "\n".join(
            f"SIGNON france@g guess-{n}" for n in range(signons)), 10), "smtp")[0]
        waits: list[float] = []
        done = threading.Event()

        def others() -> None:  # another sender's mail, stored while the flood runs
            n = 100
            while not done.is_set():
                start = time.perf_counter()
                store_inbound(engine, _mail("other@x.test", "LIST", n), "smtp")
                waits.append(time.perf_counter() - start)
                n += 1
                time.sleep(0.01)

        thread = threading.Thread(target=others)
        thread.start()
        start = time.perf_counter()
        process_mail(engine, CONFIG, flood)
        took = time.perf_counter() - start
        done.set()
        thread.join()
        engine.dispose()
    print(f"{signons} SIGNONs in one mail: processed in {took:.2f} s, {runs} scrypt runs; "
          f"{len(waits)} other mails stored meanwhile, longest store {max(waits) * 1000:.0f} ms")


def _rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def endless_line(megabytes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engine = open_database(f"sqlite:///{Path(tmp) / 'judge.db'}")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        controller = start_listener(CONFIG.with_(smtp_port=port), engine)
        conn = socket.create_connection(("127.0.0.1", port))
        reader = conn.makefile("rb")
        reader.readline()
        for command in (b"HELO x", b"MAIL FROM:<a@x.test>", b"RCPT TO:<judge@judge.test>",
                        b"DATA"):
            conn.sendall(command + b"\r\n")
            reader.readline()
        Path("/proc/self/clear_refs").write_text("5")
        before = _rss_kb("VmRSS")
        chunk = b"x" * 65536
        sent = 0
        try:
            for _ in range(megabytes * 16):
                conn.sendall(chunk)
                sent += len(chunk)
            conn.sendall(b"\r\n.\r\n")
            reader.readline()
        except OSError:
            pass
        grown = _rss_kb("VmHWM") - before
        conn.close()
        controller.stop()
        engine.dispose()
    print(f"{megabytes} MB without a line end: {sent / 2**20:.1f} MB taken before the "
          f"connection closed; peak memory grew {grown / 1024:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signons", type=int, default=1000)
    parser.add_argument("--line-mb", type=int, default=20)
    args = parser.parse_args()
    signon_flood(args.signons)
    endless_line(args.line_mb)


if __name__ == "__main__":
    main()
