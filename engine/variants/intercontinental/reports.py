"""What a phase's results say of Intercontinental's own changes: each
additional home centre a Winter's build named (§9.1), and the Suez canal
opening (§5.2), found by comparing the phase's position before and after.
They are notes without a heading, under the results' other sections."""

from __future__ import annotations

from engine.map import GameMap
from engine.reports import ReportSection, section
from engine.state import GameState
from engine.variants.intercontinental import suez
from engine.variants.intercontinental.state import of


def phase_notes(game_map: GameMap, before: GameState, after: GameState) -> tuple[str, ...]:
    notes = [f"{power} names {centre} as its additional home centre (§9.1)"
             for power, centre in sorted(set(of(after).additional_homes)
                                         - set(of(before).additional_homes))]
    if not suez.is_open(game_map, before) and suez.is_open(game_map, after):
        canal = suez.canal(game_map)
        notes.append(f"The Suez canal opens from Spring {canal.opens} (§5.2): "
                     f"{canal.province} is one coast, and a fleet on either of "
                     "its coasts now stands in it")
    return tuple(notes)


def report_sections(game_map: GameMap, before: GameState,
                    after: GameState) -> tuple[ReportSection, ...]:
    return section("notes", "", phase_notes(game_map, before, after), str, lambda _: "")
