"""Moving a game on: processing a phase (at its deadline, early when every
power has orders, or when the GM says PROCESS), previews, the grace period
for late powers, reminders, and the end of a game.

Each function works in the caller's transaction and returns the mails it
causes.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from sqlmodel import Session

from engine.phase_context import phase_context
from engine.variants import rules_for
from judge import adjudicating, games, maps, order_entry, reported, snapshots
from judge.adjudicating import Adjudication
from judge.config import Config
from judge.mail import (
    format_deadline,
    grace_text,
    header,
    in_own_zone,
    list_headers,
    nmr_text,
    phase_name,
    render,
    results_body,
    to_game,
)
from judge.maps.scene import scene_after
from judge.models import Game, Member, as_utc, utcnow
from judge.outbox import OutgoingMail
from judge.start_mail import started_mails as started_mails  # as the handlers call it


def recipients(session: Session, game: Game) -> list[Member]:
    return games.members(session, game)  # players and observers still in the game


def _master(game: Game) -> Member:
    return Member(game_id=game.id or 0, role="master", address=game.master_address,
                  password_hash="")


def everyone(session: Session, game: Game) -> list[Member]:
    return [*recipients(session, game), _master(game)]


def process(session: Session, game: Game, config: Config,
            now: datetime | None = None) -> list[OutgoingMail]:
    """Adjudicate the current phase, store it, and mail the results."""
    now = now or utcnow()
    adjudication = adjudicating.adjudicate_phase(session, game)
    phase = game.phase
    adjudicating.advance(session, game, adjudication, now)
    mails = _results_mails(session, game, config, phase, adjudication)
    if game.status == "finished":
        mails.extend(ended_mails(session, game, config))
    else:
        mails.extend(maybe_draw_or_concession(session, game, config))
    return mails


def _results_mails(session: Session, game: Game, config: Config, phase: str,
                   adjudication: Adjudication, preview: bool = False) -> list[OutgoingMail]:
    settings = games.settings_of(game)
    game_map = games.map_of(game)
    stored = adjudicating.results_json(adjudication)
    rows = list(stored["results"])  # type: ignore[call-overload]
    rows.extend({"power": p, "order": o, "outcome": "unreadable", "reason": why}
                for p, o, why in adjudication.unreadable)
    ending = ""
    after = adjudication.resolution.next
    if adjudication.resolution.winner:
        ending = f"{adjudication.resolution.winner} has won the game."
    elif after.drawn:
        ending = f"The game ends in a draw among {', '.join(after.drawn)}."
    # the sections as stored, so that HISTORY and this mail read the same;
    # secret ones (the bids) wait for the end of the game, but for the GM's copy
    sections = reported.read(stored, reported.seat_names(after))
    secret = reported.for_the_master(sections)

    def body_with(shown: list[reported.Reported]) -> str:
        return results_body(config, game, settings, game_map, phase, rows, adjudication.late,
                            after, adjudication.resolution.standing, ending, shown)

    files = maps.attachments_or_none(game_map, scene_after(game.name, adjudication.resolution))
    if preview:  # the GM's alone: the secret sections too
        body = ("PREVIEW: nothing has been stored and nobody else has seen this.\n\n"
                + body_with([*reported.public(sections), *secret]))
        return [OutgoingMail(to=(game.master_address,),
                             subject=f"Diplomacy preview {game.name} {phase}", body=body,
                             kind="results", game=game.name,  # the outbox's kinds
                             attachments=files)]
    subject = f"Diplomacy results {game.name} {phase}"
    body = body_with(reported.public(sections))
    if not secret:  # one mail for everyone, the GM too
        return to_game(game, settings, config, everyone(session, game), subject, body,
                       "results", files)
    # the GM's copy has every secret section (each bid and its fate), so
    # that the GM can settle a dispute; the players' and the game list's
    # have none. A GM who also plays gets the GM's copy alone.
    master = game.master_address.lower()
    players = [m for m in recipients(session, game) if m.address.lower() != master]
    return [*to_game(game, settings, config, players, subject, body, "results", files),
            OutgoingMail(to=(game.master_address,), subject=subject,
                         body=body_with([*reported.public(sections), *secret]),
                         kind="results", game=game.name, attachments=files,
                         headers=list_headers(game, settings, config))]


def preview(session: Session, game: Game, config: Config) -> list[OutgoingMail]:
    adjudication = adjudicating.adjudicate_phase(session, game)
    return _results_mails(session, game, config, game.phase, adjudication, preview=True)


def all_orders_in(session: Session, game: Game) -> bool:
    """Early processing: every power has orders for every unit and nobody
    asked to wait. A unit left without an order is listed in its player's
    reply; waiting for the deadline leaves the player time to see that."""
    if game.status != "active":
        return False
    state = games.current_state(session, game)
    game_map = games.map_of(game)
    if games.missing_powers(session, game, game_map, state):
        return False
    if games.someone_waits(session, game):
        return False
    on_file = games.orders_on_file(session, game)
    return not order_entry.unordered_units(game_map, state, games.powers_to_order(game_map, state),
                                     on_file, phase_context(game_map, state).reading)


def due(session: Session, game: Game, config: Config, now: datetime) -> list[OutgoingMail]:
    """What happens at (or after) a game's deadline: process, or start the
    grace period for late powers under the 'wait' NMR policy."""
    if not _past_deadline(game, now):
        return []
    if _grace_starts(session, game):
        settings = games.settings_of(game)
        late = games.missing_powers(session, game, games.map_of(game),
                                    games.current_state(session, game))
        assert game.deadline is not None
        game.grace_until = as_utc(game.deadline) + settings.grace
        session.add(game)
        body = render("late.txt.j2", **header(config, game, settings), powers=late,
                      phase=game.phase, phase_name=phase_name(game.phase, game.variant),
                      grace_until=format_deadline(game.grace_until, settings.zone),
                      nmr_text=nmr_text(settings))
        return to_game(game, settings, config, everyone(session, game),
                       f"Diplomacy late notice {game.name} {game.phase}", body, "notice")
    return process(session, game, config, now)


def processes_now(session: Session, game: Game, now: datetime) -> bool:
    """Whether :func:`due` would process the phase at ``now`` (rather than
    wait, or start a grace period), for a look ahead of the transaction."""
    return _past_deadline(game, now) and not _grace_starts(session, game)


def _past_deadline(game: Game, now: datetime) -> bool:
    """The deadline has passed, and the grace period if one runs."""
    if game.status != "active" or game.deadline is None or now < as_utc(game.deadline):
        return False
    return game.grace_until is None or now >= as_utc(game.grace_until)


def _grace_starts(session: Session, game: Game) -> bool:
    """Powers are late and the 'wait' policy gives them a grace period,
    not begun yet."""
    if game.grace_until is not None:
        return False
    settings = games.settings_of(game)
    if settings.nmr != "wait" or settings.grace <= timedelta(0):
        return False
    state = games.current_state(session, game)
    return bool(games.missing_powers(session, game, games.map_of(game), state))


def reminders(session: Session, game: Game, config: Config) -> list[OutgoingMail]:
    """A reminder to each player whose powers still have no orders."""
    if game.status != "active" or game.deadline is None:
        return []
    settings = games.settings_of(game)
    state = games.current_state(session, game)
    late = set(games.missing_powers(session, game, games.map_of(game), state))
    mails = []
    for member in games.members(session, game, "player"):
        missing = [p for p in games.powers_of(member) if p in late]
        if not missing:
            continue
        body = render("reminder.txt.j2", **header(config, game, settings), powers=missing,
                      phase=game.phase, phase_name=phase_name(game.phase, game.variant),
                      deadline=format_deadline(game.deadline, settings.zone),
                      grace=grace_text(settings), nmr_text=nmr_text(settings))
        mails.append(OutgoingMail(to=(member.address,),
                                  subject=f"Diplomacy reminder {game.name} {game.phase}",
                                  body=in_own_zone(body, game, settings, member.zone),
                                  kind="reminder", game=game.name))
    return mails


def ended_mails(session: Session, game: Game, config: Config) -> list[OutgoingMail]:
    settings = games.settings_of(game)
    from judge.mail import centre_table
    record = games.phase_record(session, game)
    centres = []
    if record is not None:
        state = snapshots.loads(record.state)
        centres = centre_table(games.board_of(games.map_of(game), state), state)
    # §5.1.3: what was secret while the game ran (the bids) goes to everyone at its end
    records = games.phase_records(session, game)
    bidders = reported.seat_names(snapshots.loads(records[-1].state)) if records else {}
    secrets = [(r.phase, s.title, s.texts) for r in records
               for s in reported.read_text(r.results, bidders) if s.secret_until_end and s.lines]
    body = render("ended.txt.j2", **header(config, game, settings), result=game.result,
                  centres=centres, secrets=secrets,
                  score_title=rules_for(games.map_of(game)).score_title)
    return to_game(game, settings, config, everyone(session, game),
                   f"Diplomacy game {game.name} is over", body, "notice")


def maybe_draw_or_concession(session: Session, game: Game,
                             config: Config) -> list[OutgoingMail]:
    """A draw every surviving player voted for, or a concession all the
    others agreed to, ends the game."""
    if game.status != "active":
        return []
    players = games.members(session, game, "player")
    state = games.current_state(session, game)
    alive = {u.power for u in state.units} | {p for _, p in state.owners}
    voters = [m for m in players if set(games.powers_of(m)) & alive]
    if not voters:
        return []
    everybody = {m.power for m in voters}
    # naming every survivor is the same vote as a bare SET DRAW
    votes = {"*" if set(m.draw.split()) == everybody else m.draw for m in voters}
    if "" not in votes and len(votes) == 1:
        vote = votes.pop()
        among = vote if vote != "*" else ", ".join(m.power for m in voters)
        games.end_game(session, game, "finished", f"draw among {among}")
        return ended_mails(session, game, config)
    conceded = {m.concede_to for m in voters}
    if len(conceded) == 1:
        winner = conceded.pop()
        if winner:
            return []
    for winner_member in voters:
        others = [m for m in voters if m is not winner_member]
        if others and all(m.concede_to == winner_member.power for m in others):
            games.end_game(session, game, "finished",
                           f"concession to {winner_member.power}")
            return ended_mails(session, game, config)
    return []



def results_text(record_results: str) -> list[dict[str, str]]:
    if not record_results:
        return []
    return list(json.loads(record_results).get("results", []))

