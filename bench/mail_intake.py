"""Order mails per second through the judge's SMTP listener, and how long
each waits for its acknowledgement.

A whole judge runs on loopback (listener, workers, scheduler, sender) with
a sink relay in a process of its own. Running 7-player games are set up
through the judge's own functions, enough of them that each player sends
only a few mails (--mails-per-player): players write as real ones do, each
from the address on file for their power, so every address stays within
the judge's own limits (bench/intake_load.py). A client process sends the
N order mails over SMTP from several threads, one game after another. Each
mail signs on as one power, says SET WAIT, and gives a full set of random
legal orders for that power; SET WAIT keeps the phase from being
adjudicated early, so every mail costs the same (see bench/README.md,
"Judge service"). Before the measured mails, every worker checks each
power's password once (a judge whose players have mailed it before);
--cold leaves that out.

With --judges 2 (PostgreSQL only) the same load runs twice, each time on a
fresh schema: with one judge, then with two judges on one database (the
second in a process of its own, with its own SMTP port, data directory and
name), the client threads split between them; the ratio of the two is
printed.

Measured:

* accepted mails per second: N over the time from the first mail's start
  to the last mail's 250 (the client's clock);
* for each mail, the time from the 250 its client got (``time.time()``)
  to its reply being queued in the outbox (``Outbox.created_at``, matched
  by In-Reply-To to the mail's Message-ID): p50, p95, p99;
* how fast the judges process mail, and the time to the reply reaching
  the relay.

The run fails (exit status 1, no figures) if any mail is refused, any
reply is missing --timeout seconds after the last 250, or any reply
reports an error or the reply throttle.

Usage (see bench/README.md)::

    .venv/bin/python bench/mail_intake.py --mails 2000 --rate 200
    .venv/bin/python bench/mail_intake.py --database-url postgresql://root@127.0.0.1:5432/test
    .venv/bin/python bench/mail_intake.py --database-url $PG --judges 2
"""

from __future__ import annotations

import argparse
import cProfile
import email.parser
import email.policy
import io
import os
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

from intake_load import (
    ClientProcess,
    JudgeProcess,
    Mail,
    Sent,
    games_needed,
    order_mails,
    set_up_games,
    warm_up,
)
from round_trips import Counter
from service_common import (
    POWERS,
    database,
    games_with_orders,
    judge_config,
    machine,
    quiet_logging,
    sink_relay,
    summary_ms,
    wait_until,
    work_directory,
    write_json,
)
from sqlalchemy import func
from sqlmodel import Session, col, select

from judge.config import Config, Limits
from judge.db import make_engine, open_database
from judge.intake.store import store_inbound
from judge.models import Game, InboundMail, Outbox, as_utc
from judge.processing import process_mail
from judge.service import Judge

# what a reply says when something went wrong, or when the throttle is near
PROBLEMS = ("ERROR", "Refused", "Not understood", "could not process", "last reply")


# -- reading the outcome ---------------------------------------------------------


def replies(engine: Any) -> dict[str, tuple[float, str]]:
    """In-Reply-To -> (Outbox.created_at as a timestamp, body) of each reply."""
    headers = email.parser.BytesParser(policy=email.policy.default)
    out: dict[str, tuple[float, str]] = {}
    with Session(engine) as session:
        for row in session.exec(select(Outbox).where(Outbox.kind == "reply")).all():
            msg = headers.parsebytes(row.raw)
            part = msg.get_body(("plain",))
            body = part.get_content() if part is not None else ""
            out[str(msg["In-Reply-To"]).strip()] = (as_utc(row.created_at).timestamp(), body)
    return out


def reply_count(engine: Any) -> int:
    with Session(engine) as session:
        return int(session.exec(select(func.count()).select_from(Outbox).where(
            Outbox.kind == "reply")).one())


def cpu_seconds(pid: int) -> float:
    """Processor time (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def slowest_by_second(points: list[tuple[float, float]]) -> list[int]:
    """(when accepted, seconds to the reply) -> the slowest in ms, per second."""
    slowest: dict[int, float] = {}
    for at, took in points:
        second = int(at)
        slowest[second] = max(slowest.get(second, 0.0), took)
    return [round(slowest.get(n, 0.0) * 1000) for n in range(max(slowest, default=-1) + 1)]


def failures(sent: list[Sent], queued: dict[str, tuple[float, str]], statuses: list[str],
             phases: dict[str, str]) -> list[str]:
    """Why the run did not measure what it should: empty when it did."""
    out = []
    refused = [s for s in sent if s.error]
    if refused:
        out.append(f"{len(refused)} mails refused, e.g. {refused[0].error}")
    missing = [s for s in sent if not s.error and s.message_id not in queued]
    if missing:
        out.append(f"{len(missing)} of {len(sent) - len(refused)} accepted mails have no reply")
    wrong = [(s.message_id, problem) for s in sent if s.message_id in queued
             for problem in PROBLEMS if problem in queued[s.message_id][1]]
    if wrong:
        out.append(f"{len(wrong)} replies report a problem, e.g. {wrong[0][1]!r} in the "
                   f"reply to {wrong[0][0]}")
    if any(status != "done" for status in statuses):
        out.append("mails not done: " + ", ".join(
            f"{statuses.count(s)} {s}" for s in sorted(set(statuses)) if s != "done"))
    moved = sorted(name for name, phase in phases.items() if phase != "S1901M")
    if moved:
        out.append(f"{len(moved)} games left S1901M (SET WAIT should have kept them)")
    return out


# -- the profile ----------------------------------------------------------------


def profile_processing(url: str, config: Config, mails: list[Mail], top: int) -> str:
    """Store the mails and process them one by one in this thread (the
    judges are stopped): the first half timed as they are, with the
    statements and round trips each sends, the second half under cProfile,
    to show where a mail's processing goes."""
    engine = make_engine(url)
    counter = Counter(engine)
    ids = [store_inbound(engine, mail.raw, "smtp", mail.sender)[0] for mail in mails]
    timed, profiled = ids[:len(ids) // 2], ids[len(ids) // 2:]
    counts = []
    started = time.perf_counter()
    cpu = time.process_time()
    for inbound_id in timed:
        with counter.during() as count:
            process_mail(engine, config, inbound_id)
        counts.append(count[0])
    plain = (time.perf_counter() - started) / max(len(timed), 1)
    plain_cpu = (time.process_time() - cpu) / max(len(timed), 1)
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for inbound_id in profiled:
        process_mail(engine, config, inbound_id)
    profiler.disable()
    elapsed = time.perf_counter() - started
    engine.dispose()
    stream = io.StringIO()
    stats = pstats.Stats(profiler, stream=stream)
    stats.sort_stats("cumulative" if top >= 0 else "tottime").print_stats(abs(top))
    stream.write(by_package(stats, len(profiled)))
    last = counts[-1]
    trips = [c.round_trips for c in counts if c.round_trips is not None]
    return (f"{len(timed)} mails processed in one thread: {plain * 1000:.2f} ms a mail "
            f"({plain_cpu * 1000:.2f} ms of processor time)\n"
            f"statements a mail: {sum(len(c.statements) for c in counts) / len(counts):.2f}"
            + (f"; round trips to the server a mail: {sum(trips) / len(trips):.2f}"
               if trips else "")
            + "\nthe last one's statements:\n"
            + "".join(f"  {s[:110]}\n" for s in last.statements)
            + f"{len(profiled)} more under the profiler: {elapsed / len(profiled) * 1000:.1f} ms "
            "a mail\n" + stream.getvalue())


def by_package(stats: pstats.Stats, mails: int) -> str:
    """Own time (tottime) summed by where the code lives: which library a
    mail's processing time goes to."""
    totals: dict[str, float] = {}
    project = str(Path(__file__).resolve().parent.parent) + "/"
    for (filename, _line, _function), entry in stats.stats.items():  # type: ignore[attr-defined]
        own = entry[2]
        if "site-packages/" in filename:
            where = filename.split("site-packages/", 1)[1].split("/", 1)[0]
        elif filename.startswith(project):
            where = "project " + filename.rsplit("/", 2)[-2]
        elif filename.startswith(("~", "<")):
            where = "built-in"
        else:
            where = "stdlib " + filename.rsplit("/", 1)[-1]
        totals[where] = totals.get(where, 0.0) + own
    lines = ["own time by package, ms a mail:"]
    for where, seconds in sorted(totals.items(), key=lambda kv: -kv[1])[:20]:
        lines.append(f"  {seconds / mails * 1000:7.3f}  {where}")
    return "\n".join(lines) + "\n"


# -- the run ---------------------------------------------------------------------


def run(args: argparse.Namespace, judges: int) -> dict[str, Any]:
    """One run with ``judges`` judges on a fresh database; SystemExit,
    without figures, if it did not measure."""
    rng = random.Random(args.seed)
    with work_directory() as directory, database(args.database_url, directory) as url, \
            sink_relay() as relay:
        engine = open_database(url)
        names = [f"bench{n}" for n in range(games_needed(args.mails, args.mails_per_player))]
        order_sets = set_up_games(engine, names, args.seed)
        if args.other_games:
            # a judge holds many games; the worker's work after each mail may grow with them
            games_with_orders(engine, args.other_games, args.seed, "other")
        mails = order_mails(args.mails, names, order_sets, rng)

        configs = [judge_config(directory / f"judge{n + 1}", url, relay.port).with_(
            name=f"BENCHJUDGE{n + 1}", workers=args.workers, limits=Limits())
            for n in range(judges)]
        ports = [config.smtp_port for config in configs]
        engine.dispose()  # the processes forked next must not share its connections
        clients = ClientProcess(mails, args.clients, args.rate, configs[0].smtp_host, ports,
                                args.connection_per_mail)
        others: list[JudgeProcess] = []
        judge: Judge | None = None
        try:
            others = [JudgeProcess(config) for config in configs[1:]]
            judge = Judge(configs[0], engine)
            judge.start()
            warm = 0 if args.cold else warm_up(ports, configs[0].mail_worker_count, names[0],
                                               lambda: reply_count(engine), 120.0)
            pids = [os.getpid(), *(w.process.pid for w in judge.workers._workers)]
            cpu_before = [cpu_seconds(pid) for pid in pids]
            clients.go()
            sent = clients.results()
            accepted = [s for s in sent if not s.error]
            wait_until(lambda: reply_count(engine) >= warm + len(accepted), args.timeout, 0.2)
            all_acked = time.time()
            cpu = [cpu_seconds(pid) - before for pid, before in zip(pids, cpu_before,
                                                                     strict=True)]
            wait_until(lambda: relay.count("Re: orders") >= len(accepted), args.timeout, 0.2)
        finally:
            clients.stop()
            if judge is not None:
                judge.stop()
            for other in others:
                other.stop()

        queued = replies(engine)
        with Session(engine) as session:
            phases = {g.name: g.phase for g in session.exec(
                select(Game).where(col(Game.name).in_(names))).all()}
            statuses = [row.status for row in session.exec(
                select(InboundMail).where(col(InboundMail.id).is_not(None))).all()]
        wrong = failures(sent, queued, statuses, phases)
        arrivals = {a.in_reply_to: a.at for a in relay.arrivals()}
        if not wrong and any(s.message_id not in arrivals for s in accepted):
            wrong.append(f"{sum(s.message_id not in arrivals for s in accepted)} replies "
                         f"did not reach the relay within {args.timeout:g} s")
        if wrong:
            raise SystemExit(f"mail_intake ({judges} judge(s)): the run did not measure, "
                             "no figures:\n  " + "\n  ".join(wrong))

        to_queue = [queued[s.message_id][0] - s.accepted for s in accepted]
        to_relay = [arrivals[s.message_id] - s.accepted for s in accepted]
        first_start = min(s.started for s in sent)
        last_250 = max(s.accepted for s in accepted)
        last_queued = max(queued[s.message_id][0] for s in accepted)
        players = min(args.mails, len(names) * len(POWERS))

        result: dict[str, Any] = {
            "database": "postgresql" if url.startswith("postgresql") else "sqlite",
            "machine": machine(url),
            "mails": args.mails, "clients": args.clients, "rate": args.rate,
            "judges": judges, "workers": configs[0].mail_worker_count, "games": len(names),
            "players": players, "most_mails_a_player": -(-args.mails // players),
            "replies_per_hour": Limits().replies_per_hour,
            "warmed_up": not args.cold, "other_games": args.other_games,
            "connection_per_mail": args.connection_per_mail,
            "accepted": len(accepted),
            "accept_seconds": last_250 - first_start,
            "accepted_per_second": len(accepted) / max(last_250 - first_start, 1e-9),
            "processed_per_second": len(to_queue) / max(last_queued - first_start, 1e-9),
            "all_replies_queued_after_last_250_s": max(last_queued - last_250, 0.0),
            "accept_to_reply_queued_ms": summary_ms(to_queue),
            "accept_to_reply_at_relay_ms": summary_ms(to_relay),
            "per_judge_accepted": [sum(1 for s in accepted if s.judge == n)
                                   for n in range(judges)],
            # the slowest acknowledgement of the mails accepted in each second
            # of the run: shows whether slow ones cluster (a start, a stall)
            "slowest_ms_by_second": slowest_by_second(
                [(s.accepted - first_start, queued[s.message_id][0] - s.accepted)
                 for s in accepted]),
            "seconds_waiting_for_acks": all_acked - last_250,
            # processor seconds from the first mail to the last reply queued:
            # the first judge's own process (listener, sender, scheduler, and
            # this benchmark's polling) and each of its workers
            "cpu_seconds_judge": cpu[0], "cpu_seconds_workers": cpu[1:],
        }
        if args.profile:
            names = [f"profile{n}" for n in range(games_needed(args.profile,
                                                               args.mails_per_player))]
            extra = order_mails(args.profile, names, set_up_games(engine, names, args.seed),
                                random.Random(args.seed + 1), "p")
            result["profile"] = profile_processing(url, configs[0], extra, args.top)
        engine.dispose()
    return result


def report(result: dict[str, Any]) -> None:
    m = result["machine"]
    print(f"machine: nproc {m['nproc']}, {m['cpu']}, Python {m['python']}, "
          f"SQLite {m['sqlite']}" + (f", PostgreSQL {m['postgresql']}"
                                     if "postgresql" in m else ""))
    print(f"database: {result['database']}; {result['judges']} judge(s) with "
          f"{result['workers']} mail worker(s) each; {result['mails']} mails from "
          f"{result['clients']} client threads"
          + (f" paced at {result['rate']:g}/s" if result["rate"] else " as fast as accepted")
          + (", one connection per mail" if result["connection_per_mail"]
             else ", connections reused")
          + ("" if result["warmed_up"] else ", cold (no warm-up)")
          + (f"; {result['other_games']} other running games" if result["other_games"]
             else ""))
    print(f"senders: {result['players']} players of {result['games']} games, each from its "
          f"own address, at most {result['most_mails_a_player']} mails each; the judge's "
          f"reply throttle as configured by default ({result['replies_per_hour']} replies "
          "an hour per address)")
    print(f"accepted (250): {result['accepted']}, per judge {result['per_judge_accepted']}; "
          f"accepted per second: {result['accepted_per_second']:.0f} "
          f"({result['accept_seconds']:.2f} s for all)")
    print(f"processed per second (first mail sent to last reply queued): "
          f"{result['processed_per_second']:.1f}")
    for key, label in (("accept_to_reply_queued_ms", "250 -> reply queued"),
                       ("accept_to_reply_at_relay_ms", "250 -> reply at the relay")):
        s = result[key]
        print(f"{label:28} p50 {s['p50']:9.1f} ms  p95 {s['p95']:9.1f} ms  "
              f"p99 {s['p99']:9.1f} ms  max {s['max']:9.1f} ms")
    print(f"processor seconds, first mail to last reply queued: the first judge's process "
          f"{result['cpu_seconds_judge']:.1f}, its workers "
          + " ".join(f"{s:.1f}" for s in result["cpu_seconds_workers"])
          + f" (of {result['all_replies_queued_after_last_250_s'] + result['accept_seconds']:.1f}"
          " s)")
    print("slowest 250 -> reply queued, ms, by second: "
          + " ".join(map(str, result["slowest_ms_by_second"])))
    if "profile" in result:
        print(result["profile"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8, help="client threads")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="mails a second to offer in all (default: as fast as accepted)")
    parser.add_argument("--connection-per-mail", action="store_true",
                        help="one SMTP connection per mail (default: each client reuses one)")
    parser.add_argument("--database-url", default="",
                        help="a PostgreSQL server to use (a fresh schema, dropped after); "
                             "default: SQLite in a temporary directory")
    parser.add_argument("--mails-per-player", type=int, default=8, metavar="K",
                        help="each player sends at most K mails, so the run has "
                             "mails / (7 K) games (default 8)")
    parser.add_argument("--other-games", type=int, default=0, metavar="N",
                        help="N more running games in the database (deadlines days away)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=0,
                        help="each judge's mail workers (default 0: the judge's own "
                             "choice: 1 on SQLite; on PostgreSQL 2 with more than two cores)")
    parser.add_argument("--judges", type=int, default=1, choices=(1, 2),
                        help="2: run with one judge, then with two on one database "
                             "(PostgreSQL only), and compare")
    parser.add_argument("--cold", action="store_true",
                        help="no warm-up: the first mail of each power in each worker pays "
                             "the slow password hash inside the measured run")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds after the last 250 to wait for the replies (30)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="afterwards, process N more mails in one thread: statements "
                             "and round trips, then cProfile")
    parser.add_argument("--top", type=int, default=25, help="profile lines to print")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    limit = Limits().replies_per_hour
    if not 1 <= args.mails_per_player < limit:
        parser.error(f"--mails-per-player must be 1 to {limit - 1}: the judge answers an "
                     f"address {limit} times an hour, the last time with a notice")
    if args.judges > 1 and not args.database_url:
        parser.error("--judges 2 needs --database-url: two judges share a PostgreSQL "
                     "database, never a SQLite file")
    quiet_logging()
    results = []
    for judges in range(1, args.judges + 1) if args.judges > 1 else [1]:
        results.append(run(args, judges))
        report(results[-1])
        print()
    out: dict[str, Any] = results[0] if len(results) == 1 else {"runs": results}
    if len(results) > 1:
        ratio = results[1]["processed_per_second"] / results[0]["processed_per_second"]
        out["two_judges_over_one"] = ratio
        print(f"processed per second, two judges / one: {ratio:.2f}"
              + (f" (both offered {args.rate:g} a second: the ratio is at most "
                 "offered / one's)" if args.rate else ""))
    write_json(args.json, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
