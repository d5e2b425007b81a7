"""Every CREATE setting the judge reads is listed, with its values, in
HELP (built from judge/settings.py's settings_offered) and in the manual's
CREATE table: the keys are read from the code of ``_setting`` itself and
from the layers and the variants' own settings, so a new one fails here
until it is documented."""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from engine.layers import LAYERS
from engine.variant_file import load_variant, offered_variants
from engine.variants import rules_for
from judge import settings
from judge.mail import render
from judge.manual_topics import MANUAL
from judge.settings import settings_offered


def keys_read_by_setting() -> set[str]:
    """The keys ``_setting`` compares ``key`` with: ``key == "x"`` and
    ``key in ("x", "y")``."""
    tree = ast.parse(inspect.getsource(settings._setting))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) \
                and node.left.id == "key":
            for right in node.comparators:
                found.update(c.value for c in ast.walk(right)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str))
    return found


def variants_own_keys() -> set[str]:
    return {key for name in offered_variants()
            for key, _ in rules_for(load_variant(name)).options_offered(load_variant(name))}


def every_key() -> set[str]:
    return keys_read_by_setting() | set(LAYERS) | variants_own_keys()


def offered_keys() -> set[str]:
    """The keys in HELP's rows: 'movement, retreat, adjustment' and
    'zone (timezone)' each name several."""
    return {word for key, _ in settings_offered() for word in re.findall(r"[a-z_]+", key)}


def manual_table_keys() -> set[str]:
    """The keys in the first column of the manual's CREATE settings table."""
    text = MANUAL.read_text(encoding="utf-8")
    section = text[text.index("### CREATE"):text.index("### START")]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {key for row in rows for key in re.findall(r"`([a-z_]+)`", row.split("|")[1])}


def test_the_code_reads_the_settings_this_test_knows() -> None:
    # a sanity check of the reading above: it finds the plain and the aliased keys
    assert {"variant", "players", "zone", "timezone", "list", "mailinglist"} \
        <= keys_read_by_setting()
    assert {"suez", "year_cap"} <= variants_own_keys()


def test_every_setting_is_in_help_and_in_the_manual() -> None:
    # one test naming every key missed, not a test a key: parametrizing by
    # the keys loaded every offered variant in each worker's collection
    keys = every_key()
    assert not keys - offered_keys(), f"not in settings_offered (HELP): {keys - offered_keys()}"
    assert not keys - manual_table_keys(), \
        f"not in the manual's CREATE table: {keys - manual_table_keys()}"


def test_help_lists_every_setting_with_its_values() -> None:
    text = render("help.txt.j2", address="judge@example.org", judge="J",
                  create_settings=settings_offered())
    for key, values in settings_offered():
        assert f"    {key}" in text
        assert " ".join(values.split()[:2]) in " ".join(text.split())


def test_a_variants_own_settings_are_the_ones_it_reads() -> None:
    for name in offered_variants():
        game_map = load_variant(name)
        rules = rules_for(game_map)
        for key, _ in rules.options_offered(game_map):
            with pytest.raises(ValueError) as refused:
                rules.read_option(game_map, key, "not-a-value")
            assert "unknown setting" not in str(refused.value)
