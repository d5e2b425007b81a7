"""Reading Diplomacy Point bids (parser/bids.py): vectors in data/bids.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.bids import Bid
from engine.variant_file import load_variant
from parser import OrderError
from parser.bids import looks_like_bid, parse_bid

CASES = tomllib.loads((Path(__file__).parent / "data" / "bids.toml").read_text())["case"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["text"])
def test_bid(case: dict[str, Any]) -> None:
    assert looks_like_bid(case["text"])  # a bid gone wrong is answered as a bid
    got = parse_bid(case["text"], load_variant("dissolution"))
    if "bid" in case:
        assert isinstance(got, Bid) and str(got) == case["bid"]
    else:
        assert isinstance(got, OrderError) and case["error"] in got.message, got
