"""Game pages of the web view under 50 readers, and the judge's mail intake
and deadlines while they read (issue 28).

A whole judge runs on loopback (SMTP listener, mail workers, deadline
scheduler and workers, sender, and the web view in a thread of its
process), a sink relay in a process of its own. Three games are set up by
mail, through the judge's own listener: a standard game with two years'
movement phases played, an Intercontinental game (its page carries about
400 KB of inline SVG) and a Dissolution game (two boards on its page),
each with a phase processed. Each game page is read once (the warm judge:
its page and maps made and kept), then 50 readers in a process of their
own (bench/web_readers.py) read the three game pages round and round:

* closed loop: each reader asks for the next page as soon as it has the
  last (the most the judge can serve; by Little's law each page then waits
  for the other 49 readers' pages);
* readers: each waits about a second between pages (0.5-1.5 s), as a
  person reading does. The goal (p99 under 50 ms) is judged on this run.

Then the intake of bench/mail_intake.py (order mails at a paced rate to
games of their own, each mail's 250 to its reply queued) and a deadline
batch of bench/deadlines.py (games due at one moment, to the last result
mail at the relay) are each run three times: without readers, with the 50
readers, and with the closed loop. Each run has games and mails of its own;
a first deadline batch of 10 games, not measured, has the deadline workers
build their maps' layers.

Every reader comes from 127.0.0.1, one client address for the guard's rate,
so ``web.requests_per_minute`` is raised for the run (see bench/README.md).
The run fails (exit status 1, no figures) on any response that is not 200,
any request the guard refused, a page or map made again while only read,
a reader run or a mail or result mail that did not finish in time.

Usage (see bench/README.md)::

    .venv/bin/python bench/web_pages.py
    .venv/bin/python bench/web_pages.py --seconds 30 --deadline-games 50
"""

from __future__ import annotations

import argparse
import email.utils
import logging
import os
import random
import smtplib
import sys
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
from deadlines import RESULTS, set_deadlines
from intake_load import ClientProcess, games_needed, order_mails, set_up_games, warm_up
from mail_intake import cpu_seconds, failures, replies, reply_count
from service_common import (
    database,
    free_port,
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
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select
from web_readers import Read, ReaderProcess, Reading

from judge.config import Limits, WebConfig
from judge.db import open_database
from judge.models import Game, InboundMail, Outbox
from judge.service import Judge

GM = "gm@players.test"
STANDARD = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
GROUPS = ("Blue", "Teal", "Green", "Olive", "Yellow", "Red", "Maroon", "Violet")
DISSOLUTION = ("EGYPT", "ETHIOPIA", "IRAN", "KAZAKHSTAN", "PAKISTAN", "POLAND", "ROMANIA",
               "SAUDI_ARABIA", "UKRAINE", "YUGOSLAVIA")
# readers all come from 127.0.0.1: one address for the guard; far above their rate
READERS_PER_MINUTE = 10_000_000
CONDITIONS = ("none", "readers", "closed")  # what reads pages during intake and deadlines


# -- games by mail -------------------------------------------------------------------


class ByMail:
    """Mails to the judge's own listener, and waiting until it has answered."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge

    def send(self, sender: str, body: str) -> None:
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.judge.config.address
        msg["Subject"] = "orders"
        msg["Message-ID"] = email.utils.make_msgid(domain="players.test")
        msg.set_content(body)
        with smtplib.SMTP(self.judge.config.smtp_host, self.judge.config.smtp_port,
                          timeout=60) as smtp:
            smtp.sendmail(sender, [self.judge.config.address], msg.as_bytes())

    def settle(self, timeout: float = 120.0) -> None:
        def settled() -> bool:
            with Session(self.judge.engine) as session:
                new = session.exec(select(InboundMail.id).where(
                    InboundMail.status == "new")).first()
                waiting = session.exec(select(Outbox.id).where(
                    col(Outbox.status).in_(["pending", "sending"]))).first()
            if new is None and waiting is None and self.judge.idle.is_set():
                return True
            self.judge.sender.wake()
            return False
        if not wait_until(settled, timeout, 0.05):
            raise SystemExit("the judge did not settle while the games were set up: no figures")

    def game(self, name: str, variant: str, powers: tuple[str, ...], extra: str,
             phases: list[dict[str, list[str]]]) -> None:
        """CREATE, everyone JOINs (the game starts), then each phase's
        orders and the GM's PROCESS."""
        self.send(GM, f"CREATE {name} gm-secret\nvariant {variant}\n{extra}movement 2d\nEND\n")
        self.settle()
        for power in powers:
            self.send(_player(power), f"JOIN {power.lower()}@{name} pw-{power.lower()}")
        self.settle()
        for orders in phases:
            for power, lines in orders.items():
                self.send(_player(power), "\n".join(
                    [f"SIGNON {power.lower()}@{name} pw-{power.lower()}", *lines, "SIGNOFF"]))
            self.settle()
            self.send(GM, f"SIGNON master@{name} gm-secret\nPROCESS\nSIGNOFF")
            self.settle()


def _player(power: str) -> str:
    return f"{power.lower()}@players.test"


def set_up_web_games(judge: Judge) -> list[str]:
    """The three games; their game pages' paths."""
    mail = ByMail(judge)
    mail.game("std", "standard", STANDARD, "players 7\npress grey\n", [
        {"FRANCE": ["A Par-Bur", "F Bre-Mao", "A Mar H"], "GERMANY": ["A Mun-Ruh", "F Kie-Den"],
         "ENGLAND": ["F Lon-Nth", "F Edi-Nwg", "A Lvp-Yor"]},
        {"FRANCE": ["F Mao-Por", "A Bur-Bel"], "GERMANY": ["F Den H", "A Ruh-Hol"],
         "ENGLAND": ["F Nth-Nwy", "A Yor H"]},
        {},  # Winter 1901: builds left unordered
        {"FRANCE": ["A Bel H"], "RUSSIA": ["A Mos-Ukr"]},
    ])
    mail.game("icx", "intercontinental", GROUPS, "suez 1866\n", [
        {"Teal": ["F Bres - Engl", "A Pari H", "A Algi H"], "Blue": ["F Lond H"]},
    ])
    mail.game("dissol", "dissolution", DISSOLUTION, "", [
        {"UKRAINE": ["A Khk - Mos", "A Kyv H", "F Sev H"], "KAZAKHSTAN": ["A Akt - Ast"]},
    ])
    return ["/games/std", "/games/icx", "/games/dissol"]


# -- the web view's own counters ------------------------------------------------------


def counters(judge: Judge) -> dict[str, int]:
    """The guard's refusals, the pages made and the maps drawn so far."""
    guard = judge.web.app
    pages = guard.app.state.web.pages
    return {"refused": guard.refused, "pages_made": pages.cache.made,
            "maps_drawn": pages.maps.drawn}


def warm(base_url: str, paths: list[str]) -> dict[str, list[int]]:
    """Each page read once: made, and its maps drawn; its size, and the
    bytes sent for it gzipped."""
    sizes = {}
    with httpx.Client(base_url=base_url, timeout=60) as client:
        for path in paths:
            response = client.get(path)
            if response.status_code != 200:
                raise SystemExit(f"warming up: {path} gave HTTP {response.status_code}: "
                                 "no figures")
            sizes[path] = [len(response.content), response.num_bytes_downloaded]
    return sizes


def read_figures(read: Read) -> dict[str, Any]:
    every = [t for v in read.latencies.values() for t in v]
    return {
        "pages": read.pages, "seconds": read.elapsed,
        "pages_per_second": read.pages / max(read.elapsed, 1e-9),
        "reader_cores": read.cpu_seconds / max(read.elapsed, 1e-9),
        "reader_cpu_ms_per_page": read.cpu_seconds / max(read.pages, 1) * 1000,
        "all_ms": summary_ms(every),
        "by_page": {path: {"pages": len(v), "pages_per_second": len(v) / read.elapsed,
                           "bytes": read.bytes_by_path.get(path, 0), **summary_ms(v)}
                    for path, v in sorted(read.latencies.items())},
    }


def read_problems(read: Read, before: dict[str, int], after: dict[str, int],
                  only_reading: bool) -> list[str]:
    found = []
    if read.errors:
        found.append(f"{len(read.errors)} requests failed, e.g. {read.errors[0]}")
    not_ok = {s: n for s, n in read.statuses.items() if s != 200}
    if not_ok:
        found.append(f"responses not 200: {not_ok}")
    if after["refused"] != before["refused"]:
        found.append(f"the guard refused {after['refused'] - before['refused']} requests")
    if only_reading and (after["pages_made"] != before["pages_made"]
                         or after["maps_drawn"] != before["maps_drawn"]):
        found.append(f"pages made {after['pages_made'] - before['pages_made']} and maps drawn "
                     f"{after['maps_drawn'] - before['maps_drawn']} times while only read: "
                     "the caches did not hold")
    if read.pages == 0:
        found.append(f"no page was read ({read.elapsed:.1f} s, statuses {dict(read.statuses)})")
    return found


def reading(args: argparse.Namespace, paths: list[str], think: float,
            seconds: float) -> Reading:
    return Reading(args.base_url, tuple(paths), args.readers, seconds, think,
                   args.request_timeout, args.seed)


# -- intake and deadlines under readers ------------------------------------------------


def intake_run(args: argparse.Namespace, judge: Judge, engine: Engine, readers: ReaderProcess,
               clients: ClientProcess, names: list[str], condition: str,
               paths: list[str]) -> dict[str, Any]:
    warm_replies = reply_count(engine)
    before = counters(judge)
    read: Read | None = None
    if condition != "none":
        readers.start(reading(args, paths, args.think if condition == "readers" else 0.0,
                              args.mails / args.rate + args.timeout + 60))
        time.sleep(1.0)  # the readers' first pages under way before the first mail
    clients.go()
    sent = clients.results()
    accepted = [s for s in sent if not s.error]
    done = wait_until(lambda: reply_count(engine) >= warm_replies + len(accepted),
                      args.timeout, 0.1)
    if condition != "none":
        readers.finish()
        read = readers.result(args.request_timeout + 30)
    queued = replies(engine)
    with Session(engine) as session:
        phases = {g.name: g.phase for g in session.exec(
            select(Game).where(col(Game.name).in_(names))).all()}
        statuses = [row.status for row in session.exec(select(InboundMail)).all()]
    wrong = failures(sent, queued, statuses, phases)
    if not done:
        wrong.append(f"replies not all queued within {args.timeout:g} s of the last 250")
    if read is not None:
        wrong += read_problems(read, before, counters(judge), only_reading=False)
    if wrong:
        raise SystemExit(f"intake with {condition}: the run did not measure, no figures:\n  "
                         + "\n  ".join(wrong))
    to_queue = [queued[s.message_id][0] - s.accepted for s in accepted]
    first = min(s.started for s in sent)
    last = max(queued[s.message_id][0] for s in accepted)
    return {"condition": condition, "mails": len(accepted), "rate": args.rate,
            "processed_per_second": len(accepted) / max(last - first, 1e-9),
            "accept_to_reply_queued_ms": summary_ms(to_queue),
            "reading": read_figures(read) if read is not None else None}


def deadline_run(args: argparse.Namespace, judge: Judge, engine: Engine, relay: Any,
                 readers: ReaderProcess, ids: list[int], prefix: str, condition: str,
                 paths: list[str]) -> dict[str, Any]:
    before = counters(judge)
    read: Read | None = None
    if condition != "none":
        readers.start(reading(args, paths, args.think if condition == "readers" else 0.0,
                              args.lead + args.timeout + 60))
    due = set_deadlines(engine, ids, args.lead)
    judge.scheduler.sync()  # as after a mail: the new deadlines are scheduled
    subject = f"{RESULTS}{prefix}"
    expected = len(ids) * (len(STANDARD) + 1)  # the players and the GM
    done = wait_until(lambda: relay.count(subject) >= expected,
                      max(due - time.time(), 0) + args.timeout, 0.1)
    if condition != "none":
        readers.finish()
        read = readers.result(args.request_timeout + 30)
    arrivals = [a.at for a in relay.arrivals() if a.subject.startswith(subject)]
    wrong = []
    if not done:
        wrong.append(f"{len(arrivals)} of {expected} result mails at the relay within "
                     f"{args.timeout:g} s of the deadline")
    if read is not None:
        wrong += read_problems(read, before, counters(judge), only_reading=False)
    if wrong:
        raise SystemExit(f"deadlines with {condition}: the run did not measure, no figures:"
                         "\n  " + "\n  ".join(wrong))
    return {"condition": condition, "games": len(ids),
            "deadline_to_last_at_relay_s": max(arrivals) - due,
            "reading": read_figures(read) if read is not None else None}


# -- the run -------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    with work_directory() as directory, database(args.database_url, directory) as url, \
            sink_relay() as relay:
        engine = open_database(url)
        # the intake's games and mails, and the deadline batches, made before
        # the judge starts (the client processes are forked with their mails)
        per_run = games_needed(args.mails, args.mails_per_player)
        names = {c: [f"in{c[0]}{n}" for n in range(per_run)] for c in CONDITIONS}
        order_sets = set_up_games(engine, [n for c in CONDITIONS for n in names[c]], args.seed)
        rng = random.Random(args.seed)
        mails = {c: order_mails(args.mails, names[c], order_sets, rng, tag=f"i{c}")
                 for c in CONDITIONS}
        batches = {c: games_with_orders(engine, args.deadline_games, args.seed, f"dl{c[0]}")
                   for c in CONDITIONS} if args.deadline_games else {}
        # a first batch, not measured: the deadline workers' first maps build
        # each board's layers (seconds), which the first measured batch paid
        first_batch = games_with_orders(engine, 10, args.seed, "dlw") if batches else []
        config = judge_config(directory, url, relay.port).with_(
            limits=Limits(), web=WebConfig(port=free_port(),
                                           requests_per_minute=READERS_PER_MINUTE))
        args.base_url = config.web.url
        engine.dispose()  # the processes forked next must not share its connections
        readers = ReaderProcess()
        clients = {c: ClientProcess(mails[c], args.clients, args.rate, config.smtp_host,
                                    [config.smtp_port], False) for c in CONDITIONS}
        judge = Judge(config, engine)
        result: dict[str, Any] = {"machine": machine(url), "readers": args.readers,
                                  # others' work on the machine: the figures' noise
                                  "load_average_at_start": os.getloadavg()[0],
                                  "database": "postgresql" if url.startswith("postgresql")
                                  else "sqlite"}
        try:
            judge.start()
            started = time.perf_counter()
            paths = set_up_web_games(judge)
            result["setup_seconds"] = time.perf_counter() - started
            result["page_bytes"] = warm(args.base_url, paths)
            result["warm"] = counters(judge)

            runs = {}
            for label, think in (("closed", 0.0), ("readers", args.think)):
                before = counters(judge)
                cpu = cpu_seconds(os.getpid())
                read = readers.run(reading(args, paths, think, args.seconds))
                judge_cpu = cpu_seconds(os.getpid()) - cpu
                wrong = read_problems(read, before, counters(judge), only_reading=True)
                if wrong:
                    raise SystemExit(f"reading ({label}): the run did not measure, no "
                                     "figures:\n  " + "\n  ".join(wrong))
                runs[label] = read_figures(read)
                # the cores each side used: which one sets the pace
                runs[label]["judge_cores"] = judge_cpu / read.elapsed
                runs[label]["judge_cpu_ms_per_page"] = judge_cpu / read.pages * 1000
            result["reading"] = runs

            if args.mails:
                warm_up([config.smtp_port], config.mail_worker_count, names["none"][0],
                        lambda: reply_count(engine), 120.0)
                result["intake"] = [intake_run(args, judge, engine, readers, clients[c],
                                               names[c], c, paths) for c in CONDITIONS]
            if batches:
                deadline_run(args, judge, engine, relay, readers, first_batch, "dlw", "none",
                             paths)
                result["deadlines"] = [deadline_run(args, judge, engine, relay, readers,
                                                    batches[c], f"dl{c[0]}", c, paths)
                                       for c in CONDITIONS]
            result["end"] = counters(judge)
            result["load_average_at_end"] = os.getloadavg()[0]
        finally:
            for client in clients.values():
                client.stop()
            readers.stop()
            judge.stop()
            engine.dispose()
    return result


def _line(label: str, s: dict[str, float]) -> str:
    return (f"{label:34} p50 {s['p50']:7.1f}  p95 {s['p95']:7.1f}  p99 {s['p99']:7.1f}  "
            f"max {s['max']:7.1f} ms")


def report(result: dict[str, Any], args: argparse.Namespace) -> None:
    m = result["machine"]
    print(f"machine: nproc {m['nproc']}, {m['cpu']}, Python {m['python']}, "
          f"SQLite {m['sqlite']}; database {result['database']}; load average "
          f"{result['load_average_at_start']:.1f} at the start, "
          f"{result['load_average_at_end']:.1f} at the end")
    print(f"games set up by mail in {result['setup_seconds']:.1f} s; game pages: "
          + ", ".join(f"{p} {n / 1024:.0f} KB ({z / 1024:.0f} KB gzipped)"
                      for p, (n, z) in result["page_bytes"].items()))
    for label, title in (("closed", "closed loop, no think time"),
                         ("readers", f"readers, {args.think:g} s (0.5-1.5x) between pages")):
        r = result["reading"][label]
        print(f"{result['readers']} readers, {title}: {r['pages']} pages in "
              f"{r['seconds']:.1f} s, {r['pages_per_second']:.0f} pages/s; cores used: the "
              f"judge's process {r['judge_cores']:.2f}, the readers' {r['reader_cores']:.2f}; "
              f"processor ms a page: judge {r['judge_cpu_ms_per_page']:.2f}, readers "
              f"{r['reader_cpu_ms_per_page']:.2f}")
        print("  " + _line("all game pages", r["all_ms"]))
        for path, s in r["by_page"].items():
            print("  " + _line(f"{path} ({s['pages_per_second']:.0f}/s)", s))
    for run in result.get("intake", []):
        s = run["accept_to_reply_queued_ms"]
        print(f"intake, {run['mails']} mails at {run['rate']:g}/s, pages read by "
              f"{run['condition']}: processed {run['processed_per_second']:.1f}/s; "
              + _line("250 -> reply queued", s))
        if run["reading"]:
            print("  pages meanwhile: " + _line(f"{run['reading']['pages_per_second']:.0f}/s",
                                                run["reading"]["all_ms"]))
    for run in result.get("deadlines", []):
        print(f"deadlines, {run['games']} games due at once, pages read by "
              f"{run['condition']}: last result mail at the relay "
              f"{run['deadline_to_last_at_relay_s']:.2f} s after the deadline")
        if run["reading"]:
            print("  pages meanwhile: " + _line(f"{run['reading']['pages_per_second']:.0f}/s",
                                                run["reading"]["all_ms"]))
    base = {r["condition"]: r for r in result.get("intake", [])}
    if base:
        for c in CONDITIONS[1:]:
            print(f"intake with {c} / without: processed/s "
                  f"{base[c]['processed_per_second'] / base['none']['processed_per_second']:.2f}"
                  f", p99 {base[c]['accept_to_reply_queued_ms']['p99'] / base['none']['accept_to_reply_queued_ms']['p99']:.2f}")  # noqa: E501
    dl = {r["condition"]: r for r in result.get("deadlines", [])}
    if dl:
        for c in CONDITIONS[1:]:
            print(f"deadlines with {c} / without: "
                  f"{dl[c]['deadline_to_last_at_relay_s'] / dl['none']['deadline_to_last_at_relay_s']:.2f}")  # noqa: E501
    print(f"web counters at the end: {result['end']} (after warming: {result['warm']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="each reading run's length (20)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="a reader's mean seconds between pages in the readers' run (1)")
    parser.add_argument("--request-timeout", type=float, default=30.0)
    parser.add_argument("--mails", type=int, default=300,
                        help="order mails per intake run (300; 0: no intake runs)")
    parser.add_argument("--rate", type=float, default=20.0,
                        help="mails a second offered in the intake runs (20)")
    parser.add_argument("--clients", type=int, default=4, help="SMTP client threads (4)")
    parser.add_argument("--mails-per-player", type=int, default=8)
    parser.add_argument("--deadline-games", type=int, default=50,
                        help="games due at once per deadline run (50; 0: no deadline runs)")
    parser.add_argument("--lead", type=float, default=3.0,
                        help="seconds from setting a batch's deadline to the deadline")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds to wait for an intake run's replies or a deadline "
                             "batch's result mails")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    quiet_logging()
    # a deadline job that finds the last still running is skipped (and run
    # again by the next sync): a warning per game that says nothing here
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
    result = run(args)
    report(result, args)
    write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
