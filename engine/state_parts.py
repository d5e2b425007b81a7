"""What a variant adds to a position: its own frozen value, a *state part*.

A variant whose rules keep something between phases (Dissolution's
Embassies, Intercontinental's named homes, Diplomap's board changes)
declares a frozen dataclass subclassing :class:`StatePart` with a ``key`` of
its own, and lists it in its rules' ``state_parts``. A position
(:class:`engine.state.GameState`) holds the parts that differ from their
defaults; the rules read theirs with ``state.part(TheirPart)``.

Snapshots write every part from its type hints (engine/plain.py), so a
field added to a part is stored the day it is added. The JSON of
`judge adjudicate` reads and writes each part through the two methods
below: by default one top-level key per field in its plain form; a variant
overrides them where players write something friendlier (power names,
``{POWER: [...]}`` tables) or where values must be checked against the map.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self

from engine.plain import PlainDataError, field_hints, from_plain, to_plain

if TYPE_CHECKING:
    from engine.map import GameMap
    from engine.state import GameState


class PartInputError(ValueError):
    """A part's key in a phase's JSON that cannot be used; the message names the key."""


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
                    raise PartInputError(str(exc)) from None
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
