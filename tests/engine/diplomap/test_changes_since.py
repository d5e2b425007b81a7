"""What a rollback undoes on the board (Rules.board_changes_since): the
changes a later position has that an earlier one had not, in words, each
named as the board the changes before it left names it; none in the
standard game, whose board never changes."""

from __future__ import annotations

from engine.diplomap.state import DiplomapState
from engine.diplomap.state import of as diplomap
from engine.diplomap.values import Rename
from engine.rules import Rules
from engine.variant_file import load_variant
from engine.variants import rules_for
from tests.engine.diplomap.runner import run

SPLIT_AND_MERGE = {"map_orders": [
    {"power": "FRANCE", "draw": [["PAR", "PIC"], ["PAR", "GAS"]], "centre": "SE"},
    {"power": "RUSSIA", "erase": ["MOS", "LVN"]}]}
SPLIT = "Paris (PAR) is now Southeast Paris (PAR-SE) and Northwest Paris (PAR-NW); " \
    "the supply centre is in PAR-SE."
MERGE = "Moscow (MOS) and Livonia (LVN) are now one province, Moscow and Livonia (MOS+LVN)."


def test_going_back_before_a_phase_undoes_its_changes() -> None:
    game_map, resolution, _ = run(SPLIT_AND_MERGE)
    rules = rules_for(game_map)
    before, after = resolution.state, resolution.next
    assert rules.board_changes_since(game_map, before, after) == (SPLIT, MERGE)
    assert rules.board_changes_since(game_map, after, after) == ()


def test_a_later_rename_alone_is_undone_said_on_the_board_it_was_made_on() -> None:
    game_map, resolution, _ = run(SPLIT_AND_MERGE)
    rules = rules_for(game_map)
    after = resolution.next
    part = diplomap(after)
    renamed = after.with_part(DiplomapState(
        (*part.map_changes, Rename("PAR-NW", "LUT", "Lutetia")), part.map_orders_used))
    assert rules.board_changes_since(game_map, after, renamed) == (
        "Northwest Paris (PAR-NW) is now called Lutetia (LUT).",)
    # from before the split: the split, the merge and the name, in order
    assert rules.board_changes_since(game_map, resolution.state, renamed)[-1] == \
        "Northwest Paris (PAR-NW) is now called Lutetia (LUT)."


def test_the_standard_board_never_changes() -> None:
    game_map = load_variant("standard")
    _, resolution, _ = run(SPLIT_AND_MERGE)  # a position with changes, read without Diplomap
    before, after = resolution.state, resolution.next
    assert Rules().board_changes_since(game_map, before, after) == ()
    assert rules_for(game_map).board_changes_since(game_map, before, after) == ()
