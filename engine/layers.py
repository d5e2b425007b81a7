"""Rules layers: rules a GM switches on over any variant whose data allows
them, composed with the variant's own by ``rules_for`` (engine/variants).
Diplomap (rule text ru12 by Michael Harvath, CC BY-SA 4.0) is one: the
players redraw the board. The judge knows layers only by these names, as
game settings (``diplomap on``); what a layer does is its rules' hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.map import GameMap


@dataclass(frozen=True, slots=True)
class RulesLayer:
    """A rules layer a game may switch on over its variant (Diplomap)."""

    name: str  # the GM's setting and the JSON switch: "diplomap"
    title: str  # how mails name it: "Diplomap"
    # the map with the layer on; ValueError saying why a map cannot have it
    switch_on: Callable[[GameMap], GameMap]
    # keys of a phase's JSON only this layer reads: giving one switches it on
    implied_by: tuple[str, ...] = ()


def _diplomap(game_map: GameMap) -> GameMap:
    from engine.diplomap.in_force import with_diplomap  # its geometry, loaded when used
    return with_diplomap(game_map)


LAYERS: Mapping[str, RulesLayer] = {
    "diplomap": RulesLayer("diplomap", "Diplomap", _diplomap, implied_by=("map_changes",)),
}


def with_layers(game_map: GameMap, names: tuple[str, ...]) -> GameMap:
    """The map with each named layer switched on, in order."""
    for name in names:
        game_map = LAYERS[name].switch_on(game_map)
    return game_map
