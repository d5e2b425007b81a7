"""Playing a variant with fewer players than it has seats: the 2000
rulebook's ways to play the standard game with 2 to 6 players, and any
variant file's ``[ways_to_play.N]`` tables.

A *player* controls one or more *powers*; units, supply centres and
adjustments always belong to a power. Powers that nobody plays are
unplayed: their units hold (without supporting each other), may be
supported by anyone, are disbanded when dislodged, and never build.
"""

from __future__ import annotations

from engine.map import GameMap
from engine.phase import Phase
from engine.state import GameState, Seat
from engine.variants import opening_position, rules_for


def seat_name(powers: tuple[str, ...]) -> str:
    """A seat is named by its powers: 'AUSTRIA/FRANCE'."""
    return "/".join(powers)


def player_counts(game_map: GameMap) -> list[int]:
    """The numbers of players the variant can be played by."""
    return sorted({full_count(game_map), *game_map.ways_to_play})


def full_count(game_map: GameMap) -> int:
    """The number of players of a full game: one per seat of the opening."""
    return len(opening_position(game_map).seats)


def counts_text(counts: list[int]) -> str:
    """'10', '2 to 7' (a run with no gap), '4, 6 or 8'."""
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(str(n) for n in counts[:-1]) + f" or {counts[-1]}"


def players_refusal(game_map: GameMap, players: int) -> str | None:
    """Why a game of this variant cannot be set for ``players`` players
    ('Dissolution is played by 10 players'), or None when it can."""
    counts = player_counts(game_map)
    if players in counts:
        return None
    return f"{game_map.title} is played by {counts_text(counts)} players"


def setup(game_map: GameMap, players: int, seed: int = 0) -> GameState:
    """The opening position for ``players`` players.

    ``seed`` fixes the two-player game's coin toss so that a game can be
    replayed exactly.
    """
    state = rules_for(game_map).opening(game_map, GameState.initial(game_map).evolve(seed=seed))
    way = game_map.ways_to_play.get(players)
    if way is None:
        if players == len(state.seats):
            return state
        counts = ", ".join(str(n) for n in player_counts(game_map))
        raise ValueError(f"{game_map.title} is played by {counts} players, not {players}")
    seated = {p for seat in way.seats for p in seat}
    state = state.evolve(
        seats=tuple(Seat(seat_name(s), s) for s in way.seats),
        # bid-ordered and dummy powers are in no seat of any way to play
        unplayed=frozenset(p for p in game_map.powers if p not in seated
                           and not game_map.powers[p].ordered_by_bids
                           and not game_map.powers[p].dummy),
    )
    if way.start is not None:
        state = state.evolve(phase=Phase.parse(way.start, game_map.flow))
    if way.victory is not None:
        state = state.evolve(victory=way.victory)
    if way.victory_by_player:
        state = state.evolve(victory_by_player=True)
    if way.coin_toss is not None:
        state = state.evolve(
            closed=frozenset(game_map.powers[way.coin_toss].territory),
            coin_toss_power=way.coin_toss,
            coin_toss_year=state.phase.year,
        )
    return state
