"""Kinds of unit as a variant file describes them: ``[kinds.X]`` tables
(docs/variants.md, "Kinds of unit").

A kind's traits are data: where its units stand, which adjacency they
follow, where they convoy from, whether they may be convoyed, whether they
are stationary. A file that does not describe armies or fleets uses the
standard game's (engine/variants/standard.toml), so that most maps need not
repeat them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from engine.map import KindTraits, Reach, Terrain, UnitKind

# (table path, key or None, message): how the loader collects a problem
Problem = Callable[[tuple[str, ...], str | None, str], None]

_FOLLOWS = {
    "army": Reach.ARMY,  # the provinces' `army` lists
    "fleet": Reach.FLEET,  # the `fleet` lists, coast by coast
    "any": Reach.ANY,  # every neighbouring province, land or sea, coasts ignored
    "none": Reach.NONE,  # never on the geographic board
}
_STANDABLE = {t.value: t for t in Terrain if t is not Terrain.IMPASSABLE}
_FLAGS = ("convoyable", "stationary", "convoy_relay")
_KEYS = frozenset({"stands_on", "follows", "convoys_from", *_FLAGS})
# what each adjacency has lists for: a kind cannot stand where its lists do not go
_LISTED = {
    Reach.ARMY: frozenset({Terrain.LAND, Terrain.COASTAL}),
    Reach.FLEET: frozenset({Terrain.WATER, Terrain.COASTAL}),
    Reach.ANY: frozenset(_STANDABLE.values()),
    Reach.NONE: frozenset(),
}


def kind_traits(problem: Problem, path: tuple[str, ...], letter: str,
                entry: Any) -> tuple[UnitKind, KindTraits] | None:
    """The kind a [kinds.X] table describes and its traits, or None (with
    each problem reported at its key)."""
    try:
        kind = UnitKind(letter)
    except ValueError:
        known = ", ".join(k.value for k in UnitKind)
        problem(path, None, f"no kind of unit {letter!r}: the engine knows {known}")
        return None
    if not isinstance(entry, dict):
        problem(path, None, "must be a table")
        return None
    for key in sorted(set(entry) - _KEYS):
        problem(path, key, f"unknown key {key!r}; a kind has {', '.join(sorted(_KEYS))}")
    stands_on = _terrains(problem, path, entry, "stands_on")
    convoys_from = _terrains(problem, path, entry, "convoys_from")
    flags: dict[str, bool] = {}
    for key in _FLAGS:
        value = entry.get(key, False)
        if not isinstance(value, bool):
            problem(path, key, f"{key} is true or false")
            value = False
        flags[key] = value
    written = entry.get("follows")
    follows = _FOLLOWS.get(written) if isinstance(written, str) else None
    if follows is None:
        problem(path, "follows", f"follows is one of {', '.join(_FOLLOWS)}")
        return None
    if follows is Reach.NONE:
        if stands_on or convoys_from or flags["convoyable"]:
            problem(path, "follows", "a kind that follows no adjacency is not on the "
                    "board: it stands nowhere, convoys nothing and is not convoyed")
    elif not stands_on:
        problem(path, "stands_on", "stands_on lists where its units stand: land, coastal, "
                "water")
    elif stands_on - _LISTED[follows]:
        problem(path, "stands_on", f"the {written} lists go nowhere in "
                f"{', '.join(sorted(t.value for t in stands_on - _LISTED[follows]))}")
    if convoys_from - stands_on:
        problem(path, "convoys_from", "a kind convoys only from where it stands")
    if flags["convoy_relay"] and not convoys_from:
        problem(path, "convoy_relay", "convoy_relay is for a kind that convoys")
    return kind, KindTraits(stands_on, follows, convoys_from, flags["convoyable"],
                            flags["stationary"], flags["convoy_relay"])


def _terrains(problem: Problem, path: tuple[str, ...], entry: Mapping[str, Any],
              key: str) -> frozenset[Terrain]:
    raw = entry.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(t, str) and t in _STANDABLE
                                            for t in raw):
        problem(path, key, f"{key} is a list among {', '.join(_STANDABLE)}")
        return frozenset()
    return frozenset(_STANDABLE[t] for t in raw)


@cache
def standard_kinds() -> Mapping[UnitKind, KindTraits]:
    """The standard game's kinds ([kinds.A], [kinds.F] of standard.toml):
    those of every file that does not describe its own."""
    text = (resources.files("engine") / "variants" / "standard.toml").read_text(
        encoding="utf-8")
    raw = tomllib.loads(text).get("kinds", {})
    found: list[str] = []

    def problem(path: tuple[str, ...], key: str | None, message: str) -> None:
        found.append(".".join((*path, *([key] if key else []))) + f": {message}")

    kinds = [kind_traits(problem, ("kinds", letter), letter, entry)
             for letter, entry in raw.items()]
    if found:  # a shipped file: a broken one is the project's bug, not a GM's
        raise ValueError("standard.toml: " + "; ".join(found))
    return dict(k for k in kinds if k is not None)
