"""An Intercontinental game by mail, through the judge's real SMTP listener
and sender: CREATE with the game's own Suez year, eight colour groups JOIN
by name, the game starts with the §3 draw from its seed (listed in the start
mails), and two years by mail: bids in a DP section, France (always Teal,
§3.1) takes Brussels with its fleet's support, the canal opens, and a
Winter's build in Brussels names it France's additional home centre
(§9.1). No bid is ever seen by anyone but its group's player."""

from __future__ import annotations

import re

import pytest

from tests.e2e import bid_secrecy
from tests.e2e.conftest import Harness, Received

pytestmark = pytest.mark.slow

GROUPS = ["Blue", "Teal", "Green", "Olive", "Yellow", "Red", "Maroon", "Violet"]
GM = "gm@players.test"
BID = re.compile(r"^\s*\d+: [AF] ", re.MULTILINE)  # a bid as the judge writes or reads it


def player(group: str) -> str:
    return f"{group.lower()}@players.test"


def signon(group: str, lines: list[str]) -> str:
    return "\n".join([f"SIGNON {group.lower()}@icx pw-{group.lower()}", *lines, "SIGNOFF"])


def no_bid_leaks(mails: list[Received], bidders: dict[str, list[str]]) -> None:
    """A bid's text appears only in its own bidder's reply, and in the GM's
    copy of the results."""
    bid_secrecy.no_bid_leaks(mails, bidders, player, BID, GM)


def results(h: Harness, phase: str, bidders: dict[str, list[str]]) -> str:
    h.send(GM, "SIGNON master@icx gm-secret\nPROCESS\nSIGNOFF")
    mails = h.settle()
    no_bid_leaks(mails, bidders)
    got = {m.to: m for m in mails if m.subject == f"Diplomacy results icx {phase}"}
    assert set(got) == {player(g) for g in GROUPS} | {GM}, sorted({m.subject for m in mails})
    return got[GM].body


def test_an_intercontinental_game_by_mail(harness: Harness) -> None:
    h = harness
    h.send(GM, "CREATE icx gm-secret\nvariant intercontinental\nsuez 1866\nmovement 2d\nEND\n")
    created = h.settle()[0].body
    assert "Game icx is created" in created and "suez 1866" in created
    for group in GROUPS:
        h.send(player(group), f"JOIN {group.lower()}@icx pw-{group.lower()}")
    mails = h.settle()
    starts = [m for m in mails if m.subject == "Diplomacy game icx starts"]
    assert {m.to for m in starts} >= {player(g) for g in GROUPS} | {GM}
    # the draw, the same in every mail; §3.1's fixed powers in their groups
    assert all("Teal: ALGERIA, FRANCE" in m.body for m in starts)
    assert all("Blue: CAPE_COLONY, GREAT_BRITAIN, CANADA, BRITISH_RAJ" in m.body for m in starts)

    # Spring 1865: France's fleet into the Channel; Blue buys Dublin's fleet a move
    bids = {"Blue": ["2: F Dubl - Azor"], "Teal": ["1: A Bern H"]}
    h.send(player("Teal"), signon("Teal", ["F Bres - Engl", "A Pari H", "A Algi H",
                                           "DP", *bids["Teal"]]))
    h.send(player("Blue"), signon("Blue", ["F Lond H", "DP", *bids["Blue"]]))
    mails = h.settle()
    no_bid_leaks(mails, bids)
    teal = next(m.body for m in mails if m.to == player("Teal"))
    assert re.search(r"FRANCE +F BRES - ENGL", teal) and re.search(r"ALGERIA +A ALGI H", teal)
    assert "9 DP to bid: 1 DP counted, 8 left" in teal
    body = results(h, "S1865M", bids)
    assert body.startswith(":: Judge: TESTJUDGE  Game: icx  Variant: intercontinental "
                           "(provisional board, not the official map)\n")
    assert "FRANCE (Teal)" in body and "F BRES - ENGL" in body
    assert "F DUBL - AZOR" in body  # the order Dublin was given
    # who bid it, in the GM's copy alone (no_bid_leaks: in no other mail)
    assert bid_secrecy.GM_BIDS in body and "2: F DUBL - AZOR" in body
    assert "Teal           9 DP" in body

    # Autumn: Paris takes Brussels with the fleet's support; a bid on the
    # unit Teal attacks is ignored (§11.2, Attacking & Allocating)
    autumn = {"Blue": bids["Blue"], "Teal": ["2: A Brus H"]}
    h.send(player("Teal"), signon("Teal", ["A Pari - Brus", "F Engl S A Pari - Brus",
                                           "DP", *autumn["Teal"]]))
    mails = h.settle()
    no_bid_leaks(mails, autumn)
    teal = next(m.body for m in mails if m.to == player("Teal"))
    assert "would be ignored now: attacking & allocating: Teal's" in teal
    assert "BRUSSELS's unit in BRUS (§11.2)" in teal
    body = results(h, "F1865M", autumn)
    assert "A PARI - BRUS" in body and "Supply centres by group" in body
    assert re.search(r"Teal +(\d+)", body)

    # Winter 1865 (nothing to order: France waives its build); the canal
    # opens from the Game Master's year, 1866 (§5.2)
    body = results(h, "W1865A", autumn)
    assert "The Suez canal opens from Spring 1866" in body

    h.send(player("Teal"), signon("Teal", ["A Brus - Pari"]))
    h.settle()
    results(h, "S1866M", autumn)
    results(h, "F1866M", autumn)

    # Winter 1866: France builds in Brussels and so names it (§9.1); France
    # is the only power with an adjustment, so the phase is processed at once
    h.send(player("Teal"), signon("Teal", ["BUILD A Brus"]))
    mails = h.settle()
    no_bid_leaks(mails, autumn)
    got = {m.to: m.body for m in mails if m.subject == "Diplomacy results icx W1866A"}
    assert set(got) == {player(g) for g in GROUPS} | {GM}, sorted(got)
    body = got[GM]
    assert "BUILD A BRUS" in body
    assert "FRANCE names BRUS as its additional home centre (§9.1)" in body
