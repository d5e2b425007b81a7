"""The position of a game between two phases, and what variants add to it.

A variant whose rules keep something between phases (Dissolution's
Embassies, Intercontinental's named homes, Diplomap's board changes)
declares a frozen dataclass subclassing :class:`StatePart` with a ``key``
of its own, and lists it in its rules' ``state_parts``. A position
(:class:`GameState`) holds the parts that differ from their defaults; the
rules read theirs with ``state.part(TheirPart)``.

Snapshots write every part from its type hints (engine/plain.py), so a
field added to a part is stored the day it is added. The JSON of
`judge adjudicate` reads and writes each part through its ``read_phase``
and ``write_phase``: by default one top-level key per field in its plain
form; a variant overrides them where players write something friendlier
(power names, ``{POWER: [...]}`` tables) or where values must be checked
against the map.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self, TypeVar

from engine.map import GameMap
from engine.phase import Phase
from engine.phase_input import PhaseInputError
from engine.plain import PlainDataError, field_hints, from_plain, to_plain
from engine.units import Unit

_PARTS: dict[str, type[StatePart]] = {}


class StatePart:
    """Subclassed by a variant's frozen dataclass; ``key`` names it in snapshots."""

    key: ClassVar[str]  # each subclass sets its own

    def __init_subclass__(cls, /, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        key = cls.__dict__.get("key")
        if not isinstance(key, str):
            raise TypeError(f"{cls.__qualname__} must set key = \"...\" (a ClassVar[str])")
        # a slotted dataclass is made anew from the class: the same part twice
        if key in _PARTS and _PARTS[key].__qualname__ != cls.__qualname__:
            raise TypeError(f"two state parts are called {key!r}: "
                            f"{_PARTS[key].__qualname__} and {cls.__qualname__}")
        _PARTS[key] = cls

    # -- `judge adjudicate` JSON ---------------------------------------------

    @classmethod
    def read_phase(cls, game_map: GameMap, data: Mapping[str, Any],
                   opening: GameState) -> Self:
        """This part from a phase's JSON; what the JSON does not give is the
        opening position's. By default each field is a key of its own."""
        start = opening.part(cls)
        values = {}
        for name, hint in field_hints(cls).items():
            if name in data:
                try:
                    values[name] = from_plain(data[name], hint, name)
                except PlainDataError as exc:
                    raise PhaseInputError(str(exc)) from None
        return dataclasses.replace(start, **values)  # type: ignore[type-var]

    def write_phase(self, game_map: GameMap) -> dict[str, Any]:
        """This part's keys in a phase's JSON (only those not at their default)."""
        default = type(self)()
        return {name: to_plain(getattr(self, name), hint)
                for name, hint in field_hints(type(self)).items()
                if getattr(self, name) != getattr(default, name)}


def part_named(key: str) -> type[StatePart] | None:
    """The part type a snapshot names, if its module has been imported."""
    return _PARTS.get(key)


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

    @property
    def named(self) -> bool:
        """Whether the seat has a name of its own (an Intercontinental colour
        group, 'Blue'), not just its powers' joined ('AUSTRIA/FRANCE')."""
        return self.player != "/".join(self.powers)


@dataclass(frozen=True, slots=True)
class GameState:
    """The position between two phases: units, centres and the game's settings."""

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
            phase=Phase.parse(game_map.start, game_map.flow),
            units=units,
            owners=owners,
            victory=game_map.victory,
            seats=tuple(Seat(player, powers) for player, powers in game_map.seats)
            or tuple(Seat(p, (p,)) for p in game_map.powers),
        )

    def evolve(self, **changes: object) -> GameState:
        """A copy with some fields changed: what ``dataclasses.replace`` gives,
        made without its checks of each field's kind (a GameState has no
        init-only or derived fields), as every phase copies its position
        several times."""
        if not changes.keys() <= _FIELD_NAMES:
            raise TypeError(f"GameState has no field {sorted(changes.keys() - _FIELD_NAMES)}")
        copy = object.__new__(GameState)
        for name in _FIELDS:
            object.__setattr__(copy, name, changes[name] if name in changes
                               else getattr(self, name))
        return copy

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

    def unit_counts(self) -> dict[str, int]:
        """How many units each power has (powers with none left out)."""
        counts: dict[str, int] = {}
        for unit in self.units:
            counts[unit.power] = counts.get(unit.power, 0) + 1
        return counts

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


_FIELDS = tuple(f.name for f in dataclasses.fields(GameState))
_FIELD_NAMES = frozenset(_FIELDS)
_DEFAULTS: dict[type[StatePart], StatePart] = {}


def _default(kind: type[P]) -> P:
    """A part type's default value, made once."""
    default = _DEFAULTS.get(kind)
    if default is None:
        default = _DEFAULTS[kind] = kind()
    assert isinstance(default, kind)
    return default
