"""Property tests: the parser never raises, and what it reads it can read back."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.map import GameMap
from engine.orders import Move, Order
from engine.variant_file import load_variant
from parser import OrderError, OrdersParse, parse_order, parse_orders
from tests.examples import examples

STANDARD: GameMap = load_variant("standard")

TOKENS = [
    # unit types, order words
    "A", "F", "army", "fleet", "wing", "H", "hold", "holds", "stand", "S", "supp", "support",
    "supports", "C", "convoy", "convoys", "transport", "R", "retreat", "retreats", "D",
    "disband", "B", "build", "builds", "remove", "waive", "W", "via", "by", "to", "move",
    "moves", "m",
    # places, in several spellings
    "Par", "PAR", "paris", "Bur", "burgundy", "Mar", "Spa", "Spain", "spa/sc", "Spa(nc)",
    "Stp", "St. Petersburg", "St Petersburg(nc)", "stp/nc", "Bul", "bul/ec", "Mid-Atlantic Ocean",
    "Mid", "mid", "Wes", "Gulf of Lyon", "North Sea", "nth", "Nwy", "Lon", "Edi", "Tun", "Nap",
    "Mun", "Boh", "Kie", "Ber", "Sev", "Heligoland Bight", "Eastern Mediterranean", "Yonkers",
    # coasts
    "/sc", "(nc)", "(south coast)", "sc", "nc", "north coast", "/s", "/xc", "coast",
    # powers and nationality
    "France:", "[ENGLAND]", "England", "German", "Germany's", "Russian", "R:", "E)",
    # punctuation and junk
    "-", "->", "=>", "--", "\u2013", "(", ")", "/", ".", ",", ";", ":", "'", "#", "//", "+", "*",
    "2", "0", "é", "İ", "ß", "\u200b", "\u00a0", "Lodnon", "xyzzy", "Ⅻ", "🙂", "\t",
]
SEPARATORS = [" ", "", "-", "  ", " - ", "\n", "/", "(", ")"]

order_ish = st.lists(
    st.tuples(st.sampled_from(TOKENS), st.sampled_from(SEPARATORS)), max_size=12
).map(lambda parts: "".join(token + sep for token, sep in parts))


def _check(result: OrdersParse) -> None:
    assert isinstance(result, OrdersParse)
    for parsed in result.orders:
        assert parsed.line >= 1
        str(parsed.order)
    for error in result.errors:
        assert isinstance(error, OrderError)
        assert error.line >= 1 and error.column >= 1
        assert str(error).startswith(f"line {error.line}: ")


def _canonical(order: Order) -> Order:
    # str() of a move with a path leaves out VIA CONVOY
    if isinstance(order, Move) and order.path:
        return Move(order.unit, order.dest, False, order.path)
    return order


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_never_raises_on_any_text(text: str) -> None:
    _check(parse_orders(text, STANDARD))
    result = parse_order(text, STANDARD)
    assert isinstance(result, (OrderError, *Order.__args__))  # type: ignore[attr-defined]


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(order_ish, max_size=5).map("\n".join))
def test_never_raises_on_order_like_text(text: str) -> None:
    _check(parse_orders(text, STANDARD))


@settings(max_examples=examples(500), suppress_health_check=[HealthCheck.too_slow])
@given(order_ish)
def test_what_is_read_reads_back(text: str) -> None:
    result = parse_order(text, STANDARD)
    if isinstance(result, OrderError):
        return
    again = parse_order(str(result), STANDARD)
    assert not isinstance(again, OrderError), f"{text!r} -> {result} -> {again}"
    assert _canonical(again) == _canonical(result)


@given(st.text(min_size=490, max_size=2000))
@settings(max_examples=examples(30), suppress_health_check=[HealthCheck.too_slow])
def test_long_text_never_raises(text: str) -> None:
    _check(parse_orders(text, STANDARD))
    _check(parse_orders(text.replace("\n", " "), STANDARD))
