"""Phases sort in the order they are played, not by their letters."""

from __future__ import annotations

from engine.phase import Phase

PLAYED = ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M", "F1902M", "W1902A"]


def test_phases_sort_in_playing_order() -> None:
    shuffled = sorted(PLAYED, key=lambda p: p[::-1])
    assert [str(p) for p in sorted(Phase.parse(p) for p in shuffled)] == PLAYED


def test_comparisons() -> None:
    assert Phase.parse("F1901M") < Phase.parse("W1901A") < Phase.parse("S1902M")
    assert Phase.parse("S1901M") < Phase.parse("F1901M")
    assert Phase.parse("F1901R") <= Phase.parse("F1901R")
    assert max(Phase.parse("W1992A"), Phase.parse("F1992R")) == Phase.parse("W1992A")
