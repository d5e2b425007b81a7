"""Runs test cases written in the DATC data format (tests/engine/datc/README.md).

Shared by the DATC cases and the project's own cases in tests/engine/cases/.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.game import adjudicate
from engine.map import GameMap
from engine.movement import retreat_options
from engine.orders import Order
from engine.outcomes import Reason
from engine.phase import Phase
from engine.state import Dislodged, GameState
from engine.units import Unit
from engine.variant_file import load_variant
from parser import OrderError, parse_order


def load_cases(folder: Path, pattern: str = "*.toml") -> list[Any]:
    cases = []
    for path in sorted(folder.glob(pattern)):
        for case in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
            cases.append(pytest.param(case, id=case["id"]))
    return cases


def _units(raw: dict[str, list[str]]) -> tuple[Unit, ...]:
    return tuple(Unit.parse(power, text) for power, texts in raw.items() for text in texts)


def _start(game_map: GameMap, case: dict[str, Any]) -> GameState:
    phase = Phase.parse(case.get("phase", "S1901M"))
    units = _units(case.get("units", {}))
    state = GameState(
        variant="standard",
        phase=phase,
        units=units,
        owners=GameState.make_owners(case.get("centres", {})),
        cd_distance=case.get("cd_distance", "owned"),
    )
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


def _orders(game_map: GameMap, raw: dict[str, list[str]]) -> tuple[
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


def _check_phase(game_map: GameMap, state: GameState, step: dict[str, Any]) -> GameState:
    orders, expected = _orders(game_map, step.get("orders", {}))
    resolution = adjudicate(game_map, state, orders)
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
    if "units" in expect:
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
    return following


def run_case(case: dict[str, Any]) -> None:
    game_map = load_variant("standard")
    state = _check_phase(game_map, _start(game_map, case), case)
    for step in case.get("then", []):
        if "phase" in step:
            assert str(state.phase) == step["phase"]
        state = _check_phase(game_map, state, step)
