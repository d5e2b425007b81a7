"""Runs test cases written in the DATC data format (tests/engine/datc/README.md).

Shared by the DATC cases and the project's own cases in tests/engine/cases/.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.bids import Bid
from engine.flags import in_force
from engine.game import Resolution, adjudicate
from engine.lines import BIDS
from engine.map import GameMap, province_of
from engine.movement import retreat_options
from engine.orders import Build, Order, Waive
from engine.outcomes import Reason
from engine.phase import Phase
from engine.state import Dislodged, GameState, Seat
from engine.units import Unit
from engine.variant_file import load_variant, load_variant_file
from engine.variants import rules_for
from engine.variants.dissolution.favor_board import favor_board
from engine.variants.dissolution.state import DissolutionState, favor_of
from engine.variants.dissolution.state import of as dissolution
from engine.variants.intercontinental.state import IntercontinentalState
from engine.variants.intercontinental.state import of as intercontinental
from parser import OrderError, parse_order
from parser.bids import parse_bid


def load_cases(folder: Path, pattern: str = "*.toml") -> list[Any]:
    cases = []
    for path in sorted(folder.glob(pattern)):
        for case in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
            cases.append(pytest.param(case, id=case["id"]))
    return cases


def _units(raw: dict[str, list[str]]) -> tuple[Unit, ...]:
    return tuple(Unit.parse(power, text) for power, texts in raw.items() for text in texts)


def _start(game_map: GameMap, case: dict[str, Any]) -> GameState:
    phase = Phase.parse(case.get("phase", game_map.start))
    units = _units(case.get("units", {}))
    owners = GameState.make_owners(case.get("centres", {}))
    opening = rules_for(game_map).opening(game_map, GameState.initial(game_map))
    if case.get("from_start"):
        # the opening position; `units` and `centres` replace those of the powers they name
        gone = set(case.get("remove", []))
        named = set(case.get("units", {}))
        units = tuple(u for u in opening.units if u.power not in named
                      and u.province not in gone) + units
        centres = case.get("centres", {})
        owners = tuple(sorted(
            [(c, p) for c, p in opening.owners if p not in centres
             and c not in {x for cs in centres.values() for x in cs}]
            + [(c, p) for p, cs in centres.items() for c in cs]))
    favor = {(power, n): v for power, values in case.get("favor", {}).items()
             for n, v in values.items()}
    state = GameState(
        variant=game_map.name,
        phase=phase,
        units=units,
        owners=owners,
        cd_distance=case.get("cd_distance", "owned"),
        victory=game_map.victory,
        seats=opening.seats,
    ).with_part(DissolutionState(
        favor=tuple(sorted((p, n, v) for (p, n), v in favor.items())),
        embassies=_embassies(game_map, case, opening),
        built=tuple((b.split()[0], b.split()[1]) for b in case.get("built", [])),
        exiles=frozenset(case.get("exiles", [])),
        silenced=frozenset(case.get("silenced", [])),
    )).with_part(IntercontinentalState(tuple(sorted(
        (h.split()[0], h.split()[1]) for h in case.get("additional_homes", [])))))
    if "seats" in case:  # players of several powers (Intercontinental's colour groups)
        state = state.evolve(seats=tuple(Seat(player, tuple(powers))
                                         for player, powers in case["seats"].items()))
    dislodged = []
    for power, entries in case.get("dislodged", {}).items():
        for text, attacker in entries.items():
            unit = Unit.parse(power, text)
            dislodged.append((unit, attacker))
    if dislodged:
        contested = frozenset(case.get("contested", []))
        occupied = {u.province for u in units}
        state = state.evolve(
            dislodged=tuple(
                Dislodged(u, a, False, retreat_options(game_map, u, a, False, occupied,
                                                       contested, frozenset()))
                for u, a in dislodged
            ),
            contested=contested,
        )
    return state


def start_position(game_map: GameMap, case: dict[str, Any]) -> GameState:
    """The position a case's orders are given in (for tests that adjudicate
    it themselves: the maps drawn of it)."""
    return _start(game_map, case)


def read_orders(game_map: GameMap, raw: dict[str, list[str]]) -> tuple[
        dict[str, list[Order]], dict[str, list[tuple[str, ...]]]]:
    orders: dict[str, list[Order]] = {}
    expected: dict[str, list[tuple[str, ...]]] = {}
    for power, lines in raw.items():
        for line in lines:
            text, outcome, *why = (part.strip() for part in line.split("|"))
            order = parse_order(text, game_map)
            assert not isinstance(order, OrderError), f"{text!r}: {order}"
            orders.setdefault(power, []).append(order)
            expected.setdefault(power, []).append((text, outcome, *why))
    return orders, expected


def reason_code(reason: Reason | None) -> str:
    """A reason in the short form the case files use: 'bounced MAR,MUN 1v1'."""
    if reason is None:
        return ""
    parts = [reason.why.value]
    if reason.units:
        parts.append(",".join(reason.units))
    if reason.strength is not None:
        parts.append(f"{reason.strength}v{reason.against}")
    return " ".join(parts)


def _board(units: tuple[Unit, ...]) -> dict[str, set[str]]:
    board: dict[str, set[str]] = {}
    for unit in units:
        board.setdefault(unit.power, set()).add(str(unit))
    return board


def _embassies(game_map: GameMap, case: dict[str, Any],
               opening: GameState) -> tuple[tuple[str, str, str], ...]:
    """The opening's Embassies with the case's `embassies` in their places;
    none when the case gives Favor values instead (`favor`)."""
    if "favor" in case and "embassies" not in case:
        return ()
    where = {(p, n): s for p, n, s in dissolution(opening).embassies}
    if "embassies" in case:
        board = favor_board(game_map)
        for power, spaces in case["embassies"].items():
            for space in spaces:
                where[power, board.slices[space[0]]] = space
    return tuple(sorted((p, n, s) for (p, n), s in where.items()))


def _bids(game_map: GameMap, raw: dict[str, list[str]]) -> tuple[
        dict[str, list[Bid]], list[tuple[str, str, str, str]]]:
    bids: dict[str, list[Bid]] = {}
    expected: list[tuple[str, str, str, str]] = []
    for power, lines in raw.items():
        for line in lines:
            text, fate, *why = (part.strip() for part in line.split("|"))
            bid = parse_bid(text, game_map)
            assert not isinstance(bid, OrderError), f"{text!r}: {bid}"
            bids.setdefault(power, []).append(bid)
            expected.append((power, text, fate, why[0] if why else ""))
    return bids, expected


def _check_bids(resolution: Resolution, expected: list[tuple[str, str, str, str]]) -> None:
    got = list(resolution.facts("bids"))
    assert len(got) == len(expected), [r.describe() for r in got]
    for (power, text, fate, why), result in zip(expected, got, strict=True):
        assert result.bidder == power
        assert ("counted" if result.counted else "ignored") == fate, (text, result.describe())
        assert why in result.why, (text, result.why)


def _check_neutral(resolution: Resolution, game_map: GameMap, lines: list[str]) -> None:
    """Each line: the order a neutral unit was given, its outcome and reason."""
    given = {province_of(r.order.unit.location): r for r in resolution.results
             if game_map.powers[r.power].ordered_by_bids and hasattr(r.order, "unit")}
    for line in lines:
        text, outcome, *why = (part.strip() for part in line.split("|"))
        order = parse_order(text, game_map)
        assert not isinstance(order, OrderError), f"{text!r}: {order}"
        assert not isinstance(order, Waive | Build)
        result = given.get(province_of(order.unit.location))
        assert result is not None, f"no neutral unit ordered in {order.unit.location}"
        assert _same_order(result.order, order), f"{text!r}: given {result.order}"
        assert result.outcome.value == outcome, (text, result.outcome.value, result.reason)
        if why:
            assert reason_code(result.reason) == why[0], (text, result.reason)


def _same_order(given: Order, written: Order) -> bool:
    """Written orders may leave out unit kinds; compare the canonical texts loosely."""
    def norm(order: Order) -> str:
        return " ".join(w for w in str(order).split() if w not in ("A", "F", "W"))
    return norm(given) == norm(written)


def _check_allowance(game_map: GameMap, state: GameState, want: dict[str, int]) -> None:
    """Each power's Diplomacy Points in this position (its player's, where
    players bid with several powers)."""
    rules = rules_for(game_map)
    got = {p: rules.bid_allowance(game_map, state, p)[0] for p in want}
    assert got == want, str(state.phase)


def _check_phase(game_map: GameMap, state: GameState, step: dict[str, Any]) -> GameState:
    if "bid_allowance" in step:  # before the phase is played
        _check_allowance(game_map, state, step["bid_allowance"])
    orders, expected = read_orders(game_map, step.get("orders", {}))
    bids, expected_bids = _bids(game_map, step.get("bids", {}))
    # by kind name, as the judge hands every kind of line the rules read
    resolution = adjudicate(game_map, state, orders, lines={BIDS.name: bids})
    if expected_bids:
        _check_bids(resolution, expected_bids)
    if "neutral" in step:
        _check_neutral(resolution, game_map, step["neutral"])
    for power, wanted in expected.items():
        got = [r for r in resolution.results if r.power == power][: len(wanted)]
        for (text, outcome, *why), result in zip(wanted, got, strict=True):
            reason = result.reason.describe() if result.reason else ""
            assert result.outcome.value == outcome, (
                f"{power}: {text!r} (read as {result.order}) {result.outcome.value}"
                f" [{reason}], expected {outcome}"
            )
            if why:
                assert reason_code(result.reason) == why[0], (text, reason)
    expect = step.get("expect", {})
    following = resolution.next
    if "units" in expect and step.get("from_start"):
        # from the opening: the powers listed are compared, the others unchanged
        board, before = _board(following.units), _board(state.units)
        for power in set(board) | set(before) | set(expect["units"]):
            want_units = set(expect["units"][power]) if power in expect["units"] \
                else before.get(power, set())
            assert board.get(power, set()) == want_units, power
    elif "units" in expect and expect.get("partial"):  # only the powers listed
        board = _board(following.units)
        for power, units in expect["units"].items():
            assert board.get(power, set()) == set(units), power
    elif "units" in expect:
        want = {p: set(u) for p, u in expect["units"].items() if u}
        assert _board(following.units) == want
    if state.phase.kind.value == "M":
        want_dislodged = {
            (power, unit, attacker)
            for power, entries in expect.get("dislodged", {}).items()
            for unit, attacker in entries.items()
        }
        got_dislodged = {(d.unit.power, str(d.unit), d.attacker) for d in following.dislodged}
        assert got_dislodged == want_dislodged
    if "violations" in expect:
        got_violations = sorted(f"{v.power} {v.nuclear} {v.kind}"
                                for v in resolution.facts("violations"))
        assert got_violations == sorted(expect["violations"])
    for key, texts in expect.get("sections", {}).items():  # a report section's lines
        found = resolution.report(key)
        got = [line.text for line in found.lines] if found is not None else []
        assert got == texts, (key, got)
    if "retreats" in expect:
        options = {str(d.unit): sorted(d.retreats) for d in following.dislodged}
        assert options == {u: sorted(r) for u, r in expect["retreats"].items()}
    if "centres" in expect:
        want_centres = {(c, p) for p, cs in expect["centres"].items() for c in cs}
        assert {pair for pair in following.owners if pair[1] in expect["centres"]} \
            == want_centres
    if "scores" in expect:
        scores = rules_for(game_map).scores(game_map, following)
        assert {p: scores.get(p, 0) for p in expect["scores"]} == expect["scores"]
    if "allowance" in expect:
        rules = rules_for(game_map)
        scores = rules.scores(game_map, following)
        assert {p: rules.allowance(game_map, following, p, scores)
                for p in expect["allowance"]} == expect["allowance"]
    if "bid_allowance" in expect:
        _check_allowance(game_map, following, expect["bid_allowance"])
    if "winner" in expect:
        assert (resolution.winner or "") == expect["winner"]
    if "kicks" in expect:
        got_kicks = [f"{k.power} {k.origin}-{k.to}" for k in resolution.facts("kicks")]
        assert got_kicks == expect["kicks"]
    if "embassies" in expect:
        where = {(p, s[0]): s for p, _, s in dissolution(following).embassies}
        for power, spaces in expect["embassies"].items():
            assert [where.get((power, s[0])) for s in spaces] == spaces, power
            if not spaces:  # none left: an eliminated player's (§4.1)
                assert all(p != power for p, _, _ in dissolution(following).embassies), power
    if "favor" in expect:
        for power, values in expect["favor"].items():
            assert {n: favor_of(game_map, following, power, n) for n in values} == values, power
    if "built" in expect:
        built = dissolution(following).built
        assert sorted(f"{p} {c}" for p, c in built) == sorted(expect["built"])
    if "additional_homes" in expect:
        assert sorted(f"{p} {c}" for p, c in intercontinental(following).additional_homes) \
            == sorted(expect["additional_homes"])
    if "drawn" in expect:
        assert sorted(following.drawn) == sorted(expect["drawn"])
    if "exiles" in expect:
        assert dissolution(following).exiles == frozenset(expect["exiles"])
    if "phase" in expect:
        assert str(following.phase) == expect["phase"]
    return following


def _with_tables(game_map: GameMap, changes: dict[str, dict[str, Any]]) -> GameMap:
    """The map with some keys of its rules tables changed, as a GM's copy of
    the variant file would (Intercontinental's canal year, year cap)."""
    tables = dict(game_map.tables)
    for name, keys in changes.items():
        tables[name] = {**tables.get(name, {}), **keys}
    return replace(game_map, tables=tables)


@cache
def _test_variant(name: str) -> GameMap:
    """A variant file of the tests (tests/engine/data/NAME)."""
    return load_variant_file(Path(__file__).parent / "data" / name)


def run_case(case: dict[str, Any], game_map: GameMap | None = None) -> None:
    """``game_map``: the board to play on, when not the case's variant as
    shipped (a variant's rules tested before its rules module names them).
    A case may play on a test variant file (``variant_file``) and set the
    DPJudge RULE flags in force (``flags``, as a variant file writes them)."""
    if game_map is None:
        game_map = _test_variant(case["variant_file"]) if "variant_file" in case \
            else load_variant(case.get("variant", "standard"))
    if "flags" in case:
        game_map = replace(game_map, flags=in_force(case["flags"]))
    if "tables" in case:
        game_map = _with_tables(game_map, case["tables"])
    state = _check_phase(game_map, _start(game_map, case), case)
    for step in case.get("then", []):
        step = {"from_start": case.get("from_start", False), **step}
        if "phase" in step:
            assert str(state.phase) == step["phase"]
        state = _check_phase(game_map, state, step)
