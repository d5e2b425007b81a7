"""A command line fit to repeat in replies and logs: its passwords masked."""

from __future__ import annotations

from parser.commands.words import bare, read_keyword

MASK = "********"

# command -> index (among the words after the command word) of its first secret
_SECRET_FROM = {"SIGNON": 1, "JOIN": 1, "OBSERVE": 1, "CREATE": 1, "RESIGN": 1,
                "REPLACE": 2, "UNSUPPORTED": 1}


def redacted_source(source: str) -> str:
    """``source`` with every word that may be a password replaced by a mask.

    Covers every spelling the reader accepts ('SIGN ON Fgame pw', 'WATCH
    game pw', 'RESIGN france@game pw', 'SET PASSWORD pw', 'REPLACE f a@b pw').
    """
    found = read_keyword(source)
    if found is None:
        return source
    command, _, end = found
    head, words = source[:end].strip(), source[end:].split()
    secret_from = _SECRET_FROM.get(command)
    if command == "SET" and words and bare(words[0]) == "PASSWORD":
        secret_from = 1
    if secret_from is None or len(words) <= secret_from:
        return source
    return " ".join([head, *words[:secret_from], *[MASK] * (len(words) - secret_from)])
