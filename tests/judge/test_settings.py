"""Game settings as GMs write them, and the deadlines they give."""

from __future__ import annotations

import tomllib
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from judge.settings import GameSettings, next_deadline, parse_settings

DATA = Path(__file__).parent / "data"
DEADLINES = tomllib.loads((DATA / "deadlines.toml").read_text())["case"]
SETTINGS = tomllib.loads((DATA / "settings.toml").read_text())


@pytest.mark.parametrize("case", DEADLINES, ids=[c["name"] for c in DEADLINES])
def test_next_deadline(case: dict[str, Any]) -> None:
    settings, problems = parse_settings([tuple(pair) for pair in case["settings"]])
    assert problems == []
    absences = [(date.fromisoformat(a), date.fromisoformat(b))
                for a, b in case.get("absences", [])]
    due = next_deadline(settings, case["kind"], datetime.fromisoformat(case["now"]), absences)
    assert due == datetime.fromisoformat(case["due"])


@pytest.mark.parametrize("case", SETTINGS["ok"])
def test_good_settings(case: dict[str, Any]) -> None:
    settings, problems = parse_settings([tuple(pair) for pair in case["lines"]])
    assert problems == []
    described = dict(settings.describe())
    for key, value in case["expect"].items():
        assert described[key] == value
    assert GameSettings.from_json(settings.to_json()) == settings


@pytest.mark.parametrize("case", SETTINGS["bad"], ids=[c["problem"] for c in SETTINGS["bad"]])
def test_bad_settings(case: dict[str, Any]) -> None:
    _, problems = parse_settings([tuple(pair) for pair in case["lines"]])
    assert len(problems) == 1 and case["problem"] in problems[0]


def test_settings_round_trip_with_a_layer() -> None:
    settings, problems = parse_settings([("variant", "standard"), ("diplomap", "on")])
    assert not problems and settings.layers == ("diplomap",)
    assert GameSettings.from_json(settings.to_json()) == settings


def test_settings_stored_before_layers_keep_diplomap_on() -> None:
    """A game created when Diplomap was a setting of its own (`"diplomap":
    true`) is still played with it."""
    stored = GameSettings.from_json('{"variant": "standard", "diplomap": true}')
    assert stored.layers == ("diplomap",)
    assert GameSettings.from_json('{"variant": "standard", "diplomap": false}').layers == ()
