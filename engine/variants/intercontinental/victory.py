"""§2, victory: a player is a colour group of four powers (a seat); its
centres are the sum of its powers' (§1.6). It wins with 72 or more at the end
of Autumn's retreats and strictly more than any other player (§2.0).
Affiliates' centres count for nobody (§2.1): an affiliate is a power of its
own, in no seat.

§2.2, the optional year cap: the ``[year_cap]`` table's ``last_year`` (the
text's recommendation, fifteen years, is 1880); without the table there is no
cap. At the end of that year's Autumn, with no solo, the game ends in a draw
of every surviving player: one whose powers own a supply centre.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.map import GameMap
from engine.state import GameState

TABLE = "year_cap"


def check_cap(game_map: GameMap) -> list[tuple[tuple[str, ...], str]]:
    raw: Any = game_map.tables.get(TABLE)
    if raw is None:
        return []
    last = raw.get("last_year") if isinstance(raw, dict) else None
    if not isinstance(last, int) or isinstance(last, bool):
        return [((TABLE, "last_year"), "last_year is the last year played, e.g. 1880")]
    return []


def last_year(game_map: GameMap) -> int | None:
    raw: Any = game_map.tables.get(TABLE)
    return None if raw is None else int(raw["last_year"])


def tallies(state: GameState, scores: Mapping[str, int]) -> dict[str, int]:
    """Each player's centres: the sum over the powers of its seat."""
    return {seat.player: sum(scores.get(p, 0) for p in seat.powers) for seat in state.seats}


def victor(state: GameState, scores: Mapping[str, int]) -> str | None:
    ranked = sorted(((n, player) for player, n in tallies(state, scores).items()),
                    reverse=True)
    if not ranked or ranked[0][0] < state.victory:
        return None
    if len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
        return None  # §2.0.1: tied for the most, nobody wins; play on
    return ranked[0][1]


def capped(game_map: GameMap, state: GameState, scores: Mapping[str, int]) -> GameState:
    """The state, ended in a draw when this is the cap's year and nobody won."""
    last = last_year(game_map)
    if last is None or state.phase.year < last or state.drawn:
        return state
    if victor(state, scores) is not None:
        return state
    surviving = tuple(sorted(p for p, n in tallies(state, scores).items() if n > 0))
    return state.evolve(drawn=surviving, notes=(
        *state.notes, f"year cap ({last}, §2.2): the game ends in a draw of "
        + ", ".join(surviving)))
