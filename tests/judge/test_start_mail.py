"""Pieces of the start mail (judge/start_mail.py) that its scenarios by mail
(tests/judge/data/*/start_mail.toml) cannot reach: a kind of line with no
explanation of its own in judge/kinds is still named, with the phases it
is read in, and a seat without units is shown no example order."""

from __future__ import annotations

from typing import Any

import pytest

from engine.map import GameMap
from engine.rules import Rules
from engine.variant_file import load_variant
from engine.ways_to_play import setup
from judge import kinds
from judge.start_mail import sample_order
from tests.judge.test_line_intake import NOTES

MAP = load_variant("standard")


def test_a_kind_without_its_own_form_is_named_with_its_phases(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class WithNotes(Rules):
        line_kinds = (*Rules.line_kinds, NOTES)

    rules = WithNotes()

    def rules_for(game_map: GameMap) -> Any:
        return rules
    monkeypatch.setattr(kinds, "rules_for", rules_for)
    (form,) = kinds.forms(MAP, setup(MAP, 7), ("FRANCE",))
    assert (form.name, form.text, form.example) == ("Notes", "read in the movement phases", "")


def test_the_standard_game_reads_orders_only() -> None:
    assert kinds.forms(MAP, setup(MAP, 7), ("FRANCE",)) == []


def test_the_example_order_is_the_seats_own_or_none() -> None:
    state = setup(MAP, 7)
    assert sample_order(state, ("AUSTRIA", "FRANCE")) == "A BUD H"
    assert sample_order(state.evolve(units=tuple(
        u for u in state.units if u.power != "AUSTRIA")), ("AUSTRIA", "FRANCE")) == "A MAR H"
    assert sample_order(state.evolve(units=()), ("FRANCE",)) == ""
