"""What Dissolution's results say of its own, found by comparing the
position before and after a phase (the rules hook ``report_sections``):

* each player's Favor that changed, before -> after (kicks in Spring and
  Autumn, §11.7; Embassy moves and retreats in Winter, §11.5);
* once Autumn is over, each player's victory points, effective victory
  points (§4.6.1: less the centres the US Navy stands on), unit allowance
  (§4.2) and the builds or removals due;
* and what the Winter's Embassy orders allow each player: how many may
  move (§11.5.4) and which must hold, and why (§11.5.3).

The same words answer a player who signs on in Winter (``winter_asks``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.map import GameMap
from engine.phase import PhaseKind
from engine.reports import ReportSection, section
from engine.rules import Rules
from engine.state import GameState
from engine.variants.dissolution.embassies import MOVES_ALLOWED, move_limit, must_hold
from engine.variants.dissolution.nuclear import nuclear_powers
from engine.variants.dissolution.state import favor_of, of


@dataclass(frozen=True, slots=True)
class FavorChange:
    """A player's Favor with the nuclear powers that changed in a phase."""

    power: str
    changes: tuple[tuple[str, int, int], ...]  # (nuclear power, before, after)
    why: str  # what moved the Embassies: kicks, or the Winter's orders

    def describe(self) -> str:
        said = ", ".join(f"{n} {b} → {a}" for n, b, a in self.changes)
        return f"{self.power}: {said} ({self.why})"


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    """A player's standing for the Winter: victory points, effective
    victory points and the units it may keep."""

    power: str
    vp: int  # its centres' values
    effective: int  # less the centres the US Navy stands on (§4.6.1)
    allowance: int  # half the effective VP, rounded up (§4.2)
    units: int
    occupied: tuple[str, ...] = ()  # its centres the US Navy stands on

    def describe(self) -> str:
        navy = (f" (the US Navy stands on {' '.join(self.occupied)}, §4.6.1)"
                if self.occupied else "")
        due = self.allowance - self.units
        todo = (f"builds {due}" if due > 0 else f"removes {-due}" if due < 0
                else "neither builds nor removes")
        return (f"{self.power}: {self.vp} VP, effective {self.effective}{navy}; "
                f"may keep {self.allowance} unit{'s' * (self.allowance != 1)} (§4.2), "
                f"has {self.units}: {todo}")


@dataclass(frozen=True, slots=True)
class EmbassyOrders:
    """What a player's Embassies may do this Winter (§11.5)."""

    power: str
    moves: int  # how many may move (§11.5.4)
    held: tuple[tuple[str, str, str], ...] = ()  # (nuclear power, space, why) that must hold

    def describe(self) -> str:
        return f"{self.power}: {self.allowed()}"

    def allowed(self) -> str:
        text = f"moves up to {self.moves} Embassies (§11.5.4)"
        if self.moves < MOVES_ALLOWED:
            text += ", kicked this year"
        if not self.held:
            return text + "; none must hold"
        return text + "; must hold (§11.5.3): " + "; ".join(
            f"E {space} ({nuclear}): {why}" for nuclear, space, why in self.held)


@dataclass(frozen=True, slots=True)
class Exiled:
    """A player eliminated at the end of this year (§2.1.5): no centre left."""

    power: str

    def describe(self) -> str:
        return (f"{self.power}: no supply centre left: eliminated, its Embassies leave "
                "the Favor map (§4.1); it may bid 1 DP a phase in exile (§5.3)")


def report_sections(rules: Rules, game_map: GameMap, before: GameState,
                    after: GameState) -> tuple[ReportSection, ...]:
    out = section("favor_changes", "Favor changes", favor_changes(game_map, before, after),
                  FavorChange.describe, lambda f: f.power)
    if after.phase.kind is PhaseKind.ADJUSTMENT and before.phase.kind is not \
            PhaseKind.ADJUSTMENT:  # Autumn is over: what the Winter asks
        out += section("victory_points", "Victory points (VP) and units for the Winter",
                       victory_points(rules, game_map, before, after), _describe,
                       lambda v: v.power)
        out += section("embassy_orders", "Embassy orders this Winter (§11.5)",
                       embassy_orders(game_map, after), EmbassyOrders.describe,
                       lambda e: e.power)
    return out


def _describe(fact: VictoryPoints | Exiled) -> str:
    return fact.describe()


def favor_changes(game_map: GameMap, before: GameState,
                  after: GameState) -> tuple[FavorChange, ...]:
    """Each player's changed Favor values, for the players with Embassies after."""
    nuclear = [n for n in game_map.powers if nuclear_powers(game_map).is_nuclear(n)]
    why = ("the Winter's Embassy orders and retreats"
           if before.phase.kind is PhaseKind.ADJUSTMENT else "kicked")
    out = []
    for power in sorted({p for p, _, _ in of(after).embassies}):
        changes = tuple((n, b, a) for n in nuclear
                        if (b := favor_of(game_map, before, power, n))
                        != (a := favor_of(game_map, after, power, n)))
        if changes:
            out.append(FavorChange(power, changes, why))
    return tuple(out)


def victory_points(rules: Rules, game_map: GameMap, before: GameState,
                   state: GameState) -> tuple[VictoryPoints | Exiled, ...]:
    """Each player's standing for the Winter, and who was eliminated this year."""
    effective = rules.scores(game_map, state)
    navy = {u.province for u in state.units if not rules.captures(game_map, u)}
    out: list[VictoryPoints | Exiled] = []
    for name, power in game_map.powers.items():
        if power.ordered_by_bids or name in of(state).exiles:
            continue
        centres = state.centres_of(name)
        vp = sum(info.value for c in centres
                 if (info := game_map.provinces[c].centre) is not None)
        scores = {name: effective.get(name, 0)}
        out.append(VictoryPoints(name, vp, scores[name],
                                 rules.allowance(game_map, state, name, scores),
                                 len(state.units_of(name)),
                                 tuple(c for c in sorted(centres) if c in navy)))
    return (*out, *(Exiled(p) for p in sorted(of(state).exiles - of(before).exiles)))


def embassy_orders(game_map: GameMap, state: GameState) -> tuple[EmbassyOrders, ...]:
    out = []
    for power in sorted({p for p, _, _ in of(state).embassies}):
        held = tuple((n, space, why) for p, n, space in sorted(of(state).embassies)
                     if p == power and (why := must_hold(game_map, state, p, n)))
        out.append(EmbassyOrders(power, move_limit(state, power), held))
    return tuple(out)


def winter_asks(game_map: GameMap, state: GameState, power: str) -> tuple[str, ...]:
    """A player's Embassies and Favor values, and what its Embassy orders
    may do this Winter, for the player's own reply."""
    mine = [(n, space) for p, n, space in sorted(of(state).embassies) if p == power]
    if not mine:
        return ()
    places = ", ".join(f"{n} E {space} (Favor {favor_of(game_map, state, power, n)})"
                       for n, space in mine)
    (orders,) = [e for e in embassy_orders(game_map, state) if e.power == power]
    return (f"Your Embassies: {places}", f"Your Embassy orders: {orders.allowed()}")
