"""Every mail the judge writes, from the Jinja2 templates under templates/.

Mails are plain text for an 80-column mail client. This module gathers
what a template needs from the game and returns :class:`OutgoingMail`
values; it never sends or stores anything itself.
"""

from __future__ import annotations

import logging
import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from engine.adjustments import centre_counts
from engine.flow import STANDARD_FLOW, Flow
from engine.layers import LAYERS
from engine.map import GameMap
from engine.phase import Phase, PhaseKind
from engine.standing import AdjustmentDue, Budget, Standing
from engine.state import GameState
from engine.variant_file import load_variant, variant_notice
from engine.variants import rules_for
from judge.config import Config
from judge.models import Game, Member
from judge.outbox import OutgoingMail
from judge.reported import Reported, seat_names, told_as_destroyed
from judge.settings import GameSettings, format_duration
from judge.winter_notes import lost_builds_text
from judge.zones import known as known_zone
from judge.zones import tz as zone_tz

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _pad(value: object, width: int) -> str:
    return str(value).ljust(width)


def _wrap(value: object, width: int, indent: int) -> str:
    # never inside a hyphenated word: Diplomap's province codes (PAR-NW) have hyphens
    lines = textwrap.wrap(str(value), width=width, break_on_hyphens=False) or [""]
    return ("\n" + " " * indent).join(lines)


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=False,  # plain-text mail, nothing here is HTML
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["pad"] = _pad
    env.filters["wrap"] = _wrap
    return env


def render(name: str, **context: Any) -> str:
    text = environment().get_template(name).render(**context)
    # no line ends in spaces (some mail clients mangle them), at most one blank line
    lines = [line if line == "-- " else line.rstrip() for line in text.splitlines()]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n") + "\n"


# 'Re:', 'RE:', 'Re[2]:' and runs of them, however mail clients stacked them
_REPLY_PREFIXES = re.compile(r"^(?:\s*re(?:\[\d+\])?\s*:)+\s*", re.IGNORECASE)


def reply_subject(subject: str) -> str:
    """The subject of the judge's answer to a mail: one 'Re: ', whatever the
    mail had already."""
    bare = _REPLY_PREFIXES.sub("", subject).strip()
    return f"Re: {bare}"[:200] if bare else "Your mail to the judge"


def format_deadline(moment: datetime | None, zone: str) -> str:
    if moment is None:
        return "not set"
    local = moment.astimezone(zone_tz(zone))
    return local.strftime("%a %d %b %Y %H:%M %Z")


def in_own_zone(text: str, game: Game, settings: GameSettings, zone: str) -> str:
    """``text`` with each of the game's deadlines, written in the game's zone,
    followed by the same moment in a player's own ``zone`` (SET ZONE).

    Done on the finished text so that every template and reply that shows
    a deadline shows it the same way, without each one knowing the reader.
    """
    if not zone or zone == settings.zone:
        return text
    if not known_zone(zone):
        return _zone_unknown(text, game, settings, zone)
    done: set[str] = set()
    for moment in (game.deadline, game.grace_until):
        shown = format_deadline(moment, settings.zone)
        if moment is not None and shown not in done:  # the same minute twice: once
            done.add(shown)
            text = text.replace(shown, f"{shown} ({format_deadline(moment, zone)} for you)")
    return text


def _zone_unknown(text: str, game: Game, settings: GameSettings, zone: str) -> str:
    """``text`` with a note, under the first line showing a deadline, that
    the player's zone is no longer known and the game's is shown alone: a
    zone gone from the zone database must not stop the mail (a deadline's
    results would fail with it), and the player should learn why."""
    log.warning("game %s: a player's zone %r is no longer in the zone database; "
                "deadlines are shown to them in the game's zone, %s", game.name, zone,
                settings.zone)
    shown = [format_deadline(m, settings.zone) for m in (game.deadline, game.grace_until)
             if m is not None]
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if any(s in line for s in shown):
            note = textwrap.fill(
                f"(Your time zone, {zone}, is no longer known to the judge: deadlines "
                f"are shown in the game's zone, {settings.zone}. SET ZONE chooses "
                "another.)", width=78)
            return "\n".join([*lines[:n + 1], note, *lines[n + 1:]])
    return text


def phase_name(phase: str, variant: str = "standard") -> str:
    """'Spring 1901 Movement' for S1901M, in the flow of the variant's year
    ('A.D. 1430 Adjustment' for Hundred's A1430A); the text itself when it
    is no phase of that flow."""
    try:
        return Phase.parse(phase, variant_flow(variant)).name
    except ValueError:
        return phase


def variant_flow(variant: str) -> Flow:
    """The flow of phases of a shipped variant's year (the standard year's
    for a name no longer shipped)."""
    try:
        return load_variant(variant).flow
    except KeyError:
        return STANDARD_FLOW


def header(config: Config, game: Game, settings: GameSettings) -> dict[str, Any]:
    deadline_line = ""
    if game.phase and game.deadline is not None and game.status == "active":
        deadline_line = f"{game.phase} {format_deadline(game.deadline, settings.zone)}"
    return {"judge": config.name, "address": config.address, "game": game,
            "deadline_line": deadline_line, "variant_notice": variant_notice(game.variant),
            "variant_line": variant_line(game.variant, settings)}


def variant_line(variant: str, settings: GameSettings) -> str:
    """The variant as mails name it, with the rules layers switched on over
    it by their titles ('standard with Diplomap'): a player must know from
    any mail that Draw and Erase orders are in play."""
    layers = " and ".join(LAYERS[name].title for name in settings.layers)
    return f"{variant} with {layers}" if layers else variant


def list_headers(game: Game, settings: GameSettings, config: Config) -> tuple[
        tuple[str, str], ...]:
    """The game's mail as a list (RFC 2369). List-Unsubscribe writes to the
    judge itself: the subject and the body both say UNSUBSCRIBE game, which
    the judge carries out for the sender (mail programs send one or the other)."""
    domain = (settings.list_address or config.address).partition("@")[2] or "localhost"
    command = f"unsubscribe%20{game.name}"
    return (
        ("List-Id", f"Diplomacy game {game.name} <{game.name}.{domain}>"),
        ("List-Unsubscribe", f"<mailto:{config.address}?subject={command}&body={command}>"),
        ("List-Post", "NO"),
    )


def to_game(game: Game, settings: GameSettings, config: Config, recipients: Sequence[Member],
            subject: str, body: str, kind: str,
            attachments: tuple[tuple[str, str, bytes], ...] = ()) -> list[OutgoingMail]:
    """One mail to every member (the addresses in the envelope only, so
    players do not learn each other's), plus one to the game's mailing list.
    One message, not one per member, so that a map attached is stored and
    sent once; but one per zone players read deadlines in (SET ZONE), each
    with the deadlines in that zone too."""
    seen: set[str] = set()
    by_zone: dict[str, list[str]] = {}
    for member in recipients:
        if member.address.lower() not in seen:
            seen.add(member.address.lower())
            zone = "" if member.zone == settings.zone else member.zone
            by_zone.setdefault(zone, []).append(member.address)
    mails: list[OutgoingMail] = []
    for zone, addresses in by_zone.items():
        mails.append(OutgoingMail(to=tuple(addresses), subject=subject,
                                  body=in_own_zone(body, game, settings, zone), kind=kind,
                                  game=game.name, attachments=attachments,
                                  headers=list_headers(game, settings, config),
                                  group=f"Players of {game.name}" if len(addresses) > 1 else ""))
    if settings.list_address:
        mails.append(OutgoingMail(to=(settings.list_address,), subject=subject, body=body,
                                  kind=kind, game=game.name,
                                  headers=list_headers(game, settings, config),
                                  attachments=attachments))
    return mails


def centre_table(game_map: GameMap, state: GameState,
                 scores: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """Each power's centres and score (victory points in Dissolution, after
    US Navy occupation: a centre where a unit that never captures stands is
    marked '*' and not counted); neutral powers steered by bids are left out.
    ``scores``: the rules' scores, when the phase's resolution has them."""
    counts = scores if scores is not None else centre_counts(game_map, state)
    blocked = {u.province for u in state.units if u.power in game_map.non_capturing}
    rows = []
    for power in game_map.powers:
        if power in game_map.bid_powers:
            continue
        centres = [c + ("*" if c in blocked else "") for c in sorted(state.centres_of(power))]
        rows.append({"power": power, "count": counts.get(power, 0),
                     "list": " ".join(centres) or "-"})
    return rows


def adjustment_table(due: Sequence[AdjustmentDue]) -> list[dict[str, Any]]:
    """Who builds or removes how many (by the rules' unit allowance)."""
    return [{"power": a.power, "centres": a.score, "units": a.units,
             "text": f"builds {a.due}" if a.due > 0 else f"removes {-a.due}",
             "lost": lost_builds_text(a.power, a.due, a.free_sites) if a.builds_lost else ""}
            for a in due]


def late_by_seat(state: GameState, late: Sequence[str]) -> list[str]:
    """The powers without orders as their players know them: a named seat's
    (an Intercontinental colour group) under its name, 'Blue (CANADA,
    CAPE_COLONY)', the others alone."""
    missing = set(late)
    named = [(seat.player, [p for p in seat.powers if p in missing]) for seat in state.seats
             if seat.named]
    grouped = {p for _, powers in named for p in powers}
    return sorted([*(f"{player} ({', '.join(powers)})" for player, powers in named if powers),
                   *(p for p in late if p not in grouped)])


def budget_table(state: GameState, budgets: Sequence[Budget]) -> list[dict[str, Any]]:
    """Each player's Diplomacy Points for the coming orders phase, and its
    Favor caps: in variants with bids, before Spring and Autumn. A seat of
    several powers (a colour group) is named, and its players listed by name."""
    seated = seat_names(state)
    rows = [{"power": seated.get(b.power, b.power), "points": b.points,
             "caps": ", ".join(f"{n} {c}" for n, c in b.caps)} for b in budgets]
    return sorted(rows, key=lambda r: str(r["power"])) if seated else rows


def group_table(state: GameState, centres: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each named seat's centres, summed over its powers (Intercontinental's
    colour groups, §1.6); none where every seat is one power."""
    if not centres:  # the centre table comes after Autumn and at the end only
        return []
    counts = {str(row["power"]): int(row["count"]) for row in centres}
    return [{"power": seat.player, "count": sum(counts.get(p, 0) for p in seat.powers),
             "list": ", ".join(seat.powers)}
            for seat in sorted(state.seats, key=lambda s: s.player)
            if seat.named]


def by_seat(state: GameState, game_map: GameMap,
            by_power: Mapping[str, list[dict[str, Any]]]) -> list[tuple[str, list[Any]]]:
    """The players' orders first, a seat's powers together in the seat's
    order, labelled with the seat's name where it has one ('GREAT_BRITAIN
    (Blue)'); then the orders given to neutral powers' units."""
    out: list[tuple[str, list[Any]]] = []
    seen: set[str] = set()
    for seat in sorted(state.seats, key=lambda s: s.player):
        if not seat.named:
            continue
        for power in seat.powers:
            seen.add(power)
            if power in by_power:
                out.append((f"{power} ({seat.player})", by_power[power]))
    rest = sorted(((p, rows) for p, rows in by_power.items() if p not in seen),
                  key=lambda kv: (kv[0] in game_map.bid_powers, kv[0]))
    return out + rest


def results_body(config: Config, game: Game, settings: GameSettings, game_map: GameMap,
                 phase: str, results: Iterable[dict[str, Any]], late: Sequence[str],
                 after: GameState, standing: Standing, ending: str = "",
                 sections: Sequence[Reported] = ()) -> str:
    """The results mail. ``standing``: the scores, adjustments due and
    budgets the phase left (its resolution's); ``sections``: its report
    sections as stored, secret ones left out by the caller."""
    told = told_as_destroyed(sections)  # said once, under 'Units destroyed'
    by_power: dict[str, list[dict[str, Any]]] = {}
    for row in results:
        if (row["power"], row["order"]) not in told:
            by_power.setdefault(row["power"], []).append(row)
    ordered = by_seat(after, game_map, by_power)
    # Diplomap: a unit whose province was split chooses its part (§III.B)
    dislodged = [{"power": d.unit.power, "unit": str(d.unit), "attacker": d.attacker,
                  "retreats": list(d.retreats), "displaced": d.displaced}
                 for d in after.dislodged]
    # the centres are shown once they have changed hands (after Fall's retreats)
    fall_done = Phase.parse(phase, game_map.flow).counts_centres \
        and after.phase.kind is not PhaseKind.RETREAT
    centres = centre_table(game_map, after, standing.scores) if fall_done or ending else []
    return render(
        "results.txt.j2",
        **header(config, game, settings),
        phase=phase,
        phase_name=phase_name(phase, game.variant),
        orders=ordered,
        late=late_by_seat(after, late),
        dislodged=dislodged,
        notes=list(after.notes),
        sections=list(sections),
        budgets=budget_table(after, standing.budgets),
        centres=centres,
        score_unit=rules_for(game_map).score_unit,
        caps_title=rules_for(game_map).caps_title,
        groups=group_table(after, centres),
        adjustments=adjustment_table(standing.adjustments),
        next_name=after.phase.name,
        next_phase=str(after.phase),
        next_deadline=format_deadline(game.deadline, settings.zone),
        ending=ending,
    )


def nmr_text(settings: GameSettings) -> str:
    return ("are ordered to hold (and, after Fall, removed in civil disorder if need be)"
            if settings.nmr == "wait" else "hold")


def grace_text(settings: GameSettings) -> str:
    return format_duration(settings.grace) if settings.nmr == "wait" else ""
