"""What a DPJudge map says, once all its files are read: frozen values the
board builder and the writer work from (judge/variant_import/dpjudge_map.py
reads them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from judge.variant_import.chain import Where


@dataclass(frozen=True, slots=True)
class Note:
    """Something of the map the variant file does not carry, where it is.

    ``changes_play``: a game of the written variant would be played
    differently from DPJudge's (an adjacency restriction, a home-centre
    mark); the importer then writes the variant unfinished, so no game is
    created of it until the engine can honour it. Otherwise the note is
    about something outside the rules (a web page's flag, a mail address).
    """

    where: Where | None
    text: str
    changes_play: bool = False

    def __str__(self) -> str:
        at = f"{self.where}: " if self.where else ""
        return f"{at}{self.text}"


@dataclass(frozen=True, slots=True)
class PlaceName:
    """A ``Name = abc alias...`` line: the full name of a location and its
    spellings (lower case, ``+`` read as a space)."""

    code: str  # upper case: "ADR", "BUL/EC"
    name: str
    aliases: tuple[str, ...]
    ambiguous: tuple[str, ...]  # the aliases marked with a trailing ``?``
    where: Where


@dataclass(frozen=True, slots=True)
class Location:
    """A terrain line: ``COAST bul ABUTS AEG BLA ...``."""

    code: str  # as written: lower case for a location no fleet may occupy
    terrain: str  # COAST, LAND, WATER, PORT or SHUT
    abuts: tuple[str, ...]  # the tokens after ABUTS, marks and case kept
    where: Where
    sources: tuple[Where, ...] = ()  # the line each abut was written on (AMEND's)

    def source(self, index: int) -> Where:
        return self.sources[index] if index < len(self.sources) else self.where

    @property
    def key(self) -> str:
        return self.code.upper()

    @property
    def province(self) -> str:
        return self.key.split("/")[0]


@dataclass(frozen=True, slots=True)
class DpPower:
    """A power: its name as DPJudge writes it (``U+S+A``, ``_Belgium``),
    its ownership word and letter when the map gives them, its home
    centres, the centres it owns at the start (None: its homes) and its
    units (``A BUD``)."""

    name: str
    own_word: str | None
    abbrev: str | None
    homes: tuple[str, ...]
    owns: tuple[str, ...] | None
    units: tuple[str, ...]
    dummy: bool
    where: Where
    unit_lines: tuple[Where, ...] = ()  # where each unit was written

    def unit_line(self, index: int) -> Where:
        return self.unit_lines[index] if index < len(self.unit_lines) else self.where


@dataclass(frozen=True, slots=True)
class DpMap:
    """Everything the map's files say that the importer carries."""

    names: Mapping[str, PlaceName]
    locations: tuple[Location, ...]
    powers: tuple[DpPower, ...]
    unowned: tuple[str, ...]
    victory: tuple[int, ...]
    begin: str | None  # the BEGIN line's words, whitespace collapsed
    flow: tuple[str, ...]  # the FLOW lines' words
    flags: tuple[str, ...]  # the RULEs in force, "!FLAG" for a used file's switched off
    flag_lines: Mapping[str, Where]  # where each flag (or "!FLAG") was first said
    notes: tuple[Note, ...]
    text_only: bool
