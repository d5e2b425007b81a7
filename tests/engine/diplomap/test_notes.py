"""The board's changes said in words: a report section of Diplomap's map
stage (engine/diplomap/notes.py), one line per change with the change as
its fact, each named as the board it was made on names it."""

from __future__ import annotations

from engine.diplomap.notes import BOARD_CHANGES_KEY, change_notes
from engine.diplomap.state import of as diplomap
from engine.diplomap.values import Merge, Rename, Split
from engine.reports import fact_fields
from tests.engine.diplomap.runner import diplomap_standard, run

SPLIT_AND_MERGE = {"map_orders": [
    {"power": "FRANCE", "draw": [["PAR", "PIC"], ["PAR", "GAS"]], "centre": "SE"},
    {"power": "RUSSIA", "erase": ["MOS", "LVN"]}]}


def test_the_map_stage_reports_the_board_changes() -> None:
    _, resolution, _ = run(SPLIT_AND_MERGE)
    section = resolution.report(BOARD_CHANGES_KEY)
    assert section is not None and section.title == "The board changes"
    # the facts are the changes the phase made, in order
    assert section.facts == diplomap(resolution.next).map_changes
    split, merge = section.facts
    assert isinstance(split, Split) and isinstance(merge, Merge)
    assert [line.text for line in section.lines] == [
        "Paris (PAR) is now Southeast Paris (PAR-SE) and Northwest Paris (PAR-NW); "
        "the supply centre is in PAR-SE.",
        "Moscow (MOS) and Livonia (LVN) are now one province, Moscow and Livonia (MOS+LVN)."]
    # the section follows the map orders' fates, as the mail shows them
    keys = [s.key for s in resolution.reports]
    assert keys.index("map_results") + 1 == keys.index(BOARD_CHANGES_KEY)


def test_no_change_no_section() -> None:
    _, resolution, _ = run({"map_orders": [{"power": "RUSSIA", "erase": ["MOS", "PAR"]}]})
    assert resolution.report(BOARD_CHANGES_KEY) is None
    _, resolution, _ = run({})
    assert resolution.report(BOARD_CHANGES_KEY) is None


def test_each_change_is_named_on_the_board_the_changes_before_it_left() -> None:
    board = diplomap_standard()
    split = Split("GAL", ("GAL-N", "GAL-S"), ("North Galicia", "South Galicia"), 1,
                  *(_anchors()), "GAL")
    renamed = Rename("GAL-N", "LOD", "Lodomeria")
    assert change_notes(board, (split, renamed)) == [
        "Galicia (GAL) is now North Galicia (GAL-N) and South Galicia (GAL-S).",
        "North Galicia (GAL-N) is now called Lodomeria (LOD)."]


def test_a_change_line_in_json_says_what_kind_of_change_it_is() -> None:
    split = Split("GAL", ("GAL-N", "GAL-S"), ("North Galicia", "South Galicia"), 1,
                  *(_anchors()), "GAL", centre="GAL-S")
    fields = fact_fields(split)
    assert fields["split"] == "GAL" and fields["parts"] == ["GAL-N", "GAL-S"]
    assert fields["start"] == {"province": "GAL", "neighbour": "WAR", "at": 0.5}
    assert fact_fields(Rename("GAL-N", "LOD", "Lodomeria")) == {
        "rename": "GAL-N", "to": "LOD", "name": "Lodomeria"}
    assert fact_fields(Merge(("MOS", "LVN"), "MOS+LVN", "Moscow and Livonia"))["merge"] \
        == ["MOS", "LVN"]


def _anchors() -> tuple[object, object]:
    from engine.diplomap.values import Anchor
    return Anchor("GAL", "WAR", 0.5), Anchor("GAL", "RUM", 0.5)
