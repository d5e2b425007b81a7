"""docs/manual.md cannot drift from the grammar: every block marked ```mail
is read as a mail body by the judge's own parser and must hold no command it
refuses, no order it cannot read, and no CREATE setting it rejects. Blocks
that show mistakes on purpose are marked ```text instead."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from engine.variant_file import load_variant
from judge.settings import parse_duration, parse_settings
from parser import parse_orders
from parser.commands import (
    Command,
    CommandError,
    Create,
    Line,
    Orders,
    SetGrace,
    parse_commands,
)

MANUAL = Path(__file__).resolve().parents[2] / "docs" / "manual.md"
_FENCE = re.compile(r"^```(\w*)[ \t]*$")


def mail_blocks(text: str) -> list[tuple[int, str]]:
    """(line number of the opening fence, body) of each ```mail block."""
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
            if kind == "mail":
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


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{start}" for start, _ in BLOCKS])
def test_every_settings_example_is_accepted(block: tuple[int, str]) -> None:
    start, body = block
    for line in _read(body):
        if isinstance(line.command, Create):
            _, problems = parse_settings(line.command.settings)
            assert not problems, f"manual line {start + line.line}: {problems}"
        if isinstance(line.command, SetGrace):
            parse_duration(line.command.when)  # raises on a value the judge refuses


def test_every_command_has_an_example() -> None:
    """'Explain every command': each kind of command appears in some ```mail block."""
    shown = {type(line.command) for _, body in BLOCKS for line in _read(body)}
    missing = sorted(kind.__name__ for kind in get_args(Command) if kind not in shown)
    assert not missing, f"docs/manual.md has no ```mail example of {missing}"


def test_a_broken_example_would_be_caught() -> None:
    """The checks above can fail: a misspelt command and a bad order are found."""
    fake = "```mail\nSINGON france@mygame pw\nA Par - Brg\n```\n"
    (_, body), = mail_blocks(fake)
    lines = _read(body)
    assert isinstance(lines[0].command, CommandError)
    orders = lines[1].command
    assert isinstance(orders, Orders)
    assert not parse_orders(orders.lines[0][1], load_variant("standard")).ok
