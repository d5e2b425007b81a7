"""A DPJudge DUMMY power (``dummy = true``) is no player's: the judge never
waits for its orders, in any phase, though its units stay on the board and
it adjusts by civil disorder (tests/engine/cases/flags.toml)."""

from __future__ import annotations

from pathlib import Path

from engine.phase import Phase
from engine.state import Dislodged
from engine.units import Unit
from engine.variant_file import load_variant_file
from engine.ways_to_play import setup
from judge import games

BOARD = load_variant_file(Path(__file__).parents[1] / "engine" / "data" / "flags_variant.toml")


def test_the_judge_never_waits_for_a_dummy() -> None:
    state = setup(BOARD, 2)
    assert games.powers_to_order(BOARD, state) == ["BLUE", "RED"]
    # GREY, the dummy, dislodged: the retreat phase waits for nobody
    grey = Unit.parse("GREY", "A GA")
    retreat = state.evolve(phase=Phase.parse("S1901R"),
                           dislodged=(Dislodged(grey, "MID", False, ("N1",)),))
    assert games.powers_to_order(BOARD, retreat) == []
    # GREY short of a centre in winter: it removes by the civil disorder rule
    winter = state.evolve(phase=Phase.parse("W1901A"),
                          owners=tuple(p for p in state.owners if p[1] != "GREY"))
    assert games.powers_to_order(BOARD, winter) == []
