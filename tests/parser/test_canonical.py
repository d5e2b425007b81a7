"""The canonical-form fast lane must read every line it accepts exactly as the
full grammar does."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.map import UnitKind
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from engine.variant_file import load_variant
from parser.orders import _parser_for
from tests.examples import examples

MAP = load_variant("standard")
PARSER = _parser_for(MAP)
ROOT = Path(__file__).resolve().parents[2]


def both_agree(text: str) -> bool:
    """True when the fast lane accepted the line (and then it must agree)."""
    fast = PARSER.canonical.read(text)
    if fast is None:
        return False
    slow = PARSER.parse(text, 0, 1, fast_lane=False)
    assert fast == slow, (text, fast, slow)
    return True


def test_fast_lane_agrees_on_every_known_spelling() -> None:
    lines: list[str] = []
    spellings = tomllib.loads((ROOT / "tests/parser/spellings.toml").read_text())
    for group in spellings["spelling"]:
        for text, canonical in group["cases"]:
            lines.extend([text, canonical])
    for path in (ROOT / "tests/engine/datc").glob("*.toml"):
        for case in tomllib.loads(path.read_text())["case"]:
            for step in [case, *case.get("then", [])]:
                for orders in step.get("orders", {}).values():
                    lines.extend(o.split("|")[0] for o in orders)
    accepted = sum(both_agree(line) for line in lines)
    assert accepted > 20  # the canonical strings of spellings.toml at least


LOCATIONS = sorted(
    loc for prov in MAP.provinces for loc in MAP.locations_of(prov)
)
refs = st.builds(UnitRef, st.sampled_from(LOCATIONS),
                 st.sampled_from([None, UnitKind.ARMY, UnitKind.FLEET]))
places = st.sampled_from(LOCATIONS)
orders: st.SearchStrategy[Order] = st.one_of(
    st.builds(Hold, refs),
    st.builds(Move, refs, places, st.booleans()),
    st.builds(Move, refs, places, st.just(False),
              st.lists(st.sampled_from([p for p in MAP.provinces if MAP.is_water(p)]),
                       min_size=1, max_size=3).map(tuple)),
    st.builds(SupportHold, refs, refs),
    st.builds(SupportMove, refs, refs, places),
    st.builds(Convoy, refs, refs, places),
    st.builds(Retreat, refs, places),
    st.builds(Disband, refs),
    st.builds(Build, places, st.sampled_from([None, UnitKind.ARMY, UnitKind.FLEET])),
    st.builds(Remove, refs),
    st.just(Waive()),
)


@settings(max_examples=examples(400), deadline=None)
@given(orders, st.sampled_from([str.upper, str.lower, str.title]))
def test_fast_lane_agrees_with_the_grammar(order: Order, case: object) -> None:
    text = case(str(order))  # type: ignore[operator]
    assert both_agree(text) or text.upper() != str(order)
