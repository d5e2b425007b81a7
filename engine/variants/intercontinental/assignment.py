"""§3, which colour group plays which major powers: each of the eight groups
gets one power in each of the four theatres. §3.1 fixes 17 powers; §3.2-§3.5
draw the other 15 at random, theatre by theatre, in the text's order (Mexico
before the rest of the Americas, Iran before the rest of Asia, whose groups
are those the earlier draw left). The rules are data: the facts file's
``[groups]`` and ``[[assignment_rules]]``.

Powers are named here by their §6 codes (``AL``, ``ME``); :func:`seats`
turns an assignment into the board's power names, the seats of a game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.map import GameMap
from engine.variants.intercontinental.facts import AssignmentRule, Facts, load_facts

Assignment = dict[str, tuple[str, ...]]  # colour group -> power codes


def _groups_for(rule: AssignmentRule, taken: set[str]) -> list[str]:
    """The groups a rule's powers go to: its list, less ``never``, less (for
    a rule that takes the groups left) those with a power of the theatre."""
    groups = [g for g in rule.groups if g not in rule.never]
    if rule.to_groups_left:
        groups = [g for g in groups if g not in taken]
    return sorted(groups)


def draw(seed: int | str, facts: Facts | None = None) -> Assignment:
    """A random assignment honouring §3, the same for the same seed."""
    facts = facts or load_facts()
    rng = random.Random(f"intercontinental §3:{seed}")
    by_group: dict[str, list[str]] = {
        name: [group.preassigned[t] for t in sorted(group.preassigned)]
        for name, group in facts.groups.items()}
    taken: dict[str, set[str]] = {
        theatre: {g for g, group in facts.groups.items() if theatre in group.preassigned}
        for theatre in {r.theatre for r in facts.assignment_rules}}
    for rule in facts.assignment_rules:
        groups = _groups_for(rule, taken[rule.theatre])
        chosen = rng.sample(groups, len(rule.powers))  # one group each, distinct
        for power, group in zip(sorted(rule.powers), chosen, strict=True):
            by_group[group].append(power)
            taken[rule.theatre].add(group)
    return {g: tuple(sorted(p, key=lambda c: _theatre_order(facts, c)))
            for g, p in by_group.items()}


def _theatre_order(facts: Facts, code: str) -> int:
    theatres = ("Africa", "Europe", "Americas", "Asia")
    return theatres.index(facts.powers[code].theatre)


def problems(assignment: Mapping[str, Sequence[str]], facts: Facts | None = None) -> list[str]:
    """What is wrong with a GM's assignment (colour group -> power codes),
    each naming the rule of §1.2 or §3 it breaks; empty when it is valid."""
    facts = facts or load_facts()
    found: list[str] = []
    for group in sorted(set(facts.groups) - set(assignment)):
        found.append(f"§1.2: the {group} colour group has no powers")
    seen: dict[str, str] = {}
    for group, powers in assignment.items():
        if group not in facts.groups:
            found.append(f"§1.2: there is no {group} colour group")
            continue
        theatres: dict[str, str] = {}
        for code in powers:
            power = facts.powers.get(code)
            if power is None:
                found.append(f"§3.0: {code} is not a major power")
                continue
            if code in seen:
                found.append(f"§3.0: {power.name} is in both {seen[code]} and {group}")
            seen[code] = group
            if power.theatre in theatres:
                found.append(f"§3.0: {group} has two powers in {power.theatre} "
                             f"({facts.powers[theatres[power.theatre]].name} and {power.name})")
            theatres[power.theatre] = code
            found.extend(_placement(facts, code, group))
    for code in sorted(set(facts.powers) - set(seen)):
        found.append(f"§3.0: {facts.powers[code].name} is in no colour group")
    return found


def _placement(facts: Facts, code: str, group: str) -> list[str]:
    """Whether §3.1 or the §3.2-§3.5 rule for this power allows this group."""
    name = facts.powers[code].name
    for fixed_group, entry in facts.groups.items():
        if code in entry.preassigned.values():
            if fixed_group != group:
                return [f"§3.1: {name} is always {fixed_group}, not {group}"]
            return []
    for rule in facts.assignment_rules:
        if code not in rule.powers:
            continue
        if group in rule.never:
            return [f"§{rule.section}: {name} may not be {group}"]
        if group not in rule.groups:
            return [f"§{rule.section}: {name} goes to one of "
                    f"{', '.join(sorted(rule.groups))}, not {group}"]
        return []
    return [f"§3.0: no rule places {name}"]


def seats(game_map: GameMap, assignment: Mapping[str, Sequence[str]]
          ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The assignment as a game's seats: colour group -> the board's power
    names (a power's ``letter`` is its §6 code)."""
    by_letter = {p.letter: name for name, p in game_map.powers.items() if not p.ordered_by_bids}
    return tuple((group, tuple(by_letter[c] for c in codes))
                 for group, codes in sorted(assignment.items()))
