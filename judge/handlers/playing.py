"""A signed-on player's commands: orders, CLEAR, RESIGN, the SET commands,
votes, and press."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, time, timedelta

from engine.phase import Phase, PhaseKind
from engine.phase_context import phase_context
from engine.variants import rules_for
from judge import games, kinds, order_entry, turns, winter_notes
from judge.games import MASTER, GameError
from judge.handlers import leaving
from judge.handlers.common import (
    Context,
    _after_change,
    _identity,
    _mailable,
    _notice,
    _player,
    _settings,
    _signed_on,
)
from judge.mail import (
    format_deadline,
    header,
    phase_name,
    render,
    to_game,
)
from judge.models import Game, Member, Press, as_utc
from judge.passwords import hash_password
from judge.settings import MAX_AHEAD
from parser import commands as c


def _orders_summary(ctx: Context, game: Game, member: Member) -> str:
    state = games.current_state(ctx.session, game)
    powers = games.powers_of(member)
    on_file = {p: o for p, o in games.orders_on_file(ctx.session, game).items() if p in powers}
    lines = [f"Orders on file for {phase_name(game.phase, game.variant)} ({game.phase}):"]
    for power in powers:
        for text in on_file.get(power, []):
            lines.append(f"  {power:<9} {text}")
    if not any(on_file.values()):
        lines.append("  (none)")
    game_map = games.map_of(game)
    missing = order_entry.unordered_units(
        game_map, state, powers, on_file, phase_context(game_map, state).reading)
    if missing:
        lines.append("Without orders: " + ", ".join(missing))
    if state.phase.kind is PhaseKind.ADJUSTMENT:
        lines.extend(winter_notes.due_lines(game_map, state, powers, on_file))
    # the seat's lines of the other kinds the rules read (bids, map orders)
    lines.extend(kinds.summaries(ctx.session, game, game_map, games.board_of(game_map, state),
                                 state, powers))
    return "\n".join(lines)


def do_orders(ctx: Context, command: c.Orders) -> str:
    if ctx.game is None:
        raise GameError("orders must follow a SIGNON (SIGNON power@game password); "
                        "if these lines were meant as commands, check their spelling")
    game, member = _player(ctx)
    at_end = order_entry.AtEnd(command.later, command.after_orders) if command.at_end \
        else None
    report = order_entry.submit_orders(ctx.session, game, member, command.lines, at_end)
    closing = "" if report.closing is None else (
        f"Ignored from line {report.closing[0]} on (looks like a signature, not orders): '"
        f"{report.closing[1].strip()}'")
    if not report.notes and closing:  # the whole run is the closing
        return closing
    lines = []
    for note in report.notes:
        mark = "ok   " if not note.problem else "ERROR"
        lines.append(f"{mark} line {note.line}: {note.text}"
                     + (f"\n        {note.problem}" if note.problem else "")
                     + (f"\n        note: {note.remark}" if note.remark else ""))
    if closing:
        lines.append(closing)
    lines.append("")
    lines.append(_orders_summary(ctx, game, member))
    return "\n".join(lines) + _after_change(ctx, game)


def do_clear(ctx: Context, command: c.Clear) -> str:
    game, member = _player(ctx)
    order_entry.clear_orders(ctx.session, game, member)
    return "Your orders for this phase are cleared.\n" + _orders_summary(ctx, game, member)


def do_resign(ctx: Context, command: c.Resign) -> str:
    if ctx.game is not None and ctx.member is not None and ctx.member.role == "observer":
        return leaving.leave(ctx, ctx.game, [ctx.member])  # njudge: observers RESIGN too
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
    zone = _settings(game).zone
    tz = _settings(game).tz
    # checked before any zone arithmetic, which overflows near the years 1 and 9999
    today = ctx.now.astimezone(tz).date()
    earliest, latest = today - timedelta(days=1), today + MAX_AHEAD
    for day in (command.start, command.end):
        if not earliest <= day <= latest:
            raise GameError(f"an absence must fall between {earliest} and {latest}; "
                            f"{day} does not")
    member.absence_from = datetime.combine(command.start, time(0), tzinfo=tz)
    member.absence_to = datetime.combine(command.end, time(0), tzinfo=tz) + timedelta(days=1)
    ctx.session.add(member)
    text = f"Absence noted from {command.start} to {command.end}: no deadline falls then."
    if game.deadline is not None and member.absence_from <= as_utc(
            game.deadline) < member.absence_to:
        game.deadline = member.absence_to
        ctx.session.add(game)
        _notice(ctx, game, "deadline",
                f"The deadline of {game.phase} moves to "
                f"{format_deadline(game.deadline, _settings(game).zone)} (a player's absence).")
        text += f"\nThe current deadline moves to {format_deadline(game.deadline, zone)}."
    return text


def _running(game: Game) -> None:
    """Votes count only in a running game: one cast before the start would
    end the game at its first phase."""
    if game.status not in ("active", "paused"):
        raise GameError(f"game {game.name} is not running (it is {game.status})")


def do_set_draw(ctx: Context, command: c.SetDraw) -> str:
    game, member = _player(ctx)
    _running(game)
    game_map = games.map_of(game)
    refusal = rules_for(game_map).draw_refusal(game_map)  # DPJudge's NO_DRAW
    if refusal:
        raise GameError(refusal)
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


def _press_rules(ctx: Context, game: Game, command: c.Press) -> None:
    """What the game's rules say of a player's press (DPJudge's FTF_PRESS):
    GameError with their reason when it may not be sent now."""
    if not game.phase:  # a game still forming: no phase, no rule of play yet
        return
    names = [r.upper() for r in command.recipients]
    game_map = games.map_of(game)
    refusal = rules_for(game_map).press_refusal(
        game_map, Phase.parse(game.phase),
        to_master_only=all(n in (MASTER, "M", "GM") for n in names),
        broadcast="ALL" in names,
        after_deadline=game.deadline is not None and ctx.now >= as_utc(game.deadline))
    if refusal:
        raise GameError(refusal)


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
    if not ctx.master:
        _press_rules(ctx, game, command)
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
