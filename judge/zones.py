"""Time zones as GMs and players write them: IANA names ('Europe/Paris', in
any case), common abbreviations ('CET', 'EST') and fixed offsets ('UTC+2',
'GMT-5', '+02:00').

An abbreviation stands for the IANA zone of the places that use it, summer
time included: 'CET' is read as Europe/Paris, so a game 'in CET' follows
the clocks of Paris in July too. Abbreviations used for several zones (IST:
India, Ireland or Israel) are refused with the names to write instead. A
fixed offset never changes with the seasons, and is kept as 'UTC+02:00'.
"""

from __future__ import annotations

import re
from datetime import timedelta, timezone, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

ABBREVIATIONS: dict[str, str] = {
    "UTC": "UTC", "GMT": "UTC", "Z": "UTC", "UT": "UTC",
    "WET": "Europe/Lisbon", "WEST": "Europe/Lisbon",
    "CET": "Europe/Paris", "CEST": "Europe/Paris", "MET": "Europe/Paris",
    "MEST": "Europe/Paris",
    "EET": "Europe/Athens", "EEST": "Europe/Athens",
    "MSK": "Europe/Moscow",
    "EST": "America/New_York", "EDT": "America/New_York", "ET": "America/New_York",
    "CDT": "America/Chicago", "CT": "America/Chicago",
    "MST": "America/Denver", "MDT": "America/Denver", "MT": "America/Denver",
    "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles", "PT": "America/Los_Angeles",
    "AKST": "America/Anchorage", "AKDT": "America/Anchorage",
    "HST": "Pacific/Honolulu",
    "BRT": "America/Sao_Paulo", "ART": "America/Argentina/Buenos_Aires",
    "JST": "Asia/Tokyo", "KST": "Asia/Seoul", "HKT": "Asia/Hong_Kong",
    "SGT": "Asia/Singapore",
    "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
    "ACST": "Australia/Adelaide", "ACDT": "Australia/Adelaide",
    "AWST": "Australia/Perth",
    "NZST": "Pacific/Auckland", "NZDT": "Pacific/Auckland",
}

# abbreviations that name several zones: the names to write instead
AMBIGUOUS: dict[str, tuple[str, ...]] = {
    "IST": ("Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"),
    "CST": ("America/Chicago", "Asia/Shanghai", "America/Havana"),
    "BST": ("Europe/London", "Asia/Dhaka"),
    "AST": ("America/Halifax", "Asia/Riyadh"),
}

# 'UTC+2', 'GMT-05:30', '+0200', 'utc + 2'
_OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?", re.IGNORECASE)
_FIXED = re.compile(r"UTC([+-])(\d{2}):(\d{2})")  # as kept
_LEAST, _MOST = timedelta(hours=-12), timedelta(hours=14)  # the offsets in use on Earth


class ZoneError(ValueError):
    pass


@cache
def _iana_names() -> dict[str, str]:
    """Every IANA zone name the system knows, by its lowercase spelling."""
    return {name.lower(): name for name in available_timezones()}


def zone_name(text: str) -> str:
    """The zone as the judge keeps it: an IANA name or 'UTC+02:00'."""
    written = text.strip()
    word = written.upper()
    if word in AMBIGUOUS:
        raise ZoneError(f"{written} names several time zones; write one of "
                        f"{', '.join(AMBIGUOUS[word])}")
    if word in ABBREVIATIONS:
        return ABBREVIATIONS[word]
    offset = _OFFSET.fullmatch(written)
    if offset:
        sign, hours, minutes = offset[1], int(offset[2]), int(offset[3] or 0)
        delta = timedelta(hours=hours, minutes=minutes) * (-1 if sign == "-" else 1)
        if minutes >= 60 or not _LEAST <= delta <= _MOST:
            raise ZoneError(f"{written!r} is not an offset in use: offsets are from "
                            "UTC-12:00 to UTC+14:00")
        return "UTC" if not delta else f"UTC{sign}{hours:02d}:{minutes:02d}"
    name = _iana_names().get(written.lower())
    if name is None:
        raise ZoneError(f"{written!r} is not a time zone like Europe/Paris, CET, EST or "
                        "UTC+2")
    return name


def tz(name: str) -> tzinfo:
    """The tzinfo of a zone as kept (zone_name's result)."""
    fixed = _FIXED.fullmatch(name)
    if fixed:
        delta = timedelta(hours=int(fixed[2]), minutes=int(fixed[3]))
        return timezone(-delta if fixed[1] == "-" else delta, name)
    return ZoneInfo(name)


def known(name: str) -> bool:
    """Whether a zone as kept can still be used. A zone stored years ago may
    have left the system's zone database since (US/Pacific-New did in 2020)."""
    try:
        tz(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True
