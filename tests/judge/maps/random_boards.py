"""Random Diplomap boards for the map tests: up to four splits of distinct
provinces (each between two of its borders, or a loop on one) and perhaps a
merge of two untouched neighbouring land provinces that are not both
centres. One recipe, chosen by a seeded ``random.Random`` (the legibility
sample) or by Hypothesis (the property tests of test_redrawn.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from hypothesis import strategies as st

from engine.diplomap.values import Anchor, MapChange, Merge, Split
from engine.map import GameMap

T = TypeVar("T")


class Chooser(Protocol):
    def some(self, codes: Sequence[str], most: int) -> list[str]: ...
    def index(self, length: int) -> int: ...
    def coin(self) -> bool: ...
    def one(self, items: Sequence[tuple[str, str]]) -> tuple[str, str]: ...


class Seeded:
    """Choices from a seeded random.Random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def some(self, codes: Sequence[str], most: int) -> list[str]:
        return self.rng.sample(list(codes), self.rng.randint(1, most))

    def index(self, length: int) -> int:
        return self.rng.randrange(length)

    def coin(self) -> bool:
        return self.rng.random() < 0.5

    def one(self, items: Sequence[tuple[str, str]]) -> tuple[str, str]:
        return self.rng.choice(list(items))


class Drawn:
    """Choices Hypothesis draws (and shrinks)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def some(self, codes: Sequence[str], most: int) -> list[str]:
        return self.draw(st.lists(st.sampled_from(codes), min_size=1, max_size=most,
                                  unique=True))

    def index(self, length: int) -> int:
        return self.draw(st.integers(0, length - 1))

    def coin(self) -> bool:
        return self.draw(st.booleans())

    def one(self, items: Sequence[tuple[str, str]]) -> tuple[str, str]:
        return self.draw(st.sampled_from(items))


def random_changes(game_map: GameMap, choose: Chooser) -> tuple[MapChange, ...]:
    rings, provinces = game_map.rings, game_map.provinces

    def passable(code: str) -> bool:
        return code not in provinces or provinces[code].terrain.value != "impassable"

    codes = sorted(c for c in rings if passable(c))
    changes: list[MapChange] = []
    for n, code in enumerate(choose.some(codes, 4), start=1):
        ring = [w for w in rings[code] if passable(w)]
        i, j = choose.index(len(ring)), choose.index(len(ring))
        if ring.count(ring[i]) > 1 or ring.count(ring[j]) > 1:
            continue  # a border met in two places: the engine refuses such a line
        loop = i == j
        start = Anchor(code, ring[i], 1 / 3 if loop else 0.5)
        end = Anchor(code, ring[j], 2 / 3 if loop else 0.5)
        centre = f"{code}-A" if provinces[code].is_centre else None
        changes.append(Split(code, (f"{code}-A", f"{code}-B"), (code, code), n, start, end,
                             code, loop, centre))
    split = {c.province for c in changes if isinstance(c, Split)}
    land = [c for c in codes if c not in split and provinces[c].terrain.value != "water"]
    pairs = [(a, b) for a in land for b in rings[a] if b in land and a < b
             and not (provinces[a].is_centre and provinces[b].is_centre)]
    if pairs and choose.coin():
        a, b = choose.one(pairs)
        changes.append(Merge((a, b), f"{a}+{b}", f"{a}+{b}"))
    return tuple(changes)
