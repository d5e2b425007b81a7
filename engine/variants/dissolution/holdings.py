"""What a Dissolution player holds beside its units, centres and Diplomacy
Points, as the start mail tells it: its Embassies on the Favor map with the
Favor each gives (§11.1, §11.3), and the Winter's Embassy orders (§11.5).
The Diplomacy Points and the Favor caps are the judge's to say, through
``bid_allowance`` (§5.2, §11.4.1), as the results say them."""

from __future__ import annotations

from collections.abc import Sequence

from engine.holdings import Holdings, OrderForm
from engine.map import GameMap
from engine.reports import ReportLine, ReportSection
from engine.state import GameState
from engine.variants.dissolution.embassies import MOVES_AFTER_A_KICK, MOVES_ALLOWED
from engine.variants.dissolution.favor_board import favor_board, parse_label
from engine.variants.dissolution.state import of


def holdings(game_map: GameMap, state: GameState, powers: Sequence[str]) -> Holdings:
    embassies = [(power, nuclear, space) for power, nuclear, space in of(state).embassies
                 if power in powers]
    if not embassies:  # a player in exile has none (§4.1)
        return Holdings()
    lines = []
    for power, nuclear, space in embassies:
        found = parse_label(space)
        value = found.value if found is not None else 0
        # §11.4.2: what zero Favor costs on the board, said where the player sees it
        shut = (": your units in its territory are destroyed in the retreat phases, and none "
                "may retreat there (§11.4.2)") if value == 0 else ""
        lines.append(ReportLine(f"E {space}  Favor {value} with {nuclear}{shut}", power))
    section = ReportSection("embassies", "Your Embassies on the Favor map (§11.1, §11.3)",
                            tuple(lines))
    form = OrderForm(
        "Embassy orders",
        "in Winter, beside your builds and removals: each Embassy holds, moves to a "
        f"bordering space of its slice or supports; at most {MOVES_ALLOWED} move, "
        f"{MOVES_AFTER_A_KICK} after a kick that year (§11.5)",
        _example(game_map, [space for _, _, space in embassies]))
    return Holdings((section,), (form,))


def _example(game_map: GameMap, spaces: Sequence[str]) -> str:
    """A move one of the player's Embassies could make to gain Favor (the
    move a player wants), else a hold."""
    board = favor_board(game_map)
    for space in spaces:
        if space not in board.spaces:
            continue
        value = board.spaces[space].value
        up = sorted(m for m in board.moves(space) if board.spaces[m].value > value)
        if up:
            return f"E {space} - {up[0]}"
    return f"E {spaces[0]} H"
