"""The board: provinces, coasts, supply centres and who may move where.

A *location* is where a unit stands: a province code (``PAR``) or, for a
fleet on a two-coast province, the province and coast (``STP/SC``).
Adjacency is kept per unit kind, and for fleets per location, because a
fleet on Spain's south coast cannot reach the Bay of Biscay side.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from engine.flow import STANDARD_FLOW, Flow


class UnitKind(StrEnum):
    """The kinds of unit the engine knows, by the letter orders write.

    What each kind may do (where it stands, which adjacency it follows,
    convoys...) is not here: every variant file describes the kinds it uses
    (``[kinds.X]``, engine/variant_file.py) and the map answers for them
    (``GameMap.traits``)."""

    ARMY = "A"
    FLEET = "F"
    WING = "W"  # Dissolution's air base
    EMBASSY = "E"  # Dissolution's unit of the Favor map, orders of its own (parser/embassy.py)

    @property
    def noun(self) -> str:
        return _NOUNS[self]


_NOUNS = {UnitKind.ARMY: "army", UnitKind.FLEET: "fleet", UnitKind.WING: "wing",
          UnitKind.EMBASSY: "embassy"}


class Terrain(StrEnum):
    LAND = "land"
    COASTAL = "coastal"
    WATER = "water"
    IMPASSABLE = "impassable"


class Reach(StrEnum):
    """Which adjacency a kind of unit follows."""

    ARMY = "army"  # land borders
    FLEET = "fleet"  # coasts and seas, per coast
    ANY = "any"  # every neighbouring land and sea province, coasts ignored
    NONE = "none"  # not on the geographic board


@dataclass(frozen=True, slots=True)
class KindTraits:
    """What a kind of unit may do, as the variant file says (``[kinds.X]``):
    every rule about unit kinds reads this instead of naming armies and fleets."""

    stands_on: frozenset[Terrain]  # empty: never on the geographic board
    follows: Reach  # which adjacency its moves follow
    convoys_from: frozenset[Terrain] = frozenset()  # where a unit of this kind can convoy from
    convoyable: bool = False  # may be carried by a convoy
    stationary: bool = False  # its moves always bounce (a sortie)
    convoy_relay: bool = False  # reaches every other unit of its kind for convoys


_NOWHERE: frozenset[str] = frozenset()


def province_of(location: str) -> str:
    """The province part of a location: ``STP/SC`` -> ``STP``."""
    return location.partition("/")[0]


def coast_of(location: str) -> str | None:
    slash = location.find("/")
    return None if slash < 0 else location[slash + 1 :]


@dataclass(frozen=True, slots=True)
class SupplyCentre:
    """What a supply centre is worth, and the variant's marks on it."""

    value: int = 1
    flags: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Province:
    """A province of the board: its code, name, terrain and coasts."""

    code: str
    name: str
    terrain: Terrain
    coasts: tuple[str, ...] = ()  # coast codes (NC, SC...) of a two-coast province
    centre: SupplyCentre | None = None

    @property
    def is_centre(self) -> bool:
        return self.centre is not None


@dataclass(frozen=True, slots=True)
class Canal:
    """A passage for fleets through ``province`` to each of ``connects``.

    Without ``opens`` it only documents adjacencies already in the fleet
    lists; with ``opens`` those adjacencies exist from that year on.
    """

    province: str
    connects: tuple[str, ...]
    opens: int | None = None


# a colour as variant files give it ('#1f4e9c'): a power's, a Favor slice's tint
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True, slots=True)
class Power:
    """A power as the variant file describes it: its names, homes and units."""

    name: str
    adjective: str
    letter: str
    home: tuple[str, ...]
    units: tuple[tuple[UnitKind, str], ...]
    centres: tuple[str, ...]
    territory: tuple[str, ...] = ()  # the provinces of its country (two-player game)
    colour: str | None = None  # "#rrggbb" on maps; the judge picks one when None
    # -- what variants change (docs/variants.md, "Powers nobody plays") --
    ordered_by_bids: bool = False  # a neutral power steered by Diplomacy Point bids
    stationary: bool = False  # all its units are stationary (their moves are sorties)
    invulnerable: bool = False  # its units are disabled, never dislodged
    captures: bool = True  # its units take supply centres they stand on
    barred: frozenset[str] = frozenset()  # provinces its units may not enter
    friends: tuple[str, ...] = ()  # powers it never attacks (nor helps attack)
    default_order: str = "hold"  # a bid-ordered unit's order when no bid wins
    title: str = ""  # its name in prose ('US Navy', 'NATO'), where its key's words mislead
    # a DPJudge DUMMY power: no player takes it, it sits in no seat, and its
    # units hold unless ordered (engine/flags.py: CD_DUMMIES, IMMOBILE_DUMMIES)
    dummy: bool = False

    @property
    def name_in_prose(self) -> str:
        """'US Navy' where the variant says so, else 'Saudi Arabia' from SAUDI_ARABIA."""
        return self.title or self.name.replace("_", " ").title()


@dataclass(frozen=True, slots=True)
class WayToPlay:
    """How the variant is played by fewer players than it has seats: who
    plays which powers (powers in no seat are not played), and what else
    changes (the rulebook's two-player game)."""

    seats: tuple[tuple[str, ...], ...]
    start: str | None = None  # another first phase
    victory: int | None = None  # another victory condition
    victory_by_player: bool = False  # centres counted per player, not per power
    coin_toss: str | None = None  # an unplayed power whose territory is closed until
    # the end of the first Fall, when it joins a player by a coin toss


Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class View:
    """A region of a large board drawn as a picture of its own, so that its
    names can be read at mail size (Intercontinental's theatres)."""

    name: str  # in the picture's file name: icg-S1870M-europe.png
    title: str  # written on the picture and on the overview's frame
    box: tuple[float, float, float, float]  # left, top, right, bottom, in map units


@dataclass(frozen=True, slots=True)
class Drawing:
    """Where the pieces go when the board is drawn: x to the right and y
    downwards, in the map's own units (points, on the standard artwork).

    The rules never look at this; it lives in the variant file so that a
    map and its drawing cannot drift apart. Without ``artwork`` the judge
    draws a schematic map, at ``units`` if given, else at a layout of its own.
    """

    artwork: str | None = None  # a file the judge ships (judge/maps/artwork)
    size: Point | None = None  # width and height of the drawing
    units: Mapping[str, Point] = field(default_factory=dict)  # location -> unit
    labels: Mapping[str, Point] = field(default_factory=dict)  # province -> its name
    centres: Mapping[str, Point] = field(default_factory=dict)  # province -> centre marker
    views: tuple[View, ...] = ()  # regions drawn on their own at mail size ([[map.views]])
    notice: str | None = None  # what the picture says of itself ('reconstructed board...')
    # draw the board with the points spread apart for room (judge/maps/geographic.py)
    spread: bool = False


@dataclass(frozen=True, eq=False)
class GameMap:
    """An immutable map. Built by :mod:`engine.variant_file`; queried everywhere."""

    name: str
    title: str
    start: str
    victory: int
    provinces: Mapping[str, Province]
    powers: Mapping[str, Power]
    army_moves: Mapping[str, frozenset[str]]  # province -> provinces
    fleet_moves: Mapping[str, frozenset[str]]  # location -> locations
    aliases: Mapping[str, str]  # normalised spelling -> location code
    power_aliases: Mapping[str, str]  # normalised spelling -> power name
    canals: tuple[Canal, ...] = ()
    borders: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # Players and the powers each controls, for variants played that way
    # (Intercontinental's colour groups); by default one power per player.
    seats: tuple[tuple[str, tuple[str, ...]], ...] = ()
    drawing: Drawing = field(default_factory=Drawing)
    ways_to_play: Mapping[int, WayToPlay] = field(default_factory=dict)  # by players
    rules: str = "standard"  # the rules module (engine/variants/NAME.py) the game follows
    # Top-level tables of the file that only the rules module reads (Dissolution's
    # [favor] board), as TOML gave them; the rules module checks them on loading.
    tables: Mapping[str, Any] = field(default_factory=dict)
    kinds: tuple[UnitKind, ...] = (UnitKind.ARMY, UnitKind.FLEET)  # kinds of unit on the board
    # what each kind described by the file may do, those on the board and the
    # others (Dissolution's Embassies): [kinds.X], or the standard game's
    kind_traits: Mapping[UnitKind, KindTraits] = field(default_factory=dict)
    # What each province's border touches, clockwise ([rings], engine/rings.py);
    # empty for a variant without rings. Diplomap splits provinces by it.
    rings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # DPJudge RULE flags in force, in the file's order ([variant] flags,
    # engine/flags.py): the standard rules' hooks read them (engine/flag_rules.py)
    flags: tuple[str, ...] = ()
    # the phases of a year ([variant] flow, DPJudge's FLOW: engine/flow.py)
    flow: Flow = STANDARD_FLOW

    # -- places -----------------------------------------------------------

    def traits(self, kind: UnitKind) -> KindTraits:
        """What a unit of this kind may do on this map."""
        return self.kind_traits[kind]

    def province(self, location: str) -> Province:
        return self.provinces[province_of(location)]

    def is_location(self, location: str) -> bool:
        prov = self.provinces.get(province_of(location))
        if prov is None:
            return False
        coast = coast_of(location)
        return coast is None or coast in prov.coasts

    def locations_of(self, province: str) -> tuple[str, ...]:
        """Every location in a province: itself, then its coasts."""
        prov = self.provinces[province]
        return (province, *(f"{province}/{c}" for c in prov.coasts))

    @cached_property
    def bid_powers(self) -> frozenset[str]:
        """The neutral powers whose units obey Diplomacy Point bids."""
        return frozenset(n for n, p in self.powers.items() if p.ordered_by_bids)

    @cached_property
    def dummies(self) -> frozenset[str]:
        """The DUMMY powers: in no seat, no player takes them."""
        return frozenset(n for n, p in self.powers.items() if p.dummy)

    @cached_property
    def non_capturing(self) -> frozenset[str]:
        """Powers whose units never take supply centres."""
        return frozenset(n for n, p in self.powers.items() if not p.captures)

    @cached_property
    def barred(self) -> Mapping[str, frozenset[str]]:
        """Power -> the provinces its units may not enter, for powers with any."""
        return {n: p.barred for n, p in self.powers.items() if p.barred}

    @cached_property
    def has_special_units(self) -> bool:
        """Are some units stationary or invulnerable (by kind or by power)?"""
        return any(self.traits(k).stationary for k in self.kinds) or any(
            p.stationary or p.invulnerable for p in self.powers.values())

    @cached_property
    def supply_centres(self) -> frozenset[str]:
        return frozenset(p.code for p in self.provinces.values() if p.centre is not None)

    def can_stand(self, kind: UnitKind, location: str) -> bool:
        """Whether a unit of this kind may occupy this exact location."""
        if not self.is_location(location):
            return False
        prov = self.province(location)
        traits = self.traits(kind)
        if prov.terrain not in traits.stands_on:
            return False
        if traits.follows is not Reach.FLEET or prov.terrain is Terrain.WATER:
            return coast_of(location) is None
        # a fleet on a two-coast province must name its coast
        return (coast_of(location) is None) == (not prov.coasts)

    # -- movement ---------------------------------------------------------

    def adjacent(self, kind: UnitKind, src: str, dst: str) -> bool:
        """Can a unit of this kind move from location src to location dst?"""
        if self.traits(kind).follows is Reach.FLEET:  # coast to coast
            return dst in self.fleet_moves.get(src, frozenset())
        return province_of(dst) in self.province_neighbours(kind, src)

    def reaches_province(self, kind: UnitKind, src: str, province: str) -> bool:
        """Can the unit reach some location of ``province`` (coast ignored)?"""
        return province in self.province_neighbours(kind, src)

    def province_neighbours(self, kind: UnitKind, src: str) -> frozenset[str]:
        """The provinces a unit of this kind at src can reach, coasts ignored."""
        return self._reach[kind].get(src, _NOWHERE)

    @cached_property
    def _reach(self) -> Mapping[UnitKind, Mapping[str, frozenset[str]]]:
        """Kind -> location -> the provinces a unit of that kind there can
        reach, coasts ignored: asked for every support and convoy."""
        locations = [loc for code in self.provinces for loc in self.locations_of(code)]
        return {kind: {loc: self._neighbours_of(kind, loc) for loc in locations}
                for kind in self.kind_traits}

    def _neighbours_of(self, kind: UnitKind, src: str) -> frozenset[str]:
        reach = self.traits(kind).follows
        if reach is Reach.ARMY:
            return self.army_moves.get(province_of(src), frozenset())
        if reach is Reach.FLEET:
            return self._fleet_reach.get(src, frozenset())
        if reach is Reach.ANY:
            return self.province_graph.get(province_of(src), frozenset())
        return frozenset()

    @cached_property
    def _fleet_reach(self) -> Mapping[str, frozenset[str]]:
        """Location -> the provinces a fleet there can move into (any coast)."""
        return {loc: frozenset(province_of(d) for d in dsts)
                for loc, dsts in self.fleet_moves.items()}

    def fleet_destinations(self, src: str, province: str) -> list[str]:
        """The locations of ``province`` a fleet at ``src`` can move to."""
        return [d for d in self.fleet_moves.get(src, frozenset()) if province_of(d) == province]

    def neighbours(self, kind: UnitKind, src: str) -> frozenset[str]:
        """The locations a unit of this kind at src can move to."""
        if self.traits(kind).follows is Reach.FLEET:
            return self.fleet_moves.get(src, frozenset())
        return self.province_neighbours(kind, src)

    def is_water(self, province: str) -> bool:
        return province in self.water_provinces

    @cached_property
    def water_provinces(self) -> frozenset[str]:
        return frozenset(p.code for p in self.provinces.values() if p.terrain is Terrain.WATER)

    def is_coastal(self, province: str) -> bool:
        return self.provinces[province].terrain is Terrain.COASTAL

    @cached_property
    def water_neighbours(self) -> Mapping[str, frozenset[str]]:
        """Province -> the water provinces a fleet could sail to from it (any coast)."""
        result: dict[str, set[str]] = {p: set() for p in self.provinces}
        for src, dsts in self.fleet_moves.items():
            for dst in dsts:
                if self.is_water(province_of(dst)):
                    result[province_of(src)].add(province_of(dst))
        return {p: frozenset(s) for p, s in result.items()}

    def sea_route_exists(self, src: str, dst: str, usable: Iterable[str] | None = None) -> bool:
        """Is there a chain of water provinces from coastal src to coastal dst?

        With ``usable`` given, only those water provinces may be used (the
        ones holding a convoying fleet); otherwise any water province.
        """
        waters = self.water_provinces if usable is None else frozenset(usable)
        return province_of(dst) in self.convoy_shores(province_of(src), waters)

    def convoy_shores(self, src: str, usable: frozenset[str]) -> frozenset[str]:
        """Every province that fleets in the ``usable`` water provinces,
        joined sea to sea, could carry an army from province src to."""
        near = self.water_neighbours
        queue = [w for w in near[src] if w in usable]
        seen = set(queue)
        shores: set[str] = set()
        while queue:
            water = queue.pop()
            shores.update(self._coast_neighbours_of_water[water])
            for nxt in near[water]:
                if nxt in usable and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return frozenset(shores)

    @cached_property
    def _coast_neighbours_of_water(self) -> Mapping[str, frozenset[str]]:
        """Water province -> every province (any kind) a fleet there touches."""
        result: dict[str, set[str]] = {p: set() for p in self.provinces}
        for src, dsts in self.fleet_moves.items():
            if self.is_water(province_of(src)):
                result[province_of(src)].update(province_of(d) for d in dsts)
        return {p: frozenset(s) for p, s in result.items()}

    def with_canals_for(self, year: int) -> GameMap:
        """This map as it stands in ``year``: canals that opened by then add adjacencies."""
        opened = [c for c in self.canals if c.opens is not None and c.opens <= year]
        if not opened:
            return self
        fleet = {loc: set(dsts) for loc, dsts in self.fleet_moves.items()}
        for canal in opened:
            for loc in self.locations_of(canal.province):
                for other in canal.connects:
                    fleet.setdefault(loc, set()).add(other)
                    fleet.setdefault(other, set()).add(loc)
        return GameMap(
            name=self.name,
            title=self.title,
            start=self.start,
            victory=self.victory,
            provinces=self.provinces,
            powers=self.powers,
            army_moves=self.army_moves,
            fleet_moves={loc: frozenset(d) for loc, d in fleet.items()},
            aliases=self.aliases,
            power_aliases=self.power_aliases,
            canals=tuple(c for c in self.canals if c not in opened),
            borders=self.borders,
            seats=self.seats,
            drawing=self.drawing,
            ways_to_play=self.ways_to_play,
            rules=self.rules,
            kinds=self.kinds,
            kind_traits=self.kind_traits,
            tables=self.tables,
            flags=self.flags,
            flow=self.flow,
        )

    # -- distances (civil disorder) ----------------------------------------

    def distances_from(self, targets: Iterable[str]) -> Mapping[str, int]:
        """Moves from every province to the nearest of ``targets``.

        Units may cross land and water alike (2023 rulebook, DATC 4.D.8),
        so the graph is the union of army and fleet adjacency by province.
        """
        graph = self.province_graph
        dist: dict[str, int] = {}
        queue: deque[str] = deque()
        for t in targets:
            dist[t] = 0
            queue.append(t)
        while queue:
            p = queue.popleft()
            for q in graph[p]:
                if q not in dist:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        return dist

    @cached_property
    def province_graph(self) -> Mapping[str, frozenset[str]]:
        graph: dict[str, set[str]] = {p: set() for p in self.provinces}
        for src, dsts in self.army_moves.items():
            graph[src].update(dsts)
        for loc, locs in self.fleet_moves.items():
            graph[province_of(loc)].update(province_of(d) for d in locs)
        return {p: frozenset(s) for p, s in graph.items()}


def normalise_name(text: str) -> str:
    """The form in which aliases are compared: lower case, single spaces, no dots."""
    text = text.lower().replace(".", " ").replace("_", " ").replace("-", " ")
    return " ".join(text.split())


def power_named(game_map: GameMap, text: str) -> str | None:
    """The power a GM or a phase file names: its name as the map writes it,
    or any of its aliases; None for no power of the map."""
    text = text.strip()
    if text.upper() in game_map.powers:
        return text.upper()
    return game_map.power_aliases.get(normalise_name(text))
