"""What the results say of the neutral units (the units bids order), so
that a mail does not list a hundred of them holding.

A neutral unit is listed with the players' orders when its order came
from Diplomacy Point bids, or when it did something or something was done
to it: it moved, supported or convoyed (a paired minor's default support
too), it was attacked, or its order failed. The others held by default,
unattacked; one line counts them, and its fact keeps their result rows
(``unlisted``) so that the mail leaves them out and the stored results
still have every unit's row.

Who bid what stays secret until the game ends (the bids' own section,
engine/bids.py); this section says only which orders the bids gave,
as DPJudge's neutral orders do.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from engine.map import province_of
from engine.orders import Build, Hold, Waive
from engine.outcomes import OrderResult, Outcome
from engine.reports import ReportLine, ReportSection

NEUTRAL_KEY = "neutral_units"
NEUTRAL_TITLE = "Neutral units"


@dataclass(frozen=True, slots=True)
class OrderedByBids:
    """The neutral units whose orders came from bids this phase."""

    rows: tuple[tuple[str, str], ...]  # (power, order), as in the results above

    def describe(self) -> str:
        return ("Orders given by Diplomacy Point bids (who bid stays secret until "
                "the game ends): " + "; ".join(f"{p} {o}" for p, o in self.rows) + ".")


@dataclass(frozen=True, slots=True)
class NeutralsHeld:
    """The neutral units left out of the mail: each held by default and
    nobody moved against it."""

    unlisted: tuple[tuple[str, str], ...]  # (power, order) of each result row left out

    def describe(self) -> str:
        n = len(self.unlisted)
        return (f"{n} other neutral unit{'s' * (n != 1)} held by default and "
                f"{'were' if n != 1 else 'was'} not attacked (not listed above).")


def neutral_section(results: Sequence[OrderResult], neutral: Collection[str],
                    from_bids: Collection[str], attacked: Mapping[str, object],
                    ) -> tuple[ReportSection, ...]:
    """The section for a movement phase's ``results``. ``neutral``: the
    powers bids order; ``from_bids``: the provinces whose units' orders came
    from bids; ``attacked``: the provinces some unit moved against."""
    by_bids: list[tuple[str, str]] = []
    quiet: list[tuple[str, str]] = []
    for r in results:
        if r.power not in neutral or isinstance(r.order, (Build, Waive)):
            continue  # (no neutral unit is built in a movement phase)
        prov = province_of(r.order.unit.location)
        row = (r.power, str(r.order))
        if prov in from_bids:
            by_bids.append(row)
        elif (isinstance(r.order, Hold) and r.outcome is Outcome.SUCCEEDS
              and not attacked.get(prov)):
            quiet.append(row)
    lines = []
    if by_bids:
        fact = OrderedByBids(tuple(by_bids))
        lines.append(ReportLine(fact.describe(), "", fact))
    if quiet:
        held = NeutralsHeld(tuple(quiet))
        lines.append(ReportLine(held.describe(), "", held))
    return (ReportSection(NEUTRAL_KEY, NEUTRAL_TITLE, tuple(lines)),) if lines else ()
