"""Drawing the board: a map of any phase of any game, as SVG, PNG or PDF.

    scene = Scene(game name, position, position before, orders drawn, units lost)
    attachments(game_map, scene)  -> the PNG and the SVG, for a mail
"""

from __future__ import annotations

import logging
from collections import deque
from functools import partial

from engine.diplomap.state import map_changes
from engine.map import GameMap
from engine.variants import rules_for
from judge.maps.board import PIXELS_WIDE
from judge.maps.hexboard import hexboard_svg
from judge.maps.layers import layered_png
from judge.maps.render import (
    phase_png,
    render_png,
    render_svg,
    svg_to_pdf,
    with_board,
)
from judge.maps.scene import Scene
from judge.maps.views import has_views, pictures

log = logging.getLogger(__name__)

Attachment = tuple[str, str, bytes]  # file name, MIME type, data


def file_stem(scene: Scene) -> str:
    return f"{scene.game}-{scene.phase}"


def attachments(game_map: GameMap, scene: Scene, *, full: bool = False
                ) -> tuple[Attachment, ...]:
    """The map as a PNG (what mail clients show) and as SVG. A board with
    views (judge/maps/views.py) is attached as an overview and a PNG per
    view, each readable at mail size; its whole SVG (400 KB for
    Intercontinental) only with ``full``, as MAP asks."""
    stem = file_stem(scene)
    if has_views(game_map):
        files = tuple((f"{stem}{suffix}.png", "image/png", png)
                      for suffix, png in pictures(game_map, scene))
        if full:
            files += ((f"{stem}.svg", "image/svg+xml", render_svg(game_map, scene).encode()),)
        return files
    drawn = render_svg(game_map, scene, static=False)  # drawn once for both
    changes = map_changes(scene.position)  # Diplomap's board, if it has changed
    whole = with_board(game_map, drawn, changes)
    return ((f"{stem}.png", "image/png", phase_png(game_map, drawn, changes)),
            (f"{stem}.svg", "image/svg+xml", whole.encode("utf-8")))


def _other_board_svg(game_map: GameMap, scene: Scene) -> tuple[str, str] | None:
    """The variant's other board's SVG and file stem, if it has one."""
    board = rules_for(game_map).other_board(game_map, scene.position, scene.other_board)
    if board is None:
        return None
    svg = hexboard_svg(game_map, board, f"{scene.game}: {board.title}, {scene.phase}")
    return svg, f"{file_stem(scene)}-{board.title.lower().replace(' ', '-')}"


def other_board_attachments(game_map: GameMap, scene: Scene) -> tuple[Attachment, ...]:
    """The variant's other board (Dissolution's Favor map) as PNG and SVG, if it has one."""
    drawn = _other_board_svg(game_map, scene)
    if drawn is None:
        return ()
    svg, stem = drawn
    return ((f"{stem}.png", "image/png", _other_board_png(svg)),
            (f"{stem}.svg", "image/svg+xml", svg.encode("utf-8")))


def render_other_board(game_map: GameMap, scene: Scene, kind: str) -> bytes | None:
    """The variant's other board as ``kind`` (svg, png or pdf); None without one."""
    drawn = _other_board_svg(game_map, scene)
    if drawn is None:
        return None
    svg = drawn[0]
    if kind == "png":
        return _other_board_png(svg)
    return svg_to_pdf(svg) if kind == "pdf" else svg.encode("utf-8")


def _other_board_png(svg: str) -> bytes:
    return layered_png(svg, PIXELS_WIDE)


# Maps drawn ahead of the transaction that mails them (judge.deadline_workers),
# the last few of this process: a map is a pure function of its board and
# scene, so a scene equal to one drawn ahead has its maps already.
_DRAWN_AHEAD: deque[tuple[GameMap, Scene, tuple[Attachment, ...]]] = deque(maxlen=2)


def draw_ahead(game_map: GameMap, scene: Scene) -> None:
    """Draw a results mail's maps now, for :func:`attachments_or_none` to
    take if it is asked for the same scene soon (before a transaction that
    would otherwise draw them while holding SQLite's one write lock)."""
    _DRAWN_AHEAD.append((game_map, scene, attachments_or_none(game_map, scene)))


def _drawn_already(game_map: GameMap, scene: Scene) -> tuple[Attachment, ...] | None:
    for drawn_map, drawn_scene, files in reversed(_DRAWN_AHEAD):
        # the scene first: another game's differs in its name at once
        if drawn_scene == scene and (drawn_map is game_map or drawn_map == game_map):
            return files
    return None


def attachments_or_none(game_map: GameMap, scene: Scene, *, full: bool = False
                        ) -> tuple[Attachment, ...]:
    """As :func:`attachments` (and the other board's, if any), but a map
    that cannot be drawn is logged and left out: results must reach the
    players with or without their maps."""
    if not full and (drawn := _drawn_already(game_map, scene)) is not None:
        return drawn
    out: tuple[Attachment, ...] = ()
    for draw in (partial(attachments, full=full), other_board_attachments):
        try:
            out += draw(game_map, scene)
        except Exception:
            log.exception("could not draw the map of %s %s", scene.game, scene.phase)
    return out


def render(game_map: GameMap, scene: Scene, kind: str) -> bytes:
    """The map as ``kind``: svg, png or pdf."""
    if kind == "png":
        return render_png(game_map, scene)
    svg = render_svg(game_map, scene)
    return svg_to_pdf(svg) if kind == "pdf" else svg.encode("utf-8")


__all__ = ["Attachment", "Scene", "attachments", "attachments_or_none", "draw_ahead",
           "file_stem", "other_board_attachments", "render", "render_other_board"]
