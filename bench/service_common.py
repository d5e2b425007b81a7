"""What the judge service benchmarks share: a database to run on (a SQLite
file, or a fresh schema of a PostgreSQL server, dropped afterwards), an
aiosmtpd sink that stands in for the outgoing relay and notes when each
mail arrives, a judge configuration on loopback, running games set up
through the judge's own functions, random legal orders, and a description
of the machine.

These are benchmarks, not tests: they print figures and check nothing but
that the work they time was really done.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import logging
import multiprocessing
import os
import platform
import random
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # the judge's packages, when run as bench/<script>.py
    sys.path.insert(0, str(ROOT))

from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import SMTP  # noqa: E402
from cpu import cpu_model  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402
from sqlmodel import Session  # noqa: E402

from engine.game import adjudicate  # noqa: E402
from engine.map import GameMap  # noqa: E402
from engine.orders import Hold, Move, Order, SupportHold, SupportMove, UnitRef  # noqa: E402
from engine.outcomes import Outcome  # noqa: E402
from engine.state import GameState  # noqa: E402
from engine.variant_file import load_variant  # noqa: E402
from judge import games, order_entry  # noqa: E402
from judge.config import Config, WebConfig  # noqa: E402
from judge.db import normalise_url, transaction  # noqa: E402
from judge.intake.smtp_data import take_mail  # noqa: E402
from judge.models import Game, utcnow  # noqa: E402
from judge.passwords import hash_password  # noqa: E402
from judge.settings import GameSettings  # noqa: E402

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
PLAYER_DOMAIN = "players.test"
GM_ADDRESS = f"gm@{PLAYER_DOMAIN}"


def player_address(game: str, power: str) -> str:
    return f"{power.lower()}.{game}@{PLAYER_DOMAIN}"


def password_of(power: str) -> str:
    return f"pw-{power.lower()}"


# -- the database ----------------------------------------------------------------


@contextmanager
def database(postgres_url: str | None, directory: Path) -> Iterator[str]:
    """The URL of an empty database: a SQLite file in ``directory``, or,
    when ``postgres_url`` is given, a schema of its own on that server
    (through search_path), dropped with everything in it at the end."""
    if not postgres_url:
        yield f"sqlite:///{directory / 'judge.db'}"
        return
    base = normalise_url(postgres_url)
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        sep = "&" if "?" in base else "?"
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def work_directory() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as name:
        yield Path(name)


# -- the relay -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Arrival:
    """One mail as the relay got it, for one recipient."""

    at: float  # time.time() when the relay had the whole mail
    to: str
    subject: str
    in_reply_to: str


@dataclass
class SinkRelay:
    """An aiosmtpd handler that accepts everything and notes each arrival.
    Only the header is read: the figures must not depend on how slowly the
    sink parses bodies."""

    arrivals: list[Arrival] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _headers: email.parser.BytesHeaderParser = field(
        default_factory=lambda: email.parser.BytesHeaderParser(policy=email.policy.compat32))

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        at = time.time()
        head = self._headers.parsebytes(envelope.original_content or envelope.content or b"")
        subject = str(head.get("Subject", ""))
        in_reply_to = str(head.get("In-Reply-To", "")).strip()
        with self.lock:
            for rcpt in envelope.rcpt_tos:
                self.arrivals.append(Arrival(at, rcpt.lower(), subject, in_reply_to))
        return "250 OK"

    def snapshot(self) -> list[Arrival]:
        with self.lock:
            return list(self.arrivals)

    def count(self, subject_prefix: str = "") -> int:
        with self.lock:
            return sum(1 for a in self.arrivals if a.subject.startswith(subject_prefix))

    # The default (33 MiB) is plenty for the sink; a subclass that keeps
    # whole result mails with their maps may lift it (0: no limit).
    data_size_limit = 33554432

    def answer(self, request: tuple[Any, ...]) -> Any:
        """The reply to one question from the benchmark's process; a
        subclass answers more. LookupError: not a question, so stop."""
        if request[0] == "count":
            return self.count(request[1])
        if request[0] == "arrivals":
            return [(a.at, a.to, a.subject, a.in_reply_to) for a in self.snapshot()]
        raise LookupError(request[0])


def forked() -> Any:
    """Helper processes are forked, not spawned: a spawned child imports the
    benchmark's main module again, and with it the whole judge, which is
    slow and, in a checkout others are editing, may fail half way. Fork
    them before the judge starts its threads."""
    return multiprocessing.get_context("fork")


class RelayProcess:
    """The sink relay in a process of its own, so that it competes with the
    judge for the processors (as a real relay on the same machine would)
    but not for the judge's interpreter lock."""

    def __init__(self, handler_type: type[SinkRelay] = SinkRelay) -> None:
        ctx = forked()
        self._conn, child = ctx.Pipe()
        self.port = free_port()
        self._process = ctx.Process(target=_relay_main, args=(child, self.port, handler_type),
                                    name="sink-relay", daemon=True)
        self._process.start()
        child.close()  # so that a child that dies is seen here as end of file
        if not self._conn.poll(30) or self._conn.recv() != "ready":
            self._process.kill()
            raise RuntimeError("the sink relay did not start")

    @property
    def pid(self) -> int:
        return int(self._process.pid or 0)

    def _ask(self, *request: Any) -> Any:
        self._conn.send(request)
        return self._conn.recv()

    def count(self, subject_prefix: str = "") -> int:
        return int(self._ask("count", subject_prefix))

    def arrivals(self) -> list[Arrival]:
        return [Arrival(*row) for row in self._ask("arrivals")]

    def stop(self) -> None:
        try:
            self._ask("stop")
        finally:
            self._process.join(10)


class _WholeDataSMTP(SMTP):
    """aiosmtpd's SMTP, but the text after DATA read into one buffer with
    the judge's own reader (judge.intake.smtp_data), as a real relay reads
    it: aiosmtpd keeps every line as an object of its own, which for a
    Dissolution results mail (1.3 MB of base64 maps, 17,000 lines) cost the
    sink more than the judge spent sending it, so the sink, not the judge,
    set the pace of a deadline's last mails."""

    async def smtp_DATA(self, arg: str) -> None:
        if await self.check_helo_needed():
            return
        assert self.envelope is not None and self.session is not None
        if not self.envelope.rcpt_tos:
            await self.push("503 Error: need RCPT command")
            return
        await take_mail(self)


class _SinkController(Controller):
    def factory(self) -> SMTP:
        return _WholeDataSMTP(self.handler, **self.SMTP_kwargs)


def _relay_main(conn: Any, port: int, handler_type: type[SinkRelay]) -> None:
    handler = handler_type()
    controller = _SinkController(handler, hostname="127.0.0.1", port=port,
                                 server_hostname="relay.test", ready_timeout=10.0,
                                 data_size_limit=handler.data_size_limit)
    controller.start()
    conn.send("ready")
    try:
        while True:
            request = conn.recv()
            try:
                conn.send(handler.answer(request))
            except LookupError:
                conn.send("stopped")
                return
    finally:
        controller.stop()


@contextmanager
def sink_relay() -> Iterator[RelayProcess]:
    relay = RelayProcess()
    try:
        yield relay
    finally:
        relay.stop()


def judge_config(data_dir: Path, database_url: str, relay_port: int) -> Config:
    return Config(name="BENCHJUDGE", address="judge@judge.test", data_dir=data_dir,
                  smtp_port=free_port(), relay_host="127.0.0.1", relay_port=relay_port,
                  relay_first_retry_seconds=1, database_url_setting=database_url,
                  web=WebConfig(port=free_port()))


def quiet_logging() -> None:
    """The judge logs every mail at INFO; at these rates that is the
    benchmark's own overhead, so only warnings are shown."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(logging.WARNING)


# -- games -----------------------------------------------------------------------


def running_game(session: Session, name: str, master_hash: str,
                 password_hashes: dict[str, str], settings: GameSettings,
                 now: datetime) -> tuple[Game, GameState]:
    """A 7-player standard game, created, joined and started through the
    judge's own functions in the caller's transaction (what CREATE and
    seven JOIN mails would do, without the mails). Each player chose a
    power, so seat and power are known."""
    game = games.create_game(session, name, master_hash, GM_ADDRESS, settings)
    for power in POWERS:
        games.join(session, game, player_address(name, power), password_hashes[power], power)
    state = games.start(session, game, now)
    return game, state


def random_orders(game_map: GameMap, state: GameState, power: str,
                  rng: random.Random) -> list[str]:
    """One order per unit of the power, random and legal: mostly moves to a
    neighbour, some supports of a neighbouring unit's hold or of another
    of the power's moves, some holds. Anything the engine finds illegal
    (a fleet move along a coast it cannot follow, say) becomes a hold."""
    units = state.units_of(power)
    occupied = {u.province: u for u in state.units}
    orders: list[Order] = []
    moves: dict[str, str] = {}  # province -> destination province of this power's moves
    for unit in units:
        ref = UnitRef(unit.location, unit.kind)
        neighbours = sorted(game_map.neighbours(unit.kind, unit.location))
        roll = rng.random()
        if roll < 0.6 and neighbours:
            dest = rng.choice(neighbours)
            orders.append(Move(ref, dest))
            moves[unit.province] = dest.partition("/")[0]
        elif roll < 0.8:
            reachable = {d.partition("/")[0] for d in neighbours}
            friends = [occupied[p] for p in sorted(reachable) if p in occupied]
            if friends:
                other = rng.choice(friends)
                orders.append(SupportHold(ref, UnitRef(other.location, other.kind)))
            else:
                orders.append(Hold(ref))
        else:
            orders.append(Hold(ref))
    # a support for one of the power's own moves, where a unit can give it
    for i, unit in enumerate(units):
        if not isinstance(orders[i], Hold):
            continue
        reachable = {d.partition("/")[0] for d in game_map.neighbours(unit.kind, unit.location)}
        for j, mover in enumerate(units):
            order = orders[j]
            if isinstance(order, Move) and moves[mover.province] in reachable:
                orders[i] = SupportMove(UnitRef(unit.location, unit.kind),
                                        UnitRef(mover.location, mover.kind),
                                        moves[mover.province])
                break
    results = adjudicate(game_map, state, {power: orders}).results
    legal = {str(r.order) for r in results
             if r.power == power and r.outcome is not Outcome.ILLEGAL}
    return [str(o) if str(o) in legal else str(Hold(o.unit)) for o in orders
            if isinstance(o, (Hold, Move, SupportHold, SupportMove))]


def games_with_orders(engine: Engine, count: int, seed: int, prefix: str) -> list[int]:
    """``count`` running games with random legal orders on file for every
    power (entered as a mail's orders are), one transaction each; their
    ids. Passwords are hashed once: hashing 3,500 of them with scrypt
    would take minutes and is not what is measured."""
    rng = random.Random(seed)
    game_map = load_variant("standard")
    hashes = {power: hash_password(password_of(power)) for power in POWERS}
    master = hash_password("gm-secret")
    # nmr hold: were an order missing, the deadline would still process
    settings = GameSettings(movement=timedelta(days=2), nmr="hold")
    ids = []
    for n in range(count):
        with transaction(engine) as session:
            game, state = running_game(session, f"{prefix}{n}", master, hashes, settings,
                                       utcnow())
            players = {m.power: m for m in games.members(session, game, "player")}
            for power in POWERS:
                lines = list(enumerate(random_orders(game_map, state, power, rng), start=1))
                report = order_entry.submit_orders(session, game, players[power], lines)
                bad = [note for note in report.notes if note.problem]
                if bad:
                    raise RuntimeError(f"{game.name} {power}: orders refused: {bad}")
            game.reminded = game.phase  # the reminders went out long ago
            session.add(game)
            assert game.id is not None
            ids.append(game.id)
    return ids



# -- figures ---------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0-100), nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summary_ms(values: Sequence[float]) -> dict[str, float]:
    """p50/p95/p99/max/mean of durations in seconds, as milliseconds."""
    if not values:
        return {}
    return {"p50": percentile(values, 50) * 1000, "p95": percentile(values, 95) * 1000,
            "p99": percentile(values, 99) * 1000, "max": max(values) * 1000,
            "mean": statistics.fmean(values) * 1000}


def machine(database_url: str) -> dict[str, str]:
    info = {"nproc": str(os.cpu_count()), "cpu": cpu_model(),
            "python": platform.python_version(), "sqlite": sqlite3.sqlite_version}
    if database_url.startswith("postgresql"):
        engine = create_engine(normalise_url(database_url))
        with engine.connect() as conn:
            info["postgresql"] = str(conn.execute(text("SHOW server_version")).scalar())
        engine.dispose()
    return info


def wait_until(condition: Any, timeout: float, every: float = 0.05) -> bool:
    """Poll ``condition()`` until it is true or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(every)
    return bool(condition())


def later(seconds: float) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds)


def write_json(path: Path | None, figures: object, indent: int = 2) -> None:
    """A bench's figures as JSON at ``path`` (its --json), if one was given."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=indent) + "\n")
