"""The position of a game between two phases."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

from engine.map import GameMap
from engine.phase import Phase
from engine.state_parts import StatePart
from engine.units import Unit

P = TypeVar("P", bound=StatePart)


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
    # the players a game ended in a draw between by its rules (a year cap)
    drawn: tuple[str, ...] = ()
    # what variants add, each its own value (engine/state_parts.py): only the
    # parts that differ from their defaults, sorted by key; none in the
    # standard game, whose positions stay small (every phase copies its position)
    parts: tuple[StatePart, ...] = ()

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
        return cls(
            variant=game_map.name,
            phase=Phase.parse(game_map.start),
            units=units,
            owners=owners,
            victory=game_map.victory,
            seats=tuple(Seat(player, powers) for player, powers in game_map.seats)
            or tuple(Seat(p, (p,)) for p in game_map.powers),
        )

    def evolve(self, **changes: object) -> GameState:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    # -- what variants add ---------------------------------------------------

    def part(self, kind: type[P]) -> P:
        """The variant's part of the position: as kept, or its default."""
        for part in self.parts:
            if type(part) is kind:
                return part
        return _default(kind)

    def with_part(self, part: StatePart) -> GameState:
        """A copy with this part in place of the one of its type."""
        kind = type(part)
        if self.part(kind) == part:
            return self
        kept = [p for p in self.parts if type(p) is not kind]
        if part != _default(kind):
            kept.append(part)
        return replace(self, parts=tuple(sorted(kept, key=lambda p: p.key)))

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

    def player_of(self, power: str) -> str | None:
        for seat in self.seats:
            if power in seat.powers:
                return seat.player
        return None


_DEFAULTS: dict[type[StatePart], StatePart] = {}


def _default(kind: type[P]) -> P:
    """A part type's default value, made once."""
    default = _DEFAULTS.get(kind)
    if default is None:
        default = _DEFAULTS[kind] = kind()
    assert isinstance(default, kind)
    return default
