"""The movement resolver: Kruijswijk's guess algorithm.

Every unit that moves, supports or convoys has one yes/no decision, keyed by
its province: does the move succeed, is the support given (not cut), is the
convoying fleet still there (not dislodged). A decision is computed on
demand from the decisions it needs. When a computation needs a decision that
is itself being computed, the resolver guesses, and then checks whether the
guess mattered:

* one consistent answer: take it;
* two answers or none (a cycle): the backup rule decides. A cycle through a
  convoy is a convoy paradox and the Szykman rule applies: the convoying
  fleets in it hold. Any other cycle is circular movement: all its moves
  succeed.

Variants add three things (engine/rules.py names them), and maps a fourth:

* stationary units (wings, neutral armies) never leave their province: an
  attack of theirs that prevails is a *sortie*, and the unit it would have
  dislodged is *disabled* instead; invulnerable units are disabled, never
  dislodged. So a move's decision says whether the attack *prevails*;
  :meth:`relocates` says whether the unit actually moves, and a prevailing
  attack that does not move its unit disables the defender. A disabled unit
  gives no support and no convoy, as a dislodged one.
* binding convoy paths: the army names every convoying unit, in order, and
  only those carry it.
* the Dissolution paradox rule: two convoyed attacks on each other's
  convoying units are compared head to head (the stronger completes, equal
  ones both fail); any other paradox turns the paradoxical convoyed armies
  into holds one at a time, in alphabetical order of their provinces.

* restricted crossings (``GameMap.crossings``, DPJudge's marks): a move
  across a weak strait has no strength of its own (only its supports') and
  cuts support only when some support of it is given; one across the Cape
  of Good Hope, or convoyed with its last step across it, has half
  strength and never cuts support.

Input orders must already be legal and canonical (see engine.legality):
illegal orders reach here as holds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from engine.map import Crossing, GameMap, UnitKind, province_of
from engine.orders import Convoy, Move, MovementOrder, SupportHold, SupportMove
from engine.outcomes import Reason, Strength, Why
from engine.units import Unit

_OWN_STRENGTH: Mapping[Crossing | None, Strength] = {
    None: 1, Crossing.WEAK: 0, Crossing.CAPE: Fraction(1, 2)}


class ParadoxRule(StrEnum):
    SZYKMAN = "szykman"  # DATC: the convoying fleets of the paradox hold
    CRISS_CROSS = "criss-cross"  # Dissolution §3.11: head to head, then armies hold in turn


@dataclass(frozen=True, slots=True)
class Combat:
    """What a variant changes in combat, by province of the unit concerned."""

    stationary: frozenset[str] = frozenset()
    invulnerable: frozenset[str] = frozenset()
    binding_paths: bool = False  # an army's named convoy path is the only route
    paradox: ParadoxRule = ParadoxRule.SZYKMAN


STANDARD_COMBAT = Combat()


class MovementResolver:
    def __init__(
        self,
        game_map: GameMap,
        units: Mapping[str, Unit],
        orders: Mapping[str, MovementOrder],
        same_player: Callable[[str, str], bool],
        combat: Combat = STANDARD_COMBAT,
    ) -> None:
        self.map = game_map
        self.units = units
        self.orders = orders
        self.combat = combat
        self.stationary = combat.stationary
        self.invulnerable = combat.invulnerable
        # without stationary or invulnerable units, every prevailing move
        # relocates and nothing is ever disabled
        self._plain = not combat.stationary and not combat.invulnerable
        self.can_disable = not self._plain
        self.moves: dict[str, str] = {}  # origin province -> destination province
        self.move_dest_loc: dict[str, str] = {}
        self.attackers: dict[str, list[str]] = {}  # destination -> origins
        self.convoyed: set[str] = set()  # origins of moves that go by convoy
        self.head_to_head: dict[str, str] = {}  # origin -> origin of the opposite move
        self.hold_support: dict[str, list[str]] = {}  # supported province -> supporters
        self.move_support: dict[str, list[str]] = {}  # moving origin -> supporters
        self.convoyers: dict[str, list[str]] = {}  # army origin -> matching convoy fleets
        self.matched: set[str] = set()  # supports and convoys whose order was given
        self.paradox_held: set[str] = set()  # convoying fleets held by the Szykman rule
        self.paradox_armies: set[str] = set()  # convoyed armies turned into holds (Dissolution)
        self.criss_cross: dict[str, str] = {}  # army origin -> the rival convoyed army
        self._relocating: set[str] = set()
        # origin -> the crossing its move makes (direct moves), or CAPE for a
        # convoyed move that some convoying fleet would land across the Cape;
        # empty on a map without restricted crossings
        self.crossed: dict[str, Crossing] = {}
        self.weak_doubt: set[str] = set()  # supports no weak-strait move cuts (_backup_rule)
        self.known: dict[str, bool] = {}  # settled decisions
        self.guesses: dict[str, bool] = {}  # decisions being worked out, and their guess
        self.deps: list[str] = []
        self._index(same_player)
        # Does the unit ordered to move from a province (a key of moves) leave
        # it? Without stationary or invulnerable units: whenever its move succeeds.
        self.moved: Callable[[str], bool] = self.resolve if self._plain else self.relocates

    # -- preparing ---------------------------------------------------------

    def _index(self, same_player: Callable[[str, str], bool]) -> None:
        convoys: list[tuple[str, Convoy]] = []
        supports: list[tuple[str, SupportHold | SupportMove]] = []
        for prov, order in self.orders.items():
            if type(order) is Move:
                dest = province_of(order.dest)
                self.moves[prov] = dest
                self.move_dest_loc[prov] = order.dest
                self.attackers.setdefault(dest, []).append(prov)
            elif type(order) is Convoy:
                convoys.append((prov, order))
            elif type(order) is SupportHold or type(order) is SupportMove:
                supports.append((prov, order))
        binding = self.combat.binding_paths
        for prov, convoy in convoys:
            army = convoy.target.province
            if self.moves.get(army) != province_of(convoy.dest):
                continue
            move = self.orders[army]
            assert isinstance(move, Move)
            if binding and prov not in move.path:
                continue  # §3.10: only the units the army names carry it
            self.convoyers.setdefault(army, []).append(prov)
        # DATC 4.A.3: a move that is not adjacent goes by convoy; an adjacent
        # one only with 'via convoy' or a convoying fleet of the army's player.
        # With binding paths, exactly the moves that name a path go by convoy.
        army_moves = self.map.army_moves
        for prov, dest in self.moves.items():
            unit = self.units[prov]
            if unit.kind is not UnitKind.ARMY:
                continue
            move = self.orders[prov]
            if type(move) is not Move:
                continue  # never: every key of moves is a Move (narrows the type)
            if binding:
                if move.path:
                    self.convoyed.add(prov)
            elif move.via_convoy or dest not in army_moves[prov] or any(
                same_player(self.units[f].power, unit.power) for f in self.convoyers.get(prov, ())
            ):
                self.convoyed.add(prov)
        # two units moving into each other's province, neither by convoy
        for prov, dest in self.moves.items():
            if (self.moves.get(dest) == prov and prov not in self.convoyed
                    and dest not in self.convoyed):
                self.head_to_head[prov] = dest
        for army in list(self.convoyers):
            if army in self.convoyed:
                self.matched.update(self.convoyers[army])
            else:
                del self.convoyers[army]
        if self.map.crossings:
            self._index_crossings()
        for prov, support in supports:
            target = support.target.province
            if isinstance(support, SupportHold):
                if target not in self.moves:
                    self.hold_support.setdefault(target, []).append(prov)
                    self.matched.add(prov)
            elif target in self.moves and self._support_fits(support, target):
                self.move_support.setdefault(target, []).append(prov)
                self.matched.add(prov)

    def _index_crossings(self) -> None:
        crossing = self.map.crossing
        for prov, dest in self.moves.items():
            if prov not in self.convoyed:
                found = crossing(prov, dest)
                if found is not None:
                    self.crossed[prov] = found
            elif any(crossing(f, dest) is Crossing.CAPE for f in self.convoyers.get(prov, ())):
                self.crossed[prov] = Crossing.CAPE

    def _landing(self, prov: str) -> Crossing | None:
        """The crossing the move from prov makes: a convoyed one crosses the
        Cape when every convoy route that gets through lands across it."""
        crossed = self.crossed.get(prov)
        if crossed is None or prov not in self.convoyed:
            return crossed
        elsewhere = self._convoy_route(
            prov, self.resolve,
            lambda fleet: self.map.crossing(fleet, self.moves[prov]) is not Crossing.CAPE)
        return None if elsewhere else Crossing.CAPE

    def _own_strength(self, prov: str) -> Strength:
        """What the moving unit adds to its supports: 1, less across a crossing."""
        return _OWN_STRENGTH[self._landing(prov)] if prov in self.crossed else 1

    def _cuts(self, prov: str) -> bool:
        """Does the move from prov cut a support at its destination? Across
        the Cape never; across a weak strait only with some support given,
        and never a support whose cut the backup rule left in doubt."""
        landing = self._landing(prov) if prov in self.crossed else None
        if landing is Crossing.CAPE:
            return False
        if landing is Crossing.WEAK:
            return self.moves[prov] not in self.weak_doubt and \
                self._support_count(self.move_support.get(prov, [])) > 0
        return True

    def _support_fits(self, order: SupportMove, origin: str) -> bool:
        if province_of(order.dest) != self.moves[origin]:
            return False
        # a coast named in the support must be the coast moved to
        return "/" not in order.dest or order.dest == self.move_dest_loc[origin]

    # -- the guess algorithm ------------------------------------------------

    def resolve(self, prov: str) -> bool:
        answer = self.known.get(prov)
        if answer is not None:
            return answer
        guess = self.guesses.get(prov)
        if guess is not None:
            # Record every use of a guess, even of one already listed: the
            # caller must learn that its answer rests on a guess.
            self.deps.append(prov)
            return guess
        first = len(self.deps)
        self.guesses[prov] = False
        first_answer = self._adjudicate(prov)
        if len(self.deps) == first:
            if prov not in self.known:
                self._settle(prov, first_answer)
            return first_answer
        if self.deps[first] != prov:
            # this answer rests on someone else's guess: pass it up the chain
            self.deps.append(prov)
            self.guesses[prov] = first_answer
            return first_answer
        # prov starts a cycle: try the other guess
        self._forget(first)
        self.guesses[prov] = True
        second_answer = self._adjudicate(prov)
        if first_answer == second_answer:
            self._forget(first)
            self._settle(prov, first_answer)
            return first_answer
        self._backup_rule(first)
        return self.resolve(prov)

    def _settle(self, prov: str, answer: bool) -> None:
        self.known[prov] = answer
        self.guesses.pop(prov, None)

    def _forget(self, first: int) -> None:
        for prov in self.deps[first:]:
            self.guesses.pop(prov, None)
        del self.deps[first:]

    def _backup_rule(self, first: int) -> None:
        cycle = self.deps[first:]
        fleets = [p for p in cycle if isinstance(self.orders[p], Convoy)]
        self._forget(first)
        if fleets and self.combat.paradox is ParadoxRule.CRISS_CROSS:
            self._dissolution_paradox(cycle)
            return
        if fleets:
            self.paradox_held.update(fleets)  # Szykman: the convoying fleets hold
            return
        if self.crossed:
            # supports whose cut hangs on weak-strait moves, each move's
            # strength on another of them: those moves do not cut them (the
            # doubt does not cut; docs/rules.md), and all is worked out again
            doubted = [p for p in cycle if isinstance(self.orders[p], (SupportHold, SupportMove))
                       and p not in self.weak_doubt and any(
                           self.crossed.get(a) is Crossing.WEAK for a in self.attackers.get(p, ()))]
            if doubted:
                self.weak_doubt.update(doubted)
                return
        for prov in cycle:  # circular movement: every move in the circle succeeds
            if prov in self.moves:
                self._settle(prov, True)

    def _dissolution_paradox(self, cycle: list[str]) -> None:
        """§3.11: two convoyed attacks on each other's convoying units are a
        criss-cross, compared head to head; otherwise the paradoxical army
        first in alphabetical order of its province holds, and the rest is
        adjudicated again (another paradox comes back here)."""
        in_cycle = set(cycle)
        armies = sorted(
            army for army, carriers in self.convoyers.items()
            if army in self.convoyed and army not in self.paradox_armies
            and (army in in_cycle or in_cycle.intersection(carriers)))
        for a in armies:
            for b in armies:
                if a < b and self.moves[a] in self.convoyers[b] \
                        and self.moves[b] in self.convoyers[a]:
                    self.criss_cross[a] = b
                    self.criss_cross[b] = a
                    return
        if armies:
            self.paradox_armies.add(armies[0])
        else:  # a paradox without a convoyed army: its convoys hold, as Szykman
            self.paradox_held.update(p for p in cycle if isinstance(self.orders[p], Convoy))

    def _adjudicate(self, prov: str) -> bool:
        order = self.orders[prov]
        if isinstance(order, Move):
            return self._move_succeeds(prov)
        if isinstance(order, Convoy):
            return prov not in self.paradox_held and not self._beaten(prov)
        return self._support_given(prov)

    # -- the decisions ------------------------------------------------------

    def _beaten(self, prov: str) -> bool:
        """Is the (not moving) unit in prov dislodged or disabled?"""
        return any(self.resolve(a) for a in self.attackers.get(prov, ()))

    def relocates(self, prov: str) -> bool:
        """Does the unit in prov leave it? Its attack must prevail, the unit
        must not be stationary, and the defender must not stay invulnerable."""
        if self._plain:
            return prov in self.moves and self.resolve(prov)
        if prov not in self.moves or prov in self.stationary or not self.resolve(prov):
            return False
        dest = self.moves[prov]
        if dest not in self.invulnerable or dest in self._relocating:
            return True
        self._relocating.add(prov)  # a circle of invulnerable movers: all move
        try:
            return self.relocates(dest) and self.head_to_head.get(prov) != dest
        finally:
            self._relocating.discard(prov)

    def _support_given(self, prov: str) -> bool:
        if prov not in self.matched:
            return False
        return self.cut_by(prov) is None and not self._beaten(prov)

    def cut_by(self, prov: str) -> str | None:
        """The unit (by province) whose attack cuts the support from prov, if any.

        Any attack by another power cuts, except one from the province the
        support is aimed at; a convoyed attack only counts when its convoy
        gets through.
        """
        order = self.orders[prov]
        assert isinstance(order, (SupportHold, SupportMove))
        aimed_at = province_of(
            order.dest if isinstance(order, SupportMove) else order.target.location)
        power = self.units[prov].power
        for attacker in self.attackers.get(prov, ()):
            if attacker != aimed_at and self.units[attacker].power != power \
                    and self.path(attacker) and (not self.crossed or self._cuts(attacker)):
                return attacker
        return None

    def path(self, prov: str) -> bool:
        """Does the move from prov have a way to its destination?"""
        if prov not in self.convoyed:
            return True
        if prov in self.paradox_armies:
            return False
        return self._convoy_route(prov, lambda fleet: self.resolve(fleet))

    def _convoy_route(self, prov: str, usable: Callable[[str], bool],
                      lands: Callable[[str], bool] | None = None) -> bool:
        """Do the usable convoying fleets carry the army from prov to its
        destination? ``lands``: which fleets may make the last step."""
        fleets = self.convoyers.get(prov)
        if not fleets:
            return False
        if self.combat.binding_paths:
            move = self.orders[prov]
            assert isinstance(move, Move)
            return all(p in fleets for p in move.path) and all(usable(p) for p in move.path) \
                and (lands is None or lands(move.path[-1]))
        dest = self.moves[prov]
        waters = self.map.water_neighbours
        available = set(fleets)
        seen: set[str] = set()
        queue = deque(w for w in waters[prov] if w in available)
        while queue:
            water = queue.popleft()
            if water in seen:
                continue
            seen.add(water)
            if not usable(water):
                continue
            if self.map.reaches_province(self.units[water].kind, water, dest) and (
                    lands is None or lands(water)):
                return True
            queue.extend(w for w in waters[water] if w in available and w not in seen)
        return False

    def _head_to_head(self, prov: str) -> str | None:
        return self.head_to_head.get(prov)

    def _support_count(self, supporters: list[str], exclude_power: str | None = None) -> int:
        count = 0
        for s in supporters:
            if exclude_power is not None and self.units[s].power == exclude_power:
                continue
            if self.resolve(s):
                count += 1
        return count

    def attack_strength(self, prov: str, assume_path: bool = False) -> Strength:
        if prov in self.convoyed and not assume_path and not self.path(prov):
            return 0
        dest = self.moves[prov]
        supporters = self.move_support.get(prov)
        own = self._own_strength(prov) if self.crossed else 1
        defender = self.units.get(dest)
        if defender is not None and not (
            prov not in self.head_to_head and dest in self.moves and self.moved(dest)
        ):
            # the defender stays: no power helps dislodge its own unit
            if defender.power == self.units[prov].power:
                return 0
            return own + self._support_count(supporters, defender.power) if supporters else own
        return own + self._support_count(supporters) if supporters else own

    def hold_strength(self, dest: str) -> int:
        if dest not in self.units:
            return 0
        if dest in self.moves:
            return 0 if self.moved(dest) else 1
        supporters = self.hold_support.get(dest)
        return 1 + self._support_count(supporters) if supporters else 1

    def defend_strength(self, prov: str) -> Strength:
        supporters = self.move_support.get(prov)
        own = self._own_strength(prov) if self.crossed else 1
        return own + self._support_count(supporters) if supporters else own

    def prevent_strength(self, prov: str) -> Strength:
        if prov in self.convoyed and not self.path(prov):
            return 0
        if self.criss_cross and self._lost_criss_cross(prov):
            return 0
        opponent = self.head_to_head.get(prov)
        if opponent is not None and self.resolve(opponent):
            return 0  # it lost the head-to-head battle (DATC 4.A.7)
        supporters = self.move_support.get(prov)
        own = self._own_strength(prov) if self.crossed else 1
        return own + self._support_count(supporters) if supporters else own

    def criss_cross_strengths(self, prov: str) -> tuple[Strength, Strength]:
        """This convoyed attack and its criss-cross rival's, both convoys assumed to hold."""
        return (self.attack_strength(prov, assume_path=True),
                self.attack_strength(self.criss_cross[prov], assume_path=True))

    def _lost_criss_cross(self, prov: str) -> bool:
        if prov not in self.criss_cross:
            return False
        mine, theirs = self.criss_cross_strengths(prov)
        return mine <= theirs

    def _move_succeeds(self, prov: str) -> bool:
        if self.criss_cross and self._lost_criss_cross(prov):
            return False
        attack = self.attack_strength(prov)
        if attack == 0:
            return False
        opponent = self.head_to_head.get(prov)
        if opponent is not None:
            if attack <= self.defend_strength(opponent):
                return False
        elif attack <= self.hold_strength(self.moves[prov]):
            return False
        for other in self.attackers[self.moves[prov]]:
            if other != prov and attack <= self.prevent_strength(other):
                return False
        return True

    # -- after resolution -------------------------------------------------

    def run(self) -> None:
        for prov in self.orders:
            if prov in self.moves or prov in self.matched:
                self.resolve(prov)

    def succeeded(self, prov: str) -> bool:
        return self.resolve(prov)

    def dislodged_by(self, prov: str) -> str | None:
        """The province of the unit that dislodged the unit in prov, if any."""
        moved = self.moved
        if prov in self.moves and moved(prov):
            return None
        for attacker in self.attackers.get(prov, ()):
            if moved(attacker):
                return attacker
        return None

    def disabled_by(self, prov: str) -> str | None:
        """The province of the unit whose prevailing attack disabled the unit
        in prov (a sortie, or an attack on an invulnerable unit), if any."""
        if self.relocates(prov):
            return None
        for attacker in self.attackers.get(prov, ()):
            if self.resolve(attacker) and not self.relocates(attacker):
                return attacker
        return None

    def _how_gone(self, convoyers: tuple[str, ...]) -> str:
        """How the convoying units that failed were stopped, where some unit
        was disabled rather than dislodged (a Dissolution wing beaten by a
        sortie, an invulnerable one): 'ASW disabled'; '' when all were
        dislodged, which the reason says by default."""
        fates = [(c, "dislodged" if self.dislodged_by(c) else "disabled") for c in convoyers]
        if all(fate == "dislodged" for _, fate in fates):
            return ""
        return ", ".join(f"{c} {fate}" for c, fate in fates)

    def move_failure(self, prov: str) -> Reason:
        """Why the move from prov did not take its unit there (ask only about
        those): a sortie or a disabling attack prevailed without moving."""
        dest = self.moves[prov]
        if not self._plain and self.resolve(prov):
            strength = self.attack_strength(prov)
            against = self.hold_strength(dest) if dest in self.units else 0
            disabled = (dest,) if dest in self.units and not self.relocates(dest) else ()
            why = Why.SORTIE if prov in self.stationary else Why.DISABLES
            return Reason(why, disabled, strength, against)
        if prov in self.paradox_armies:
            return Reason(Why.PARADOX, detail="convoy paradox: the army holds (§3.11.2)")
        if prov in self.criss_cross and self._lost_criss_cross(prov):
            mine, theirs = self.criss_cross_strengths(prov)
            return Reason(Why.CRISS_CROSS, (self.criss_cross[prov],), mine, theirs)
        if not self.path(prov):
            fleets = self.convoyers.get(prov, [])
            if any(f in self.paradox_held for f in fleets):
                return Reason(Why.PARADOX)
            if fleets and self._convoy_route(prov, lambda _: True):
                gone = tuple(f for f in fleets if not self.resolve(f))
                return Reason(Why.DISRUPTED, gone, detail=self._how_gone(gone))
            move = self.orders[prov]
            if self.combat.binding_paths and isinstance(move, Move):
                missing = tuple(p for p in move.path if p not in fleets)
                return Reason(Why.NO_CONVOY, missing)
            return Reason(Why.NO_CONVOY)
        attack = self.attack_strength(prov)
        defender = self.units.get(dest)
        if attack == 0 and defender is not None and defender.power == self.units[prov].power:
            return Reason(Why.OWN_UNIT, (dest,))
        if attack == 0 and self.crossed.get(prov) is Crossing.WEAK:
            return Reason(Why.WEAK_STRAIT)
        opponent = self.head_to_head.get(prov)
        if opponent is not None:
            defend = self.defend_strength(opponent)
            if attack <= defend:
                return Reason(Why.BEATEN, (opponent,), attack, defend)
        else:
            hold = self.hold_strength(dest)
            if attack <= hold:
                return Reason(Why.BEATEN, (dest,), attack, hold)
        prevents = [(o, self.prevent_strength(o)) for o in self.attackers[dest] if o != prov]
        strongest = max(strength for _, strength in prevents)
        return Reason(Why.BOUNCED, tuple(o for o, strength in prevents if strength >= attack),
                      attack, strongest)

    def contested(self) -> set[str]:
        """Provinces a standoff left empty: no retreat may enter them."""
        result: set[str] = set()
        for dest, origins in self.attackers.items():
            moved = self.moved
            if any(moved(o) for o in origins):
                continue
            stays = dest in self.units and not (dest in self.moves and moved(dest))
            if stays:
                continue
            if any(self.prevent_strength(o) > 0 for o in origins):
                result.add(dest)
        return result
