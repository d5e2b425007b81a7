"""What happened to each order, and why, as data.

Result mails explain every failed order from these values; nothing here is
prose until :meth:`Reason.describe` is asked for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.orders import Order


class Outcome(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"
    VOID = "void"
    ILLEGAL = "illegal"


class Why(StrEnum):
    """The kinds of reason an order did not simply succeed."""

    BOUNCED = "bounced"  # standoff: equal or stronger rival moves
    BEATEN = "beaten"  # lost to the unit holding (or defending) the destination
    OWN_UNIT = "own unit"  # would have dislodged a unit of its own power
    DISLODGED = "dislodged"
    CUT = "cut"  # support cut by an attack
    NO_CONVOY = "no convoy"  # convoy orders do not form a route
    DISRUPTED = "disrupted"  # convoying fleets dislodged
    PARADOX = "paradox"  # convoy paradox, Szykman rule
    NOT_MATCHED = "not matched"  # support/convoy of an order that was not given
    RETREAT_CLASH = "retreat clash"  # two retreats to one province
    TOO_MANY = "too many"  # builds/removes beyond the allowance
    CIVIL_DISORDER = "civil disorder"  # removed (or built) by the civil disorder rule
    SORTIE = "sortie"  # a stationary unit's move: never moves (Dissolution §3.7)
    DISABLES = "disables"  # prevailed on an invulnerable unit: disabled it (§3.8)
    DISABLED = "disabled"  # the unit was disabled: its support or convoy is void (§3.9)
    CRISS_CROSS = "criss-cross"  # lost the head-to-head of two convoyed attacks (§3.11.1)
    RETALIATION = "retaliation"  # destroyed in a nuclear power's territory at zero Favor
    RETREATED = "retreated"  # moved by the rules, not by an order (Embassies, §11.7.3)
    ILLEGAL = "illegal"


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an order had its outcome, as the results tell it."""

    why: Why
    units: tuple[str, ...] = ()  # the other units involved, by location
    strength: int | None = None  # this order's strength
    against: int | None = None  # the strongest opposing strength
    detail: str = ""  # for illegal orders: what exactly is wrong; else words the reason adds

    def describe(self) -> str:
        who = ", ".join(self.units)
        odds = f" ({self.strength} v {self.against})" if self.strength is not None else ""
        match self.why:
            case Why.BOUNCED:
                units = "unit" if len(self.units) == 1 else "units"
                return f"bounced by the {units} from {who}{odds}"
            case Why.BEATEN:
                return f"held off by the unit in {who}{odds}"
            case Why.OWN_UNIT:
                return f"would dislodge own unit {who}"
            case Why.DISLODGED:
                also = f": {self.detail}" if self.detail else ""
                return f"dislodged by the unit from {who}{also}"
            case Why.CUT:
                return f"support cut by the unit from {who}"
            case Why.NO_CONVOY:
                return f"no convoy route: {who} did not convoy" if who else "no convoy route"
            case Why.DISRUPTED:  # detail: how each was stopped, where one was disabled
                gone = self.detail or (f"{who} dislodged" if who else "")
                return "convoy disrupted" + (f": {gone}" if gone else "")
            case Why.PARADOX:
                return self.detail or \
                    "convoy paradox (Szykman rule): the convoy does not take place"
            case Why.NOT_MATCHED:
                if self.detail:
                    return self.detail
                return f"the unit in {who} was not ordered to do that" if who else \
                    "the unit named was not ordered to do that"
            case Why.RETREAT_CLASH:
                return f"retreated to the same province as {who}; both disbanded"
            case Why.TOO_MANY:
                return self.detail or "more orders than the power may give"
            case Why.CIVIL_DISORDER:  # detail: a build the rule made (CD_BUILDS)
                return self.detail or "removed by the civil disorder rule"
            case Why.SORTIE:
                disabled = f"; disabled the unit in {who}" if who else ""
                return f"a sortie: a stationary unit never moves{disabled}{odds}"
            case Why.DISABLES:
                return f"the invulnerable unit in {who} stays: disabled{odds}"
            case Why.DISABLED:
                return f"disabled by the unit from {who}: its support or convoy is void"
            case Why.RETREATED:
                return self.detail or "retreated"
            case Why.RETALIATION:
                return "destroyed by nuclear retaliation: " + (
                    self.detail or "zero Favor in that territory")
            case Why.CRISS_CROSS:
                return f"criss-cross convoys: beaten by the convoyed attack from {who}{odds}"
            case Why.ILLEGAL:
                return self.detail
        return self.why.value

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"why": self.why.value, "text": self.describe()}
        if self.units:
            data["units"] = list(self.units)
        if self.strength is not None:
            data["strength"] = self.strength
            data["against"] = self.against
        return data


def illegal(detail: str) -> Reason:
    return Reason(Why.ILLEGAL, detail=detail)


@dataclass(frozen=True, slots=True)
class OrderResult:
    """One order given, what became of it and why."""

    power: str
    order: Order
    outcome: Outcome
    reason: Reason | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "order": str(self.order),
            "outcome": self.outcome.value,
            "reason": self.reason.to_json() if self.reason else None,
        }
