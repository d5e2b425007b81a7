"""docs/variants.md's table of the shipped DPJudge maps is the one the
variant files give (python -m judge.variant_import.catalogue --write)."""

from __future__ import annotations

from judge.variant_import.catalogue import DOCS, imported_variants, table, with_table


def test_the_docs_list_every_shipped_map_as_its_file_says() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert with_table(text) == text, "run python -m judge.variant_import.catalogue --write"
    assert table() in text


def test_the_named_maps_are_shipped_and_offered() -> None:
    shipped = set(imported_variants())
    rows = {line.split("`")[1]: line for line in table().splitlines() if line.startswith("| `")}
    for name in ("modern", "ancmed", "youngstown", "1900", "chaos", "hundred", "sengoku"):
        assert name in shipped
        assert rows[name].endswith("| yes |"), rows[name]  # offered to games
