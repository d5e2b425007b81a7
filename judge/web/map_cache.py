"""The maps the web view shows, drawn once per phase and kept.

A phase's map is a pure function of the positions stored for it (the
phase's own and the one before, whose orders it draws): drawn once, it is
kept under a digest of those records, so a rolled-back phase played again
is drawn again. Intercontinental's board is 400 KB of SVG and takes a
quarter of a second to draw; a page read by fifty people draws it once.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

from sqlmodel import Session, select

from judge import games, maps
from judge.maps.stored import stored_scene
from judge.models import Game, PhaseRecord

MAX_BYTES = 64 * 1024 * 1024  # the drawn maps kept, oldest used first out


@dataclass(frozen=True)
class DrawnMaps:
    """A phase's board, and the variant's other board if it has one
    (Dissolution's Favor map), as SVG markup ready to go inline in a page."""
    board: str
    other: str = ""

    @property
    def size(self) -> int:
        return len(self.board) + len(self.other)


def inline(svg: bytes) -> str:
    """The judge's SVG without its XML declaration, which has no place
    inside an HTML page. Nothing else changes: the page shows the map as
    the judge drew it (its texts escaped when it was drawn)."""
    text = svg.decode("utf-8")
    if text.startswith("<?xml"):
        text = text[text.index("?>") + 2:].lstrip()
    return text


class MapCache:
    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self._kept: OrderedDict[tuple[int, str, str], DrawnMaps] = OrderedDict()
        self._bytes = 0
        self._max = max_bytes
        self._lock = threading.Lock()
        self.drawn = 0  # maps drawn (not found kept): the bench and tests read it

    def maps(self, session: Session, game: Game, phase: str) -> DrawnMaps | None:
        """The maps of the position ``phase`` started from, with the orders
        of the phase before drawn on it; None for a phase the game lacks."""
        key = self._key(session, game, phase)
        if key is None:
            return None
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        drawn = _draw(session, game, phase)
        with self._lock:
            self.drawn += 1
            if key not in self._kept:
                self._kept[key] = drawn
                self._bytes += drawn.size
            while self._bytes > self._max and len(self._kept) > 1:
                _, old = self._kept.popitem(last=False)
                self._bytes -= old.size
        return drawn

    @staticmethod
    def _key(session: Session, game: Game, phase: str) -> tuple[int, str, str] | None:
        # the two records the map is drawn from, not every phase of the game:
        # a map is asked for each phase of a history, unkept as a page
        mine = games.phase_record(session, game, phase)
        if mine is None:
            return None
        before = session.exec(select(PhaseRecord.state, PhaseRecord.results).where(
            PhaseRecord.game_id == game.id, PhaseRecord.seq == mine.seq - 1)).first()
        digest = hashlib.sha256(mine.state.encode())
        if before is not None:
            digest.update(b"\0" + before[0].encode() + b"\0" + before[1].encode())
        return game.id or 0, phase, digest.hexdigest()

def _draw(session: Session, game: Game, phase: str) -> DrawnMaps:
    game_map, scene = stored_scene(session, game, phase)
    board = inline(maps.render(game_map, scene, "svg"))
    other = maps.render_other_board(game_map, scene, "svg")
    return DrawnMaps(board, inline(other) if other is not None else "")
