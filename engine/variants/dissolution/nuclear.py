"""Who Dissolution's nuclear powers are, and what ties the other powers to
them (§8, §11): each nuclear power's slice of the Favor map, the partner
whose offences and permissions a nuclear power shares (the US Navy's is
NATO, §11.6.4), and each played power's starting Favor with every nuclear
power (§7).

These are facts of the ``[favor]`` table of the variant file, which only
these rules read; the core map knows a nuclear power only as a power
ordered by bids::

    [favor.slices]     # slice letter = nuclear power
    N = "NATO"
    [favor.partners]   # nuclear power = the nuclear power it partners
    US_NAVY = "NATO"
    [favor.start]      # played power = its starting Favor (0-5) with each
    EGYPT = { NATO = 2, US_NAVY = 1 }
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from engine.map import GameMap
from engine.map_cache import per_map

Problems = list[tuple[tuple[str, ...], str]]
T = TypeVar("T")

# the Favor of a power the file gives no starting value for, as an exile's
# counts (§5.3)
UNSTATED_FAVOR = 1
FAVOR_VALUES = range(0, 6)
_SLICE = re.compile(r"^[A-Z]$")


@dataclass(frozen=True, eq=False)
class NuclearPowers:
    # nuclear power -> its slice letter, in the order of [favor.slices] (the
    # Favor map's, slice by slice round the honeycomb)
    slices: Mapping[str, str]
    # nuclear power -> the nuclear power whose offences count against it too,
    # and for which its permission counts (§11.6.4)
    partners: Mapping[str, str] = field(default_factory=dict)
    # played power -> nuclear power -> Favor at the start of the game (§7)
    start: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def is_nuclear(self, power: str) -> bool:
        return power in self.slices

    def partner(self, power: str) -> str | None:
        return self.partners.get(power)

    @cached_property
    def _partnered_by(self) -> Mapping[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for power, partner in self.partners.items():
            out[partner] = (*out.get(partner, ()), power)
        return out

    def partnered_by(self, nuclear: str) -> tuple[str, ...]:
        """The powers that name ``nuclear`` as their partner: an offence
        against it offends them too, and their permission counts for it."""
        return self._partnered_by.get(nuclear, ())

    def granting(self, nuclear: str) -> frozenset[str]:
        """The powers whose help is ``nuclear``'s permission (§11.6.3-4)."""
        return frozenset((nuclear, *self.partnered_by(nuclear)))

    def starting_favor(self, power: str, nuclear: str) -> int:
        return self.start.get(power, {}).get(nuclear, UNSTATED_FAVOR)

    def territory(self, game_map: GameMap) -> Mapping[str, str]:
        """Province -> the nuclear power whose territory it is."""
        return {prov: nuclear for nuclear in self.slices
                for prov in game_map.powers[nuclear].territory}


def sound(found: tuple[T, Problems]) -> T:
    """What a reader of the ``[favor]`` table found, if it found no problem
    (a map in play was checked when it was loaded: a problem here is a bug)."""
    value, problems = found
    if problems:
        raise ValueError(f"the [favor] table has problems: {problems[0][1]}")
    return value


@per_map
def nuclear_powers(game_map: GameMap) -> NuclearPowers:
    """The map's nuclear powers, read from its ``[favor]`` table once."""
    return sound(read_nuclear(game_map))


def read_nuclear(game_map: GameMap) -> tuple[NuclearPowers, Problems]:
    """The nuclear powers the ``[favor]`` table names, and every problem in
    its ``slices``, ``partners`` and ``start`` tables."""
    problems: Problems = []
    raw = game_map.tables.get("favor")
    if not isinstance(raw, dict):
        return NuclearPowers({}), [(("favor",), "a [favor] table is needed")]
    slices, named = _slices(game_map, raw.get("slices"), problems)
    partners = _partners(raw.get("partners", {}), named, problems)
    start = _start(game_map, raw.get("start"), named, problems)
    return NuclearPowers(slices, partners, start), problems


def _slices(game_map: GameMap, raw: Any, problems: Problems
            ) -> tuple[dict[str, str], frozenset[str]]:
    """The slices, and every bid-ordered power named nuclear, its slice
    letter good or not: one slip is then reported once, not again for each
    table that names the power."""
    if not isinstance(raw, dict):
        problems.append((("favor", "slices"), "slices: a table LETTER = NUCLEAR_POWER"))
        return {}, frozenset()
    found: dict[str, str] = {}
    named: set[str] = set()
    for letter, power in raw.items():
        path = ("favor", "slices", letter)
        known = isinstance(power, str) and power in game_map.powers
        if known and game_map.powers[power].ordered_by_bids:
            named.add(power)
        if not _SLICE.match(letter):
            problems.append((path, "a Favor slice is one upper-case letter"))
        elif not known:
            problems.append((path, f"unknown power {power!r}"))
        elif not game_map.powers[power].ordered_by_bids:
            problems.append((path, f"{power} is played: a nuclear power is ordered by bids"))
        elif power in found:
            problems.append((path, f"{power} already has slice {found[power]}"))
        else:
            found[power] = letter
    return found, frozenset(named)


def _partners(raw: Any, nuclear: frozenset[str], problems: Problems) -> dict[str, str]:
    if not isinstance(raw, dict):
        problems.append((("favor", "partners"), "partners: a table NUCLEAR_POWER = "
                                                "NUCLEAR_POWER"))
        return {}
    partners: dict[str, str] = {}
    for power, partner in raw.items():
        path = ("favor", "partners", power)
        if power not in nuclear:
            problems.append((path, f"{power} is not a nuclear power (it has no slice)"))
        elif not isinstance(partner, str) or partner not in nuclear:
            problems.append((path, f"partner {partner!r} is not a nuclear power "
                                   "(it has no slice)"))
        elif partner == power:
            problems.append((path, f"{power} cannot be its own partner"))
        else:
            partners[power] = partner
    return partners


def _start(game_map: GameMap, raw: Any, nuclear: frozenset[str],
           problems: Problems) -> dict[str, dict[str, int]]:
    """Every played power's starting Favor, with exactly the nuclear powers."""
    if not isinstance(raw, dict):
        problems.append((("favor", "start"), "start: a table PLAYED_POWER = "
                                             "{ NUCLEAR_POWER = 0..5, ... }"))
        return {}
    start: dict[str, dict[str, int]] = {}
    for power, values in raw.items():
        path = ("favor", "start", power)
        if power not in game_map.powers:
            problems.append((path, f"unknown power {power!r}"))
            continue
        if game_map.powers[power].ordered_by_bids:
            problems.append((path, "only powers that players play have Favor"))
            continue
        if not isinstance(values, dict):
            problems.append((path, "starting Favor is a table { NUCLEAR_POWER = 0..5, ... }"))
            continue
        bad = [f"{n} = {v!r}" for n, v in values.items()
               if not (isinstance(v, int) and not isinstance(v, bool) and v in FAVOR_VALUES)]
        others = sorted(set(values) - nuclear)
        missing = sorted(nuclear - set(values))
        if bad:
            problems.append((path, f"{', '.join(bad)}: a Favor value is 0 to 5"))
        if others:
            problems.append((path, f"{', '.join(others)}: not a nuclear power"))
        if missing:
            problems.append((path, f"no starting Favor with {', '.join(missing)}"))
        if not (bad or others or missing):
            start[power] = dict(values)
    if nuclear:
        for name, power in game_map.powers.items():
            if not power.ordered_by_bids and name not in raw:
                problems.append((("favor", "start"), f"no starting Favor for {name}"))
    return start
