"""The position of a game between two phases."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from engine.diplomap.values import MapChange
from engine.map import GameMap
from engine.phase import Phase
from engine.units import Unit


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the movement phase, waiting for its retreat order."""

    unit: Unit
    attacker: str  # province the dislodging unit came from
    by_convoy: bool = False  # a convoyed attacker leaves its origin open (DATC 4.A.5)
    retreats: tuple[str, ...] = ()  # legal retreat locations, filled in by the engine
    # Diplomap (§III.B): not dislodged but displaced, its province split under
    # it; it chooses its part, ``attacker`` is its own old province, and
    # without an order it goes to a default part instead of disbanding
    displaced: bool = False


@dataclass(frozen=True, slots=True)
class Seat:
    """A player and the powers they control (several in 2-4 player games)."""

    player: str
    powers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VariantState:
    """What variants add to a position, kept apart so that the standard
    game's positions stay small (every phase copies its position)."""

    # Favor of each played power with each nuclear power: (power, nuclear, value).
    favor: tuple[tuple[str, str, int], ...] = ()
    # Where each power has built before: (power, centre), for emergent build sites.
    built: tuple[tuple[str, str], ...] = ()
    # Eliminated powers whose players play on in exile (bidding only).
    exiles: frozenset[str] = frozenset()
    # Exiles the GM has stripped of their right to bid.
    silenced: frozenset[str] = frozenset()
    # Where each played power's Embassy stands on the Favor map, per nuclear
    # power: (power, nuclear, space). When present, Favor is read from them.
    embassies: tuple[tuple[str, str, str], ...] = ()
    # This year's kicked Embassies and nuclear retaliations: (power, nuclear).
    kicked: frozenset[tuple[str, str]] = frozenset()
    retaliated: frozenset[tuple[str, str]] = frozenset()
    # Each power's additional home centre, named by building in it
    # (Intercontinental §9.1): (power, centre), kept after the power is gone.
    additional_homes: tuple[tuple[str, str], ...] = ()
    # The players a game ended in a draw between (Intercontinental's year cap, §2.2).
    drawn: tuple[str, ...] = ()
    # Diplomap: the changes to the board so far, in order (the board in force
    # is the base map with these applied), and the map orders each power has
    # used this year: (power, "draw" | "erase"), §II.C.
    map_changes: tuple[MapChange, ...] = ()
    map_orders_used: frozenset[tuple[str, str]] = frozenset()


NO_EXTRA = VariantState()
_EXTRA_FIELDS = frozenset(VariantState.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class GameState:
    variant: str
    phase: Phase
    units: tuple[Unit, ...]
    owners: tuple[tuple[str, str], ...]  # (centre, power), sorted by centre
    dislodged: tuple[Dislodged, ...] = ()
    contested: frozenset[str] = frozenset()
    # Powers nobody plays: their units only hold and never build (the
    # rulebook's neutral powers in 5- and 6-player games, the two-player
    # game's Italy). Not the variants' neutral powers steered by bids: those
    # are GameMap powers with ``ordered_by_bids``.
    unplayed: frozenset[str] = frozenset()
    # Provinces no unit may enter (the two-player game's Italian territory).
    closed: frozenset[str] = frozenset()
    seats: tuple[Seat, ...] = ()
    # Centres needed to win; counted per player when ``victory_by_player``.
    victory: int = 18
    victory_by_player: bool = False
    # Civil disorder removals count distance to the nearest owned centre
    # ("owned": 2023 rulebook, DATC 3.0) or home centre ("home": 2000 rulebook).
    cd_distance: str = "owned"
    seed: int = 0
    # The two-player game: this neutral power joins a player by a coin toss
    # at the end of Fall of coin_toss_year.
    coin_toss_power: str | None = None
    coin_toss_year: int = 0
    notes: tuple[str, ...] = field(default=())  # events worth reporting (coin tosses)
    # what variants add (read by their rules modules; empty in the standard game)
    extra: VariantState = NO_EXTRA

    # -- building ---------------------------------------------------------

    @staticmethod
    def make_owners(centres: Mapping[str, Iterable[str]]) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((c, power) for power, cs in centres.items() for c in cs))

    @classmethod
    def initial(cls, game_map: GameMap) -> GameState:
        units = tuple(
            Unit(power.name, kind, loc)
            for power in game_map.powers.values()
            for kind, loc in power.units
        )
        owners = cls.make_owners({p.name: p.centres for p in game_map.powers.values()})
        favor = tuple(sorted((p.name, nuclear, value) for p in game_map.powers.values()
                             for nuclear, value in p.favor.items()))
        return cls(
            variant=game_map.name,
            phase=Phase.parse(game_map.start),
            units=units,
            owners=owners,
            victory=game_map.victory,
            seats=tuple(Seat(player, powers) for player, powers in game_map.seats)
            or tuple(Seat(p, (p,)) for p in game_map.powers),
            extra=VariantState(favor=favor) if favor else NO_EXTRA,
        )

    def evolve(self, **changes: object) -> GameState:
        """A copy with some fields changed, VariantState's fields included."""
        if not _EXTRA_FIELDS.isdisjoint(changes):
            extra = {k: changes.pop(k) for k in [k for k in changes if k in _EXTRA_FIELDS]}
            changes["extra"] = replace(self.extra, **extra)  # type: ignore[arg-type]
        return replace(self, **changes)  # type: ignore[arg-type]

    # -- what variants add ---------------------------------------------------

    @property
    def favor(self) -> tuple[tuple[str, str, int], ...]:
        return self.extra.favor

    @property
    def built(self) -> tuple[tuple[str, str], ...]:
        return self.extra.built

    @property
    def exiles(self) -> frozenset[str]:
        return self.extra.exiles

    @property
    def silenced(self) -> frozenset[str]:
        return self.extra.silenced

    @property
    def embassies(self) -> tuple[tuple[str, str, str], ...]:
        return self.extra.embassies

    @property
    def kicked(self) -> frozenset[tuple[str, str]]:
        return self.extra.kicked

    @property
    def retaliated(self) -> frozenset[tuple[str, str]]:
        return self.extra.retaliated

    @property
    def additional_homes(self) -> tuple[tuple[str, str], ...]:
        return self.extra.additional_homes

    @property
    def drawn(self) -> tuple[str, ...]:
        return self.extra.drawn

    @property
    def map_changes(self) -> tuple[MapChange, ...]:
        return self.extra.map_changes

    @property
    def map_orders_used(self) -> frozenset[tuple[str, str]]:
        return self.extra.map_orders_used

    # -- questions --------------------------------------------------------

    @property
    def owner_of(self) -> dict[str, str]:
        return dict(self.owners)

    def centres_of(self, power: str) -> list[str]:
        return [c for c, p in self.owners if p == power]

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units if u.power == power]

    def unit_in(self, province: str) -> Unit | None:
        for unit in self.units:
            if unit.province == province:
                return unit
        return None

    def favor_of(self, power: str, nuclear: str) -> int:
        """A power's Favor with a nuclear power: the value of its Embassy's
        space (its second character), or the value given; an exile counts as 1 (§5.3)."""
        if power in self.exiles:
            return 1
        for who, whom, space in self.embassies:
            if who == power and whom == nuclear:
                return int(space[1])
        for who, whom, value in self.favor:
            if who == power and whom == nuclear:
                return value
        return 1

    def embassy_of(self, power: str, nuclear: str) -> str | None:
        for who, whom, space in self.embassies:
            if who == power and whom == nuclear:
                return space
        return None

    def player_of(self, power: str) -> str | None:
        for seat in self.seats:
            if power in seat.powers:
                return seat.player
        return None
