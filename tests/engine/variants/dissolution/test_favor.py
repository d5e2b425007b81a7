"""Dissolution's Favor map (§11): the reconstructed layout against every fact
of the text (data/favor/layout.toml), the setups, Favor read from Embassies,
and kicks (data/favor/kicks.toml)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.game import adjudicate
from engine.orders import Retreat
from engine.phase import Phase
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants.dissolution import place_embassies
from engine.variants.dissolution.favor_board import favor_board, read_setup
from engine.variants.dissolution.kicks import apply_kicks
from engine.variants.dissolution.state import favor_of
from engine.variants.dissolution.state import of as dissolution
from engine.variants.dissolution.violations import Violation
from parser import parse_order
from tests.engine.case_runner import read_orders

DATA = Path(__file__).parent / "data" / "favor"
MAP = load_variant("dissolution")
BOARD = favor_board(MAP)
LAYOUT = tomllib.loads((DATA / "layout.toml").read_text(encoding="utf-8"))["fact"]
SETUPS = tomllib.loads((DATA / "setups.toml").read_text(encoding="utf-8"))
KICKS = tomllib.loads((DATA / "kicks.toml").read_text(encoding="utf-8"))["case"]


def _distance(a: str, b: str) -> int:
    return BOARD.distances(a)[b]


@pytest.mark.parametrize("fact", LAYOUT, ids=lambda f: f["section"])
def test_layout_fact(fact: dict[str, Any]) -> None:
    for a, b in fact.get("border", []):
        assert b in BOARD.neighbours[a] and a in BOARD.neighbours[b], (a, b)
    for a, b in fact.get("apart", []):
        assert b not in BOARD.neighbours[a], (a, b)
    for a, b, steps in fact.get("distance", []):
        assert _distance(a, b) == steps, (a, b)
    for a, b, c in fact.get("equal", []):
        assert _distance(a, b) == _distance(a, c), (a, b, c)
    touching = {frozenset((BOARD.spaces[a].slice, BOARD.spaces[b].slice))
                for a, near in BOARD.neighbours.items() for b in near
                if BOARD.spaces[a].slice != BOARD.spaces[b].slice}
    for pair in fact.get("touching_slices", []):
        assert frozenset(pair) in touching, pair
    for pair in fact.get("apart_slices", []):
        assert frozenset(pair) not in touching, pair
    if "hexes_per_slice" in fact:
        for letter in BOARD.slices:
            hexes = [s for s in BOARD.in_slice(letter) if not BOARD.spaces[s].is_perimeter]
            assert len(hexes) == fact["hexes_per_slice"]
            letters = {v: "".join(sorted(BOARD.spaces[s].letter for s in hexes
                                         if BOARD.spaces[s].value == v)) for v in range(1, 6)}
            assert letters == {1: "pqrstu", 2: "jkmno", 3: "fghi", 4: "cde", 5: "ab"}


def test_a_hex_is_a_honeycomb_cell() -> None:
    """Every hex has at most six neighbours, and the Perimeter borders only
    value-1 hexes of its own slice."""
    for label, near in BOARD.neighbours.items():
        space = BOARD.spaces[label]
        if space.is_perimeter:
            assert all(BOARD.spaces[n].value == 1 and BOARD.spaces[n].slice == space.slice
                       for n in near)
            assert len(near) == 6
        else:
            assert len([n for n in near if not BOARD.spaces[n].is_perimeter]) <= 6


@pytest.mark.parametrize("name", ["setup_a"])
def test_setups_on_the_starting_values_are_valid(name: str) -> None:
    problems: list[tuple[tuple[str, ...], str]] = []
    read_setup(MAP, BOARD, SETUPS[name], (name,), problems)
    assert problems == []


def test_an_invalid_setup_is_refused_with_the_reason() -> None:
    problems: list[tuple[tuple[str, ...], str]] = []
    read_setup(MAP, BOARD, SETUPS["legacy"], ("legacy",), problems)
    assert ((("legacy", "IRAN"), "B2n is worth 2; IRAN starts with Favor 3 with INDIA")
            in problems)
    bad = {**SETUPS["setup_a"], "POLAND": ["N1p", "U2k", "I1q", "B1r", "R1r"]}
    problems = []
    read_setup(MAP, BOARD, bad, ("bad",), problems)
    assert (("bad", "POLAND"), "N1p is also KAZAKHSTAN's") in problems or \
        (("bad", "KAZAKHSTAN"), "N1p is also POLAND's") in problems


VALUES = tomllib.loads((DATA / "values.toml").read_text(encoding="utf-8"))["case"]


@pytest.mark.parametrize("case", VALUES, ids=lambda c: c["id"])
def test_favor_is_the_value_of_the_embassys_space(case: dict[str, Any]) -> None:
    state = place_embassies(MAP, GameState.initial(MAP), BOARD.setups["default"])
    assert sorted(s for p, _, s in dissolution(state).embassies if p == case["power"]) \
        == sorted(case["spaces"])
    assert {n: favor_of(MAP, state, case["power"], n) for n in case["favor"]} == case["favor"]


def test_the_default_setup_gives_every_player_its_starting_favor() -> None:
    state = place_embassies(MAP, GameState.initial(MAP), BOARD.setups["default"])
    for name, start in MAP.tables["favor"]["start"].items():
        for nuclear, value in start.items():
            assert favor_of(MAP, state, name, nuclear) == value, (name, nuclear)


@pytest.mark.parametrize("case", KICKS, ids=lambda c: c["id"])
def test_kicks(case: dict[str, Any]) -> None:
    setup = BOARD.setups["default"] if case["setup"] == "default" else {
        p: tuple(s) for p, s in SETUPS[case["setup"]].items()}
    state = place_embassies(MAP, GameState.initial(MAP), setup)
    violations = tuple(Violation(v.split()[0], v.split()[1], "disabled", "A XXX", "XXX")
                       for v in case["violations"])  # kicks count violations, of any kind
    after, kicks = apply_kicks(BOARD, state, violations)
    assert [f"{k.power} {k.origin}-{k.to}" for k in kicks] == case["kicks"]
    for power, values in case.get("favor", {}).items():
        assert {n: favor_of(MAP, after, power, n) for n in values} == values
    assert {(k.power, k.nuclear) for k in kicks} <= dissolution(after).kicked
    spaces = [s for _, _, s in dissolution(after).embassies if not s.endswith("0z")]
    assert len(spaces) == len(set(spaces))  # one Embassy a hex, always


WINTER = tomllib.loads((DATA / "winter.toml").read_text(encoding="utf-8"))["case"]


@pytest.mark.parametrize("case", WINTER, ids=lambda c: c["id"])
def test_winter_orders(case: dict[str, Any]) -> None:
    setup = BOARD.setups["default"] if case["setup"] == "default" else {
        p: tuple(s) for p, s in SETUPS[case["setup"]].items()}
    state = place_embassies(MAP, GameState.initial(MAP), setup)
    state = state.with_part(replace(
        dissolution(state),
        kicked=frozenset(tuple(k.split()) for k in case.get("kicked", [])),
        retaliated=frozenset(tuple(k.split()) for k in case.get("retaliated", []))))
    state = state.evolve(
        phase=Phase.parse("W1992A"),
        units=tuple(u for u in state.units if u.power not in case.get("units", {}))
        + tuple(Unit.parse(p, text) for p, texts in case.get("units", {}).items()
                for text in texts))
    orders, expected = read_orders(MAP, case["orders"])
    resolution = adjudicate(MAP, state, orders)
    embassy_rows = [r for r in resolution.results if str(r.order).startswith("E ")]
    wanted = [(power, text, outcome, why[0] if why else "")
              for power, rows in expected.items() for text, outcome, *why in rows]
    for power, text, outcome, why in wanted:
        order = parse_order(text, MAP)
        row = next(r for r in embassy_rows if r.power == power and r.order == order)
        embassy_rows.remove(row)
        said = row.reason.describe() if row.reason else ""
        assert row.outcome.value == outcome, (power, text, said)
        assert why in said, (power, text, said)
    for line in case.get("unlisted", []):  # every order is listed once, with one outcome
        power, _, text = line.partition(" ")
        order = parse_order(text, MAP)
        assert not [r for r in resolution.results if r.power == power and r.order == order], line
    retreats = [f"{r.power} {r.order.unit.location}-{r.order.dest}"
                for r in resolution.results if isinstance(r.order, Retreat)]
    assert retreats == case.get("retreats", [])
    where = {(p, s[0]): s for p, _, s in dissolution(resolution.next).embassies}
    for power, spaces in case.get("embassies", {}).items():
        assert [where[power, s[0]] for s in spaces] == spaces, power
    spaces = [s for _, _, s in dissolution(resolution.next).embassies if not s.endswith("0z")]
    assert len(spaces) == len(set(spaces))
    assert str(resolution.next.phase) == "S1993M"
    part = dissolution(resolution.next)
    assert not part.kicked and not part.retaliated  # a new year
