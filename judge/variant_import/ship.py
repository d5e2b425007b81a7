"""Regenerate the shipped variants imported from DPJudge:
``python -m judge.variant_import.ship``.

Every ``.map`` in tools/dpjudge_maps/ is imported, with its artwork from
judge/maps/artwork/ when the judge ships it (the map a MAP line names, else
the map's own name), and written to engine/variants/NAME.toml when it
passes `judge variant check`. ``standard`` is kept by hand and is skipped,
and so is any name of a shipped variant that was not imported. One line
per map says what became of it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from engine.variant_file import VariantError, parse_variant
from judge.maps.postscript import ARTWORK
from judge.variant_import.chain import ChainError, read_chain
from judge.variant_import.cli import IMPORTED_MARK, shipped_folder
from judge.variant_import.importer import import_map, variant_name

SOURCES = Path(__file__).resolve().parents[2] / "tools" / "dpjudge_maps"
HAND_KEPT = frozenset({"standard"})

# Titles where the map's file name is not the variant's name in words
# (DPJudge's map files have no title line).
TITLES = {
    "1897": "1897",
    "1898": "1898",
    "1900": "1900",
    "ancmed": "Ancient Mediterranean",
    "classical": "Classical",
    "empire-up": "Empire (updated)",
    "fiveman": "Five-Man",
    "fleetrome": "Fleet Rome",
    "loeb9": "Loeb9",
    "minorpower": "Minor Powers",
    "modern": "Modern Diplomacy",
    "modern-up": "Modern Diplomacy (updated)",
    "sailho": "Sail Ho!",
    "v8": "V8",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    map: str
    name: str
    written: bool
    why: str


def ship(sources: Path = SOURCES, target: Path | None = None,
         artwork: Path = ARTWORK, dry_run: bool = False) -> list[Outcome]:
    """Import every map in ``sources`` into ``target`` (engine/variants/)."""
    target = target or shipped_folder()
    outcomes = []
    for path in sorted(sources.glob("*.map")):
        name = variant_name(path)
        existing = target / f"{name}.toml"
        if name in HAND_KEPT or (existing.exists() and IMPORTED_MARK not in existing.read_text(
                encoding="utf-8")):
            outcomes.append(Outcome(path.name, name, False, "skipped: a variant kept by hand"))
            continue
        art = artwork / f"{artwork_name(path)}.ps"
        result = import_map(path, art if art.is_file() else None, name=name,
                            title=TITLES.get(name))
        if result.text is None:
            outcomes.append(Outcome(path.name, name, False, f"refused: {result.refusal}; "
                                    + "; ".join(str(n) for n in result.notes
                                                if n.text.startswith("variant check"))[:300]))
            continue
        rings = ""
        if not dry_run:
            existing.write_text(result.text, encoding="utf-8")
            if art.is_file() and _add_rings(name, existing):
                rings = ", rings"
        drawn = f"artwork {art.name}{rings}"
        if "\n[map]\nnotice = " in result.text:
            why = [n.text for n in result.notes if n.text.startswith(f"artwork {art.name}")]
            drawn = f"schematic ({why[0]})" if why else "schematic"
        unfinished = " (unfinished)" if "\nunfinished = " in result.text else ""
        outcomes.append(Outcome(path.name, name, True, f"imported{unfinished}, {drawn}"))
    return outcomes


def _add_rings(name: str, written: Path) -> bool:
    """Add the [rings] the artwork gives (judge/maps/rings.py) to a written
    variant file when they pass its checks, so that Diplomap may be switched
    on for it; a board whose artwork's rings disagree with its moves (a
    crossing drawn over a sea, a board wrapping round the world) has none."""
    from judge.maps.rings import table, variant_rings  # shapely: only when shipping

    text = written.read_text(encoding="utf-8")
    try:
        rings, _ = variant_rings(name)
    except ValueError:  # an artwork without areas for every province
        return False
    with_rings = text.rstrip("\n") + "\n\n" + table(rings)
    try:
        parse_variant(with_rings, f"{name}.toml")
    except VariantError:
        return False
    written.write_text(with_rings, encoding="utf-8")
    return True


def artwork_name(path: Path) -> str:
    """The artwork a map is drawn from: the map its MAP line names, else its
    own name (bench/dpjudge_maps.py imports the maps as ship does)."""
    try:
        return read_chain(path).artwork or path.stem
    except ChainError:
        return path.stem


def main(argv: list[str], stdout: TextIO) -> int:
    dry_run = "--dry-run" in argv
    for outcome in ship(dry_run=dry_run):
        stdout.write(f"{outcome.map:<20} {outcome.name:<14} {outcome.why}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:], sys.stdout))
