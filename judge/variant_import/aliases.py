"""Spellings the variant file may keep: each means one thing only.

DPJudge lets two places share an alias (and marks some ``?``, ambiguous,
to be asked about); the variant file gives each spelling one meaning
(docs/variants.md, "Aliases"). So an alias that is also another place's
code, name or alias, or a power's name or adjective, is given to neither
and noted. A coast's alias that the order parser reads by itself
(``bul/ec``, ``bulgaria(ec)``, ``spa (north coast)``) is left out as the
standard file leaves it out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace

from engine.map import normalise_name
from judge.variant_import.board import Coast, Province
from judge.variant_import.chain import Where
from judge.variant_import.model import Note
from judge.variant_import.powers import PowerOut

_COAST_SPELLING = re.compile(r"^(?P<place>.+?)\s*(?:/|\()\s*(?P<coast>[a-z ]+?)\s*\)?$")
_COAST_WORDS = {"nc": "north", "sc": "south", "ec": "east", "wc": "west"}


def settle_aliases(provinces: Mapping[str, Province], powers: list[PowerOut],
                   lines: Mapping[str, Where]
                   ) -> tuple[dict[str, Province], list[PowerOut], list[Note]]:
    """The provinces with the aliases they may keep; ``lines``: where each
    place's name line is, for the notes."""
    notes: list[Note] = []
    fixed: dict[str, str] = {}  # the spellings that cannot be taken away
    for code, prov in provinces.items():
        for spelling in (code, prov.name):
            fixed.setdefault(normalise_name(spelling), code)
    for power in powers:
        for spelling in (power.key, power.adjective):
            fixed.setdefault(normalise_name(spelling), power.key)

    wanted: Counter[str] = Counter()
    for code, prov in provinces.items():
        own = {normalise_name(code), normalise_name(prov.name)}
        wanted.update({normalise_name(a) for a in prov.aliases} - own)
        for coast in prov.coasts:
            wanted.update({normalise_name(a) for a in coast.aliases})

    def keep(alias: str, owner: str, own: Iterable[str]) -> bool:
        key = normalise_name(alias)
        if not key or key in own:
            return False
        if fixed.get(key, owner) != owner:
            notes.append(Note(lines.get(owner), f"alias {alias!r} of {owner} left out: it "
                              f"is also {fixed[key]}"))
            return False
        if wanted[key] > 1:
            notes.append(Note(lines.get(owner), f"alias {alias!r} of {owner} left out: "
                              "another place has it too"))
            return False
        return True

    settled: dict[str, Province] = {}
    for code, prov in provinces.items():
        own = {normalise_name(code), normalise_name(prov.name)}
        spellings = own | {normalise_name(a) for a in prov.aliases}
        aliases = tuple(dict.fromkeys(a for a in prov.aliases if keep(a, code, own)))
        coasts = tuple(
            replace(c, aliases=tuple(dict.fromkeys(
                a for a in c.aliases
                if not _parser_reads(a, c, spellings) and keep(a, f"{code}/{c.code}", ()))))
            for c in prov.coasts)
        settled[code] = replace(prov, aliases=aliases, coasts=coasts)
    return settled, powers, notes


def _parser_reads(alias: str, coast: Coast, province_spellings: set[str]) -> bool:
    """Whether the order parser reads the alias as this coast by itself:
    a spelling of the province, then the coast's code or words."""
    found = _COAST_SPELLING.match(alias.lower())
    if not found or normalise_name(found.group("place")) not in province_spellings:
        return False
    words = found.group("coast").replace("coast", "").strip()
    code = coast.code.lower()
    return words in (code, _COAST_WORDS.get(code, code)) or words == coast.name.lower()
