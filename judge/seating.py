"""Seats whose player has a name of its own: Intercontinental's colour
groups (§1.2), each a player of four powers whose powers the §3 draw or the
GM's SET GROUP gives. Kept apart from games.py, which is long enough."""

from __future__ import annotations

from engine.state import GameState


def named_seats(state: GameState) -> list[str]:
    """Each named seat with its powers ('Blue: CAPE_COLONY, GREAT_BRITAIN,
    ...'), for the start mails and the GM's START reply; none in the
    standard game, whose seats are named by their powers."""
    return [f"{seat.player}: {', '.join(seat.powers)}" for seat in state.seats
            if seat.named]


def seat_told(state: GameState, seat: str) -> tuple[str, str]:
    """How a player is told the seat they got, and the name they sign on
    with: ('EGYPT', 'egypt'); a named seat by its name and its powers
    ('Blue: CAPE_COLONY, GREAT_BRITAIN, ...', 'blue'), since the group's
    name is the one its player signs on with."""
    for each in state.seats:
        if "/".join(each.powers) == seat and each.player != seat:
            return f"{each.player}: {', '.join(each.powers)}", each.player.lower()
    return seat, seat.split("/")[0].lower()
