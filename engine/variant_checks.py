"""The checks of a variant file's board as a graph: adjacency at both ends
and of the right terrain, split coasts that reach the sea, every province
reachable. Moved out of variant_file.py, which reads the file; each check
reports through the reader's ``problem(path, key, message)`` so that every
problem keeps the line of the file it comes from (docs/variants.md, "What
the judge checks").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping

from engine.map import Province, Terrain, coast_of, province_of

Report = Callable[[tuple[str, ...], str | None, str], None]


def check_adjacency(problem: Report, provinces: Mapping[str, Province],
                    army: Mapping[str, set[str]], fleet: Mapping[str, set[str]]) -> None:
    """Every move names a known place of the right terrain, and is listed at
    both ends (the reverse is named in the message, so a GM knows which
    list to add it to)."""
    for code, dsts in army.items():
        path = ("provinces", code)
        for dst in sorted(dsts):
            target = provinces.get(dst)
            if target is None:
                problem(path, "army", f"unknown province {dst}")
            elif target.terrain is Terrain.WATER:
                problem(path, "army", f"army adjacency to water province {dst}")
            elif target.terrain is Terrain.IMPASSABLE:
                problem(path, "army", f"army adjacency to impassable {dst}")
            elif code not in army.get(dst, set()):
                problem(path, "army", f"{code} -> {dst} but not {dst} -> {code}")
            elif dst == code:
                problem(path, "army", "a province cannot border itself")
    for loc, dsts in fleet.items():
        fpath: tuple[str, ...] = ("provinces", province_of(loc))
        if "/" in loc:
            fpath = (*fpath, "coasts", loc.split("/")[1])
        for dst in sorted(dsts):
            target = provinces.get(province_of(dst))
            if target is None or (coast_of(dst) and coast_of(dst) not in target.coasts):
                problem(fpath, "fleet", f"unknown location {dst}")
            elif target.terrain in (Terrain.LAND, Terrain.IMPASSABLE):
                problem(fpath, "fleet", f"fleet adjacency to {target.terrain.value} {dst}")
            elif target.coasts and "/" not in dst:
                problem(fpath, "fleet", f"{dst} has coasts: name one (e.g. {dst}/"
                                        f"{target.coasts[0]})")
            elif loc not in fleet.get(dst, set()):
                problem(fpath, "fleet", f"{loc} -> {dst} but not {dst} -> {loc}")


def check_split_coasts(problem: Report, provinces: Mapping[str, Province],
                       fleet: Mapping[str, set[str]]) -> None:
    """Each coast of a split-coast province touches at least one sea: a
    coast is there for a sea (St. Petersburg's north coast for the Barents
    Sea), and one whose fleet list names no water province is a coast whose
    sea was left out when the location index was transcribed."""
    for code, province in sorted(provinces.items()):
        for coast in province.coasts:
            loc = f"{code}/{coast}"
            seas = [d for d in fleet.get(loc, set())
                    if (p := provinces.get(province_of(d))) is not None
                    and p.terrain is Terrain.WATER]
            if not seas:
                problem(("provinces", code, "coasts", coast), "fleet" if fleet.get(loc) else None,
                        f"{loc} touches no sea: its fleet list must name the water province(s) "
                        f"of that coast")


def check_reachable(problem: Report, provinces: Mapping[str, Province],
                    army: Mapping[str, set[str]], fleet: Mapping[str, set[str]]) -> None:
    """Every province but the impassable can be reached from the first."""
    graph: dict[str, set[str]] = {p: set() for p in provinces}
    for src, dsts in army.items():
        graph[src].update(dsts)
    for src, dsts in fleet.items():
        graph[province_of(src)].update(province_of(d) for d in dsts)
    playable = [p for p, v in provinces.items() if v.terrain is not Terrain.IMPASSABLE]
    if not playable:
        return
    seen = {playable[0]}
    queue = deque([playable[0]])
    while queue:
        for nxt in graph[queue.popleft()]:
            if nxt not in seen and nxt in graph:
                seen.add(nxt)
                queue.append(nxt)
    for code in playable:
        if code not in seen:
            problem(("provinces", code), None, f"{code} cannot be reached from {playable[0]}")
