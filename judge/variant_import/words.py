"""The words of DPJudge's map format (pages/Map.html) the reader knows:
directives, marks, and how codes and power names are compared."""

from __future__ import annotations

import re
import unicodedata

TERRAINS = frozenset({"COAST", "LAND", "WATER", "PORT", "SHUT"})

# directives of the game's running that change how it is played, not the board
UNSUPPORTED = {
    "CONTROL": "dummy powers played by another power",
    "ROTATE": "rotating the control of dummy powers",
    "TEAM": "teams of powers played by one player",
    "TEAMS": "teams of powers played by one player",
    "NEWHOMES": "home centres reassigned during the game",
    "LEAGUE": "leagues restricting supports and convoys",
    "RESERVES": "reserve units above the centre count",
    "MILITIA": "militia units above the centre count",
}
# directives about the web pages and the judge keeper, not the game
OUTSIDE_THE_GAME = {
    "FLAG": "a power's flag on the web pages",
    "FLAGS": "the maps the web pages take flags from",
    "NOTIFY": "the map's author's address, for DPJudge's keeper",
}

# the directives whose words after the first are codes of places
CODES_FOLLOW = TERRAINS | {"AMEND", "DROP", "UNOWNED", "NEUTRAL", "CENTERS", "OWNS",
                            "INHABITS", "HOME", "HOMES", "A", "F"}
PLACE_NAME = re.compile(r"^(?:(?P<old>\S+)\s*->\s*)?(?P<name>.+?)\s*=\s*(?P<codes>.*)$")
POWER = re.compile(
    r"^(?:(?P<old>[^\s(]+)\s*->\s*)?(?P<name>[^\s(]+)\s*(?:\((?P<own>[^)]*)\))?\s*(?P<rest>.*)$")
POWER_NAME = re.compile(r"[^\W\d][\w+.-]*")
CENTRE = re.compile(r"[-~&+*@]*(?=\w*[^\W\d])\w{2,3}(?:/\w+)?(?:\([\w,]*\))?[!?]?")
HOME_MARKS = {
    "&": "a home centre claimed by building in it",
    "+": "a factory site (builds where there is no supply centre)",
    "*": "a partisan site (builds while some home centres are lost)",
    "@": "an alternative home centre",
}


def ascii_code(text: str) -> str:
    """A code as the variant file writes it: DPJudge's translated maps
    write ``ÉDI`` and ``BÜL``; the variant file's codes are ASCII letters,
    so the accents go (the names and aliases keep them)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def power_key(name: str) -> str:
    """How DPJudge's lines name one power: any case, with or without its
    leading underscores (which only sort it last) and its plus signs (which
    only capitalise a letter): ``U+S+A`` is ``USA``."""
    return ascii_code(name).upper().lstrip("_").replace("+", "")
