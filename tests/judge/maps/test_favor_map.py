"""The Favor map (Dissolution's second board) as a results mail shows it:
each slice's tint its own, each player's three letters, and the ways the
Embassies went in the phase drawn: the Winter's moves and retreats, the
kicks with their reasons. Phases from data/favor_map.toml."""

from __future__ import annotations

import html
import itertools
import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest

from engine.game import Resolution, adjudicate
from engine.lines import BIDS
from engine.map import GameMap
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.dissolution.favor_board import favor_board
from engine.variants.dissolution.favor_drawing import read_drawing
from judge import reported
from judge.adjudicating import Adjudication, results_json
from judge.maps import render_other_board
from judge.maps.hexboard import ink_on, tints_of
from judge.maps.scene import Scene, on_the_other_board, scene_after, stored_results
from parser.bids import parse_bid
from parser.orders import OrderError, parse_order
from tests.engine.case_runner import _start
from tests.judge.maps.ciede2000 import difference, hex_rgb

T = TypeVar("T")

CASES = tomllib.loads((Path(__file__).parent / "data" / "favor_map.toml").read_text(
    encoding="utf-8"))["case"]
SLICES_APART = 12.0  # CIEDE2000: a border between two tints stays seen
TEXT_CONTRAST = 4.5  # WCAG's ratio for body text


def _luminance(colour: str) -> float:
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in (v / 255 for v in hex_rgb(colour))]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, two: str) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    light, dark = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _resolved(case: dict[str, Any]) -> tuple[GameMap, Resolution]:
    game_map = load_variant("dissolution")
    orders = {power: [_read(parse_order(text, game_map)) for text in texts]
              for power, texts in case.get("orders", {}).items()}
    bids = {power: [_read(parse_bid(text, game_map)) for text in texts]
            for power, texts in case.get("bids", {}).items()}
    return game_map, adjudicate(game_map, _start(game_map, case), orders,
                                lines={BIDS.name: bids})


def _read(read: T | OrderError) -> T:
    assert not isinstance(read, OrderError), read
    return read


def _played(case: dict[str, Any]) -> tuple[GameMap, Scene]:
    game_map, resolution = _resolved(case)
    return game_map, scene_after("favor", resolution)


def _arrows(svg: str) -> list[str]:
    return [f"{kind} {power} {origin}-{to} {'succeeded' if ok == 'true' else 'failed'}"
            for kind, power, origin, to, ok in re.findall(
                r'data-arrow="(\w+)" data-of="(\w+)" data-from="(\w+)" data-to="(\w+)" '
                r'data-succeeded="(\w+)"', svg)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_the_phase_s_embassy_moves_and_kicks_are_drawn(case: dict[str, Any]) -> None:
    game_map, scene = _played(case)
    svg = render_other_board(game_map, scene, "svg")
    assert svg is not None
    text = svg.decode("utf-8")
    assert sorted(_arrows(text)) == sorted(case["arrows"])
    assert re.findall(r'data-why="([^"]*)"', text) == [w.replace("'", "&#x27;")
                                                       for w in case["why"]]
    shown = [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", text)]
    for words in case["legend"]:  # each the start of a text of the picture
        assert any(t.startswith(words) for t in shown), (words, shown[-6:])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_a_stored_phase_draws_the_same_arrows(case: dict[str, Any]) -> None:
    """MAP of a past phase reads the orders and sections back from the
    stored results JSON: the Favor map shows what the results mail showed."""
    game_map, resolution = _resolved(case)
    scene = scene_after("favor", resolution)
    stored = json.loads(json.dumps(results_json(Adjudication(resolution, (), (), ()))))
    sections = {s.key: s.lines for s in reported.public(reported.read(stored))}
    again = on_the_other_board(resolution.state, stored_results(game_map, stored["results"]),
                               sections)
    rules = rules_for(game_map)
    assert rules.other_board(game_map, scene.position, again) == \
        rules.other_board(game_map, scene.position, scene.other_board)


def test_no_two_slices_share_a_colour_and_the_labels_read_on_each() -> None:
    game_map = load_variant("dissolution")
    board = rules_for(game_map).other_board(game_map, rules_for(game_map).opening(
        game_map, _start(game_map, {"phase": "S1992M"})))
    assert board is not None
    tints = tints_of(board)
    assert set(tints) == set(favor_board(game_map).slices)
    for (a, one), (b, other) in itertools.combinations(tints.items(), 2):
        assert difference(one, other) >= SLICES_APART, (a, b, one, other)
    for tint in tints.values():
        assert contrast("#333333", tint) >= TEXT_CONTRAST, tint  # the hexes' labels


def test_each_player_s_letters_are_three_its_own_and_read_on_its_colour() -> None:
    game_map = load_variant("dissolution")
    board = rules_for(game_map).other_board(game_map, rules_for(game_map).opening(
        game_map, _start(game_map, {"phase": "S1992M"})))
    assert board is not None
    played = [n for n, p in game_map.powers.items() if not p.ordered_by_bids]
    letters = [board.names[p] for p in played]
    assert all(re.fullmatch(r"[A-Z]{3}", text) for text in letters)
    assert len(set(letters)) == len(letters)
    assert board.names["UKRAINE"] == "UKR"
    for power in played:
        colour = game_map.powers[power].colour or "#888888"
        assert contrast(ink_on(colour), colour) >= TEXT_CONTRAST, power


@pytest.mark.parametrize(("abbreviations", "problem"), [
    ({"UKRAINE": "UK"}, "UKRAINE needs three capital letters"),
    ({"UKRAINE": "POL"}, "POL is also POLAND's"),
    ({"NATO": "NAT"}, "NATO is not a played power"),
])
def test_variant_check_refuses_letters_that_could_be_misread(
        abbreviations: dict[str, str], problem: str) -> None:
    game_map = load_variant("dissolution")
    given = {**game_map.tables["favor"]["drawing"]["abbreviations"], **abbreviations}
    tables = {**game_map.tables, "favor": {**game_map.tables["favor"], "drawing": {
        **game_map.tables["favor"]["drawing"], "abbreviations": given}}}
    _, problems = read_drawing(replace(game_map, tables=tables), favor_board(game_map).slices)
    assert any(problem in text for _, text in problems), problems
