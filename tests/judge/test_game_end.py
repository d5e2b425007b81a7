"""A solo victory ends the game: the results say who won, everyone is told
the game is over, and nothing more happens at its deadline."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from engine.map import UnitKind
from engine.phase import Phase
from engine.units import Unit
from judge import games, snapshots
from judge.config import Config
from judge.db import transaction
from judge.handlers import Context, finish_mail
from judge.models import Game, Outbox
from judge.order_entry import submit_orders
from judge.passwords import hash_password
from judge.scheduler import attend
from judge.settings import GameSettings

pytestmark = pytest.mark.slow

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
# France holds 17 centres in Fall 1905 and A BUR can take the 18th, Belgium
FRENCH = ["BRE", "PAR", "MAR", "SPA", "POR", "LON", "LVP", "EDI", "HOL", "KIE", "MUN",
          "BER", "DEN", "NWY", "SWE", "TUN", "NAP"]


def near_win(engine: Engine) -> int:
    secret = hash_password("pw")
    with transaction(engine) as session:
        game = games.create_game(session, "endgame", secret, "gm@x.test", GameSettings())
        for power in POWERS:
            games.join(session, game, f"{power.lower()}@x.test", secret, power)
        games.start(session, game, START)
        record = games.phase_record(session, game)
        assert record is not None
        state = snapshots.loads(record.state)
        others = [(c, p) for c, p in state.owners if c not in FRENCH and c != "BEL"]
        state = state.evolve(
            phase=Phase.parse("F1905M"),
            units=(Unit("FRANCE", UnitKind.ARMY, "BUR"), Unit("ITALY", UnitKind.ARMY, "ROM")),
            owners=tuple(sorted([*((c, "FRANCE") for c in FRENCH), *others])))
        record.phase = game.phase = "F1905M"
        record.state = snapshots.dumps(state)
        session.add(record)
        session.add(game)
        assert game.id is not None
        return game.id


def subjects(engine: Engine) -> dict[str, set[str]]:
    with Session(engine) as session:
        rows = session.exec(select(Outbox)).all()
    out: dict[str, set[str]] = {}
    for row in rows:
        msg = message_from_bytes(row.raw, policy=policy.default)
        envelope = json.loads(row.recipients)
        if len(envelope) > 1:  # the players never see each other's addresses
            assert str(msg["To"]) == "Players of endgame:;"
        out.setdefault(str(msg["Subject"]), set()).update(envelope)
    return out


def test_solo_victory_ends_the_game(db: Engine) -> None:
    game_id = near_win(db)
    config = Config(address="judge@judge.test")
    with transaction(db) as session:
        game = session.get(Game, game_id)
        assert game is not None
        members = {m.power: m for m in games.members(session, game, "player")}
        submit_orders(session, game, members["FRANCE"], [(1, "A BUR - BEL")])
        submit_orders(session, game, members["ITALY"], [(1, "A ROM H")])
        ctx = Context(session=session, config=config, sender="france@x.test", now=START)
        ctx.early.append(game)
        text = finish_mail(ctx)
        from judge.outbox import queue
        for mail in ctx.mails:
            queue(session, mail, config)
    assert "F1905M has been processed" in text
    with Session(db) as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert (game.status, game.result, game.deadline) == (
            "finished", "solo victory: FRANCE", None)
    sent = subjects(db)
    everyone = {f"{p.lower()}@x.test" for p in POWERS} | {"gm@x.test"}
    assert sent["Diplomacy results endgame F1905M"] == everyone
    assert sent["Diplomacy game endgame is over"] == everyone
    with Session(db) as session:
        rows = session.exec(select(Outbox)).all()
    bodies = [message_from_bytes(r.raw, policy=policy.default).get_body(("plain",))
              for r in rows]
    texts = [b.get_content() for b in bodies if b is not None]
    assert any("FRANCE has won the game." in t for t in texts)
    assert any("Game endgame is over: solo victory: FRANCE." in t for t in texts)
    # a finished game has no deadline work left
    assert attend(db, config, game_id, START + timedelta(days=30)) == 0
