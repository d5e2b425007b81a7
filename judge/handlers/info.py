"""Commands for anyone that only read: HELP, LIST, HISTORY, SUMMARY, MAP."""

from __future__ import annotations

import textwrap

from sqlmodel import col, select

from engine.variant_file import offered_variants, variant_notice
from engine.variants import rules_for
from judge import deadline_failure, games, manual_topics, maps
from judge.games import GameError
from judge.handlers.common import Context, _game, _settings, board_notice_line
from judge.history import history_text
from judge.mail import (
    format_deadline,
    phase_name,
    render,
    variant_line,
)
from judge.maps.stored import stored_scene
from judge.models import Game
from judge.settings import settings_offered
from parser import commands as c

# -- anyone --------------------------------------------------------------------


def do_help(ctx: Context, command: c.Help) -> str:
    if command.topic:
        return manual_topics.lookup(command.topic)
    return render("help.txt.j2", address=ctx.config.address, judge=ctx.config.name,
                  create_settings=settings_offered()) + \
        "\n" + manual_topics.contents()


def do_list(ctx: Context, command: c.ListGames) -> str:
    if command.game:
        return _describe_game(ctx, _game(ctx, command.game))
    if ctx.game is not None:
        # DPJudge: a bare LIST after SIGNON is about the game signed on to
        return _describe_game(ctx, ctx.game)
    rows = ctx.session.exec(select(Game).order_by(col(Game.name))).all()
    # a variant's notice about its board (Intercontinental's provisional one)
    # beside its name, before a GM creates a game of it
    offered = "Variants offered: " + ", ".join(
        f"{name} ({variant_notice(name)})" if variant_notice(name) else name
        for name in offered_variants()) + " (CREATE's setting 'variant NAME')."
    # some forty variants: a mail's lines stay within 78 columns
    offered = textwrap.fill(offered, 78, break_long_words=False, break_on_hyphens=False)
    if not rows:
        return ("There are no games on this judge yet. A GM starts one with CREATE.\n"
                + offered)
    lines = [f"{'game':<20} {'variant':<12} {'status':<11} {'phase':<8} players"]
    for game in rows:
        players = len(games.members(ctx.session, game, "player"))
        wanted = len(games.seat_names(game))
        lines.append(f"{game.name:<20} {game.variant:<12} {game.status:<11} "
                     f"{game.phase or '-':<8} {players}/{wanted}")
    lines.append(offered)
    return "\n".join(lines)


def _describe_game(ctx: Context, game: Game) -> str:
    settings = _settings(game)
    lines = [f"Game {game.name}: {variant_line(game.variant, settings)}, {game.status}"
             + (f" ({game.result})" if game.result else "")]
    if board_notice_line(game):
        lines.append(board_notice_line(game))
    if game.phase:
        lines.append(f"Phase {game.phase} ({phase_name(game.phase, game.variant)}), due "
                     f"{format_deadline(game.deadline, settings.zone)}")
    if deadline_failure.failing(game):
        gm = ctx.master and ctx.game is not None and ctx.game.id == game.id
        lines.append(deadline_failure.status_line(game, settings.zone, with_error=gm))
    lines.append("Settings: " + ", ".join(f"{k} {v}" for k, v in settings.describe()))
    if settings.setup:  # players see the setup in force before they choose (§11.2)
        rules = rules_for(games.map_of(game))
        lines.append(f"{rules.setup_title.capitalize()} ({rules.setup_default}): "
                     + settings.setup_text())
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


def do_status(ctx: Context, command: c.Status) -> str:
    """DPJudge's STATUS, replaced by the reply to SIGNON (a player's orders
    on file) and by LIST (a game): it answers as they do."""
    from judge.handlers.playing import _orders_summary
    if command.game is not None and (ctx.game is None or ctx.game.name != command.game):
        return _describe_game(ctx, _game(ctx, command.game))
    if ctx.game is None:
        raise GameError("STATUS (DPJudge's) is replaced here by SIGNON, whose reply lists "
                        "your orders on file (SIGNON france@mygame password), and by "
                        "LIST mygame, which describes a game")
    if ctx.member is not None and ctx.member.role == "player" and ctx.game.status == "active":
        return _orders_summary(ctx, ctx.game, ctx.member)
    return _describe_game(ctx, ctx.game)


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
    # secrets (the bids) are kept until the game is over (§5.1.3), but
    # from its GM, signed on, as from the GM's copy of the results
    master = ctx.master and ctx.game is not None and ctx.game.id == game.id
    over = game.status in ("finished", "terminated")
    after = {r.seq - 1: r for r in games.phase_records(ctx.session, game)}
    return history_text(game, chosen, after, secrets=over or master,
                        secrets_note="" if over else "the GM's copy only: secret until "
                        "the game ends")


def do_summary(ctx: Context, command: c.Summary) -> str:
    game = _game(ctx, command.game)
    from judge import snapshots
    from judge.mail import centre_table
    records = games.phase_records(ctx.session, game)
    if not records:
        return f"Game {game.name} has not started."
    game_map = games.map_of(game)
    powers = [p for p in game_map.powers if p not in game_map.bid_powers]
    rules = rules_for(game_map)
    counted = ("Supply centres" if rules.score_unit == "centres"
               else rules.score_title[:1].upper() + rules.score_title[1:])
    lines = [f"{counted} at the start of each year:",
             "year  " + " ".join(f"{p[:3]:>4}" for p in powers)]
    for record in records:
        state = snapshots.loads(record.state)
        if state.phase.opens_year:
            table = {r["power"]: r["count"] for r in centre_table(
                games.board_of(game_map, state), state)}
            lines.append(f"{state.phase.year:<4}  " + " ".join(f"{table[p]:>4}" for p in powers))
    lines.append("")
    lines.append(_describe_game(ctx, game))
    return "\n".join(lines)


MAPS_PER_MAIL = 4  # each is drawn while the mail is processed; more wait for another mail


def do_map(ctx: Context, command: c.MapRequest) -> str:
    game = _game(ctx, command.game)
    phase = (command.phase or game.phase).upper()
    game_map, scene = stored_scene(ctx.session, game, phase)
    state = scene.position
    named = phase_name(phase, game.variant)
    lines = [f"Position of {game.name} at the start of {phase} ({named}):"]
    if board_notice_line(game):
        lines.insert(0, board_notice_line(game))
    for power in game_map.powers:
        units = [str(u) for u in state.units if u.power == power]
        centres = state.centres_of(power)
        if units or centres:
            lines.append(f"  {power:<9} units: {', '.join(units) or '-'}")
            lines.append(f"  {'':<9} centres ({len(centres)}): {' '.join(centres) or '-'}")
    for d in state.dislodged:
        lines.append(f"  dislodged: {d.unit.power} {d.unit} (retreats: "
                     f"{', '.join(d.retreats) or 'none'})")
    # every map a MAP attaches has one SVG, whatever its pictures
    if sum(name.endswith(".svg") for name, _, _ in ctx.attachments) >= MAPS_PER_MAIL:
        lines.append(f"No map attached: one mail gets at most {MAPS_PER_MAIL} maps.")
        return "\n".join(lines)
    files = maps.attachments_or_none(game_map, scene, full=True)
    if files:
        ctx.attachments.extend(files)
        names = " and ".join(name for name, _, _ in files)
        lines.append(f"The map is attached: {names}.")
    else:
        lines.append("The map could not be drawn; the error is in the judge's log.")
    return "\n".join(lines)
