"""Time zones as written (judge/zones.py): vectors in data/zones.toml; and a
player's own zone shown beside the game's."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from judge.mail import format_deadline, in_own_zone
from judge.models import Game
from judge.settings import GameSettings
from judge.zones import ZoneError, tz, zone_name

DATA = tomllib.loads((Path(__file__).parent / "data" / "zones.toml").read_text("utf-8"))


@pytest.mark.parametrize("case", DATA["ok"], ids=[c["written"][0] for c in DATA["ok"]])
def test_zones_read(case: dict[str, Any]) -> None:
    for written in case["written"]:
        kept = zone_name(written)
        assert kept == case["kept"], written
        tz(kept)  # every zone kept can be used


@pytest.mark.parametrize("case", DATA["bad"], ids=[c["written"] for c in DATA["bad"]])
def test_zones_refused(case: dict[str, Any]) -> None:
    with pytest.raises(ZoneError) as refused:
        zone_name(case["written"])
    assert case["problem"] in str(refused.value)


def test_fixed_offsets_keep_their_name() -> None:
    moment = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
    assert format_deadline(moment, "UTC+05:30") == "Wed 01 Jul 2026 17:30 UTC+05:30"
    assert format_deadline(moment, zone_name("CET")) == "Wed 01 Jul 2026 14:00 CEST"


def test_own_zone_beside_the_games() -> None:
    game = Game(name="g", master_hash="", master_address="gm@x.test",
                deadline=datetime(2026, 3, 4, 12, tzinfo=UTC),
                grace_until=datetime(2026, 3, 4, 12, 0, 30, tzinfo=UTC))  # the same minute
    text = "due Wed 04 Mar 2026 12:00 UTC."
    assert in_own_zone(text, game, GameSettings(), "Asia/Tokyo") == \
        "due Wed 04 Mar 2026 12:00 UTC (Wed 04 Mar 2026 21:00 JST for you)."
    assert in_own_zone(text, game, GameSettings(), "") == text
    assert in_own_zone(text, game, GameSettings(), "UTC") == text
