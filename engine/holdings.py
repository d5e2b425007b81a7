"""What a player holds beside its units and supply centres, as the rules
tell it when the game starts: the variant's own pieces of a position
(Dissolution's Embassies on the Favor map, the affiliates an Intercontinental
colour group sponsors) and the variant's own orders a player gives beside the
standard game's (Dissolution's Embassy orders in Winter).

The rules build it (``Rules.holdings``); the judge's start mail prints it by
looping over it, as it prints a phase's report sections, so a variant adds
to what its players are told without the judge naming it. The units, the
centres, the Diplomacy Points and the seat's powers are the judge's to say:
every variant has them, through the standard hooks (``bid_allowance``, the
seats).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.reports import ReportSection


@dataclass(frozen=True, slots=True)
class OrderForm:
    """An order of the variant's own: when it is given, what it does, and an
    example written for one of the player's own pieces."""

    name: str  # 'Embassy orders'
    text: str  # when and what, with the rule's section
    example: str  # 'E N1q - N2q'


@dataclass(frozen=True, slots=True)
class Holdings:
    """What a seat holds besides units, centres and points, and its own orders."""

    sections: tuple[ReportSection, ...] = ()  # a titled list of lines each
    orders: tuple[OrderForm, ...] = ()


NOTHING = Holdings()
