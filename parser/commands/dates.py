"""Dates for SET ABSENCE: '2026-12-01', '1 Dec 2026', 'December 1, 2026'.

The year and the first day must be written: the parser does not know
today's date, so it cannot choose between this year and the next, or start
an absence today, the way DPJudge does.
"""

from __future__ import annotations

import datetime

import pyparsing as pp

from parser.actions import on_tokens
from parser.commands.grammar import named
from parser.commands.values import CommandError, SetAbsence

_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)
_TAIL = r"[.,;:!?]*(?!\S)"


def _month_number(text: str) -> int | None:
    word = text.lower().rstrip(".,")
    if word == "sept":
        return 9
    for number, name in enumerate(_MONTHS, start=1):
        if len(word) >= 3 and name.startswith(word):
            return number
    return None


def _check_month(text: str, loc: int, tokens: pp.ParseResults) -> int:
    number = _month_number(str(tokens[0]))
    if number is None:
        raise pp.ParseException(text, loc, "not a month")
    return number


def _make(year: object, month: object, day: object) -> datetime.date | CommandError:
    y, m, d = int(str(year)), int(str(month)), int(str(day))
    try:
        return datetime.date(y, m, d)
    except ValueError:
        return CommandError(f"{y:04d}-{m:02d}-{d:02d} is not a date")


_MONTH = pp.Regex(r"[A-Za-z]{3,9}" + _TAIL).set_name("a month").set_parse_action(_check_month)
_DAY = pp.Regex(r"(?P<d>\d{1,2})(?:st|nd|rd|th)?" + _TAIL).set_name("a day")
_DAY.set_parse_action(on_tokens(lambda t: int(t["d"])))
_YEAR = pp.Regex(r"(?P<y>\d{4}|\d{2})" + _TAIL).set_name("a year")
_YEAR.set_parse_action(on_tokens(lambda t: int(t["y"]) + (2000 if len(t["y"]) == 2 else 0)))
_ISO = pp.Regex(r"(?P<y>\d{4})[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})" + _TAIL)
_ISO.set_parse_action(on_tokens(lambda t: _make(t["y"], t["m"], t["d"])))

DATE = (
    _ISO
    | (_MONTH + _DAY + _YEAR).set_parse_action(on_tokens(lambda t: _make(t[2], t[0], t[1])))
    | (_DAY + _MONTH + _YEAR).set_parse_action(on_tokens(lambda t: _make(t[2], t[1], t[0])))
).set_name("a date with its year (2026-12-01 or 1 Dec 2026)")

_FROM = pp.CaselessKeyword("FROM").suppress()
_TO = pp.CaselessKeyword("TO").suppress()


def _absence(tokens: pp.ParseResults) -> SetAbsence | CommandError:
    start = named(tokens, "start")
    end = named(tokens, "end")
    for value in (start, end):
        if isinstance(value, CommandError):
            return value
    if start is None:
        # DPJudge reads 'SET ABSENCE TO date' as from today; the parser does
        # not know today, and a SetAbsence without a start clears absences.
        return CommandError("SET ABSENCE needs the first day too")
    if end is None:
        end = start  # one day
    if not isinstance(start, datetime.date) or not isinstance(end, datetime.date):
        return CommandError("SET ABSENCE needs its dates")
    if end < start:
        return CommandError(f"the absence ends ({end}) before it starts ({start})")
    return SetAbsence(start, end)


ABSENCE = (
    (pp.Opt(_FROM) + DATE("start") + pp.Opt(_TO - DATE("end")))
    | (_TO - DATE("end"))
).set_name("a date (2026-12-01 TO 2026-12-08)").set_parse_action(on_tokens(_absence))
