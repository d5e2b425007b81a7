"""A whole judge serving its web view on loopback, with games played by
mail through its real SMTP listener, for the web view's tests (httpx and
the browser): module-scoped, as a game takes seconds to set up."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from aiosmtpd.controller import Controller
from sqlmodel import Session, select

from judge.config import Config, WebConfig
from judge.models import Game
from judge.service import Judge
from tests.e2e.conftest import Harness, Sink
from tests.loopback import free_port

GM = "gm@players.test"
STANDARD = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
# the ten powers a Dissolution game starts with, and Intercontinental's colour groups
DISSOLUTION = ["EGYPT", "ETHIOPIA", "IRAN", "KAZAKHSTAN", "PAKISTAN", "POLAND", "ROMANIA",
               "SAUDI_ARABIA", "UKRAINE", "YUGOSLAVIA"]
INTERCONTINENTAL = ["Blue", "Teal", "Green", "Olive", "Yellow", "Red", "Maroon", "Violet"]
# A Dissolution year (as tests/e2e/test_dissolution_by_mail.py plays it): in
# Spring Poland buys Belarus's support for Ukraine's attack on Moscow with a
# bid, secret until the game ends; Autumn's attack on Krasnodar brings
# Russia's retaliation; Winter builds and moves Embassies.
DISSOLUTION_YEAR: list[dict[str, list[str]]] = [
    {"POLAND": ["A War H", "A Gda H", "DP", "1: A Blr S Khk - Mos"],
     "UKRAINE": ["A Khk - Mos", "A Kyv H", "F Sev H"],
     "KAZAKHSTAN": ["A Akt - Ast", "A Alm H"],
     "ETHIOPIA": ["A AdA - Eri", "A DiD S AdA - Eri"]},
    {"KAZAKHSTAN": ["A Ast - Kra", "A Alm H"], "UKRAINE": ["F Sev S Ast - Kra"]},
    {"ETHIOPIA": ["BUILD A AdA", "E B2n H"], "KAZAKHSTAN": ["BUILD A Akt", "E R0z - R1q"],
     "EGYPT": ["E B1q - B2n"], "IRAN": ["E B3g S B1q - B2n"]},
]


def player(power: str) -> str:
    return f"{power.lower()}@players.test"


def password(power: str) -> str:
    return f"pw-{power.lower()}"


def signon(power: str, game: str, lines: list[str]) -> str:
    return "\n".join([f"SIGNON {power.lower()}@{game} {password(power)}", *lines, "SIGNOFF"])


class Served(Harness):
    """The e2e harness (send, settle) with the web view's address and the
    games its tests set up."""

    @property
    def url(self) -> str:
        return self.judge.config.web.url

    def create_game(self, name: str, settings: list[str], seats: list[str]) -> None:
        """CREATE a game with ``settings`` (one per line) and JOIN every seat,
        each by its own address (player(seat)) and password (password(seat))."""
        self.send(GM, "\n".join([f"CREATE {name} gm-secret", *settings, "END", ""]))
        self.settle()
        for seat in seats:
            self.send(player(seat), f"JOIN {seat.lower()}@{name} {password(seat)}")
        self.settle()

    def standard_game(self, name: str, phases: list[dict[str, list[str]]],
                      press: Sequence[str] = ()) -> None:
        """A standard game, all seven joined, its first phases played by mail."""
        self.create_game(name, ["variant standard", "players 7", "press grey", "movement 2d",
                                "list news@lists.test"], STANDARD)
        if press:
            self.send(player("FRANCE"), signon("FRANCE", name, list(press)))
            self.settle()
        self.play(name, phases)

    def phase(self, name: str) -> str:
        with Session(self.judge.engine) as session:
            game = session.exec(select(Game).where(Game.name == name)).one()
            return game.phase

    def dissolution_game(self, name: str, phases: int) -> None:
        """A Dissolution game, its ten powers joined, the first ``phases`` of
        DISSOLUTION_YEAR played by mail."""
        self.create_game(name, ["variant dissolution", "movement 2d"], DISSOLUTION)
        self.play(name, DISSOLUTION_YEAR[:phases])

    def play(self, name: str, phases: list[dict[str, list[str]]]) -> None:
        """Each phase's orders by mail, then the GM's PROCESS unless every
        power's orders were in and the judge processed it already."""
        for orders in phases:
            before = self.phase(name)
            for power, lines in orders.items():
                self.send(player(power), signon(power, name, lines))
            self.settle()
            if self.phase(name) == before:
                self.send(GM, f"SIGNON master@{name} gm-secret\nPROCESS\nSIGNOFF")
                self.settle()


@contextmanager
def served(tmp: Path) -> Iterator[Served]:
    sink = Sink()
    relay_port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=relay_port)
    controller.start()
    config = Config(name="WEBJUDGE", address="judge@judge.test", data_dir=tmp,
                    smtp_port=free_port(), relay_host="127.0.0.1", relay_port=relay_port,
                    relay_first_retry_seconds=1,
                    # every test's requests come from 127.0.0.1: the rates' own
                    # test makes an app with small ones (test_forms.py)
                    web=WebConfig(port=free_port(), requests_per_minute=100_000,
                                  posts_per_minute=10_000))
    judge = Judge(config)
    judge.start()
    try:
        yield Served(judge, sink)
    finally:
        judge.stop()
        judge.engine.dispose()
        controller.stop()
