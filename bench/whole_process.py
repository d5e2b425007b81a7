"""Whole processes, exec to exit: the ``diplomacy`` package against ``judge adjudicate --jsonl``.

Plays random legal games with the package (bench-only, AGPL) until it has
``--phases`` standard phases of every kind (movement, retreats, adjustments),
and writes each twice, with the same position and orders: in the judge's
JSON phase form (docs/cli.md), one a line, and in the package's own form.
Then it times, as whole processes (wall clock from exec to exit, the median of
``--runs`` rounds that alternate the contenders):

* the package: bench/package_phases.py, which for each phase sets the position
  and orders on a ``Game`` and calls ``process()``;
* this judge: ``judge adjudicate --jsonl`` as the console script runs it
  (``from judge.cli import main``), importing this tree's code;
* optionally older judges: ``--rev REV`` (that commit's engine/, parser/ and
  judge/, unpacked with ``git archive``) or any ``--judge-cmd``.

Each run's output is checked before any figure is given: one line a phase, no
error, and for every phase the units after it as the package left them when
the phases were made. A phase where the two engines disagree at that time (the
known differences, bench/README.md) is left out of the file, and a retreat
phase is kept only after its movement phase, since its input is the judge's
``next`` of that phase. Any failure exits 1 with the reason and no figure.

It also times the start-up: one phase through each judge, and ``python -c pass``.

Usage::

    python bench/whole_process.py                      # 2,000 phases, 5 rounds
    python bench/whole_process.py --rev ad293ab --json bench/out/whole_process.json
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (ROOT, HERE):  # the judge's packages, and this script's sibling modules
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from conversion import convert_order  # noqa: E402
from package_games import (  # noqa: E402
    PackageGame,
    random_adjustment_orders,
    random_movement_orders,
    random_retreat_orders,
)
from package_phases import board_after  # noqa: E402

from engine.phase_input import PhaseInputError  # noqa: E402
from judge.phase_json import adjudicate_json  # noqa: E402

# the console script's own two lines (pyproject: judge = "judge.cli:main")
CONSOLE_SCRIPT = "import sys; from judge.cli import main; sys.exit(main())"
TIMEOUT_S = 900


class BenchFailure(Exception):
    """The bench stopped measuring: no figure may be given."""


@dataclass
class Phases:
    """The phases made, in both forms, and the units each leaves."""
    judge: list[dict[str, Any]] = field(default_factory=list)
    package: list[dict[str, Any]] = field(default_factory=list)
    expected: list[list[str]] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=lambda: {"M": 0, "R": 0, "A": 0})
    left_out: int = 0


def judge_board(result: Mapping[str, Any]) -> list[str]:
    """The units after a phase in the judge's output, in board_after's form."""
    following = result["next"]
    units = [f"{p} {u}" for p, us in following["units"].items() for u in us]
    units += [f"{p} *{u}" for p, entries in following.get("dislodged", {}).items()
              for u, entry in entries.items()
              if entry.get("retreats") and not entry.get("destroyed")]
    return sorted(units)


def make_phases(count: int, seed: str, years: int) -> Phases:
    """Random games played with the package until ``count`` phases agree."""
    made = Phases()
    game_no = 0
    while len(made.judge) < count:
        rng = random.Random(f"{seed}:{game_no}")
        game = PackageGame()
        following: dict[str, Any] | None = None  # the judge's next of the movement just kept
        while not game.is_game_done and len(made.judge) < count:
            phase = game.get_current_phase()
            if int(phase[1:5]) > 1900 + years:
                break
            kind = phase[-1]
            state = game.get_state()
            possible = game.get_all_possible_orders()
            orderable = game.get_orderable_locations()
            if kind == "M":
                orders = random_movement_orders(rng, possible, orderable)
            elif kind == "R":
                orders = random_retreat_orders(rng, possible, orderable)
            else:
                orders = random_adjustment_orders(rng, game)
            for power, power_orders in orders.items():
                game.set_orders(power, power_orders)
            stored = {p: list(game.get_orders(p)) for p in game.powers}
            stored = {p: os for p, os in stored.items() if os}
            game.process()
            expected = board_after(game)
            texts = {p: [str(convert_order(o, kind)) for o in os] for p, os in stored.items()}
            if kind == "R":
                if following is None or following["phase"] != phase:
                    made.left_out += 1
                    continue
                judge_in = {**following, "orders": texts}
            else:
                judge_in = {"phase": phase, "orders": texts,
                            "units": {p: us for p, us in state["units"].items() if us},
                            "centers": {p: cs for p, cs in state["centers"].items() if cs}}
            try:
                result: dict[str, Any] | None = adjudicate_json(judge_in)
            except PhaseInputError:
                result = None
            following = None
            if result is None or judge_board(result) != expected:
                made.left_out += 1  # a known difference: both would not do the same work
                continue
            if kind == "M":
                following = result["next"]
            made.judge.append(judge_in)
            made.package.append({"name": phase, "units": state["units"],
                                 "retreats": state["retreats"], "centers": state["centers"],
                                 "orders": stored})
            made.expected.append(expected)
            made.kinds[kind] += 1
        game_no += 1
    return made


def write_lines(path: Path, objects: Sequence[Mapping[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in objects))
    return path


@dataclass
class Contender:
    """A command timed on a file of phases: its label, argv, folder and environment."""
    label: str
    argv: list[str]
    cwd: Path
    env: dict[str, str]
    board: Any  # reads one output line into board_after's form
    times: list[float] = field(default_factory=list)
    start_up: list[float] = field(default_factory=list)


def judge_in_tree(label: str, tree: Path) -> Contender:
    """``judge adjudicate --jsonl`` importing the code of ``tree`` (not an installed copy)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return Contender(label, [sys.executable, "-c", CONSOLE_SCRIPT, "adjudicate", "--jsonl"],
                     tree, env, judge_board)


def judge_at_rev(rev: str, into: Path) -> Contender:
    """The judge of commit ``rev``: its engine/, parser/ and judge/ unpacked into ``into``."""
    found = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev,
                            "engine", "parser", "judge"], capture_output=True, check=False)
    if found.returncode:
        raise BenchFailure(f"--rev {rev}: git archive failed: {found.stderr.decode().strip()}")
    tree = into / rev.replace("/", "_")
    with tarfile.open(fileobj=io.BytesIO(found.stdout)) as archive:
        archive.extractall(tree, filter="data")
    return judge_in_tree(f"judge at {rev}", tree)


def run(contender: Contender, phases: Path, lines: int, expected: Sequence[list[str]]) -> float:
    """One timed run, exec to exit; its output checked phase by phase."""
    with phases.open("rb") as given:
        start = time.perf_counter()
        try:
            done = subprocess.run(contender.argv, stdin=given, capture_output=True,
                                  cwd=contender.cwd, env=contender.env, timeout=TIMEOUT_S,
                                  check=False)
        except subprocess.TimeoutExpired:
            raise BenchFailure(f"{contender.label}: no end after {TIMEOUT_S} s") from None
        elapsed = time.perf_counter() - start
    out = done.stdout.decode().splitlines()
    if done.returncode or len(out) != lines:
        raise BenchFailure(f"{contender.label}: exit status {done.returncode}, {len(out)} lines "
                           f"for {lines} phases; stderr: {done.stderr.decode()[-800:]}")
    for number, (line, units) in enumerate(zip(out, expected, strict=True), 1):
        try:
            answer = json.loads(line)
            if isinstance(answer, dict) and "error" in answer:
                raise BenchFailure(f"{contender.label}: phase {number}: {answer['error']}")
            board = contender.board(answer)
        except (ValueError, LookupError, TypeError, AttributeError) as exc:
            raise BenchFailure(f"{contender.label}: phase {number}: an answer that does not "
                               f"read ({type(exc).__name__}: {exc}): {line[:200]}") from None
        if board != units:
            raise BenchFailure(f"{contender.label}: phase {number}: the units after it are "
                               f"not the package's when the phases were made")
    return elapsed


def measure(contenders: Sequence[Contender], files: Mapping[str, Path],
            made: Phases, rounds: int) -> None:
    """An untimed warm-up (bytecode written, files cached), then ``rounds``
    rounds of every contender in turn, then the same for one phase."""
    for contender in contenders:
        run(contender, files[contender.label], len(made.expected), made.expected)
    for _ in range(rounds):
        for contender in contenders:
            contender.times.append(run(contender, files[contender.label],
                                       len(made.expected), made.expected))
    for _ in range(rounds):
        for contender in contenders:
            contender.start_up.append(run(contender, files[f"one {contender.label}"], 1,
                                          made.expected[:1]))


def bare_python(rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=2000, help="phases to time (2000)")
    parser.add_argument("--runs", type=int, default=5, help="timed rounds (5); the median")
    parser.add_argument("--seed", default="1", help="random seed of the games (1)")
    parser.add_argument("--years", type=int, default=10, help="years per game at most (10)")
    parser.add_argument("--rev", action="append", default=[],
                        help="also time the judge of this commit (repeatable)")
    parser.add_argument("--judge-cmd", action="append", default=[],
                        help="also time this command, which must read and write as "
                             "`judge adjudicate --jsonl` (repeatable)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    args = parser.parse_args(argv)
    if PackageGame is None:
        print("the comparison package is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    if args.phases < 1 or args.runs < 1:
        parser.error("--phases and --runs must be at least 1")
    try:
        return report(args, *bench(args))
    except BenchFailure as exc:
        print(f"FAILED, no figure: {exc}", file=sys.stderr)
        return 1


def bench(args: argparse.Namespace) -> tuple[Phases, list[Contender], float, float]:
    started = time.perf_counter()
    made = make_phases(args.phases, args.seed, args.years)
    making = time.perf_counter() - started
    package = Contender("package", [sys.executable, str(HERE / "package_phases.py")], ROOT,
                        dict(os.environ), lambda answer: answer)
    contenders = [package, judge_in_tree("judge", ROOT)]
    contenders += [Contender(f"--judge-cmd {i + 1}", shlex.split(cmd), Path.cwd(),
                             dict(os.environ), judge_board)
                   for i, cmd in enumerate(args.judge_cmd)]
    with tempfile.TemporaryDirectory(prefix="whole_process_") as scratch:
        folder = Path(scratch)
        contenders += [judge_at_rev(rev, folder) for rev in args.rev]
        files: dict[str, Path] = {}
        for contender in contenders:
            phases = made.package if contender is package else made.judge
            name = "package" if contender is package else "judge"
            files[contender.label] = folder / f"{name}.jsonl"
            files[f"one {contender.label}"] = folder / f"one_{name}.jsonl"
            write_lines(files[contender.label], phases)
            write_lines(files[f"one {contender.label}"], phases[:1])
        measure(contenders, files, made, args.runs)
    return made, contenders, making, bare_python(args.runs)


def report(args: argparse.Namespace, made: Phases, contenders: Sequence[Contender],
           making: float, bare: float) -> int:
    package = contenders[0]
    package_s = statistics.median(package.times)
    print(f"{len(made.expected)} phases ({made.kinds['M']} movement, {made.kinds['R']} retreat, "
          f"{made.kinds['A']} adjustment; {made.left_out} left out where the engines differ "
          f"or their movement phase was), made in {making:.0f} s; seed {args.seed}")
    print(f"median of {args.runs} rounds, wall clock from exec to exit; every output checked")
    print(f"{'':24} {'whole run s':>12} {'package / it':>13} {'one phase s':>12}")
    figures: dict[str, Any] = {"phases": len(made.expected), "kinds": made.kinds,
                               "left_out": made.left_out, "runs": args.runs, "seed": args.seed,
                               "python_c_pass_s": round(bare, 4), "contenders": {}}
    for contender in contenders:
        whole = statistics.median(contender.times)
        one = statistics.median(contender.start_up)
        ratio = package_s / whole
        print(f"{contender.label:24} {whole:12.3f} {ratio:13.2f} {one:12.3f}")
        figures["contenders"][contender.label] = {
            "whole_s": round(whole, 4), "runs_s": [round(t, 4) for t in contender.times],
            "package_over_it": round(ratio, 3), "one_phase_s": round(one, 4)}
    print(f"{'python -c pass':24} {'':12} {'':13} {bare:12.3f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
