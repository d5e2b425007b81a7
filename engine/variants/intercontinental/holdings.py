"""What an Intercontinental colour group holds beside its powers' units,
centres and its Diplomacy Point pool, as the start mail tells it: the
affiliates it sponsors, whose units count its bids double (§8, §11.3).
Which affiliates a group sponsors depends on the draw (§8.9, §8.10: the
Dutch affiliates and a few others follow a major power's group), so a
player learns it only when the game starts."""

from __future__ import annotations

from collections.abc import Sequence

from engine.holdings import Holdings
from engine.map import GameMap
from engine.reports import ReportLine, ReportSection
from engine.state import GameState
from engine.variants.intercontinental.diplomacy_points import (
    player_of,
    players,
    sponsor_of,
    sponsors,
)


def holdings(game_map: GameMap, state: GameState, powers: Sequence[str]) -> Holdings:
    found = players(game_map, state)
    mine = next((player_of(found, p) for p in powers if player_of(found, p)), None)
    if mine is None:
        return Holdings()
    lines = []
    for affiliate, sponsor in sorted(sponsors(game_map).items()):
        if sponsor_of(found, sponsor) != mine:
            continue
        units = ", ".join(str(u) for u in state.units_of(affiliate)) or "no unit"
        lines.append(ReportLine(f"{affiliate} ({units})", affiliate))
    if not lines:
        return Holdings()
    return Holdings((ReportSection(
        "sponsored", "Affiliates your group sponsors: your bids on their units count "
        "double (§8, §11.3)", tuple(lines)),))
