"""Driving games with the PyPI package ``diplomacy`` 1.1.2.

The package is a bench-only optional dependency (AGPL: the judge itself never
imports it); ``PackageGame`` is None when it is not installed.

For every kind of phase, random legal orders are drawn from the package's
``get_all_possible_orders()``, biased so that battles, supports and convoys
happen. ``package_adjudicate`` has the package process a given position and
orders on a fresh game: the emulation of some known differences and the
shrinking of examples need it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

try:  # the package is a bench-only optional dependency: pip install -e '.[bench]'
    from diplomacy import Game as PackageGame
except ImportError:  # pragma: no cover - reported at run time
    PackageGame = None


# ---------------------------------------------------------------------------
# Random legal orders, biased so that battles, supports and convoys happen
# ---------------------------------------------------------------------------

def _kind(order: str) -> str:
    words = order.split()
    return words[2] if len(words) > 2 else words[0]


def random_movement_orders(rng: random.Random, possible: Mapping[str, Sequence[str]],
                           orderable: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """For every unit a random order among the package's possible ones.

    A first pass picks a kind (move 50%, support 35%, convoy 10% when the
    fleet can convoy, hold 5%) and a random order of that kind; a second pass
    makes most supports and convoys match an order actually given, so that
    supports count, convoys carry and paradoxes can happen.
    """
    units: list[tuple[str, str, list[str]]] = []
    for power in sorted(orderable):
        for loc in sorted(orderable[power]):
            options = sorted(possible.get(loc, ()))
            if options:
                units.append((power, loc, options))
    rng.shuffle(units)
    chosen: dict[str, str] = {}
    by_kind_of: dict[str, dict[str, list[str]]] = {}
    for _power, loc, options in units:
        by_kind: dict[str, list[str]] = {}
        for order in options:
            by_kind.setdefault(_kind(order), []).append(order)
        by_kind_of[loc] = by_kind
        weights = {"-": 50, "S": 35, "C": 10, "H": 5}
        kinds = [k for k in weights if k in by_kind]
        kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
        chosen[loc] = rng.choice(by_kind[kind])

    def province(loc: str) -> str:
        return loc[:3]

    moves = {}  # province of a moving unit -> (destination province, via convoy)
    for loc, order in chosen.items():
        words = order.split()
        if words[2] == "-":
            moves[province(loc)] = (province(words[3]), words[-1] == "VIA")
    # convoys: a fleet that can convoy an army's chosen move usually does
    for _power, loc, _options in units:
        convoys = [o for o in by_kind_of[loc].get("C", [])
                   if moves.get(o.split()[4]) == (province(o.split()[6]), True)
                   or (o.split()[4] in moves and moves[o.split()[4]][0] == province(o.split()[6])
                       and rng.random() < 0.3)]
        if convoys and rng.random() < 0.8:
            chosen[loc] = rng.choice(convoys)
    # supports: most supports back an order that was given
    for _power, loc, _options in units:
        if _kind(chosen[loc]) != "S" or rng.random() < 0.15:
            continue
        matching = []
        for order in by_kind_of[loc]["S"]:
            words = order.split()
            target = words[4]
            if len(words) > 5:  # support to move
                if moves.get(province(target), (None,))[0] == province(words[6]):
                    matching.append(order)
            elif province(target) not in moves:
                matching.append(order)
        if matching:
            chosen[loc] = rng.choice(matching)
    orders: dict[str, list[str]] = {power: [] for power in orderable}
    for power, loc, _options in sorted(units):
        orders[power].append(chosen[loc])
    return orders


def random_retreat_orders(rng: random.Random, possible: Mapping[str, Sequence[str]],
                          orderable: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {power: [] for power in orderable}
    for power in sorted(orderable):
        for loc in sorted(orderable[power]):
            options = sorted(possible.get(loc, ()))
            retreats = [o for o in options if _kind(o) == "R"]
            disbands = [o for o in options if _kind(o) == "D"]
            if retreats and (rng.random() < 0.85 or not disbands):
                orders[power].append(rng.choice(retreats))
            elif disbands:
                orders[power].append(disbands[0])
    return orders


def random_adjustment_orders(rng: random.Random, game: Any) -> dict[str, list[str]]:
    """Builds (up to the number allowed, sometimes fewer) and exactly the
    removals owed, so that no civil disorder rule is involved."""
    possible = game.get_all_possible_orders()
    orderable = game.get_orderable_locations()
    orders: dict[str, list[str]] = {}
    for power_name in sorted(orderable):
        power = game.get_power(power_name)
        due = len(power.centers) - len(power.units)
        locs = sorted(orderable[power_name])
        options = [o for loc in locs for o in sorted(possible.get(loc, ()))]
        if due > 0:
            builds: dict[str, list[str]] = {}
            for order in options:
                if _kind(order) == "B":
                    builds.setdefault(order.split()[1][:3], []).append(order)
            sites = sorted(builds)
            rng.shuffle(sites)
            count = min(due, len(sites))
            if count and rng.random() < 0.2:
                count = rng.randint(0, count - 1)
            orders[power_name] = [rng.choice(builds[s]) for s in sites[:count]]
        elif due < 0:
            removals = sorted({o for o in options if _kind(o) == "D"})
            orders[power_name] = rng.sample(removals, min(-due, len(removals)))
    return orders


# ---------------------------------------------------------------------------
# A position and its orders, processed on a fresh package game
# ---------------------------------------------------------------------------

def package_adjudicate(phase: str, units: Mapping[str, Sequence[str]],
                       centres: Mapping[str, Sequence[str]],
                       orders: Mapping[str, Sequence[str]]) -> tuple[Any, list[str], Any]:
    """A fresh package game at ``phase`` with this position and these orders,
    processed: (the game after, the package's order errors, its phase data)."""
    game = PackageGame()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(phase)
    for power in game.powers:
        if units.get(power):
            game.set_units(power, [u for u in units[power] if not u.startswith("*")])
        if centres.get(power):
            game.set_centers(power, list(centres[power]))
    for power, power_orders in orders.items():
        game.set_orders(power, list(power_orders))
    errors = list(game.error)
    data = game.process()
    return game, errors, data
