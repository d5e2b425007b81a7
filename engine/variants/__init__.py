"""Variant data files (``NAME.toml``) and, where a variant's rules differ
from the standard game, its rules module (``NAME.py``, exposing ``RULES``).

:func:`rules_for` is the one place that turns a map's ``rules`` name into
its rules object.
"""

from __future__ import annotations

import importlib
import importlib.util

from engine.map import GameMap
from engine.rules import STANDARD, Rules

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
