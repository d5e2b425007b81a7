"""One place after ABUTS on a terrain line, and what its marks say.

Map.html's abut syntax: the case of the abbreviation says which units
cross (``TUS`` both, ``tus`` no fleet, ``Tus`` no army but by convoy);
``EI:NAF`` lets only the listed powers' units cross, ``:SKA`` none (a
one-way adjacency); ``AEG(CON,SMY)`` only a power owning those centres;
a leading or trailing ``~`` (a weak strait) or ``*`` (the Cape of Good
Hope rule) changes the strength of what crosses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(
    r"^(?:(?P<powers>[A-Za-z0-9]*):)?(?P<pre>[^A-Za-z0-9]*)(?P<place>[A-Za-z0-9]+(?:/[A-Za-z]+)?)"
    r"(?P<post>[^A-Za-z0-9(]*)(?:\((?P<centres>[^)]*)\))?(?P<tail>[^A-Za-z0-9]*)$")


@dataclass(frozen=True, slots=True)
class Abut:
    """Where a token leads and who may go: ``restriction`` says, when the
    crossing is limited in a way the engine has no word for, how."""

    location: str  # upper case: "TUS", "SPA/NC"
    army: bool
    fleet: bool
    one_way_block: bool = False  # ":SKA": nobody crosses from this side
    restriction: str | None = None


def read_abut(token: str) -> Abut | None:
    """The token's meaning, or None when it is no abut DPJudge knows."""
    found = _TOKEN.match(token)
    if not found:
        return None
    place = found.group("place")
    letters = [c for c in place.split("/")[0] if c.isalpha()]
    upper = all(c.isupper() for c in letters)
    lower = all(c.islower() for c in letters)
    army, fleet = True, True
    if lower and not upper:
        fleet = False
    elif not upper:
        army = False  # "Tys": fleets only, armies by convoy
    powers = found.group("powers")
    marks = found.group("pre") + found.group("post") + found.group("tail")
    restrictions = []
    if powers:
        restrictions.append(f"only units of the powers {', '.join(powers)} may cross")
    if found.group("centres") is not None:
        restrictions.append(f"only a power owning {found.group('centres')} may cross")
    if "~" in marks:
        restrictions.append("a weak strait (no support across, moves without strength)")
    if "*" in marks:
        restrictions.append("the Cape of Good Hope rule (half-strength moves, no support "
                            "across)")
    if set(marks) - set("~*"):
        restrictions.append(f"the mark {marks!r}")
    return Abut(place.upper(), army, fleet, one_way_block=powers == "",
                restriction="; ".join(restrictions) or None)


def bare_location(token: str) -> str:
    """The place a token names, upper case, without marks: "SPA/NC"."""
    found = _TOKEN.match(token)
    return found.group("place").upper() if found else token.upper()


def rename_token(token: str, old: str, new: str) -> str:
    """The token with the location ``old`` renamed ``new`` (both upper
    case), its marks and its case pattern kept."""
    found = _TOKEN.match(token)
    if not found or found.group("place").upper() != old:
        return token
    place = found.group("place")
    letters = place.split("/")[0]
    if letters.islower():
        renamed = new.lower()
    elif letters.isupper() or not letters[:1].isupper():
        renamed = new
    else:
        renamed = new[:1] + new[1:].lower()
    start, end = found.span("place")
    return token[:start] + renamed + token[end:]
