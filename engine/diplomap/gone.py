"""Names of provinces the board in force does not have, in a line that
could not be read: what the board has there instead (rule text ru12 by
Michael Harvath, CC BY-SA 4.0).

Two ways a player names a province that is not there:

- one the game's changes replaced: Munich after it was split (``A Mun -
  Bur``: 'Munich (MUN) is now North Munich (MUN-N) and South Munich
  (MUN-S)'), Moscow after it was joined with Livonia, a part that was
  joined with a neighbour since; traced through the changes;
- one a change made that is no longer in the game, as after a ROLLBACK to
  a phase before it (``A Mun-N H``): the name has the shape of a part of a
  split (the base province's code and a side, engine/diplomap/changes.py
  ``part_names``) or of two provinces joined (``MOS+LVN``), and what it
  names the parts of is whole on the board.

A whole province's name (``Mun``) is looked at only where the reader
stopped (its word and column), since a line may hold the same word in a
name that is on the board ('North Munich'); the names only changes make
(``MUN-N``, ``MOS+LVN``) are looked for anywhere in the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.diplomap.board import WORDS
from engine.diplomap.values import MapChange, Merge, Rename, Split
from engine.map import GameMap, normalise_name, province_of

_SIDES = "|".join(sorted(WORDS, key=len, reverse=True))  # 'NE' before 'N'
_PART = re.compile(rf"(?P<base>[A-Za-z][\w.]*)-(?P<side>{_SIDES})\d*", re.IGNORECASE)
_MERGED = re.compile(r"(?P<one>[A-Za-z][\w.]*(?:-\w+)?)\+(?P<two>[A-Za-z][\w.]*(?:-\w+)?)")
_TOKEN = re.compile(r"(?<![\w+-])[A-Za-z][\w.]*(?:[-+][\w.]+)*(?![\w+-])")
_PIECE = re.compile(r"[A-Za-z][\w.]*")


def gone_place(base: GameMap, board: GameMap, changes: Sequence[MapChange], text: str,
               word: str = "", column: int = 0) -> str | None:
    """What ``board`` (the board the line was read on: ``changes`` made on
    the ``base`` map) has instead of a province ``text`` names that it
    lacks, or None.
    ``word``, ``column``: the word the reader stopped at and its 1-based
    column in the line as written (``text`` may be that line stripped)."""
    at = _where(text, word, column)
    for found in _TOKEN.finditer(text):
        written = found.group()
        made = "-" in written or "+" in written  # a name only changes make
        if _known(board, written) is not None:
            continue
        said = (_changed(base, board, changes, written) or _undone(board, written)) \
            if made else None
        if said is None and at is not None and found.start() <= at < found.end():
            # the reader stopped here: a whole name, or a piece of 'Mun-Boh'
            said = next((_changed(base, board, changes, piece.group())
                         for piece in _PIECE.finditer(written)
                         if found.start() + piece.start() <= at < found.start() + piece.end()
                         and _known(board, piece.group()) is None), None)
        if said is not None:
            return said
    return None


def _where(text: str, word: str, column: int) -> int | None:
    """Where in ``text`` the reader's ``word`` is: its last occurrence at or
    before ``column`` (``text`` may have lost leading spaces)."""
    if not word:
        return None
    found = None
    for hit in re.finditer(re.escape(word), text):
        if hit.start() <= max(column - 1, 0):
            found = hit.start()
    return found


def _known(board: GameMap, written: str) -> str | None:
    """The province of ``board`` a name stands for, if any."""
    if written.upper() in board.provinces:
        return written.upper()
    location = board.aliases.get(normalise_name(written))
    return None if location is None else province_of(location)


def _in_history(base: GameMap, changes: Sequence[MapChange],
                written: str) -> tuple[str, str] | None:
    """The code and name of the province of the base map, or made by one of
    the changes, that ``written`` names."""
    key = normalise_name(written)
    location = base.aliases.get(key)
    code = province_of(location) if location is not None else (
        written.upper() if written.upper() in base.provinces else None)
    if code is not None:
        return code, base.provinces[code].name
    for change in changes:
        made: tuple[tuple[str, str], ...] = (
            tuple(zip(change.parts, change.names, strict=True)) if isinstance(change, Split)
            else ((change.into, change.name),) if isinstance(change, Merge)
            else ((change.new_code, change.name),))
        for made_code, name in made:
            if key in (normalise_name(made_code), normalise_name(name)):
                return made_code, name
    return None


def _became(code: str, changes: Sequence[MapChange]) -> list[str]:
    """The provinces that hold the land of ``code`` after ``changes``."""
    now = [code]
    for change in changes:
        if isinstance(change, Split) and change.province in now:
            at = now.index(change.province)
            now[at:at + 1] = list(change.parts)
        elif isinstance(change, Merge) and set(change.provinces) & set(now):
            now = [c for c in now if c not in change.provinces] + [change.into]
        elif isinstance(change, Rename) and change.code in now:
            now[now.index(change.code)] = change.new_code
    return now


def _changed(base: GameMap, board: GameMap, changes: Sequence[MapChange],
             written: str) -> str | None:
    """'there is no province MUN now: Munich (MUN) is now North Munich
    (MUN-N) and South Munich (MUN-S)', for a province the changes replaced."""
    if not changes:
        return None
    found = _in_history(base, changes, written)
    if found is None or found[0] in board.provinces:
        return None
    code, name = found
    now = [c for c in _became(code, changes) if c in board.provinces]
    if not now:
        return None
    named = [f"{board.provinces[c].name} ({c})" for c in now]
    where = named[0] if len(named) == 1 and board.provinces[now[0]].name == name \
        else f"part of {named[0]}" if len(named) == 1 else " and ".join(named)
    return f"there is no province {code} now: {name} ({code}) is now {where}"


def _undone(board: GameMap, written: str) -> str | None:
    """A part of a split or two provinces joined, of provinces whole and
    apart on the board: the change was undone (a ROLLBACK) or never made."""
    part = _PART.fullmatch(written)
    if part is not None:
        whole = _known(board, part.group("base"))
        if whole is not None:
            return (f"there is no province {written.upper()} now: "
                    f"{board.provinces[whole].name} ({whole}) is not split on the board "
                    "in force")
    merged = _MERGED.fullmatch(written)
    if merged is not None:
        one, two = _known(board, merged.group("one")), _known(board, merged.group("two"))
        if one is not None and two is not None and one != two:
            return (f"there is no province {written.upper()} now: "
                    f"{board.provinces[one].name} ({one}) and {board.provinces[two].name} "
                    f"({two}) are two provinces on the board in force")
    return None
