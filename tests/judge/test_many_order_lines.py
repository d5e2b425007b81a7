"""A thousand order lines in one mail leave one order per unit on file:
each later order for a unit replaces the earlier, refused lines change
nothing (the issue's 1,000 lines once left 625 orders, 620 of them void)."""

from __future__ import annotations

import json
from itertools import cycle, islice

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from judge.intake.store import store_inbound
from judge.models import FiledLines, Game
from judge.processing import process_mail
from tests.judge.test_commands_by_mail import CONFIG, PRELUDES, _raw, _when

pytestmark = pytest.mark.slow

LINES = ["A PAR - BUR", "A PAR - PIC", "A MAR - SPA", "A MAR - MOS", "F BRE - MAO",
         "A BER - KIE", "F BRE - ENG", "A PAR - GAS", "A XYZ H"]


def test_a_thousand_lines_leave_one_order_per_unit(db: Engine) -> None:
    now = _when("2026-03-02T12:00Z")
    mails = [(m["from"], m["body"].replace("$settings", "")) for m in PRELUDES["seven"]["mail"]]
    body = "SIGNON france@g pw-france\n" + "\n".join(islice(cycle(LINES), 1000))
    mails.append(("france@players.test", body))
    for number, (sender, text) in enumerate(mails, start=1):
        inbound_id, _ = store_inbound(db, _raw(sender, "orders", text, number), "smtp")
        assert process_mail(db, CONFIG, inbound_id, now=now) == "done"
    with Session(db) as session:
        game = session.exec(select(Game).where(Game.name == "g")).one()
        rows = session.exec(select(FiledLines).where(FiledLines.game_id == game.id,
                                                     FiledLines.kind == "orders")).all()
        on_file = {r.power: json.loads(r.lines) for r in rows}
    # 1000 = 111 rounds of the 9 lines and one more: the last for each unit wins
    assert on_file == {"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - ENG"]}
