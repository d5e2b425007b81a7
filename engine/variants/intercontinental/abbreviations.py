"""The abbreviation rubric of the Intercontinental rules, §5.4.

The rules give a priority list, applied to the name as it is written on the
map (its *label*):

1. a label that states its abbreviation in brackets uses it
   ("East Mediterranean Sea [EMS]" -> "EMS");
2. a name of more than four letters gives its first four letters, ignoring
   spaces, punctuation and diacritics ("Syr-Darya" -> "SyrD",
   "Zakáspiya" -> "Zaka");
3. a name of exactly three or four letters is its own abbreviation, without
   diacritics ("Suez", "Van");
4. the special case the text names: the Sea of Azov is labelled "Azov" on the
   map, and that is its abbreviation.

The case of the letters is kept as written: the text's own examples are
"SyrD" and "Anka", not "SYRD" and "ANKA".
"""

from __future__ import annotations

import re
import unicodedata

# §5.4 rule 4: the only special case the text gives.
SPECIAL_CASES: dict[str, str] = {"Sea of Azov": "Azov"}

# Letters that Unicode does not decompose into a base letter plus a mark,
# so stripping combining marks alone would drop them ("Wrocław", "Đại Nam").
_UNDECOMPOSED: dict[str, str] = {
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O",
    "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
}

_BRACKETED = re.compile(r"\[([^\]]+)\]")


class AbbreviationError(ValueError):
    """A name the rubric cannot abbreviate (fewer than three letters)."""


def plain_letters(name: str) -> str:
    """The letters of a name, without diacritics, spaces or punctuation."""
    name = "".join(_UNDECOMPOSED.get(char, char) for char in name)
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(char for char in decomposed if char.isascii() and char.isalpha())


def abbreviate(label: str) -> str:
    """The §5.4 abbreviation of a map label."""
    bracketed = _BRACKETED.search(label)
    if bracketed:
        return bracketed.group(1).strip()
    name = label.strip()
    if name in SPECIAL_CASES:
        return SPECIAL_CASES[name]
    letters = plain_letters(name)
    if len(letters) < 3:
        # The rubric has no rule for such a name; the text has none either.
        raise AbbreviationError(f"{label!r} has fewer than three letters")
    return letters[:4]
