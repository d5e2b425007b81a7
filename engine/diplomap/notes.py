"""The board's changes said in words, for the results: a report section
(engine/reports.py) of one line per change a phase's map orders made, its
fact the change (Split, Merge, Rename) and its text the sentence the
results mail prints. Rule text ru12 by Michael Harvath (CC BY-SA 4.0)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.diplomap.values import MapChange, Merge, Rename, Split
from engine.map import GameMap
from engine.reports import ReportLine, ReportSection

BOARD_CHANGES_KEY = "board_changes"  # the section's key in JSON
BOARD_CHANGES_TITLE = "The board changes"
BOARD_CHANGES_LABEL = "board"  # before each line where sections share a list (HISTORY)


def change_notes(before: GameMap, changes: Sequence[MapChange]) -> list[str]:
    """The changes said in words, each on the board as the changes before
    it left it: 'Galicia (GAL) is now North Galicia (GAL-N) and South
    Galicia (GAL-S)'. ``before``: the board they were made on."""
    names = {code: province.name for code, province in before.provinces.items()}

    def name(code: str) -> str:
        return f"{names[code]} ({code})" if code in names else code

    notes: list[str] = []
    for change in changes:
        if isinstance(change, Split):
            text = (f"{name(change.province)} is now {change.names[0]} "
                    f"({change.parts[0]}) and {change.names[1]} ({change.parts[1]})")
            if change.centre:
                text += f"; the supply centre is in {change.centre}"
            names.update(zip(change.parts, change.names, strict=True))
        elif isinstance(change, Merge):
            first, second = change.provinces
            text = (f"{name(first)} and {name(second)} are now one province, "
                    f"{change.name} ({change.into})")
            names[change.into] = change.name
        elif isinstance(change, Rename):
            text = f"{name(change.code)} is now called {change.name} ({change.new_code})"
            names[change.new_code] = change.name
        notes.append(text + ".")
    return notes


def board_changes_section(before: GameMap, changes: Sequence[MapChange],
                          ) -> tuple[ReportSection, ...]:
    """The section of the changes made on the board ``before`` (none
    without changes). A change concerns no one power: its line has none."""
    lines = tuple(ReportLine(text, "", change)
                  for change, text in zip(changes, change_notes(before, changes), strict=True))
    return (ReportSection(BOARD_CHANGES_KEY, BOARD_CHANGES_TITLE, lines,
                          label=BOARD_CHANGES_LABEL),) if lines else ()
