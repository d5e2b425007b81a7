"""A DPJudge map turned into a variant file, checked as `judge variant
check` checks it, with the report of everything not carried."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.flags import DPJUDGE_RULES, IGNORED, SUPPORTED
from engine.variant_file import VariantError, parse_variant
from judge.variant_import.aliases import settle_aliases
from judge.variant_import.artwork import SCHEMATIC, map_table
from judge.variant_import.board import BoardError, build_board
from judge.variant_import.chain import ChainError, read_chain
from judge.variant_import.dpjudge_map import read_map
from judge.variant_import.model import DpMap, Note
from judge.variant_import.powers import PowerError, build_powers
from judge.variant_import.words import ascii_code
from judge.variant_import.writer import Header, Source, schematic_table, variant_text


@dataclass(frozen=True, slots=True)
class Imported:
    """The variant file's text, or why there is none, and the report."""

    name: str
    text: str | None
    notes: tuple[Note, ...]
    refusal: str | None = None


def variant_name(path: Path) -> str:
    """The variant's name from the map's file name: "ancmed", "empire-up"."""
    return re.sub(r"[^a-z0-9_-]", "_", path.stem.lower())


def import_map(path: Path, artwork: Path | None = None, name: str | None = None,
               title: str | None = None, search: tuple[Path, ...] = ()) -> Imported:
    """Read the map at ``path`` (and the files it uses) into a variant file.

    ``artwork``: the dpmap PostScript to place the pieces by; without one,
    or when it cannot be read, the map is drawn as a schematic. ``search``:
    folders to look in for the files it uses that are not beside it.
    """
    name = name or variant_name(path)
    try:
        chain = read_chain(path, search)
    except ChainError as exc:
        return Imported(name, None, (), f"cannot read the map: {exc}")
    dp = read_map(chain)
    notes = list(dp.notes)
    centres = supply_centres(dp, notes)
    try:
        board = build_board(dp, centres)
        notes += board.notes
        powers, power_notes = build_powers(dp, board.provinces, centres)
    except (BoardError, PowerError) as exc:
        return Imported(name, None, tuple(notes), str(exc))
    notes += power_notes
    if len(powers) < 2:
        return Imported(name, None, tuple(notes), "the map has fewer than two powers")
    provinces, powers, alias_notes = settle_aliases(
        board.provinces, powers, {code: entry.where for code, entry in dp.names.items()})
    notes += alias_notes
    notes += _ambiguous(dp)
    if dp.text_only:
        table, used = schematic_table(SCHEMATIC), None
        notes.append(Note(None, "TEXTONLY: drawn as a schematic"))
    else:
        table, used, art_notes = map_table(artwork, provinces, _spellings(dp))
        notes += art_notes
    notes += _flag_notes(dp)
    blocking = [n for n in notes if n.changes_play]
    unfinished = None
    if blocking:
        first = blocking[0]
        more = f"and {len(blocking) - 1} more; " if len(blocking) > 1 else ""
        unfinished = f"{first} ({more}see judge variant import's report)"
    victory = dp.victory[0] if dp.victory else len(centres) // 2 + 1
    header = Header(name=name, title=title or _title(name), victory=victory, begin=dp.begin,
                    flow=dp.flow, flags=dp.flags, unfinished=unfinished)
    source = Source(map=path.name, files=chain.files, artwork=used)
    text = variant_text(header, source, powers, provinces, table)
    try:
        parse_variant(text, f"{name}.toml")
    except VariantError as exc:
        notes += [Note(None, f"variant check: {p}") for p in exc.problems]
        return Imported(name, None, tuple(notes),
                        f"the variant file would not pass `judge variant check` "
                        f"({len(exc.problems)} problem(s))")
    return Imported(name, text, tuple(notes))


def supply_centres(dp: DpMap, notes: list[Note]) -> frozenset[str]:
    """DPJudge's supply centres: every power's homes and the centres it
    owns, and the UNOWNED ones."""
    places = {loc.province for loc in dp.locations if loc.terrain != "SHUT"}
    said = list(dp.unowned)
    for power in dp.powers:
        said += [*power.homes, *(power.owns or ())]
    for code in dict.fromkeys(said):
        if code not in places:
            notes.append(Note(None, f"supply centre {code}: no such place; left out",
                              changes_play=True))
    return frozenset(c for c in said if c in places)


def _spellings(dp: DpMap) -> dict[str, str]:
    """Each alias of the map (ambiguous ones too) that names one location."""
    found: dict[str, set[str]] = {}
    for code, entry in dp.names.items():
        for alias in (*entry.aliases, *entry.ambiguous):
            found.setdefault(ascii_code(alias).lower(), set()).add(code)
    return {alias: next(iter(codes)) for alias, codes in found.items() if len(codes) == 1}


def _ambiguous(dp: DpMap) -> list[Note]:
    return [Note(entry.where, f"ambiguous alias {alias!r} of {code} (marked ?) not carried: "
                 "the variant file's aliases mean one place")
            for code, entry in dp.names.items() for alias in entry.ambiguous]


def _flag_notes(dp: DpMap) -> list[Note]:
    """Each RULE carried, and whether the engine plays it."""
    notes = []
    for flag in dp.flags:
        where = dp.flag_lines.get(flag)
        bare = flag.lstrip("!")
        if bare not in DPJUDGE_RULES:
            notes.append(Note(where, f"RULE {flag}: not a rule DPJudge knows (variant check "
                              "refuses it)"))
        elif flag.startswith("!"):
            notes.append(Note(where, f"RULE {flag}: switches off {bare} of a used file"))
        elif f"!{flag}" in dp.flags:
            notes.append(Note(where, f"RULE {flag}: carried, and switched off by !{flag}"))
        elif bare in SUPPORTED:
            notes.append(Note(where, f"RULE {flag}: carried, supported"))
        elif bare in IGNORED:
            notes.append(Note(where, f"RULE {flag}: carried, ignored by the engine "
                              "(no effect in its games)"))
        else:
            notes.append(Note(where, f"RULE {flag}: carried, not supported by the engine "
                              "(the variant is not offered until it is)"))
    for flag, where in dp.flag_lines.items():
        if flag in dp.flags:
            continue
        if flag.startswith("!"):
            notes.append(Note(where, f"RULE {flag}: switches off nothing a used file "
                              "switched on; not carried"))
        elif f"!{flag}" not in dp.flags:
            notes.append(Note(where, f"RULE {flag}: switched off by the map; not carried"))
    return notes


def _title(name: str) -> str:
    return name.replace("_", " ").title()
