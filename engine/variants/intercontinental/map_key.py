"""The map's colours (§1.2, §6.12): each major power in a shade of its colour
group, the Dutch East Indies in orange whatever group it joins, affiliates
pale in their sponsor's colour and minors in one neutral colour.

The colours are the variant file's ``[map_style]`` table (no rules meaning):
``groups`` gives each colour group four shades, one per theatre in §3.0's
order, so that a group's four powers can be told apart and still read as
one player; ``named`` the colours a power keeps (§6.12's "Orange");
``minor`` and ``undrawn`` (a major whose group is not drawn yet, §3.2);
``pixels`` the PNG's width, since 419 provinces need more than the usual.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.map import COLOUR, GameMap
from engine.rules import MapKey
from engine.state import GameState

if TYPE_CHECKING:
    from engine.variants.intercontinental.facts import Facts

TABLE = "map_style"
PALE = 0.5  # an affiliate's colour: its sponsor's, this much of the way to white


def check_style(game_map: GameMap) -> list[tuple[tuple[str, ...], str]]:
    """The [map_style] table's problems, each with its key path."""
    from engine.variants.intercontinental.facts import THEATRES, load_facts

    raw: Any = game_map.tables.get(TABLE)
    if not isinstance(raw, dict):
        return [((TABLE,), "missing [map_style] table (the map's colours)")]
    problems: list[tuple[tuple[str, ...], str]] = []
    groups = raw.get("groups")
    if not isinstance(groups, dict):
        return [((TABLE, "groups"), "groups is a table: group = four '#rrggbb' shades")]
    for group in sorted(load_facts().groups):
        shades = groups.get(group)
        if not (isinstance(shades, list) and len(shades) == len(THEATRES)
                and all(isinstance(s, str) and COLOUR.fullmatch(s) for s in shades)):
            problems.append(((TABLE, "groups", group),
                             f"the {group} colour group needs {len(THEATRES)} shades "
                             f"like '#1f4e9c', one per theatre ({', '.join(THEATRES)})"))
    named = raw.get("named", {})
    for key, value in [("minor", raw.get("minor")), ("undrawn", raw.get("undrawn")),
                       *((f"named.{k}", v) for k, v in sorted(
                           named.items() if isinstance(named, dict) else []))]:
        if not (isinstance(value, str) and COLOUR.fullmatch(value)):
            problems.append(((TABLE, *key.split(".")), f"{key} is a colour like '#1f4e9c'"))
    if not isinstance(raw.get("pixels", 0), int):
        problems.append(((TABLE, "pixels"), "pixels is the PNG's width, a whole number"))
    return problems


def _pale(colour: str) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * PALE):02x}" for c in rgb)


def _kept_colours(game_map: GameMap, facts: Facts, named: Mapping[str, str]) -> dict[str, str]:
    """The affiliates whose colour the text fixes whatever their sponsor:
    §8.9's Dutch affiliates keep orange, as the Dutch East Indies do (§6.12)."""
    by_home = {power.home: name for name, power in game_map.powers.items()
               if power.ordered_by_bids}
    kept = {}
    for affiliate in facts.affiliates:
        home = (facts.abbreviations[affiliate.centre].upper(),)
        if affiliate.colour in named and home in by_home:
            kept[by_home[home]] = named[affiliate.colour]
    return kept


def map_key(game_map: GameMap, state: GameState) -> MapKey:
    """The colours of this position: the groups come from the game's seats
    (§3's draw); before the draw only the preassigned powers have one."""
    from engine.variants.intercontinental import diplomacy_points as dp
    from engine.variants.intercontinental.facts import THEATRES, load_facts

    facts = load_facts()
    style: Mapping[str, Any] = game_map.tables[TABLE]
    shades: Mapping[str, list[str]] = style["groups"]
    named: Mapping[str, str] = style.get("named", {})
    by_letter = {code: power for code, power in facts.powers.items()}
    players = dp.players(game_map, state)
    group_of: dict[str, str] = {}
    for player in players:
        for seated in player.powers:
            if player.colour is not None:
                group_of[seated] = player.colour
    for name, power in game_map.powers.items():
        fact = by_letter.get(power.letter)
        if name not in group_of and fact is not None and fact.fixed:
            group_of[name] = fact.groups[0]  # §3.1: preassigned, whatever the seats
    colours: dict[str, str] = {}
    kinds: dict[str, str] = {}
    affiliated: dict[str, str] = {}
    sponsors = dp.sponsors(game_map)
    kept = _kept_colours(game_map, facts, named)
    for name, power in game_map.powers.items():
        fact = by_letter.get(power.letter)
        if power.ordered_by_bids:
            sponsor = sponsors.get(name)
            colour = sponsor.colour if sponsor is not None else None
            if sponsor is not None and sponsor.follows is not None:
                colour = group_of.get(sponsor.follows)
            kinds[name] = "minor" if sponsor is None else "affiliate"
            if colour is not None and colour in shades:
                colours[name] = _pale(kept.get(name, shades[colour][1]))
                affiliated[name] = colour
            else:
                colours[name] = str(style["minor"])
        elif fact is not None and fact.map_colour is not None and fact.map_colour in named:
            colours[name] = named[fact.map_colour]  # §6.12
        elif name in group_of and fact is not None:
            colours[name] = shades[group_of[name]][THEATRES.index(fact.theatre)]
        else:
            colours[name] = str(style["undrawn"])
    groups = tuple((group, shades[group][1], tuple(
        p for p in game_map.powers if group_of.get(p) == group)) for group in shades)
    undrawn = tuple(p for p in game_map.powers
                    if p not in group_of and not game_map.powers[p].ordered_by_bids)
    if undrawn:
        groups += (("Not yet drawn", str(style["undrawn"]), undrawn),)
    return MapKey(colours=colours, kinds=kinds, groups=groups, affiliated=affiliated,
                  pixels=int(style.get("pixels", 0)))
