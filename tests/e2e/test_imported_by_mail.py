"""Maps imported from DPJudge (engine/variants/modern.toml, youngstown.toml,
made by ``judge variant import``) played by mail through the judge's real
SMTP listener, its database and its sender: the GM CREATEs a ten-player
game, every player JOINs by power name, and a year is played from the data
file: a bounce, a supported attack, a unit dislodged that retreats, builds
that show on the next map, and an order refused with its reason. Every
results mail reaches every player and the GM with the same body and the
map drawn from the map's own artwork. LIST offers the imported maps;
CREATE refuses one the judge cannot play yet (Zeus) and says why."""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from engine.variant_file import load_variant, unfinished_reason
from judge.maps.board import PIXELS_WIDE
from judge.maps.render import board_for
from tests.e2e.conftest import Harness, Received
from tests.e2e.test_diplomap_by_mail import check_replies, player
from tests.e2e.test_game_by_mail import check_map, one_reply

pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data"
GM = "gm@players.test"
SVG = "{http://www.w3.org/2000/svg}"


class Game:
    """One game of the data file: its name, variant and powers."""

    def __init__(self, script: dict[str, Any]) -> None:
        self.name: str = script["game"]
        self.variant: str = script["variant"]
        self.powers = sorted(load_variant(self.variant).powers)
        board = board_for(load_variant(self.variant))
        self.width = board.pixels or PIXELS_WIDE  # big boards are drawn wider

    def signon(self, power: str, lines: list[str]) -> str:
        return "\n".join([f"SIGNON {power.lower()}@{self.name} pw-{power.lower()}", *lines,
                          "SIGNOFF"])

    def results(self, mails: list[Received], phase: str) -> tuple[str, Received]:
        """The results of ``phase``: the same to every player and the GM,
        each with the map of the position they lead to."""
        got = {m.to: m for m in mails if m.subject == f"Diplomacy results {self.name} {phase}"}
        assert set(got) == {player(p) for p in self.powers} | {GM}, \
            sorted(m.subject for m in mails)
        bodies = {m.body for m in got.values()}
        assert len(bodies) == 1, "everyone gets the same results"
        for mail in got.values():
            check_map(mail, phase, game=self.name, width=self.width)
        return bodies.pop(), got[GM]


def map_svg(mail: Received) -> ET.Element:
    part = next(p for p in mail.message.iter_attachments()
                if p.get_content_type() == "image/svg+xml")
    return ET.fromstring(part.get_content())


def units_drawn(svg: ET.Element) -> set[str]:
    """The units the map shows, as "POWER KIND LOCATION"."""
    layer = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "units")
    return {f"{g.get('data-power')} {str(g.get('class')).split()[-1]} {g.get('data-location')}"
            for g in layer if g.tag == f"{SVG}g"}


@pytest.mark.parametrize("data", ["modern_game.toml", "youngstown_game.toml"])
def test_an_imported_map_by_mail(harness: Harness, data: str) -> None:
    h = harness
    script = tomllib.loads((DATA / data).read_text())
    game = Game(script)

    h.send(GM, f"CREATE {game.name} gm-secret\nvariant {game.variant}\n"
               f"players {len(game.powers)}\nmovement 2d\nEND\n")
    assert f"Game {game.name} is created" in one_reply(h.settle(), GM)
    for power in game.powers:
        h.send(player(power), f"JOIN {power.lower()}@{game.name} pw-{power.lower()}")
    mails = h.settle()
    for power in game.powers[:-1]:
        assert f"You have joined {game.name} as {power}" in one_reply(mails, player(power))
    started = one_reply(mails, player(game.powers[-1]))
    assert f"The game is full and has started: {script['start']}" in started

    for step in script["phase"]:
        phase = step["phase"]
        orders: dict[str, list[str]] = step["orders"]
        for power, lines in orders.items():
            h.send(player(power), game.signon(power, lines))
        mails = h.settle()  # early processing once every unit has an order
        check_replies(mails, orders, step.get("refused", {}))
        body, mail = game.results(mails, phase)
        for text in step["expect"]:
            assert text in body, f"{text!r} not in the {phase} results:\n{body}"
        assert all(len(line) <= 80 for line in body.splitlines()), body
        svg = map_svg(mail)
        title = svg.findtext(f"{SVG}title") or ""
        assert title.startswith(f"{game.name}: ") and f"({svg.get('data-phase')})" in title
        shown = units_drawn(svg)
        for unit in step.get("drawn", []):
            assert unit in shown, f"{unit!r} not on the map after {phase}: {sorted(shown)}"


def test_list_offers_the_imported_maps_and_create_refuses_one_it_cannot_play(
        harness: Harness) -> None:
    h = harness
    h.send("someone@else.test", "LIST")
    listed = one_reply(h.settle(), "someone@else.test")
    found = re.search(r"^Variants offered: (.*?) \(CREATE's", listed, re.MULTILINE | re.DOTALL)
    assert found, listed
    offered = {re.sub(r" \(.*\)$", "", name) for name in found.group(1).split(", ")}
    assert {"standard", "modern", "youngstown"} <= offered, offered

    why = unfinished_reason("zeus")
    assert why is not None  # Zeus's phase-by-phase changes are not played yet
    h.send(GM, "CREATE zeus1 gm-secret\nvariant zeus\nEND\n")
    reply = one_reply(h.settle(), GM)
    assert "variant 'zeus' is not offered yet" in reply and why in reply, reply
    assert "zeus" not in offered and "Game zeus1 is created" not in reply
