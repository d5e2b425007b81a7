"""`judge variant import PATH.map [--artwork PATH.ps] [-o FILE]` (docs/cli.md)."""

from __future__ import annotations

import argparse
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from judge.variant_import.importer import Imported

IMPORTED_MARK = 'imported_by = "judge variant import"'


def shipped_folder() -> Path:
    """engine/variants/, where the shipped variant files are."""
    return Path(str(resources.files("engine") / "variants"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("map", help="the DPJudge .map file")
    parser.add_argument("--artwork", help="its dpmap PostScript (.ps); default: none, "
                        "a schematic board")
    parser.add_argument("-o", "--output", help="the variant file to write; default: "
                        "engine/variants/NAME.toml")
    parser.add_argument("--name", help="the variant's name; default: the output's file "
                        "name, else the map's")
    parser.add_argument("--title", help="the variant's title; default: its name")
    parser.add_argument("--maps", action="append", default=[],
                        help="another folder of DPJudge files the map USEs (repeatable)")


def cmd_variant_import(args: argparse.Namespace, stdout: TextIO) -> int:
    """Exit 0 when the file was written, 2 when the map cannot be imported."""
    # here, not at the top: `judge adjudicate` builds this parser and must
    # not pay for the maps' imports (tests/judge/test_cli.py)
    from judge.maps.postscript import ARTWORK
    from judge.variant_import.importer import Imported, import_map, variant_name

    source = Path(args.map)
    # a variant's name is its file's (docs/variants.md): -o's, else the map's
    name = args.name or variant_name(Path(args.output) if args.output else source)
    output = Path(args.output) if args.output else shipped_folder() / f"{name}.toml"
    artwork = Path(args.artwork) if args.artwork else None
    result = import_map(source, artwork, name=name, title=args.title,
                        search=tuple(Path(m) for m in args.maps))
    if result.text is not None and output.exists() and IMPORTED_MARK not in output.read_text(
            encoding="utf-8"):
        result = Imported(result.name, None, result.notes,
                          f"{output} exists and was not written by judge variant import")
    write_report(result, source.name, output, stdout)
    if result.text is None:
        return 2
    output.write_text(result.text, encoding="utf-8")
    if "\n[map]\nartwork = " in result.text and artwork is not None \
            and not (ARTWORK / artwork.name).is_file():
        stdout.write(f"  copy {artwork} to judge/maps/artwork/ for the judge to draw it\n")
    return 0


def write_report(result: Imported, map_name: str, output: Path, stdout: TextIO) -> None:
    """What was done, then every note: what the file does not carry."""
    if result.text is None:
        stdout.write(f"{map_name}: not imported: {result.refusal}\n")
    else:
        drawn = "schematic board" if "\n[map]\nnotice = " in result.text else "its artwork"
        stdout.write(f"{map_name}: written to {output} ({drawn})\n")
        if "\nunfinished = " in result.text:
            stdout.write("  unfinished: not offered to games until the engine carries what "
                         "is marked * below\n")
    for note in result.notes:
        stdout.write(f"  {'*' if note.changes_play else '-'} {note}\n")
