"""A command line fit to repeat in replies and logs: its passwords masked."""

from __future__ import annotations

from parser.commands.set_forms import SET_WORDS
from parser.commands.setting_forms import REPLACED, SETTING_WORDS
from parser.commands.words import KEYWORDS, bare, misspelt, read_keyword

MASK = "********"

# command -> index (among the words after the command word) of its first secret
_SECRET_FROM = {"SIGNON": 1, "JOIN": 1, "OBSERVE": 1, "CREATE": 1, "RESIGN": 1,
                "REPLACE": 2, "UNSUPPORTED": 1}
_NOT_SECRET = frozenset(SET_WORDS) - {"PASSWORD"} | {"NO"} | set(SETTING_WORDS) | set(REPLACED)


def redacted_source(source: str) -> str:
    """``source`` with every word that may be a password replaced by a mask.

    Covers every spelling the reader accepts ('SIGN ON Fgame pw', 'WATCH
    game pw', 'RESIGN france@game pw', 'SET PASSWORD pw', 'REPLACE f a@b pw').
    """
    found = read_keyword(source)
    if found is not None:
        command, _, end = found
    else:
        typo = misspelt(source)  # 'SINGON Fgame pw' carries a password all the same
        if typo is None:
            return source
        command = KEYWORDS[typo[1]]
        first = source.split()[0]
        end = source.index(first) + len(first)
    head, words = source[:end].strip(), source[end:].split()
    secret_from = _SECRET_FROM.get(command)
    if command == "SET" and words and bare(words[0]) not in _NOT_SECRET:
        secret_from = 1  # SET PASSWORD, or what may be a misspelling of it
    if secret_from is None or len(words) <= secret_from:
        return source
    return " ".join([head, *words[:secret_from], *[MASK] * (len(words) - secret_from)])
