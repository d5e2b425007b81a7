"""The provisional Intercontinental board, engine/variants/intercontinental.toml:
it loads and passes `judge variant check`; every fact of the rules it carries
agrees with engine/variants/intercontinental_facts.toml (powers, homes, units,
coasts, sponsors, centres, abbreviations); and every geography fact the text
states or implies (tests/engine/data/intercontinental_geography.toml, one test
per fact) holds.

The board's adjacency is provisional (the official location index is not
available), so these facts are what pins it to the rules; they hold for the
official board too, once a GM transcribes it."""

from __future__ import annotations

import importlib.util
import tomllib
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from engine.map import GameMap
from engine.variant_file import load_variant, load_variant_file
from engine.variants.intercontinental.abbreviations import abbreviate
from engine.variants.intercontinental.facts import Unit, load_facts
from judge.cli import main

ROOT = Path(__file__).resolve().parents[2]
BOARD_FILE = ROOT / "engine" / "variants" / "intercontinental.toml"
GEOGRAPHY_FILE = Path(__file__).parent / "data" / "intercontinental_geography.toml"

RAW: dict[str, Any] = tomllib.loads(BOARD_FILE.read_text(encoding="utf-8"))
GEOGRAPHY: dict[str, Any] = tomllib.loads(GEOGRAPHY_FILE.read_text(encoding="utf-8"))
FACTS = load_facts()
FACT_KEYS = {"section", "says", "army", "fleet", "water", "land", "coastal", "not_fleet",
             "coasts", "reach"}
COAST = {"north": "NC", "south": "SC", "east": "EC", "west": "WC"}


@pytest.fixture(scope="module")
def board() -> GameMap:
    return load_variant_file(BOARD_FILE)


def code(name: str) -> str:
    """A place's province code: its §5.4 abbreviation in upper case."""
    return FACTS.abbreviations[name].upper()


def unit_string(unit: Unit) -> str:
    where = code(unit.centre)
    if unit.coast:
        where += "/" + COAST[unit.coast]
    return f"{unit.unit} {where}"


def power_key(name: str) -> str:
    for key, raw in RAW["powers"].items():
        if raw.get("adjective") == name or key == name:
            return str(key)
    raise KeyError(name)


# --- the file -----------------------------------------------------------------

def test_variant_check_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variant", "check", str(BOARD_FILE)]) == 0
    assert "ok: Intercontinental (provisional board)" in capsys.readouterr().out


def test_shipped_and_called_provisional(board: GameMap) -> None:
    assert load_variant("intercontinental").name == "intercontinental"
    assert board.name == "intercontinental"
    assert "provisional board" in board.title
    assert board.start == "S1865M"                        # §1.1
    assert board.victory == FACTS_VICTORY == 72             # §2.0
    header = BOARD_FILE.read_text(encoding="utf-8").split("[variant]", 1)[0]
    assert "NOT THE OFFICIAL MAP" in header and "judge variant check" in header


FACTS_VICTORY = 72


def test_generator_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location(
        "intercontinental_board", ROOT / "tools" / "intercontinental_board.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build() == BOARD_FILE.read_text(encoding="utf-8"), (
        "run python tools/intercontinental_board.py")


# --- centres and names (§2.0, §5.4) -------------------------------------------

def test_every_centre_is_a_province_with_a_centre(board: GameMap) -> None:
    centres = {c for c, p in board.provinces.items() if p.is_centre}
    assert len(FACTS.supply_centres) == len(centres) == 180
    for name in FACTS.supply_centres:
        province = board.provinces[code(name)]
        assert province.name == name and province.is_centre


def test_codes_follow_the_abbreviation_rubric(board: GameMap) -> None:
    for name in [*FACTS.supply_centres, *FACTS.other_locations]:
        assert board.provinces[code(name)].code == abbreviate(FACTS.location_label(name)).upper()
    for prov in board.provinces.values():
        if "[" not in prov.name:  # bracketed labels (§5.4 rule 1) give their own
            assert prov.code == prov.code.upper()
    for reserved in FACTS.unnamed_abbreviations:   # §11.4's Yell and East
        assert reserved.upper() in board.provinces


def test_named_seas_and_lands(board: GameMap) -> None:
    for name, other in FACTS.other_locations.items():
        province = board.provinces[code(name)]
        if other.kind == "sea":
            assert province.terrain.value == "water", name
        elif other.kind == "land":
            assert province.terrain.value in ("land", "coastal"), name


# --- powers (§6, §7, §8) --------------------------------------------------------

def test_major_powers(board: GameMap) -> None:
    majors = {n: p for n, p in board.powers.items() if not p.ordered_by_bids}
    assert len(majors) == len(FACTS.powers) == 32
    for letter, power in FACTS.powers.items():
        matches = [p for p in majors.values() if p.letter == letter]
        assert len(matches) == 1, letter
        mapped = matches[0]
        raw = RAW["powers"][mapped.name]
        assert mapped.home == tuple(code(u.centre) for u in power.units), letter
        units = [f"{k.value} {loc}" for k, loc in mapped.units]
        assert units == [unit_string(u) for u in power.units], letter
        assert 2 <= len(units) <= 3                                   # §1.3, §9.0
        assert raw["theatre"] == power.theatre
        assert tuple(raw["groups"]) == power.groups and raw["fixed"] == power.fixed
    assert sum(len(p.home) for p in majors.values()) == 74            # §2.0


def test_minors(board: GameMap) -> None:
    minors = [n for n in board.powers if RAW["powers"][n].get("neutral") == "minor"]
    assert len(minors) == len(FACTS.minors) == 48
    for minor in FACTS.minors:
        key = power_key(minor.centre)
        power = board.powers[key]
        assert RAW["powers"][key]["neutral"] == "minor"
        assert power.ordered_by_bids and power.stationary              # §7, §10
        assert power.home == (code(minor.centre),)
        assert [f"{k.value} {loc}" for k, loc in power.units] == [unit_string(minor.unit)]


def test_affiliates_and_sponsors(board: GameMap) -> None:
    affiliates = [n for n in board.powers if RAW["powers"][n].get("neutral") == "affiliate"]
    assert len(affiliates) == len(FACTS.affiliates) == 58
    major_key = {p.letter: n for n, p in board.powers.items() if not p.ordered_by_bids}
    for aff in FACTS.affiliates:
        key = power_key(aff.centre)
        power, raw = board.powers[key], RAW["powers"][key]
        assert power.ordered_by_bids and power.stationary              # §8, §10
        assert power.home == (code(aff.centre),)
        assert [f"{k.value} {loc}" for k, loc in power.units] == [unit_string(aff.unit)]
        assert raw.get("sponsor") == aff.sponsor
        if aff.sponsor_follows:
            assert raw["sponsor_follows"] == major_key[aff.sponsor_follows]
            assert tuple(raw["possible_sponsors"]) == aff.possible_sponsors
        assert raw["colour_group"] == aff.colour


def test_every_centre_starts_with_one_unit(board: GameMap) -> None:
    """§1.3: the neutral centres do not begin vacant; §2.0: 74 + 58 + 48."""
    held: dict[str, int] = {}
    for power in board.powers.values():
        for _, loc in power.units:
            prov = loc.split("/")[0]
            held[prov] = held.get(prov, 0) + 1
    centres = {c for c, p in board.provinces.items() if p.is_centre}
    assert set(held) == centres
    assert set(held.values()) == {1}


# --- the board's consistency ----------------------------------------------------

def test_adjacency_is_symmetric(board: GameMap) -> None:
    for src, dsts in board.army_moves.items():
        for dst in dsts:
            assert src in board.army_moves[dst], (src, dst)
    for src, dsts in board.fleet_moves.items():
        for dst in dsts:
            assert src in board.fleet_moves[dst], (src, dst)


def test_every_province_reachable(board: GameMap) -> None:
    graph: dict[str, set[str]] = {p: set() for p in board.provinces}
    for src, dsts in board.army_moves.items():
        graph[src] |= set(dsts)
    for src, dsts in board.fleet_moves.items():
        graph[src.split("/")[0]] |= {d.split("/")[0] for d in dsts}
    start = min(graph)
    seen, queue = {start}, deque([start])
    while queue:
        for nxt in graph[queue.popleft()] - seen:
            seen.add(nxt)
            queue.append(nxt)
    assert seen == set(graph)


def test_suez_canal_form_is_recorded(board: GameMap) -> None:
    """§5.2: the canal form (from 1870) is data for the rules module."""
    canal = board.tables["suez_canal"]
    assert canal["opens"] == FACTS.suez.canal_opens == 1870
    before = {c: f"SUEZ/{c}" for c in board.provinces["SUEZ"].coasts}
    expected = sorted(set().union(*(board.fleet_moves[loc] for loc in before.values())))
    assert canal["fleet"] == expected
    assert canal["coasts_before"] == {"NC": code("East Mediterranean Sea"), "SC": code("Red Sea")}


# --- what the text states or implies --------------------------------------------

def _facts() -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = GEOGRAPHY["fact"]
    return facts


def _reach(board: GameMap, power: str, target: str, moves: int) -> bool:
    for kind, start in board.powers[power].units:
        moves_of = board.army_moves if kind.value == "A" else board.fleet_moves
        frontier = {start}
        for _ in range(moves):
            frontier |= {d for loc in frontier for d in moves_of.get(loc, ())}
        if any(loc.split("/")[0] == target for loc in frontier):
            return True
    return False


@pytest.mark.parametrize("fact", _facts(), ids=lambda f: f"§{f['section']}")
def test_text_fact(board: GameMap, fact: dict[str, Any]) -> None:
    assert set(fact) <= FACT_KEYS, set(fact) - FACT_KEYS
    for a, b in fact.get("army", []):
        assert b in board.army_moves[a] and a in board.army_moves[b], (a, b)
    for a, b in fact.get("fleet", []):
        assert b in board.fleet_moves[a] and a in board.fleet_moves[b], (a, b)
    for a, b in fact.get("not_fleet", []):
        assert b not in board.fleet_moves.get(a, ()), (a, b)
    for c in fact.get("water", []):
        assert board.provinces[c].terrain.value == "water", c
    for c in fact.get("land", []):
        assert board.provinces[c].terrain.value == "land", c
    for c in fact.get("coastal", []):
        assert board.provinces[c].terrain.value == "coastal", c
    for c, coasts in fact.get("coasts", {}).items():
        assert sorted(board.provinces[c].coasts) == sorted(coasts), c
    for power, target, moves in fact.get("reach", []):
        assert _reach(board, power, target, moves), (power, target)


def test_only_stated_split_coasts(board: GameMap) -> None:
    stated = {c for f in _facts() for c in f.get("coasts", {})}
    assert {c for c, p in board.provinces.items() if p.coasts} == stated


# --- the board plays ------------------------------------------------------------

def test_northeast_asia_example_adjudicates(board: GameMap) -> None:
    """§11.4, without the DP bids (every neutral holds): the majors' orders,
    written with the text's own abbreviations, give §11.4.4's moves."""
    from engine.game import adjudicate
    from engine.orders import Order
    from engine.outcomes import Outcome
    from engine.state import GameState
    from parser.orders import parse_order

    written = {"SIBERIA": ["A Irku - Urga", "A Yaku - Amur"], "CHINA": ["A Peki - Mukd"],
               "JAPAN": ["F Osak - Yell", "F Edo - East"]}
    orders: dict[str, list[Order]] = {}
    for power, lines in written.items():
        for line in lines:
            order = parse_order(line, board)
            assert isinstance(order, Order), (line, order)
            orders.setdefault(power, []).append(order)
    resolution = adjudicate(board, GameState.initial(board), orders)
    ordered = {(p, o.unit.location) for p, os in orders.items() for o in os}
    outcome = {(r.power, r.order.unit.location): r.outcome for r in resolution.results
               if (r.power, r.order.unit.location) in ordered}
    assert outcome == {
        ("SIBERIA", "IRKU"): Outcome.FAILS, ("SIBERIA", "YAKU"): Outcome.SUCCEEDS,
        ("CHINA", "PEKI"): Outcome.FAILS,
        ("JAPAN", "OSAK"): Outcome.SUCCEEDS, ("JAPAN", "EDO"): Outcome.SUCCEEDS,
    }
