"""The maps the judge mails for each game of a positions file, drawn by
the code found on the import path: run as a script by
``python -m tools.map_pictures`` with PYTHONPATH set to the tree to draw
with (this worktree, or a temporary checkout of an older revision).

    python tools/map_pictures/draw.py POSITIONS.toml WORK [--only GAME ...]

It writes each PNG attachment into WORK and WORK/manifest.json: per mail,
its game, phase and every attachment's name, type and size.

The same file runs against old code, so it keeps to entry points that
every revision since 43d2361 (the last before issue 24's maps) has: the
phase JSON's readers (judge/phase_json.py, docs/cli.md), the engine's
``adjudicate``, and the two calls that attach maps to mails,
``maps.attachments_or_none(game_map, Scene(game, opening))`` as the start
mail does (judge/start_mail.py) and
``maps.attachments_or_none(game_map, scene_after(game, resolution))`` as
the results mail does (judge/turns.py). It imports nothing from tools/,
which the old trees lack.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
import tomllib
from collections.abc import Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from engine.game import Resolution, adjudicate
from engine.layers import with_layers
from engine.lines import ORDERS
from engine.map import GameMap
from engine.phase_context import phase_context
from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.ways_to_play import player_counts, setup
from judge import maps
from judge.maps.scene import Scene, scene_after
from judge.phase_json import read_state, write_state
from parser.line_kinds import read_lines, reader


class PositionError(ValueError):
    """A game of the positions file that cannot be played as written."""


class _Failures(logging.Handler):
    """The maps the judge could not draw: it logs them and mails without them."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        reason = f": {record.exc_info[1]!r}" if record.exc_info else ""
        self.messages.append(record.getMessage() + reason)


def _game_map(game: Mapping[str, Any]) -> GameMap:
    """The game's map as the judge builds it from a game's settings
    (judge/games.py map_of): the variant, its options, its layers."""
    game_map = load_variant(game["variant"])
    rules = rules_for(game_map)
    options = tuple((str(key), rules.read_option(game_map, str(key), str(value)))
                    for key, value in game.get("options", {}).items())
    if options:
        game_map = rules.with_options(game_map, options)
    return with_layers(game_map, tuple(game.get("layers", ())))


def _start(game: Mapping[str, Any]) -> tuple[GameMap, GameState]:
    """The position the game's first phase is played from: the variant's
    opening (as the judge sets up a game), or the position the file gives
    in the phase JSON's keys."""
    if "position" in game:
        return read_state({"variant": game["variant"],
                           "options": dict(game.get("options", {})),
                           **{layer: True for layer in game.get("layers", ())},
                           **game["position"]})
    game_map = _game_map(game)
    players = game.get("players", max(player_counts(game_map)))
    return game_map, setup(game_map, players, game.get("seed", 0))


def _played(game_map: GameMap, state: GameState, given: Mapping[str, Any],
            where: str) -> Resolution:
    """One phase adjudicated from its lines as the judge reads them at the
    deadline (judge/adjudicating.py): each kind of line the phase's rules
    read, under the phase JSON's key for that kind ("orders", "bids",
    "map_orders"). A line that does not read is the file's mistake."""
    context = phase_context(game_map, state)
    lines: dict[str, Mapping[str, Any]] = {}
    for kind in context.rules.line_kinds:
        texts = {str(power): [str(t) for t in texts]
                 for power, texts in given.get(kind.name, {}).items()}
        lines[kind.name], unread = read_lines(
            texts, partial(reader(kind).read, board=context.reading))
        if unread:
            raise PositionError(f"{where}: lines that do not read: {unread}")
    orders = ORDERS.given(lines)
    del lines[ORDERS.name]
    return adjudicate(game_map, state, orders, lines=lines, context=context)


def _digest(game_map: GameMap, state: GameState) -> str:
    """The position's phase JSON, hashed: the same position drawn by two
    revisions has the same digest (the index shows it)."""
    text = json.dumps(write_state(game_map, state), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _mail(work: Path, game: Mapping[str, Any], game_map: GameMap, scene: Scene, played: str,
          failures: _Failures) -> dict[str, Any]:
    """The maps a mail attaches (a start mail's, or with ``played`` the
    results mail's of that phase): the PNGs written into ``work``, every
    attachment listed."""
    files = maps.attachments_or_none(game_map, scene)
    for name, _, data in files:
        if name.endswith(".png"):
            (work / name).write_bytes(data)
    entry = {"game": game["name"], "title": game.get("title", ""),
             "mail": "results" if played else "start", "played": played,
             "phase": scene.phase, "position": _digest(game_map, scene.position),
             "failures": list(failures.messages),
             "files": [{"name": name, "type": kind, "bytes": len(data)}
                       for name, kind, data in files]}
    failures.messages.clear()
    return entry


def scenes(game: Mapping[str, Any]) -> Iterator[tuple[GameMap, Scene, str]]:
    """What each of the game's mails with maps draws, with the phase whose
    results it carries ('' for the start mail): the start mail's (when the
    game starts from the opening), then a results mail per phase played."""
    name = game["name"]
    game_map, state = _start(game)
    if "position" not in game:
        yield game_map, Scene(name, state), ""
    for number, given in enumerate(game.get("phase", []), start=1):
        resolution = _played(game_map, state, given, f"{name}, phase {number} ({state.phase})")
        yield game_map, scene_after(name, resolution), str(state.phase)
        state = resolution.next


def play(game: Mapping[str, Any], work: Path, failures: _Failures) -> list[dict[str, Any]]:
    """The game's mails, their maps drawn."""
    return [_mail(work, game, game_map, scene, played, failures)
            for game_map, scene, played in scenes(game)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", type=Path)
    parser.add_argument("work", type=Path)
    parser.add_argument("--only", action="append", default=[], metavar="GAME")
    args = parser.parse_args(argv)
    games = tomllib.loads(args.positions.read_text("utf-8"))["game"]
    unknown = set(args.only) - {g["name"] for g in games}
    if unknown:
        parser.error(f"no game {', '.join(sorted(unknown))} in {args.positions}")
    failures = _Failures()
    logging.getLogger(maps.__name__).addHandler(failures)
    args.work.mkdir(parents=True, exist_ok=True)
    mails = []
    for game in games:
        if not args.only or game["name"] in args.only:
            mails.extend(play(game, args.work, failures))
    (args.work / "manifest.json").write_text(json.dumps(
        {"drawn_by": str(Path(maps.__file__).resolve().parents[2]), "mails": mails},
        indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
