"""A ten-player Dissolution game by mail, through the judge's real SMTP
listener and sender: CREATE, ten JOINs, a Spring with bids and a disabled
nuclear unit, an Autumn with kicks and a nuclear retaliation, a Winter with
builds, Embassy moves and an Embassy's retreat. Every results mail reaches
every player with both maps, and no bid is ever seen by anyone but its
bidder before the game ends (checked on every mail the judge sends)."""

from __future__ import annotations

import re

import pytest

from tests.e2e import bid_secrecy
from tests.e2e.conftest import Harness, Received

pytestmark = pytest.mark.slow

PLAYED = ["EGYPT", "ETHIOPIA", "IRAN", "KAZAKHSTAN", "PAKISTAN", "POLAND", "ROMANIA",
          "SAUDI_ARABIA", "UKRAINE", "YUGOSLAVIA"]
GM = "gm@players.test"
BID = re.compile(r"^\s*\d+: [AFW] ", re.MULTILINE)  # a bid as the judge writes or reads it


def player(power: str) -> str:
    return f"{power.lower()}@players.test"


def signon(power: str, lines: list[str]) -> str:
    return "\n".join([f"SIGNON {power.lower()}@dissol pw-{power.lower()}", *lines, "SIGNOFF"])


def no_bid_leaks(mails: list[Received], bidders: dict[str, list[str]]) -> None:
    """A bid's text appears only in its own bidder's reply, and in the GM's
    copy of the results."""
    bid_secrecy.no_bid_leaks(mails, bidders, player, BID, GM)


def results(h: Harness, phase: str, bidders: dict[str, list[str]]) -> str:
    h.send(GM, "SIGNON master@dissol gm-secret\nPROCESS\nSIGNOFF")
    mails = h.settle()
    no_bid_leaks(mails, bidders)
    got = {m.to: m for m in mails if m.subject == f"Diplomacy results dissol {phase}"}
    assert set(got) == {player(p) for p in PLAYED} | {GM}, sorted(got)
    for mail in got.values():  # both maps, as PNG and SVG
        names = sorted(part.get_filename() or "" for part in mail.message.iter_attachments())
        assert len(names) == 4 and sum(n.endswith("-favor-map.png") for n in names) == 1, names
        assert sum(n.endswith(".png") for n in names) == 2, names
    return got[GM].body


def test_a_dissolution_year_by_mail(harness: Harness) -> None:
    h = harness
    h.send(GM, "CREATE dissol gm-secret\nvariant dissolution\nmovement 2d\nEND\n")
    assert "Game dissol is created" in h.settle()[0].body
    for power in PLAYED:
        h.send(player(power), f"JOIN {power.lower()}@dissol pw-{power.lower()}")
    mails = h.settle()
    assert any("has started: S1992M" in m.body for m in mails)

    # Spring: Ukraine disables Moscow with Belarus's support, bought by Poland
    spring_bids = {"POLAND": ["1: A Blr S Khk - Mos"]}
    h.send(player("POLAND"), signon("POLAND", ["A War H", "A Gda H", "DP",
                                               *spring_bids["POLAND"]]))
    h.send(player("UKRAINE"), signon("UKRAINE", ["A Khk - Mos", "A Kyv H", "F Sev H"]))
    h.send(player("KAZAKHSTAN"), signon("KAZAKHSTAN", ["A Akt - Ast", "A Alm H"]))
    h.send(player("ETHIOPIA"), signon("ETHIOPIA", ["A AdA - Eri", "A DiD S AdA - Eri"]))
    mails = h.settle()
    no_bid_leaks(mails, spring_bids)
    poland = next(m.body for m in mails if m.to == player("POLAND"))
    assert "Bids on file (secret until the game ends), 2 DP to bid: 1 DP counted, 1 left" in poland
    body = results(h, "S1992M", spring_bids)
    assert "A BLR S A KHK - MOS" in body  # the order Belarus was given
    # who bid it, in the GM's copy alone (no_bid_leaks: in no other mail)
    assert bid_secrecy.GM_BIDS in body
    assert "POLAND    1: A BLR S KHK - MOS           counted" in body
    assert "UKRAINE against RUSSIA: A KHK disabled the unit in MOS" in body
    assert "UKRAINE's Embassy with RUSSIA kicked R2m - R1q" in body

    # Autumn: Kazakhstan attacks Krasnodar from Astrakhan and disables it with
    # Ukraine's help: two kicks to the Perimeter, and Russia's retaliation
    h.send(player("KAZAKHSTAN"), signon("KAZAKHSTAN", ["A Ast - Kra", "A Alm H"]))
    h.send(player("UKRAINE"), signon("UKRAINE", ["F Sev S Ast - Kra"]))
    h.settle()
    body = results(h, "F1992M", spring_bids)
    assert "KAZAKHSTAN's Embassy with RUSSIA kicked R2j - R1t" in body
    assert "KAZAKHSTAN's Embassy with RUSSIA kicked R1t - R0z" in body
    assert "destroyed by nuclear retaliation" in body
    assert "ETHIOPIA" in body and "builds 1" in body  # Eritrea taken: 5 points, 3 units

    # Winter: builds, Embassy moves, and Ethiopia's Indian Embassy dislodged
    h.send(player("ETHIOPIA"), signon("ETHIOPIA", ["BUILD A AdA", "E B2n H"]))
    h.send(player("KAZAKHSTAN"), signon("KAZAKHSTAN", ["BUILD A Akt", "E R0z - R1q"]))
    h.send(player("EGYPT"), signon("EGYPT", ["E B1q - B2n"]))
    h.send(player("IRAN"), signon("IRAN", ["E B3g S B1q - B2n"]))
    mails = h.settle()
    kazakh = next(m.body for m in mails if m.to == player("KAZAKHSTAN"))
    assert "this Embassy must hold: kicked by RUSSIA this year" in kazakh
    body = results(h, "W1992A", spring_bids)
    assert "BUILD A ADA" in body and "BUILD A AKT" in body
    assert "E B1q - B2n" in body and "E B2n R B2o" in body  # the automatic retreat

    # the game ends: now everyone learns the bids
    h.send(GM, "SIGNON master@dissol gm-secret\nTERMINATE\nSIGNOFF")
    over = [m for m in h.settle() if m.subject == "Diplomacy game dissol is over"]
    assert {m.to for m in over} >= {player(p) for p in PLAYED}
    assert all("1: A BLR S KHK - MOS" in m.body for m in over)
