"""Command words: which first words make a line a command, and what a
misspelt one most likely meant.

A line is a command when its first word (any case, trailing punctuation
ignored) is one of :data:`KEYWORDS`, or one of the two-word njudge spellings
('SIGN ON', 'END PRESS'). Every other line belongs to the orders. A first
word that is one or two letters away from a command word is reported as a
misspelt command, unless the line could be an order: unit types, order words
and anything three letters or shorter (province codes such as 'Mar' or 'Sev'
sit one letter from 'MAP' and 'SET') are never taken for commands.
"""

from __future__ import annotations

import re
from functools import lru_cache

# spelling -> the command it stands for (DPJudge names first, then njudge's)
KEYWORDS: dict[str, str] = {
    "HELP": "HELP",
    "LIST": "LIST",
    "HISTORY": "HISTORY",
    "SUMMARY": "SUMMARY",
    "MAP": "MAP",
    "OBSERVE": "OBSERVE", "OBSERVER": "OBSERVE", "OBS": "OBSERVE", "WATCH": "OBSERVE",
    "JOIN": "JOIN",
    "SIGNON": "SIGNON",
    "SIGNOFF": "SIGNOFF",
    "RESIGN": "RESIGN", "WITHDRAW": "RESIGN",
    "SET": "SET",
    "CLEAR": "CLEAR",
    "UNSUBSCRIBE": "UNSUBSCRIBE", "LEAVE": "UNSUBSCRIBE", "UNOBSERVE": "UNSUBSCRIBE",
    "PRESS": "PRESS",
    "BROADCAST": "BROADCAST",
    "GREY": "GREY", "GRAY": "GREY",
    "CREATE": "CREATE",
    "FORM": "START", "START": "START",
    "PROCESS": "PROCESS",
    "STATUS": "STATUS",
    "PREVIEW": "PREVIEW",
    "ROLLBACK": "ROLLBACK",
    "PAUSE": "PAUSE",
    "RESUME": "RESUME",
    "EJECT": "EJECT",
    "SILENCE": "SILENCE",
    "RENAME": "RENAME",  # the GM names a province Diplomap made (§II.H)
    "REPLACE": "REPLACE",
    "TERMINATE": "TERMINATE",
    "OFFICIAL": "OFFICIAL",
    "END": "END",
    "ENDPRESS": "ENDPRESS", "ENDBROADCAST": "ENDPRESS",
}

# njudge writes some commands as two words; the first alone is no command.
TWO_WORDS: dict[tuple[str, str], str] = {
    ("SIGN", "ON"): "SIGNON",
    ("SIGN", "OFF"): "SIGNOFF",
    ("END", "PRESS"): "ENDPRESS",
    ("END", "BROADCAST"): "ENDPRESS",
    ("FORCE", "BEGIN"): "START",
}

# Commands of DPJudge or njudge this judge does not have: named, so that the
# sender learns so instead of seeing the line read as a broken order.
UNSUPPORTED = frozenset({
    "TAKEOVER", "PURGE", "REVEAL", "ACTIVATE", "ROLLFORWARD",
    "DUMMY", "REVIVE", "MONITOR", "INVEST", "GET", "VERSION", "WHOIS", "REGISTER",
    "IAMALSO", "DIARY", "PHASE", "PROMOTE", "BECOME", "PREDICT", "UNSTART", "SEND",
})

# Words that begin orders or order headings: never read as misspelt commands.
ORDER_WORDS = frozenset({
    "ARMY", "FLEET", "WING", "BUILD", "BUILDS", "REMOVE", "REMOVES", "DISBAND", "DISBANDS",
    "WAIVE", "WAIVES", "HOLD", "HOLDS", "STAND", "STANDS", "SUPPORT", "SUPPORTS", "CONVOY",
    "CONVOYS", "TRANSPORT", "RETREAT", "RETREATS", "MOVE", "MOVES", "MAINTAIN", "SPRING",
    "SUMMER", "FALL", "AUTUMN", "WINTER", "ORDERS", "ORDER", "EMBASSY", "BIDS", "BID",
})

_PUNCT = ".,;:!?"
_WORD = re.compile(r"\S+")
_ALPHA = re.compile(r"[A-Za-z]+")
_MOVE_SIGN = re.compile(r"(?:^|\s)(?:-+|->|=>|\u2013|\u2014|\u2192)(?:\s|$)")


def bare(word: str) -> str:
    """A word as a command word: upper case, trailing punctuation dropped."""
    return word.rstrip(_PUNCT).upper()


def read_keyword(text: str) -> tuple[str, str, int] | None:
    """The command a line starts with: (command, its spelling, index past it)."""
    first = _WORD.search(text)
    if first is None:
        return None
    word = bare(first.group())
    second = _WORD.search(text, first.end())
    if second is not None and (word, bare(second.group())) in TWO_WORDS:
        spelled = f"{word} {bare(second.group())}"
        return TWO_WORDS[(word, bare(second.group()))], spelled, second.end()
    if word in KEYWORDS:
        return KEYWORDS[word], word, first.end()
    if word in UNSUPPORTED:
        return "UNSUPPORTED", word, first.end()
    return None


def is_block_end(text: str) -> str | None:
    """'ENDPRESS' or 'SIGNOFF' if the line, alone, ends a press block."""
    words = [bare(w) for w in text.split()]
    if len(words) == 1 and words[0] in ("ENDPRESS", "ENDBROADCAST", "END", "SIGNOFF"):
        return "SIGNOFF" if words[0] == "SIGNOFF" else "ENDPRESS"
    if len(words) == 2 and tuple(words) in TWO_WORDS:
        found = TWO_WORDS[(words[0], words[1])]
        if found in ("ENDPRESS", "SIGNOFF"):
            return found
    return None


def distance(a: str, b: str, limit: int) -> int:
    """Edit distance counting a swap of neighbours as one edit; > limit when far."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = list(range(len(b) + 1))
    previous: list[int] = before
    for i, ca in enumerate(a, start=1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            row[j] = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        previous, before = before, row
    return before[-1]


def _common_prefix(a: str, b: str) -> int:
    size = 0
    while size < min(len(a), len(b)) and a[size] == b[size]:
        size += 1
    return size


def _slip(word: str, known: str) -> bool:
    """A short word is taken for ``known`` only if a letter was dropped or two swapped.

    Four-letter words differing by one letter are too often names ('Helg'
    is one letter from HELP).
    """
    if len(known) == len(word) + 1:
        return any(known[:i] + known[i + 1:] == word for i in range(len(known)))
    if len(known) == len(word):
        swaps = [i for i in range(len(word)) if word[i] != known[i]]
        return len(swaps) == 2 and swaps[1] == swaps[0] + 1 and sorted(word) == sorted(known)
    return False


def nearest(word: str, vocabulary: tuple[str, ...] | frozenset[str] | list[str]) -> str | None:
    """The word of ``vocabulary`` within reach of ``word``, or None.

    Ties go to the word sharing the longest beginning ('SIGNOF' is nearer
    SIGNOFF than SIGNON); a tie that remains gives None.
    """
    limit = 1 if len(word) <= 5 else 2
    scored = sorted(
        (distance(word, known, limit), -_common_prefix(word, known), known)
        for known in vocabulary
        if len(word) > 4 or _slip(word, known)
    )
    if not scored or scored[0][0] > limit:
        return None
    if len(scored) > 1 and scored[1][:2] == scored[0][:2]:
        return None
    return scored[0][2]


# Short words are left out: 'END', 'MAP', 'SET' are one letter from too much.
_SUGGESTABLE = tuple(sorted(word for word in KEYWORDS if len(word) > 3))


@lru_cache(maxsize=4096)  # a mail may repeat one misspelling many times
def _nearest_command(word: str) -> str | None:
    return nearest(word, _SUGGESTABLE)


def misspelt(text: str) -> tuple[str, str] | None:
    """(word, meant) when the line starts with a misspelt command word."""
    first = _WORD.search(text)
    if first is None:
        return None
    word = bare(first.group())
    if len(word) < 4 or not _ALPHA.fullmatch(word) or word in ORDER_WORDS:
        return None
    if _MOVE_SIGN.search(text):
        return None
    meant = _nearest_command(word)
    if meant is None:
        return None
    return first.group().rstrip(_PUNCT), meant
