"""Reading a map and the files it uses (judge/variant_import/chain.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.variant_import.chain import ChainError, read_chain

DATA = Path(__file__).parent / "data"
COMMON = (DATA / "common",)


def test_a_map_that_uses_itself_is_refused() -> None:
    with pytest.raises(ChainError, match=r"cycle\.map uses itself"):
        read_chain(DATA / "chain" / "cycle.map")


def test_uses_names_several_files_and_map_names_the_artwork() -> None:
    chain = read_chain(DATA / "chain" / "uses.map", COMMON)
    assert chain.files == ("uses.map", "tiny.politics", "tiny.geography", "standard.military")
    assert chain.artwork == "standard"
    assert chain.lines[-1].text == "Fenwick"
    assert str(chain.lines[-1].where) == "standard.military:1"


def test_a_latin_1_file_is_read() -> None:
    chain = read_chain(DATA / "chain" / "latin1.map", COMMON)
    assert chain.lines[-1].text == "FEN -> Fénwijk = fen"
    assert str(chain.lines[-1].where) == "latin1.map:2"


def test_comments_and_blank_lines_are_left_out() -> None:
    chain = read_chain(DATA / "common" / "tiny.map")
    assert not any(line.text.startswith("#") or not line.text for line in chain.lines)
    assert chain.lines[0].text.split() == ["ARDEN", "(ARDENESE)", "ARD", "ASH"]
