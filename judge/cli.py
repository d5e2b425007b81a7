"""The `judge` command line (contract in docs/cli.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.variant_file import VariantError, load_variant_file


def _adjudicate_one(text: str) -> dict[str, object]:
    from judge.phase_json import PhaseInputError, adjudicate_json

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return {"error": f"not valid JSON: {exc}"}
    try:
        return adjudicate_json(data)
    except PhaseInputError as exc:
        return {"error": str(exc)}


def cmd_adjudicate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    if args.jsonl:
        status = 0
        for line in stdin:
            if not line.strip():
                continue
            out = _adjudicate_one(line)
            status = status or (2 if "error" in out else 0)
            stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        return status
    out = _adjudicate_one(stdin.read())
    json.dump(out, stdout, indent=2)
    stdout.write("\n")
    return 2 if "error" in out else 0


def cmd_variant_check(args: argparse.Namespace, stdout: TextIO) -> int:
    try:
        game_map = load_variant_file(args.file)
    except OSError as exc:
        stdout.write(f"{args.file}: cannot read: {exc.strerror}\n")
        return 2
    except VariantError as exc:
        for problem in exc.problems:
            stdout.write(f"{args.file}:{problem}\n")
        stdout.write(f"{len(exc.problems)} problem(s)\n")
        return 1
    centres = len(game_map.supply_centres)
    stdout.write(f"{args.file}: ok: {game_map.title}, {len(game_map.provinces)} provinces, "
                 f"{centres} supply centres, {len(game_map.powers)} powers\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="Play-by-email Diplomacy judge")
    sub = parser.add_subparsers(dest="command", required=True)
    adj = sub.add_parser("adjudicate", help="resolve one phase given as JSON on stdin")
    adj.add_argument("--jsonl", action="store_true", help="one phase per line in and out")
    variant = sub.add_parser("variant", help="variant data files")
    vsub = variant.add_subparsers(dest="variant_command", required=True)
    check = vsub.add_parser("check", help="validate a variant file and list every problem")
    check.add_argument("file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "adjudicate":
        return cmd_adjudicate(args, sys.stdin, sys.stdout)
    if args.command == "variant":
        return cmd_variant_check(args, sys.stdout)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
