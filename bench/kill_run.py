"""`judge serve` killed with SIGKILL at random instants under a stream of
order mails: does every mail still get exactly one answer?

One or more judges run as real processes (`python -m judge.cli serve`), on
one database, each with its own data directory and so its own Maildir, the
sink of its outgoing mail; with --relay they send to a loopback SMTP relay
instead, which notes the Message-ID of every message it takes. Client threads send N order mails
over SMTP, spread over the judges, retrying a mail until they get its 250
(as a mail server would: the judge recognises a mail it stored already).
At random instants (after a random number of accepted mails, plus a
random moment) one judge is killed with SIGKILL and started again at
once. When every mail is answered, the run checks, from the database
and the Maildirs:

* lost after 250: a mail a judge accepted that is not in the database;
* processed twice: a mail that got more than one reply row;
* acknowledgements missing: an accepted mail whose reply is not in a
  Maildir (or at the relay);
* sent twice: a reply (outbox row, Message-ID) in a Maildir more than once,
  or at the relay under two Message-IDs;
* resent: with --relay, messages the relay got more than once under the
  same Message-ID (the judge was killed before it wrote down the relay's
  250, and sent it again: the receiving side can tell; not a failure);
* orphans: processes of a killed judge still alive 5 s after the kill;
* semaphores left: named semaphores (/dev/shm/sem.*) a killed judge's
  processes had mapped that are still there after the kill.

Every one of these must be 0. tests/judge/test_kill_run.py runs a small
run in the suite; bench/README.md records full runs. Usage::

    .venv/bin/python bench/kill_run.py --mails 1000 --kills 20
    .venv/bin/python bench/kill_run.py --mails 1000 --kills 20 --judges 2 \\
        --database-url postgresql://root@127.0.0.1:5432/test
    .venv/bin/python bench/kill_run.py --mails 1000 --kills 20 --relay
"""

from __future__ import annotations

import argparse
import email.parser
import email.policy
import email.utils
import json
import os
import random
import signal
import smtplib
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for path in (str(ROOT), str(HERE)):  # the judge's packages and service_common
    if path not in sys.path:
        sys.path.insert(0, path)

from service_common import (  # noqa: E402
    POWERS,
    RelayProcess,
    SinkRelay,
    database,
    free_port,
    password_of,
    player_address,
    random_orders,
    running_game,
)
from sqlmodel import Session, select  # noqa: E402

from engine.variant_file import load_variant  # noqa: E402
from judge.db import open_database, transaction  # noqa: E402
from judge.models import InboundMail, Outbox, utcnow  # noqa: E402
from judge.passwords import hash_password  # noqa: E402
from judge.settings import GameSettings  # noqa: E402

GAME = "killed"
JUDGE_ADDRESS = "judge@judge.test"
SETTLE_SECONDS = 300.0
ORPHAN_SECONDS = 5.0


@dataclass(frozen=True)
class Figures:
    mails: int
    kills: int
    judges: int
    database: str
    lost_after_250: int
    processed_twice: int
    acknowledgements_missing: int
    sent_twice: int
    resent: int
    orphans: int
    semaphores_left: int
    seconds: float

    def clean(self) -> bool:
        return not (self.lost_after_250 or self.processed_twice or
                    self.acknowledgements_missing or self.sent_twice or self.orphans or
                    self.semaphores_left)


# -- the processes of a judge ------------------------------------------------------


def _parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    return None if fields[0] == "Z" else int(fields[1])


def descendants(pid: int) -> set[int]:
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


def named_semaphores(pids: set[int]) -> set[int]:
    """The inodes of the POSIX named semaphores (/dev/shm/sem.*) these
    processes map: the process that made one maps it under a temporary
    name, so only the inode tells which file it is."""
    found = set()
    for pid in pids:
        try:
            maps = Path(f"/proc/{pid}/maps").read_text()
        except OSError:
            continue
        found |= {int(line.split()[4]) for line in maps.splitlines()
                  if "/dev/shm/sem." in line}
    return found


def semaphores_still_there(inodes: set[int]) -> int:
    with os.scandir("/dev/shm") as entries:
        return sum(1 for e in entries if e.name.startswith("sem.") and e.inode() in inodes)


class JudgeProcess:
    """One `judge serve` with a data directory of its own."""

    def __init__(self, directory: Path, database_url: str, workers: int = 1,
                 relay_port: int = 0) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.data_dir = directory / "data"
        self.port = free_port()
        self.config = directory / "judge.toml"
        self.config.write_text("\n".join([
            "[judge]", f'data_dir = "{self.data_dir}"', f'address = "{JUDGE_ADDRESS}"',
            f"workers = {workers}",
            "[smtp]", f"port = {self.port}", "[web]", f"port = {free_port()}",
            "[database]", f'url = "{database_url}"',
            *(["[relay]", 'host = "127.0.0.1"', f"port = {relay_port}",
               "first_retry_seconds = 1"] if relay_port else []), ""]))
        self.log = directory / "judge.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.orphans = 0
        self.semaphores_left = 0

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "judge.cli", "--config", str(self.config), "serve"],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while not self._listening():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the judge did not start; see {self.log}")
            time.sleep(0.05)

    def _listening(self) -> bool:
        try:
            with smtplib.SMTP("127.0.0.1", self.port, timeout=2) as smtp:
                smtp.noop()
            return True
        except (smtplib.SMTPException, OSError):
            return False

    def kill(self) -> None:
        """SIGKILL, then count what the judge left behind (and end it)."""
        assert self.process is not None
        children = descendants(self.process.pid)
        semaphores = named_semaphores(children | {self.process.pid})
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        deadline = time.monotonic() + ORPHAN_SECONDS
        while any(_parent_of(p) is not None for p in children) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = {p for p in children if _parent_of(p) is not None}
        self.orphans += len(left)
        self.semaphores_left += semaphores_still_there(semaphores)
        for pid in left:
            os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# -- the game and the mails --------------------------------------------------------


def set_up_game(database_url: str, seed: int) -> list[tuple[str, bytes, str]]:
    """A running 7-player game; one order mail per power to choose from
    (sender, raw, Message-ID still to be set)."""
    engine = open_database(database_url)
    hashes = {power: hash_password(password_of(power)) for power in POWERS}
    rng = random.Random(seed)
    with transaction(engine) as session:
        settings = GameSettings(movement=timedelta(days=2), nmr="hold")
        game, state = running_game(session, GAME, hash_password("gm"), hashes, settings,
                                   utcnow())
        game.reminded = game.phase
        session.add(game)
    engine.dispose()
    game_map = load_variant("standard")
    return [(player_address(GAME, power), "\n".join(
        [f"SIGNON {power.lower()}@{GAME} {password_of(power)}", "SET WAIT",
         *random_orders(game_map, state, power, rng), "SIGNOFF", ""]).encode(), power)
        for power in POWERS]


def order_mail(number: int, template: tuple[str, bytes, str]) -> tuple[str, bytes, str]:
    sender, body, _ = template
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = JUDGE_ADDRESS
    msg["Subject"] = f"orders {number}"
    msg["Date"] = email.utils.formatdate()
    msg["Message-ID"] = f"<kill-run-{number}@players.test>"
    msg.set_content(body.decode())
    return sender, msg.as_bytes(), str(msg["Message-ID"])


class Clients:
    """Threads that send every mail, each until some judge answers 250."""

    def __init__(self, mails: list[tuple[str, bytes, str]], judges: list[JudgeProcess],
                 threads: int) -> None:
        self.mails = mails
        self.judges = judges
        self.accepted: list[str] = []
        self._next = 0
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, daemon=True) for _ in range(threads)]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def join(self) -> None:
        for thread in self._threads:
            thread.join()

    def count(self) -> int:
        with self._lock:
            return len(self.accepted)

    def _run(self) -> None:
        while True:
            with self._lock:
                number = self._next
                self._next += 1
            if number >= len(self.mails):
                return
            sender, raw, message_id = self.mails[number]
            attempt = 0
            while True:
                judge = self.judges[(number + attempt) % len(self.judges)]
                try:
                    with smtplib.SMTP("127.0.0.1", judge.port, timeout=30) as smtp:
                        smtp.sendmail(sender, [JUDGE_ADDRESS], raw)
                    break
                except (smtplib.SMTPException, OSError):
                    attempt += 1
                    time.sleep(0.1)  # that judge is down or restarting
            with self._lock:
                self.accepted.append(message_id)


class MessageIdRelay(SinkRelay):
    """The sink relay, noting each message's Message-ID and In-Reply-To."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[tuple[str, str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        head = self._headers.parsebytes(envelope.original_content or envelope.content or b"")
        with self.lock:
            self.messages.append((str(head.get("Message-ID", "")).strip(),
                                  str(head.get("In-Reply-To", "")).strip()))
        return "250 OK"

    def answer(self, request: tuple[Any, ...]) -> Any:
        if request[0] == "messages":
            with self.lock:
                return list(self.messages)
        return super().answer(request)


class MessageIdRelayProcess(RelayProcess):
    def __init__(self) -> None:
        super().__init__(MessageIdRelay)

    def messages(self) -> list[tuple[str, str]]:
        return [(message_id, in_reply_to) for message_id, in_reply_to in self._ask("messages")]


# -- the check ---------------------------------------------------------------------


def _in_reply_to(raw: bytes) -> str:
    head = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
    return str(head.get("In-Reply-To", "")).strip()


def settled(database_url: str, accepted: set[str]) -> bool:
    engine = open_database(database_url)
    try:
        with Session(engine) as session:
            stored = {m.message_id: m.status for m in session.exec(select(InboundMail))}
            busy = session.exec(select(Outbox).where(
                Outbox.status.in_(["pending", "sending"]))).first()  # type: ignore[attr-defined]
    finally:
        engine.dispose()
    return busy is None and all(stored.get(m, "new") != "new" for m in accepted)


def maildir_messages(judges: list[JudgeProcess]) -> list[tuple[str, str]]:
    """(Message-ID, In-Reply-To) of every file in the judges' Maildirs."""
    out = []
    parser = email.parser.BytesHeaderParser(policy=email.policy.compat32)
    for judge in judges:
        for sub in ("new", "cur"):
            folder = judge.data_dir / "outgoing" / sub
            if folder.is_dir():
                for path in sorted(folder.iterdir()):
                    head = parser.parsebytes(path.read_bytes())
                    out.append((str(head.get("Message-ID", "")).strip(),
                                str(head.get("In-Reply-To", "")).strip()))
    return out


def check(database_url: str, judges: list[JudgeProcess], accepted: set[str],
          delivered: list[tuple[str, str]], relay: bool, mails: int, kills: int,
          seconds: float) -> Figures:
    engine = open_database(database_url)
    with Session(engine) as session:
        stored = {m.message_id for m in session.exec(select(InboundMail))}
        replies = Counter(_in_reply_to(row.raw) for row in session.exec(
            select(Outbox).where(Outbox.kind == "reply")))
    engine.dispose()
    answered = Counter(in_reply_to for _, in_reply_to in delivered)
    copies = Counter(message_id for message_id, _ in delivered)
    ids_per_reply = Counter(in_reply_to for _, in_reply_to in set(delivered))
    twice = sum(1 for n in (ids_per_reply if relay else copies).values() if n > 1)
    return Figures(
        mails=mails, kills=kills, judges=len(judges),
        database=database_url.partition(":")[0],
        lost_after_250=len(accepted - stored),
        processed_twice=sum(1 for m in accepted if replies[m] > 1),
        acknowledgements_missing=sum(1 for m in accepted if answered[m] == 0),
        sent_twice=twice,
        resent=sum(1 for n in copies.values() if n > 1) if relay else 0,
        orphans=sum(j.orphans for j in judges),
        semaphores_left=sum(j.semaphores_left for j in judges),
        seconds=round(seconds, 1))


# -- the run -----------------------------------------------------------------------


def kill_run(database_url: str, directory: Path, *, mails: int, kills: int, judges: int = 1,
             threads: int = 4, seed: int = 1, relay: bool = False) -> Figures:
    sink = MessageIdRelayProcess() if relay else None
    try:
        return _kill_run(database_url, directory, sink, mails=mails, kills=kills,
                         judges=judges, threads=threads, seed=seed)
    finally:
        if sink is not None:
            sink.stop()


def _kill_run(database_url: str, directory: Path, sink: RelayProcess | None, *, mails: int,
              kills: int, judges: int, threads: int, seed: int) -> Figures:
    rng = random.Random(seed)
    templates = set_up_game(database_url, seed)
    all_mails = [order_mail(n, templates[n % len(templates)]) for n in range(mails)]
    running = [JudgeProcess(directory / f"judge{n}", database_url,
                            relay_port=sink.port if sink else 0) for n in range(judges)]
    for judge in running:
        judge.start()
    began = time.monotonic()
    clients = Clients(all_mails, running, threads)
    try:
        clients.start()
        for after in sorted(rng.randrange(1, mails) for _ in range(kills)):
            while clients.count() < after:
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 0.3))  # a random instant of whatever is going on
            victim = rng.choice(running)
            victim.kill()
            victim.start()
        clients.join()
        accepted = set(clients.accepted)
        deadline = time.monotonic() + SETTLE_SECONDS
        while not settled(database_url, accepted):
            if time.monotonic() > deadline:
                break
            time.sleep(0.5)
        seconds = time.monotonic() - began
    finally:
        for judge in running:
            judge.stop()
    delivered = sink.messages() if sink is not None else maildir_messages(running)
    return check(database_url, running, accepted, delivered, sink is not None, mails, kills,
                 seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--judges", type=int, default=1,
                        help="judges sharing the database (PostgreSQL for more than one)")
    parser.add_argument("--threads", type=int, default=4, help="SMTP client threads")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--relay", action="store_true",
                        help="send through a loopback SMTP relay instead of the Maildir")
    parser.add_argument("--database-url", default="",
                        help="a PostgreSQL server (a schema of its own is made and dropped)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-kill-") as name, \
            database(args.database_url or None, Path(name)) as url:
        figures = kill_run(url, Path(name), mails=args.mails, kills=args.kills,
                           judges=args.judges, threads=args.threads, seed=args.seed,
                           relay=args.relay)
    print(json.dumps(asdict(figures), indent=2))
    return 0 if figures.clean() else 1


if __name__ == "__main__":
    raise SystemExit(main())
