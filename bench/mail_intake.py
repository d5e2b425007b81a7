"""Order mails per second through the judge's SMTP listener, and how long
each waits for its acknowledgement.

A whole judge runs on loopback (listener, worker, scheduler, sender) with
a sink relay in a process of its own. One running 7-player game is set up
through the judge's own functions; then a client process sends N order
mails from several threads over SMTP. Each mail signs on as one power,
says SET WAIT, and gives a full set of random legal orders for that
power; SET WAIT keeps the phase from being adjudicated early, so every
mail costs the same (see bench/README.md, "Judge service"). Before the
measured mails, each player signs on once (a judge whose players have
mailed it before); --cold leaves that out.

Measured:

* accepted mails per second: N over the time from the first mail's start
  to the last mail's 250 (the client's clock);
* for each mail, the time from the 250 its client got (``time.time()``)
  to its reply being queued in the outbox (``Outbox.created_at``, matched
  by In-Reply-To to the mail's Message-ID): p50, p95, p99;
* how fast the worker processes mail, and the time to the reply reaching
  the relay.

Usage (see bench/README.md)::

    .venv/bin/python bench/mail_intake.py --mails 2000 --clients 8
    .venv/bin/python bench/mail_intake.py --database-url postgresql://root@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import cProfile
import email.parser
import email.policy
import email.utils
import io
import itertools
import json
import pstats
import random
import smtplib
import sys
import threading
import time
from dataclasses import dataclass, replace
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from service_common import (
    POWERS,
    database,
    forked,
    games_with_orders,
    judge_config,
    machine,
    password_of,
    player_address,
    quiet_logging,
    random_orders,
    running_game,
    sink_relay,
    summary_ms,
    wait_until,
    work_directory,
)
from sqlmodel import Session, col, select

from engine.variant_file import load_variant
from judge.db import open_database, transaction
from judge.intake.store import store_inbound
from judge.models import Game, InboundMail, Outbox, as_utc
from judge.passwords import hash_password
from judge.processing import process_mail
from judge.service import Judge
from judge.settings import GameSettings

GAME = "bench"
JUDGE_ADDRESS = "judge@judge.test"


@dataclass(frozen=True)
class Sent:
    message_id: str
    started: float  # time.time() before connecting / MAIL FROM
    accepted: float  # time.time() when the client had the 250 for DATA
    error: str  # '' when accepted


# -- the mails -------------------------------------------------------------------


def order_mails(count: int, order_sets: dict[str, list[list[str]]],
                rng: random.Random) -> list[tuple[str, bytes, str]]:
    """(sender, raw mail, Message-ID) for each mail; the powers take turns."""
    mails = []
    for i in range(count):
        power = POWERS[i % len(POWERS)]
        orders = rng.choice(order_sets[power])
        body = "\n".join([f"SIGNON {power.lower()}@{GAME} {password_of(power)}",
                          "SET WAIT", *orders, "SIGNOFF", ""])
        msg = EmailMessage()
        sender = player_address(GAME, power)
        msg["From"] = sender
        msg["To"] = JUDGE_ADDRESS
        msg["Subject"] = f"orders {i}"
        msg["Date"] = email.utils.formatdate()
        msg["Message-ID"] = email.utils.make_msgid(idstring=f"m{i}", domain="players.test")
        msg.set_content(body)
        mails.append((sender, msg.as_bytes(), str(msg["Message-ID"])))
    return mails


# -- the clients (a process of their own) ----------------------------------------


def run_clients(mails: list[tuple[str, bytes, str]], clients: int, rate: float,
                host: str, port: int, connection_per_mail: bool) -> list[Sent]:
    """Send every mail from ``clients`` threads; mail i is not started
    before start + i/rate when a rate is given."""
    taken = itertools.count()
    lock = threading.Lock()
    results: list[Sent | None] = [None] * len(mails)
    begin = time.time() + 0.1

    def client() -> None:
        smtp: smtplib.SMTP | None = None
        while True:
            with lock:
                i = next(taken)
            if i >= len(mails):
                break
            if rate > 0:
                pause = begin + i / rate - time.time()
                if pause > 0:
                    time.sleep(pause)
            sender, raw, message_id = mails[i]
            started = time.time()
            error = ""
            try:
                if smtp is None:
                    smtp = smtplib.SMTP(host, port, timeout=120)
                smtp.sendmail(sender, [JUDGE_ADDRESS], raw)
            except smtplib.SMTPResponseException as exc:
                error = f"{exc.smtp_code} {exc.smtp_error!r}"
            except (smtplib.SMTPException, OSError) as exc:
                error = repr(exc)
            accepted = time.time()
            results[i] = Sent(message_id, started, accepted, error)
            if error or connection_per_mail:
                if smtp is not None:
                    try:
                        smtp.quit()
                    except (smtplib.SMTPException, OSError):
                        smtp.close()
                smtp = None
        if smtp is not None:
            smtp.quit()

    threads = [threading.Thread(target=client, name=f"client-{n}") for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [r for r in results if r is not None]


class ClientProcess:
    """The SMTP clients in a process of their own (forked before the judge
    starts its threads), so that they do not take the judge's interpreter
    lock. They start sending on go()."""

    def __init__(self, *args: Any) -> None:
        ctx = forked()
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(target=_clients_main, args=(child, *args),
                                    name="smtp-clients", daemon=True)
        self._process.start()
        child.close()

    def go(self) -> None:
        self._conn.send("go")

    def results(self) -> list[Sent]:
        try:
            sent: list[Sent] = self._conn.recv()
        except EOFError:
            raise RuntimeError("the SMTP clients died; see their error above") from None
        self._process.join()
        return sent

    def stop(self) -> None:
        if self._process.is_alive():
            self._process.kill()
            self._process.join()


def _clients_main(conn: Any, *args: Any) -> None:
    if conn.recv() == "go":
        conn.send(run_clients(*args))


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


def warm_up(engine: Any, host: str, port: int, timeout: float) -> int:
    """Each player signs on once, and the judge answers, before the measured
    mails: a judge that has been running a while, whose players have mailed
    it before. What this leaves out, and --cold measures, is the first mail
    of each player after the judge starts, which pays the slow password hash
    (about 50 ms) before the check is remembered. Returns the replies it
    caused."""
    before = reply_count(engine)
    with smtplib.SMTP(host, port, timeout=60) as smtp:
        for power in POWERS:
            msg = EmailMessage()
            msg["From"] = player_address(GAME, power)
            msg["To"] = JUDGE_ADDRESS
            msg["Subject"] = f"hello from {power}"
            msg["Message-ID"] = email.utils.make_msgid(idstring="warm", domain="players.test")
            msg.set_content(f"SIGNON {power.lower()}@{GAME} {password_of(power)}\nSIGNOFF\n")
            smtp.send_message(msg)
    if not wait_until(lambda: reply_count(engine) >= before + len(POWERS), timeout, 0.05):
        raise SystemExit("the warm-up mails were not answered")
    return len(POWERS)


def slowest_by_second(points: list[tuple[float, float]]) -> list[int]:
    """(when accepted, seconds to the reply) -> the slowest in ms, per second."""
    slowest: dict[int, float] = {}
    for at, took in points:
        second = int(at)
        slowest[second] = max(slowest.get(second, 0.0), took)
    return [round(slowest.get(n, 0.0) * 1000) for n in range(max(slowest, default=-1) + 1)]


def reply_count(engine: Any) -> int:
    with Session(engine) as session:
        return len(session.exec(select(Outbox.id).where(Outbox.kind == "reply")).all())


def profile_processing(engine: Any, judge_config_: Any, mails: list[tuple[str, bytes, str]],
                       top: int) -> str:
    """Store the mails and process them one by one in this thread (the
    judge is stopped): the first half timed as they are, the second half
    under cProfile, to show where a mail's processing goes."""
    ids = [store_inbound(engine, raw, "smtp", sender)[0] for sender, raw, _ in mails]
    timed, profiled = ids[:len(ids) // 2], ids[len(ids) // 2:]
    started = time.perf_counter()
    cpu = time.process_time()
    for inbound_id in timed:
        process_mail(engine, judge_config_, inbound_id)
    plain = (time.perf_counter() - started) / max(len(timed), 1)
    plain_cpu = (time.process_time() - cpu) / max(len(timed), 1)
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for inbound_id in profiled:
        process_mail(engine, judge_config_, inbound_id)
    profiler.disable()
    elapsed = time.perf_counter() - started
    stream = io.StringIO()
    stats = pstats.Stats(profiler, stream=stream)
    stats.sort_stats("cumulative" if top >= 0 else "tottime").print_stats(abs(top))
    stream.write(by_package(stats, len(profiled)))
    return (f"{len(timed)} mails processed in one thread: {plain * 1000:.2f} ms a mail "
            f"({plain_cpu * 1000:.2f} ms of processor time)\n"
            f"{len(profiled)} more under the profiler: {elapsed / len(profiled) * 1000:.1f} ms "
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


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    with work_directory() as directory, database(args.database_url, directory) as url, \
            sink_relay() as relay:
        engine = open_database(url)
        game_map = load_variant("standard")
        hashes = {power: hash_password(password_of(power)) for power in POWERS}
        settings = GameSettings(movement=timedelta(days=7), nmr="hold")
        with transaction(engine) as session:
            game, state = running_game(session, GAME, hash_password("gm-secret"), hashes,
                                       settings, aware_now())
            phase = game.phase
        if args.other_games:
            # a judge holds many games; the worker's work after each mail may grow with them
            games_with_orders(engine, args.other_games, args.seed, "other")
        order_sets = {power: [random_orders(game_map, state, power, rng) for _ in range(20)]
                      for power in POWERS}
        mails = order_mails(args.mails, order_sets, rng)
        extra = order_mails(args.profile, order_sets, random.Random(args.seed + 1)) \
            if args.profile else []

        config = replace(judge_config(directory, url, relay.port), workers=args.workers)
        clients = ClientProcess(mails, args.clients, args.rate, config.smtp_host,
                                config.smtp_port, args.connection_per_mail)
        judge = Judge(config, engine)
        judge.start()
        try:
            warm = 0 if args.cold else warm_up(engine, config.smtp_host, config.smtp_port,
                                               args.timeout)
            clients.go()
            sent = clients.results()
            accepted = [s for s in sent if not s.error]
            done = wait_until(lambda: reply_count(engine) >= warm + len(accepted),
                              args.timeout, 0.2)
            all_acked = time.time()
            delivered = wait_until(lambda: relay.count("Re: orders") >= len(accepted),
                                   args.timeout, 0.2)
        finally:
            clients.stop()
            judge.stop()
        if not done:
            print(f"warning: only {reply_count(engine) - warm} of {len(accepted)} replies queued "
                  f"within {args.timeout} s", file=sys.stderr)
        if not delivered:
            print("warning: not every reply reached the relay in time", file=sys.stderr)

        queued = replies(engine)
        arrivals = {a.in_reply_to: a.at for a in relay.arrivals()}
        to_queue = [queued[s.message_id][0] - s.accepted for s in accepted
                    if s.message_id in queued]
        to_relay = [arrivals[s.message_id] - s.accepted for s in accepted
                    if s.message_id in arrivals]
        bodies = [queued[s.message_id][1] for s in accepted if s.message_id in queued]
        with Session(engine) as session:
            game_now = session.exec(select(Game).where(Game.name == GAME)).one()
            statuses = [row.status for row in session.exec(
                select(InboundMail).where(col(InboundMail.id).is_not(None))).all()]
        first_start = min(s.started for s in sent)
        last_250 = max(s.accepted for s in accepted) if accepted else first_start
        first_250 = min(s.accepted for s in accepted) if accepted else first_start
        last_queued = max((queued[s.message_id][0] for s in accepted
                           if s.message_id in queued), default=first_start)

        result: dict[str, Any] = {
            "database": "postgresql" if url.startswith("postgresql") else "sqlite",
            "machine": machine(url),
            "mails": args.mails, "clients": args.clients, "rate": args.rate,
            "warmed_up": not args.cold, "workers": args.workers,
            "other_games": args.other_games,
            "connection_per_mail": args.connection_per_mail,
            "accepted": len(accepted), "refused": len(sent) - len(accepted),
            "refusals": sorted({s.error for s in sent if s.error})[:5],
            "accept_seconds": last_250 - first_start,
            "accepted_per_second": len(accepted) / max(last_250 - first_start, 1e-9),
            "processed_per_second": len(to_queue) / max(last_queued - first_start, 1e-9),
            "all_replies_queued_after_last_250_s": max(last_queued - last_250, 0.0),
            "accept_to_reply_queued_ms": summary_ms(to_queue),
            "accept_to_reply_at_relay_ms": summary_ms(to_relay),
            "replies_queued": len(to_queue), "replies_at_relay": len(to_relay),
            "replies_with_errors": sum(1 for b in bodies if "ERROR" in b or "Refused" in b
                                       or "Not understood" in b),
            "inbound_status": {s: statuses.count(s) for s in sorted(set(statuses))},
            "phase_before": phase, "phase_after": game_now.phase,
            # the slowest acknowledgement of the mails accepted in each second
            # of the run: shows whether slow ones cluster (a start, a stall)
            "slowest_ms_by_second": slowest_by_second(
                [(s.accepted - first_start, queued[s.message_id][0] - s.accepted)
                 for s in accepted if s.message_id in queued]),
            "first_250_after_start_s": first_250 - first_start,
            "seconds_waiting_for_acks": all_acked - last_250,
        }
        if args.profile:
            result["profile"] = profile_processing(engine, config, extra, args.top)
        engine.dispose()
    return result


def aware_now() -> Any:
    from judge.models import utcnow
    return utcnow()


def report(result: dict[str, Any]) -> None:
    m = result["machine"]
    print(f"machine: nproc {m['nproc']}, {m['cpu']}, Python {m['python']}, "
          f"SQLite {m['sqlite']}" + (f", PostgreSQL {m['postgresql']}"
                                     if "postgresql" in m else ""))
    print(f"database: {result['database']}; {result['mails']} mails from "
          f"{result['clients']} client threads"
          + (f" paced at {result['rate']:g}/s" if result["rate"] else "")
          + (", one connection per mail" if result["connection_per_mail"]
             else ", connections reused")
          + ("" if result["warmed_up"] else ", cold (no warm-up)")
          + f", {result['workers']} mail worker(s)"
          + (f"; {result['other_games']} other running games" if result["other_games"]
             else ""))
    print(f"accepted (250): {result['accepted']}, refused: {result['refused']} "
          f"{result['refusals'] or ''}")
    print(f"accepted per second: {result['accepted_per_second']:.0f} "
          f"({result['accept_seconds']:.2f} s for all)")
    print(f"processed per second (first mail sent to last reply queued): "
          f"{result['processed_per_second']:.1f}")
    for key, label in (("accept_to_reply_queued_ms", "250 -> reply queued"),
                       ("accept_to_reply_at_relay_ms", "250 -> reply at the relay")):
        s = result[key]
        if s:
            print(f"{label:28} p50 {s['p50']:9.1f} ms  p95 {s['p95']:9.1f} ms  "
                  f"p99 {s['p99']:9.1f} ms  max {s['max']:9.1f} ms")
    print("slowest 250 -> reply queued, ms, by second: "
          + " ".join(map(str, result["slowest_ms_by_second"])))
    print(f"replies queued {result['replies_queued']}, at the relay "
          f"{result['replies_at_relay']}, replies reporting an error "
          f"{result['replies_with_errors']}; inbound {result['inbound_status']}; "
          f"phase {result['phase_before']} -> {result['phase_after']}")
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
    parser.add_argument("--other-games", type=int, default=0, metavar="N",
                        help="N more running games in the database (deadlines days away)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="the judge's mail workers")
    parser.add_argument("--cold", action="store_true",
                        help="no warm-up: the first mail of each player pays the slow "
                             "password hash inside the measured run")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds to wait for the replies")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="afterwards, process N more mails in one thread under cProfile")
    parser.add_argument("--top", type=int, default=25, help="profile lines to print")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    quiet_logging()
    result = run(args)
    report(result)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
