"""The words orders are written with, and the power a line may begin with.

Plain tables and a plain reader, apart from the pyparsing grammar that uses
them (parser/grammar.py): the canonical-form fast lane, the Embassy reader,
the closing detector and ``written_power`` need them without the grammar, so
a tool reading orders in the judge's own form never loads pyparsing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.map import GameMap, UnitKind
from parser.names import COAST_WORDS, NameMatch, Places, Powers

# the words for every kind of unit on the geographic board; a map reads those
# of its kinds. An Embassy's orders have a reader of their own (parser/embassy.py).
ALL_KIND_WORDS = {
    word: kind for kind in UnitKind if kind is not UnitKind.EMBASSY
    for word in (kind.value.lower(), kind.noun)
}
STANDARD_KIND_WORDS = {w: k for w, k in ALL_KIND_WORDS.items()
                       if k in (UnitKind.ARMY, UnitKind.FLEET)}


def kind_words(game_map: GameMap) -> dict[str, UnitKind]:
    """The words naming the map's kinds of unit: 'a', 'army', 'w', 'wing'..."""
    return {w: k for w, k in ALL_KIND_WORDS.items() if k in game_map.kinds}


HOLD_WORDS = ("h", "hold", "holds", "stand", "stands")
SUPPORT_WORDS = ("s", "sup", "supp", "support", "supports")
CONVOY_WORDS = ("c", "convoy", "convoys", "transport", "transports")
MOVE_WORDS = ("m", "move", "moves", "to")
RETREAT_WORDS = ("r", "retreat", "retreats")
DISBAND_WORDS = ("d", "disband", "disbands")
REMOVE_WORDS = ("remove", "removes")
BUILD_WORDS = ("b", "build", "builds")
WAIVE_WORDS = ("waive", "waives")
VIA_WORDS = ("via", "by")
OPERATORS = ("-->", "->", "--", "=>", "-", "\u2013", "\u2014", "\u2192", ">", "=")

KEYWORDS: frozenset[str] = frozenset(
    {
        *ALL_KIND_WORDS, *HOLD_WORDS, *SUPPORT_WORDS, *CONVOY_WORDS, *MOVE_WORDS,
        *RETREAT_WORDS, *DISBAND_WORDS, *REMOVE_WORDS, *BUILD_WORDS, *WAIVE_WORDS, *VIA_WORDS,
        "w",
    }
)
KNOWN_WORDS: frozenset[str] = KEYWORDS | COAST_WORDS


def power_letters(game_map: GameMap) -> dict[str, str]:
    return {p.letter.lower(): p.name for p in game_map.powers.values() if len(p.letter) == 1}


class PowerPrefix:
    """'France:', '[ENGLAND]', '(FRANCE)', 'E)', 'R:' or just 'England' before an order."""

    _OPEN = re.compile(r"[\[(][ \t]*")
    _CLOSE = re.compile(r"[ \t]*(?:[\])][ \t]*:?|:)")

    def __init__(self, powers: Powers, letters: Mapping[str, str], places: Places) -> None:
        self._powers = powers
        self._places = places
        self._letters = dict(letters)

    def power_at(self, instring: str, loc: int) -> tuple[int, str] | None:
        """Where the prefix at ``loc`` ends and the power it names, if one is there
        (the grammar drops it; the judge compares it with the unit's power)."""
        at = loc
        opened = self._OPEN.match(instring, at)
        if opened is not None:
            at = opened.end()
        found: NameMatch | None = self._powers.match(instring, at)
        if found is not None:
            close = self._CLOSE.match(instring, found.end)
            if close is not None:
                return close.end(), found.value
            place = self._places.match(instring, at)
            if opened is None and (place is None or place.end <= found.end):
                return found.end, found.value
        elif (
            at < len(instring)
            and instring[at].lower() in self._letters
            and not (at + 1 < len(instring) and instring[at + 1].isalnum())
        ):
            close = self._CLOSE.match(instring, at + 1)
            if close is not None:
                return close.end(), self._letters[instring[at].lower()]
        return None
