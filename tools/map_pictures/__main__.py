"""Pictures of every map the judge mails, 1000 px wide, with an index.

    python -m tools.map_pictures OUT [--rev REV] [--only GAME ...]

Plays the games of tools/map_pictures/positions.toml (openings and played
phases with dislodged and lost units, Diplomap's changed boards) and
writes into OUT each PNG their start and results mails attach, scaled to
1000 px wide as a mail client shows it, and OUT/index.md listing each
picture with its map, phase, size in pixels and bytes, and each mail's
total attached bytes (the SVGs too).

The maps are drawn by this worktree's code, or with --rev by the code at
REV, checked out into a temporary worktree (removed afterwards) and run
with PYTHONPATH pointing at it; the positions are this worktree's on both
sides (the index gives a digest of each position drawn). Run it from the
repository root with PYTHONPATH=. and the project's venv; docs/maps.md
says more. Issue 24's before and after:

    python -m tools.map_pictures /tmp/pictures/before --rev 43d2361
    python -m tools.map_pictures /tmp/pictures/after
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tools.map_pictures.index import write_index, write_pictures

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
POSITIONS = HERE / "positions.toml"


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, text=True,
                          capture_output=True).stdout.strip()


@contextlib.contextmanager
def code_at(rev: str | None) -> Iterator[Path]:
    """The tree whose code draws: this one, or REV checked out in a
    temporary worktree, removed on the way out whatever happened."""
    if rev is None:
        yield ROOT
        return
    try:
        commit = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"map_pictures: no revision {rev!r} in {ROOT}") from None
    scratch = Path(tempfile.mkdtemp(prefix="map-pictures-"))
    tree = scratch / "tree"
    try:
        _git("worktree", "add", "--detach", str(tree), commit)
        yield tree
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            _git("worktree", "remove", "--force", str(tree))
        shutil.rmtree(scratch, ignore_errors=True)
        _git("worktree", "prune")  # in case the removal failed half way


def _described(tree: Path) -> str:
    found = subprocess.run(["git", "-C", str(tree), "log", "-1", "--format=%h (%s)"],
                           check=True, text=True, capture_output=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain"], check=True,
                           text=True, capture_output=True).stdout.strip()
    return f"the code at {found}" + (", with uncommitted changes" if dirty else "")


def draw(tree: Path, positions: Path, work: Path, only: Sequence[str]) -> dict[str, Any]:
    """draw.py run on ``tree``'s code: the manifest of the mails it drew."""
    command = [sys.executable, str(HERE / "draw.py"), str(positions), str(work)]
    for game in only:
        command += ["--only", game]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"map_pictures: drawing with {tree} failed (exit {done.returncode})")
    manifest: dict[str, Any] = json.loads((work / "manifest.json").read_text("utf-8"))
    if Path(str(manifest["drawn_by"])) != tree.resolve():
        # the venv's own install of the project came first on the path
        raise SystemExit(f"map_pictures: drawn by {manifest['drawn_by']}, not {tree}")
    return manifest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.map_pictures", description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[2:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="a new or empty folder for the pictures")
    parser.add_argument("--rev", help="draw with the code at this git revision (e.g. 43d2361)")
    parser.add_argument("--only", action="append", default=[], metavar="GAME",
                        help="only this game of the positions file (repeatable)")
    parser.add_argument("--positions", type=Path, default=POSITIONS,
                        help=f"the games to play (default: {POSITIONS.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    out: Path = args.out
    if out.exists() and any(out.iterdir()):
        parser.error(f"{out} is not empty: give a new or empty folder")
    positions = args.positions.resolve()
    with tempfile.TemporaryDirectory(prefix="map-pictures-work-") as work, \
            code_at(args.rev) as tree:
        manifest = draw(tree, positions, Path(work), args.only)
        out.mkdir(parents=True, exist_ok=True)
        mails = [(mail, write_pictures(Path(work), out, mail))
                 for mail in manifest["mails"]]
        drawn_by = _described(tree)
    shown = positions.relative_to(ROOT) if positions.is_relative_to(ROOT) else positions
    write_index(out, drawn_by, str(shown), mails)
    print(f"{out / 'index.md'}: {sum(len(p) for _, p in mails)} pictures of {len(mails)} mails,"
          f" {drawn_by}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
