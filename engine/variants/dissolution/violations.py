"""Dissolution §11.6: offences against nuclear powers, found after movement.

Three kinds, each counted once per event:

* disabling a nuclear unit (§11.6.1): the attacking player, not its helpers;
* attacking a nuclear unit from that power's territory (§11.6.2), whatever
  the attack's outcome (a disabling attack from there is two offences);
* dislodging any unit in a land province within or next to a nuclear
  power's territory without that power's permission (§11.6.3): one of its
  units ordered support for that very move (cut or void still counts), or
  convoyed the army along the path it used.

The US Navy's permission counts for NATO, and an offence against NATO
counts against the US Navy too (§11.6.4): the variant file names NATO as
the US Navy's partner (``[favor.partners]``, nuclear.py). Djibouti holds a NATO wing but is not NATO
territory, so it makes no neighbour need permission (§11.6.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.map import GameMap, Terrain
from engine.orders import MovementOrder
from engine.resolver import MovementResolver
from engine.variants.dissolution.nuclear import nuclear_powers

DISABLED = "disabled"
FROM_TERRITORY = "attacked from territory"
NO_PERMISSION = "dislodged without permission"


@dataclass(frozen=True, slots=True)
class Violation:
    """An offence against a nuclear power found after movement (§11.6)."""

    power: str  # the offending player's power
    nuclear: str  # the nuclear power offended
    kind: str  # DISABLED, FROM_TERRITORY or NO_PERMISSION
    unit: str  # the offending unit, as 'A KHK'
    target: str  # the province attacked or dislodged in
    via: str | None = None  # the nuclear power whose violation this one follows (NATO -> US)

    def describe(self) -> str:
        what = {
            DISABLED: f"{self.unit} disabled the unit in {self.target}",
            FROM_TERRITORY: f"{self.unit} attacked {self.target} from "
                            f"{self.nuclear}'s territory",
            NO_PERMISSION: f"{self.unit} dislodged the unit in {self.target} without permission",
        }.get(self.kind, self.kind)
        also = f" (counts against {self.nuclear} as an offence against {self.via})" \
            if self.via else ""
        return f"{self.power} against {self.nuclear}: {what}{also}"


def find_violations(game_map: GameMap, resolver: MovementResolver,
                    chosen: Mapping[str, MovementOrder]) -> tuple[Violation, ...]:
    powers = game_map.powers
    nuclear = nuclear_powers(game_map)
    territory_of = nuclear.territory(game_map)
    # in the order of the file's powers, the order their violations are reported in
    nuclear_territories = [(n, frozenset(p.territory)) for n, p in powers.items()
                           if nuclear.is_nuclear(n)]
    found: list[Violation] = []
    for origin, dest in resolver.moves.items():
        attacker = resolver.units[origin]
        if powers[attacker.power].ordered_by_bids:
            continue  # only players offend
        unit = str(attacker)
        target = resolver.units.get(dest)
        if target is not None and nuclear.is_nuclear(target.power):
            if territory_of.get(origin) == target.power:
                found.append(Violation(attacker.power, target.power, FROM_TERRITORY, unit, dest))
            if resolver.disabled_by(dest) == origin:
                found.append(Violation(attacker.power, target.power, DISABLED, unit, dest))
        if target is None or resolver.dislodged_by(dest) != origin:
            continue
        if game_map.provinces[dest].terrain is Terrain.WATER:
            continue
        near = game_map.province_graph.get(dest, frozenset()) | {dest}
        for name, territory in nuclear_territories:
            if near.isdisjoint(territory):
                continue
            if not _permitted(game_map, resolver, name, origin):
                found.append(Violation(attacker.power, name, NO_PERMISSION, unit, dest))
    return tuple(_with_partners(game_map, found))


def _permitted(game_map: GameMap, resolver: MovementResolver, nuclear: str,
               origin: str) -> bool:
    """Did a unit of the nuclear power (or of a partner of it) order support
    for this move, or convoy it along the path it took?"""
    granting = nuclear_powers(game_map).granting(nuclear)
    helpers = [*resolver.move_support.get(origin, ()),
               *(resolver.convoyers.get(origin, ()) if origin in resolver.convoyed else ())]
    return any(resolver.units[h].power in granting for h in helpers)


def _with_partners(game_map: GameMap, found: list[Violation]) -> list[Violation]:
    """§11.6.4: every offence against a power also offends its partners."""
    nuclear = nuclear_powers(game_map)
    out: list[Violation] = []
    for violation in found:
        out.append(violation)
        for partner in nuclear.partnered_by(violation.nuclear):
            out.append(Violation(violation.power, partner, violation.kind,
                                 violation.unit, violation.target, via=violation.nuclear))
    return out
