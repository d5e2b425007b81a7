"""What a benchmark run counts, and how it is reported.

``Stats`` and ``Case`` hold what the run counted, phase by phase.
``summarise`` turns them into the summary written with ``--json``: the
comparison figures, the median timings and ratios, the known differences and
reporting conventions, the shrunk examples and every case where the engines
differ. ``print_summary`` prints it; ``print_replay`` prints the figures of
``--replay``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from differences import CONVENTIONS, KNOWN, PREFERENCES
from timing import machine


@dataclass
class Case:
    """A phase where the engines differ."""

    game: int
    phase: str
    what: str  # "movement", "outcome", "retreat", "adjustment", "centres", "legality"
    detail: list[str]
    explained_by: list[str]  # known differences, [] when unexplained
    units: dict[str, list[str]]
    centres: dict[str, list[str]]
    orders: dict[str, list[str]]


@dataclass
class Stats:
    """What a run counted and timed."""

    phases: Counter = field(default_factory=Counter)  # phase kind -> compared
    agreed: Counter = field(default_factory=Counter)  # phase kind -> positions equal
    explained: Counter = field(default_factory=Counter)  # known difference -> phases
    unexplained: Counter = field(default_factory=Counter)  # phase kind -> phases
    orders_compared: int = 0
    orders_agreed: int = 0
    conventions: Counter = field(default_factory=Counter)  # reporting convention -> orders
    centre_checks: int = 0
    centre_agreed: int = 0
    package_ns: list[int] = field(default_factory=list)
    package_core_ns: list[int] = field(default_factory=list)
    package_set_orders_ns: list[int] = field(default_factory=list)
    coverage: Counter = field(default_factory=Counter)  # what happened in movement phases
    saved: list[dict[str, Any]] = field(default_factory=list)  # movement phases, --save-phases
    engine_ns: list[int] = field(default_factory=list)
    engine_parse_ns: list[int] = field(default_factory=list)
    engine_parse_only_ns: list[int] = field(default_factory=list)
    units_per_phase: list[int] = field(default_factory=list)
    orders_per_phase: list[int] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    games: int = 0
    last_phases: list[str] = field(default_factory=list)
    retreats_not_compared: int = 0


def summarise(stats: Stats, args: argparse.Namespace, parse_ok: bool,
              parse_problems: Mapping[str, int], elapsed: float,
              examples: Mapping[str, Any]) -> dict[str, Any]:
    """The summary of a run, as written with --json."""
    s = stats

    def ms(values: list[int]) -> float | None:
        return round(statistics.median(values) / 1e6, 4) if values else None

    package_ms = ms(s.package_ns)
    engine_ms = ms(s.engine_ns)
    parse_ms = ms(s.engine_parse_ns)
    return {
        "machine": machine(),
        "settings": {"games": args.games, "years": args.years, "seed": args.seed},
        "games_played": s.games,
        "games_ended_at": dict(Counter(s.last_phases)),
        "seconds": round(elapsed, 1),
        "phases_compared": dict(s.phases),
        "phases_agreed": dict(s.agreed),
        "explained_by_known_differences": dict(s.explained),
        "movement_phases_differing_by": dict(Counter(
            "DATC preferences only" if all(t in PREFERENCES for t in c.explained_by)
            else "package bugs (and maybe preferences)"
            for c in s.cases if c.explained_by and c.phase.endswith("M"))),
        "unexplained": dict(s.unexplained),
        "retreat_phases_not_compared": s.retreats_not_compared,
        "orders_compared": s.orders_compared,
        "orders_agreed": s.orders_agreed,
        "order_outcomes_by_reporting_convention": dict(s.conventions),
        "centre_checks": s.centre_checks,
        "centre_checks_agreed": s.centre_agreed,
        "median_units_per_movement_phase": statistics.median(s.units_per_phase)
        if s.units_per_phase else None,
        "median_orders_per_movement_phase": statistics.median(s.orders_per_phase)
        if s.orders_per_phase else None,
        "movement_phase_coverage": dict(sorted(s.coverage.items())),
        "median_ms_per_movement_phase": {
            "package_set_orders": ms(s.package_set_orders_ns),
            "package_process": package_ms,
            "package_inner_process": ms(s.package_core_ns),
            "engine_parse": ms(s.engine_parse_only_ns),
            "engine_adjudicate": engine_ms,
            "engine_parse_and_adjudicate": parse_ms,
        },
        "mean_ms_per_movement_phase": {
            "package_process": round(statistics.fmean(s.package_ns) / 1e6, 4)
            if s.package_ns else None,
            "engine_adjudicate": round(statistics.fmean(s.engine_ns) / 1e6, 4)
            if s.engine_ns else None,
        },
        "ratio_package_over_engine": round(package_ms / engine_ms, 2)
        if package_ms and engine_ms else None,
        "ratio_package_over_engine_with_parsing": round(package_ms / parse_ms, 2)
        if package_ms and parse_ms else None,
        "ratio_package_set_orders_and_process_over_engine_parse_and_adjudicate": round(
            statistics.median(a + b for a, b in zip(s.package_set_orders_ns, s.package_ns,
                                                    strict=True)) / 1e6 / parse_ms, 2)
        if parse_ms and s.package_set_orders_ns else None,
        "parser": "parser.parse_order" if parse_ok else "not available",
        "parser_problems": dict(parse_problems),
        "known_differences": KNOWN,
        "reporting_conventions": CONVENTIONS,
        "examples": examples,
        "cases": [c.__dict__ for c in s.cases],
    }


def print_summary(summary: Mapping[str, Any], out: Any = sys.stdout) -> None:
    m = summary["median_ms_per_movement_phase"]

    def line(text: str) -> None:
        print(text, file=out)

    line(f"machine: {summary['machine']}")
    line(f"games: {summary['games_played']} {summary['settings']}, {summary['seconds']} s")
    line(f"phases compared: {summary['phases_compared']}; positions equal: "
         f"{summary['phases_agreed']}")
    line(f"explained by known differences: {summary['explained_by_known_differences']}")
    line(f"movement phases that differ, by cause: {summary['movement_phases_differing_by']}")
    line(f"unexplained: {summary['unexplained'] or 'none'}")
    line(f"retreat phases not compared (movement disagreed): "
         f"{summary['retreat_phases_not_compared']}")
    line(f"order outcomes compared: {summary['orders_compared']}, equal: "
         f"{summary['orders_agreed']}, reporting conventions: "
         f"{summary['order_outcomes_by_reporting_convention']}")
    line(f"centre ownership checks: {summary['centre_checks']}, equal: "
         f"{summary['centre_checks_agreed']}")
    line(f"median per movement phase: {summary['median_units_per_movement_phase']} units, "
         f"{summary['median_orders_per_movement_phase']} orders")
    line(f"median ms per movement phase: package set_orders() {m['package_set_orders']}, "
         f"package process() {m['package_process']}, "
         f"package _process() {m['package_inner_process']}, engine parse "
         f"{m['engine_parse']}, engine adjudicate() "
         f"{m['engine_adjudicate']}, engine parse+adjudicate {m['engine_parse_and_adjudicate']}")
    line(f"ratio package/engine: {summary['ratio_package_over_engine']} "
         f"(package process() over engine parse+adjudicate: "
         f"{summary['ratio_package_over_engine_with_parsing']}; package set_orders()+process() "
         "over engine parse+adjudicate: "
         f"{summary['ratio_package_set_orders_and_process_over_engine_parse_and_adjudicate']})")
    line(f"movement phase coverage: {summary['movement_phase_coverage']}")
    if summary["parser_problems"]:
        line(f"parser problems: {summary['parser_problems']}")
    for name, example in summary["examples"].items():
        line(f"example: {name}")
        line(f"  units {example['units']}")
        line(f"  orders {example['orders']}")
        line(f"  differences {example['differences']}")
    for case in summary["cases"]:
        if not case["explained_by"]:
            line(f"UNEXPLAINED game {case['game']} {case['phase']} {case['what']}: "
                 f"{case['detail']}")
            line(f"  units {case['units']}")
            line(f"  orders {case['orders']}")


def print_replay(summary: Mapping[str, Any]) -> None:
    for key, value in summary.items():
        print(f"{key}: {value}")
