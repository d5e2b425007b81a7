"""What each command does. ``handle(ctx, command)`` carries one command out
and returns the text that answers it in the reply.

Identity comes from passwords only: a player or GM is who they SIGNON as,
with that role's password, whatever the From header says. The From (or
Reply-To) address is only where the answer goes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from judge import games, turns
from judge.config import Config
from judge.games import MASTER, GameError
from judge.mail import (
    format_deadline,
    header,
    phase_name,
    render,
    to_game,
)
from judge.models import Game, Member, Press
from judge.outbox import OutboxError, OutgoingMail, check_address
from judge.passwords import check_password, hash_password
from judge.settings import (
    SettingsError,
    format_duration,
    next_deadline,
    parse_duration,
    parse_settings,
)
from parser import commands as c


@dataclass
class Context:
    session: Session
    config: Config
    sender: str
    now: datetime
    inbound_id: int | None = None
    game: Game | None = None  # the game signed on to
    member: Member | None = None  # the player or observer signed on as
    master: bool = False  # signed on as the game's GM
    mails: list[OutgoingMail] = field(default_factory=list)
    # the order lines of this mail so far, per (member, phase): one mail's
    # orders are one set, however blank lines, comments or commands split them
    order_lines: dict[tuple[int, str], list[tuple[int, str]]] = field(default_factory=dict)


def handle(ctx: Context, command: Any) -> str:
    handler = HANDLERS.get(type(command))
    if handler is None:
        return f"{type(command).__name__} is not available on this judge yet."
    try:
        return handler(ctx, command)
    except GameError as exc:
        return f"Refused: {exc}"


# -- helpers -------------------------------------------------------------------


def _game(ctx: Context, name: str) -> Game:
    game = ctx.session.exec(select(Game).where(Game.name == name.lower())).first()
    if game is None:
        raise GameError(f"there is no game called {name.lower()}; send LIST for the games")
    return game


def _signed_on(ctx: Context) -> Game:
    if ctx.game is None:
        raise GameError("SIGNON first (SIGNON power@game password)")
    return ctx.game


def _player(ctx: Context) -> tuple[Game, Member]:
    game = _signed_on(ctx)
    if ctx.member is None or ctx.member.role != "player":
        raise GameError("only a player can do that; SIGNON as your power")
    if ctx.member.status != "active":
        raise GameError(f"you are no longer a player of {game.name}")
    return game, ctx.member


def _gm(ctx: Context) -> Game:
    game = _signed_on(ctx)
    if not ctx.master:
        raise GameError("only the Game Master can do that (SIGNON master@game password)")
    return game


def _settings(game: Game) -> Any:
    return games.settings_of(game)


def _notice(ctx: Context, game: Game, subject: str, text: str) -> None:
    settings = _settings(game)
    body = render("notice.txt.j2", **header(ctx.config, game, settings), text=text)
    ctx.mails.extend(to_game(game, settings, ctx.config, turns.everyone(ctx.session, game),
                             f"Diplomacy {subject} {game.name}", body, "notice"))


def _after_change(ctx: Context, game: Game) -> str:
    """Early processing once every power has orders and nobody waits."""
    if turns.all_orders_in(ctx.session, game):
        phase = game.phase
        ctx.mails.extend(turns.process(ctx.session, game, ctx.config, ctx.now))
        return f"\nEvery power has orders: {phase} has been processed; results are mailed."
    return ""


def _mailable(address: str) -> str:
    """An address the judge can mail, checked before it is stored: a bad
    one would make every later mail to the game fail to build."""
    if "," in address:
        raise GameError("give one address (the judge mails one address per player)")
    try:
        return check_address(address)
    except OutboxError as exc:
        raise GameError(str(exc)) from None


# -- anyone --------------------------------------------------------------------


def do_help(ctx: Context, command: c.Help) -> str:
    return render("help.txt.j2", address=ctx.config.address, judge=ctx.config.name)


def do_list(ctx: Context, command: c.ListGames) -> str:
    if command.game:
        return _describe_game(ctx, _game(ctx, command.game))
    if ctx.game is not None:
        # DPJudge: a bare LIST after SIGNON is about the game signed on to
        return _describe_game(ctx, ctx.game)
    rows = ctx.session.exec(select(Game).order_by(col(Game.name))).all()
    if not rows:
        return "There are no games on this judge yet. A GM starts one with CREATE."
    lines = [f"{'game':<20} {'variant':<12} {'status':<11} {'phase':<8} players"]
    for game in rows:
        players = len(games.members(ctx.session, game, "player"))
        wanted = _settings(game).players
        lines.append(f"{game.name:<20} {game.variant:<12} {game.status:<11} "
                     f"{game.phase or '-':<8} {players}/{wanted}")
    return "\n".join(lines)


def _describe_game(ctx: Context, game: Game) -> str:
    settings = _settings(game)
    lines = [f"Game {game.name}: {game.variant}, {game.status}"
             + (f" ({game.result})" if game.result else "")]
    if game.phase:
        lines.append(f"Phase {game.phase} ({phase_name(game.phase)}), due "
                     f"{format_deadline(game.deadline, settings.zone)}")
    lines.append("Settings: " + ", ".join(f"{k} {v}" for k, v in settings.describe()))
    players = games.members(ctx.session, game, "player")
    if players:
        lines.append("Players:")
        missing: set[str] = set()
        if game.status == "active":
            state = games.current_state(ctx.session, game)
            missing = set(games.missing_powers(ctx.session, game, games.map_of(game), state))
        for m in players:
            flag = ""
            if game.status == "active":
                flag = "  (no orders yet)" if set(games.powers_of(m)) & missing else \
                    "  (orders in)"
            lines.append(f"  {m.power or '(not yet assigned)':<28}{flag}")
    observers = games.members(ctx.session, game, "observer")
    if observers:
        lines.append(f"Observers: {len(observers)}")
    return "\n".join(lines)


def do_history(ctx: Context, command: c.History) -> str:
    game = _game(ctx, command.game)
    records = [r for r in games.phase_records(ctx.session, game) if r.results]
    start, end = (command.start or "").upper(), (command.end or "").upper()
    seqs = {r.phase: r.seq for r in records}
    for name in (start, end):
        if name and name not in seqs:
            raise GameError(f"game {game.name} has no processed phase {name}")
    lo = seqs.get(start, -1)
    hi = seqs.get(end, 10**9)
    chosen = [r for r in records if lo <= r.seq <= hi]
    if not chosen:
        return f"Game {game.name} has no processed phases yet."
    out = []
    for record in chosen:
        out.append(f"{record.phase} ({phase_name(record.phase)})")
        for row in turns.results_text(record.results):
            reason = f": {row['reason']}" if row.get("reason") else ""
            out.append(f"  {row['power']:<9} {row['order']:<30} {row['outcome']}{reason}")
    return "\n".join(out)


def do_summary(ctx: Context, command: c.Summary) -> str:
    game = _game(ctx, command.game)
    from judge import snapshots
    from judge.mail import centre_table
    records = games.phase_records(ctx.session, game)
    if not records:
        return f"Game {game.name} has not started."
    game_map = games.map_of(game)
    powers = list(game_map.powers)
    lines = ["Supply centres at the start of each year:",
             "year  " + " ".join(f"{p[:3]:>4}" for p in powers)]
    for record in records:
        if record.phase.startswith("S") and record.phase.endswith("M"):
            table = {r["power"]: r["count"] for r in centre_table(
                game_map, snapshots.loads(record.state))}
            lines.append(f"{record.phase[1:5]}  " + " ".join(f"{table[p]:>4}" for p in powers))
    lines.append("")
    lines.append(_describe_game(ctx, game))
    return "\n".join(lines)


def do_map(ctx: Context, command: c.MapRequest) -> str:
    game = _game(ctx, command.game)
    phase = (command.phase or game.phase).upper()
    record = games.phase_record(ctx.session, game, phase)
    if record is None:
        raise GameError(f"game {game.name} has no phase {phase}")
    from judge import snapshots
    state = snapshots.loads(record.state)
    lines = [f"Position of {game.name} at the start of {phase} ({phase_name(phase)}):"]
    for power in games.map_of(game).powers:
        units = [str(u) for u in state.units if u.power == power]
        centres = state.centres_of(power)
        if units or centres:
            lines.append(f"  {power:<9} units: {', '.join(units) or '-'}")
            lines.append(f"  {'':<9} centres ({len(centres)}): {' '.join(centres) or '-'}")
    for d in state.dislodged:
        lines.append(f"  dislodged: {d.unit.power} {d.unit} (retreats: "
                     f"{', '.join(d.retreats) or 'none'})")
    return "\n".join(lines)


def do_observe(ctx: Context, command: c.Observe) -> str:
    game = _game(ctx, command.game)
    member = games.observe(ctx.session, game, ctx.sender, hash_password(command.password),
                           command.name)
    ctx.game, ctx.member, ctx.master = game, member, False
    return f"You observe {game.name}: you will receive its results and broadcast press."


def do_join(ctx: Context, command: c.Join) -> str:
    game = _game(ctx, command.game)
    if game.status != "forming":
        return _take_over(ctx, game, command)
    member = games.join(ctx.session, game, ctx.sender, hash_password(command.password),
                        command.power)
    ctx.game, ctx.member, ctx.master = game, member, False
    players = len(games.members(ctx.session, game, "player"))
    wanted = len(games.seat_names(game))
    text = (f"You have joined {game.name}"
            + (f" as {member.power}" if member.power else "")
            + f". {players} of {wanted} players.")
    if not member.power:
        number = games.player_number(ctx.session, game, member)
        text += (f"\nYou are {_identity(ctx, game, member)} until the game starts and gives "
                 f"you a power; sign on meanwhile with SIGNON {number}{game.name} password.")
    if games.is_full(ctx.session, game):
        games.start(ctx.session, game, ctx.now)
        ctx.mails.extend(turns.started_mails(ctx.session, game, ctx.config))
        text += f"\nThe game is full and has started: {game.phase}."
    return text


def _take_over(ctx: Context, game: Game, command: c.Join) -> str:
    """Joining a running game: a seat left vacant by RESIGN, EJECT or REPLACE."""
    if game.status not in ("active", "paused") or not command.power:
        raise GameError(f"game {game.name} is not taking players (it is {game.status})")
    seat = games.resolve_power(game, command.power)
    if seat is None:
        raise GameError(f"{command.power} is not a power of {game.name}")
    players = games.members(ctx.session, game, "player")
    if any(m.power == seat for m in players):
        raise GameError(f"{seat} is played by someone else")
    if any(m.address.lower() == ctx.sender.lower() for m in players):
        raise GameError(f"{ctx.sender} already plays or observes {game.name}")
    reserved = games.reservation(ctx.session, game, seat)
    if reserved is not None and reserved.address.lower() != ctx.sender.lower():
        raise GameError(f"{seat} is kept for the replacement the GM named")
    member = reserved or Member(game_id=game.id or 0, role="player", power=seat,
                                address=ctx.sender, password_hash="")
    member.password_hash = hash_password(command.password)
    member.status = "active"
    ctx.session.add(member)
    ctx.session.flush()
    ctx.game, ctx.member, ctx.master = game, member, False
    _notice(ctx, game, "replacement", f"{seat} in {game.name} is now played by a new player.")
    return f"You now play {seat} in {game.name} ({game.phase})."


def do_signon(ctx: Context, command: c.Signon) -> str:
    game = _game(ctx, command.game)
    who = command.power.upper()
    if who in (MASTER, "M", "GM"):
        if not check_password(command.password, game.master_hash):
            raise GameError("wrong password for the Game Master")
        ctx.game, ctx.member, ctx.master = game, None, True
        return f"Signed on as the Game Master of {game.name}."
    seat = games.resolve_power(game, who)
    candidates = [m for m in games.members(ctx.session, game)
                  if (seat and m.power == seat) or m.power == who]
    number = re.fullmatch(r"(?:POWER#?)?(\d{1,2})", who)
    if number and game.status == "forming":
        candidates = [m for m in games.members(ctx.session, game, "player") if not m.power
                      and games.player_number(ctx.session, game, m) == int(number[1])]
    for member in candidates:
        if check_password(command.password, member.password_hash):
            ctx.game, ctx.member, ctx.master = game, member, False
            text = f"Signed on as {_identity(ctx, game, member)} in {game.name}."
            if game.status == "active" and member.role == "player":
                text += "\n" + _orders_summary(ctx, game, member)
            return text
    raise GameError(f"wrong power or password for {game.name}")


def _identity(ctx: Context, game: Game, member: Member) -> str:
    """Who a member is in replies: a power, an observer's name, or POWER#n."""
    if member.power:
        return member.power
    return f"POWER#{games.player_number(ctx.session, game, member)}"


def do_signoff(ctx: Context, command: c.Signoff) -> str:
    ctx.game, ctx.member, ctx.master = None, None, False
    return "Signed off. Anything after this is ignored."


def _orders_summary(ctx: Context, game: Game, member: Member) -> str:
    state = games.current_state(ctx.session, game)
    powers = games.powers_of(member)
    on_file = {p: o for p, o in games.orders_on_file(ctx.session, game).items() if p in powers}
    lines = [f"Orders on file for {phase_name(game.phase)} ({game.phase}):"]
    for power in powers:
        for text in on_file.get(power, []):
            lines.append(f"  {power:<9} {text}")
    if not any(on_file.values()):
        lines.append("  (none)")
    missing = games.unordered_units(games.map_of(game), state, powers, on_file)
    if missing:
        lines.append("Without orders: " + ", ".join(missing))
    return "\n".join(lines)


def do_orders(ctx: Context, command: c.Orders) -> str:
    if ctx.game is None:
        raise GameError("orders must follow a SIGNON (SIGNON power@game password); "
                        "if these lines were meant as commands, check their spelling")
    game, member = _player(ctx)
    so_far = ctx.order_lines.setdefault((member.id or 0, game.phase), [])
    so_far.extend(command.lines)
    report = games.submit_orders(ctx.session, game, member, so_far)
    these = {number for number, _ in command.lines}
    lines = []
    for note in (n for n in report.notes if n.line in these):
        mark = "ok   " if not note.problem else "ERROR"
        lines.append(f"{mark} line {note.line}: {note.text}"
                     + (f"\n        {note.problem}" if note.problem else ""))
    lines.append("")
    lines.append(_orders_summary(ctx, game, member))
    return "\n".join(lines) + _after_change(ctx, game)


def do_clear(ctx: Context, command: c.Clear) -> str:
    game, member = _player(ctx)
    games.clear_orders(ctx.session, game, member)
    return "Your orders for this phase are cleared.\n" + _orders_summary(ctx, game, member)


def do_resign(ctx: Context, command: c.Resign) -> str:
    game, member = _player(ctx)
    member.status = "resigned"
    ctx.session.add(member)
    _notice(ctx, game, "resignation",
            f"The player of {member.power or 'an unassigned seat'} has resigned from "
            f"{game.name}. The GM may REPLACE them; until then the seat sends no orders.")
    # ctx.member stays: DPJudge lets a resigning player send press (a parting
    # word, a named replacement) in the same mail, signed with the seat
    return f"You have resigned from {game.name}."


def do_set_password(ctx: Context, command: c.SetPassword) -> str:
    game = _signed_on(ctx)
    if ctx.master:
        game.master_hash = hash_password(command.password)
        ctx.session.add(game)
        return "The Game Master's password is changed."
    assert ctx.member is not None
    ctx.member.password_hash = hash_password(command.password)
    ctx.session.add(ctx.member)
    return "Your password is changed."


def do_set_address(ctx: Context, command: c.SetAddress) -> str:
    game = _signed_on(ctx)
    _mailable(command.address)
    if ctx.master:
        game.master_address = command.address
        ctx.session.add(game)
    else:
        assert ctx.member is not None
        ctx.member.address = command.address
        ctx.session.add(ctx.member)
    return f"Mail for you in {game.name} now goes to {command.address}."


def do_set_wait(ctx: Context, command: c.SetWait) -> str:
    game, member = _player(ctx)
    member.wait = command.wait
    ctx.session.add(member)
    if command.wait:
        return "WAIT set: this phase will not be processed before its deadline."
    return "NOWAIT set: the phase may be processed as soon as every power has orders." + \
        _after_change(ctx, game)


def do_set_absence(ctx: Context, command: c.SetAbsence) -> str:
    game, member = _player(ctx)
    if command.start is None or command.end is None:
        member.absence_from = member.absence_to = None
        ctx.session.add(member)
        return "Your absence is cancelled."
    if command.end < command.start:
        raise GameError("the absence ends before it starts")
    if (command.end - command.start).days > 21:
        raise GameError("an absence may last at most three weeks")
    tz = ZoneInfo(_settings(game).zone)
    member.absence_from = datetime.combine(command.start, time(0), tzinfo=tz)
    member.absence_to = datetime.combine(command.end, time(0), tzinfo=tz) + timedelta(days=1)
    ctx.session.add(member)
    text = f"Absence noted from {command.start} to {command.end}: no deadline falls then."
    if game.deadline is not None and member.absence_from <= turns._aware(
            game.deadline) < member.absence_to:
        game.deadline = member.absence_to
        ctx.session.add(game)
        _notice(ctx, game, "deadline",
                f"The deadline of {game.phase} moves to "
                f"{format_deadline(game.deadline, _settings(game).zone)} (a player's absence).")
        text += f"\nThe current deadline moves to {format_deadline(game.deadline, tz.key)}."
    return text


def _running(game: Game) -> None:
    """Votes count only in a running game: one cast before the start would
    end the game at its first phase."""
    if game.status not in ("active", "paused"):
        raise GameError(f"game {game.name} is not running (it is {game.status})")


def do_set_draw(ctx: Context, command: c.SetDraw) -> str:
    game, member = _player(ctx)
    _running(game)
    if command.powers:
        seats = []
        for power in command.powers:
            seat = games.resolve_power(game, power)
            if seat is None:
                raise GameError(f"{power} is not a power of {game.name}")
            seats.append(seat)
        member.draw = " ".join(sorted(set(seats)))  # once each: the column holds 256
    else:
        member.draw = "*"
    ctx.session.add(member)
    text = "Your draw vote is recorded (votes are secret until everyone agrees)."
    ctx.mails.extend(turns.maybe_draw_or_concession(ctx.session, game, ctx.config))
    if game.status == "finished":
        text += f"\nEvery player agreed: the game is over ({game.result})."
    return text


def do_set_nodraw(ctx: Context, command: c.SetNoDraw) -> str:
    _, member = _player(ctx)
    member.draw = ""
    ctx.session.add(member)
    return "Your draw vote is withdrawn."


def do_set_concede(ctx: Context, command: c.SetConcede) -> str:
    game, member = _player(ctx)
    _running(game)
    seat = games.resolve_power(game, command.power)
    if seat is None:
        raise GameError(f"{command.power} is not a power of {game.name}")
    if seat == member.power:
        raise GameError("you cannot concede to yourself")
    member.concede_to = seat
    ctx.session.add(member)
    ctx.mails.extend(turns.maybe_draw_or_concession(ctx.session, game, ctx.config))
    text = f"Your concession to {seat} is recorded."
    if game.status == "finished":
        text += f"\nEvery other player agreed: the game is over ({game.result})."
    return text


def do_press(ctx: Context, command: c.Press) -> str:
    game = _signed_on(ctx)
    settings = _settings(game)
    sender = MASTER if ctx.master else (_identity(ctx, game, ctx.member) if ctx.member
                                        else "")
    if settings.press == "none" and not ctx.master and \
            tuple(r.upper() for r in command.recipients) != (MASTER,):
        raise GameError(f"{game.name} allows no press (only press to MASTER)")
    if command.grey and settings.press != "grey":
        raise GameError(f"{game.name} does not allow grey (anonymous) press")
    everyone = turns.everyone(ctx.session, game)
    targets: list[Member]
    if any(r.upper() == "ALL" for r in command.recipients):
        targets = everyone
        label = "everyone"
    else:
        targets, names = [], []
        for name in command.recipients:
            if name.upper() in (MASTER, "M", "GM"):
                targets.append(everyone[-1])
                names.append(MASTER)
                continue
            seat = games.resolve_power(game, name)
            found = [m for m in everyone if seat and m.power == seat]
            if not found:
                raise GameError(f"{name} is not a player of {game.name}")
            targets.extend(found)
            names.append(seat or name)
        label = ", ".join(names)
    body = render("press.txt.j2", **header(ctx.config, game, settings), official=False,
                  grey=command.grey, sender=sender, recipients=label, body=command.body)
    ctx.session.add(Press(game_id=game.id or 0, phase=game.phase, sender=sender,
                          recipients=json.dumps(list(command.recipients)),
                          grey=command.grey, body=command.body))
    subject = f"Diplomacy press {game.name}"
    if label == "everyone":
        ctx.mails.extend(to_game(game, settings, ctx.config, targets, subject, body, "press"))
    else:
        # private press never goes to the game's public mailing list
        ctx.mails.extend(to_game(game, replace(settings, list_address=""), ctx.config,
                                 targets, subject, body, "press"))
    return f"Press sent to {label}" + (" (grey: your name is not shown)." if command.grey
                                       else ".")


# -- the Game Master -------------------------------------------------------------


def do_create(ctx: Context, command: c.Create) -> str:
    settings, problems = parse_settings(command.settings)
    if not any(key.lower() in ("zone", "timezone") for key, _ in command.settings):
        settings = replace(settings, zone=ctx.config.time_zone)
    if settings.list_address:
        # every broadcast and result goes there too: one the judge cannot mail
        # would make all of them fail
        try:
            check_address(settings.list_address)
        except OutboxError as exc:
            problems.append(f"list: {exc}")
    if problems:
        raise GameError("the game is not created:\n  " + "\n  ".join(problems))
    game = games.create_game(ctx.session, command.game, hash_password(command.password),
                             ctx.sender, settings)
    ctx.game, ctx.member, ctx.master = game, None, True
    seats = games.seat_names(game)
    return (f"Game {game.name} is created; you are its Game Master.\n"
            + "Settings: " + ", ".join(f"{k} {v}" for k, v in settings.describe())
            + f"\nPlayers join with: JOIN {game.name} password (or JOIN power@{game.name} "
              f"password).\nSeats: {', '.join(seats)}")


def do_start(ctx: Context, command: c.Start) -> str:
    game = _gm(ctx)
    games.start(ctx.session, game, ctx.now)
    ctx.mails.extend(turns.started_mails(ctx.session, game, ctx.config))
    return f"Game {game.name} has started: {game.phase}."


def do_process(ctx: Context, command: c.Process) -> str:
    game = _gm(ctx)
    if game.status != "active":
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    phase = game.phase
    ctx.mails.extend(turns.process(ctx.session, game, ctx.config, ctx.now))
    return f"{phase} is processed; results are mailed. Now: {game.phase}."


def do_preview(ctx: Context, command: c.Preview) -> str:
    game = _gm(ctx)
    if game.status != "active":
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    ctx.mails.extend(turns.preview(ctx.session, game, ctx.config))
    return f"A preview of {game.phase} is mailed to you alone; nothing is stored."


def do_rollback(ctx: Context, command: c.Rollback) -> str:
    game = _gm(ctx)
    if game.status not in ("active", "paused", "finished"):
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    target = games.rollback(ctx.session, game, command.phase)
    game.deadline = next_deadline(_settings(game), target.phase[-1], ctx.now)
    game.grace_until = None
    ctx.session.add(game)
    _notice(ctx, game, "rollback",
            f"The Game Master has rolled {game.name} back to {target.phase}; the "
            f"orders for it are cleared, and new orders are due "
            f"{format_deadline(game.deadline, _settings(game).zone)}.")
    return f"Rolled back to {target.phase}."


_WEEKDAY_TIME = re.compile(r"(?:(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?)?\s*(?:(\d{1,2}):(\d{2}))?",
                           re.IGNORECASE)


def _parse_when(text: str, game: Game, now: datetime) -> datetime:
    """'+48h', '2026-12-01 18:00', '2026-12-01', or DPJudge's short forms
    'Wed 18:00', 'Wed', '18:00': the next such moment, in the game's zone."""
    text = text.strip()
    if text.startswith("+"):
        try:
            return now + parse_duration(text[1:])
        except SettingsError as exc:
            raise GameError(str(exc)) from None
    settings = _settings(game)
    tz = ZoneInfo(settings.zone)
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=tz)
        except ValueError:
            continue
    short = _WEEKDAY_TIME.fullmatch(text)
    if short and (short[1] or short[2]):
        at = settings.time_of_day or time(0, 0)
        if short[2]:
            if int(short[2]) > 23 or int(short[3]) > 59:
                raise GameError(f"{text!r}: there is no such time of day")
            at = time(int(short[2]), int(short[3]))
        local = now.astimezone(tz)
        when = local.replace(hour=at.hour, minute=at.minute, second=0, microsecond=0)
        if short[1]:
            weekday = ("mon", "tue", "wed", "thu", "fri", "sat", "sun").index(short[1].lower())
            when += timedelta(days=(weekday - local.weekday()) % 7)
            step = timedelta(days=7)
        else:
            step = timedelta(days=1)
        return when if when > local else when + step
    raise GameError(f"{text!r} is not a time like 2026-12-01 18:00, Wed 18:00 or +48h")


def do_set_deadline(ctx: Context, command: c.SetDeadline) -> str:
    game = _gm(ctx)
    if game.status not in ("active", "paused"):
        raise GameError(f"game {game.name} is not running")
    when = _parse_when(command.when, game, ctx.now)
    if when <= ctx.now:
        raise GameError("the new deadline is in the past")
    game.deadline = when
    game.grace_until = None
    ctx.session.add(game)
    record = games.phase_record(ctx.session, game)
    if record is not None:
        record.deadline = when
        ctx.session.add(record)
    shown = format_deadline(when, _settings(game).zone)
    _notice(ctx, game, "deadline", f"The deadline of {game.phase} is now {shown}.")
    return f"The deadline of {game.phase} is now {shown}."


def do_set_grace(ctx: Context, command: c.SetGrace) -> str:
    """SET GRACE 24h (or +24h): the grace late powers get after a deadline;
    SET GRACE 2026-12-02 18:00: the grace that ends then for this deadline."""
    game = _gm(ctx)
    when = command.when.strip().removeprefix("+").strip()
    if when[:1].isdigit() and "-" in when and game.deadline is not None:
        end = _parse_when(when, game, ctx.now)
        if end <= turns._aware(game.deadline):
            raise GameError("the grace period must end after the deadline")
        when = f"{int((end - turns._aware(game.deadline)).total_seconds())}s"
    settings, problems = parse_settings([("grace", when)], _settings(game))
    if problems:
        raise GameError(problems[0])
    game.settings = settings.to_json()
    ctx.session.add(game)
    return f"The grace period for late powers is now {format_duration(settings.grace)}."


def do_pause(ctx: Context, command: c.Pause) -> str:
    game = _gm(ctx)
    if game.status != "active":
        raise GameError(f"game {game.name} is not running")
    game.status = "paused"
    ctx.session.add(game)
    _notice(ctx, game, "paused", f"The Game Master has paused {game.name}.")
    return f"{game.name} is paused; no deadline will pass until RESUME."


def do_resume(ctx: Context, command: c.Resume) -> str:
    game = _gm(ctx)
    if game.status != "paused":
        raise GameError(f"game {game.name} is not paused")
    game.status = "active"
    settings = _settings(game)
    game.deadline = next_deadline(settings, game.phase[-1], ctx.now)
    game.grace_until = None
    ctx.session.add(game)
    shown = format_deadline(game.deadline, settings.zone)
    _notice(ctx, game, "resumed", f"{game.name} is running again; {game.phase} is due {shown}.")
    return f"{game.name} resumes; {game.phase} is due {shown}."


def do_eject(ctx: Context, command: c.Eject) -> str:
    game = _gm(ctx)
    seat = games.resolve_power(game, command.power)
    found = [m for m in games.members(ctx.session, game, "player") if m.power == seat]
    if not found:
        raise GameError(f"nobody plays {command.power} in {game.name}")
    for member in found:
        member.status = "ejected"
        ctx.session.add(member)
    _notice(ctx, game, "ejection", f"The player of {seat} has been removed from {game.name}.")
    return f"The player of {seat} is ejected; the seat is vacant."


def do_replace(ctx: Context, command: c.Replace) -> str:
    game = _gm(ctx)
    if game.status not in ("active", "paused"):
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    seat = games.resolve_power(game, command.power)
    if seat is None:
        raise GameError(f"{command.power} is not a power of {game.name}")
    address = _mailable(command.address)
    players = games.members(ctx.session, game, "player")
    if any(m.address.lower() == address.lower() and m.power != seat for m in players):
        raise GameError(f"{address} already plays another seat in {game.name}")
    for member in players:
        if member.power == seat:
            member.status = "replaced"
            ctx.session.add(member)
    earlier = games.reservation(ctx.session, game, seat)
    if earlier is not None:  # the GM changed their mind about who comes
        ctx.session.delete(earlier)
    if command.password:
        ctx.session.add(Member(game_id=game.id or 0, role="player", power=seat,
                               address=address,
                               password_hash=hash_password(command.password)))
        text = (f"{seat} is now played from {address} with the password you gave "
                f"(tell them yourself; the judge never mails passwords).")
        # no JOIN follows to tell the game, as it does without a password
        _notice(ctx, game, "replacement", f"{seat} in {game.name} is now played by a new "
                                          f"player.")
    else:
        ctx.session.add(Member(game_id=game.id or 0, role="player", power=seat,
                               address=address, password_hash="", status="reserved"))
        text = (f"{seat} is kept for {address}, who takes it with "
                f"JOIN {seat.split('/')[0].lower()}@{game.name} their-password.")
    ctx.session.flush()
    ctx.mails.append(OutgoingMail(
        to=(address,), subject=f"Diplomacy game {game.name}: you are invited",
        body=render("notice.txt.j2", **header(ctx.config, game, _settings(game)),
                    text=f"The Game Master of {game.name} has asked you to play {seat}.\n"
                         + ("Sign on with the password the GM gives you:\n\n"
                            f"  SIGNON {seat.split('/')[0].lower()}@{game.name} password"
                            if command.password else
                            "Take the seat by sending, with a password of your choice:\n\n"
                            f"  JOIN {seat.split('/')[0].lower()}@{game.name} password")),
        kind="notice", game=game.name))
    return text


def do_terminate(ctx: Context, command: c.Terminate) -> str:
    game = _gm(ctx)
    if game.status in ("finished", "terminated"):
        raise GameError(f"game {game.name} is already over")
    games.end_game(ctx.session, game, "terminated", "terminated by the Game Master")
    ctx.mails.extend(turns.ended_mails(ctx.session, game, ctx.config))
    return f"{game.name} is terminated."


def do_official(ctx: Context, command: c.Official) -> str:
    game = _gm(ctx)
    settings = _settings(game)
    body = render("press.txt.j2", **header(ctx.config, game, settings), official=True,
                  grey=False, sender=MASTER, recipients="everyone", body=command.body)
    ctx.session.add(Press(game_id=game.id or 0, phase=game.phase, sender=MASTER,
                          recipients='["ALL"]', grey=False, body=command.body))
    ctx.mails.extend(to_game(game, settings, ctx.config, turns.everyone(ctx.session, game),
                             f"Diplomacy official message {game.name}", body, "press"))
    return "Official message sent to everyone in the game."


HANDLERS: dict[type, Callable[[Context, Any], str]] = {
    c.Help: do_help, c.ListGames: do_list, c.History: do_history, c.Summary: do_summary,
    c.MapRequest: do_map, c.Observe: do_observe, c.Join: do_join, c.Signon: do_signon,
    c.Signoff: do_signoff, c.Orders: do_orders, c.Clear: do_clear, c.Resign: do_resign,
    c.SetPassword: do_set_password, c.SetAddress: do_set_address, c.SetWait: do_set_wait,
    c.SetAbsence: do_set_absence, c.SetDraw: do_set_draw, c.SetNoDraw: do_set_nodraw,
    c.SetConcede: do_set_concede, c.Press: do_press, c.Create: do_create, c.Start: do_start,
    c.Process: do_process, c.Preview: do_preview, c.Rollback: do_rollback,
    c.SetDeadline: do_set_deadline, c.SetGrace: do_set_grace, c.Pause: do_pause,
    c.Resume: do_resume, c.Eject: do_eject, c.Replace: do_replace,
    c.Terminate: do_terminate, c.Official: do_official,
}
