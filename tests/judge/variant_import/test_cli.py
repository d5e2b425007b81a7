"""`judge variant import`: what it writes, what it reports and its exit status."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from judge.cli import main

DATA = Path(__file__).parent / "data"
TINY = DATA / "common" / "tiny.map"
CASES = DATA / "cases"


def _judge(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_a_written_file_passes_the_check(tmp_path: Path) -> None:
    target = tmp_path / "tiny.toml"
    code, out = _judge("variant", "import", str(TINY), "-o", str(target))
    assert code == 0, out
    assert out.splitlines()[0] == f"tiny.map: written to {target} (schematic board)"
    assert "  - no artwork: drawn as a schematic" in out.splitlines()
    assert _judge("variant", "check", str(target))[0] == 0
    assert 'name = "tiny"' in target.read_text(encoding="utf-8")


def test_name_and_title(tmp_path: Path) -> None:
    target = tmp_path / "x.toml"
    code, _ = _judge("variant", "import", str(TINY), "-o", str(target), "--name", "crowns",
                     "--title", "Three Crowns")
    assert code == 0
    text = target.read_text(encoding="utf-8")
    assert 'name = "crowns"\ntitle = "Three Crowns"\n' in text


def test_a_map_that_cannot_be_imported_exits_2(tmp_path: Path) -> None:
    target = tmp_path / "missing.toml"
    code, out = _judge("variant", "import", str(CASES / "missing_use" / "main.map"),
                       "-o", str(target))
    assert code == 2
    assert out.startswith("main.map: not imported: cannot read the map: cannot read nowhere")
    assert not target.exists()


def test_check_problems_are_reported(tmp_path: Path) -> None:
    code, out = _judge("variant", "import", str(CASES / "unknown_rule" / "main.map"),
                       "--maps", str(DATA / "common"), "-o", str(tmp_path / "p.toml"))
    assert code == 2
    assert "would not pass `judge variant check`" in out.splitlines()[0]
    assert "'FOO_BAR' is no DPJudge rule" in out


def test_unfinished_and_what_changes_play_are_marked(tmp_path: Path) -> None:
    code, out = _judge("variant", "import", str(CASES / "victory_by_year" / "main.map"),
                       "--maps", str(DATA / "common"), "-o", str(tmp_path / "v.toml"))
    assert code == 0
    lines = out.splitlines()
    assert lines[1].startswith("  unfinished: not offered to games")
    assert "  * main.map:2: 'VICTORY 5 4': a victory count changing by year is not " \
           "supported; the first, 5, is carried" in lines
    written = (tmp_path / "v.toml").read_text(encoding="utf-8")
    assert 'unfinished = "main.map:2: \'VICTORY 5 4\'' in written


def test_a_file_not_written_by_the_importer_is_never_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "kept.toml"
    target.write_text("# kept by hand\n", encoding="utf-8")
    code, out = _judge("variant", "import", str(TINY), "-o", str(target))
    assert code == 2
    assert "exists and was not written by judge variant import" in out
    assert target.read_text(encoding="utf-8") == "# kept by hand\n"


def test_an_imported_file_is_written_again(tmp_path: Path) -> None:
    target = tmp_path / "tiny.toml"
    assert _judge("variant", "import", str(TINY), "-o", str(target))[0] == 0
    assert _judge("variant", "import", str(TINY), "-o", str(target), "--title", "Again")[0] == 0
    assert 'title = "Again"' in target.read_text(encoding="utf-8")


def test_unreadable_artwork_falls_back_to_a_schematic(tmp_path: Path) -> None:
    art = tmp_path / "tiny.ps"
    art.write_text("%!PS-Adobe-3.0\nshowpage\n", encoding="latin-1")
    code, out = _judge("variant", "import", str(TINY), "--artwork", str(art),
                       "-o", str(tmp_path / "t.toml"))
    assert code == 0
    assert "(schematic board)" in out.splitlines()[0]
    assert any(line.startswith("  - artwork tiny.ps") for line in out.splitlines())


def test_the_name_is_the_output_files(tmp_path: Path) -> None:
    target = tmp_path / "crowns.toml"
    assert _judge("variant", "import", str(TINY), "-o", str(target))[0] == 0
    assert 'name = "crowns"\ntitle = "Crowns"\n' in target.read_text(encoding="utf-8")
