"""docs/manual.md cannot drift from the grammar: every block marked ```mail
is read as a mail body by the judge's own parser and must hold no command it
refuses, no order it cannot read, and no CREATE setting it rejects. Blocks
that show mistakes on purpose are marked ```text instead."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import get_args

import pytest

from engine.variant_file import load_variant
from judge.handlers.master import _parse_when
from judge.models import Game
from judge.settings import GameSettings, parse_settings
from parser import OrderError, parse_orders
from parser.commands import (
    Command,
    CommandError,
    Create,
    Line,
    Orders,
    SetDeadline,
    SetGrace,
    parse_commands,
)

MANUAL = Path(__file__).resolve().parents[2] / "docs" / "manual.md"
_FENCE = re.compile(r"^```(\w*)[ \t]*$")


def mail_blocks(text: str, marker: str = "mail") -> list[tuple[int, str]]:
    """(line number of the opening fence, body) of each ```mail block (or
    each block of another ``marker``: ```dissolution, a mail to a Dissolution game)."""
    blocks: list[tuple[int, str]] = []
    body: list[str] | None = None
    kind = ""
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        fence = _FENCE.match(line)
        if body is None:
            if fence is not None:
                kind, start, body = fence.group(1), number, []
        elif line.strip() == "```":
            if kind == marker:
                blocks.append((start, "\n".join(body)))
            body = None
        else:
            body.append(line)
    assert body is None, f"docs/manual.md: the block opened on line {start} is never closed"
    return blocks


BLOCKS = mail_blocks(MANUAL.read_text("utf-8"))


def _read(body: str) -> list[Line]:
    return parse_commands(body)


def test_the_manual_has_mail_examples() -> None:
    assert len(BLOCKS) >= 40


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{start}" for start, _ in BLOCKS])
def test_every_mail_example_is_understood(block: tuple[int, str]) -> None:
    start, body = block
    lines = _read(body)
    assert lines, f"the mail example on line {start} holds no command"
    for line in lines:
        assert not isinstance(line.command, CommandError), (
            f"manual line {start + line.line}: {line.source!r}: {line.command}")


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{start}" for start, _ in BLOCKS])
def test_every_order_example_is_readable(block: tuple[int, str]) -> None:
    start, body = block
    game_map = load_variant("standard")
    for line in _read(body):
        if isinstance(line.command, Orders):
            text = "\n".join(raw for _, raw in line.command.lines)
            parsed = parse_orders(text, game_map)
            assert parsed.ok, (f"manual line {start + line.line}: "
                               + "; ".join(str(e) for e in parsed.errors))


# SET DEADLINE and SET GRACE values are read against a game's zone and clock:
# an unsaved game with the default settings, at a moment before every
# date the manual's examples name
_GAME = Game(name="mygame", variant="standard", master_hash="", master_address="gm@x.org",
             settings=GameSettings(zone="Europe/Paris").to_json())
_NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def _grace_problem(when: str) -> str | None:
    """Why the judge would refuse SET GRACE ``when``, read as its handler
    reads it: an end time (a date first) or a duration, '+' or not."""
    value = when.strip().removeprefix("+").strip()
    if value[:1].isdigit() and "-" in value:
        try:
            end = _parse_when(value, _GAME, _NOW)
        except Exception as exc:
            return str(exc)
        return None if end > _NOW else f"{when!r} is in the past"
    _, problems = parse_settings([("grace", value)])
    return problems[0] if problems else None


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{start}" for start, _ in BLOCKS])
def test_every_settings_example_is_accepted(block: tuple[int, str]) -> None:
    start, body = block
    for line in _read(body):
        where = f"manual line {start + line.line}"
        if isinstance(line.command, Create):
            _, problems = parse_settings(line.command.settings)
            assert not problems, f"{where}: {problems}"
        if isinstance(line.command, SetGrace):
            assert _grace_problem(line.command.when) is None, where
        if isinstance(line.command, SetDeadline):
            # raises GameError on a form the judge does not read
            assert _parse_when(line.command.when, _GAME, _NOW) > _NOW, where


def test_every_command_has_an_example() -> None:
    """'Explain every command': each kind of command appears in some ```mail block."""
    shown = {type(line.command) for _, body in BLOCKS for line in _read(body)}
    missing = sorted(kind.__name__ for kind in get_args(Command) if kind not in shown)
    assert not missing, f"docs/manual.md has no ```mail example of {missing}"


def test_a_broken_example_would_be_caught() -> None:
    """The checks above can fail: a misspelt command, a bad order and bad
    SET GRACE and SET DEADLINE values are found."""
    assert _grace_problem("2 weeks") is not None
    assert _grace_problem("2026-02-30 18:00") is not None
    assert _grace_problem("+1d") is None
    with pytest.raises(Exception, match="not a time"):
        _parse_when("next Wednesday", _GAME, _NOW)
    fake = "```mail\nSINGON france@mygame pw\nA Par - Brg\n```\n"
    (_, body), = mail_blocks(fake)
    lines = _read(body)
    assert isinstance(lines[0].command, CommandError)
    orders = lines[1].command
    assert isinstance(orders, Orders)
    assert not parse_orders(orders.lines[0][1], load_variant("standard")).ok


@pytest.mark.parametrize(("variant", "least"), [("dissolution", 3), ("intercontinental", 1)])
def test_the_variant_examples_are_understood(variant: str, least: int) -> None:
    """```dissolution and ```intercontinental blocks: commands, orders (and
    Dissolution's Embassy orders) and bids, read on the variant's map as the
    judge reads a mail to such a game."""
    from parser.bids import parse_bid
    from parser.line_kinds import sort_mail

    blocks = mail_blocks(MANUAL.read_text("utf-8"), variant)
    assert len(blocks) >= least
    game_map = load_variant(variant)
    for start, body in blocks:
        for line in _read(body):
            assert not isinstance(line.command, CommandError), (start, line.source)
            if isinstance(line.command, Orders):
                by_kind = sort_mail(line.command.lines)
                orders, bids = by_kind["orders"], by_kind["bids"]
                parsed = parse_orders("\n".join(raw for _, raw in orders), game_map)
                assert parsed.ok, (start, [str(e) for e in parsed.errors])
                for _, raw in bids:
                    assert not isinstance(parse_bid(raw, game_map), OrderError), (start, raw)
