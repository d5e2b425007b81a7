"""Variant data files (``NAME.toml``) and, where a variant's rules differ
from the standard game, its rules module (``NAME.py``, exposing ``RULES``).

:func:`rules_for` is the one place that turns a map's ``rules`` name into
its rules object.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

from engine.map import GameMap
from engine.map_cache import per_map
from engine.rules import STANDARD, Rules
from engine.state import GameState, StatePart, part_named

_LOADED: dict[str, Rules] = {"standard": STANDARD}


def rules_module_exists(name: str) -> bool:
    return name in _LOADED or importlib.util.find_spec(f"engine.variants.{name}") is not None


def rules_for(game_map: GameMap) -> Rules:
    """The rules object a map's variant file names (``rules = "NAME"``),
    with Diplomap's layer on top when the game has it (``tables["diplomap"]``)."""
    rules = _variant_rules(game_map)
    if game_map.tables.get("diplomap"):
        from engine.diplomap.rules import diplomap_rules
        return diplomap_rules(rules)
    return rules


@per_map
def opening_position(game_map: GameMap) -> GameState:
    """The position a game on this map starts from, by its rules (its
    seats, its variant's parts): made once per map, as every phase read
    from JSON takes its defaults from it."""
    return rules_for(game_map).opening(game_map, GameState.initial(game_map))


def _variant_rules(game_map: GameMap) -> Rules:
    name = game_map.rules
    rules = _LOADED.get(name)
    if rules is None:
        module = importlib.import_module(f"engine.variants.{name}")
        rules = module.RULES
        if not isinstance(rules, Rules):
            raise TypeError(f"engine.variants.{name}.RULES is not a Rules object")
        _LOADED[name] = rules
    return rules


def state_part_named(key: str) -> type[StatePart]:
    """The type of a variant's part of a position, by the key a snapshot
    writes it under; every shipped rules package (and Diplomap's layer) is
    imported to find it. KeyError for a key none of them declares."""
    kind = part_named(key)
    if kind is None:
        import engine.diplomap.rules  # noqa: F401  (declares Diplomap's part)
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        kind = part_named(key)
    if kind is None:
        raise KeyError(f"no variant keeps a part of the position called {key!r}")
    return kind
