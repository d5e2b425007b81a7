"""Diplomap in the judge, by mail: the scenarios of
tests/judge/data/diplomap/*.toml through the command scenarios' runner
(the real store, processing and database, one transaction per mail)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from parser import OrderError
from tests.judge.test_commands_by_mail import scenarios_in
from tests.judge.test_commands_by_mail import test_scenario as run_scenario

SCENARIOS = scenarios_in(Path(__file__).parent / "data" / "diplomap")


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_diplomap_scenario(db: Engine, scenario: dict[str, Any],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    run_scenario(db, scenario, monkeypatch)


def test_the_manual_mail_examples_are_read() -> None:
    """The manual's ```diplomap_mail blocks (a player's mail to a game with
    Diplomap on) are read as the judge reads them: commands, the map
    orders taken out first, the other orders on the standard map."""
    from engine.variant_file import load_variant
    from parser import parse_orders
    from parser.commands import CommandError, Orders, parse_commands
    from parser.line_kinds import sort_mail
    from parser.map_orders import parse_map_order, split_map_orders
    from tests.docs.test_manual import MANUAL, mail_blocks

    blocks = mail_blocks(MANUAL.read_text("utf-8"), "diplomap_mail")
    assert blocks, "the manual shows a player's mail with map orders"
    game_map = load_variant("standard")
    for start, body in blocks:
        lines = parse_commands(body)
        assert any(isinstance(line.command, Orders) for line in lines), start
        for line in lines:
            assert not isinstance(line.command, CommandError), (start, line.source)
            if not isinstance(line.command, Orders):
                continue
            by_kind = sort_mail(line.command.lines)
            others, maps = by_kind["orders"], by_kind["map_orders"]
            assert maps, (start, "no map order")
            parsed = parse_orders("\n".join(raw for _, raw in others), game_map)
            assert parsed.ok, (start, [str(e) for e in parsed.errors])
            for _, raw in maps:
                for _, piece in split_map_orders(raw):
                    assert not isinstance(parse_map_order(piece, game_map), OrderError), raw
