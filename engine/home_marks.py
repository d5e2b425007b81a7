"""DPJudge's marks on a power's home centres (its map syntax page, Map.html),
as the standard rules' hooks ask them (engine/rules.py): partisan sites
(``*SIB``) and alternative home centres (``@CAL``). A power without them
(``[powers.X] partisan``, ``alternative_homes``) builds as in the standard
game. docs/rules.md ("Partisan sites and alternative home centres") gives
the choices where the text leaves room.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.map import GameMap, Province, Terrain
from engine.new_homes import homes_of
from engine.state import GameState
from engine.units import Unit

# (table path, key or None, message): how the variant file's loader collects a problem
Problem = Callable[[tuple[str, ...], str | None, str], None]


def read_home_marks(problem: Problem, path: tuple[str, ...], entry: Mapping[str, Any],
                    provinces: Mapping[str, Province], home: Sequence[str]) -> dict[str, Any]:
    """A [powers.X] table's ``partisan`` sites (places of no supply centre
    where units stand) and ``alternative_homes`` (each a home, with the
    other homes it stands for), as Power's fields; ``problem`` is told of
    anything wrong."""
    partisan = entry.get("partisan", [])
    if not isinstance(partisan, list) or not all(isinstance(c, str) for c in partisan):
        problem(path, "partisan", 'partisan is a list of codes: ["SIB"]')
        partisan = []
    for code in partisan:
        prov = provinces.get(code)
        if prov is None:
            problem(path, "partisan", f"unknown province {code}")
        elif prov.centre is not None:
            problem(path, "partisan", f"{code} is a supply centre: a partisan site is a "
                    "place of no centre")
        elif prov.terrain not in (Terrain.LAND, Terrain.COASTAL):
            problem(path, "partisan", f"no unit is built in {code}")
    raw = entry.get("alternative_homes", {})
    if not isinstance(raw, dict):
        problem(path, "alternative_homes", 'alternative_homes is a table: CAL = ["NYO"], '
                "each home with the homes it stands for")
        raw = {}
    alternatives: list[tuple[str, tuple[str, ...]]] = []
    for code, stands_for in raw.items():
        if code not in home:
            problem(path, "alternative_homes", f"{code} is not one of its homes")
        elif not isinstance(stands_for, list) or not stands_for or not all(
                isinstance(h, str) and h in home and h not in raw for h in stands_for):
            problem(path, "alternative_homes", f"{code} stands for some of its other "
                    "homes, none of them an alternative")
        else:
            alternatives.append((code, tuple(stands_for)))
    return {"partisan": tuple(dict.fromkeys(partisan)),
            "alternative_homes": tuple(alternatives)}


# -- partisan sites: builds where the power has lost some of its homes ---------------


def partisans_rise(game_map: GameMap, state: GameState, power: str) -> bool:
    """Are the power's partisan sites in use? Map.html: "if and only if the
    power owns at least one, but not all of his original home supply
    centers"; DPJudge's NO_PARTISANS rule ignores them."""
    info = game_map.powers[power]
    if not info.partisan or "NO_PARTISANS" in game_map.flags:
        return False
    home = set(homes_of(game_map, state, power))
    owned = home & set(state.centres_of(power))
    return 0 < len(owned) < len(home)


def partisan_sites(game_map: GameMap, state: GameState, power: str) -> set[str]:
    """The partisan sites the power may build in now (no supply centres:
    they need no owner, only to be empty)."""
    if not partisans_rise(game_map, state, power):
        return set()
    return set(game_map.powers[power].partisan)


def partisan_units(game_map: GameMap, state: GameState, power: str) -> int:
    """The units the power may keep beyond one per centre: one per partisan
    site while its partisans rise (DPJudge counts a centre of no place per
    partisan site then; docs/rules.md)."""
    return len(partisan_sites(game_map, state, power))


# -- alternative home centres: more build sites, not more builds ----------------------


def alternative_refusal(game_map: GameMap, state: GameState, power: str, unit: Unit,
                        board: Sequence[Unit]) -> str:
    """Why building ``unit`` in a home centre is refused by the power's
    alternative home centres, or ''. Map.html: an alternative home centre
    is "a supply center where you may build if you forego building in a
    normal owned and open home center": each build in an alternative takes
    the place of a build in one of the homes it stands for (all the normal
    homes, or those the map names), owned and empty when the winter began
    and not built in. The builds so far this winter come first; a later one
    that leaves no home to forgo is refused."""
    home = homes_of(game_map, state, power)
    # an alternative stands for homes while it is one (NEWHOMES may change them)
    alternatives: Mapping[str, tuple[str, ...]] = {
        code: tuple(h for h in stands_for if h in home)
        for code, stands_for in game_map.powers[power].alternative_homes if code in home}
    if not alternatives:
        return ""
    normal = [h for h in home if h not in alternatives]
    sites = set(alternatives) | set(normal)
    if unit.province not in sites:
        return ""
    before = set(state.units)
    built = [u.province for u in board if u.power == power and u not in before
             and u.province in sites] + [unit.province]
    occupied = {u.province for u in state.units}
    owned = set(state.centres_of(power))
    open_homes = {h for h in normal if h in owned and h not in occupied and h not in built}
    wanted = [(site, [h for h in alternatives[site] if h in open_homes])
              for site in built if site in alternatives]
    if _each_forgoes_one(wanted):
        return ""
    if unit.province in alternatives:
        stands_for = ", ".join(alternatives[unit.province])
        return (f"{unit.province} is an alternative home centre of {power}: a build there "
                f"takes the place of one in {stands_for}, and none of them is left owned, "
                "empty and not built in this winter")
    return (f"{power}'s builds in its alternative home centres this winter have taken "
            f"the place of its build in {unit.province}")


def _each_forgoes_one(wanted: list[tuple[str, list[str]]]) -> bool:
    """Can each alternative build forgo a home of its own list, no home
    twice? (A matching, found by augmenting paths.)"""
    taken: dict[str, int] = {}  # home -> the index of the build forgoing it

    def place(index: int, seen: set[str]) -> bool:
        for home in wanted[index][1]:
            if home in seen:
                continue
            seen.add(home)
            if home not in taken or place(taken[home], seen):
                taken[home] = index
                return True
        return False

    return all(place(index, set()) for index in range(len(wanted)))
