"""§9, builds: each major power builds for itself, in its own home centres
and in one additional home centre it names by building there (§9.1); minor
neutrals and affiliates rebuild their starting unit on their own (§9.2).

An additional home centre must be (§9.1):

1. owned by the power and vacant (the adjustments' usual site rules);
2. the power's first: it names at most one, ever, and never two in one Winter;
3. no major power's home centre, original or additional, now or before:
   eliminated powers' and the power's own group's included. Only centres
   that began as a minor's or an affiliate's are ever eligible.

Once named it is an ordinary home centre of the power's (later builds there
name nothing). The names are kept in Intercontinental's part of the position (state.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.map import GameMap
from engine.state import GameState
from engine.units import Unit
from engine.variants.intercontinental.state import IntercontinentalState, of


def majors(game_map: GameMap) -> list[str]:
    """The powers players play (not steered by bids)."""
    return [name for name, power in game_map.powers.items() if not power.ordered_by_bids]


def additional_home(state: GameState, power: str) -> str | None:
    for who, centre in of(state).additional_homes:
        if who == power:
            return centre
    return None


def taken_homes(game_map: GameMap, state: GameState) -> frozenset[str]:
    """Every centre that is or was a major power's home (rule 3)."""
    original = {c for p in majors(game_map) for c in game_map.powers[p].home}
    return frozenset(original | {c for _, c in of(state).additional_homes})


def candidates(game_map: GameMap, state: GameState, power: str) -> frozenset[str]:
    """Centres the power could name as its additional home this Winter,
    were they vacant (rules 1-3); none once it has named one."""
    if additional_home(state, power) is not None:
        return frozenset()
    taken = taken_homes(game_map, state)
    return frozenset(c for c in state.centres_of(power) if c not in taken)


def build_sites(game_map: GameMap, state: GameState, power: str) -> set[str]:
    home = set(game_map.powers[power].home)
    named = additional_home(state, power)
    if named is not None:
        return home | {named}
    return home | candidates(game_map, state, power)


def naming_refusal(game_map: GameMap, state: GameState, power: str, unit: Unit,
                   board: Sequence[Unit]) -> str:
    """Rule 2 within one Winter: a second build outside the power's homes."""
    home = set(game_map.powers[power].home)
    if unit.province in home or additional_home(state, power) is not None:
        return ""
    before = set(state.units)
    for built in board:
        if built.power == power and built not in before and built.province not in home:
            return (f"{power} names {built.province} as its additional home centre "
                    f"this Winter; it may name only one (§9.1)")
    return ""


def named(game_map: GameMap, state: GameState, built: Sequence[Unit]) -> GameState:
    """The state with the additional home centres this Winter's builds name."""
    new = [(u.power, u.province) for u in built
           if not game_map.powers[u.power].ordered_by_bids
           and u.province not in game_map.powers[u.power].home
           and additional_home(state, u.power) is None]
    if not new:
        return state
    return state.with_part(IntercontinentalState(
        tuple(sorted((*of(state).additional_homes, *new)))))


def neutral_builds(game_map: GameMap, state: GameState) -> tuple[Unit, ...]:
    """§9.2: a minor or affiliate that owns its centre while it stands empty
    rebuilds its starting unit there, a fleet on its starting coast."""
    owner = state.owner_of
    occupied = {u.province for u in state.units}
    out = []
    for power in game_map.powers.values():
        if not power.ordered_by_bids:
            continue
        for kind, location in power.units:
            unit = Unit(power.name, kind, location)
            if unit.province not in occupied and owner.get(unit.province) == power.name:
                out.append(unit)
    return tuple(out)
