"""A DPJudge map's powers as the variant file's: name, adjective, letter,
aliases, homes, centres owned at the start, units and dummies.

DPJudge writes ``U+S+A`` (a ``+`` capitalises the next letter when the name
is shown), ``NEW+YORK``, ``_INDIA`` (underscores only sort a power last)
and ``B.C.``; the variant file keys a power by upper-case letters and
underscores (``USA``, ``NEW_YORK``, ``INDIA``, ``BC``), with a ``title``
where the key's words would misspell it in prose.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.map import normalise_name
from judge.variant_import.board import Province
from judge.variant_import.model import DpMap, DpPower, Note
from judge.variant_import.words import ascii_code


@dataclass(frozen=True, slots=True)
class PowerOut:
    key: str
    title: str  # "" when the key's words say it
    adjective: str
    letter: str
    aliases: tuple[str, ...]
    home: tuple[str, ...]
    centres: tuple[str, ...] | None  # None: its homes
    units: tuple[str, ...]
    dummy: bool


class PowerError(ValueError):
    """A power the variant file cannot name."""


def power_names(name: str) -> tuple[str, str]:
    """The variant file's key for a DPJudge power name, and its name in prose."""
    parts = [p for p in name.lstrip("_").split("+") if p]
    if parts and all(len(p) == 1 for p in parts):
        prose = "".join(parts).upper()  # U+S+A: an acronym
        key = prose
    else:
        prose = " ".join(p.title() if p.isupper() or p.islower() else p for p in parts)
        key = "_".join(parts).upper()
    key = ascii_code(key).replace(".", "").strip("_")
    if not re.fullmatch(r"[A-Z][A-Z_-]*", key):
        raise PowerError(f"power {name}: the variant file's power names are letters")
    return key, prose


def adjective_of(power: DpPower, prose: str) -> str:
    word = (power.own_word or "").replace("+", " ").strip()
    if not word:
        return prose
    return word.title() if word.isupper() else word


def build_powers(dp: DpMap, provinces: Mapping[str, Province],
                 centres: frozenset[str]) -> tuple[list[PowerOut], list[Note]]:
    """The powers, each checked against the board; what cannot be carried noted."""
    notes: list[Note] = []
    named = [(p, *power_names(p.name)) for p in dp.powers]
    keys = [k for _, k, _ in named]
    for key in keys:
        if keys.count(key) > 1:
            raise PowerError(f"two powers are both {key} in the variant file")
    letters = _letters(dp.powers, keys)
    out = []
    for (power, key, prose), letter in zip(named, letters, strict=True):
        adjective = adjective_of(power, prose)
        home = tuple(_places(power.homes, provinces, centres, power, "home", notes))
        owns = (tuple(_places(power.owns, provinces, centres, power, "OWNS", notes))
                if power.owns is not None else None)
        units = tuple(_units(power, provinces, notes))
        aliases = tuple(dict.fromkeys(
            a for a in (adjective.lower(),) if normalise_name(a) != normalise_name(key)))
        out.append(PowerOut(
            key=key,
            title=prose if prose != key.replace("_", " ").title() else "",
            adjective=adjective, letter=letter, aliases=aliases, home=home,
            centres=owns if owns is not None and owns != home else None,
            units=units, dummy=power.dummy))
    return out, notes


def _letters(powers: tuple[DpPower, ...], keys: list[str]) -> list[str]:
    """Each power's letter: the map's own where it is a letter, else the
    first letter of its ownership word (DPJudge's rule); where that is
    taken, two letters of its name, the first and the next that is free."""
    chosen: list[str | None] = [
        p.abbrev.upper() if p.abbrev and p.abbrev.isalpha() and len(p.abbrev) <= 3 else None
        for p in powers]
    taken = {c for c in chosen if c}
    for i, power in enumerate(powers):
        if chosen[i]:
            continue
        word = re.sub(r"[^A-Za-z]", "", (power.own_word or "") or keys[i]) or keys[i]
        first = word[:1].upper()
        letters = re.sub(r"[^A-Z]", "", keys[i])
        candidates = [first] + [letters[0] + c for c in letters[1:]] + [
            letters[0] + chr(c) for c in range(ord("A"), ord("Z") + 1)]
        chosen[i] = next(c for c in candidates if c and c not in taken)
        taken.add(chosen[i] or "")
    return [c or "" for c in chosen]


def _places(codes: tuple[str, ...], provinces: Mapping[str, Province],
            centres: frozenset[str], power: DpPower, what: str, notes: list[Note]) -> list[str]:
    kept = []
    for code in codes:
        if code not in provinces:
            notes.append(Note(power.where, f"{power.name} {what} {code}: no such province",
                              changes_play=True))
        elif code not in centres:
            notes.append(Note(power.where, f"{power.name} {what} {code}: not a supply centre",
                              changes_play=True))
        else:
            kept.append(code)
    return kept


def _units(power: DpPower, provinces: Mapping[str, Province], notes: list[Note]) -> list[str]:
    kept = []
    for index, unit in enumerate(power.units):
        kind, loc = unit.split()
        prov = provinces.get(loc.split("/")[0])
        coasts = {c.code for c in prov.coasts} if prov else set()
        coast = loc.split("/")[1] if "/" in loc else None
        if prov is None or (coast is not None and coast not in coasts):
            why = "no such place"
        elif kind == "A" and prov.kind not in ("land", "coastal"):
            why = "an army cannot stand there"
        elif kind == "F" and (prov.kind not in ("water", "coastal")
                              or (coasts and coast is None)):
            why = "a fleet cannot stand there" + (" (which coast?)" if coasts else "")
        else:
            kept.append(unit)
            continue
        notes.append(Note(power.unit_line(index), f"{power.name}'s unit {unit}: {why}; left out",
                          changes_play=True))
    return kept
