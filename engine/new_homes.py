"""DPJudge's NEWHOMES (Map.html): "home supply centers are completely
reassigned to all players during the adjustment phase of the specified
game-year(s). Each power's home SC's will be all of the centers he owns at
the time." The years are the variant file's ``[variant] new_homes``; the
homes a reassignment gives are kept in the position (:class:`HomesState`),
and every rule about home centres asks :func:`homes_of`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.phase_input import PhaseInputError, place_code, power_in
from engine.state import StatePart

if TYPE_CHECKING:
    from engine.map import GameMap
    from engine.state import GameState


@dataclass(frozen=True, slots=True)
class HomesState(StatePart):
    """Each power's home centres since the last reassignment, by power
    (sorted); none before the first: the variant file's ``home``. In a
    phase's JSON: ``"homes": {"RUSSIA": ["MOS", "WAR"]}``."""

    key: ClassVar[str] = "homes"
    homes: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def read_phase(cls, game_map: GameMap, data: Mapping[str, Any],
                   opening: GameState) -> HomesState:
        given = data.get("homes", {})
        if not isinstance(given, dict):
            raise PhaseInputError('homes must be an object: {"POWER": ["CENTRE", ...]}')
        homes: dict[str, tuple[str, ...]] = {}
        for name, texts in given.items():
            power = power_in(game_map, name, "homes")
            if not isinstance(texts, list):
                raise PhaseInputError(f"homes.{power} is a list of supply centres")
            codes = tuple(sorted({place_code(game_map, str(t)) for t in texts}))
            for code in codes:
                if code not in game_map.supply_centres:
                    raise PhaseInputError(f"homes.{power}: {code} is not a supply centre")
            homes[power] = codes
        return cls(tuple(sorted(homes.items())))

    def write_phase(self, game_map: GameMap) -> dict[str, Any]:
        return {"homes": {p: list(h) for p, h in self.homes}} if self.homes else {}


def homes_of(game_map: GameMap, state: GameState, power: str) -> tuple[str, ...]:
    """The power's home centres now: as the last reassignment made them,
    else the variant file's."""
    for name, homes in state.part(HomesState).homes:
        if name == power:
            return homes
    return game_map.powers[power].home


def reassigned(game_map: GameMap, state: GameState) -> GameState:
    """The position once the year's centres are counted: in a year of
    ``new_homes``, each power's homes become the centres it owns (a power
    owning none has none)."""
    if state.phase.year not in game_map.new_homes:
        return state
    homes = tuple((power, tuple(sorted(state.centres_of(power))))
                  for power in sorted(game_map.powers))
    return state.with_part(HomesState(homes))
