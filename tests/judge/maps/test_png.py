"""The maps' PNG writer (judge/maps/png.py): what it writes decodes to
the picture it was given, pixel for pixel, whichever compressor it uses."""

from __future__ import annotations

import io

import cairocffi
import numpy as np
from PIL import Image

from judge.maps.png import BAND, palette_png, rgb_png


def _surface(rng: np.random.Generator, width: int, height: int) -> cairocffi.ImageSurface:
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, width, height)
    context = cairocffi.Context(surface)
    for _ in range(40):  # flat rectangles, as a map has, and their edges
        r, g, b = rng.random(3)
        context.set_source_rgb(r, g, b)
        x, y = rng.integers(0, width), rng.integers(0, height)
        context.rectangle(x, y, rng.integers(1, width), rng.integers(1, height))
        context.fill()
    surface.flush()
    return surface


def test_an_rgb_png_is_the_picture_across_its_bands() -> None:
    # a height not a multiple of BAND: the last band is a short one
    width, height = 37, BAND * 2 + 45
    surface = _surface(np.random.default_rng(5), width, height)
    pixels = np.frombuffer(surface.get_data(), np.uint32).reshape(
        height, surface.get_stride() // 4)[:, :width]
    want = np.stack([(pixels >> 16) & 255, (pixels >> 8) & 255, pixels & 255], axis=2)
    png = Image.open(io.BytesIO(rgb_png(surface)))
    assert png.mode == "RGB" and png.size == (width, height)
    assert np.array_equal(np.asarray(png, np.uint32), want)


def test_a_palette_png_keeps_its_indices_and_colours() -> None:
    rng = np.random.default_rng(8)
    indices = rng.integers(0, 20, (90, 61), dtype=np.uint8)
    image = Image.fromarray(indices, "P")
    image.putpalette(list(rng.integers(0, 256, 20 * 3)))
    png = Image.open(io.BytesIO(palette_png(image)))
    assert png.mode == "P" and png.size == image.size
    assert np.array_equal(np.asarray(png), indices)
    assert np.array_equal(np.asarray(png.convert("RGB")), np.asarray(image.convert("RGB")))
