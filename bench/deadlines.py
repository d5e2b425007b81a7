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
second. Unless ``--no-breakdown``, a second set of games is then set up
the same way and its work is timed in two separate steps, in one thread:
``scheduler.attend`` for each game (adjudication, storing the next phase,
building and queuing the result mails), then a ``Sender`` alone delivering
all of them.

Usage (see bench/README.md)::

    .venv/bin/python bench/deadlines.py --games 500
    .venv/bin/python bench/deadlines.py --database-url postgresql://root@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import logging
import pstats
import re
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from service_common import (
    POWERS,
    database,
    games_with_orders,
    judge_config,
    later,
    machine,
    quiet_logging,
    sink_relay,
    wait_until,
    work_directory,
)
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.config import Config
from judge.db import open_database, transaction
from judge.models import Game, Outbox, PhaseRecord, as_utc, utcnow
from judge.scheduler import attend
from judge.sender import Sender
from judge.service import Judge

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
        for stored in session.exec(select(PhaseRecord.results).where(
                col(PhaseRecord.game_id).in_(ids), PhaseRecord.results != "")).all():
            for row in json.loads(stored).get("results", []):
                kind = "move" if " - " in row["order"] else \
                    "support" if " S " in row["order"] else "hold"
                counts[f"{kind} {row['outcome']}"] += 1
    return dict(sorted(counts.items()))


def phases_after(engine: Engine, ids: list[int]) -> dict[str, int]:
    with Session(engine) as session:
        phases = session.exec(select(Game.phase).where(col(Game.id).in_(ids))).all()
    return dict(sorted(Counter(phases).items()))


# -- the whole judge ---------------------------------------------------------------


def whole_judge(args: argparse.Namespace) -> dict[str, Any]:
    with work_directory() as directory, database(args.database_url, directory) as url, \
            sink_relay() as relay:
        engine = open_database(url)
        started = time.perf_counter()
        ids = games_with_orders(engine, args.games, args.seed, "g")
        setup_seconds = time.perf_counter() - started
        config = judge_config(directory, url, relay.port)
        judge = Judge(config, engine)
        due = set_deadlines(engine, ids, args.lead)
        judge.start()
        try:
            expected = len(ids) * (len(POWERS) + 1)  # the players and the GM
            done = wait_until(lambda: relay.count(RESULTS) >= expected,
                              max(due - time.time(), 0) + args.timeout, 0.1)
        finally:
            judge.stop()
        arrivals = [a.at for a in relay.arrivals() if a.subject.startswith(RESULTS)]
        queued = results_queued(engine)
        result = {
            "database": "postgresql" if url.startswith("postgresql") else "sqlite",
            "machine": machine(url),
            "games": len(ids), "setup_seconds": setup_seconds,
            "completed": done,
            "games_adjudicated": adjudicated(engine, ids),
            "phases_after": phases_after(engine, ids),
            "outcomes": outcomes(engine, ids),
            "result_mails_expected": expected,
            "result_mails_queued": len(queued),
            "result_mails_at_relay": len(arrivals),
            "deadline_to_first_queued_s": min(queued) - due if queued else None,
            "deadline_to_last_queued_s": max(queued) - due if queued else None,
            "deadline_to_first_at_relay_s": min(arrivals) - due if arrivals else None,
            "deadline_to_last_at_relay_s": max(arrivals) - due if arrivals else None,
        }
        if queued and arrivals:
            result["games_per_second_adjudicated"] = len(ids) / max(max(queued) - due, 1e-9)
            result["games_per_second_mailed"] = len(ids) / max(max(arrivals) - due, 1e-9)
            result["mails_per_second_at_relay"] = len(arrivals) / max(
                max(arrivals) - min(arrivals), 1e-9)
        engine.dispose()
    return result


# -- the same work, one step at a time -------------------------------------------------


def breakdown(args: argparse.Namespace) -> dict[str, Any]:
    with work_directory() as directory, database(args.database_url, directory) as url, \
            sink_relay() as relay:
        engine = open_database(url)
        ids = games_with_orders(engine, args.games, args.seed, "b")
        due = set_deadlines(engine, ids, 0)
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
        }
        if profiler is not None and send_profiler is not None:
            result["profile"] = (f"attend(), {len(ids)} games:\n"
                                 + _profile_text(profiler, args.top)
                                 + f"\nSender.send_due(), {sent} mails:\n"
                                 + _profile_text(send_profiler, args.top))
        engine.dispose()
    return result


def _profile_text(profiler: cProfile.Profile, top: int) -> str:
    stream = io.StringIO()
    pstats.Stats(profiler, stream=stream).sort_stats("cumulative").print_stats(top)
    return stream.getvalue()


def report(result: dict[str, Any]) -> None:
    m = result["machine"]
    print(f"machine: nproc {m['nproc']}, {m['cpu']}, Python {m['python']}, "
          f"SQLite {m['sqlite']}" + (f", PostgreSQL {m['postgresql']}"
                                     if "postgresql" in m else ""))
    print(f"database: {result['database']}; {result['games']} games due at one moment "
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
    if "games_per_second_mailed" in result:
        print(f"games a second: {result['games_per_second_adjudicated']:.1f} adjudicated, "
              f"{result['games_per_second_mailed']:.1f} adjudicated and mailed; "
              f"relay took {result['mails_per_second_at_relay']:.0f} mails a second")
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
    parser.add_argument("--lead", type=float, default=5.0,
                        help="seconds from the judge's start to the common deadline")
    parser.add_argument("--database-url", default="",
                        help="a PostgreSQL server to use (a fresh schema, dropped after); "
                             "default: SQLite in a temporary directory")
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
    report(result)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
