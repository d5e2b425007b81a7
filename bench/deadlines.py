"""Many games due at the same moment: how long until the last result mail
has reached the relay.

N running 7-player games (500 by default) are set up through the judge's
own functions (create, seven joins, start), each with random legal orders
on file for every power (submitted through ``order_entry.submit_orders``, as a
mail's orders are), and every deadline set to the same moment T, a few
seconds ahead. Then a whole judge starts (listener, worker, deadline
scheduler, sender; a sink relay runs in a process of its own) and the
clock runs from T to the last result mail at the relay.

Figures: T to the last game adjudicated (its results queued, from
``Outbox.created_at``), T to the last result mail at the relay, games a
second; the cores the judge used from T to the last mail (the CPU time of
its process and its worker processes, over the wall time; the relay's own
not counted) and its peak memory, the resident memory of its processes
summed (sampled every 0.2 s; the proportional figure, PSS, once a second).
A run that did not measure what it says (a result mail missing, a game
that did not move on, a map missing) prints what went wrong instead, and
exits with status 1. Unless ``--no-breakdown``, a second set of games is then set up
the same way and its work is timed in two separate steps, in one thread:
``scheduler.attend`` for each game (adjudication, storing the next phase,
building and queuing the result mails), then a ``Sender`` alone delivering
all of them.

With ``--variant dissolution`` the games are Dissolution games instead
(10 players each, random legal orders for every played power, Ukraine's
``A Khk - Mos`` and Poland's bid ``1: A Blr S Khk - Mos`` in every game),
whose result mails carry four maps (the geographic map and the Favor map,
each as PNG and SVG); the relay then also counts each result mail's
attachments.

Usage (see bench/README.md)::

    .venv/bin/python bench/deadlines.py --games 500
    .venv/bin/python bench/deadlines.py --variant dissolution --games 100
    .venv/bin/python bench/deadlines.py --database-url postgresql://root@127.0.0.1:5432/test
    .venv/bin/python bench/deadlines.py --deadline-workers 1   # one worker process
"""

from __future__ import annotations

import argparse
import cProfile
import email
import email.policy
import io
import json
import logging
import pstats
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from process_watch import ProcessWatch
from service_common import (
    GM_ADDRESS,
    POWERS,
    RelayProcess,
    SinkRelay,
    database,
    games_with_orders,
    judge_config,
    later,
    machine,
    password_of,
    player_address,
    quiet_logging,
    random_orders,
    sink_relay,
    wait_until,
    work_directory,
    write_json,
)
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from engine.variant_file import load_variant
from judge import games, order_entry
from judge.config import Config
from judge.db import open_database, transaction
from judge.models import Game, Outbox, PhaseRecord, as_utc, utcnow
from judge.passwords import hash_password
from judge.scheduler import attend
from judge.sender import Sender
from judge.service import Judge
from judge.settings import GameSettings

RESULTS = "Diplomacy results "


class Problems(logging.Handler):
    """Counts the judge's warnings and errors (a deadline job that failed
    is only logged; the run must not look good because of it)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        # one line per kind of message: without the job's trigger, times and game ids
        text = _VARYING.sub("#", record.getMessage().split(";")[0])
        self.messages[text[:160]] += 1


_VARYING = re.compile(r"\(trigger: [^)]*\)|\d{4}-\d\d-\d\d[ T][\d:.+]+( UTC)?|\d+")


def set_deadlines(engine: Engine, ids: list[int], seconds_ahead: float) -> float:
    """Every game due at one moment, ``seconds_ahead`` from now; its time.time()."""
    moment = later(seconds_ahead).replace(microsecond=0) + timedelta(seconds=1)
    with transaction(engine) as session:
        session.connection().execute(update(Game).where(col(Game.id).in_(ids))
                                     .values(deadline=moment))
    return moment.timestamp()


def results_queued(engine: Engine) -> list[float]:
    """When each result mail was queued (Outbox.created_at)."""
    with Session(engine) as session:
        return [as_utc(t).timestamp() for t in session.exec(
            select(Outbox.created_at).where(Outbox.kind == "results")).all()]


def adjudicated(engine: Engine, ids: list[int]) -> int:
    with Session(engine) as session:
        return len(session.exec(select(PhaseRecord.id).where(
            col(PhaseRecord.game_id).in_(ids), col(PhaseRecord.adjudicated_at).is_not(None)
        )).all())


def outcomes(engine: Engine, ids: list[int]) -> dict[str, int]:
    """How the orders went, over every game (random orders should give
    moves that succeed, bounces and cut supports, not only holds)."""
    counts: Counter[str] = Counter()
    with Session(engine) as session:
        for text in session.exec(select(PhaseRecord.results).where(
                col(PhaseRecord.game_id).in_(ids), PhaseRecord.results != "")).all():
            stored = json.loads(text)
            for row in stored.get("results", []):
                kind = "move" if " - " in row["order"] else \
                    "support" if " S " in row["order"] else "hold"
                counts[f"{kind} {row['outcome']}"] += 1
            for bid in stored.get("bids", []):  # Dissolution's
                counts["bid counted" if bid.get("counted") else "bid ignored"] += 1
            for _ in stored.get("violations", []):
                counts["violation"] += 1
    return dict(sorted(counts.items()))


def phase_by_game(engine: Engine, ids: list[int]) -> dict[int, str]:
    with Session(engine) as session:
        return {game_id: phase for game_id, phase in session.exec(
            select(Game.id, Game.phase).where(col(Game.id).in_(ids))).all()}


def unmoved(engine: Engine, before: dict[int, str]) -> int:
    """Games still in the phase they were in before."""
    after = phase_by_game(engine, list(before))
    return sum(after.get(game_id) == phase for game_id, phase in before.items())


def phases_after(engine: Engine, ids: list[int]) -> dict[str, int]:
    with Session(engine) as session:
        phases = session.exec(select(Game.phase).where(col(Game.id).in_(ids))).all()
    return dict(sorted(Counter(phases).items()))


# -- Dissolution games -------------------------------------------------------------

DISSOLUTION_PLAYERS = 10
# Ukraine's army attacks Moscow, and Poland's bid has Belarus's army support it
UKRAINE_MOVE = "A KHK - MOS"
POLAND_BID = "1: A Blr S Khk - Mos"


def dissolution_games_with_orders(engine: Engine, count: int, seed: int,
                                  prefix: str) -> list[int]:
    """``count`` running Dissolution games (ten players who each chose a
    seat), with random legal orders on file for every played power
    (entered as a mail's orders are), Ukraine's army in Kharkiv moving to
    Moscow and a bid of Poland's for Belarus's army to support it; their ids."""
    rng = random.Random(seed)
    game_map = load_variant("dissolution")
    player_hash = hash_password(password_of("player"))
    master = hash_password("gm-secret")
    settings = GameSettings(variant="dissolution", movement=timedelta(days=2), nmr="hold")
    ids = []
    for n in range(count):
        with transaction(engine) as session:
            name = f"{prefix}{n}"
            game = games.create_game(session, name, master, GM_ADDRESS, settings)
            seats = games.seat_names(game)
            if len(seats) != DISSOLUTION_PLAYERS:
                raise RuntimeError(f"{name}: {len(seats)} seats, not {DISSOLUTION_PLAYERS}")
            for seat in seats:
                games.join(session, game, player_address(name, seat.replace("/", "-")),
                           player_hash, seat)
            state = games.start(session, game, utcnow())
            players = {m.power: m for m in games.members(session, game, "player")}
            for seat, member in players.items():
                orders = [o for power in seat.split("/")
                          for o in random_orders(game_map, state, power, rng)]
                if seat == "UKRAINE":
                    orders = [UKRAINE_MOVE if o.startswith("A KHK ") else o for o in orders]
                lines = list(enumerate(orders, start=1))
                report = order_entry.submit_orders(session, game, member, lines)
                bad = [note for note in report.notes if note.problem]
                if bad:
                    raise RuntimeError(f"{name} {seat}: orders refused: {bad}")
            games.file_bids(session, game, "POLAND", [POLAND_BID])
            game.reminded = game.phase  # the reminders went out long ago
            session.add(game)
            assert game.id is not None
            ids.append(game.id)
    return ids


def games_of(args: argparse.Namespace, engine: Engine, prefix: str) -> list[int]:
    if args.variant == "dissolution":
        return dissolution_games_with_orders(engine, args.games, args.seed, prefix)
    return games_with_orders(engine, args.games, args.seed, prefix)


def players_of(args: argparse.Namespace) -> int:
    return DISSOLUTION_PLAYERS if args.variant == "dissolution" else len(POWERS)


# -- a relay that also counts each result mail's attachments ------------------------

_ATTACHMENT = re.compile(rb'^Content-Disposition: attachment; filename="?([^"\r\n]*)"?',
                         re.MULTILINE | re.IGNORECASE)


class CountingRelay(SinkRelay):
    """The sink, and for each mail (one per SMTP transaction, however many
    recipients) its subject, size and attachments' file names, from the
    raw bytes (no decoding: the figures must not depend on the sink). The
    first few result mails are kept whole, to be parsed afterwards."""

    data_size_limit = 0  # result mails carry maps; keep any size

    def __init__(self, keep: int = 3) -> None:
        super().__init__()
        self.mails: list[tuple[str, int, list[str]]] = []
        self.kept: list[bytes] = []
        self.keep = keep

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        reply = await super().handle_DATA(server, session, envelope)
        raw = envelope.original_content or envelope.content or b""
        subject = self.arrivals[-1].subject if self.arrivals else ""
        names = [m.decode("ascii", "replace") for m in _ATTACHMENT.findall(raw)]
        with self.lock:
            self.mails.append((subject, len(raw), names))
            if subject.startswith(RESULTS) and len(self.kept) < self.keep:
                self.kept.append(bytes(raw))
        return reply

    def answer(self, request: tuple[Any, ...]) -> Any:
        if request[0] == "mails":
            with self.lock:
                return list(self.mails)
        if request[0] == "kept":
            with self.lock:
                return list(self.kept)
        return super().answer(request)


class CountingRelayProcess(RelayProcess):
    """:class:`RelayProcess` with :class:`CountingRelay` as its handler."""

    def __init__(self) -> None:
        super().__init__(CountingRelay)

    def mails(self) -> list[tuple[str, int, list[str]]]:
        return [(s, n, list(names)) for s, n, names in self._ask("mails")]

    def kept(self) -> list[bytes]:
        return list(self._ask("kept"))


@contextmanager
def relay_for(args: argparse.Namespace) -> Iterator[RelayProcess]:
    if args.variant == "standard":
        with sink_relay() as relay:
            yield relay
        return
    counting = CountingRelayProcess()
    try:
        yield counting
    finally:
        counting.stop()


def attachment_figures(relay: RelayProcess) -> dict[str, Any]:
    """Attachments per result mail at the relay (every one, from the raw
    bytes), and the first few result mails parsed with the email package:
    each attachment's type, size and first bytes (a PNG's signature, an SVG's
    root element)."""
    if not isinstance(relay, CountingRelayProcess):
        return {}
    results = [(n, names) for s, n, names in relay.mails() if s.startswith(RESULTS)]
    per_mail = Counter(len(names) for _, names in results)
    kinds = Counter(tuple(sorted(name.rsplit(".", 1)[-1] for name in names))
                    for _, names in results)
    sample = []
    for raw in relay.kept():
        message = email.message_from_bytes(raw, policy=email.policy.default)
        parts = []
        for part in message.iter_attachments():
            data = part.get_content()
            data = data.encode("utf-8") if isinstance(data, str) else data
            ok = (data.startswith(b"\x89PNG\r\n\x1a\n") if part.get_content_type() == "image/png"
                  else b"<svg" in data[:2000])
            parts.append({"file": part.get_filename(), "type": part.get_content_type(),
                          "bytes": len(data), "looks_right": ok})
        sample.append({"subject": str(message["Subject"]), "attachments": parts})
    sizes = sorted(n for n, _ in results)
    return {
        "result_mails_at_relay_smtp": len(results),
        "attachments_per_result_mail": {str(k): v for k, v in sorted(per_mail.items())},
        "attachment_kinds": {" ".join(k): v for k, v in kinds.items()},
        "result_mail_bytes": {"min": sizes[0], "median": sizes[len(sizes) // 2],
                              "max": sizes[-1]} if sizes else {},
        "sample": sample,
    }


# -- the whole judge ---------------------------------------------------------------


def whole_judge(args: argparse.Namespace) -> dict[str, Any]:
    with work_directory() as directory, database(args.database_url, directory) as url, \
            relay_for(args) as relay:
        engine = open_database(url)
        started = time.perf_counter()
        ids = games_of(args, engine, "g")
        setup_seconds = time.perf_counter() - started
        config = judge_config(directory, url, relay.port).with_(
            deadline_workers=args.deadline_workers)
        judge = Judge(config, engine)
        due = set_deadlines(engine, ids, args.lead)
        before = phase_by_game(engine, ids)
        # the judge's process (this one) and its workers; not the relay
        watch = ProcessWatch(leave_out={relay.pid})
        watch.start()
        judge.start()
        try:
            expected = len(ids) * (players_of(args) + 1)  # the players and the GM
            done = wait_until(lambda: relay.count(RESULTS) >= expected,
                              max(due - time.time(), 0) + args.timeout, 0.1)
        finally:
            watch.stop()
            judge.stop()
        arrivals = [a.at for a in relay.arrivals() if a.subject.startswith(RESULTS)]
        queued = results_queued(engine)
        result = {
            "variant": args.variant,
            "database": "postgresql" if url.startswith("postgresql") else "sqlite",
            "machine": machine(url),
            "games": len(ids), "setup_seconds": setup_seconds,
            "completed": done,
            "games_adjudicated": adjudicated(engine, ids),
            "phases_after": phases_after(engine, ids),
            "games_not_moved_on": unmoved(engine, before),
            "outcomes": outcomes(engine, ids),
            "result_mails_expected": expected,
            "result_mails_queued": len(queued),
            "result_mails_at_relay": len(arrivals),
            "deadline_to_first_queued_s": min(queued) - due if queued else None,
            "deadline_to_last_queued_s": max(queued) - due if queued else None,
            "deadline_to_first_at_relay_s": min(arrivals) - due if arrivals else None,
            "deadline_to_last_at_relay_s": max(arrivals) - due if arrivals else None,
            "deadline_workers": judge.deadline_workers.count,
            "peak_memory_mb": watch.peak_bytes / 2**20,
            "peak_proportional_memory_mb": watch.peak_proportional_bytes / 2**20,
            "peak_processes": watch.peak_processes,
            "peak_mb_by_process": watch.peaks_mb(),
            "cpu_seconds_by_process": watch.cpu_seconds(),
            "cores_used": watch.cores_between(due, max(arrivals)) if arrivals else None,
        }
        if queued and arrivals:
            result["games_per_second_adjudicated"] = len(ids) / max(max(queued) - due, 1e-9)
            result["games_per_second_mailed"] = len(ids) / max(max(arrivals) - due, 1e-9)
            result["mails_per_second_at_relay"] = len(arrivals) / max(
                max(arrivals) - min(arrivals), 1e-9)
        result.update(attachment_figures(relay))
        engine.dispose()
    return result


# -- the same work, one step at a time -------------------------------------------------


def breakdown(args: argparse.Namespace) -> dict[str, Any]:
    with work_directory() as directory, database(args.database_url, directory) as url, \
            relay_for(args) as relay:
        engine = open_database(url)
        ids = games_of(args, engine, "b")
        due = set_deadlines(engine, ids, 0)
        before = phase_by_game(engine, ids)
        config: Config = judge_config(directory, url, relay.port)
        now = datetime.fromtimestamp(due, UTC)
        profiler = cProfile.Profile() if args.profile else None
        per_game = []
        queued = 0
        started = time.perf_counter()
        for game_id in ids:
            one = time.perf_counter()
            if profiler is not None:
                profiler.enable()
            queued += attend(engine, config, game_id, now)
            if profiler is not None:
                profiler.disable()
            per_game.append(time.perf_counter() - one)
        attend_seconds = time.perf_counter() - started
        sender = Sender(config, engine)
        send_profiler = cProfile.Profile() if args.profile else None
        started = time.perf_counter()
        sent = 0
        while True:
            if send_profiler is not None:
                send_profiler.enable()
            batch = sender.send_due(utcnow(), limit=1000)
            if send_profiler is not None:
                send_profiler.disable()
            sent += batch
            if batch == 0:
                break
        send_seconds = time.perf_counter() - started
        wait_until(lambda: relay.count(RESULTS) >= queued, 30)
        per_game.sort()
        result: dict[str, Any] = {
            "games": len(ids), "mails_queued": queued, "mails_sent": sent,
            "attend_seconds": attend_seconds,
            "attend_ms_per_game": {"median": per_game[len(per_game) // 2] * 1000,
                                   "max": per_game[-1] * 1000},
            "send_seconds": send_seconds,
            "send_ms_per_mail": send_seconds / max(sent, 1) * 1000,
            "phases_after": phases_after(engine, ids),
            "games_not_moved_on": unmoved(engine, before),
        }
        if profiler is not None and send_profiler is not None:
            result["profile"] = (f"attend(), {len(ids)} games:\n"
                                 + _profile_text(profiler, args.top)
                                 + f"\nSender.send_due(), {sent} mails:\n"
                                 + _profile_text(send_profiler, args.top))
        engine.dispose()
    return result


def shortfalls(result: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """Whatever makes the run's figures meaningless: a result mail missing,
    a game that did not move on, an attachment missing or not a picture.
    Empty when the run measured what it says."""
    found = []
    games_count = result["games"]
    if not result["completed"]:
        found.append(f"the last result mail did not reach the relay within {args.timeout:g} s "
                     "of the deadline")
    if result["games_adjudicated"] != games_count or result["games_not_moved_on"]:
        found.append(f"{games_count} games: {result['games_adjudicated']} adjudicated, "
                     f"phases after {result['phases_after']}")
    if result["result_mails_at_relay"] != result["result_mails_expected"]:
        found.append(f"result mails at the relay: {result['result_mails_at_relay']} of "
                     f"{result['result_mails_expected']}")
    if "attachments_per_result_mail" in result:
        if set(result["attachments_per_result_mail"]) != {"4"}:
            found.append("attachments a result mail, not four each: "
                         f"{result['attachments_per_result_mail']}")
        bad = [a["file"] for mail in result["sample"] for a in mail["attachments"]
               if not a["looks_right"]]
        if bad or not result["sample"]:
            found.append(f"attachments that are not the pictures they say: {bad or 'no sample'}")
    if "breakdown" in result:
        b = result["breakdown"]
        if b["mails_sent"] != b["mails_queued"] or b["mails_queued"] < b["games"] or \
                b["games_not_moved_on"]:
            found.append(f"breakdown: {b['mails_queued']} mails queued for {b['games']} games, "
                         f"{b['mails_sent']} sent, phases after {b['phases_after']}")
    return found


def _profile_text(profiler: cProfile.Profile, top: int) -> str:
    stream = io.StringIO()
    pstats.Stats(profiler, stream=stream).sort_stats("cumulative").print_stats(top)
    return stream.getvalue()


def report(result: dict[str, Any]) -> None:
    m = result["machine"]
    print(f"machine: nproc {m['nproc']}, {m['cpu']}, Python {m['python']}, "
          f"SQLite {m['sqlite']}" + (f", PostgreSQL {m['postgresql']}"
                                     if "postgresql" in m else ""))
    print(f"database: {result['database']}; {result['games']} {result['variant']} games "
          f"due at one moment "
          f"(set up in {result['setup_seconds']:.1f} s)")
    print(f"games adjudicated: {result['games_adjudicated']}; phases after: "
          f"{result['phases_after']}")
    print("orders: " + ", ".join(f"{k} {v}" for k, v in result["outcomes"].items()))
    print(f"result mails: expected {result['result_mails_expected']} (one per player and GM), "
          f"queued {result['result_mails_queued']} (one message per game, to all of them), "
          f"at the relay {result['result_mails_at_relay']}")

    def seconds(key: str) -> str:
        value = result.get(key)
        return f"{value:.2f} s" if value is not None else "-"

    print(f"deadline -> first results queued {seconds('deadline_to_first_queued_s')}, "
          f"last {seconds('deadline_to_last_queued_s')}")
    print(f"deadline -> first result mail at the relay "
          f"{seconds('deadline_to_first_at_relay_s')}, last "
          f"{seconds('deadline_to_last_at_relay_s')}")
    if result.get("cores_used") is not None:
        print(f"judge and its {result['deadline_workers']} deadline worker(s): "
              f"{result['cores_used']:.2f} cores used from the deadline to the last mail; "
              f"peak memory {result['peak_memory_mb']:.0f} MB "
              f"({result['peak_processes']} processes, resident memory summed; "
              f"proportional {result['peak_proportional_memory_mb']:.0f} MB); each "
              f"process's own peak (the judge's first): {result['peak_mb_by_process']} MB; "
              f"CPU seconds: {result['cpu_seconds_by_process']}")
    if "games_per_second_mailed" in result:
        print(f"games a second: {result['games_per_second_adjudicated']:.1f} adjudicated, "
              f"{result['games_per_second_mailed']:.1f} adjudicated and mailed; "
              f"relay took {result['mails_per_second_at_relay']:.0f} mails a second")
    if "attachments_per_result_mail" in result:
        sizes = result["result_mail_bytes"]
        print(f"result mails at the relay (SMTP transactions): "
              f"{result['result_mails_at_relay_smtp']}; attachments a mail "
              f"{result['attachments_per_result_mail']}, kinds {result['attachment_kinds']}; "
              f"size {sizes.get('min')}/{sizes.get('median')}/{sizes.get('max')} bytes "
              f"(min/median/max)")
        for mail in result["sample"]:
            print(f"  parsed: {mail['subject']}: " + ", ".join(
                f"{a['file']} {a['type']} {a['bytes']} B"
                + ("" if a["looks_right"] else " (NOT a PNG/SVG)")
                for a in mail["attachments"]))
    if result["problems"]:
        print("judge warnings and errors:")
        for message, count in result["problems"].items():
            print(f"  {count:5} x {message}")
    if "breakdown" in result:
        b = result["breakdown"]
        print(f"breakdown, one thread, {b['games']} other games: attend (adjudicate, store, "
              f"queue {b['mails_queued']} mails) {b['attend_seconds']:.2f} s, median "
              f"{b['attend_ms_per_game']['median']:.1f} ms a game (max "
              f"{b['attend_ms_per_game']['max']:.1f}); sender alone "
              f"{b['send_seconds']:.2f} s for {b['mails_sent']} mails "
              f"({b['send_ms_per_mail']:.2f} ms a mail); phases after {b['phases_after']}")
        if "profile" in b:
            print(b["profile"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--variant", choices=("standard", "dissolution"), default="standard",
                        help="the games' variant; dissolution: 10 players, four maps a "
                             "result mail, whose attachments the relay counts")
    parser.add_argument("--lead", type=float, default=5.0,
                        help="seconds from the judge's start to the common deadline")
    parser.add_argument("--database-url", default="",
                        help="a PostgreSQL server to use (a fresh schema, dropped after); "
                             "default: SQLite in a temporary directory")
    parser.add_argument("--deadline-workers", type=int, default=0,
                        help="the judge's deadline worker processes (0: one per core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds after the deadline to wait for the last result mail")
    parser.add_argument("--no-breakdown", action="store_true",
                        help="skip the step-by-step timing on a second set of games")
    parser.add_argument("--profile", action="store_true",
                        help="profile the step-by-step attend() calls")
    parser.add_argument("--top", type=int, default=30, help="profile lines to print")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    quiet_logging()
    problems = Problems()
    logging.getLogger("judge").addHandler(problems)
    scheduler_log = logging.getLogger("apscheduler")
    scheduler_log.addHandler(problems)
    scheduler_log.propagate = False  # counted and summarised, not printed one by one
    result = whole_judge(args)
    result["problems"] = dict(problems.messages)
    if not args.no_breakdown:
        result["breakdown"] = breakdown(args)
    failures = shortfalls(result, args)
    if failures:
        print("THE RUN DID NOT MEASURE WHAT IT SAYS; no figures:", file=sys.stderr)
        for failure in failures:
            print(f"  {failure}", file=sys.stderr)
        return 1
    report(result)
    write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
