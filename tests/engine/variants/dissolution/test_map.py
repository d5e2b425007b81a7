"""The Dissolution map, engine/variants/dissolution.toml: every geography fact
its rule text states or implies (tests/engine/variants/dissolution/data/geography.toml,
one test per fact), and the map's own consistency.

The map's adjacency is a reconstruction (the official map exists only as
pictures), so these facts are what pins it to the rules. The file is read with
plain tomllib, independently of the engine's variant loader."""

from __future__ import annotations

import math
import tomllib
from collections import Counter, defaultdict, deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[4]
MAP_FILE = ROOT / "engine" / "variants" / "dissolution.toml"
FACTS_FILE = Path(__file__).parent / "data" / "geography.toml"

MAP: dict[str, Any] = tomllib.loads(MAP_FILE.read_text(encoding="utf-8"))
FACTS: dict[str, Any] = tomllib.loads(FACTS_FILE.read_text(encoding="utf-8"))
PROVINCES: dict[str, dict[str, Any]] = MAP["provinces"]
POWERS: dict[str, dict[str, Any]] = MAP["powers"]
FAVOR: dict[str, Any] = MAP["favor"]  # Dissolution's own table: nuclear powers, Favor
ARMY: dict[str, set[str]] = {c: set(p.get("army", [])) for c, p in PROVINCES.items()}
FLEET: dict[str, set[str]] = {c: set(p.get("fleet", [])) for c, p in PROVINCES.items()}

KINDS = {"land", "coastal", "water", "impassable"}
FACT_KEYS = {"section", "says", "army", "fleet", "any", "not_adjacent", "touches",
             "only_fleet", "no_army", "coastal", "land"}
NUCLEAR = ["NATO", "US_NAVY", "ISRAEL", "INDIA", "RUSSIA"]
PLAYERS = ["EGYPT", "ETHIOPIA", "IRAN", "KAZAKHSTAN", "PAKISTAN", "POLAND", "ROMANIA",
           "SAUDI_ARABIA", "UKRAINE", "YUGOSLAVIA"]
PAIRED = ["CZECHOSLOVAKIA", "LIBYA", "UZBEKISTAN"]
OIL = {"AKT", "AZE", "BEN", "DMM", "IRQ", "RIY", "SHI", "UAE"}  # §5.2.2


def kind(code: str) -> str:
    return str(PROVINCES[code]["kind"])


def neighbours(code: str) -> set[str]:
    """Provinces adjacent for some kind of unit (a Wing treats all of them as adjacent)."""
    return ARMY[code] | FLEET[code]


def adjacent(a: str, b: str) -> bool:
    return b in neighbours(a) or a in neighbours(b)


def centre_value(code: str) -> int:
    centre = PROVINCES[code].get("centre")
    if centre is None or centre is False:
        return 0
    if centre is True:
        return 1
    if isinstance(centre, dict):
        return int(centre["value"])
    return int(centre)


def centre_flags(code: str) -> list[str]:
    centre = PROVINCES[code].get("centre")
    return list(centre.get("flags", [])) if isinstance(centre, dict) else []


def unit_province(unit: str) -> str:
    return unit.split()[1]


def connected(nodes: set[str], edges: dict[str, set[str]]) -> set[str]:
    """The nodes not reachable from the first (sorted) node through `edges`."""
    start = min(nodes)
    seen = {start}
    queue = deque([start])
    while queue:
        for other in edges[queue.popleft()] & nodes:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return nodes - seen


# --- every fact of the rule text, one test each ---------------------------------


def _fact_params() -> list[Any]:
    counts: Counter[str] = Counter()
    params = []
    for fact in FACTS["fact"]:
        counts[fact["section"]] += 1
        params.append(pytest.param(fact, id=f"{fact['section']}#{counts[fact['section']]}"))
    return params


def _known(codes: Iterable[str]) -> list[str]:
    return [c for c in codes if c not in PROVINCES]


@pytest.mark.parametrize("fact", _fact_params())
def test_fact(fact: dict[str, Any]) -> None:
    assert set(fact) <= FACT_KEYS, f"unknown keys {set(fact) - FACT_KEYS}"
    wrong: list[str] = []
    for a, b in fact.get("army", []):
        if _known((a, b)):
            wrong.append(f"unknown province in {a}-{b}")
        elif b not in ARMY[a] or a not in ARMY[b]:
            wrong.append(f"{a}-{b} should be army-adjacent")
    for a, b in fact.get("fleet", []):
        if _known((a, b)):
            wrong.append(f"unknown province in {a}-{b}")
        elif b not in FLEET[a] or a not in FLEET[b]:
            wrong.append(f"{a}-{b} should be fleet-adjacent")
    for a, b in fact.get("any", []):
        if _known((a, b)):
            wrong.append(f"unknown province in {a}-{b}")
        elif not (b in ARMY[a] and a in ARMY[b]) and not (b in FLEET[a] and a in FLEET[b]):
            wrong.append(f"{a}-{b} should be adjacent")
    for a, b in fact.get("not_adjacent", []):
        if _known((a, b)):
            wrong.append(f"unknown province in {a}-{b}")
        elif adjacent(a, b):
            wrong.append(f"{a}-{b} should not be adjacent")
    for first, second in fact.get("touches", []):
        if _known([*first, *second]):
            wrong.append(f"unknown province in {first} / {second}")
        elif not any(adjacent(a, b) for a in first for b in second):
            wrong.append(f"no province of {first} is adjacent to one of {second}")
    for code, expected in fact.get("only_fleet", {}).items():
        if sorted(FLEET.get(code, set())) != sorted(expected):
            wrong.append(f"{code}'s fleet list is {sorted(FLEET.get(code, set()))}, "
                         f"should be {sorted(expected)}")
    for code in fact.get("no_army", []):
        if ARMY.get(code):
            wrong.append(f"{code} should have no army neighbours")
    for code in fact.get("coastal", []):
        if code not in PROVINCES or kind(code) != "coastal" or not FLEET[code]:
            wrong.append(f"{code} should be coastal")
    for code in fact.get("land", []):
        if code not in PROVINCES or kind(code) != "land":
            wrong.append(f"{code} should be inland")
    assert not wrong, f"§{fact['section']} ({fact['says']}): " + "; ".join(wrong)


def test_nuclear_permission_list_is_complete() -> None:
    """§11.6.6 names every land or canal province in or next to a nuclear power's
    territory that is next to none of its units; every other one must be."""
    exceptions: dict[str, list[str]] = FACTS["nuclear"]["exceptions"]
    for power, expected in exceptions.items():
        territory = set(POWERS[power]["territory"])
        assert territory, power
        units = {unit_province(u) for u in POWERS[power]["units"]}
        near = set(territory)
        for code in territory:
            near |= neighbours(code)
        difficult = sorted(
            code for code in near
            if kind(code) != "water" and not ({code} | neighbours(code)) & units
        )
        assert difficult == sorted(expected), power


# --- the map's own consistency --------------------------------------------------


def test_every_listed_code_exists() -> None:
    for code, table in PROVINCES.items():
        for key in ("army", "fleet"):
            unknown = [c for c in table.get(key, []) if c not in PROVINCES]
            assert not unknown, f"{code}.{key}: {unknown}"
            assert code not in table.get(key, []), f"{code} lists itself"
            assert len(set(table.get(key, []))) == len(table.get(key, [])), f"{code}.{key}"
    for name, power in POWERS.items():
        for key in ("home", "territory"):
            unknown = [c for c in power.get(key, []) if c not in PROVINCES]
            assert not unknown, f"{name}.{key}: {unknown}"
        unknown = [u for u in power.get("units", []) if unit_province(u) not in PROVINCES]
        assert not unknown, f"{name}.units: {unknown}"


def test_army_lists_are_symmetric() -> None:
    one_way = [f"{a}-{b}" for a in ARMY for b in ARMY[a] if a not in ARMY.get(b, set())]
    assert not one_way


def test_fleet_lists_are_symmetric() -> None:
    one_way = [f"{a}-{b}" for a in FLEET for b in FLEET[a] if a not in FLEET.get(b, set())]
    assert not one_way


def test_army_lists_name_only_land_and_coastal_provinces() -> None:
    bad = [f"{a}-{b}" for a in ARMY for b in ARMY[a]
           if kind(a) not in ("land", "coastal") or kind(b) not in ("land", "coastal")]
    assert not bad


def test_fleet_lists_name_only_water_and_coastal_provinces() -> None:
    bad = [f"{a}-{b}" for a in FLEET for b in FLEET[a]
           if kind(a) not in ("water", "coastal") or kind(b) not in ("water", "coastal")]
    assert not bad


def test_kinds_and_lists_agree() -> None:
    for code, table in PROVINCES.items():
        assert table["kind"] in KINDS, code
        assert table["kind"] != "impassable", f"{code}: Dissolution has no impassable province"
        assert "coasts" not in table, f"{code}: no split coasts in Dissolution (§6.4)"
        assert (table["kind"] == "coastal") == bool(FLEET[code]) or table["kind"] == "water", code
        if table["kind"] == "water":
            assert not ARMY[code] and FLEET[code], code
        if table["kind"] == "land":
            assert not FLEET[code], code
        if code != "CRE" and table["kind"] != "water":
            assert ARMY[code], f"{code} has no army neighbours"


def test_every_province_is_reachable() -> None:
    everything = set(PROVINCES)
    union = {c: neighbours(c) for c in PROVINCES}
    assert not connected(everything, union)
    walkable = {c for c in PROVINCES if kind(c) != "water" and c != "CRE"}
    assert not connected(walkable, ARMY), "armies cannot walk everywhere but Crete"
    sailable = {c for c in PROVINCES if kind(c) != "land"}
    assert not connected(sailable, FLEET), "fleets cannot sail everywhere"


def test_every_province_of_section_10_with_its_exact_name() -> None:
    table: dict[str, list[Any]] = FACTS["section10"]
    assert sorted(PROVINCES) == sorted(table)
    for code, (name, value, oil) in table.items():
        assert PROVINCES[code]["name"] == name, code
        assert centre_value(code) == value, code
        assert ("oil" in centre_flags(code)) == oil, code


def test_57_centres_worth_75_victory_points() -> None:
    values = [centre_value(c) for c in PROVINCES if centre_value(c)]
    assert len(values) == 57
    assert sum(values) == 75
    assert Counter(values) == {1: 39, 2: 18}


def test_the_eight_oil_centres() -> None:
    assert {c for c in PROVINCES if "oil" in centre_flags(c)} == OIL


def test_aliases_are_lower_case_and_unique() -> None:
    seen: dict[str, str] = {}
    clashes: list[str] = []

    def claim(spelling: str, owner: str) -> None:
        key = spelling.lower()
        if key in seen and seen[key] != owner:
            clashes.append(f"{spelling!r}: {seen[key]} and {owner}")
        seen[key] = owner

    for code, table in PROVINCES.items():
        claim(code, code)
        claim(table["name"], code)
        for alias in table.get("aliases", []):
            assert alias == alias.lower(), alias
            claim(alias, code)
    for name, power in POWERS.items():
        if power.get("ordered_by") == "bids" and name not in NUCLEAR:
            continue  # minor powers are named after their provinces (§3.5)
        claim(name.replace("_", " "), name)
        claim(power["adjective"], name)
        for alias in power.get("aliases", []):
            assert alias == alias.lower(), alias
            claim(alias, name)
    assert not clashes


# --- powers -------------------------------------------------------------------


def test_the_powers_are_those_of_the_rules() -> None:
    assert sorted(POWERS) == sorted(p["name"] for p in FACTS["power"])
    assert len(POWERS) == 10 + 5 + 19 + 6 + 3


@pytest.mark.parametrize("expected", [pytest.param(p, id=p["name"]) for p in FACTS["power"]])
def test_power_matches_the_rules(expected: dict[str, Any]) -> None:
    power = POWERS[expected["name"]]
    for key in ("home", "territory"):
        if key in expected:
            assert sorted(power.get(key, [])) == sorted(expected[key]), key
    assert sorted(power["units"]) == sorted(expected["units"])
    if "letter" in expected:
        assert power["letter"] == expected["letter"]
    if "favor" in expected:
        assert FAVOR["start"][expected["name"]] == expected["favor"]


def test_letters_are_unique() -> None:
    letters = Counter(p["letter"] for p in POWERS.values())
    assert not [letter for letter, n in letters.items() if n > 1]


def test_how_each_kind_of_power_is_ordered() -> None:
    for name, power in POWERS.items():
        if name in PLAYERS:
            assert "ordered_by" not in power, name
            assert set(FAVOR["start"][name]) == set(NUCLEAR), name
        else:
            assert power["ordered_by"] == "bids", name
            assert power["stationary"] is (name != "US_NAVY"), name
        assert ("default_order" in power) == (name in PAIRED), name
        assert power.get("invulnerable", False) is (name in NUCLEAR), name
    for name in PAIRED:
        assert POWERS[name]["default_order"] == "support-partner"
    assert sorted(FAVOR["start"]) == sorted(PLAYERS)
    slices = {name: letter for letter, name in FAVOR["slices"].items()}
    assert slices == {"NATO": "N", "US_NAVY": "U", "ISRAEL": "I", "INDIA": "B", "RUSSIA": "R"}


def test_us_navy_special_rules() -> None:
    us = POWERS["US_NAVY"]
    assert us["captures"] is False  # §8.5.1
    assert sorted(us["barred"]) == ["AST", "LEN", "NIZ"]  # §8.5.4
    assert sorted(us["friends"]) == ["ISRAEL", "NATO"]  # §9.2.3
    assert FAVOR["partners"] == {"US_NAVY": "NATO"}  # §11.6.4


def test_every_centre_has_one_starting_owner_at_most() -> None:
    owners: defaultdict[str, list[str]] = defaultdict(list)
    for name, power in POWERS.items():
        for code in power.get("home", []):
            assert centre_value(code), f"{name} home {code} is not a centre"
            owners[code].append(name)
    assert not {c: o for c, o in owners.items() if len(o) > 1}
    assert len(owners) == 57  # every centre starts as someone's home (§3.5, §7)


def test_starting_units_stand_where_they_can() -> None:
    occupied: Counter[str] = Counter()
    for name, power in POWERS.items():
        for unit in power["units"]:
            letter, code = unit.split()
            assert letter in MAP["variant"]["kinds"], unit
            allowed = {"A": ("land", "coastal"), "W": ("land", "coastal"),
                       "F": ("water", "coastal")}[letter]
            assert kind(code) in allowed, f"{name} {unit}"
            occupied[code] += 1
    assert not [c for c, n in occupied.items() if n > 1]


def test_poland_is_the_only_player_on_the_baltic() -> None:
    on_baltic = {code for name in PLAYERS for code in POWERS[name]["home"] if code in FLEET["BAL"]}
    assert on_baltic == {"GDA"}  # §7.6


def test_variant_table() -> None:
    variant = MAP["variant"]
    assert variant["name"] == "dissolution"
    assert variant["start"] == "S1992M"  # §1.2
    assert variant["victory"] == 27  # §1.5
    assert variant["kinds"] == ["A", "F", "W"]


# --- the schematic drawing ----------------------------------------------------


def test_every_province_has_a_point_on_the_drawing() -> None:
    width, height = MAP["map"]["size"]
    for table in ("units", "labels"):
        points: dict[str, list[int]] = MAP["map"][table]
        assert sorted(points) == sorted(PROVINCES), table
        outside = [c for c, (x, y) in points.items() if not (0 <= x <= width and 0 <= y <= height)]
        assert not outside, table
    units: dict[str, list[int]] = MAP["map"]["units"]
    codes = sorted(units)
    close = [
        (a, b) for i, a in enumerate(codes) for b in codes[i + 1:]
        if math.dist(units[a], units[b]) < 18
    ]
    assert not close
