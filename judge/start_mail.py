"""The mails a game's start sends: to each player, its own position (its
powers' units and centres, its Diplomacy Points, what its seat holds of the
variant's own, the map attached) and what it may send (the kinds of line
the rules read, each with an example for its own pieces); to the GM and
observers, a notice with the map.

Everything variant-shaped comes from the rules' hooks (``bid_allowance``,
``holdings``, ``line_kinds`` through judge/kinds) and the game's settings
(its rules layers, named as every mail's header names them), never from
the variant's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from engine.holdings import Holdings, OrderForm
from engine.map import GameMap
from engine.state import GameState
from engine.variants import rules_for
from judge import games, kinds, maps
from judge.config import Config
from judge.mail import (
    format_deadline,
    header,
    in_own_zone,
    phase_name,
    render,
    to_game,
    variant_line,
)
from judge.maps.scene import Scene
from judge.models import Game, Member
from judge.outbox import OutgoingMail
from judge.seating import named_seats


@dataclass(frozen=True, slots=True)
class PowerPosition:
    """One of the seat's powers as the game starts."""

    power: str
    units: tuple[str, ...]  # 'F ALX (Alexandria)'
    centres: tuple[str, ...]  # 'ALX'


@dataclass(frozen=True, slots=True)
class SeatPosition:
    seat: str  # 'Green', or the powers' names joined by '/'
    powers: tuple[PowerPosition, ...]
    points: int  # Diplomacy Points for the first phase, 0 without bids
    caps: str  # the most it may bid on each power's units, 'INDIA 1, ...'
    holdings: Holdings
    forms: tuple[OrderForm, ...]  # the kinds of line it writes besides orders
    sample_order: str  # a hold for one of its own units, '' when it has none


def started_mails(session: Session, game: Game, config: Config) -> list[OutgoingMail]:
    settings = games.settings_of(game)
    game_map = games.map_of(game)
    state = games.current_state(session, game)
    board = games.board_of(game_map, state)
    players = games.members(session, game, "player")
    groups = named_seats(games.opening(game))  # the §3 draw, or the GM's
    # one picture for every player: everyone sees the same board
    files = maps.attachments_or_none(game_map, Scene(game.name, state))
    shared = {**header(config, game, settings), "groups": groups, "players": players,
              "phase": game.phase, "phase_name": phase_name(game.phase, game.variant),
              "deadline": format_deadline(game.deadline, settings.zone),
              "caps_title": rules_for(game_map).caps_title,
              "layered": bool(settings.layers),  # Diplomap: say so beside the header
              "maps": [name for name, _, _ in files if name.endswith(".png")]}
    mails = []
    for member in players:
        seat = seat_position(board, state, member)
        body = render("started.txt.j2", **shared, seat=seat, power=member.power,
                      signon=_signon(seat, member))
        mails.append(OutgoingMail(to=(member.address,),
                                  subject=f"Diplomacy game {game.name} starts",
                                  body=in_own_zone(body, game, settings, member.zone),
                                  kind="notice", game=game.name, attachments=files))
    others = [m for m in games.members(session, game) if m.role != "player"]
    master = Member(game_id=game.id or 0, role="master", address=game.master_address,
                    password_hash="")
    text = render("notice.txt.j2", **header(config, game, settings),
                  text=f"Game {game.name} has started: {game.phase}, orders due "
                       f"{format_deadline(game.deadline, settings.zone)}."
                       + (f"\nThe variant is {variant_line(game.variant, settings)}."
                          if settings.layers else "")
                       + ("\nThe groups and their powers:" if groups else "")
                       + "".join(f"\n  {line}" for line in groups))
    mails.extend(to_game(game, settings, config, [*others, master],
                         f"Diplomacy game {game.name} starts", text, "notice", files))
    return mails


def seat_position(game_map: GameMap, state: GameState, member: Member) -> SeatPosition:
    """A player's position on ``game_map``, the board in force: its powers
    in the seat's order, each with its units and centres."""
    powers = games.powers_of(member)
    rules = rules_for(game_map)
    provinces = game_map.provinces
    held = tuple(PowerPosition(
        power,
        tuple(f"{u} ({provinces[u.province].name})" if u.province in provinces else str(u)
              for u in state.units_of(power)),
        tuple(sorted(state.centres_of(power)))) for power in powers)
    points, caps = rules.bid_allowance(game_map, state, powers[0]) if powers else (0, {})
    named = next((s.player for s in state.seats
                  if s.powers == powers and s.player != "/".join(s.powers)), "")
    return SeatPosition(
        named or member.power, held, points,
        ", ".join(f"{p} {c}" for p, c in sorted(caps.items())),
        rules.holdings(game_map, state, powers), tuple(kinds.forms(game_map, state, powers)),
        sample_order(state, powers))


def sample_order(state: GameState, powers: Sequence[str]) -> str:
    """A hold order for one of the player's own units, its first power's
    first: the example in the start mail is one the player may send as it
    is. None when the seat has no unit."""
    for power in powers:
        units = state.units_of(power)
        if units:
            return f"{units[0]} H"
    return ""


def _signon(seat: SeatPosition, member: Member) -> str:
    """What the player signs on as: its seat's name (a colour group), or
    its first power."""
    if seat.seat != member.power:
        return seat.seat.lower()
    powers = games.powers_of(member)
    return powers[0].lower() if powers else "power"
