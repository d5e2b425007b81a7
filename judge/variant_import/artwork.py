"""The [map] table of an imported map: drawn from its dpmap artwork when
that can be read and places every location, else a schematic.

The artwork's table is judge.maps.postscript's ``drawing_table``, kept to
the map's places: an artwork code the map spells otherwise (modern.ps's
AND for the map's ADL, ``and?``) is read as the map's; a coast the
artwork leaves out is drawn at its province, a province at its centre
marker, an impassable one (a desert, a mountain range) amid its neighbours.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from judge.maps.postscript import drawing_table, read_postscript
from judge.variant_import.board import Province
from judge.variant_import.model import Note
from judge.variant_import.words import ascii_code
from judge.variant_import.writer import bare_key, schematic_table, toml_value

SCHEMATIC = "schematic board: DPJudge's artwork for this map is not drawn here"
_PLACES = ("units", "labels", "centres")


def map_table(artwork: Path | None, provinces: Mapping[str, Province],
              spellings: Mapping[str, str]) -> tuple[str, str | None, list[Note]]:
    """The [map] table, the artwork's file name when it is used, and notes.
    ``spellings``: each of the map's aliases (lower case) that names one
    location only, and that location."""
    if artwork is None:
        return schematic_table(SCHEMATIC), None, [Note(None, "no artwork: drawn as a schematic")]
    try:
        art = read_postscript(artwork.read_text(encoding="latin-1"))
        # a translated map's ÉDI is EDI, in the artwork too
        table: dict[str, Any] = tomllib.loads(ascii_code(drawing_table(art, artwork.name)))["map"]
    except (OSError, ValueError, KeyError, IndexError) as exc:
        return _schematic(f"artwork {artwork.name} cannot be read ({exc})")
    size = table.get("size", [0])
    if min(size) <= 0:
        return _schematic(f"artwork {artwork.name} has no size")
    notes: list[Note] = []
    allowed = {"units": _locations(provinces), "labels": set(provinces),
               "centres": {p for p, prov in provinces.items() if prov.centre}}
    places = {key: own_codes(table.get(key, {}), allowed[key], spellings, artwork.name,
                              notes if key == "units" else [])
              for key in _PLACES}
    missing = fill_units(places["units"], places["centres"], provinces, artwork.name, notes)
    if missing:
        return _schematic(f"artwork {artwork.name} has no place for {', '.join(missing)}")
    lines = ["[map]", f'artwork = "{artwork.name}"']
    lines += [f"{bare_key(k)} = {toml_value(v)}" for k, v in table.items()
              if k != "artwork" and not isinstance(v, dict)]
    for key, value in table.items():
        if isinstance(value, dict):
            points = places.get(key, value)
            lines += ["", f"[map.{bare_key(key)}]"]
            lines += [f"{bare_key(k)} = {toml_value(v)}" for k, v in sorted(points.items())]
    return "\n".join(lines) + "\n", artwork.name, notes


def _schematic(why: str) -> tuple[str, None, list[Note]]:
    return schematic_table(SCHEMATIC), None, [Note(None, f"{why}: drawn as a schematic")]


def own_codes(points: Mapping[str, Any], locations: set[str], spellings: Mapping[str, str],
               artwork: str, notes: list[Note]) -> dict[str, Any]:
    """The artwork's points under the map's codes; those of places the map
    does not have left out."""
    out: dict[str, Any] = {}
    for code, point in points.items():
        own = code if code in locations else spellings.get(code.lower())
        if own is None or own not in locations:
            notes.append(Note(None, f"artwork {artwork} places {code}, which the map does "
                              "not have: left out"))
        elif own not in out or own == code:
            if own != code:
                notes.append(Note(None, f"artwork {artwork} calls {own} {code}"))
            out[own] = point
    return out


def fill_units(units: dict[str, Any], centres: Mapping[str, Any],
                provinces: Mapping[str, Province], artwork: str, notes: list[Note]) -> list[str]:
    """Give a point to each location the artwork leaves out where one can
    be found; the locations left without one."""
    for code, prov in provinces.items():
        if code not in units and code in centres:
            units[code] = centres[code]
            notes.append(Note(None, f"artwork {artwork} has no place for {code}: drawn at "
                              "its centre marker"))
        elif code not in units and prov.kind == "impassable":
            around = [units[b] for b in prov.borders if b in units]
            if around:
                units[code] = [round(sum(p[i] for p in around) / len(around), 1)
                               for i in (0, 1)]
                notes.append(Note(None, f"artwork {artwork} has no place for {code}: drawn "
                                  "amid its neighbours"))
        for coast in prov.coasts:
            location = f"{code}/{coast.code}"
            if location not in units and code in units:
                units[location] = units[code]
                notes.append(Note(None, f"artwork {artwork} has no place for {location}: "
                                  "drawn at its province"))
    return sorted(_locations(provinces) - set(units))


def _locations(provinces: Mapping[str, Province]) -> set[str]:
    return set(provinces) | {f"{p}/{c.code}" for p, prov in provinces.items()
                             for c in prov.coasts}
