"""The kinds of line the rules read (engine/lines.py): declared per
variant, handed to adjudicate by kind name, looked at only in their phases."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.bids import BIDS_KEY, Bid
from engine.diplomap.in_force import with_diplomap
from engine.game import adjudicate
from engine.lines import BIDS
from engine.orders import Hold, UnitRef
from engine.phase import Phase
from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import rules_for

DATA = tomllib.loads((Path(__file__).parent / "data" / "line_kinds.toml").read_text())


@pytest.mark.parametrize("case", DATA["variant"],
                         ids=lambda c: c["name"] + (" with diplomap" if c.get("diplomap") else ""))
def test_each_variant_declares_the_kinds_it_reads(case: dict[str, Any]) -> None:
    game_map = load_variant(case["name"])
    if case.get("diplomap"):
        game_map = with_diplomap(game_map)
    assert [k.name for k in rules_for(game_map).line_kinds] == case["kinds"]


def _dissolution(phase: str) -> tuple[Any, GameState]:
    game_map = load_variant("dissolution")
    state = rules_for(game_map).opening(game_map, GameState.initial(game_map))
    return game_map, state.evolve(phase=Phase.parse(phase))


def test_bids_by_kind_name_are_the_bids_given_by_keyword() -> None:
    game_map, state = _dissolution("S1901M")
    neutral = next(u for u in state.units if u.power in game_map.bid_powers)
    bidder = next(p for p in game_map.powers if p not in game_map.bid_powers)
    bids = {bidder: [Bid(1, Hold(UnitRef(neutral.location, neutral.kind)))]}
    by_name = adjudicate(game_map, state, {}, lines={BIDS.name: bids})
    assert by_name == adjudicate(game_map, state, {}, bids)
    assert [b.bid for b in by_name.facts(BIDS_KEY)] == bids[bidder]  # the bid was looked at


def test_a_line_of_the_wrong_type_is_refused_in_its_phase_only() -> None:
    game_map, state = _dissolution("S1901M")
    written = {BIDS.name: {"POLAND": ["1: A Blr H"]}}  # text, not read into a Bid
    with pytest.raises(TypeError, match="bids of POLAND: '1: A Blr H' is not Bid"):
        adjudicate(game_map, state, {}, lines=written)
    # bids are read in the moves only: a retreat phase never looks at them
    retreat = state.evolve(phase=Phase.parse("S1901R"))
    assert adjudicate(game_map, retreat, {}, lines=written).facts(BIDS_KEY) == ()


def test_lines_of_a_kind_the_rules_do_not_read_are_not_looked_at() -> None:
    game_map = load_variant("standard")
    state = GameState.initial(game_map)
    assert adjudicate(game_map, state, {}, lines={BIDS.name: {"FRANCE": [object()]}}).facts(
        BIDS_KEY) == ()
