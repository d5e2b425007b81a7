"""Pages kept until their game changes.

A game's page is made from its row, its phase records, its members, the
orders on file (whether each power has orders in) and its press. One
statement reads a mark of all of them: the game's own columns, and how many
rows each of the others has with the newest of them. A page made under a
mark is served again while the mark is the same; any mail or deadline that
changes what the page shows changes the mark (a new phase, orders filed, a
player joining or resigning, press, a rollback). Fifty readers of one game
then cost one small query each, not a page made fifty times.

A page is kept as it is sent: its UTF-8 bytes, and those gzipped, both made
once with the page. Intercontinental's game page is some 430 KB of inline
SVG; encoding it for every reader, and sending it whole, cost more than
the rest of the request.
"""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlmodel import Session

from judge.models import FiledLines, Game, Member, PhaseRecord, Press

MAX_PAGES = 512

_GAME = Game.__table__  # type: ignore[attr-defined]


def _count_and_newest(model: Any, newest: Any) -> list[Any]:
    table = model.__table__
    mine = table.c.game_id == _GAME.c.id
    return [select(func.count()).select_from(table).where(mine).scalar_subquery(),
            select(func.max(newest)).where(mine).scalar_subquery()]


_MARK = select(
    _GAME.c.id, _GAME.c.status, _GAME.c.phase, _GAME.c.deadline, _GAME.c.grace_until,
    _GAME.c.result, _GAME.c.settings, _GAME.c.variant,
    *_count_and_newest(PhaseRecord, PhaseRecord.__table__.c.id),  # type: ignore[attr-defined]
    *_count_and_newest(FiledLines, FiledLines.__table__.c.submitted_at),  # type: ignore[attr-defined]
    *_count_and_newest(Press, Press.__table__.c.id),  # type: ignore[attr-defined]
    *_count_and_newest(Member, Member.__table__.c.id),  # type: ignore[attr-defined]
    # a player resigning or replaced changes the seat's standing, not the rows' count
    select(func.count()).select_from(Member.__table__).where(  # type: ignore[attr-defined]
        Member.__table__.c.game_id == _GAME.c.id,  # type: ignore[attr-defined]
        Member.__table__.c.status == "active").scalar_subquery(),  # type: ignore[attr-defined]
).where(_GAME.c.name == bindparam("name"))


def fingerprint(session: Session, name: str) -> tuple[Any, ...] | None:
    """The mark of a game's pages now; None when there is no such game."""
    row = session.connection().execute(_MARK, {"name": name}).first()
    return tuple(row) if row is not None else None


@dataclass(frozen=True)
class KeptPage:
    """A page as sent: its bytes, and the same gzipped for the readers whose
    browsers take it (all of them, in practice)."""
    body: bytes
    gzipped: bytes

    @classmethod
    def of(cls, text: str) -> KeptPage:
        body = text.encode("utf-8")
        # mtime 0: the same page gzips to the same bytes
        return cls(body, gzip.compress(body, compresslevel=6, mtime=0))


class PageCache:
    def __init__(self, max_pages: int = MAX_PAGES) -> None:
        self._kept: OrderedDict[tuple[str, ...], tuple[tuple[Any, ...], KeptPage]] = \
            OrderedDict()
        self._max = max_pages
        self._lock = threading.Lock()
        self.made = 0  # pages made (not found kept): tests and the bench read it

    def get(self, key: tuple[str, ...], mark: tuple[Any, ...]) -> KeptPage | None:
        with self._lock:
            found = self._kept.get(key)
            if found is None or found[0] != mark:
                return None
            self._kept.move_to_end(key)
            return found[1]

    def put(self, key: tuple[str, ...], mark: tuple[Any, ...], page: KeptPage) -> None:
        with self._lock:
            self.made += 1
            self._kept[key] = (mark, page)
            self._kept.move_to_end(key)
            while len(self._kept) > self._max:
                self._kept.popitem(last=False)
