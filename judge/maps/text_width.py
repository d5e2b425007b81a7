"""How wide the maps' font sets a name: measured with cairo in the font the
pictures are drawn with (judge/maps/board.py FONTS), once per name."""

from __future__ import annotations

from functools import cache

import cairocffi

from judge.maps.board import FONTS


@cache
def advance(text: str, bold: bool) -> float:
    """How far the names' font sets ``text``, in font sizes (its width as
    text-anchor="middle" centres it)."""
    context = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_A8, 1, 1))
    context.select_font_face(FONTS.split(",")[0], cairocffi.FONT_SLANT_NORMAL,
                             cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL)
    context.set_font_size(100.0)
    return float(context.text_extents(text)[4]) / 100.0
