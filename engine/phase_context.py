"""What one phase is played on, worked out once and handed down: the
game's map (its rules layers and settings in force), its rules, the board
in force and the board its lines are read on. The deadline, mail intake and
`judge adjudicate` build it once per phase and give it to ``adjudicate``."""

from __future__ import annotations

from dataclasses import dataclass

from engine.map import GameMap
from engine.rules import Rules
from engine.state import GameState
from engine.variants import rules_for


@dataclass(frozen=True, slots=True)
class PhaseContext:
    """The map, rules and boards of one phase, worked out once."""

    game_map: GameMap  # the variant's map with the game's layers and settings
    rules: Rules
    board: GameMap  # the board in force in the phase (Diplomap's changes, canals)
    reading: GameMap  # the board the phase's lines are read on (rules.reading_board)


def phase_context(game_map: GameMap, state: GameState) -> PhaseContext:
    rules = rules_for(game_map)
    return PhaseContext(game_map, rules, rules.map_for(game_map, state),
                        rules.reading_board(game_map, state))
