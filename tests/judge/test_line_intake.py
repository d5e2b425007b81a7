"""A mail's lines of every kind the parser recognises are checked and filed
by an intake of their own (judge/order_entry.py), so none is dropped unsaid."""

from __future__ import annotations

from judge.order_entry import _INTAKE
from parser.line_kinds import ORDERS, READERS


def test_every_kind_a_mail_may_hold_besides_orders_has_an_intake() -> None:
    assert set(_INTAKE) == set(READERS) - {ORDERS}
