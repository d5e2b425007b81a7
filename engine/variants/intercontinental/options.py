"""A game's own settings (a GM's CREATE lines): ``suez YEAR``, the year the
canal opens (§5.2: 1870; the text lets a GM pick another for a shorter game),
and ``year_cap YEAR`` or ``year_cap none`` (§2.2: optional; fifteen years is
the text's advice, 1880). Each becomes the map's table the rules already read
(``[suez_canal]`` opens, ``[year_cap]`` last_year), so a game's settings and a
GM's edited variant file take the same path.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from engine.map import GameMap
from engine.phase import Phase
from engine.variants.intercontinental import suez, victory

KEYS = ("suez", "year_cap")
LAST = 9999  # the phase format's years have four digits


def read(game_map: GameMap, key: str, value: str) -> str:
    """The setting's value as the game keeps it; ValueError with the reason."""
    first = Phase.parse(game_map.start, game_map.flow).year
    text = value.strip().lower()
    if key == "year_cap" and text in ("none", "no", "off"):
        return "none"
    if key not in KEYS:
        raise ValueError(f"unknown setting {key!r}; this variant's own are "
                         + ", ".join(KEYS))
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{value!r} is not a year"
                         + (" (or none)" if key == "year_cap" else ""))
    year = int(text)
    # a canal open from the first Spring would leave no Winter to move the
    # fleets on Suez's two coasts into the canal (§5.2)
    least = first + 1 if key == "suez" else first
    if not least <= year <= LAST:
        raise ValueError(f"{key} is a year from {least} to {LAST}")
    return str(year)


def offered(game_map: GameMap) -> tuple[tuple[str, str], ...]:
    """Each setting with the values ``read`` takes, for the manual and HELP."""
    first = Phase.parse(game_map.start, game_map.flow).year
    return (("suez", f"a year from {first + 1} to {LAST} (the canal opens; §5.2: 1870)"),
            ("year_cap", f"a year from {first} to {LAST}, or none (the last year; "
                         "§2.2 advises 1880)"))


@lru_cache(maxsize=64)
def with_options(game_map: GameMap, options: tuple[tuple[str, str], ...]) -> GameMap:
    """The map with the game's settings as its tables. Cached: the judge asks
    for a game's map on every mail, and the canal form is derived from it."""
    settings = dict(options)
    tables: dict[str, Any] = dict(game_map.tables)
    if "suez" in settings:
        tables[suez.TABLE] = {**tables[suez.TABLE], "opens": int(settings["suez"])}
    if settings.get("year_cap") == "none":
        tables.pop(victory.TABLE, None)
    elif "year_cap" in settings:
        tables[victory.TABLE] = {"last_year": int(settings["year_cap"])}
    return replace(game_map, tables=tables)
