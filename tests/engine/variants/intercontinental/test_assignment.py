"""§3: the colour groups' draw, reproducible from a seed and always within
the rules, and the check that names the rule a GM's assignment breaks."""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import replace
from importlib import resources

import pytest

from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants.intercontinental import diplomacy_points as dp
from engine.variants.intercontinental.assignment import (
    Assignment,
    draw,
    problems,
    seats,
)
from engine.variants.intercontinental.facts import load_facts

FACTS = load_facts()
BOARD_POWERS = tomllib.loads((resources.files("engine") / "variants" / "intercontinental.toml")
                            .read_text(encoding="utf-8"))["powers"]
DRAWS = [draw(seed) for seed in range(1000)]


def test_3_every_draw_of_a_thousand_seeds_is_valid() -> None:
    for seed, assignment in enumerate(DRAWS):
        assert problems(assignment) == [], seed


def test_3_every_draw_keeps_to_section_6_without_the_checker() -> None:
    """Checked apart from problems(): each power in a group §6 allows it,
    once; each group one power per theatre."""
    for assignment in DRAWS:
        placed = [c for codes in assignment.values() for c in codes]
        assert sorted(placed) == sorted(FACTS.powers)
        for group, codes in assignment.items():
            assert sorted(FACTS.powers[c].theatre for c in codes) == \
                ["Africa", "Americas", "Asia", "Europe"]
            assert all(group in FACTS.powers[c].groups for c in codes)


def test_3_the_same_seed_gives_the_same_draw() -> None:
    assert draw(17) == DRAWS[17]
    assert draw("game-42") == draw("game-42")


def test_3_the_draw_reaches_every_allowed_group() -> None:
    """Not one fixed answer: over a thousand seeds each free power lands in
    every group §3 allows it (Mexico in Red and Teal, Iran in four)."""
    for code, power in FACTS.powers.items():
        if power.fixed:
            continue
        landed = Counter(g for a in DRAWS for g, codes in a.items() if code in codes)
        assert set(landed) == set(power.groups), code


def _valid() -> Assignment:
    return {g: tuple(codes) for g, codes in DRAWS[0].items()}


def _swap(assignment: Assignment, first: str, second: str) -> Assignment:
    """Exchange two powers between their groups."""
    where = {c: g for g, codes in assignment.items() for c in codes}
    out = {g: list(codes) for g, codes in assignment.items()}
    a, b = where[first], where[second]
    out[a][out[a].index(first)] = second
    out[b][out[b].index(second)] = first
    return {g: tuple(codes) for g, codes in out.items()}


def test_3_1_a_preassigned_power_moved() -> None:
    found = problems(_swap(_valid(), "GB", "FR"))
    assert "§3.1: Great Britain is always Blue, not Teal" in found


def test_3_4_mexico_outside_red_and_teal() -> None:
    valid = _valid()
    other = next(c for c in ("AR", "CO", "PE", "SH")
                 if not any(c in valid[g] for g in ("Red", "Teal")))
    found = problems(_swap(valid, "ME", other))
    assert any(f.startswith("§3.4: Mexico goes to one of Red, Teal, not") for f in found)


def test_3_5_iran_never_maroon() -> None:
    found = problems(_swap(_valid(), "IR", DRAWS[0]["Maroon"][3]))
    assert "§3.5: Iran may not be Maroon" in found


def test_3_2_an_african_power_in_a_group_not_listed() -> None:
    valid = _valid()
    found = problems(_swap(valid, "ET", "AN"))  # Angola is fixed Green: two rules broken
    assert any(f.startswith("§3.2: Ethiopia goes to one of Olive, Red, Yellow") for f in found)
    assert any(f.startswith("§3.1: Angola is always Green") for f in found)


def test_3_0_two_powers_of_one_theatre_and_one_missing() -> None:
    valid = _valid()
    valid["Blue"] = ("CC", "GB", "CA", "FR")
    found = problems(valid)
    assert "§3.0: Blue has two powers in Europe (Great Britain and France)" in found
    assert "§3.0: France is in both Teal and Blue" in found or \
        "§3.0: France is in both Blue and Teal" in found
    assert "§3.0: British Raj is in no colour group" in found


def test_1_2_unknown_and_missing_groups() -> None:
    valid = _valid()
    valid["Orange"] = valid.pop("Violet")
    found = problems(valid)
    assert "§1.2: there is no Orange colour group" in found
    assert "§1.2: the Violet colour group has no powers" in found


@pytest.mark.parametrize("seed", [0, 1])
def test_3_a_draw_as_the_seats_of_a_game(seed: int) -> None:
    game_map = load_variant("intercontinental")
    got = dict(seats(game_map, DRAWS[seed]))
    assert len(got) == 8 and all(len(p) == 4 for p in got.values())
    assert sorted(p for ps in got.values() for p in ps) == sorted(
        n for n, p in game_map.powers.items() if not p.ordered_by_bids)
    assert "GREAT_BRITAIN" in got["Blue"]


def test_8_10_sponsors_follow_the_draw() -> None:
    """Chihuahua and Oaxaca follow Mexico, Muscat Zanzibar, the Orange
    affiliates the Dutch East Indies; the others keep their colour (§8): the
    player whose bids count double, as the Diplomacy Points module finds it
    from a game's seats."""
    game_map = load_variant("intercontinental")
    found = dp.sponsors(game_map)
    muscat = set()
    for assignment in DRAWS[:50]:
        group_of = {c: g for g, codes in assignment.items() for c in codes}
        state = GameState.initial(replace(game_map, seats=seats(game_map, assignment)))
        players = dp.players(game_map, state)

        def sponsor(name: str, players: tuple[dp.Player, ...] = players) -> str:
            player = dp.sponsor_of(players, found[name])
            assert player is not None, name
            return player.name

        assert len(found) == 58
        assert sponsor("CHIHUAHUA") == sponsor("OAXACA") == group_of["ME"]
        muscat.add(sponsor("MUSCAT"))
        assert sponsor("MUSCAT") == group_of["ZA"]
        for name, raw in BOARD_POWERS.items():  # the board file's own sponsor keys
            if raw.get("neutral") == "affiliate":
                assert sponsor(name) in raw.get("possible_sponsors", [raw.get("sponsor")]), name
    assert muscat <= {"Olive", "Red", "Yellow"}
