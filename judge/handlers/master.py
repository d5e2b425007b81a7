"""The Game Master's commands: CREATE, START, PROCESS, PREVIEW, ROLLBACK,
deadlines, PAUSE/RESUME, EJECT, REPLACE, TERMINATE, OFFICIAL."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, time, timedelta, tzinfo

from engine.map import power_named
from engine.variants import rules_for
from judge import deadline_failure, games, rollback, turns
from judge.games import MASTER, GameError
from judge.handlers.common import Context, _gm, _mailable, _notice, _settings, board_notice_line
from judge.mail import (
    format_deadline,
    header,
    render,
    to_game,
)
from judge.models import Game, Member, Press, as_utc
from judge.outbox import OutboxError, OutgoingMail, check_address
from judge.passwords import hash_password
from judge.seating import named_seats
from judge.settings import (
    MAX_AHEAD,
    SettingsError,
    format_duration,
    next_deadline,
    parse_duration,
    parse_settings,
)
from parser import commands as c

# -- the Game Master -------------------------------------------------------------


def do_create(ctx: Context, command: c.Create) -> str:
    settings, problems = parse_settings(command.settings)
    # a variant not offered first: its players or layers refused would only
    # send the GM to fix a game the judge will not create anyway
    games.check_offered(settings.variant)
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
    # named seats (colour groups) by their names and powers, as drawn so far
    groups = named_seats(games.opening(game))
    seats = "; ".join(groups) if groups else ", ".join(games.seat_names(game))
    notice = board_notice_line(game)
    return (f"Game {game.name} is created; you are its Game Master.\n"
            + (f"{notice}\n" if notice else "")
            + "Settings: " + ", ".join(f"{k} {v}" for k, v in settings.describe())
            + f"\nPlayers join with: JOIN {game.name} password (or JOIN power@{game.name} "
              f"password).\nSeats: {seats}")


def do_start(ctx: Context, command: c.Start) -> str:
    game = _gm(ctx)
    if game.status != "forming":
        raise GameError(f"game {game.name} has already started")
    text = ""
    if not games.is_full(ctx.session, game):
        games.shrink_to_players(ctx.session, game)
        players = len(games.members(ctx.session, game, "player"))
        text = (f"Started with {players} players, by the rulebook's way to play for "
                f"{players}: seats {', '.join(games.seat_names(game))}.\n")
    state = games.start(ctx.session, game, ctx.now)
    ctx.mails.extend(turns.started_mails(ctx.session, game, ctx.config))
    groups = "".join(f"\n  {line}" for line in named_seats(state))
    return text + f"Game {game.name} has started: {game.phase}." + (
        f"\nThe groups' powers (kept in the game's record):{groups}" if groups else "")


def do_process(ctx: Context, command: c.Process) -> str:
    game = _gm(ctx)
    if game.status != "active":
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    phase = game.phase
    missing = games.missing_powers(ctx.session, game, games.map_of(game),
                                   games.current_state(ctx.session, game))
    ctx.mails.extend(turns.process(ctx.session, game, ctx.config, ctx.now))
    text = f"{phase} is processed; results are mailed. Now: {game.phase}."
    if command.forced and missing:  # DPJudge's PROCESS! says what it defaulted
        text += (f"\nProcessed with orders missing from {', '.join(missing)}: their "
                 "units held (retreats disbanded, builds waived, removals chosen).")
    return text


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
    before = rollback.before_rollback(ctx.session, game)  # what the rollback deletes
    target = games.rollback(ctx.session, game, command.phase)
    game.deadline = next_deadline(_settings(game), target.phase[-1], ctx.now)
    game.grace_until = None
    deadline_failure.clear(game)  # the GM's new deadline: tried afresh then
    ctx.session.add(game)
    ctx.mails.extend(rollback.rollback_mails(ctx.session, game, ctx.config, target,
                                             before.undone(game, target)))
    return f"Rolled back to {target.phase}."


_WEEKDAY_TIME = re.compile(r"(?:(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?)?\s*(?:(\d{1,2}):(\d{2}))?",
                           re.IGNORECASE)


def _parse_when(text: str, game: Game, now: datetime) -> datetime:
    """'+48h', '2026-12-01 18:00', '2026-12-01', or DPJudge's short forms
    'Wed 18:00', 'Wed', '18:00': the next such moment, in the game's zone."""
    text = text.strip()
    if text.startswith("+"):
        try:
            return now + parse_duration(text[1:], "deadline")
        except SettingsError as exc:
            raise GameError(str(exc)) from None
    settings = _settings(game)
    tz = settings.tz
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            written = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return _within_reach(text, written, now, tz).replace(tzinfo=tz)
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


def _within_reach(text: str, written: datetime, now: datetime, tz: tzinfo) -> datetime:
    """A date as written (no zone yet), if it is from yesterday to a year
    ahead: checked before any zone arithmetic, which overflows near the
    years 1 and 9999."""
    today = now.astimezone(tz).replace(tzinfo=None)
    if written.date() < (today - timedelta(days=1)).date():
        raise GameError(f"{text} is in the past")
    if written > today + MAX_AHEAD:
        raise GameError(f"{text} is too far ahead: a deadline is at most "
                        f"{MAX_AHEAD.days} days ahead (by {(today + MAX_AHEAD).date()})")
    return written


def do_set_deadline(ctx: Context, command: c.SetDeadline) -> str:
    game = _gm(ctx)
    if game.status not in ("active", "paused"):
        raise GameError(f"game {game.name} is not running")
    when = _parse_when(command.when, game, ctx.now)
    if when <= ctx.now:
        raise GameError("the new deadline is in the past")
    game.deadline = when
    game.grace_until = None
    deadline_failure.clear(game)  # the GM's new deadline: tried afresh then
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
        if end <= as_utc(game.deadline):
            raise GameError("the grace period must end after the deadline")
        when = f"{int((end - as_utc(game.deadline)).total_seconds())}s"
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
    deadline_failure.clear(game)  # the GM's new deadline: tried afresh then
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


def do_set_favor(ctx: Context, command: c.SetFavor) -> str:
    """§11.2: before powers are assigned, the GM may publish another Favor
    setup, a power at a time; the whole setup must stay valid."""
    game = _gm(ctx)
    if game.status != "forming":
        raise GameError(f"game {game.name} has started: its Favor setup is fixed")
    if any(m.power for m in games.members(ctx.session, game, "player")):
        raise GameError("powers are already assigned: publish the setup before players "
                        "choose their powers (§11.2)")
    game_map = games.map_of(game)
    power = power_named(game_map, command.power)
    if power is None:
        raise GameError(f"{command.power} is not a power of {game.name}")
    settings = games.settings_of(game)
    setup = {**dict(settings.setup), power: command.spaces}
    problems = rules_for(game_map).setup_problems(game_map, setup)
    # two Embassies on one hex may be a swap half made: allowed until START
    own = [p for p in problems if p.startswith(f"{power}:") and " is also " not in p]
    if own:
        raise GameError("that setup is not valid: " + "; ".join(own))
    settings = replace(settings, setup=tuple(sorted(setup.items())))
    game.settings = settings.to_json()
    ctx.session.add(game)
    clashes = [p for p in problems if " is also " in p]
    return (f"{power}'s Embassies: {' '.join(command.spaces)}. Setup in force (the default "
            f"for powers not set): " + settings.setup_text()
            + (". Not valid yet (the game cannot start so): " + "; ".join(clashes)
               if clashes else "."))


def do_silence(ctx: Context, command: c.Silence) -> str:
    """A player in exile bids no more (Dissolution §5.3): the GM's call."""
    game = _gm(ctx)
    if game.status not in ("active", "paused"):
        raise GameError(f"game {game.name} is not running (it is {game.status})")
    game_map = games.map_of(game)
    power = power_named(game_map, command.power)
    state = games.current_state(ctx.session, game)
    if power is None:
        raise GameError(f"{command.power} is no power of {game.name}")
    try:
        silenced = rules_for(game_map).silence(game_map, state, power)
    except ValueError as exc:
        raise GameError(f"{exc} ({game.name})") from None
    if silenced == state:
        return f"{power} was already silenced."
    games.replace_position(ctx.session, game, silenced)
    games.file_bids(ctx.session, game, power, [])
    _notice(ctx, game, "silenced", f"The player in exile of {power} no longer bids in "
                                   f"{game.name}.")
    return f"{power} no longer bids; its bids on file are withdrawn."


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
