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
from typing import Any

from engine.map import GameMap
from engine.map_cache import per_map

Problems = list[tuple[tuple[str, ...], str]]

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

    @cached_property
    def powers(self) -> frozenset[str]:
        return frozenset(self.slices)

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


@per_map
def nuclear_powers(game_map: GameMap) -> NuclearPowers:
    """The map's nuclear powers, read from its ``[favor]`` table once."""
    nuclear, problems = read_nuclear(game_map)
    if problems:
        raise ValueError(f"the [favor] table has problems: {problems[0][1]}")
    return nuclear


def read_nuclear(game_map: GameMap) -> tuple[NuclearPowers, Problems]:
    """The nuclear powers the ``[favor]`` table names, and every problem in
    its ``slices``, ``partners`` and ``start`` tables."""
    problems: Problems = []
    raw = game_map.tables.get("favor")
    if not isinstance(raw, dict):
        return NuclearPowers({}), [(("favor",), "a [favor] table is needed")]
    slices = _slices(game_map, raw.get("slices"), problems)
    partners = _partners(game_map, raw.get("partners", {}), slices, problems)
    start = _start(game_map, raw.get("start"), slices, problems)
    return NuclearPowers(slices, partners, start), problems


def _slices(game_map: GameMap, raw: Any, problems: Problems) -> dict[str, str]:
    if not isinstance(raw, dict):
        problems.append((("favor", "slices"), "slices: a table LETTER = NUCLEAR_POWER"))
        return {}
    found: dict[str, str] = {}
    for letter, power in raw.items():
        path = ("favor", "slices", letter)
        if not _SLICE.match(letter):
            problems.append((path, "a Favor slice is one upper-case letter"))
        elif not isinstance(power, str) or power not in game_map.powers:
            problems.append((path, f"unknown power {power!r}"))
        elif not game_map.powers[power].ordered_by_bids:
            problems.append((path, f"{power} is played: a nuclear power is ordered by bids"))
        elif power in found:
            problems.append((path, f"{power} already has slice {found[power]}"))
        else:
            found[power] = letter
    return found


def _partners(game_map: GameMap, raw: Any, slices: Mapping[str, str],
              problems: Problems) -> dict[str, str]:
    if not isinstance(raw, dict):
        problems.append((("favor", "partners"), "partners: a table NUCLEAR_POWER = "
                                                "NUCLEAR_POWER"))
        return {}
    partners: dict[str, str] = {}
    for power, partner in raw.items():
        path = ("favor", "partners", power)
        if power not in slices:
            problems.append((path, f"{power} is not a nuclear power (it has no slice)"))
        elif not isinstance(partner, str) or partner not in slices:
            problems.append((path, f"a partner is a nuclear power: {partner!r} is not"))
        elif partner == power:
            problems.append((path, f"{power} cannot be its own partner"))
        else:
            partners[power] = partner
    return partners


def _start(game_map: GameMap, raw: Any, slices: Mapping[str, str],
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
        if not isinstance(values, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v in FAVOR_VALUES
                for v in values.values()):
            problems.append((path, "starting Favor is a table NUCLEAR_POWER = 0..5"))
            continue
        if slices and set(values) != set(slices):
            problems.append((path, "starting Favor must give a value for each of "
                                   f"{', '.join(sorted(slices))}"))
            continue
        start[power] = dict(values)
    if slices:
        for name, power in game_map.powers.items():
            if not power.ordered_by_bids and name not in raw:
                problems.append((("favor", "start"), f"no starting Favor for {name}"))
    return start
