"""A command line fit to repeat in replies and logs: its passwords masked."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from parser.commands.set_forms import SET_WORDS
from parser.commands.setting_forms import REPLACED, SETTING_WORDS
from parser.commands.words import KEYWORDS, bare, misspelt, read_keyword

MASK = "********"

# command -> index (among the words after the command word) of its first secret
_SECRET_FROM = {"SIGNON": 1, "JOIN": 1, "OBSERVE": 1, "CREATE": 1, "RESIGN": 1,
                "REPLACE": 2, "UNSUPPORTED": 1}
_NOT_SECRET = frozenset(SET_WORDS) - {"PASSWORD"} | {"NO"} | set(SETTING_WORDS) | set(REPLACED)
# a line a player starts with one of these words holds a password after it
# ('PASSWORD x', 'Password: x'): not a command, but a slip worth masking
_PASSWORD_WORDS = frozenset({"PASSWORD", "PASSWD", "PW"})
# a secret shorter than this is masked only as a whole word: masking 'to'
# inside every word would make a log unreadable
_SHORT = 4


def redacted_source(source: str) -> str:
    """``source`` with every word that may be a password replaced by a mask.

    Covers every spelling the reader accepts ('SIGN ON Fgame pw', 'WATCH
    game pw', 'RESIGN france@game pw', 'SET PASSWORD pw', 'REPLACE f a@b pw'),
    and the slip 'PASSWORD pw'.
    """
    return _redacted(source)[0]


def _redacted(source: str) -> tuple[str, bool]:
    """The line masked, and whether it wanted a password it did not hold
    (which a player then often writes alone on the next line)."""
    words = source.split()
    if words and bare(words[0]) in _PASSWORD_WORDS:
        return " ".join([words[0], *[MASK] * (len(words) - 1)]), len(words) == 1
    found = read_keyword(source)
    if found is not None:
        command, _, end = found
    else:
        typo = misspelt(source)  # 'SINGON Fgame pw' carries a password all the same
        if typo is None:
            return source, False
        command = KEYWORDS[typo[1]]
        first = words[0]
        end = source.index(first) + len(first)
    head, words = source[:end].strip(), source[end:].split()
    secret_from = _SECRET_FROM.get(command)
    if command == "SET" and words and bare(words[0]) not in _NOT_SECRET:
        secret_from = 1  # SET PASSWORD, or what may be a misspelling of it
    if secret_from is None:
        return source, False
    if len(words) <= secret_from:
        return source, True
    return " ".join([head, *words[:secret_from], *[MASK] * (len(words) - secret_from)]), False


def redacted_lines(lines: Iterable[str]) -> list[str]:
    """Lines of a mail, each masked as by redacted_source, and a line that
    follows one wanting a password ('SIGNON france@game', then the password
    alone) masked whole."""
    out: list[str] = []
    wanting = False
    for line in lines:
        if wanting and line.strip():
            out.append(" ".join(MASK for _ in line.split()))
            wanting = False
            continue
        masked, wants = _redacted(line)
        out.append(masked)
        wanting = wanting or wants
    return out


def secret_words(text: str) -> frozenset[str]:
    """Every word of a mail's text that redacted_lines masks: what must not be
    repeated anywhere else either (a reply quoting a line, a log)."""
    lines = text.splitlines()
    found: set[str] = set()
    for line, masked in zip(lines, redacted_lines(lines), strict=True):
        found.update(word for word, shown in zip(line.split(), masked.split(), strict=False)
                     if shown == MASK and word != MASK)
    return frozenset(found)


def masked(text: str, secrets: frozenset[str]) -> str:
    """``text`` with each of the secrets masked wherever it appears (a short
    one only as a word of its own)."""
    return masker(secrets)(text)


def masker(secrets: frozenset[str]) -> Callable[[str], str]:
    """``masked`` for these secrets, made once for the many texts of a mail
    (one of a thousand SIGNONs has a thousand secrets)."""
    if not secrets:
        return _unchanged
    ordered = sorted(secrets, key=len, reverse=True)  # 'pw1' must not leave '1' of 'pw12'
    pattern = re.compile("|".join(
        re.escape(s) if len(s) >= _SHORT else rf"(?<!\S){re.escape(s)}(?!\S)"
        for s in ordered))
    return lambda text: pattern.sub(MASK, text)


def _unchanged(text: str) -> str:
    return text
