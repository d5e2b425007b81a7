"""The [map] table of an imported map: drawn from its dpmap artwork when
that can be read and places every location, else a schematic."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

from judge.maps.postscript import drawing_table, read_postscript
from judge.variant_import.board import Province
from judge.variant_import.dpjudge_map import ascii_code
from judge.variant_import.model import Note
from judge.variant_import.writer import bare_key, schematic_table

SCHEMATIC = "schematic board: DPJudge's artwork for this map is not drawn here"


def map_table(artwork: Path | None, provinces: Mapping[str, Province]
              ) -> tuple[str, str | None, list[Note]]:
    """The [map] table, the artwork's file name when it is used, and notes."""
    if artwork is None:
        return schematic_table(SCHEMATIC), None, [Note(None, "no artwork: drawn as a schematic")]
    try:
        art = read_postscript(artwork.read_text(encoding="latin-1"))
        table = tomllib.loads(drawing_table(art, artwork.name))["map"]
        for key in ("units", "labels", "centres"):  # a translated map's ÉDI is EDI
            table[key] = {ascii_code(k): v for k, v in table.get(key, {}).items()}
    except (OSError, ValueError, KeyError) as exc:
        return (schematic_table(SCHEMATIC), None,
                [Note(None, f"artwork {artwork.name} cannot be read ({exc}): drawn as a "
                      "schematic")])
    if min(table.get("size", [0])) <= 0:
        return (schematic_table(SCHEMATIC), None,
                [Note(None, f"artwork {artwork.name} has no size: drawn as a schematic")])
    locations = set(provinces) | {f"{p}/{c.code}" for p, prov in provinces.items()
                                  for c in prov.coasts}
    centres = {p for p, prov in provinces.items() if prov.centre}
    missing = sorted(locations - set(table.get("units", {})))
    if missing:
        return (schematic_table(SCHEMATIC), None,
                [Note(None, f"artwork {artwork.name} has no place for {', '.join(missing)}: "
                      "drawn as a schematic")])
    notes = []
    extra = sorted(set(table.get("units", {})) - locations)
    if extra:
        notes.append(Note(None, f"artwork {artwork.name} places {', '.join(extra)}, which "
                          "the map does not have: left out"))
    lines = ["[map]", f'artwork = "{artwork.name}"', f"size = {_point(table['size'])}"]
    for key, allowed in (("units", locations), ("labels", set(provinces)),
                         ("centres", centres)):
        lines += ["", f"[map.{key}]"]
        lines += [f"{bare_key(place)} = {_point(point)}"
                  for place, point in sorted(table.get(key, {}).items()) if place in allowed]
    return "\n".join(lines) + "\n", artwork.name, notes


def _point(point: list[float]) -> str:
    return "[" + ", ".join(f"{v:g}" for v in point) + "]"
