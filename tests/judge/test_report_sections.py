"""Report sections as the judge stores and reads them (judge/reported.py):
results stored before sections existed read as sections with the lines
their mails printed, HISTORY shows them (the secret ones once the game is
over), and a unit the rules destroyed is told once."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session

from engine.game import adjudicate
from engine.map import UnitKind
from engine.orders import Move, SupportMove, UnitRef
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from judge import adjudicating, games, reported, turns
from judge.config import Config
from judge.db import transaction
from judge.models import Game
from judge.passwords import hash_password
from judge.settings import GameSettings

OLD = json.loads((Path(__file__).parent / "data" / "results_before_sections.json").read_text())
START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)

# what the mails and HISTORY of the time printed for OLD's reports
OLD_LINES = {
    "Map orders (Diplomap)": [
        "FRANCE    DRAW BUR/PIC - BUR/MUN: succeeded",
        "GERMANY   ERASE RUH/BUR: failed: two supply centres would be combined (§II.G.3)"],
    "Violations against nuclear powers": [
        "UKRAINE against RUSSIA: A KHK disabled the unit in MOS"],
    "Embassies kicked on the Favor map": ["UKRAINE's Embassy with RUSSIA kicked R2m - R1q"],
    "Diplomacy Point bids": [
        "POLAND    1: A BLR S KHK - MOS           counted",
        "ROMANIA   1: A Nowhere H                 ignored: unreadable: no such province"],
}


def _played_with_results(session: Session, config: Config, results: dict[str, Any]) -> Game:
    """A standard game "old" whose S1901M was played and whose stored
    results are then ``results`` (as an older judge wrote them)."""
    secret = hash_password("pw")
    game = games.create_game(session, "old", secret, "gm@x.test", GameSettings())
    for power in load_variant("standard").powers:
        games.join(session, game, f"{power.lower()}@x.test", secret, power)
    games.start(session, game, START)
    turns.process(session, game, config, START)
    record = games.phase_record(session, game, "S1901M")
    assert record is not None
    record.results = json.dumps(results)
    session.add(record)
    return game


def test_results_stored_before_sections_read_as_sections() -> None:
    sections = reported.read(OLD)
    assert {s.title: s.texts for s in sections} == OLD_LINES
    assert [s.title for s in sections if s.secret_until_end] == ["Diplomacy Point bids"]
    assert [s.key for s in reported.public(sections)] == ["map_results", "violations", "kicks"]


def test_history_shows_an_old_phase_and_its_bids_once_the_game_is_over(db: Engine) -> None:
    from judge.handlers import Context
    from judge.handlers.info import do_history
    from parser.commands import History

    config = Config(address="judge@judge.test")
    with transaction(db) as session:
        game = _played_with_results(session, config, OLD)
        ctx = Context(session=session, config=config, sender="x@x.test", now=START)
        running = do_history(ctx, History("old", "S1901M", "S1901M"))
        games.end_game(session, game, "terminated", "terminated by the GM")
        over = do_history(ctx, History("old", "S1901M", "S1901M"))
    public = [line for title, lines in OLD_LINES.items() if title != "Diplomacy Point bids"
              for line in lines]
    for title in OLD_LINES:  # each section under its title, the bids once it is over
        assert f"  {title}:" in over.splitlines()
        assert (f"  {title}:" in running.splitlines()) == (title != "Diplomacy Point bids")
    for line in public:
        assert f"    {line}" in running.splitlines() and f"    {line}" in over.splitlines()
    assert "A BLR S KHK" not in running
    assert "    POLAND    1: A BLR S KHK - MOS           counted" in over.splitlines()


def test_a_unit_the_rules_destroy_is_told_once() -> None:
    """A stationary unit dislodged is gone without a retreat: the engine's
    Disband row is in the stored results, and the mail and HISTORY say it
    under 'Units destroyed' only."""
    game_map = load_variant("dissolution")
    state = GameState.initial(game_map).evolve(units=(
        Unit("EGYPT", UnitKind.WING, "ASW"), Unit("ETHIOPIA", UnitKind.ARMY, "KHM"),
        Unit("ETHIOPIA", UnitKind.ARMY, "WDE")))
    orders = {"EGYPT": [Move(UnitRef("ASW"), "RED")],
              "ETHIOPIA": [Move(UnitRef("KHM"), "ASW"),
                           SupportMove(UnitRef("WDE"), UnitRef("KHM"), "ASW")]}
    resolution = adjudicate(game_map, state, orders)
    (gone,) = resolution.facts("destroyed")
    assert (gone.power, gone.unit, gone.order) == ("EGYPT", "W ASW", "W ASW DISBAND")
    stored = adjudicating.results_json(adjudicating.Adjudication(resolution, (), ()))
    assert any(r["order"] == "W ASW DISBAND" for r in stored["results"])  # type: ignore
    sections = reported.read(stored)
    assert reported.told_as_destroyed(sections) == {("EGYPT", "W ASW DISBAND")}
    (destroyed,) = [s for s in sections if s.key == "destroyed"]
    assert destroyed.texts == ["EGYPT W ASW: dislodged by the unit from KHM: "
                               "a stationary unit cannot retreat (§3.7)"]


# results stored after sections existed and before Diplomap reported the
# board's changes as one: the judge's sentences under "map_changes"
WITH_CHANGES = json.loads((Path(__file__).parent / "data"
                           / "results_with_map_changes.json").read_text())
CHANGES = WITH_CHANGES["map_changes"]


def test_board_changes_stored_as_sentences_read_as_a_section() -> None:
    sections = reported.read(WITH_CHANGES)
    assert [(s.key, s.title, s.label) for s in sections] == [
        ("map_results", "Map orders (Diplomap)", ""),
        ("map_changes", "The board changes", "board")]
    assert sections[1].texts == CHANGES
    # and before sections existed
    (only,) = reported.read({"results": [], "map_changes": CHANGES})
    assert only.texts == CHANGES and only.label == "board"


def test_history_shows_board_changes_stored_as_sentences(db: Engine) -> None:
    from judge.handlers import Context
    from judge.handlers.info import do_history
    from parser.commands import History

    config = Config(address="judge@judge.test")
    with transaction(db) as session:
        _played_with_results(session, config, WITH_CHANGES)
        ctx = Context(session=session, config=config, sender="x@x.test", now=START)
        shown = do_history(ctx, History("old", "S1901M", "S1901M")).splitlines()
    # as HISTORY printed them then: after the sections, each after 'board:'
    assert shown[-3:] == ["    RUSSIA    ERASE MOS/LVN: succeeded",
                          *(f"  board: {change}" for change in CHANGES)]


def test_the_board_changes_section_is_stored_with_its_label() -> None:
    """A phase whose map orders changed the board stores the changes as
    its section: each change's fields and sentence, the label in the index."""
    from engine.diplomap.in_force import with_diplomap
    from engine.diplomap.values import Erase

    game_map = with_diplomap(load_variant("standard"))
    state = GameState.initial(game_map)
    resolution = adjudicate(game_map, state, {}, map_orders={"RUSSIA": [Erase(("MOS", "LVN"))]})
    stored = adjudicating.results_json(adjudicating.Adjudication(resolution, (), ()))
    assert stored["board_changes"] == [
        {"merge": ["MOS", "LVN"], "into": "MOS+LVN", "name": "Moscow and Livonia",
         "erased": stored["board_changes"][0]["erased"],  # type: ignore[index]
         "text": "Moscow (MOS) and Livonia (LVN) are now one province, "
                 "Moscow and Livonia (MOS+LVN)."}]
    assert {"key": "board_changes", "title": "The board changes", "secret_until_end": False,
            "label": "board"} in stored["sections"]  # type: ignore[operator]
    (changes,) = [s for s in reported.read(stored) if s.key == "board_changes"]
    assert changes.label == "board" and len(changes.texts) == 1
