"""Intercontinental's rules (W. Alex Ronke's variant, v1.1.2, CC BY-SA 4.0):
what differs from the standard game, as overrides of the rules hooks.

Section numbers (§) are those of the rule text. The board, the powers and
their traits (minor neutrals and affiliates ordered by bids and stationary,
§10) are data in ``engine/variants/intercontinental.toml``; the facts the text
gives are read by ``facts.py``. This module holds only the rules:

* combat (§10): stationary units are the resolver's, read from the powers'
  ``stationary`` trait, as in Dissolution;
* the map in force: Suez's split coasts until the canal opens, one coast
  after (§5.2, suez.py);
* the end of the year: a colour group's centres win at 72 with a strict lead
  (§2.0), the optional year cap ends the game in a draw (§2.2) (victory.py);
* adjustments: each major builds for itself in its home centres and one
  additional home centre it names by building there (§9.1, homes.py);
  minors and affiliates rebuild their starting unit (§9.2).

The Diplomacy Point hooks (bid_allowance, neutral_orders) are the base
class's here: diplomacy_points.py supplies them (§11).
"""

from __future__ import annotations

from engine.rules import Rules


class IntercontinentalRules(Rules):
    name = "intercontinental"
    # bid_allowance and neutral_orders: supplied by diplomacy_points.py (§11),
    # wired in when that module lands; until then the base class's (no bids).


RULES = IntercontinentalRules()
