"""HISTORY's text: the results of a game's processed phases, one after
another, as the results mails told them. Each phase has every order with
its outcome, then every report section the variant stored for it (Diplomap's
map orders and board changes, Dissolution's violations and kicks, the units
destroyed...: judge/reported.py, whatever the variant), and, in a variant
with bids, the Diplomacy Points and Favor caps the phase left each player,
as its results mail's table gave them.

Secret sections (the bids) are shown once the game is over, and to its
Game Master at any time (HISTORY sent after SIGNON master@game), as the
GM's copy of each results mail has them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.map import GameMap
from engine.standing import standing
from engine.variants import rules_for
from judge import games, reported, snapshots
from judge.mail import budget_table, phase_name
from judge.models import Game, PhaseRecord
from judge.turns import results_text

# the columns of the standard game's powers and orders; longer names (the
# variants' CAPE_COLONY, BOSNIA_HERZEGOVINA) widen them for the whole reply
POWER_COLUMN = 9
ORDER_COLUMN = 30


@dataclass(frozen=True)
class Columns:
    power: int
    order: int


def history_text(game: Game, records: Sequence[PhaseRecord], after: Mapping[int, PhaseRecord],
                 secrets: bool, secrets_note: str = "") -> str:
    """The phases ``records`` (processed ones), each with what it reported.
    ``after``: each record's following phase record by its seq, whose
    position holds what the phase left (the players' Diplomacy Points);
    ``secrets``: show the secret sections, titled with ``secrets_note``."""
    game_map = games.map_of(game)
    rows = {r.seq: results_text(r.results) for r in records}
    # over every row stored, those a section tells instead too: the columns
    # of a game's HISTORY stay where they were whichever rows are shown
    columns = Columns(
        max([POWER_COLUMN, *(len(str(row["power"])) for rs in rows.values() for row in rs)]),
        max([ORDER_COLUMN, *(len(str(row["order"])) for rs in rows.values() for row in rs)]))
    # the seats stay as START made them: a colour group's bids under its name
    bidders = reported.seat_names(snapshots.loads(records[0].state)) if records else {}
    out: list[str] = []
    for record in records:
        out.append(f"{record.phase} ({phase_name(record.phase, game.variant)})")
        sections = reported.read_text(record.results, bidders)
        told = reported.told_as_destroyed(sections)  # in its section, once
        for row in rows[record.seq]:
            if (row["power"], row["order"]) not in told:
                out.append(_order_line(row, columns))
        for section in reported.public(sections, over=secrets):
            out.extend(_section_lines(section, secrets_note))
        following = after.get(record.seq)
        if following is not None:
            out.extend(_points_lines(game_map, following))
    return "\n".join(out)


def _order_line(row: Mapping[str, Any], columns: Columns) -> str:
    reason = f": {row['reason']}" if row.get("reason") else ""
    return (f"  {row['power']:<{columns.power}} {row['order']:<{columns.order}} "
            f"{row['outcome']}{reason}")


def _section_lines(section: reported.Reported, secrets_note: str) -> list[str]:
    """A section under its title; a labelled one's lines each after its
    label (Diplomap's 'board: ...'), one without a title its lines alone."""
    if not section.lines:
        return []
    if section.label:
        return [f"  {section.label}: {text}" for text in section.texts]
    if not section.title:
        return [f"  {text}" for text in section.texts]
    title = section.title + (f" ({secrets_note})"
                             if section.secret_until_end and secrets_note else "")
    return [f"  {title}:", *(f"    {text}" for text in section.texts)]


def _points_lines(game_map: GameMap, following: PhaseRecord) -> list[str]:
    """The Diplomacy Points (and Favor caps) for the phase that followed,
    as the results mail's table: none in a game without bids, or before a
    phase without them."""
    state = snapshots.loads(following.state)
    budgets = standing(game_map, games.board_of(game_map, state), rules_for(game_map),
                       state).budgets
    table = budget_table(state, budgets)
    if not table:
        return []
    width = max(len(str(row["power"])) for row in table)
    capped = any(row["caps"] for row in table)
    title = (f"Diplomacy Points for {state.phase}"
             + (f" (and {rules_for(game_map).caps_title})" if capped else "") + ":")
    lines = textwrap.wrap(title, width=76, initial_indent="  ", subsequent_indent="    ")
    lines.extend(f"    {row['power']:<{width}} {row['points']:>2} DP"
                 + (f"  ({row['caps']})" if row["caps"] else "") for row in table)
    return lines
