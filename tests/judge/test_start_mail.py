"""Pieces of the start mail (judge/start_mail.py) that its scenarios by mail
(tests/judge/data/*/start_mail.toml) cannot reach: a kind of line with no
explanation of its own in judge/kinds is still named, with the phases it
is read in; a seat without units is shown no example order; and every
seat's example lines of every variant read as what they show."""

from __future__ import annotations

import pytest

from engine.layers import with_layers
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.ways_to_play import setup
from judge import kinds
from judge.start_mail import sample_order
from parser import OrderError
from parser.line_kinds import READERS, sort_mail
from parser.map_orders import without_power
from tests.judge.test_line_intake import declaring_notes

MAP = load_variant("standard")


def test_a_kind_without_its_own_form_is_named_with_its_phases(
        monkeypatch: pytest.MonkeyPatch) -> None:
    declaring_notes(monkeypatch)
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


@pytest.mark.parametrize("variant, layers, players", [
    ("dissolution", (), 10), ("intercontinental", (), 8), ("standard", ("diplomap",), 7),
    ("standard", ("diplomap",), 2)])
def test_every_example_a_start_mail_gives_is_read_as_its_kind(
        variant: str, layers: tuple[str, ...], players: int) -> None:
    """Each seat's example lines, as a mail would carry them, are sorted
    into the kinds they show and read without an error on the opening board."""
    game_map = with_layers(load_variant(variant), layers)
    rules = rules_for(game_map)
    state = rules.opening(game_map, setup(game_map, players))
    for seat in state.seats:
        forms = [*kinds.forms(game_map, state, seat.powers),
                 *rules.holdings(game_map, state, seat.powers).orders]
        assert forms, seat
        for form in forms:
            lines = list(enumerate(form.example.splitlines(), start=1))
            for name, found in sort_mail(lines).items():
                for number, text in found:
                    if name == "map_orders":
                        text = without_power(text)[1]
                    read = READERS[name].read(text, game_map, number)
                    assert not isinstance(read, OrderError), (seat, form.name, text, read)
