"""A game's life in the database: created, joined, started, orders on file,
adjudicated phase after phase, ended.

Every function here works inside the caller's session (one transaction per
mail or per deadline) and returns the mails it causes, as
:class:`judge.outbox.OutgoingMail` values; the caller queues them in the
same transaction, so a state change and its mails commit together.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Select, bindparam, event
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from engine.adjustments import powers_adjusting
from engine.layers import with_layers
from engine.lines import BIDS, ORDERS
from engine.map import GameMap
from engine.phase import PhaseKind
from engine.state import GameState
from engine.variant_file import load_variant, unfinished_reason
from engine.variants import rules_for
from engine.ways_to_play import player_counts, setup
from judge import filed_lines, snapshots
from judge.db import LOOSE, run
from judge.models import Game, Member, PhaseRecord, utcnow
from judge.settings import GameSettings, next_deadline

MASTER = "MASTER"


class GameError(Exception):
    """A command that cannot be carried out; the message goes to the sender."""


# -- reading -------------------------------------------------------------------


# A game's settings, map and opening follow from its row's text (variant,
# settings, seed), and an order mail asks for them several times over: each
# is worked out once per process for each text (the values are frozen, so
# every caller may share them).
_KEPT = 256


def settings_of(game: Game) -> GameSettings:
    return _settings(game.settings)


@lru_cache(maxsize=_KEPT)
def _settings(text: str) -> GameSettings:
    return GameSettings.from_json(text)


def map_of(game: Game) -> GameMap:
    """The game's map: its variant's, with the game's own settings (a
    variant's CREATE lines such as Intercontinental's Suez year, Diplomap)
    in force. The board of a phase is :func:`board_of`."""
    return _map(game.variant, game.settings)


@lru_cache(maxsize=_KEPT)
def _map(variant: str, settings_text: str) -> GameMap:
    game_map = load_variant(variant)
    settings = _settings(settings_text)
    if settings.options:
        game_map = rules_for(game_map).with_options(game_map, settings.options)
    return with_layers(game_map, settings.layers)


def board_of(game_map: GameMap, state: GameState) -> GameMap:
    """The board in force in a phase: the game's map with that phase's
    changes (Diplomap's new borders, canals open by year). Orders are read
    on it, so a new province's code (GAL-N) is a place like any other."""
    return rules_for(game_map).map_for(game_map, state)


def phase_record(session: Session, game: Game, phase: str | None = None) -> PhaseRecord | None:
    return session.exec(select(PhaseRecord).where(
        PhaseRecord.game_id == game.id, PhaseRecord.phase == (phase or game.phase))).first()


def phase_records(session: Session, game: Game) -> list[PhaseRecord]:
    return list(session.exec(select(PhaseRecord).where(PhaseRecord.game_id == game.id)
                             .order_by(col(PhaseRecord.seq))).all())


def current_state(session: Session, game: Game) -> GameState:
    """The position the game's current phase started from. A phase's
    starting position never changes once written, so it is read once per
    transaction (an order mail asks for it several times)."""
    key = (_POSITION, game.id, game.phase)
    cached = session.info.get(key)
    if cached is not None:
        return cast(GameState, cached)
    text = run(session, _STARTING_POSITION, {"game": game.id, "phase": game.phase}).scalar()
    if text is None:
        raise GameError(f"game {game.name} has not started")
    state = snapshots.loads(text)
    session.info[key] = state
    return state


_POSITION = "position"

# Statements every order mail runs, built once (building a query costs more
# than running it on SQLite).
_STARTING_POSITION = sa_select(col(PhaseRecord.state)).where(
    col(PhaseRecord.game_id) == bindparam("game"), col(PhaseRecord.phase) == bindparam("phase"))
_SOMEONE_WAITS = sa_select(col(Member.id)).where(
    col(Member.game_id) == bindparam("game"), col(Member.role) == "player",
    col(Member.status) == "active", col(Member.wait).is_(True)).limit(1)


def _members_query(role: bool, active_only: bool) -> Select[Any]:
    query = sa_select(Member).where(col(Member.game_id) == bindparam("game"))
    if role:
        query = query.where(col(Member.role) == bindparam("role"))
    if active_only:
        query = query.where(col(Member.status) == "active")
    return query.order_by(col(Member.id))


_MEMBERS = {(role, active): _members_query(role, active)
            for role in (False, True) for active in (False, True)}


def members(session: Session, game: Game, role: str | None = None,
            active_only: bool = True) -> list[Member]:
    known = _known_members(session, game)
    if known is not None:
        return [m for m in known
                if (not role or m.role == role) and (not active_only or m.status == "active")]
    query = _MEMBERS[bool(role), active_only]
    return list(session.execute(query, {"game": game.id, "role": role}).scalars())


def someone_waits(session: Session, game: Game) -> bool:
    """Has an active player of the game said SET WAIT?"""
    known = _known_members(session, game)
    if known is not None:
        return any(m.role == "player" and m.status == "active" and m.wait for m in known)
    return run(session, _SOMEONE_WAITS, {"game": game.id}).first() is not None


# -- a game and its members in one statement --------------------------------------

_MEMBERS_READ = "members"  # session.info key: (_MEMBERS_READ, game id) -> every member
_GAME_AND_MEMBERS = sa_select(Game, Member).outerjoin(
    Member, col(Member.game_id) == col(Game.id)).where(
    col(Game.name) == bindparam("name")).order_by(col(Member.id))
_GAME_AND_MEMBERS_LOCKED = _GAME_AND_MEMBERS.with_for_update(of=Game)


def game_with_members(session: Session, name: str, *, lock: bool = False) -> Game | None:
    """The game called ``name``, read with its members in one statement;
    the session then knows the members (members(), someone_waits()) until
    they change in it. With ``lock``, the game's row stays locked until the
    transaction ends (PostgreSQL; SQLite's transaction() holds the whole
    database already), so a mail's commands and a deadline, or two mails in
    two worker processes, never change one game at the same time, and
    nobody else changes its members meanwhile. Without, the members are
    kept only by the reads before a mail's transaction (judge.db.reading),
    which that transaction checks again."""
    query = _GAME_AND_MEMBERS_LOCKED if lock else _GAME_AND_MEMBERS
    rows = session.execute(query, {"name": name.lower()}).all()
    if not rows:
        return None
    game: Game = rows[0][0]
    if lock or session.info.get(LOOSE):
        session.info[(_MEMBERS_READ, game.id)] = [m for _, m in rows if m is not None]
    return game


_LOCK_GAMES = sa_select(col(Game.id)).where(
    col(Game.name).in_(bindparam("names", expanding=True))).order_by(
    col(Game.name)).with_for_update()


def lock_games(session: Session, names: set[str]) -> None:
    """Lock the named games' rows now, in the order of their names, when a
    transaction is to lock more than one (a batch of mails, a mail to two
    games). Two transactions that take their games in one order never wait
    for each other in a circle: PostgreSQL breaks such a deadlock only after
    a second, by undoing one of them (SQLite's transaction() holds the whole
    database already)."""
    if len(names) > 1 and session.get_bind().dialect.name == "postgresql":
        run(session, _LOCK_GAMES, {"names": sorted(name.lower() for name in names)})


def _known_members(session: Session, game: Game) -> list[Member] | None:
    """Every member of the game, if the session knows them (with any it
    has added or deleted since written first, which forgets them)."""
    key = (_MEMBERS_READ, game.id)
    if key in session.info and _members_changed(session):
        session.flush()
    return cast("list[Member] | None", session.info.get(key))


def _members_changed(session: Session) -> bool:
    """Has the session members added or deleted and not yet written (or,
    during a flush, being written)? A change to a member it holds shows in
    the object itself."""
    return any(isinstance(o, Member) for o in (*session.new, *session.deleted))


@event.listens_for(Session, "after_flush")
def _forget_members(session: Session, _context: object) -> None:
    if _members_changed(session):
        for key in [k for k in session.info
                    if isinstance(k, tuple) and k[:1] == (_MEMBERS_READ,)]:
            del session.info[key]


def powers_of(member: Member) -> tuple[str, ...]:
    """The powers a player's seat controls ('AUSTRIA/FRANCE' -> both)."""
    return tuple(p for p in member.power.split("/") if p)


def orders_on_file(session: Session, game: Game, phase: str | None = None
                   ) -> dict[str, list[str]]:
    """Each power's orders on file for the phase (the current one by default)."""
    return filed_lines.on_file(session, game, ORDERS, phase)


def file_orders(session: Session, game: Game, power: str, texts: list[str]) -> None:
    """Put a power's orders for the current phase on file, replacing what
    it had; an empty list takes its orders off file (an empty set would
    count as submitted)."""
    filed_lines.put(session, game, ORDERS, power, texts)


def file_bids(session: Session, game: Game, power: str, texts: list[str]) -> None:
    """Put a power's Diplomacy Point bids for the current phase on file,
    replacing what it had; an empty list takes them off file."""
    filed_lines.put(session, game, BIDS, power, texts)


def bids_on_file(session: Session, game: Game, phase: str | None = None
                 ) -> dict[str, list[str]]:
    """Each power's bids on file for the phase (the current one by default)."""
    return filed_lines.on_file(session, game, BIDS, phase)


def _forget(session: Session, *prefix: object) -> None:
    """Drop what this transaction remembered under keys starting with ``prefix``."""
    for key in [k for k in session.info if isinstance(k, tuple) and k[:len(prefix)] == prefix]:
        del session.info[key]


def powers_to_order(game_map: GameMap, state: GameState) -> list[str]:
    """The powers that have something to order in this phase."""
    kind = state.phase.kind
    board = board_of(game_map, state)  # whose centres and sites: on the board in force
    if kind is PhaseKind.MOVEMENT:
        # neutral powers steered by bids are not ordered by a player
        powers = {u.power for u in state.units
                  if not game_map.powers[u.power].ordered_by_bids}
    elif kind is PhaseKind.RETREAT:
        powers = {d.unit.power for d in state.dislodged}
    else:  # adjustments, and whatever else the variant's Winter asks for (Embassies)
        powers = set(powers_adjusting(board, state)) \
            | rules_for(board).winter_orderers(board, state)
    # nor are DPJudge's DUMMY powers, in no seat: the judge never waits for them
    return sorted(p for p in powers if p not in state.unplayed and p not in game_map.dummies)


def missing_powers(session: Session, game: Game, game_map: GameMap,
                   state: GameState) -> list[str]:
    on_file = orders_on_file(session, game)
    return [p for p in powers_to_order(game_map, state) if p not in on_file]


# -- creating and joining ------------------------------------------------------


def check_offered(variant: str) -> None:
    """Refuse a variant that is none, or one not offered to games yet (its
    rules are not played: unfinished_reason), as CREATE and SET VARIANT do."""
    try:
        load_variant(variant)
    except KeyError as exc:  # its message names the variant, shortened
        raise GameError(str(exc.args[0])) from None
    unfinished = unfinished_reason(variant)
    if unfinished:
        raise GameError(f"variant {variant!r} is not offered yet: {unfinished}")


def create_game(session: Session, name: str, master_hash: str, master_address: str,
                settings: GameSettings) -> Game:
    if not name.isascii() or not name.replace("_", "").replace("-", "").isalnum() \
            or len(name) > 20:
        raise GameError("a game name is up to 20 letters, digits, '-' or '_'")
    if session.exec(select(Game).where(Game.name == name.lower())).first():
        raise GameError(f"there is already a game called {name.lower()}")
    check_offered(settings.variant)
    game = Game(name=name.lower(), variant=settings.variant, master_hash=master_hash,
                master_address=master_address, settings=settings.to_json(),
                seed=random.SystemRandom().randrange(2**31))
    session.add(game)
    session.flush()
    return game


def seat_names(game: Game) -> list[str]:
    """The seats a game offers: one per player, each one or more powers
    (the variant's ways to play say who plays what with fewer players)."""
    return ["/".join(seat.powers) for seat in opening(game).seats]


def opening(game: Game) -> GameState:
    """The game's opening position for its number of players."""
    return _opening(game.variant, game.settings, game.seed)


@lru_cache(maxsize=_KEPT)
def _opening(variant: str, settings_text: str, seed: int) -> GameState:
    game_map = _map(variant, settings_text)
    settings = _settings(settings_text)
    counts = player_counts(game_map)
    players = settings.players if settings.players in counts else max(counts)
    state = setup(game_map, players, seed)
    if settings.setup:  # the GM's own setup of the variant's other board (§11.2)
        state = rules_for(game_map).with_setup(game_map, state, dict(settings.setup))
    return state


def resolve_power(game: Game, text: str) -> str | None:
    """A seat named by a player: full name, initial, or alias of one of its powers."""
    text = text.strip().upper()
    for seat in opening(game).seats:
        name = "/".join(seat.powers)
        # a seat's player may have a name of its own (Intercontinental's colour groups)
        if text in (name, seat.player.upper()) or text in seat.powers:
            return name
    game_map = map_of(game)
    from engine.map import normalise_name
    power = game_map.power_aliases.get(normalise_name(text))
    if power is None:
        for candidate in game_map.powers.values():
            if candidate.letter.upper() == text:
                power = candidate.name
    if power is None:
        return None
    return next((s for s in seat_names(game) if power in s.split("/")), None)


def join(session: Session, game: Game, address: str, password_hash: str,
         power: str | None) -> Member:
    if game.status != "forming":
        raise GameError(f"game {game.name} is not taking players (it is {game.status})")
    players = members(session, game, "player")
    if any(m.address.lower() == address.lower() for m in members(session, game)):
        raise GameError(f"{address} already plays or observes {game.name}")
    seats = seat_names(game)
    if len(players) >= len(seats):
        raise GameError(f"game {game.name} is full")
    seat = ""
    if power and dict(settings_of(game).rules).get("power_choice") == "no":
        raise GameError(f"game {game.name} seats its players at random (its GM set "
                        f"rules power_choice=no): JOIN {game.name} without a power")
    if power:
        found = resolve_power(game, power)
        if found is None:
            raise GameError(f"{power} is not a power of {game.name}; "
                            f"the seats are {', '.join(seats)}")
        if any(m.power == found for m in players):
            raise GameError(f"{found} is already taken")
        seat = found
    member = Member(game_id=game.id or 0, role="player", power=seat, address=address,
                    password_hash=password_hash)
    session.add(member)
    session.flush()
    return member


def observe(session: Session, game: Game, address: str, password_hash: str,
            name: str | None) -> Member:
    if any(m.address.lower() == address.lower() for m in members(session, game)):
        raise GameError(f"{address} already plays or observes {game.name}")
    if name:
        # An observer signs on by name and press shows that name: a power's
        # name, initial or the Master's would let an observer pass for them.
        name = name.upper()
        # it goes in a 32-character column and in the press header
        if not re.fullmatch(r"[A-Z0-9_-]{1,20}", name):
            raise GameError("an observer's name is up to 20 letters, digits, '-' or '_'")
        if name in (MASTER, "M", "GM", "ALL") or resolve_power(game, name) is not None \
                or name.isdigit():
            raise GameError(f"an observer may not be called {name}")
        if any(m.power == name for m in members(session, game)):
            raise GameError(f"an observer called {name} is already in {game.name}")
    else:
        # DPJudge observers always have a name to sign on with; give one
        taken = {m.power for m in members(session, game, active_only=False)}
        name = next(f"OBSERVER{n}" for n in range(1, 10_000) if f"OBSERVER{n}" not in taken)
    member = Member(game_id=game.id or 0, role="observer", power=(name or "").upper(),
                    address=address, password_hash=password_hash)
    session.add(member)
    session.flush()
    return member


def reservation(session: Session, game: Game, seat: str) -> Member | None:
    """The newcomer a GM's REPLACE without a password keeps a seat for: a
    member row with status 'reserved', invisible to everything that reads
    the active members, until that address JOINs for the seat."""
    return session.exec(select(Member).where(
        Member.game_id == game.id, Member.power == seat, Member.status == "reserved")).first()


def player_number(session: Session, game: Game, member: Member) -> int:
    """DPJudge's POWER#n: a player's place in the order of joining (resigned
    players keep theirs), by which one not yet given a power signs on
    before the game starts."""
    ids = list(session.exec(select(Member.id).where(
        Member.game_id == game.id, Member.role == "player").order_by(col(Member.id))).all())
    return ids.index(member.id) + 1


def is_full(session: Session, game: Game) -> bool:
    return len(members(session, game, "player")) >= len(seat_names(game))


def shrink_to_players(session: Session, game: Game) -> None:
    """START before every seat is taken: the standard game switches to the
    rulebook's way to play for the players who joined (six players: Italy
    neutral, and so on). A player who chose a power takes the seat that
    holds it, if still free; the others are seated at random."""
    players = members(session, game, "player")
    if len(players) < 2:
        raise GameError(f"game {game.name} needs at least 2 players to start")
    if len(players) not in player_counts(map_of(game)):
        counts = ", ".join(str(n) for n in player_counts(map_of(game)))
        raise GameError(f"game {game.name} is played by {counts} players, not "
                        f"{len(players)}: it starts when all {len(seat_names(game))} "
                        "seats are taken")
    settings = replace(settings_of(game), players=len(players))
    game.settings = settings.to_json()
    session.add(game)
    seats = seat_names(game)
    claimed: set[str] = set()
    for member in players:
        # a chosen power keeps its player in the seat that now holds it
        wanted = [seat for seat in seats
                  if set(seat.split("/")) & set(powers_of(member)) and seat not in claimed]
        member.power = wanted[0] if wanted else ""
        claimed.update(wanted[:1])
        session.add(member)


def start(session: Session, game: Game, now: datetime | None = None) -> GameState:
    """Seat the players (those who chose keep their seat, the rest at
    random from the game's seed), write the first phase, set its deadline."""
    if game.status != "forming":
        raise GameError(f"game {game.name} has already started")
    now = now or utcnow()
    players = members(session, game, "player")
    seats = seat_names(game)
    if len(players) != len(seats):
        raise GameError(f"game {game.name} has {len(players)} of {len(seats)} players")
    if settings_of(game).setup:
        game_map = map_of(game)
        problems = rules_for(game_map).setup_problems(game_map, dict(settings_of(game).setup))
        if problems:
            raise GameError(f"game {game.name}'s {rules_for(game_map).setup_title} "
                            "is not valid: " + "; ".join(problems))
    free = [s for s in seats if s not in {m.power for m in players}]
    random.Random(game.seed).shuffle(free)
    for member in players:
        if not member.power:
            member.power = free.pop()
            session.add(member)
    settings = settings_of(game)
    state = opening(game)
    if dict(settings.rules).get("cd_distance"):
        state = state.evolve(cd_distance=dict(settings.rules)["cd_distance"])
    game.status = "active"
    enter_phase(session, game, state, now, seq=0)
    return state


def enter_phase(session: Session, game: Game, state: GameState, now: datetime,
                seq: int) -> None:
    """The game moves on to ``state``'s phase: its record, its deadline."""
    settings = settings_of(game)
    absences = [(m.absence_from, m.absence_to) for m in members(session, game, "player")
                if m.absence_from and m.absence_to]
    game.phase = str(state.phase)
    game.deadline = next_deadline(settings, state.phase.kind.value, now, absences)
    game.grace_until = None
    session.add(game)
    session.add(PhaseRecord(game_id=game.id or 0, seq=seq, phase=game.phase,
                            state=snapshots.dumps(state), deadline=game.deadline))
    # the position just written is the one current_state would read back
    session.info[(_POSITION, game.id, game.phase)] = state
    for member in members(session, game, "player"):
        if member.wait:
            member.wait = False  # SET WAIT lasts one phase
            session.add(member)


# -- adjudicating ----------------------------------------------------------------


def rollback(session: Session, game: Game, phase: str | None) -> PhaseRecord:
    """Go back to an earlier phase (default: the one before the current
    one): later phases and their orders are deleted."""
    records = phase_records(session, game)
    current = next((r for r in records if r.phase == game.phase), None)
    if current is None:
        raise GameError(f"game {game.name} has not started")
    if phase is None:
        earlier = [r for r in records if r.seq < current.seq]
        if not earlier:
            raise GameError("there is no earlier phase to go back to")
        target = earlier[-1]
    else:
        found = next((r for r in records if r.phase == phase.upper()), None)
        if found is None:
            raise GameError(f"game {game.name} has no phase {phase.upper()}")
        target = found
    for record in records:
        if record.seq >= target.seq:
            # DPJudge: the phase rolled back to starts again without orders
            filed_lines.drop(session, game, record.phase)  # every kind of line
        if record.seq > target.seq:
            session.delete(record)
    target.results = ""
    target.adjudicated_at = None
    session.add(target)
    # a phase processed again may start from another position than the one
    # read before the rollback (other orders this time)
    _forget(session, _POSITION, game.id)
    game.phase = target.phase
    if game.status == "finished":
        game.status = "active"
        game.result = ""
    for member in members(session, game, "player"):
        # votes were cast on a position that is gone; kept, a draw that
        # ended the game would end it again at the next phase
        if member.draw or member.concede_to:
            member.draw = member.concede_to = ""
            session.add(member)
    session.add(game)
    session.flush()
    return target


def replace_position(session: Session, game: Game, state: GameState) -> None:
    """The current phase starts from ``state`` instead (a GM's change to it)."""
    record = phase_record(session, game)
    if record is None:
        raise GameError(f"game {game.name} has not started")
    record.state = snapshots.dumps(state)
    session.add(record)
    session.flush()
    _forget(session, _POSITION, game.id)


def end_game(session: Session, game: Game, status: str, result: str) -> None:
    game.status = status
    game.result = result
    game.deadline = None
    game.grace_until = None
    session.add(game)
