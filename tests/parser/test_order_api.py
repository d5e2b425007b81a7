"""parse_orders / parse_order: lines, separators, comments, errors, speed."""

from __future__ import annotations

import time

import pytest

from engine.map import GameMap, UnitKind
from engine.orders import Build, Hold, Move, SupportHold, UnitRef, Waive
from engine.variant_file import load_variant
from parser import MAX_LINE, OrderError, OrdersParse, ParsedOrder, parse_order, parse_orders
from parser.orders import _parser_for


@pytest.fixture(scope="module")
def standard() -> GameMap:
    return load_variant("standard")


def test_several_lines_and_separators(standard: GameMap) -> None:
    text = (
        "# my orders\n"
        "\n"
        "A Par - Bur; A Mar S A Par - Bur\n"
        "// a comment line\n"
        "F Bre - Mao, F Lon H   # trailing comment\n"
        "   \n"
        "waive\n"
    )
    result = parse_orders(text, standard)
    assert isinstance(result, OrdersParse)
    assert result.errors == ()
    assert [(p.line, p.source, str(p.order)) for p in result.orders] == [
        (3, "A Par - Bur", "A PAR - BUR"),
        (3, "A Mar S A Par - Bur", "A MAR S A PAR - BUR"),
        (5, "F Bre - Mao", "F BRE - MAO"),
        (5, "F Lon H", "F LON H"),
        (7, "waive", "WAIVE"),
    ]
    assert all(isinstance(p, ParsedOrder) for p in result.orders)


def test_crlf_and_power_headings(standard: GameMap) -> None:
    text = "FRANCE\r\nA Par - Bur\r\n[England]\r\nEngland: F Lon - Nth\r\nGermany:\r\n"
    result = parse_orders(text, standard)
    assert result.errors == ()
    assert [(p.line, str(p.order)) for p in result.orders] == [
        (2, "A PAR - BUR"), (4, "F LON - NTH"),
    ]


def test_error_positions(standard: GameMap) -> None:
    text = "A Par - Bur\nA Mar - Spa; A Lodnon - Wal\n"
    result = parse_orders(text, standard)
    assert len(result.orders) == 2
    (error,) = result.errors
    assert error == OrderError(
        line=2, column=16, source="A Lodnon - Wal", word="Lodnon",
        message="'Lodnon' is not a province", suggestion="London",
    )
    assert str(error) == "line 2: 'Lodnon' is not a province (did you mean London?)"


def test_error_without_suggestion(standard: GameMap) -> None:
    error = parse_order("A Par - Zzqx", standard, line=3)
    assert isinstance(error, OrderError)
    assert error.suggestion is None
    assert str(error) == "line 3: 'Zzqx' is not a province or an order word"


def test_good_and_bad_orders_kept_apart(standard: GameMap) -> None:
    result = parse_orders("A Par - Bur\nnonsense here\nA Mar H", standard)
    assert [str(p.order) for p in result.orders] == ["A PAR - BUR", "A MAR H"]
    assert [e.line for e in result.errors] == [2]
    assert not result.ok


def test_long_line_refused(standard: GameMap) -> None:
    long_line = "A Par - Bur " * 60
    assert len(long_line) > MAX_LINE
    result = parse_orders(f"A Mar H\n{long_line}\nA Bre H", standard)
    assert [p.line for p in result.orders] == [1, 3]
    (error,) = result.errors
    assert error.line == 2
    assert "at most 500" in error.message
    assert isinstance(parse_order(long_line, standard), OrderError)


def test_empty_input(standard: GameMap) -> None:
    assert parse_orders("", standard) == OrdersParse((), ())
    assert parse_orders("\n\n  \n# nothing\n", standard) == OrdersParse((), ())
    assert isinstance(parse_order("", standard), OrderError)
    assert isinstance(parse_order("   ", standard), OrderError)


def test_values(standard: GameMap) -> None:
    assert parse_order("A Lon - Nth - Nwy", standard) == Move(
        UnitRef("LON", UnitKind.ARMY), "NWY", via_convoy=False, path=("NTH",)
    )
    assert parse_order("Par H", standard) == Hold(UnitRef("PAR", None))
    assert parse_order("Build Par", standard) == Build("PAR", None)
    assert parse_order("waive build", standard) == Waive()
    assert parse_order("A Par S A Bur H", standard) == SupportHold(
        UnitRef("PAR", UnitKind.ARMY), UnitRef("BUR", UnitKind.ARMY)
    )


def test_other_whitespace(standard: GameMap) -> None:
    assert str(parse_order("A\u00a0Par\u2003-\tBur", standard)) == "A PAR - BUR"


def test_grammar_built_once_per_map(standard: GameMap) -> None:
    assert _parser_for(standard) is _parser_for(standard)


@pytest.mark.slow
def test_thousand_orders_under_a_second(standard: GameMap) -> None:
    lines = [
        "F North Sea Convoys A Yorkshire - Yorkshire",
        "A Prussia Supports Livonia - Prussia",
        "F Mid-Atlantic Ocean - Spain(nc)",
        "A Lon - Nth - Nwy",
        "A Par S A Mar - Bur",
        "Build F St Petersburg(nc)",
        "A Venice Hold",
        "A Tunis - Naples via Convoy",
        "A Par - Bur",
        "A Lodnon - Wal",
    ] * 100
    text = "\n".join(lines)
    parse_orders(text, standard)  # warm up: the grammar is built once
    # the parser's own CPU time: other processes on the machine (tests running
    # beside this one) make the wall clock longer, not the parsing
    start = time.process_time()
    result = parse_orders(text, standard)
    elapsed = time.process_time() - start
    assert len(result.orders) == 900 and len(result.errors) == 100
    assert elapsed < 1.0, f"1000 orders took {elapsed:.2f}s"
