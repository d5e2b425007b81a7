"""The load of bench/mail_intake.py: the games its players play, their
order mails, the SMTP clients that send them, the warm-up, and a second
judge in a process of its own.

Players write as real ones do: each from the address on file for their
power, a few mails each, so that every address stays within the judge's
own limits (the reply throttle's replies an hour, the wrong-password
counts: every password here is right). So a run of N mails needs many
players, hence many 7-player games; and mails to different games can be
processed at the same time, which is what more workers or a second judge
are for.
"""

from __future__ import annotations

import contextlib
import email.utils
import itertools
import math
import random
import smtplib
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

from service_common import (
    POWERS,
    forked,
    password_of,
    player_address,
    quiet_logging,
    random_orders,
    running_game,
    wait_until,
)
from sqlalchemy.engine import Engine

from engine.variant_file import load_variant
from judge.config import Config
from judge.db import transaction
from judge.models import utcnow
from judge.passwords import hash_password
from judge.service import Judge
from judge.settings import GameSettings

JUDGE_ADDRESS = "judge@judge.test"
WARM_DOMAIN = "warm.test"


@dataclass(frozen=True)
class Mail:
    sender: str
    raw: bytes
    message_id: str


@dataclass(frozen=True)
class Sent:
    message_id: str
    started: float  # time.time() before connecting / MAIL FROM
    accepted: float  # time.time() when the client had the 250 for DATA
    error: str  # '' when accepted
    judge: int  # which judge it was sent to


# -- the games and the mails -----------------------------------------------------


def games_needed(mails: int, per_player: int) -> int:
    """Games enough that no player sends more than ``per_player`` mails."""
    return max(1, math.ceil(mails / (len(POWERS) * per_player)))


def set_up_games(engine: Engine, names: Sequence[str], seed: int
                 ) -> dict[str, list[list[str]]]:
    """Running 7-player standard games, one transaction each, deadlines a
    week away; 20 sets of random legal orders per power for their first
    phase (the same in every game). The powers' passwords are hashed once
    for all games, as bench/service_common.games_with_orders does: hashing
    one per player would take seconds per game, and a check the judge
    remembers costs the same whatever the hash (see warm_up)."""
    game_map = load_variant("standard")
    hashes = {power: hash_password(password_of(power)) for power in POWERS}
    master = hash_password("gm-secret")
    settings = GameSettings(movement=timedelta(days=7), nmr="hold")
    state = None
    for name in names:
        with transaction(engine) as session:
            _, state = running_game(session, name, master, hashes, settings, utcnow())
    assert state is not None
    rng = random.Random(seed)
    return {power: [random_orders(game_map, state, power, rng) for _ in range(20)]
            for power in POWERS}


def order_mails(count: int, games: Sequence[str], order_sets: dict[str, list[list[str]]],
                rng: random.Random, tag: str = "m") -> list[Mail]:
    """Mail i goes to game i mod len(games), from the next power of that
    game in turn: neighbouring mails are for different games, and each
    player's mails are spread over the run. Each signs on, says SET WAIT
    (so no phase is processed early and every mail costs the same: see
    bench/README.md) and gives a full set of orders for its power."""
    mails = []
    for i in range(count):
        game = games[i % len(games)]
        power = POWERS[(i // len(games)) % len(POWERS)]
        body = "\n".join([f"SIGNON {power.lower()}@{game} {password_of(power)}", "SET WAIT",
                          *rng.choice(order_sets[power]), "SIGNOFF", ""])
        sender = player_address(game, power)
        mails.append(_mail(sender, f"orders {i}", body, f"{tag}{i}"))
    return mails


def _mail(sender: str, subject: str, body: str, tag: str) -> Mail:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = JUDGE_ADDRESS
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate()
    msg["Message-ID"] = email.utils.make_msgid(idstring=tag, domain="players.test")
    msg.set_content(body)
    return Mail(sender, msg.as_bytes(), str(msg["Message-ID"]))


def warm_up_mails(game: str, count: int, judge: int) -> list[Mail]:
    """``count`` mails that each sign on as every power of ``game`` (one
    password check per power), each from an address of its own: the
    warm-up's replies use up no player's replies."""
    body = "\n".join([*(f"SIGNON {power.lower()}@{game} {password_of(power)}"
                        for power in POWERS), "SIGNOFF", ""])
    return [_mail(f"warm{judge}-{n}@{WARM_DOMAIN}", f"warm-up {judge} {n}", body,
                  f"w{judge}-{n}") for n in range(count)]


def warm_up(ports: Sequence[int], workers: int, game: str, replies: Any,
            timeout: float) -> int:
    """Have every worker process of every judge check each power's password
    once, before the measured mails: a judge that has been running a
    while, whose players have mailed it before. A check the judge
    remembers is kept in its worker process, so each worker must see one.
    The powers' hashes are the same in every game, so one check per power
    does for every game.

    Each judge gets 2 x workers warm-up mails at once. Each takes seven
    password hashes (a quarter of a second and more), and a judge hands
    each new mail to its least busy worker, so every worker gets at least
    one. Returns the replies they cause; SystemExit if they do not come."""
    before = replies()
    sent = 0
    for judge, port in enumerate(ports):
        mails = warm_up_mails(game, 2 * workers, judge)
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
            for mail in mails:
                smtp.sendmail(mail.sender, [JUDGE_ADDRESS], mail.raw)
        sent += len(mails)
    if not wait_until(lambda: replies() >= before + sent, timeout, 0.05):
        raise SystemExit(f"the warm-up's {sent} mails were not all answered "
                         f"within {timeout:g} s: no figures")
    return sent


# -- the clients (a process of their own) ----------------------------------------


def run_clients(mails: Sequence[Mail], clients: int, rate: float, host: str,
                ports: Sequence[int], connection_per_mail: bool) -> list[Sent]:
    """Send every mail from ``clients`` threads, thread t to judge t mod
    len(ports); mail i is not started before start + i/rate when a rate
    is given."""
    taken = itertools.count()
    lock = threading.Lock()
    results: list[Sent | None] = [None] * len(mails)
    begin = time.time() + 0.1

    def client(judge: int) -> None:
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
            mail = mails[i]
            started = time.time()
            error = ""
            try:
                if smtp is None:
                    smtp = smtplib.SMTP(host, ports[judge], timeout=120)
                smtp.sendmail(mail.sender, [JUDGE_ADDRESS], mail.raw)
            except smtplib.SMTPResponseException as exc:
                error = f"{exc.smtp_code} {exc.smtp_error!r}"
            except (smtplib.SMTPException, OSError) as exc:
                error = repr(exc)
            results[i] = Sent(mail.message_id, started, time.time(), error, judge)
            if error or connection_per_mail:
                if smtp is not None:
                    try:
                        smtp.quit()
                    except (smtplib.SMTPException, OSError):
                        smtp.close()
                smtp = None
        if smtp is not None:
            smtp.quit()

    threads = [threading.Thread(target=client, args=(n % len(ports),), name=f"client-{n}")
               for n in range(clients)]
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


# -- a second judge ---------------------------------------------------------------


class JudgeProcess:
    """A whole judge (judge.service.Judge: listener, workers, scheduler,
    sender) in a process of its own, on the same database as the first:
    two judges behind one mail exchanger. Forked before the benchmark's
    own judge starts its threads; it opens its own engine."""

    def __init__(self, config: Config) -> None:
        ctx = forked()
        self._conn, child = ctx.Pipe()
        # not a daemon: a daemon process may not start the judge's workers
        self._process = ctx.Process(target=_judge_main, args=(child, config),
                                    name="second-judge")
        self._process.start()
        child.close()
        if not self._conn.poll(120) or self._conn.recv() != "started":
            self._process.kill()
            raise SystemExit("the second judge did not start: no figures")

    def stop(self) -> None:
        if not self._process.is_alive():
            return
        with contextlib.suppress(OSError, EOFError):
            self._conn.send("stop")
            self._conn.poll(120)
        self._process.join(30)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()


def _judge_main(conn: Any, config: Config) -> None:
    quiet_logging()
    judge = Judge(config)
    judge.start()
    conn.send("started")
    try:
        conn.recv()  # "stop", or the benchmark is gone
    except EOFError:
        pass
    finally:
        judge.stop()
    with contextlib.suppress(OSError):  # the benchmark is gone
        conn.send("stopped")
