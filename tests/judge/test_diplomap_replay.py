"""`judge replay` on a Diplomap game: every phase is re-adjudicated on its
own board (the base map plus the changes stored with it), so a Spring that
split Paris and merged Moscow with Livonia, and the retreat phase after it
(read with Paris's old name), replay to the same results."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from judge import cli, games, order_entry, turns
from judge.config import Config
from judge.db import transaction
from judge.models import Game
from judge.passwords import hash_password
from judge.settings import parse_settings

pytestmark = pytest.mark.slow

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
ORDERS = {  # Spring 1901; the other units hold
    "FRANCE": ["A PAR H", "Draw Par/Pic - Par/Gas, SC with Bur"],
    "RUSSIA": ["F STP/SC - BOT", "A MOS - STP", "Erase Mos/Lvn"],
}


def diplomap_game(engine: Engine) -> None:
    settings, problems = parse_settings([("diplomap", "on")])
    assert not problems
    secret = hash_password("pw")
    with transaction(engine) as session:
        game = games.create_game(session, "redrawn", secret, "gm@x.test", settings)
        for power in POWERS:
            games.join(session, game, f"{power.lower()}@x.test", secret, power)
        games.start(session, game, START)
        state = games.current_state(session, game)
        for member in games.members(session, game, "player"):
            given = ORDERS.get(member.power, [])
            lines = [f"{u} H" for u in state.units_of(member.power)
                     if not any(line.startswith(f"{u} ") for line in given)]
            report = order_entry.submit_orders(session, game, member,
                                               list(enumerate([*lines, *given], 1)))
            assert not [n for n in report.notes if n.problem], report
        turns.process(session, game, Config(), START)
        assert game.phase == "S1901R"
        france = next(m for m in games.members(session, game, "player") if m.power == "FRANCE")
        report = order_entry.submit_orders(session, game, france, [(1, "A Par R Par-NW")])
        assert not [n for n in report.notes if n.problem], report
        turns.process(session, game, Config(), START)
        assert game.phase == "F1901M"


def test_replay_of_a_changed_board_agrees(db: Engine, db_url: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    diplomap_game(db)
    with transaction(db) as session:
        game = session.exec(select(Game)).one()
        state = games.current_state(session, game)
        assert "A PAR-NW" in [str(u) for u in state.units_of("FRANCE")]
        assert "MOS+LVN" in state.centres_of("RUSSIA")
    monkeypatch.setenv("JUDGE_DATABASE_URL", db_url)
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["replay", "redrawn"]) == 0, out.getvalue()
    assert "every stored phase re-adjudicates to the same result" in out.getvalue()
