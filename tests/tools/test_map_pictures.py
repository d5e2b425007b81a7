"""`python -m tools.map_pictures`: the pictures of the maps the judge
mails, 1000 px wide, with their index; the games it plays; the temporary
worktree of --rev, gone afterwards whatever happened."""

from __future__ import annotations

import io
import itertools
import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tools.map_pictures import __main__ as command
from tools.map_pictures.draw import scenes
from tools.map_pictures.index import MAIL_WIDTH, at_mail_width

GAMES = tomllib.loads(command.POSITIONS.read_text("utf-8"))["game"]


@pytest.mark.slow
def test_the_standard_opening_is_pictured_1000_px_wide_with_its_index(tmp_path: Path) -> None:
    out = tmp_path / "after"
    assert command.main([str(out), "--only", "standard"]) == 0
    picture = out / "standard-S1901M.png"
    width, height = Image.open(picture).size
    assert width == MAIL_WIDTH
    index = (out / "index.md").read_text("utf-8")
    row = next(line for line in index.splitlines() if line.startswith("| [standard-S1901M.png]"))
    assert f"{width} x {height} px, {picture.stat().st_size:,} bytes |" in row
    # the start mail's total: the PNG and the SVG it attaches
    total = re.search(r"attaches 2 files, ([\d,]+) bytes \(PNG ([\d,]+); SVG ([\d,]+)\)", index)
    assert total is not None
    whole, png, svg = (int(n.replace(",", "")) for n in total.groups())
    assert whole == png + svg and png == picture.stat().st_size
    assert sorted(p.name for p in out.iterdir()) == ["index.md", "standard-S1901M.png"]


def test_a_picture_wider_than_a_mail_is_scaled_to_its_width() -> None:
    wide = io.BytesIO()
    Image.new("RGB", (3200, 640), "#9ac0e0").save(wide, "PNG")
    scaled = Image.open(io.BytesIO(at_mail_width(wide.getvalue())))
    assert scaled.size == (MAIL_WIDTH, 200)


@pytest.mark.parametrize("game", [pytest.param(g, id=g["name"]) for g in GAMES])
def test_every_game_of_the_positions_file_plays_as_written(game: dict[str, Any]) -> None:
    """Each line reads (one the engine no longer reads would stop the
    command) and each phase is the next of the one before."""
    played = [(scene.phase, phase) for _, scene, phase in scenes(game)]
    assert len(played) == len(game.get("phase", [])) + ("position" not in game)
    for (drawn, _), (_, then) in itertools.pairwise(played):
        assert drawn == then


def test_the_temporary_worktree_is_removed_when_drawing_fails() -> None:
    with pytest.raises(RuntimeError), command.code_at("HEAD") as tree:
        assert (tree / "judge" / "maps").is_dir()
        raise RuntimeError("the drawing failed")
    assert not tree.exists()
    listed = subprocess.run(["git", "-C", str(command.ROOT), "worktree", "list"], check=True,
                            text=True, capture_output=True).stdout
    assert str(tree) not in listed
