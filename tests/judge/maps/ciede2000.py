"""Colour difference as the eye judges it: CIEDE2000 (ΔE00), from its
published formula (CIE 142-2001; G. Sharma, W. Wu and E. N. Dalal, "The
CIEDE2000 colour-difference formula: implementation notes, supplementary
test data, and mathematical observations", Color Research & Application
30(1), 2005, whose equation numbers the comments give), with sRGB colours
taken to CIELAB under D65 (IEC 61966-2-1). The legibility checks
(legibility.py) hold players' colours apart with it.
"""

from __future__ import annotations

import math

Lab = tuple[float, float, float]

_WHITE = (95.047, 100.0, 108.883)  # D65, 2° observer: the sRGB white, Y = 100


def hex_rgb(colour: str) -> tuple[int, int, int]:
    """#rrggbb or #rgb as 0-255 channels."""
    text = colour.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(colour: str | tuple[int, int, int]) -> Lab:
    """An sRGB colour (#rrggbb, or channels) in CIELAB."""
    r, g, b = (_linear(c) for c in (hex_rgb(colour) if isinstance(colour, str) else colour))
    xyz = (100 * (0.4124564 * r + 0.3575761 * g + 0.1804375 * b),
           100 * (0.2126729 * r + 0.7151522 * g + 0.0721750 * b),
           100 * (0.0193339 * r + 0.1191920 * g + 0.9503041 * b))

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / n) for v, n in zip(xyz, _WHITE, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def blend(colour: str, under: str, opacity: float) -> tuple[int, int, int]:
    """``colour`` painted at ``opacity`` over ``under``, as the PNG shows it."""
    top, bottom = hex_rgb(colour), hex_rgb(under)
    return tuple(round(t * opacity + b * (1 - opacity))  # type: ignore[return-value]
                 for t, b in zip(top, bottom, strict=True))


def delta_e00(one: Lab, two: Lab) -> float:
    """ΔE00 between two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2  # (2), (3)
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))  # (4)
    a1p, a2p = (1 + g) * a1, (1 + g) * a2  # (5)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)  # (6)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if (b1 or a1p) else 0.0  # (7)
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if (b2 or a2p) else 0.0
    dl = l2 - l1  # (8)
    dc = c2p - c1p  # (9)
    if c1p * c2p == 0:  # (10)
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))  # (11)
    lp = (l1 + l2) / 2  # (12)
    cp = (c1p + c2p) / 2  # (13)
    if c1p * c2p == 0:  # (14)
        hp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp = (h1p + h2p + 360) / 2
    else:
        hp = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp - 30)) + 0.24 * math.cos(math.radians(2 * hp))
         + 0.32 * math.cos(math.radians(3 * hp + 6))
         - 0.20 * math.cos(math.radians(4 * hp - 63)))  # (15)
    dtheta = 30 * math.exp(-(((hp - 275) / 25) ** 2))  # (16)
    rc = 2 * math.sqrt(cp ** 7 / (cp ** 7 + 25 ** 7))  # (17)
    sl = 1 + 0.015 * (lp - 50) ** 2 / math.sqrt(20 + (lp - 50) ** 2)  # (18)
    sc = 1 + 0.045 * cp  # (19)
    sh = 1 + 0.015 * cp * t  # (20)
    rt = -math.sin(math.radians(2 * dtheta)) * rc  # (21)
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2
                     + rt * (dc / sc) * (dhh / sh))  # (22)


def difference(one: str | tuple[int, int, int], two: str | tuple[int, int, int]) -> float:
    """ΔE00 between two sRGB colours."""
    return delta_e00(lab(one), lab(two))
