"""Adjudication benchmark: this engine against the PyPI package ``diplomacy`` 1.1.2.

Plays random legal games with the ``diplomacy`` package (a bench-only
dependency, AGPL: the judge itself never imports it), and for every phase
adjudicates the same position and orders with this engine too:

* movement phases: the board after the phase, the dislodged units and where
  each may retreat, the legality of every order, and each order's outcome
  (succeeds / fails / void) are compared; both engines are timed;
* retreat phases: the board after the retreats (starting from this engine's
  own movement result, when that was the package's position);
* adjustment phases: the board after builds and removals (every power gives
  all the removals it owes, so no civil disorder rule is involved);
* after each Fall: supply centre ownership.

Where the engines differ, the known differences (two DATC preferences and
some of the package's bugs, see KNOWN in differences.py) are emulated to find
which account for it; what none accounts for is reported as unexplained and
shrunk to a small position.

Timing, per movement phase, with the garbage collector off while timing:
the package's ``Game.process()`` after ``set_orders()`` (and, apart, its inner
``Game._process()`` and ``set_orders()`` itself); this engine's
``engine.game.adjudicate()`` with orders already as values, and
``parser.parse_order`` on every order's DPJudge text followed by
``adjudicate()``.

This script is the command line and the run loop (``Bench``). The rest is in
sibling modules of this folder:

* package_games.py: random legal orders, and the package on a given position;
* conversion.py: the package's orders and positions as this engine's values,
  and both engines' results in one form;
* differences.py: the known differences, their emulation, the reporting
  conventions, and judging a movement phase;
* minimise.py: shrinking a disagreement to a small position;
* timing.py: how both engines are timed, and ``--replay``;
* report.py: what a run counts, its summary, and printing it.

Usage (see bench/README.md)::

    python bench/adjudication.py --games 100 --years 20 --seed 1 --json bench/out/result.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (ROOT, HERE):  # the judge's packages, and this script's sibling modules
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from conversion import (  # noqa: E402
    convert_order,
    engine_board,
    engine_state,
    package_position,
    unit_of,
)
from differences import (  # noqa: E402
    CONVOYED_RETREATS,
    FALLBACK,
    HEAD_TO_HEAD,
    OWN_UNIT_SUPPORT,
    RETREAT_INTO_OCCUPIED,
    RULE_1982,
    describe_difference,
    judge_movement,
)
from minimise import minimise  # noqa: E402
from package_games import (  # noqa: E402
    PackageGame,
    random_adjustment_orders,
    random_movement_orders,
    random_retreat_orders,
)
from report import Case, Stats, print_replay, print_summary, summarise  # noqa: E402
from timing import (  # noqa: E402
    INNER_PROCESS_NS,
    PARSER_AVAILABLE,
    parse_orders,
    replay,
    timed,
    timed_game_class,
    write_json,
)

from engine.game import Resolution, adjudicate  # noqa: E402
from engine.map import GameMap, UnitKind  # noqa: E402
from engine.orders import Move, Order  # noqa: E402
from engine.outcomes import Outcome  # noqa: E402
from engine.state import GameState  # noqa: E402
from engine.variant_file import load_variant  # noqa: E402


def coverage(game_map: GameMap, resolution: Resolution) -> Counter:
    """What happened in a movement phase, as this engine saw it."""
    seen: Counter = Counter()
    for result in resolution.results:
        order = result.order
        name = type(order).__name__.lower()
        seen[f"{name} orders"] += 1
        why = result.reason.why.value if result.reason else None
        if isinstance(order, Move):
            convoyed = order.via_convoy or not game_map.adjacent(
                order.unit.kind or UnitKind.ARMY, order.unit.location, order.dest)
            if result.outcome is Outcome.SUCCEEDS:
                seen["moves that succeed"] += 1
                if convoyed:
                    seen["convoyed moves that succeed"] += 1
            elif why in ("bounced", "beaten"):
                seen["moves that bounce"] += 1
            elif why in ("no convoy", "disrupted", "paradox"):
                seen[f"convoyed moves that fail: {why}"] += 1
        elif why == "cut":
            seen["supports cut"] += 1
        elif why == "paradox":
            seen["convoys held by the Szykman rule"] += 1
    seen["units dislodged"] += len(resolution.next.dislodged)
    return seen


class Bench:
    """One run: plays the games, compares every phase, and counts in ``stats``."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.map = load_variant("standard")
        self.stats = Stats()
        self.parse_ok = PARSER_AVAILABLE
        self.parse_problems: Counter = Counter()
        self.after_movement: GameState | None = None  # when positions agreed
        self.relaxed_retreats = False

    def case(self, game_no: int, phase: str, what: str, detail: list[str],
             explained_by: Iterable[str], position: tuple,
             orders: Mapping[str, Sequence[str]]) -> None:
        units, centres = position
        self.stats.cases.append(Case(
            game_no, phase, what, detail, list(explained_by),
            {p: sorted(us) for p, us in units.items() if us},
            {p: sorted(cs) for p, cs in centres.items() if cs},
            {p: list(os) for p, os in orders.items() if os}))

    def play(self, game_no: int) -> None:
        rng = random.Random(f"{self.args.seed}:{game_no}")
        game = timed_game_class()()
        last_year = 1900 + self.args.years
        self.after_movement = None
        while not game.is_game_done:
            phase = game.get_current_phase()
            if int(phase[1:5]) > last_year:
                break
            kind = phase[-1]
            position = (game.get_units(), game.get_centers())
            possible = game.get_all_possible_orders()
            orderable = game.get_orderable_locations()
            if kind == "M":
                orders = random_movement_orders(rng, possible, orderable)
            elif kind == "R":
                orders = random_retreat_orders(rng, possible, orderable)
            else:
                orders = random_adjustment_orders(rng, game)
            def set_orders(orders: Mapping[str, list[str]] = orders) -> None:
                for power, power_orders in orders.items():
                    game.set_orders(power, power_orders)

            _, set_ns = timed(set_orders)
            if kind == "M":
                self.stats.package_set_orders_ns.append(set_ns)
            # the orders as the package stored them (expanded), power by power
            stored = {p: game.get_orders(p) for p in game.powers}
            stored = {p: os for p, os in stored.items() if os}
            ours = {p: [convert_order(o, kind) for o in os] for p, os in stored.items()}
            if kind == "M":
                self.movement(game_no, game, phase, position, stored, ours)
            elif kind == "R":
                self.retreat(game_no, game, phase, position, stored, ours)
            else:
                self.adjustment(game_no, game, phase, position, stored, ours)
        self.stats.games += 1
        self.stats.last_phases.append(game.get_current_phase())

    # -- movement ---------------------------------------------------------

    def movement(self, game_no: int, game: Any, phase: str, position: tuple,
                 stored: Mapping[str, Sequence[str]], ours: Mapping[str, Sequence[Order]]
                 ) -> None:
        units, centres = position
        state = engine_state(self.map, phase, units, centres)
        # Each engine is timed right after its own order intake, as in a
        # judge: the package's process() follows its set_orders(); our
        # adjudicate() follows our parsing of the same order texts.
        engine_orders: Mapping[str, Sequence[Order]] = ours
        if self.parse_ok:
            texts = {p: [str(o) for o in os] for p, os in ours.items()}
            try:
                parsed, parse_ns = timed(lambda: parse_orders(self.map, texts))
                self.stats.engine_parse_only_ns.append(parse_ns)
                engine_orders = parsed
            except Exception as exc:  # report, don't stop
                self.parse_problems[f"{type(exc).__name__}: {exc}"[:120]] += 1
        resolution, engine_ns = timed(lambda: adjudicate(self.map, state, engine_orders))
        if self.stats.engine_parse_only_ns and engine_orders is not ours:
            self.stats.engine_parse_ns.append(self.stats.engine_parse_only_ns[-1] + engine_ns)
            direct = adjudicate(self.map, state, ours)
            if engine_board(direct.next) != engine_board(resolution.next) \
                    or direct.next.dislodged != resolution.next.dislodged:
                self.parse_problems["parsed orders adjudicate differently"] += 1
        before = len(INNER_PROCESS_NS)
        data, package_ns = timed(game.process)
        s = self.stats
        s.package_ns.append(package_ns)
        if len(INNER_PROCESS_NS) > before:
            s.package_core_ns.append(INNER_PROCESS_NS[-1])
        s.engine_ns.append(engine_ns)
        s.units_per_phase.append(len(state.units))
        s.orders_per_phase.append(sum(len(os) for os in stored.values()))
        s.phases["M"] += 1
        s.coverage.update(coverage(self.map, resolution))
        if self.args.save_phases:
            s.saved.append({"phase": phase, "units": units, "centres": centres,
                            "orders": {p: list(os) for p, os in stored.items()}})

        # legality: every order the package accepted should be legal here too
        illegal = [f"{r.power}: {r.order} ({r.reason.detail if r.reason else ''})"
                   for r in resolution.results if r.outcome is Outcome.ILLEGAL]
        if illegal:
            s.unexplained["legality"] += 1
            self.case(game_no, phase, "legality", illegal, [], position, stored)

        verdict = judge_movement(self.map, phase, units, centres, stored, resolution,
                                 package_position(game), data.results)
        s.orders_compared += verdict.outcomes_compared
        s.orders_agreed += verdict.outcomes_agreed
        s.conventions.update(verdict.conventions)
        if verdict.explained_by is None:
            s.unexplained["M"] += 1
            self.case(game_no, phase, "movement", verdict.differences, [], position, stored)
        elif verdict.explained_by:
            for tag in verdict.explained_by:
                s.explained[tag] += 1
            self.case(game_no, phase, "movement" if verdict.differences else "outcome",
                      verdict.differences or ["order outcomes only"], verdict.explained_by,
                      position, stored)
        if not verdict.differences:
            s.agreed["M"] += 1
        if verdict.odd_outcomes:
            s.unexplained["outcome"] += 1
            self.case(game_no, phase, "outcome", verdict.odd_outcomes, [], position, stored)

        # what the retreat phase starts from, when this engine's position is the package's
        comparable = verdict.explained_by is not None and not verdict.package_emulated
        after = verdict.engine.next
        self.after_movement = after if comparable else None
        self.relaxed_retreats = comparable and CONVOYED_RETREATS in (verdict.explained_by or ())
        if phase.startswith("F") and not after.dislodged and comparable:
            self.centres(game_no, game, phase, position, stored, after)

    def centres(self, game_no: int, game: Any, phase: str, position: tuple,
                stored: Mapping[str, Sequence[str]], after: GameState) -> None:
        self.stats.centre_checks += 1
        pkg = frozenset((c, p) for p, cs in game.get_centers().items() for c in cs)
        if pkg == frozenset(after.owners):
            self.stats.centre_agreed += 1
        else:
            self.stats.unexplained["centres"] += 1
            self.case(game_no, phase, "centres",
                      [describe_difference(pkg, frozenset(after.owners))], [], position, stored)

    # -- retreats -----------------------------------------------------------

    def retreat(self, game_no: int, game: Any, phase: str, position: tuple,
                stored: Mapping[str, Sequence[str]], ours: Mapping[str, Sequence[Order]]
                ) -> None:
        game.process()
        state, self.after_movement = self.after_movement, None
        if state is None or not state.dislodged:
            self.stats.retreats_not_compared += 1
            return
        self.stats.phases["R"] += 1
        resolution = adjudicate(self.map, state, ours)
        pkg_board, _ = package_position(game)
        eng_board = engine_board(resolution.next)
        if pkg_board == eng_board:
            self.stats.agreed["R"] += 1
        else:
            options = {str(d.unit): d.retreats for d in state.dislodged}
            outside = [o for os in stored.values() for o in os
                       if o.split()[2] == "R" and o.split()[3] not in options.get(unit_of(o), ())]
            if outside and self.relaxed_retreats:
                self.stats.explained[RETREAT_INTO_OCCUPIED] += 1
                tags = [RETREAT_INTO_OCCUPIED]
            else:
                self.stats.unexplained["R"] += 1
                tags = []
            self.case(game_no, phase, "retreat", [describe_difference(pkg_board, eng_board)], tags,
                      position, stored)
            return
        if phase.startswith("F"):
            self.centres(game_no, game, phase, position, stored, resolution.next)

    # -- adjustments -------------------------------------------------------

    def adjustment(self, game_no: int, game: Any, phase: str, position: tuple,
                   stored: Mapping[str, Sequence[str]], ours: Mapping[str, Sequence[Order]]
                   ) -> None:
        units, centres = position
        state = engine_state(self.map, phase, units, centres)
        game.process()
        self.stats.phases["A"] += 1
        resolution = adjudicate(self.map, state, ours)
        pkg_board, _ = package_position(game)
        eng_board = engine_board(resolution.next)
        if pkg_board == eng_board:
            self.stats.agreed["A"] += 1
        else:
            self.stats.unexplained["A"] += 1
            self.case(game_no, phase, "adjustment", [describe_difference(pkg_board, eng_board)], [],
                      position, stored)

    # -- the whole run -----------------------------------------------------

    def run(self) -> dict[str, Any]:
        started = time.perf_counter()
        for game_no in range(self.args.games):
            self.play(game_no)
            if self.args.verbose:
                print(f"game {game_no}: {self.stats.phases['M']} movement phases so far, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
            if self.args.max_seconds and time.perf_counter() - started > self.args.max_seconds:
                print(f"stopping after {game_no + 1} games: --max-seconds reached",
                      file=sys.stderr)
                break
        played = time.perf_counter() - started
        examples = self.examples() if self.args.examples else {}
        return summarise(self.stats, self.args, self.parse_ok, self.parse_problems,
                         played, examples)

    def examples(self) -> dict[str, Any]:
        """A small reproduction for each known difference, and for each
        unexplained movement disagreement (up to --examples of them)."""
        out: dict[str, Any] = {}
        for tag in (FALLBACK, OWN_UNIT_SUPPORT, CONVOYED_RETREATS, RULE_1982, HEAD_TO_HEAD):
            for case in self.stats.cases:
                if case.explained_by == [tag]:
                    found = minimise(self.map, case.phase, case.units, case.orders,
                                     lambda v, tag=tag: v.explained_by == (tag,))
                    if found:
                        out[tag] = found
                        break
        unexplained = [c for c in self.stats.cases
                       if c.what in ("movement", "outcome") and not c.explained_by]
        for i, case in enumerate(unexplained[:self.args.examples]):
            if case.what == "movement":
                found = minimise(self.map, case.phase, case.units, case.orders,
                                 lambda v: v.explained_by is None and bool(v.differences))
            else:
                found = minimise(self.map, case.phase, case.units, case.orders,
                                 lambda v: bool(v.odd_outcomes))
            if found:
                out[f"unexplained {case.what} {i + 1} (game {case.game} {case.phase})"] = found
        return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games to play (100)")
    parser.add_argument("--years", type=int, default=20, help="years per game at most (20)")
    parser.add_argument("--seed", default="1", help="random seed (1)")
    parser.add_argument("--json", type=Path, help="write the summary and every case as JSON")
    parser.add_argument("--examples", type=int, default=5,
                        help="shrink up to this many unexplained disagreements, and one "
                             "of each known difference, to small reproductions (5; 0: none)")
    parser.add_argument("--max-seconds", type=float, default=0,
                        help="stop after the game running when this many seconds have passed")
    parser.add_argument("--verbose", action="store_true", help="progress on stderr")
    parser.add_argument("--save-phases", type=Path,
                        help="also write every movement phase (position and orders) here, "
                             "for --replay")
    parser.add_argument("--replay", type=Path,
                        help="time only this engine on movement phases saved by --save-phases "
                             "(the package is not needed)")
    args = parser.parse_args(argv)
    if args.replay:
        print_replay(replay(args.replay))
        return 0
    if PackageGame is None:
        print("the comparison package is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    bench = Bench(args)
    summary = bench.run()
    print_summary(summary)
    if args.save_phases:
        args.save_phases.parent.mkdir(parents=True, exist_ok=True)
        args.save_phases.write_text(json.dumps(bench.stats.saved) + "\n")
    write_json(args.json, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
