"""A mail's lines of every kind the parser recognises are checked and filed
(judge/order_entry.py, judge/kinds/), so none is dropped unsaid: bids and
map orders by intakes of their own, a kind a variant adds by the plain
intake, which files what reads for the seat and answers the rest."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from engine.lines import LineKind
from engine.map import GameMap
from engine.phase import PhaseKind
from engine.rules import Rules
from judge import filed_lines, games, kinds, order_entry
from judge.db import transaction
from judge.kinds import bids as kinds_bids
from judge.kinds import map_orders as kinds_map_orders
from judge.models import Game, Member
from judge.passwords import hash_password
from judge.settings import GameSettings
from parser import OrderError, line_kinds
from parser.line_kinds import ORDERS, READERS, LineReader

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]

# a kind of line of a variant to come: "NOTE <words>", read in the moves only
NOTES: LineKind[str] = LineKind("notes", "notes", str, frozenset({PhaseKind.MOVEMENT}))


def _note(text: str, board: GameMap, line: int) -> str | OrderError:
    words = text.split(None, 1)[1:] if text.strip() else []
    if not words:
        return OrderError(line, 1, text, text, "a note needs some words")
    return words[0].strip()


def test_every_kind_a_mail_may_hold_is_read_by_its_own_intake_or_the_plain_one() -> None:
    assert all(reader.kind.name == name for name, reader in READERS.items())
    own = {name: kinds.intake(reader.kind) for name, reader in READERS.items()
           if name != ORDERS}
    assert own["bids"] is kinds_bids.intake and own["map_orders"] is kinds_map_orders.intake
    assert kinds.intake(NOTES) is kinds.as_read


@dataclass(frozen=True)
class _Game:
    session: Session
    game: Game
    france: Member


@pytest.fixture
def playing(db: Engine, monkeypatch: pytest.MonkeyPatch) -> Iterator[_Game]:
    """A standard game started, with the NOTES kind known to the parser."""
    readers = {"notes": LineReader(NOTES, _note, lambda t: t.upper().split()[:1] == ["NOTE"]),
               **READERS}
    monkeypatch.setattr(line_kinds, "READERS", readers)
    monkeypatch.setattr(order_entry, "READERS", readers)
    monkeypatch.setattr(kinds, "READERS", readers)
    secret = hash_password("pw")
    with transaction(db) as session:
        game = games.create_game(session, "notes", secret, "gm@x.test", GameSettings())
        for power in POWERS:
            games.join(session, game, f"{power.lower()}@x.test", secret, power)
        games.start(session, game, START)
        france = session.exec(select(Member).where(Member.game_id == game.id,
                                                   Member.power == "FRANCE")).one()
        yield _Game(session, game, france)


def declaring_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    class WithNotes(Rules):
        line_kinds = (*Rules.line_kinds, NOTES)

    rules = WithNotes()

    def rules_for(game_map: GameMap) -> Any:
        return rules
    monkeypatch.setattr(kinds, "rules_for", rules_for)


def test_a_kind_the_rules_read_is_filed_as_read(playing: _Game,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    declaring_notes(monkeypatch)
    report = order_entry.submit_orders(playing.session, playing.game, playing.france, [
        (1, "A PAR - BUR"), (2, "NOTE Burgundy is mine"), (3, "NOTE")])
    problems = {note.text: note.problem for note in report.notes}
    assert problems["A PAR - BUR"] == "" and problems["NOTE Burgundy is mine"] == ""
    assert problems["NOTE"] == "a note needs some words"
    assert filed_lines.on_file(playing.session, playing.game, NOTES) == {
        "FRANCE": ["Burgundy is mine"]}


def test_a_kind_the_rules_do_not_read_is_answered_not_filed(playing: _Game) -> None:
    report = order_entry.submit_orders(playing.session, playing.game, playing.france, [
        (1, "NOTE Burgundy is mine")])
    assert [n.problem for n in report.notes] == ["this game's rules read no notes"]
    assert filed_lines.on_file(playing.session, playing.game, NOTES) == {}


def test_a_mail_none_of_whose_lines_of_a_kind_reads_leaves_those_on_file(
        playing: _Game, monkeypatch: pytest.MonkeyPatch) -> None:
    declaring_notes(monkeypatch)
    order_entry.submit_orders(playing.session, playing.game, playing.france, [
        (1, "NOTE Burgundy is mine")])
    report = order_entry.submit_orders(playing.session, playing.game, playing.france, [
        (1, "NOTE")])
    assert [(n.problem, n.remark) for n in report.notes] == [(
        "a note needs some words",
        "none of this mail's notes reads: your notes on file are unchanged")]
    assert filed_lines.on_file(playing.session, playing.game, NOTES) == {
        "FRANCE": ["Burgundy is mine"]}
    order_entry.submit_orders(playing.session, playing.game, playing.france, [
        (1, "NOTE"), (2, "NOTE Picardy too")])  # one reads: it replaces them
    assert filed_lines.on_file(playing.session, playing.game, NOTES) == {
        "FRANCE": ["Picardy too"]}
