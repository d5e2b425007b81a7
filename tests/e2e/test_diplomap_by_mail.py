"""A seven-player standard game with Diplomap on, played by mail through
the judge's real SMTP listener, its database and its sender to a real
relay: CREATE with `diplomap on`, a Draw that splits Paris with its army
in it (a displacement retreat: France chooses the part), an Erase that
merges Moscow and Livonia, a Draw refused for the rest of the year,
builds in both changed provinces, the map attached to every results
mail, and a ROLLBACK to before the changes that gives the base board back.
Rule text: Diplomap ru12 by Michael Harvath (CC BY-SA 4.0)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Harness, Received
from tests.e2e.test_game_by_mail import check_map, one_reply

pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data" / "diplomap_game.toml"
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
GM = "gm@players.test"
WATCHER = "someone@else.test"


def player(power: str) -> str:
    return f"{power.lower()}@players.test"


def signon(power: str, lines: list[str]) -> str:
    return "\n".join([f"SIGNON {power.lower()}@dmap pw-{power.lower()}", *lines, "SIGNOFF"])


def results(mails: list[Received], phase: str) -> str:
    """The results of ``phase``: the same to every player and the GM, each
    with the map of the position they lead to."""
    got = {m.to: m for m in mails if m.subject == f"Diplomacy results dmap {phase}"}
    assert set(got) == {player(p) for p in POWERS} | {GM}, sorted(m.subject for m in mails)
    bodies = {m.body for m in got.values()}
    assert len(bodies) == 1, "everyone gets the same results"
    for mail in got.values():
        check_map(mail, phase, game="dmap")
    return bodies.pop()


def check_replies(mails: list[Received], orders: dict[str, list[str]],
                  refused: dict[str, list[str]]) -> None:
    """Each player's reply refuses exactly what the script says it must."""
    for power in orders:
        reply = one_reply(mails, player(power))
        errors = reply.count("ERROR line")
        assert errors == len(refused.get(power, [])), reply
        for why in refused.get(power, []):
            assert why in reply, reply


def test_a_diplomap_game_by_mail(harness: Harness) -> None:
    h = harness
    script: list[dict[str, Any]] = tomllib.loads(DATA.read_text())["phase"]

    h.send(GM, "CREATE dmap gm-secret\nvariant standard\nplayers 7\ndiplomap on\n"
               "movement 2d\nEND\n")
    assert "diplomap on" in one_reply(h.settle(), GM)
    for power in POWERS:
        h.send(player(power), f"JOIN {power.lower()}@dmap pw-{power.lower()}")
    assert "has started: S1901M" in one_reply(h.settle(), player("TURKEY"))

    for step in script:
        orders: dict[str, list[str]] = step["orders"]
        for power, lines in orders.items():
            h.send(player(power), signon(power, lines))
        mails = h.settle()  # early processing once every unit has an order
        check_replies(mails, orders, step.get("refused", {}))
        body = results(mails, step["phase"])
        for text in step["expect"]:
            assert text in body, f"{text!r} not in the {step['phase']} results:\n{body}"
        assert all(len(line) <= 80 for line in body.splitlines()), body

    # a new year: the Draw France used in 1901 may be given again (§II.C)
    h.send(player("FRANCE"), signon("FRANCE", ["Draw Bur/Pic - Bur/Mun"]))
    reply = one_reply(h.settle(), player("FRANCE"))
    assert "ok    line 2: Draw Bur/Pic - Bur/Mun" in reply, reply
    assert "FRANCE    DRAW BUR/PIC - BUR/MUN" in reply and "Used this year" not in reply

    # the board of a phase is the one stored with it: MAP of the retreat
    # phase shows the split Paris, with the army's choices
    h.send(WATCHER, "MAP dmap S1901R")
    reply = one_reply(h.settle(), WATCHER)
    assert "centres (3): BRE MAR PAR-SE" in reply
    assert "dislodged: FRANCE A PAR (retreats: PAR-SE, PAR-NW)" in reply

    # ROLLBACK across the changes: Spring 1901 again, on the base board
    h.send(GM, "SIGNON master@dmap gm-secret\nROLLBACK S1901M\nSIGNOFF")
    assert "Rolled back to S1901M" in one_reply(h.settle(), GM)
    h.send(WATCHER, "MAP dmap")
    reply = one_reply(h.settle(), WATCHER)
    assert "Position of dmap at the start of S1901M" in reply
    assert "centres (3): BRE MAR PAR" in reply and "PAR-SE" not in reply
    assert "units: A MOS, A WAR, F SEV, F STP/SC" in reply
    h.send(player("FRANCE"), signon("FRANCE", ["A Par - Pic", "A Par-NW H"]))
    reply = one_reply(h.settle(), player("FRANCE"))
    assert "ok    line 2: A Par - Pic" in reply and "ERROR line 3: A Par-NW H" in reply
