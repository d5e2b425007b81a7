"""The units lost in a phase, on the maps the judge mails: the scenarios of
tests/judge/data/losses_by_mail.toml processed through the real store and
processing, each mail's ``lost`` read from the SVG attachments of the mails
it caused (the command scenarios' runner looks at attachments' names only).
"""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.intake.store import store_inbound
from judge.models import Outbox
from judge.processing import process_mail
from tests.judge.maps.test_losses import SVG, lost_marks
from tests.judge.test_commands_by_mail import CONFIG, DEFAULT_NOW, _mails, _raw, _when

pytestmark = pytest.mark.slow

SCENARIOS = tomllib.loads((Path(__file__).parent / "data" / "losses_by_mail.toml")
                          .read_text("utf-8"))["scenario"]


def _svg_attachments(engine: Engine, after: int) -> tuple[list[dict[str, bytes]], int]:
    """The SVG attachments of each mail queued after Outbox row ``after``, by name."""
    with Session(engine) as session:
        rows = session.exec(select(Outbox).where(col(Outbox.id) > after)
                            .order_by(col(Outbox.id))).all()
    found = []
    for row in rows:
        msg = message_from_bytes(row.raw, policy=policy.default)
        found.append({str(part.get_filename()): part.get_payload(decode=True)
                      for part in msg.iter_attachments()
                      if str(part.get_filename()).endswith(".svg")})
        after = max(after, row.id or 0)
    return found, after


@pytest.mark.parametrize("scenario", [pytest.param(s, id=s["name"]) for s in SCENARIOS])
def test_the_maps_mailed_draw_the_units_lost(db: Engine, scenario: dict[str, Any]) -> None:
    last = 0
    for number, mail in enumerate(_mails(scenario), start=1):
        where = f"mail {number} ({mail['body'].strip().splitlines()[0]!r})"
        inbound, created = store_inbound(db, _raw(mail["from"], f"mail {number}",
                                                  mail["body"], number), "smtp")
        assert created, where
        assert process_mail(db, CONFIG, inbound, now=_when(DEFAULT_NOW)) == "done", where
        sent, last = _svg_attachments(db, last)
        for name, units in mail.get("lost", {}).items():
            maps = [files[name] for files in sent if name in files]
            assert maps, f"{where}: no {name} in {[list(f) for f in sent]}"
            for svg in maps:
                root = ET.fromstring(svg)
                assert sorted(n for n, _ in lost_marks(root)) == sorted(units), where
                assert root.find(f".//{SVG}g[@class='key lost']") is not None, where
