"""Diplomap's map orders (parser.map_orders) and the new provinces' names in
every order (parser.parse_order), read from tests/parser/data/map_orders.toml.

Diplomap is Michael Harvath's (rule text ru12, CC BY-SA 4.0); the orders
of its worked examples are among the vectors.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.diplomap.reading import with_former_names
from engine.diplomap.values import EDGE, Draw, Erase, Side
from engine.map import GameMap, Province, Terrain, normalise_name
from engine.variant_file import load_variant
from parser import MAX_LINE, OrderError, parse_order, parse_orders
from parser.map_orders import (
    compass_point,
    looks_like_map_order,
    parse_map_order,
    parse_map_orders,
    split_map_orders,
)
from parser.orders import _parser_for
from tests.examples import examples

DATA = tomllib.loads((Path(__file__).parent / "data" / "map_orders.toml").read_text("utf-8"))
READ = [
    pytest.param(text, expected, id=f"{group['about'][:20]}: {text}")
    for group in DATA["read"]
    for text, expected in group["cases"]
]
BAD: list[dict[str, Any]] = DATA["bad"]
LINES: list[dict[str, Any]] = DATA["line"]
CHANGED_MAP = [
    pytest.param(text, expected, id=text)
    for group in DATA["changed"] if group["kind"] == "map"
    for text, expected in group["cases"]
]
CHANGED_ORDERS = [
    pytest.param(text, expected, id=text)
    for group in DATA["changed"] if group["kind"] == "order"
    for text, expected in group["cases"]
]
MANUAL = Path(__file__).resolve().parents[2] / "docs" / "manual.md"


@pytest.fixture(scope="module")
def standard() -> GameMap:
    return load_variant("standard")


@pytest.fixture(scope="module")
def changed(standard: GameMap) -> GameMap:
    """The standard map with the provinces of [changed_map] added, named and
    aliased as Diplomap's board changes name them (code and full name)."""
    provinces = dict(standard.provinces)
    aliases = dict(standard.aliases)
    for code, name, terrain, coasts in DATA["changed_map"]["provinces"]:
        provinces[code] = Province(code, name, Terrain(terrain), tuple(coasts))
        aliases[normalise_name(code)] = code
        aliases[normalise_name(name)] = code
    return dataclasses.replace(standard, provinces=provinces, aliases=aliases)


def test_enough_vectors() -> None:
    assert len(READ) >= 60
    assert len({p.values[0] for p in READ}) == len(READ), "duplicate texts"
    assert len(BAD) >= 20


@pytest.mark.parametrize(("text", "expected"), READ)
def test_reads(standard: GameMap, text: str, expected: str) -> None:
    order = parse_map_order(text, standard)
    assert not isinstance(order, OrderError), str(order)
    assert str(order) == expected
    assert parse_map_order(str(order), standard) == order, "the canonical form reads back"
    assert looks_like_map_order(text)


@pytest.mark.parametrize("case", BAD, ids=[c["text"] for c in BAD])
def test_refuses(standard: GameMap, case: dict[str, Any]) -> None:
    result = parse_map_order(case["text"], standard, line=4)
    assert isinstance(result, OrderError), f"read as {result}"
    assert result.line == 4
    assert case["message"] in result.message
    assert result.word == case["word"]
    assert result.suggestion == (case["suggestion"] or None)
    assert result.source == case["text"].strip()
    if result.word:  # the column points at the word at fault
        column = result.column - 1
        assert case["text"][column:column + len(result.word)] == result.word
    assert str(result).startswith("line 4: ") and "\n" not in str(result)


@pytest.mark.parametrize("case", LINES, ids=[c["text"] for c in LINES])
def test_lines_of_several_orders(standard: GameMap, case: dict[str, Any]) -> None:
    read = parse_map_orders(case["text"], standard)
    assert [str(x) for x in read] == case["expect"]
    for result in read:
        if isinstance(result, OrderError):
            column = result.column - 1
            assert case["text"][column:column + len(result.word)] == result.word
    assert "".join(piece for _, piece in split_map_orders(case["text"])) == case["text"]


def test_values(standard: GameMap) -> None:
    """The values themselves, not only their text: borders, loop, side, edge."""
    assert parse_map_order("Draw Gal/War - Gal/Bud", standard) == Draw(
        ("GAL", "WAR"), ("GAL", "BUD"))
    assert parse_map_order("Draw Por/Spa - Por/Spa inside Portugal", standard) == Draw(
        ("POR", "SPA"), ("POR", "SPA"), inside="POR")
    assert parse_map_order("Draw StP/Fin - StP/OTB, SC in North Region", standard) == Draw(
        ("STP", "FIN"), ("STP", EDGE), centre=Side(compass="N"))
    assert parse_map_order("Draw StP/Fin - StP/Lvn SC next to Livonia", standard) == Draw(
        ("STP", "FIN"), ("STP", "LVN"), centre=Side(neighbour="LVN"))
    assert parse_map_order("Erase Ruhr - Bur", standard) == Erase(("RUH", "BUR"))


@pytest.mark.parametrize(("word", "point"), [
    ("north", "N"), ("Northern", "N"), ("northeast", "NE"), ("north-eastern", "NE"),
    ("North East", "NE"), ("east", "E"), ("Eastern", "E"), ("southeast", "SE"),
    ("south", "S"), ("southern", "S"), ("southwestern", "SW"), ("west", "W"),
    ("western", "W"), ("north-west", "NW"), ("NW", "NW"), ("s", "S"), ("inner", "I"),
    ("inside the loop", "I"), ("loop", "I"), ("outer", "O"), ("O", "O"), ("nort", None),
    ("middle", None), ("en", None), ("", None),
])
def test_compass_points(word: str, point: str | None) -> None:
    assert compass_point(word) == point


@pytest.mark.parametrize(("text", "looks"), [
    ("Draw Gal/War - Gal/Bud", True), ("  erase gal/war", True), ("DRAW: x", True),
    ("ERASE", True), ("A Gal - War", False), ("Drawing Gal/War", False),
    ("draws", False), ("F Lon - NTS; Erase ENG/NTS", False), ("", False),
])
def test_looks_like_map_order(text: str, looks: bool) -> None:
    assert looks_like_map_order(text) is looks


def test_refuses_what_is_not_a_line(standard: GameMap) -> None:
    too_long = "Draw Gal/War - Gal/Bud " + "x" * MAX_LINE
    result = parse_map_order(too_long, standard, line=2)
    assert isinstance(result, OrderError) and "at most" in result.message
    assert isinstance(parse_map_order(None, standard), OrderError)  # type: ignore[arg-type]
    assert isinstance(parse_map_orders(too_long, standard)[0], OrderError)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("DrawEse GalWrBud/-\u2013,.SCinotOTB()&+N ")),
               max_size=60))
def test_never_raises(text: str) -> None:
    game_map = load_variant("standard")
    result = parse_map_order(text, game_map)
    assert isinstance(result, (Draw, Erase, OrderError))
    if not isinstance(result, OrderError):
        assert parse_map_order(str(result), game_map) == result


# -- the provinces Diplomap makes ------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), CHANGED_MAP)
def test_map_orders_on_a_changed_board(changed: GameMap, text: str, expected: str) -> None:
    order = parse_map_order(text, changed)
    assert not isinstance(order, OrderError), str(order)
    assert str(order) == expected
    assert parse_map_order(str(order), changed) == order


@pytest.mark.parametrize(("text", "expected"), CHANGED_ORDERS)
def test_orders_on_a_changed_board(changed: GameMap, text: str, expected: str) -> None:
    order = parse_order(text, changed)
    assert not isinstance(order, OrderError), str(order)
    assert str(order) == expected
    # the grammar alone reads it the same way as with the canonical fast lane
    assert _parser_for(changed).parse(text, 0, 1, fast_lane=False) == order
    assert parse_order(str(order), changed) == order


def test_new_codes_are_unknown_on_the_base_map(standard: GameMap) -> None:
    """The new names come from the map in force, nowhere else."""
    assert isinstance(parse_order("A Gal-N - War", standard), OrderError)
    assert isinstance(parse_map_order("Erase Gal-N/Gal-S", standard), OrderError)


# -- the manual ------------------------------------------------------------------

_FENCE = re.compile(r"^```(\w*)[ \t]*$")


def test_the_manual_examples_are_read(changed: GameMap) -> None:
    """Every line of the manual's ```diplomap blocks is read: map orders by
    parse_map_orders, the others as orders (on the changed board, which has
    the new provinces the manual shows)."""
    lines: list[str] = []
    inside = False
    for line in MANUAL.read_text("utf-8").splitlines():
        fence = _FENCE.match(line)
        if fence is not None:
            inside = not inside and fence.group(1) == "diplomap"
        elif inside and line.strip():
            lines.append(line.split("#")[0])
    assert sum(looks_like_map_order(line) for line in lines) >= 10
    for line in lines:
        if looks_like_map_order(line):
            for result in parse_map_orders(line, changed):
                assert not isinstance(result, OrderError), (line, str(result))
        else:
            assert not isinstance(parse_order(line, changed), OrderError), line


def test_order_parsers_leave_map_orders_whole(standard: GameMap) -> None:
    """parse_order and parse_orders never read a map order as unit orders
    ('Gal/War' as Galicia with a coast, or a comma as between two orders):
    the line is one error pointing at its DRAW or ERASE."""
    text = "A Par - Bur\n  Draw StP/Fin - StP/OTB, SC in North Region\nerase Gal/War"
    read = parse_orders(text, standard)
    assert [str(p.order) for p in read.orders] == ["A PAR - BUR"]
    assert [(e.line, e.column, e.word) for e in read.errors] == [(2, 3, "Draw"), (3, 1, "erase")]
    assert "map order" in read.errors[0].message
    single = parse_order("Erase Gal/War", standard)
    assert isinstance(single, OrderError) and single.word == "Erase"
    # a word that only starts like one is not a map order
    assert isinstance(parse_order("Drawn A Par - Bur", standard), OrderError)
    assert parse_orders("A Par - Bur, A Mar - Spa", standard).ok


def test_retreat_orders_name_the_province_that_was_split(standard: GameMap,
                                                         changed: GameMap) -> None:
    """After a Draw the board in force has no BUR, but the displaced army is
    still there until it chooses its part (§III.B): with_former_names lets
    its order be read, and keeps the names of the board in force first."""
    board = dataclasses.replace(
        changed,
        provinces={c: p for c, p in changed.provinces.items() if c != "BUR"},
        aliases={k: v for k, v in changed.aliases.items() if v != "BUR"},
    )
    assert isinstance(parse_order("A Bur R Bur-N", board), OrderError)
    reading = with_former_names(board, standard)
    assert str(parse_order("A Bur R Bur-N", reading)) == "A BUR R BUR-N"
    assert str(parse_order("A Burgundy - Southwest Burgundy", reading)) == "A BUR - BUR-SW"
    assert with_former_names(board, standard) is reading  # built once
    assert with_former_names(board, board) is board
    assert reading.aliases["gal n"] == "GAL-N" and reading.provinces["BUR"].name == "Burgundy"


# -- a board changed by the engine ----------------------------------------------


def _written(code: str) -> str:
    """A code as players type it: 'LVN+STP-SE' -> 'Lvn+Stp-Se'."""
    return "+".join("-".join(w.capitalize() for w in part.split("-"))
                    for part in code.split("+"))


def test_a_board_the_engine_changed(standard: GameMap) -> None:
    """The parser's map orders go through the engine (example J of the rule
    text, and a Draw across Galicia), and every province the changes made is
    then read by its code, in any case, and by its full name, in unit orders
    and in later map orders. The codes come from the engine, not from here."""
    from engine.diplomap.adjudication import resolve_map_orders
    from engine.diplomap.in_force import apply_changes
    from engine.diplomap.values import Merge, Split
    from engine.state import GameState

    state = GameState.initial(standard)
    written = {
        "RUSSIA": "Erase Lvn/StP. Draw StP/Fin \u2013 StP/OTB, SC in Southern Region.",
        "AUSTRIA": "Draw Galicia/Warsaw - Galicia/Budapest",
    }
    orders = {power: [o for o in parse_map_orders(text, standard)
                      if not isinstance(o, OrderError)] for power, text in written.items()}
    assert [len(o) for o in orders.values()] == [2, 1]
    occupied = [unit.location.split("/")[0] for unit in state.units]
    results, changes, _ = resolve_map_orders(standard, state, occupied, orders)
    assert all(r.succeeded for r in results), results
    board = apply_changes(standard, changes)
    galicia = next(c for c in changes if isinstance(c, Split) and c.province == "GAL")
    merged = next(c for c in changes if isinstance(c, Merge))
    new = [code for code in board.provinces if code not in standard.provinces]
    assert set(galicia.parts) | {merged.into} <= set(new)

    for code in new:
        name = board.provinces[code].name
        for spelling in (code, code.lower(), _written(code), name):
            assert str(parse_order(f"A {spelling} H", board)) == f"A {code} H", spelling
            assert str(parse_order(f"A Mos S A {spelling}", board)) == f"A MOS S A {code}"
            assert str(parse_order(f"Build A {spelling}", board)) == f"BUILD A {code}"
    one, two = galicia.parts
    assert str(parse_order(f"A {_written(one)}-{_written(two)}", board)) == f"A {one} - {two}"
    erase = parse_map_order(f"Erase {_written(one)}/{_written(two)}", board)
    assert erase == Erase((one, two))
    draw = parse_map_order(f"Draw {_written(merged.into)}/Mos - {_written(merged.into)}/Pru",
                           board)
    assert draw == Draw((merged.into, "MOS"), (merged.into, "PRU"))
    # the split provinces are gone from the board, but not from a retreat's reading
    assert isinstance(parse_order("A Gal H", board), OrderError)
    reading = with_former_names(board, standard)
    assert str(parse_order(f"A Gal R {_written(one)}", reading)) == f"A GAL R {one}"


_STANDARD_CODES = sorted(load_variant("standard").provinces)
_SIDES = st.one_of(
    st.none(),
    st.sampled_from(["N", "NE", "E", "SE", "S", "SW", "W", "NW", "I", "O"]).map(
        lambda c: Side(compass=c)),
    st.sampled_from([*_STANDARD_CODES, EDGE]).map(lambda c: Side(neighbour=c)),
)


@st.composite
def _map_orders(draw: st.DrawFn) -> Draw | Erase:
    codes = draw(st.lists(st.sampled_from(_STANDARD_CODES), min_size=3, max_size=3,
                          unique=True))
    if draw(st.booleans()):
        return Erase((codes[0], codes[1]))
    other = draw(st.sampled_from([codes[2], EDGE]))
    if draw(st.booleans()):  # a loop
        return Draw((codes[0], other), (codes[0], other), codes[0], draw(_SIDES))
    return Draw((codes[0], codes[1]), (codes[0], other), None, draw(_SIDES))


@settings(max_examples=examples(300), deadline=None)
@given(_map_orders())
def test_the_canonical_form_reads_back(order: Draw | Erase) -> None:
    """str() of any map order is read back as the same value."""
    assert parse_map_order(str(order), load_variant("standard")) == order
