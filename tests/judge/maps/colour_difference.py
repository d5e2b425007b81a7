"""CIEDE2000, the CIE's colour difference (Sharma, Wu and Dalal, 2005):
about 1 where an observer just tells two colours apart side by side; the
maps' tests ask for a clear margin between fills a player must tell apart
at a glance in a small region."""

from __future__ import annotations

import math


def _lab(colour: str) -> tuple[float, float, float]:
    """#rrggbb (sRGB, D65) as CIELAB."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(first: str, second: str) -> float:
    l1, a1, b1 = _lab(first)
    l2, a2, b2 = _lab(second)
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dl, dc = l2 - l1, c2 - c1
    dh = 0.0
    if c1 * c2:
        dh = h2 - h1
        dh -= 360 if dh > 180 else -360 if dh < -180 else 0
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    h_mean = h1 + h2
    if c1 * c2:
        h_mean = (h1 + h2) / 2 if abs(h1 - h2) <= 180 else (
            (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2)
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * c_mean
    sh = 1 + 0.015 * c_mean * t
    rt = (-2 * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
          * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dh * 0 + big_dh / sh) ** 2
                     + rt * (dc / sc) * (big_dh / sh))


def over(colour: str, ground: str, opacity: float) -> str:
    """``colour`` laid at ``opacity`` over ``ground``: what the eye sees."""
    mix = [round(int(colour[i:i + 2], 16) * opacity + int(ground[i:i + 2], 16) * (1 - opacity))
           for i in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in mix)
