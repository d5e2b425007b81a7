"""What DPJudge's RULE flags change, as the standard rules' hooks ask it
(engine/rules.py): each function reads the flags in force on the map
(``GameMap.flags``) and, without them, gives the standard game's answer.
engine/flags.py says which flags these are; docs/rules.md ("DPJudge RULE
flags") gives the choices where Rules.txt leaves room.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.map import GameMap, UnitKind
from engine.orders import Build, Move, Order
from engine.phase import Phase, PhaseKind, Season
from engine.state import GameState

# -- where a power builds: BUILD_ANY, HOME_BUILDS, REMOTE_BUILDS ---------------


def build_sites(game_map: GameMap, state: GameState, power: str) -> set[str]:
    """Every centre the power may build in, were it owned and empty."""
    flags = game_map.flags
    home = set(game_map.powers[power].home)
    if not {"BUILD_ANY", "HOME_BUILDS", "REMOTE_BUILDS"}.intersection(flags):
        return home
    if "REMOTE_BUILDS" in flags and not home & set(state.centres_of(power)):
        return set()  # it owns none of its homes: no build anywhere
    if "HOME_BUILDS" in flags:
        # any power's original home centre (DUMMY powers' too)
        return {c for p in game_map.powers.values() for c in p.home}
    # BUILD_ANY, or REMOTE_BUILDS alone, which includes it (Rules.txt)
    return set(game_map.supply_centres)


# -- MOBILIZE: the game opens with an empty board and one build each -----------


def mobilization(game_map: GameMap) -> Phase:
    """The adjustment phase a MOBILIZE game opens with: the map's first
    phase, or the winter before it when that is no adjustment phase."""
    start = Phase.parse(game_map.start)
    if start.kind is PhaseKind.ADJUSTMENT:
        return start
    return Phase(start.year - 1, Season.WINTER, PhaseKind.ADJUSTMENT)


def opening(game_map: GameMap, state: GameState) -> GameState:
    """MOBILIZE: the players' powers begin with no units, in the
    mobilization winter (a DUMMY power, which no player takes, keeps its units)."""
    if "MOBILIZE" not in game_map.flags:
        return state
    seated = {p for seat in state.seats for p in seat.powers}
    return state.evolve(units=tuple(u for u in state.units if u.power not in seated),
                        phase=mobilization(game_map))


def allowance(game_map: GameMap, state: GameState, power: str, score: int) -> int:
    """How many units the power may keep: one per centre; in a MOBILIZE
    game's first winter, one unit more than it has (one build), at most."""
    if "MOBILIZE" in game_map.flags and state.phase == mobilization(game_map):
        return min(score, len(state.units_of(power)) + 1)
    return score


# -- dummy powers: IMMOBILE_DUMMIES, CD_BUILDS ----------------------------------


def order_refusal(game_map: GameMap, state: GameState, power: str, order: Order) -> str:
    """Why a movement phase's order is not taken beyond the map's own rules, or ''."""
    if (isinstance(order, Move) and "IMMOBILE_DUMMIES" in game_map.flags
            and power in game_map.dummies):
        return (f"{power} is a dummy: its units may only hold, support or convoy "
                "(DPJudge rule IMMOBILE_DUMMIES)")
    return ""


def unordered_builds(game_map: GameMap, state: GameState, power: str, due: int,
                     sites: Sequence[str]) -> tuple[Build, ...]:
    """CD_BUILDS: the builds of a power that gave no adjustment orders (a
    dummy, a player who missed the deadline), instead of waiving them:
    ``due`` of the free ``sites``, each site and the kind built there drawn
    from the game's seed, so that a replay builds the same units."""
    if "CD_BUILDS" not in game_map.flags or due <= 0:
        return ()
    draw = random.Random(f"{state.seed}:{state.phase}:{power}")
    chosen = draw.sample(sorted(sites), min(due, len(sites)))
    builds = []
    for site in chosen:
        places = [(kind, loc) for kind in (UnitKind.ARMY, UnitKind.FLEET)
                  for loc in game_map.locations_of(site) if game_map.can_stand(kind, loc)]
        if places:
            kind, loc = draw.choice(places)
            builds.append(Build(loc, kind))
    return tuple(builds)


# -- the judge's questions: NO_DRAW, FTF_PRESS ------------------------------------


def draw_refusal(game_map: GameMap) -> str:
    """Why no draw may be voted in a game on this map, or ''."""
    if "NO_DRAW" in game_map.flags:
        return "this game allows no draw: it ends only in a solo victory (DPJudge rule NO_DRAW)"
    return ""


def press_refusal(game_map: GameMap, phase: Phase, to_master_only: bool,
                  broadcast: bool, after_deadline: bool) -> str:
    """Why a player's press is not sent, or '' (FTF_PRESS: the face-to-face
    game talks only in movement phases, and privately only before the deadline)."""
    if "FTF_PRESS" not in game_map.flags or to_master_only:
        return ""
    if phase.kind is not PhaseKind.MOVEMENT:
        return ("press goes only to the Master outside movement phases "
                "(DPJudge rule FTF_PRESS)")
    if after_deadline and not broadcast:
        return ("no private press once the deadline has passed "
                "(DPJudge rule FTF_PRESS)")
    return ""
