"""A variant shipped before its rules (``unfinished = "why"`` in its
[variant] table) is refused by CREATE with the reason. No shipped variant is
unfinished since Intercontinental is offered, so the reason is given here as
the variant file would give it."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine

from judge import games
from judge.db import transaction
from judge.games import GameError
from judge.passwords import hash_password
from judge.settings import GameSettings

REASON = "its rules are still being built"


def test_create_refuses_an_unfinished_variant(db: Engine,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "unfinished_reason",
                        lambda name: REASON if name == "dissolution" else None)
    with transaction(db) as session:
        with pytest.raises(GameError, match=f"variant 'dissolution' is not offered yet: {REASON}"):
            games.create_game(session, "early", hash_password("pw"), "gm@x.test",
                              GameSettings(variant="dissolution"))
        game = games.create_game(session, "later", hash_password("pw"), "gm@x.test",
                                 GameSettings(variant="intercontinental"))
        assert game.variant == "intercontinental"
