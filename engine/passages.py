"""Reading the variant file's restricted and seasonal passages (docs/variants.md):
``[[crossings]]``, adjacencies a move crosses at a cost (DPJudge's weak
straits ``~`` and its Cape of Good Hope ``*``), and ``[seasonal.X]``, the
terrain of some provinces in the phases of season X (DPJudge's ``IN SPRING:
WATER ARC``). Each problem goes to the reader's ``problem(path, key,
message)``, as engine/variant_file.py's own checks do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.flow import Flow
from engine.map import Crossing, Terrain, province_of

Problem = Callable[[tuple[str, ...], str | None, str], None]


def read_seasons(problem: Problem, raw: Any, flow: Flow) -> dict[str, dict[str, Terrain]]:
    """Season letter -> province -> its terrain in that season's phases."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        problem(("seasonal",), None, 'seasonal is tables by season: [seasonal.S] ARC = "water"')
        return {}
    letters = {s.letter for s in flow.seasons}
    seasons: dict[str, dict[str, Terrain]] = {}
    for letter, table in raw.items():
        path = ("seasonal", letter)
        if letter not in letters:
            problem(path, None, f"{letter} is no season of the variant's year "
                    f"({', '.join(sorted(letters))})")
            continue
        if not isinstance(table, dict):
            problem(path, None, 'a season\'s table gives provinces their kind: ARC = "water"')
            continue
        seasons[letter] = {}
        for code, kind in table.items():
            try:
                seasons[letter][code] = Terrain(kind)
            except ValueError:
                problem(path, code, "kind must be land, coastal, water or impassable")
    return seasons


def open_kinds(problem: Problem, provinces: Any,
               seasons: Mapping[str, Mapping[str, Terrain]]) -> dict[str, Terrain]:
    """Each seasonal province's one passable kind: its movement lists are
    read (and checked) as a province of that kind."""
    raw = provinces if isinstance(provinces, dict) else {}
    kinds: dict[str, set[Terrain]] = {}
    for letter, table in seasons.items():
        for code, kind in table.items():
            entry = raw.get(code)
            if not isinstance(entry, dict):
                problem(("seasonal", letter), code, f"unknown province {code}")
                continue
            kinds.setdefault(code, set()).add(kind)
    opened: dict[str, Terrain] = {}
    for code, said in kinds.items():
        entry = raw[code]
        try:
            said.add(Terrain(entry.get("kind", "")))
        except ValueError:
            continue  # the province's own problem
        passable = said - {Terrain.IMPASSABLE}
        if entry.get("coasts"):
            problem(("provinces", code), "coasts",
                    "a province with coasts keeps its terrain in every season")
        elif len(passable) != 1:
            problem(("provinces", code), "kind", f"{code} changes with the season: it is "
                    "impassable in some seasons and of one other kind in the others")
        else:
            opened[code] = passable.pop()
    return opened


def read_crossings(problem: Problem, raw: Any, army: Mapping[str, set[str]],
                   fleet: Mapping[str, set[str]]) -> dict[tuple[str, str], Crossing]:
    """(from province, to province) -> how a move across fights: each
    ``[[crossings]]`` names an adjacency of the board, both ways unless
    ``one_way``."""
    if raw is None:
        return {}
    path = ("crossings",)
    if not isinstance(raw, list) or not all(isinstance(c, dict) for c in raw):
        problem(path, None, 'crossings is a list of tables: [[crossings]] between = ["NAF", '
                '"COR"], rule = "weak"')
        return {}
    crossings: dict[tuple[str, str], Crossing] = {}
    for number, entry in enumerate(raw, start=1):
        between = entry.get("between")
        one_way = entry.get("one_way", False)
        if not (isinstance(between, list) and len(between) == 2
                and all(isinstance(p, str) for p in between)) or not isinstance(one_way, bool):
            problem(path, None, f"crossing {number}: between = two provinces, one_way = true "
                    "or false")
            continue
        try:
            rule = Crossing(entry.get("rule", ""))
        except ValueError:
            problem(path, None, f"crossing {number}: rule is "
                    f"{' or '.join(repr(c.value) for c in Crossing)}")
            continue
        a, b = (p.upper() for p in between)
        for src, dst in [(a, b)] if one_way else [(a, b), (b, a)]:
            if not _adjacent(src, dst, army, fleet):
                problem(path, None, f"crossing {number}: no move from {src} to {dst}")
            elif (src, dst) in crossings:
                problem(path, None, f"crossing {number}: {src} to {dst} is listed twice")
            else:
                crossings[src, dst] = rule
    return crossings


def _adjacent(src: str, dst: str, army: Mapping[str, set[str]],
              fleet: Mapping[str, set[str]]) -> bool:
    return dst in army.get(src, set()) or any(
        province_of(loc) == src and any(province_of(d) == dst for d in dsts)
        for loc, dsts in fleet.items())
