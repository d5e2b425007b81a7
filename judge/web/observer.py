"""What the web view shows of a game: what an observer's mail shows, and
never more.

An observer receives the results mails (orders only once their phase is
adjudicated, the bids only once the game is over), the press sent to
everyone (grey press without its sender) and LIST's description of the game
(its powers, whether each has orders in, no addresses). Every value here is
read from the same stored records those mails are written from, and every
text is made by the same functions (judge.history for a phase's results).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from engine.variant_file import variant_notice
from judge import games
from judge.handlers.common import board_notice_line
from judge.history import history_text
from judge.mail import centre_table, format_deadline, phase_name, variant_line
from judge.models import Game, PhaseRecord, Press, as_utc
from judge.settings import GameSettings

# settings whose value is an address: the page says whether there is one
_ADDRESS_SETTINGS = frozenset({"list"})


@dataclass(frozen=True)
class GameLine:
    """A game as LIST shows it."""
    name: str
    variant: str
    notice: str  # the variant's notice about its board, '' for most
    status: str
    phase: str
    phase_name: str
    deadline: datetime | None  # UTC
    deadline_text: str  # in the game's zone
    players: int
    wanted: int


@dataclass(frozen=True)
class Seat:
    """A power as an observer sees it: played or open, orders in or not."""
    power: str
    player: str  # 'played', 'open', 'resigned'...
    orders: str  # 'in', 'missing', '' (nothing to order, or not running)
    centres: int | None
    units: int


@dataclass(frozen=True)
class PressNote:
    phase: str
    sender: str  # '' for grey press
    body: str
    sent_at: datetime


@dataclass(frozen=True)
class PhaseEntry:
    """A processed phase: its results as HISTORY tells them."""
    seq: int
    phase: str
    name: str
    adjudicated_at: datetime | None
    text: str
    map_phase: str  # the phase that followed: its map is the board this one left


@dataclass(frozen=True)
class GameView:
    line: GameLine
    variant_line: str
    board_notice: str  # 'Variant intercontinental: provisional board...', as replies say
    result: str
    zone: str
    grace_text: str
    settings: tuple[tuple[str, str], ...]
    seats: tuple[Seat, ...]
    observers: int
    press: tuple[PressNote, ...]
    phases: tuple[tuple[str, str], ...]  # (phase, its name) of every phase played, in order


def game_lines(session: Session) -> list[GameLine]:
    rows = session.exec(select(Game).order_by(col(Game.name))).all()
    return [_line(session, game) for game in rows]


def _line(session: Session, game: Game) -> GameLine:
    due = as_utc(game.deadline) if game.deadline and game.status == "active" else None
    return GameLine(
        name=game.name, variant=game.variant, notice=variant_notice(game.variant) or "",
        status=game.status, phase=game.phase,
        phase_name=phase_name(game.phase, game.variant) if game.phase else "",
        deadline=due,
        deadline_text=format_deadline(due, games.settings_of(game).zone) if due else "",
        players=len(games.members(session, game, "player")),
        wanted=len(games.seat_names(game)))


def find_game(session: Session, name: str) -> Game | None:
    return session.exec(select(Game).where(Game.name == name.lower())).first()


def game_view(session: Session, game: Game) -> GameView:
    settings = games.settings_of(game)
    grace = as_utc(game.grace_until) if game.grace_until else None
    return GameView(
        line=_line(session, game),
        variant_line=variant_line(game.variant, settings),
        board_notice=board_notice_line(game),
        result=game.result,
        zone=settings.zone,
        grace_text=format_deadline(grace, settings.zone) if grace else "",
        settings=_settings(settings),
        seats=tuple(_seats(session, game)),
        observers=len(games.members(session, game, "observer")),
        press=tuple(public_press(session, game)),
        phases=tuple((r.phase, phase_name(r.phase, game.variant))
                     for r in games.phase_records(session, game)))


def _settings(settings: GameSettings) -> tuple[tuple[str, str], ...]:
    return tuple((key, ("yes" if value != "none" else "none")
                  if key in _ADDRESS_SETTINGS else value)
                 for key, value in settings.describe())


def _seats(session: Session, game: Game) -> list[Seat]:
    """Each power of the game with its player's standing, as LIST tells it."""
    if game.status == "forming":
        members = games.members(session, game, "player")
        taken = {p for m in members for p in games.powers_of(m)}
        return [Seat(name, "taken" if name in taken else "open", "", None, 0)
                for name in games.seat_names(game)]
    game_map = games.map_of(game)
    state = games.current_state(session, game)
    board = games.board_of(game_map, state)
    counts = {row["power"]: row["count"] for row in centre_table(board, state)}
    missing = set(games.missing_powers(session, game, game_map, state)) \
        if game.status == "active" else set()
    ordering = set(games.powers_to_order(game_map, state)) if game.status == "active" else set()
    everyone = games.members(session, game, "player", active_only=False)
    standing: dict[str, str] = {}
    for member in everyone:
        for power in games.powers_of(member):
            # an active player wins over the one who resigned the seat before
            if standing.get(power) != "played":
                standing[power] = "played" if member.status == "active" else member.status
    seats = []
    for power in game_map.powers:
        if power in game_map.bid_powers:
            continue
        orders = ("missing" if power in missing else "in") if power in ordering else ""
        seats.append(Seat(power, standing.get(power, "dummy" if power in game_map.dummies
                                              else "open"), orders, counts.get(power),
                          sum(1 for u in state.units if u.power == power)))
    return seats


def public_press(session: Session, game: Game) -> list[PressNote]:
    """The press every observer was sent: to everyone, grey press without
    its sender (the table keeps the sender; the mail never showed it)."""
    rows = session.exec(select(Press).where(Press.game_id == game.id)
                        .order_by(col(Press.id))).all()
    out = []
    for row in rows:
        recipients = [str(r).upper() for r in json.loads(row.recipients or "[]")]
        if "ALL" not in recipients:
            continue
        out.append(PressNote(row.phase, "" if row.grey else row.sender, row.body,
                             as_utc(row.sent_at)))
    return out


def processed_phases(session: Session, game: Game) -> list[PhaseEntry]:
    """Every adjudicated phase, in the order played, with its results as
    HISTORY tells an observer (the bids once the game is over)."""
    records = games.phase_records(session, game)
    return entries(game, records)


def entries(game: Game, records: Sequence[PhaseRecord]) -> list[PhaseEntry]:
    over = game.status in ("finished", "terminated")
    after = {r.seq - 1: r for r in records}
    out: list[PhaseEntry] = []
    for record in records:
        if not record.results:
            continue
        out.append(PhaseEntry(
            record.seq, record.phase, phase_name(record.phase, game.variant),
            as_utc(record.adjudicated_at) if record.adjudicated_at else None,
            # the phase's own lines, without its name: the page titles it
            history_text(game, [record], after, secrets=over).split("\n", 1)[-1],
            after[record.seq].phase if record.seq in after else ""))
    return out

