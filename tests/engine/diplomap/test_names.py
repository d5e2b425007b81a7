"""New provinces' names and codes (§II.H), the GM's renaming, the anchors
the drawing reads, and switching Diplomap on for a variant."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.diplomap.adjudication import adjudicate_map_orders
from engine.diplomap.board import compass_vector
from engine.diplomap.in_force import apply_changes, rename, with_diplomap
from engine.diplomap.state import of as diplomap
from engine.diplomap.values import Anchor, MapChange, Split
from engine.map import normalise_name
from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import rules_for
from tests.engine.diplomap.runner import diplomap_standard, map_order, run


def _two_lines_in_burgundy() -> tuple:
    case = {"map_orders": [
        {"power": "GERMANY", "draw": [["BUR", "PIC"], ["BUR", "GAS"]]},
        {"power": "FRANCE", "draw": [["BUR", "PIC"], ["BUR", "RUH"]]}]}
    game_map, resolution, _ = run(case)
    return game_map, diplomap(resolution.next).map_changes


def test_parts_are_named_from_the_original_province_and_their_side() -> None:
    game_map, changes = _two_lines_in_burgundy()
    board = apply_changes(game_map, changes)
    assert {"BUR-N", "BUR-E", "BUR-W"} <= set(board.provinces)
    assert board.provinces["BUR-N"].name == "North Burgundy"
    for spelling in ("bur-n", "North Burgundy", "BUR N"):
        assert board.aliases[normalise_name(spelling)] == "BUR-N"
    assert "burgundy" not in board.aliases and "bur" not in board.aliases
    for code in ("BUR-N", "BUR-E", "BUR-W"):
        assert code in board.drawing.labels


def test_lines_are_anchored_on_the_base_borders() -> None:
    """The first line on a border ends at its middle; a later line on a
    piece of it ends in the middle of that piece."""
    _, changes = _two_lines_in_burgundy()
    first, second = changes
    assert isinstance(first, Split) and isinstance(second, Split)
    assert first.start == Anchor("BUR", "PIC", 0.5) and first.end == Anchor("BUR", "RUH", 0.5)
    assert second.start == Anchor("BUR", "PIC", 0.25)
    assert second.end == Anchor("BUR", "GAS", 0.5)
    assert (first.line, second.line) == (1, 2) and second.base == "BUR"


def test_a_gm_renames_a_new_province() -> None:
    game_map, changes = _two_lines_in_burgundy()
    board = apply_changes(game_map, changes)
    change = rename(board, "BUR-N", "LOR", "Lorraine")
    renamed = apply_changes(game_map, (*changes, change))
    assert "LOR" in renamed.provinces and "BUR-N" not in renamed.provinces
    assert renamed.provinces["LOR"].name == "Lorraine"
    assert renamed.aliases["lorraine"] == "LOR"
    # the old names follow the province: players may write either
    assert renamed.aliases["bur n"] == "LOR" and renamed.aliases["north burgundy"] == "LOR"
    assert "LOR" in renamed.army_moves["BEL"] and "LOR" in renamed.rings["PIC"]
    with pytest.raises(ValueError, match="already names"):
        rename(renamed, "BUR-E", "PAR", "Paris East")
    with pytest.raises(ValueError, match="already names"):
        rename(renamed, "BUR-E", "BUR-X", "Lorraine")
    with pytest.raises(ValueError, match="no province"):
        rename(renamed, "BUR", "BRG", "Old Burgundy")


def test_diplomap_needs_rings() -> None:
    standard = load_variant("standard")
    switched = with_diplomap(standard)
    assert switched.tables["diplomap"] is True and with_diplomap(standard) is switched
    assert rules_for(switched).diplomap and not rules_for(standard).diplomap
    for name in ("dissolution", "intercontinental"):
        other = load_variant(name)
        if other.rings:
            assert rules_for(with_diplomap(other)).diplomap
            assert isinstance(rules_for(with_diplomap(other)), type(rules_for(other)))
        else:
            with pytest.raises(ValueError, match="no \\[rings\\]: Diplomap needs them"):
                with_diplomap(other)


def test_the_layer_goes_over_any_variants_rules() -> None:
    """rules_for composes Diplomap with the variant's own rules class."""
    dissolution = load_variant("dissolution")
    marked = replace(dissolution, tables={**dissolution.tables, "diplomap": True})
    composed = rules_for(marked)
    assert composed.diplomap and isinstance(composed, type(rules_for(dissolution)))
    assert rules_for(marked) is composed


PART_NAMES = tomllib.loads(
    (Path(__file__).parent / "data" / "part_names.toml").read_text("utf-8"))["case"]


@pytest.mark.parametrize("case", PART_NAMES, ids=lambda c: c["name"])
def test_parts_split_again_are_named_by_where_they_lie(case: dict[str, Any]) -> None:
    game_map = diplomap_standard()
    state = GameState.initial(game_map).evolve(units=())
    changes: tuple[MapChange, ...] = ()
    for orders in case["rounds"]:
        board = apply_changes(game_map, changes)
        outcome = adjudicate_map_orders(board, state, (), {
            f"P{n}": [map_order(raw)] for n, raw in enumerate(orders)})
        assert all(r.succeeded for r in outcome.results), outcome.results
        changes = (*changes, *outcome.changes)
    board = apply_changes(game_map, changes)
    codes = sorted(c for c in board.provinces if c.startswith(case["province"] + "-"))
    if case["codes"]:
        assert codes == case["codes"]
    assert len(codes) == 3 and not any(c[-1].isdigit() for c in codes), codes
    labels = board.drawing.labels

    def side(code: str) -> tuple[float, float]:
        return compass_vector(code.split("-", 1)[1]) or (0.0, 0.0)  # C: the middle

    for one in codes:
        for two in codes:
            dx, dy = (labels[one][k] - labels[two][k] for k in (0, 1))
            if dx > 2 * abs(dy) + 2:  # ``one`` lies clearly east of ``two``
                assert side(one)[0] > side(two)[0], (one, two)
            if dy > 2 * abs(dx) + 2:  # clearly south
                assert side(one)[1] > side(two)[1], (one, two)
