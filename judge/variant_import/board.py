"""A DPJudge map's places as the variant file's provinces: kinds, army and
fleet lists (coast by coast), names and aliases.

DPJudge keeps one adjacency list per location (a province, or one coast
of it), whose tokens' case says which units cross. The variant file keeps
an army list per province and a fleet list per location, each written at
both ends: a move DPJudge lists one way only cannot be carried and is left
out, with a note.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from judge.variant_import.abuts import Abut, bare_location, read_abut
from judge.variant_import.model import DpMap, Location, Note

_COAST_WORDS = {"NC": "north coast", "SC": "south coast", "EC": "east coast",
                "WC": "west coast"}
_CODE = re.compile(r"^[A-Z][A-Z0-9]{1,5}$")


@dataclass(frozen=True, slots=True)
class Coast:
    code: str  # "NC"
    name: str
    fleet: tuple[str, ...]
    aliases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Province:
    code: str
    name: str
    kind: str  # land, coastal, water, impassable
    centre: bool
    aliases: tuple[str, ...]
    army: tuple[str, ...]
    fleet: tuple[str, ...]
    coasts: tuple[Coast, ...]
    borders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Board:
    provinces: Mapping[str, Province]
    notes: tuple[Note, ...]


class BoardError(ValueError):
    """A map whose places the variant file cannot hold at all."""


def build_board(dp: DpMap, centres: frozenset[str]) -> Board:
    """The provinces of the map; ``centres`` are its supply centres."""
    notes: list[Note] = []
    by_province: dict[str, list[Location]] = {}
    for loc in dp.locations:
        by_province.setdefault(loc.province, []).append(loc)
    for code in by_province:
        if not _CODE.match(code):
            raise BoardError(f"place {code}: the variant file's codes start with a letter")
    main: dict[str, Location] = {}
    for p, locs in by_province.items():
        own = next((x for x in locs if "/" not in x.key), None)
        if own is None:
            raise BoardError(f"{p} has coasts but no line of its own")
        main[p] = own
    terrain = {p: loc.terrain for p, loc in main.items()}
    coasts = {p: [x for x in locs if "/" in x.key] for p, locs in by_province.items()}
    # a location fleets may occupy: a water or port, a coast, or a coastal
    # province written in upper case that has no coasts of its own
    fleet_spots = {x.key for locs in coasts.values() for x in locs}
    for p, loc in main.items():
        if loc.terrain in ("WATER", "PORT") or (
                loc.terrain == "COAST" and loc.code.isupper() and not coasts[p]):
            fleet_spots.add(p)
        if loc.terrain in ("COAST", "PORT") and coasts[p] and loc.code.isupper():
            notes.append(Note(loc.where, f"{p}: a fleet may stand in the province and on "
                              "its coasts in DPJudge; only the coasts are carried",
                              changes_play=True))
        if loc.terrain == "PORT":
            notes.append(Note(loc.where, f"PORT {p}: a fleet there convoys in DPJudge; "
                              "the engine's fleets convoy from water only", changes_play=True))

    usable = {loc.key: _abuts(loc, notes, by_province) for loc in dp.locations}
    army: dict[str, set[str]] = {}
    fleet: dict[str, set[str]] = {}
    for p, loc in main.items():
        if loc.terrain == "SHUT":
            continue
        if loc.terrain in ("LAND", "COAST", "PORT"):
            army[p] = {a.location.split("/")[0] for a in usable[loc.key]
                       if a.army and terrain.get(a.location.split("/")[0]) in
                       ("LAND", "COAST", "PORT")}
        for spot in ([loc] if p in fleet_spots else []) + coasts[p]:
            fleet[spot.key] = set()
            for a in usable[spot.key]:
                if not a.fleet:
                    continue
                if a.location in fleet_spots:
                    fleet[spot.key].add(a.location)
                elif coasts.get(a.location) and terrain.get(a.location) != "LAND":
                    notes.append(Note(spot.where, f"{spot.key} abuts {a.location}, which "
                                      "has coasts: the move names no coast and is left out"))
    _one_way(army, "army move", notes, dp)
    _one_way(fleet, "fleet move", notes, dp)

    borders: dict[str, set[str]] = {
        p: {_province_of(t) for t in loc.abuts} - {p}
        for p, loc in main.items() if loc.terrain == "SHUT"}
    for p, locs in by_province.items():
        for loc in locs:
            for token in loc.abuts:
                if _province_of(token) in borders:
                    borders[_province_of(token)].add(p)
        if p in borders:
            borders[p] &= set(by_province)

    provinces: dict[str, Province] = {}
    for p, loc in main.items():
        name_entry = dp.names.get(p)
        if name_entry is None:
            notes.append(Note(loc.where, f"{p} has no name line: its code is its name"))
        kind = _kind(loc, p in fleet_spots or bool(coasts[p]))
        provinces[p] = Province(
            code=p,
            name=name_entry.name if name_entry else p,
            kind=kind,
            centre=p in centres,
            aliases=name_entry.aliases if name_entry else (),
            army=tuple(sorted(army.get(p, ()))) if kind in ("land", "coastal") else (),
            fleet=tuple(sorted(fleet.get(p, ()))) if not coasts[p] else (),
            coasts=tuple(_coast(dp, c, fleet) for c in sorted(coasts[p], key=lambda c: c.key)),
            borders=tuple(sorted(borders.get(p, ()))),
        )
    return Board(provinces, tuple(notes))


def _province_of(token: str) -> str:
    return bare_location(token).split("/")[0]


def _kind(loc: Location, fleets_stand: bool) -> str:
    if loc.terrain == "SHUT":
        return "impassable"
    if loc.terrain == "WATER":
        return "water"
    if loc.terrain == "LAND" or not fleets_stand:
        return "land"
    return "coastal"


def _coast(dp: DpMap, loc: Location, fleet: Mapping[str, set[str]]) -> Coast:
    coast = loc.key.split("/")[1]
    entry = dp.names.get(loc.key)
    name = _COAST_WORDS.get(coast, f"{coast.lower()} coast")
    if entry is not None:
        inside = re.search(r"\(([^)]*)\)", entry.name)
        name = inside.group(1) if inside else name
    return Coast(coast, name, tuple(sorted(fleet.get(loc.key, ()))),
                 entry.aliases if entry else ())


def _abuts(loc: Location, notes: list[Note], known: Mapping[str, object]) -> list[Abut]:
    """The location's abuts the engine can carry; the others noted."""
    out = []
    for i, token in enumerate(loc.abuts):
        abut = read_abut(token)
        where = loc.source(i)
        if abut is None or abut.location.split("/")[0] not in known:
            notes.append(Note(where, f"{loc.key} ABUTS {token}: no such place", True))
        elif abut.location.split("/")[0] == loc.province:
            notes.append(Note(where, f"{loc.key} ABUTS {token}: itself; left out"))
        elif abut.restriction:
            notes.append(Note(where, f"{loc.key} ABUTS {token}: {abut.restriction}: "
                              "not supported, the move is left out", changes_play=True))
        elif not abut.one_way_block:
            out.append(abut)
    return out


def _one_way(moves: dict[str, set[str]], what: str, notes: list[Note], dp: DpMap) -> None:
    """Leave out the moves listed at one end only."""
    where = {loc.key: loc.where for loc in dp.locations}
    for here, theirs in moves.items():
        for there in sorted(theirs):
            if here not in moves.get(there, set()):
                theirs.discard(there)
                notes.append(Note(where.get(here), f"{what} {here} -> {there} is listed one "
                                  "way only: the engine's moves go both ways; left out",
                                  changes_play=True))
