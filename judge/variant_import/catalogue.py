"""The table of the shipped maps imported from DPJudge, as docs/variants.md
lists them: players, centres, victory, RULE flags, how each is drawn,
whether Diplomap may be switched on, and whether a GM may create a game of it.

    python -m judge.variant_import.catalogue          print the table
    python -m judge.variant_import.catalogue --write  replace it in docs/variants.md

Read off the variant files themselves, so the table cannot drift from them
(tests/judge/variant_import/test_catalogue.py compares the two).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from engine.variant_file import load_variant, shipped_variants, unfinished_reason
from engine.variants import opening_position
from judge.variant_import.cli import shipped_folder

DOCS = Path(__file__).resolve().parents[2] / "docs" / "variants.md"
BEGIN = "<!-- the shipped DPJudge maps: python -m judge.variant_import.catalogue --write -->"
END = "<!-- end of the shipped DPJudge maps -->"


def imported_variants() -> list[str]:
    """The shipped variants written by the importer (they have [source])."""
    folder = shipped_folder()
    return [name for name in shipped_variants()
            if "source" in tomllib.loads((folder / f"{name}.toml").read_text(encoding="utf-8"))]


def _row(name: str) -> str:
    game_map = load_variant(name)
    players = len(opening_position(game_map).seats)
    centres = sum(1 for p in game_map.provinces.values() if p.centre is not None)
    flags = ", ".join(game_map.flags) or "-"
    drawn = "artwork" if game_map.drawing is not None and game_map.drawing.artwork else "schematic"
    diplomap = "yes" if game_map.rings else "no"
    why = unfinished_reason(name)
    offered = "yes" if why is None else f"no: {why.replace('|', '/')}"
    return (f"| `{name}` | {game_map.title} | {players} | {centres} | {game_map.victory} "
            f"| {flags} | {drawn} | {diplomap} | {offered} |")


def table() -> str:
    lines = [BEGIN,
             "| variant | title | players | centres | victory | RULE flags | drawn from "
             "| Diplomap | offered |",
             "| --- | --- | ---: | ---: | ---: | --- | --- | --- | --- |"]
    lines += [_row(name) for name in imported_variants()]
    return "\n".join([*lines, END]) + "\n"


def with_table(text: str) -> str:
    """The docs' text with its table replaced (or added at the end)."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < 0:
        return text.rstrip("\n") + "\n\n" + table()
    return text[:start] + table() + text[end + len(END) + 1:]


def main(argv: list[str]) -> int:
    if "--write" in argv:
        DOCS.write_text(with_table(DOCS.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        sys.stdout.write(table())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
