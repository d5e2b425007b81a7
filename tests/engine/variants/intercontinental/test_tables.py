"""The variant file's tables only Intercontinental's rules read: [suez_canal]
(§5.2) and the optional [year_cap] (§2.2), checked when the file is loaded."""

from __future__ import annotations

from importlib import resources

import pytest

from engine.variant_file import VariantError, parse_variant

TEXT = (resources.files("engine") / "variants" / "intercontinental.toml").read_text(
    encoding="utf-8")


def problems(text: str) -> list[str]:
    with pytest.raises(VariantError) as caught:
        parse_variant(text, "intercontinental.toml")
    return [f"{p.where}: {p.message}" for p in caught.value.problems]


def test_5_2_the_shipped_file_opens_the_canal_in_1870() -> None:
    assert parse_variant(TEXT).tables["suez_canal"]["opens"] == 1870


def test_5_2_a_canal_year_that_is_no_year() -> None:
    found = problems(TEXT.replace("opens = 1870", 'opens = "soon"'))
    assert found == ["suez_canal.opens: opens is the year the canal opens"]


def test_5_2_a_canal_neighbour_that_is_not_on_the_board() -> None:
    found = problems(TEXT.replace('fleet = ["ALEX", "EMS", "PALE", "REDS", "UPPE"]',
                                  'fleet = ["ALEX", "EMS", "PALE", "REDS", "NOWHERE"]'))
    assert found == ["suez_canal.fleet: 'NOWHERE' is not a location beside SUEZ"]


def test_5_2_the_canal_table_is_required() -> None:
    start = TEXT.index("\n[suez_canal]\n")
    end = TEXT.index("coasts_before", start)
    assert problems(TEXT[:start] + TEXT[end:].split("\n", 1)[1]) == [
        "suez_canal: missing [suez_canal] table (§5.2)"]


def test_2_2_a_year_cap_is_a_year() -> None:
    assert parse_variant(TEXT + "\n[year_cap]\nlast_year = 1880\n").tables["year_cap"] == {
        "last_year": 1880}
    assert problems(TEXT + '\n[year_cap]\nlast_year = "fifteen"\n') == [
        "year_cap.last_year: last_year is the last year played, e.g. 1880"]
