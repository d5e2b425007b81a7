"""The facts Intercontinental's rule text gives about powers and centres,
read from ``engine/variants/intercontinental_facts.toml``.

The facts file is data, not a playable variant file (the board is
intercontinental.toml; the rules are this package's ``__init__``). This
module only turns it into frozen dataclasses so that code and tests can use
the facts without touching raw TOML. The checks that the facts agree with each
other (counts, ownership, the §3 assignment) live in the tests, which
compare the file with what the rule text states.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

THEATRES = ("Africa", "Europe", "Americas", "Asia")
UNIT_TYPES = ("A", "F")
FACTS_FILE = "intercontinental_facts.toml"


class FactsError(ValueError):
    """The facts file does not have the shape this loader expects."""


@dataclass(frozen=True)
class Unit:
    """A starting unit: "A" or "F", its centre, and its coast if the text states one."""

    unit: str
    centre: str
    coast: str | None = None


@dataclass(frozen=True)
class Power:
    """A major power (§6)."""

    code: str
    name: str
    section: str
    theatre: str
    fixed: bool                  # "Always assigned to ..." (True) or "Can be assigned to ..."
    groups: tuple[str, ...]      # the colour groups §6 allows
    units: tuple[Unit, ...]      # one per home supply centre
    map_colour: str | None = None  # only the Dutch East Indies (§6.12)

    @property
    def homes(self) -> tuple[str, ...]:
        return tuple(unit.centre for unit in self.units)


@dataclass(frozen=True)
class ColourGroup:
    """A player's colour group (§1.2) and the powers §3.1 fixes in it, by theatre."""

    name: str
    section: str
    preassigned: dict[str, str]


@dataclass(frozen=True)
class AssignmentRule:
    """One of §3.2-§3.5: these powers go, one each, to these groups."""

    section: str
    theatre: str
    powers: tuple[str, ...]
    groups: tuple[str, ...]
    never: tuple[str, ...] = ()
    # The listed groups that an earlier rule of the theatre has not taken.
    to_groups_left: bool = False


@dataclass(frozen=True)
class Minor:
    """A minor neutral (§7): one stationary unit in one centre."""

    unit: Unit
    region: str
    section: str

    @property
    def centre(self) -> str:
        return self.unit.centre


@dataclass(frozen=True)
class Affiliate:
    """An affiliate (§8). Exactly one of ``sponsor`` (a colour group) and
    ``sponsor_follows`` (a major power whose group is the sponsor) is set."""

    unit: Unit
    section: str
    colour: str
    sponsor: str | None
    sponsor_follows: str | None
    possible_sponsors: tuple[str, ...]

    @property
    def centre(self) -> str:
        return self.unit.centre


@dataclass(frozen=True)
class StatedCount:
    """A count as the text states it; ``low == high`` unless it gives a range."""

    low: int
    high: int
    section: str


@dataclass(frozen=True)
class Discrepancy:
    """A place where the text disagrees with itself, and what the file uses."""

    sections: tuple[str, ...]
    fact: str
    says: tuple[str, ...]
    resolution: str


@dataclass(frozen=True)
class OtherLocation:
    """A place the text names that is not a supply centre."""

    name: str
    sections: tuple[str, ...]
    kind: str
    label: str  # as written on the map, e.g. "East Mediterranean Sea [EMS]"


@dataclass(frozen=True)
class Suez:
    """§5.2: split coasts (coast -> the sea it touches) until the canal opens."""

    section: str
    canal_opens: int
    coasts: dict[str, str]


@dataclass(frozen=True)
class Facts:
    powers: dict[str, Power]
    groups: dict[str, ColourGroup]
    assignment_rules: tuple[AssignmentRule, ...]
    minors: tuple[Minor, ...]
    affiliates: tuple[Affiliate, ...]
    supply_centres: tuple[str, ...]
    stated_counts: dict[str, StatedCount]
    discrepancies: tuple[Discrepancy, ...]
    antipodal_seas: tuple[str, ...]
    wrap_adjacent: tuple[tuple[str, str], ...]
    suez: Suez
    other_locations: dict[str, OtherLocation]
    unnamed_abbreviations: tuple[str, ...]
    abbreviations: dict[str, str]
    # Not from the rules: the project's provisional geography (see the file).
    coordinates: dict[str, tuple[float, float]]

    def centre_owners(self) -> dict[str, list[str]]:
        """Every centre named by §6, §7 or §8, with who starts in it (a power
        code, "minor" or "affiliate"); a correct file has one owner each."""
        owners: dict[str, list[str]] = {}
        for power in self.powers.values():
            for home in power.homes:
                owners.setdefault(home, []).append(power.code)
        for minor in self.minors:
            owners.setdefault(minor.centre, []).append("minor")
        for affiliate in self.affiliates:
            owners.setdefault(affiliate.centre, []).append("affiliate")
        return owners

    def location_label(self, name: str) -> str:
        other = self.other_locations.get(name)
        return other.label if other else name


def _unit(raw: Any) -> Unit:
    if raw["unit"] not in UNIT_TYPES:
        raise FactsError(f"unit type {raw['unit']!r} at {raw['centre']!r}")
    return Unit(unit=raw["unit"], centre=raw["centre"], coast=raw.get("coast"))


def _count(raw: Any) -> StatedCount:
    low = raw.get("min", raw.get("count"))
    high = raw.get("max", raw.get("count"))
    return StatedCount(low=int(low), high=int(high), section=raw["section"])


def _power(code: str, raw: Any) -> Power:
    if raw["theatre"] not in THEATRES:
        raise FactsError(f"{code}: unknown theatre {raw['theatre']!r}")
    return Power(
        code=code,
        name=raw["name"],
        section=raw["section"],
        theatre=raw["theatre"],
        fixed=bool(raw["fixed"]),
        groups=tuple(raw["groups"]),
        units=tuple(_unit(unit) for unit in raw["units"]),
        map_colour=raw.get("map_colour"),
    )


def _affiliates(block: Any) -> list[Affiliate]:
    sponsor = block.get("sponsor")
    follows = block.get("sponsor_follows")
    if (sponsor is None) == (follows is None):
        raise FactsError(f"§{block['section']}: give exactly one of sponsor, sponsor_follows")
    possible = tuple(block.get("possible_sponsors", [sponsor] if sponsor else []))
    return [
        Affiliate(unit=_unit(raw), section=block["section"], colour=block["colour"],
                  sponsor=sponsor, sponsor_follows=follows, possible_sponsors=possible)
        for raw in block["centres"]
    ]


def parse_facts(text: str) -> Facts:
    data = tomllib.loads(text)
    others = {
        name: OtherLocation(name=name, sections=tuple(raw["sections"]), kind=raw["kind"],
                            label=raw.get("label", name))
        for name, raw in data["other_locations"].items()
    }
    return Facts(
        powers={code: _power(code, raw) for code, raw in data["powers"].items()},
        groups={
            name: ColourGroup(name=name, section=raw["section"],
                              preassigned=dict(raw["preassigned"]))
            for name, raw in data["groups"].items()
        },
        assignment_rules=tuple(
            AssignmentRule(section=raw["section"], theatre=raw["theatre"],
                           powers=tuple(raw["powers"]), groups=tuple(raw["groups"]),
                           never=tuple(raw.get("never", [])),
                           to_groups_left=bool(raw.get("to_groups_left", False)))
            for raw in data["assignment_rules"]
        ),
        minors=tuple(
            Minor(unit=_unit(raw), region=block["region"], section=block["section"])
            for block in data["minors"] for raw in block["centres"]
        ),
        affiliates=tuple(a for block in data["affiliates"] for a in _affiliates(block)),
        supply_centres=tuple(data["supply_centres"]["names"]),
        stated_counts={name: _count(raw) for name, raw in data["stated_counts"].items()},
        discrepancies=tuple(
            Discrepancy(sections=tuple(raw["sections"]), fact=raw["fact"],
                        says=tuple(raw["says"]), resolution=raw["resolution"])
            for raw in data["discrepancies"]
        ),
        antipodal_seas=tuple(data["antipodal_seas"]["seas"]),
        wrap_adjacent=tuple((a, b) for a, b in data["antipodal_seas"]["wrap_adjacent"]),
        suez=Suez(section=data["suez"]["section"], canal_opens=int(data["suez"]["canal_opens"]),
                  coasts=dict(data["suez"]["coasts"])),
        other_locations=others,
        unnamed_abbreviations=tuple(data["unnamed_abbreviations"]["abbreviations"]),
        abbreviations=dict(data["abbreviations"]),
        coordinates={name: (float(lat), float(lon))
                     for name, (lat, lon) in data["coordinates"].items()},
    )


_CACHE: list[Facts] = []


def load_facts() -> Facts:
    """The facts file shipped with the engine, parsed once."""
    if not _CACHE:
        resource = resources.files("engine") / "variants" / FACTS_FILE
        _CACHE.append(parse_facts(resource.read_text(encoding="utf-8")))
    return _CACHE[0]
