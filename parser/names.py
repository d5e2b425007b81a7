"""Reading place and power names out of order text.

Names are looked up in the map's alias tables (``GameMap.aliases`` and
``GameMap.power_aliases``, keyed by :func:`engine.variant_file.normalise_name`).
A name may run over several words joined by spaces, dots, underscores or a
hyphen written without spaces ('Mid-Atlantic Ocean', 'St. Petersburg'); the
longest run of words that is a known spelling wins, so 'A Bre-Mid-Wes' reads
as BRE, MID, WES while 'Mid-Atlantic' reads as one name. A hyphen with a space
on either side is never part of a name: it is the move operator.

After a place name an optional coast is read: 'spa/sc', 'spa(sc)',
'spa (south coast)', 'spa sc', 'spa/s', 'Spain south coast', 'spa/south'.
A coast the province does not have is dropped (DATC 4.B.6), unless the map
lists that whole spelling ('spa/wc') as an alias.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.map import Province, Terrain, coast_of, normalise_name, province_of

WORD = re.compile(r"[^\W_]+")
# What may join the words of one name: spaces, dots, underscores, apostrophes,
# a hyphen with no space around it, or a plus (Diplomap's merged provinces,
# 'Lvn+StP-S', written with or without spaces around it).
_JOIN = re.compile(
    r"[._'\u2019]*-[._'\u2019]*(?=[^\W_])|[ \t]*\+[ \t]*(?=[^\W_])|[\s._'\u2019]+"
)
_PLUS = re.compile(r"\s*\+\s*")
_POSSESSIVE = re.compile(r"['\u2019]s\b", re.IGNORECASE)
_WATER_NOISE = re.compile(r"[ \t_]+(?:sea|ocean)\b", re.IGNORECASE)

_COAST_WORD = r"(?P<c>[^\W_]+(?:\.c\b)?)(?:[ \t_-]*coast\b)?\.?"
_COAST_SLASH = re.compile(r"[ \t]*/[ \t]*" + _COAST_WORD, re.IGNORECASE)
_COAST_PAREN = re.compile(r"[ \t]*\([ \t]*" + _COAST_WORD + r"[ \t]*\)", re.IGNORECASE)
_COAST_SPELLED = re.compile(r"[ \t_]+(?P<c>[^\W_]+)[ \t_-]+coast\b\.?", re.IGNORECASE)
_COAST_CODE = re.compile(r"[ \t_]+(?P<c>[^\W_]+)\b\.?", re.IGNORECASE)

_DIRECTIONS = {
    "n": "N", "north": "N", "s": "S", "south": "S",
    "e": "E", "east": "E", "w": "W", "west": "W",
}
# spelled-out coast codes accepted after a space, with no slash or bracket
_BARE_COAST_CODES = frozenset({"nc", "sc", "ec", "wc"})

# Words that may appear in orders besides names (for diagnosing unknown words).
COAST_WORDS = frozenset({*_DIRECTIONS, *_BARE_COAST_CODES, "coast", "c", "sea", "ocean"})


@dataclass(frozen=True, slots=True)
class NameMatch:
    """A name found in a text: where it ends and what it names."""

    end: int  # index just past the name (and its coast, if any)
    value: str  # location code or power name
    key: str  # the normalised spelling that matched


def _key(text: str) -> str:
    """A spelling as the tables are keyed, with 'lvn + stp' and 'lvn+stp' alike."""
    key = normalise_name(text)
    return _PLUS.sub("+", key) if "+" in key else key


def _starts_word(text: str, pos: int) -> bool:
    if pos >= len(text) or not WORD.match(text, pos):
        return False
    return pos == 0 or not WORD.match(text, pos - 1)


class NameIndex:
    """Longest-match lookup of multi-word spellings in one alias table."""

    def __init__(self, names: Mapping[str, str]) -> None:
        self.names: dict[str, str] = {_key(k): v for k, v in names.items() if k}
        self.max_words = max((len(k.replace("+", " ").split()) for k in self.names), default=1)

    def match(self, text: str, pos: int) -> NameMatch | None:
        if not _starts_word(text, pos):
            return None
        ends: list[int] = []
        at = pos
        while len(ends) < self.max_words:
            word = WORD.match(text, at)
            if word is None:
                break
            ends.append(word.end())
            join = _JOIN.match(text, word.end())
            if join is None:
                break
            at = join.end()
        for end in reversed(ends):
            key = _key(text[pos:end])
            value = self.names.get(key)
            if value is not None:
                return NameMatch(end, value, key)
        return None


def _coast_code(raw: str) -> tuple[str, str]:
    """('South.', ...) -> ('south', 'SC'): the normalised text and the coast code."""
    norm = "".join(raw.lower().replace(".", " ").split())
    if norm in _DIRECTIONS:
        return norm, _DIRECTIONS[norm] + "C"
    if norm.endswith("c") and norm[:-1] in _DIRECTIONS:
        return norm, _DIRECTIONS[norm[:-1]] + "C"
    return norm, norm.upper()


class Places:
    """Reads a location (province, optional coast) from order text."""

    def __init__(
        self,
        provinces: Mapping[str, Province],
        aliases: Mapping[str, str],
        reserved: Iterable[str] = (),
    ) -> None:
        self.provinces = provinces
        self.aliases = aliases
        self.index = NameIndex({k: v for k, v in aliases.items() if "/" not in k})
        self.reserved = frozenset(reserved)  # order keywords: never a bare coast

    def match(self, text: str, pos: int) -> NameMatch | None:
        found = self.index.match(text, pos)
        if found is None:
            return None
        location, end = found.value, found.end
        province = self.provinces.get(province_of(location))
        if province is None:
            return None
        if province.terrain is Terrain.WATER:
            noise = _WATER_NOISE.match(text, end)
            if noise is not None:
                end = noise.end()
        coast = self._coast_suffix(text, end, province)
        if coast is not None:
            raw, end = coast
            if coast_of(location) is None:
                location = self._resolve_coast(province, found.key, raw)
        return NameMatch(end, location, found.key)

    def _coast_suffix(self, text: str, pos: int, province: Province) -> tuple[str, int] | None:
        for pattern in (_COAST_SLASH, _COAST_PAREN, _COAST_SPELLED):
            m = pattern.match(text, pos)
            if m is not None:
                return m.group("c"), m.end()
        m = _COAST_CODE.match(text, pos)
        if m is not None:
            word = m.group("c").lower()
            own = {c.lower() for c in province.coasts}
            if (
                (word in _BARE_COAST_CODES or word in own)
                and word not in self.aliases
                and word not in self.reserved
            ):
                return word, m.end()
        return None

    def _resolve_coast(self, province: Province, spelled: str, raw: str) -> str:
        norm, code = _coast_code(raw)
        if code in province.coasts:
            return f"{province.code}/{code}"
        for name in (spelled, province.code.lower()):
            for form in (norm, code.lower()):
                target = self.aliases.get(f"{name}/{form}")
                if target is not None and province_of(target) == province.code:
                    return target
        return province.code  # a coast the province does not have: ignored


class Powers:
    """Reads a power name or adjective, with an optional possessive 's."""

    def __init__(self, power_aliases: Mapping[str, str]) -> None:
        self.index = NameIndex(power_aliases)

    def match(self, text: str, pos: int) -> NameMatch | None:
        found = self.index.match(text, pos)
        if found is None:
            return None
        possessive = _POSSESSIVE.match(text, found.end)
        if possessive is not None:
            return NameMatch(possessive.end(), found.value, found.key)
        return found


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The name a misspelled word most likely meant."""

    kind: str  # 'province', 'power' or 'word'
    text: str


class Suggester:
    """Finds the most likely intended name for a misspelled word."""

    def __init__(
        self,
        provinces: Mapping[str, Province],
        aliases: Mapping[str, str],
        power_aliases: Mapping[str, str],
        keywords: Iterable[str],
    ) -> None:
        self.candidates: dict[str, Suggestion] = {}
        for word in keywords:
            if len(word) > 2:
                self.candidates[word] = Suggestion("word", word)
        for key, power in power_aliases.items():
            self.candidates[key] = Suggestion("power", power.title())
        for key, location in aliases.items():
            province = provinces.get(province_of(location))
            if province is not None:
                self.candidates[key] = Suggestion("province", province.name)

    def suggest(self, phrases: Iterable[str]) -> Suggestion | None:
        """The best match over several readings of the text (one word, two...)."""
        best: tuple[float, Suggestion] | None = None
        keys = list(self.candidates)
        for phrase in phrases:
            if not phrase:
                continue
            matcher = difflib.SequenceMatcher(b=phrase, autojunk=False)
            for key in keys:
                matcher.set_seq1(key)
                if matcher.real_quick_ratio() < 0.7 or matcher.quick_ratio() < 0.7:
                    continue
                score = matcher.ratio()
                if score >= 0.7 and (best is None or score > best[0]):
                    best = (score, self.candidates[key])
        return None if best is None else best[1]
