"""The readers of the kinds of line (parser/line_kinds.py): every kind the
rules declare has one, and a mail's lines go to the kind that claims them."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.diplomap.in_force import with_diplomap
from engine.variant_file import load_variant
from engine.variants import rules_for
from parser import OrderError
from parser.line_kinds import READERS, read_lines, reader, sort_mail

DATA = tomllib.loads((Path(__file__).parent / "data" / "line_kinds.toml").read_text())


@pytest.mark.parametrize("case", DATA["mail"], ids=lambda c: c["name"])
def test_a_mails_lines_go_to_their_kind(case: dict[str, Any]) -> None:
    lines = list(enumerate(case["lines"], start=1))
    got = sort_mail(lines)
    assert set(got) == set(READERS)
    for name in READERS:
        assert [n for n, _ in got[name]] == case[name], name


@pytest.mark.parametrize("variant", ["standard", "dissolution", "intercontinental"])
def test_every_kind_the_rules_declare_has_a_reader(variant: str) -> None:
    game_map = load_variant(variant)
    maps = [game_map, with_diplomap(game_map)] if game_map.rings else [game_map]
    for each in maps:
        for kind in rules_for(each).line_kinds:
            assert reader(kind) is READERS[kind.name]


def test_lines_read_again_give_values_and_what_does_not_read() -> None:
    game_map = load_variant("dissolution")
    kind = next(k for k in rules_for(game_map).line_kinds if k.name == "bids")
    values, unreadable = read_lines({"POLAND": ["1: A Blr H", "1: A Nowhere H"]},
                                    lambda text: reader(kind).read(text, game_map))
    assert [str(v) for v in values["POLAND"]] == ["1: A BLR H"]
    assert [(p, t) for p, t, _ in unreadable] == [("POLAND", "1: A Nowhere H")]
    assert isinstance(reader(kind).read("1: A Nowhere H", game_map), OrderError)
