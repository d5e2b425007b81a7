"""`python -m judge.variant_import.ship`: every map of a folder imported
into a folder of variants, one line per map."""

from __future__ import annotations

import io
from pathlib import Path

from judge.variant_import.ship import main, ship

SOURCES = Path(__file__).parent / "data" / "ship"


def test_each_map_is_imported_refused_or_skipped(tmp_path: Path) -> None:
    (tmp_path / "kept.toml").write_text("# a variant kept by hand\n", encoding="utf-8")
    artwork = tmp_path / "artwork"
    artwork.mkdir()
    outcomes = {o.map: o for o in ship(SOURCES, tmp_path, artwork)}
    assert outcomes["standard.map"].why == "skipped: a variant kept by hand"
    assert outcomes["kept.map"].why == "skipped: a variant kept by hand"
    assert outcomes["broken.map"].why.startswith("refused: cannot read the map")
    assert outcomes["crowns.map"].why == "imported, schematic"
    assert outcomes["tiny.map"].written
    assert sorted(p.name for p in tmp_path.glob("*.toml")) == ["crowns.toml", "kept.toml",
                                                               "tiny.toml"]
    assert (tmp_path / "kept.toml").read_text(encoding="utf-8") == "# a variant kept by hand\n"
    assert 'flags = ["BUILD_ANY"]' in (tmp_path / "crowns.toml").read_text(encoding="utf-8")


def test_the_artwork_a_map_line_names_is_taken_when_shipped(tmp_path: Path) -> None:
    artwork = tmp_path / "artwork"
    artwork.mkdir()
    (artwork / "tiny.ps").write_text("%!PS-Adobe-3.0\n", encoding="latin-1")
    outcomes = {o.map: o for o in ship(SOURCES, tmp_path, artwork, dry_run=True)}
    # tiny.ps is not dpmap's: read, found wanting, and the map drawn as a schematic
    assert outcomes["crowns.map"].why.startswith("imported, schematic (artwork tiny.ps ")
    assert outcomes["tiny.map"].why.startswith("imported, schematic (artwork tiny.ps ")
    assert not list(tmp_path.glob("*.toml"))


def test_the_command_prints_a_line_per_map() -> None:
    out = io.StringIO()
    assert main(["--dry-run"], out) == 0
    lines = out.getvalue().splitlines()
    assert any(line.startswith("standard.map") and "skipped" in line for line in lines)
    assert all(line.split()[0].endswith(".map") for line in lines)
