"""The `judge` command line (contract in docs/cli.md)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from engine.flags import unsupported_reason
from engine.seasons import unplayable as seasonal_unplayable
from engine.variant_file import VariantError, load_variant_file


def _adjudicate_one(text: str) -> dict[str, object]:
    from engine.phase_input import PhaseInputError
    from judge.phase_json import adjudicate_json

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
    rings = ("rings checked (Diplomap may be switched on)" if game_map.rings
             else "no rings (Diplomap is refused)")
    stdout.write(f"{args.file}: ok: {game_map.title}, {len(game_map.provinces)} provinces, "
                 f"{centres} supply centres, {len(game_map.powers)} powers, {rings}\n")
    unplayed = unsupported_reason(game_map.flags)
    seasons = seasonal_unplayable(game_map.flags, game_map.seasonal is not None)
    if unplayed:  # the file is sound, but CREATE will refuse it until the judge plays it
        stdout.write(f"{args.file}: not offered to games: {unplayed}\n")
    elif game_map.flow.unplayable:  # loads, but CREATE refuses it (unfinished_reason)
        stdout.write(f"{args.file}: not offered yet: {game_map.flow.unplayable}\n")
    elif seasons:
        stdout.write(f"{args.file}: not offered yet: {seasons}\n")
    return 0


def _config(args: argparse.Namespace) -> Any:
    from judge.config import load_config
    return load_config(Path(args.config) if args.config else None)


def cmd_serve(args: argparse.Namespace) -> int:
    import logging
    import signal
    import threading

    from judge.intake.smtp import ListenError
    from judge.service import Judge

    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's per-command chatter
    judge = Judge(_config(args))
    try:
        judge.start()
    except ListenError as exc:
        judge.stop()
        sys.stderr.write(f"judge: {exc}\n")
        return 1
    if judge.web is not None:  # the address to open, whatever the log level
        sys.stdout.write(f"judge: web view at {judge.config.web.url}\n")
        sys.stdout.flush()
    if not judge.config.relay_host:
        logging.getLogger("judge").info(
            "no relay configured: outgoing mail is written to the Maildir %s",
            judge.config.maildir.resolve())
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with contextlib.suppress(KeyboardInterrupt):
        stop.wait()
    judge.stop()
    return 0


def cmd_deliver(args: argparse.Namespace) -> int:
    from judge.config import ConfigError
    from judge.db import open_database
    from judge.intake.deliver import deliver

    try:
        config = _config(args)
    except ConfigError as exc:  # the MTA must keep the mail and retry, not bounce it
        sys.stderr.write(f"judge deliver: {exc}\n")
        return 75
    raw = sys.stdin.buffer.read(config.max_message_bytes + 1)
    try:
        engine = open_database(config.database_url)
    except Exception as exc:  # the MTA must retry later, not bounce
        sys.stderr.write(f"judge deliver: database unavailable: {exc}\n")
        return 75
    return deliver(engine, raw, max_message_bytes=config.max_message_bytes,
                   envelope_from="<>" if args.sender == "" else (args.sender or ""))


def cmd_games(args: argparse.Namespace, stdout: TextIO) -> int:
    from sqlmodel import col, select

    from judge.db import open_database, transaction
    from judge.models import Game

    engine = open_database(_config(args).database_url)
    with transaction(engine) as session:
        rows = session.exec(select(Game).order_by(col(Game.name))).all()
        stdout.write(f"{'game':<20} {'variant':<12} {'status':<11} {'phase':<8} deadline (UTC)\n")
        for game in rows:
            deadline = game.deadline.strftime("%Y-%m-%d %H:%M") if game.deadline else "-"
            stdout.write(f"{game.name:<20} {game.variant:<12} {game.status:<11} "
                         f"{game.phase or '-':<8} {deadline}\n")
    return 0


def cmd_replay(args: argparse.Namespace, stdout: TextIO) -> int:
    from judge.db import open_database
    from judge.replay import replay_game

    engine = open_database(_config(args).database_url)
    differences = replay_game(engine, args.game)
    if differences is None:
        stdout.write(f"no game called {args.game}\n")
        return 2
    for line in differences:
        stdout.write(line + "\n")
    if not differences:
        stdout.write(f"{args.game}: every stored phase re-adjudicates to the same result\n")
    return 1 if differences else 0


MAP_KINDS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def cmd_map(args: argparse.Namespace, stdout: TextIO) -> int:
    from judge import maps
    from judge.db import game_by_name, open_database, transaction
    from judge.games import GameError
    from judge.maps.stored import stored_scene

    out = Path(args.output)
    kind = MAP_KINDS.get(out.suffix.lower())
    if kind is None:
        stdout.write(f"{out}: the file must end in .png, .svg or .pdf\n")
        return 2
    engine = open_database(_config(args).database_url)
    with transaction(engine) as session:
        game = game_by_name(session, args.game)
        if game is None:
            stdout.write(f"no game called {args.game}\n")
            return 2
        try:
            game_map, scene = stored_scene(session, game, args.phase or game.phase)
        except GameError as exc:
            stdout.write(f"{exc}\n")
            return 2
    if args.other_board:
        data = maps.render_other_board(game_map, scene, kind)
        if data is None:
            stdout.write(f"{game.name}: the variant {game_map.name} has no other board\n")
            return 2
        out.write_bytes(data)
    else:
        out.write_bytes(maps.render(game_map, scene, kind))
    stdout.write(f"{out}: {game.name} {scene.phase}\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="Play-by-email Diplomacy judge")
    parser.add_argument("--config", help="a TOML file overriding config/judge.toml")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve", help="run the judge: SMTP listener, IMAP poller, deadlines, sender")
    dlv = sub.add_parser("deliver", help="store one mail read on stdin (for an MTA pipe)")
    dlv.add_argument("-f", "--sender", help="the envelope sender, if the MTA passes it")
    sub.add_parser("games", help="list the games in the database")
    rpl = sub.add_parser("replay", help="re-adjudicate a stored game and report differences")
    rpl.add_argument("game")
    drawn = sub.add_parser("map", help="draw a stored phase of a game as PNG, SVG or PDF")
    drawn.add_argument("game")
    drawn.add_argument("phase", nargs="?", help="default: the game's current phase")
    drawn.add_argument("-o", "--output", required=True, help="FILE.png, FILE.svg or FILE.pdf")
    drawn.add_argument("--other-board", action="store_true",
                       help="the variant's other board instead (Dissolution's Favor map)")
    adj = sub.add_parser("adjudicate", help="resolve one phase given as JSON on stdin")
    adj.add_argument("--jsonl", action="store_true", help="one phase per line in and out")
    variant = sub.add_parser("variant", help="variant data files")
    vsub = variant.add_subparsers(dest="variant_command", required=True)
    check = vsub.add_parser("check", help="validate a variant file and list every problem")
    check.add_argument("file")
    from judge.variant_import.cli import add_arguments

    add_arguments(vsub.add_parser("import", help="write a variant file from a DPJudge .map "
                                  "file, and report what it does not carry"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # the tools' commands read no configuration: they load no storage either
    # (judge.config pulls in the outbox, so SQLAlchemy: a third of a second)
    if args.command == "adjudicate":
        return cmd_adjudicate(args, sys.stdin, sys.stdout)
    if args.command == "variant" and args.variant_command == "import":
        from judge.variant_import.cli import cmd_variant_import

        return cmd_variant_import(args, sys.stdout)
    if args.command == "variant":
        return cmd_variant_check(args, sys.stdout)
    from judge.config import ConfigError

    try:
        return _run(args)
    except ConfigError as exc:
        sys.stderr.write(f"judge: {exc}\n")
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        return cmd_serve(args)
    if args.command == "deliver":
        return cmd_deliver(args)
    if args.command == "games":
        return cmd_games(args, sys.stdout)
    if args.command == "replay":
        return cmd_replay(args, sys.stdout)
    if args.command == "map":
        return cmd_map(args, sys.stdout)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
