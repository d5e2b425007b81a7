"""Reading orders for the units of a variant's other board: Dissolution's
Embassies on the Favor map (§11.5).

    [E | Embassy] SPACE (H | Hold)
    [E | Embassy] SPACE (- | -> | to | m | move) SPACE
    [E | Embassy] SPACE (S | Support) [POWER] [E] SPACE [(- | ...) SPACE]

A SPACE is a label of the board (``N1u``, ``I0z``, any case). POWER names
the supported Embassy's power, needed for one in a Perimeter
(``E I1p S PA I0z - I1q``): a power's name, adjective or two-letter
abbreviation. Whether the order makes sense is for the engine to say.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.map import UnitKind, normalise_name
from engine.orders import Hold, Move, Order, SupportHold, SupportMove, UnitRef
from parser.words import HOLD_WORDS, MOVE_WORDS, SUPPORT_WORDS

_TOKEN = re.compile(r"[A-Za-z0-9]+|->|-|\u2013|\u2014|\u2192")
_EMBASSY = {"e", "embassy"}
_HOLD = frozenset(HOLD_WORDS)
# the order grammar's move words, and the arrows this reader's tokens keep
_MOVE = frozenset({"-", "->", "\u2013", "\u2014", "\u2192", *MOVE_WORDS})
_SUPPORT = frozenset(SUPPORT_WORDS)


class EmbassyReader:
    def __init__(self, spaces: Mapping[str, str], powers: Mapping[str, str]) -> None:
        self.spaces = spaces  # lower-case spelling -> label
        self.powers = powers  # normalised spelling -> power name

    def read(self, text: str) -> Order | str | None:
        """The order; a message when it is an Embassy order that cannot be
        read; None when it is not one at all (another reader's)."""
        words = _TOKEN.findall(text.strip().rstrip(".!"))
        at = 1 if words and words[0].lower() in _EMBASSY else 0
        if at >= len(words) or words[at].lower() not in self.spaces:
            return None
        me = UnitRef(self.spaces[words[at].lower()], UnitKind.EMBASSY)
        rest = [w.lower() for w in words[at + 1:]]
        if not rest:
            return f"what should the Embassy in {me.location} do?"
        if rest[0] in _HOLD and len(rest) == 1:
            return Hold(me)
        if rest[0] in _MOVE and len(rest) == 2 and rest[1] in self.spaces:
            return Move(me, self.spaces[rest[1]])
        if rest[0] in _SUPPORT:
            return self._support(me, words[at + 2:]) or \
                "a support is S [POWER] SPACE [- SPACE]: 'E I1p S PA I0z - I1q'"
        return "an Embassy holds (H), moves (- SPACE) or supports (S ...)"

    def _support(self, me: UnitRef, words: list[str]) -> Order | None:
        power = None
        if words and words[0].lower() not in self.spaces and words[0].lower() not in _EMBASSY:
            power = self.powers.get(normalise_name(words[0]))
            if power is None:
                return None
            words = words[1:]
        if words and words[0].lower() in _EMBASSY:
            words = words[1:]
        if not words or words[0].lower() not in self.spaces:
            return None
        target = UnitRef(self.spaces[words[0].lower()], UnitKind.EMBASSY, power)
        tail = [w.lower() for w in words[1:]]
        if not tail:
            return SupportHold(me, target)
        if len(tail) == 2 and tail[0] in _MOVE and tail[1] in self.spaces:
            return SupportMove(me, target, self.spaces[tail[1]])
        return None
