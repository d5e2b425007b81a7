"""The 2000 rulebook's ways to play the standard game with 2 to 7 players.

A *player* controls one or more *powers*; units, supply centres and
adjustments always belong to a power. Powers that nobody plays are neutral:
their units hold (without supporting each other), may be supported by
anyone, are disbanded when dislodged, and never build.
"""

from __future__ import annotations

from engine.map import GameMap
from engine.phase import Phase
from engine.state import GameState, Seat

# Who plays what, by number of players (the rulebook's "Alternate way to play").
SEATINGS: dict[int, tuple[tuple[str, ...], ...]] = {
    7: (("AUSTRIA",), ("ENGLAND",), ("FRANCE",), ("GERMANY",), ("ITALY",), ("RUSSIA",),
        ("TURKEY",)),
    6: (("AUSTRIA",), ("ENGLAND",), ("FRANCE",), ("GERMANY",), ("RUSSIA",), ("TURKEY",)),
    5: (("AUSTRIA",), ("ENGLAND",), ("FRANCE",), ("RUSSIA",), ("TURKEY",)),
    4: (("ENGLAND",), ("AUSTRIA", "FRANCE"), ("GERMANY", "TURKEY"), ("ITALY", "RUSSIA")),
    3: (("ENGLAND", "GERMANY", "AUSTRIA"), ("RUSSIA", "ITALY"), ("FRANCE", "TURKEY")),
    2: (("ENGLAND", "FRANCE", "RUSSIA"), ("AUSTRIA", "GERMANY", "TURKEY")),
}

TWO_PLAYER_START = "S1914M"
TWO_PLAYER_VICTORY = 24
TWO_PLAYER_NEUTRAL = "ITALY"


def seat_name(powers: tuple[str, ...]) -> str:
    """A seat is named by its powers: 'AUSTRIA/FRANCE'."""
    return "/".join(powers)


def setup(game_map: GameMap, players: int, seed: int = 0) -> GameState:
    """The opening position of a standard game for ``players`` players.

    ``seed`` fixes the two-player game's coin toss so that a game can be
    replayed exactly.
    """
    if game_map.name != "standard":
        raise ValueError("the rulebook's ways to play are for the standard map")
    if players not in SEATINGS:
        raise ValueError("the standard game is for 2 to 7 players")
    seatings = SEATINGS[players]
    seated = {p for seat in seatings for p in seat}
    unplayed = frozenset(p for p in game_map.powers if p not in seated)
    state = GameState.initial(game_map).evolve(
        seats=tuple(Seat(seat_name(s), s) for s in seatings),
        unplayed=unplayed,
        seed=seed,
    )
    if players == 2:
        territory = frozenset(game_map.powers[TWO_PLAYER_NEUTRAL].territory)
        state = state.evolve(
            phase=Phase.parse(TWO_PLAYER_START),
            closed=territory,
            victory=TWO_PLAYER_VICTORY,
            victory_by_player=True,
            coin_toss_power=TWO_PLAYER_NEUTRAL,
            coin_toss_year=Phase.parse(TWO_PLAYER_START).year,
        )
    return state
