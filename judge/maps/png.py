"""Writing the maps' pictures as PNG, fast: a 3200-pixel map is 32 MB of
RGB, and its compression was most of the time a phase's map took.

The pictures are compressed with ISA-L's deflate (the isal package) when
it is installed: the same format as zlib's, about six times as fast at a
size within 5 % of zlib's level 3; without it, with zlib.
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import Callable
from typing import Protocol

import cairocffi
import numpy as np
from PIL import Image


class Deflater(Protocol):
    """What zlib's and ISA-L's compression objects both offer."""

    def compress(self, data: bytes | memoryview, /) -> bytes: ...

    def flush(self) -> bytes: ...


Compressor = Callable[[], Deflater]


def _compressor() -> tuple[str, Compressor]:
    try:
        from isal import isal_zlib
    except ImportError:  # zlib's level 3: about as small, six times the time
        return "zlib", lambda: zlib.compressobj(3)
    # ISA-L's level 1 makes a smaller file than its level 0 in the same
    # time; its level 3 takes five times as long for nothing smaller
    return "isal", lambda: isal_zlib.compressobj(1)


COMPRESSOR, compressor = _compressor()


def deflate(data: bytes | memoryview) -> bytes:
    """``data`` as a zlib stream, as a PNG's IDAT holds it."""
    stream = compressor()
    return stream.compress(data) + stream.flush()


BAND = 128  # rows converted and compressed at a time: a buffer used again, not 32 MB new


def rgb_png(surface: cairocffi.ImageSurface) -> bytes:
    """An opaque cairo picture as an RGB PNG, each row unfiltered: the
    picture's flat colours compress as well so, and filtering costs."""
    surface.flush()
    width, height, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    pixels = np.frombuffer(surface.get_data(), np.uint8).reshape(height, stride // 4, 4)
    rows = np.empty((min(BAND, height), width * 3 + 1), np.uint8)  # a row: filter 0, RGB
    rows[:, 0] = 0
    rgb = rows[:, 1:].reshape(len(rows), width, 3)
    # cairo keeps a pixel as one native-endian 32-bit word, xRGB: B, G, R, x in
    # memory here. A channel at a time: a copy each, where picking the three
    # at once (one fancy index) cost ten times as much
    channels = list(enumerate((2, 1, 0) if sys.byteorder == "little" else (1, 2, 3)))
    stream = compressor()
    compressed = []
    for top in range(0, height, BAND):
        band = pixels[top:top + BAND, :width]
        for channel, at in channels:
            rgb[:len(band), :, channel] = band[:, :, at]
        compressed.append(stream.compress(rows[:len(band)].data))
    compressed.append(stream.flush())
    return _png(width, height, 2, [], b"".join(compressed))


def palette_png(image: Image.Image) -> bytes:
    """A picture of mode P (a palette of at most 256 colours) as PNG, each
    row unfiltered: a palette's indices are not quantities to subtract."""
    width, height = image.size
    indices = np.asarray(image, np.uint8)
    rows = np.empty((height, width + 1), np.uint8)
    rows[:, 0] = 0
    rows[:, 1:] = indices
    palette = image.getpalette() or []
    used = int(indices.max()) + 1 if indices.size else 1
    return _png(width, height, 3, [_chunk(b"PLTE", bytes(palette[:used * 3]))],
                deflate(rows.data))


def _png(width: int, height: int, colour_type: int, extra: list[bytes],
         compressed: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"".join([b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), *extra,
                     _chunk(b"IDAT", compressed), _chunk(b"IEND", b"")])


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
