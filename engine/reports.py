"""What a phase's results report besides its orders, in sections.

A section is a titled list of lines, each a sentence for the mail with the
typed value it says (its *fact*: a frozen dataclass of the variant's own,
such as Dissolution's violations). The engine and the variants build the
sections while they resolve a phase (rules hooks: ``after_movement``,
``map_stage``, ``report_sections``); the judge stores, mails and prints
them by looping over them, so a variant adds a report without the judge
or the mail templates naming it. A fact's JSON is derived from its fields
(:func:`fact_fields`), never listed by hand.

A section may be secret until the game ends (Diplomacy Point bids, §5.1.3):
the results mail leaves it out, the GM's tools and the end of the game
show it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.orders import Remove
from engine.outcomes import OrderResult, Why
from engine.plain import field_hints, to_plain

F = TypeVar("F")


@dataclass(frozen=True, slots=True)
class ReportLine:
    """One line of a section: its text, the power it concerns, and the
    typed value it says (None where the line is text alone)."""

    text: str
    power: str = ""
    fact: object = None

    def fields(self) -> dict[str, Any]:
        """The line as JSON: its power, its fact's fields and its text."""
        return {**({"power": self.power} if self.power else {}),
                **fact_fields(self.fact), "text": self.text}


@dataclass(frozen=True, slots=True)
class ReportSection:
    """A titled part of a phase's results besides the orders."""

    key: str  # its name in JSON (`judge adjudicate`, the stored results)
    title: str  # its heading in mails
    lines: tuple[ReportLine, ...]
    secret_until_end: bool = False  # shown to the GM only until the game ends
    # a word put before each line where several sections' lines share one
    # list (HISTORY: 'board: ...'); none by default
    label: str = ""

    @property
    def facts(self) -> tuple[Any, ...]:
        return tuple(line.fact for line in self.lines)


def section(key: str, title: str, facts: Iterable[F], text: Callable[[F], str],
            power: Callable[[F], str], secret_until_end: bool = False, label: str = "",
            ) -> tuple[ReportSection, ...]:
    """A section of one line per fact, or none when there are no facts (so
    that a phase without anything to say has no empty headings)."""
    lines = tuple(ReportLine(text(f), power(f), f) for f in facts)
    return (ReportSection(key, title, lines, secret_until_end, label),) if lines else ()


def fact_fields(fact: object) -> dict[str, Any]:
    """A fact's fields as JSON data, those at their default left out.

    A field holding a value the players write as text (an order, a bid) is
    written as that text, the form the parser reads back. A fact type may
    name a field differently in JSON (``json_names``) where its Python name
    cannot be the JSON one (Dissolution's kick ``from``)."""
    if fact is None or isinstance(fact, type) or not dataclasses.is_dataclass(fact):
        return {}
    kind = type(fact)
    renamed: Mapping[str, str] = getattr(kind, "json_names", {})
    defaults = {f.name: f.default for f in dataclasses.fields(fact)}
    out: dict[str, Any] = {}
    for name, hint in field_hints(kind).items():
        value = getattr(fact, name)
        if value == defaults.get(name, dataclasses.MISSING):
            continue
        out[renamed.get(name, name)] = _plain(value, hint)
    return out


def _plain(value: Any, hint: Any) -> Any:
    if dataclasses.is_dataclass(value) and type(value).__str__ is not object.__str__:
        return str(value)  # an order or a bid: as the players write it
    return to_plain(value, hint)  # a value of fields (a line's anchor): its fields


# -- who was destroyed and why --------------------------------------------------


@dataclass(frozen=True, slots=True)
class Destroyed:
    """A unit the rules took off the board without a retreat: dislodged
    where it may not retreat (stationary and unplayed units), destroyed by
    nuclear retaliation, or removed in civil disorder."""

    power: str
    unit: str  # 'A KHM'
    why: str  # the reason in words
    # the result row the engine added for it ('A KHM DISBAND'), or '' where
    # the unit's own order's result says it was dislodged
    order: str = ""

    def describe(self) -> str:
        return f"{self.power} {self.unit}: {self.why}"


DESTROYED_KEY = "destroyed"


def destroyed_section(gone: Iterable[Destroyed]) -> tuple[ReportSection, ...]:
    return section(DESTROYED_KEY, "Units destroyed", gone, Destroyed.describe,
                   lambda d: d.power)


def removed_in_disorder(results: Iterable[OrderResult]) -> tuple[Destroyed, ...]:
    """The units a Winter's civil disorder rule removed, from their results."""
    return tuple(Destroyed(r.power, str(r.order.unit), r.reason.describe(), str(r.order))
                 for r in results
                 if isinstance(r.order, Remove) and r.reason is not None
                 and r.reason.why is Why.CIVIL_DISORDER)
