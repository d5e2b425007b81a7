"""SET commands: the second word says which ('SET PASSWORD', 'SET NO WAIT').

njudge writes the negative forms with or without a space ('SET NOWAIT',
'SET NO WAIT') and has other names for some ('SET VACATION', 'SET CONC');
all are read here.
"""

from __future__ import annotations

import pyparsing as pp

from parser.actions import on_tokens
from parser.commands.dates import ABSENCE
from parser.commands.grammar import ADDRESS, END, POWER, REST, Form, Outcome, end_or, read
from parser.commands.setting_forms import REPLACED, SETTING_WORDS, read_setting
from parser.commands.values import (
    CommandError,
    SetAbsence,
    SetAddress,
    SetConcede,
    SetDeadline,
    SetDraw,
    SetFavor,
    SetGrace,
    SetGroup,
    SetNoDraw,
    SetPassword,
    SetWait,
)
from parser.commands.words import bare, nearest

# spelling after SET (a leading NO joined on) -> the SET command it stands for
SET_WORDS: dict[str, str] = {
    "PASSWORD": "PASSWORD",
    "ADDRESS": "ADDRESS",
    "WAIT": "WAIT", "NOWAIT": "NOWAIT",
    "ABSENCE": "ABSENCE", "VACATION": "ABSENCE", "VACATIONS": "ABSENCE",
    "HOLIDAY": "ABSENCE", "HOLIDAYS": "ABSENCE",
    "NOABSENCE": "NOABSENCE", "NOVACATION": "NOABSENCE", "NOVACATIONS": "NOABSENCE",
    "NOHOLIDAY": "NOABSENCE", "NOHOLIDAYS": "NOABSENCE",
    "DRAW": "DRAW", "NODRAW": "NODRAW",
    "CONCEDE": "CONCEDE", "CONC": "CONCEDE",
    "DEADLINE": "DEADLINE",
    "GRACE": "GRACE",
    "FAVOR": "FAVOR", "FAVOUR": "FAVOR",
    "GROUP": "GROUP",
}

_DRAW_POWER = pp.Regex(r"[A-Za-z0-9][^\s,]*").set_name("a power").set_parse_action(
    on_tokens(lambda t: str(t[0]).rstrip(".;:!?").upper())
)
_DRAW_LIST = pp.ZeroOrMore(_DRAW_POWER + pp.Opt(pp.Suppress(",")))


def _no_words(name: str, command: SetWait | SetNoDraw | SetAbsence) -> Form:
    return Form(name, END.copy().set_parse_action(on_tokens(lambda _t: command)), name)


_FORMS: dict[str, Form] = {
    "PASSWORD": Form(
        "SET PASSWORD",
        (pp.Regex(r"\S+").set_name("a password") + END).set_parse_action(
            on_tokens(lambda t: SetPassword(str(t[0])))),
        "SET PASSWORD newpassword", ("the new password",), secret_from=0,
    ),
    "ADDRESS": Form(
        "SET ADDRESS", (ADDRESS + END).set_parse_action(on_tokens(lambda t: SetAddress(str(t[0])))),
        "SET ADDRESS me@example.org", ("the new e-mail address",),
    ),
    "WAIT": _no_words("SET WAIT", SetWait(True)),
    "NOWAIT": _no_words("SET NOWAIT", SetWait(False)),
    "ABSENCE": Form(
        "SET ABSENCE", ABSENCE + END,
        "SET ABSENCE 2026-12-01 TO 2026-12-08 (or FROM 1 Dec 2026 TO 8 Dec 2026)",
        ("the first day of the absence",),
    ),
    "NOABSENCE": _no_words("SET NOABSENCE", SetAbsence(None, None)),
    "DRAW": Form(
        "SET DRAW", (_DRAW_LIST + end_or("a power")).set_parse_action(
            on_tokens(lambda t: SetDraw(tuple(str(p) for p in t if str(p))))),
        "SET DRAW, or SET DRAW AUSTRIA FRANCE",
    ),
    "NODRAW": _no_words("SET NODRAW", SetNoDraw()),
    "CONCEDE": Form(
        "SET CONCEDE", (POWER + END).set_parse_action(on_tokens(lambda t: SetConcede(str(t[0])))),
        "SET CONCEDE FRANCE", ("the power you concede to",),
    ),
    "DEADLINE": Form(
        "SET DEADLINE", (REST + END).set_parse_action(on_tokens(lambda t: SetDeadline(str(t[0])))),
        "SET DEADLINE 2026-12-01 18:00 (or SET DEADLINE Mon 18:00, SET DEADLINE +2d)",
        ("the new deadline",),
    ),
    "FAVOR": Form(
        "SET FAVOR", (POWER + pp.OneOrMore(pp.Regex(r"[A-Za-z][0-5][A-Za-z]").set_name(
            "a Favor map space")) + END).set_parse_action(
                on_tokens(lambda t: SetFavor(str(t[0]), tuple(str(s) for s in t[1:])))),
        "SET FAVOR EGYPT N2n U1s I1r B1q R1p", ("a power", "its Embassies' spaces"),
    ),
    "GROUP": Form(
        "SET GROUP", (pp.Regex(r"[A-Za-z]+").set_name("a colour group") + pp.OneOrMore(
            pp.Regex(r"[A-Za-z][A-Za-z_.]*").set_name("a power")) + END).set_parse_action(
                on_tokens(lambda t: SetGroup(str(t[0]), tuple(str(s) for s in t[1:])))),
        "SET GROUP Blue CC GB CA BR", ("a colour group", "its powers"),
    ),
    "GRACE": Form(
        "SET GRACE", (REST + END).set_parse_action(on_tokens(lambda t: SetGrace(str(t[0])))),
        "SET GRACE 2026-12-02 18:00 (or SET GRACE +1d)", ("the end of the grace period",),
    ),
}

_KNOWN = tuple(sorted({*SET_WORDS, *SETTING_WORDS}))


def read_set(args: str) -> list[Outcome]:
    """The command of a SET line; ``args`` is the text after 'SET'."""
    words = args.split(maxsplit=1)
    if not words:
        return [CommandError(
            "SET needs what to set. Write it like this: SET PASSWORD newpassword, "
            "SET ADDRESS me@example.org, SET WAIT, SET NOWAIT, SET ABSENCE ..., SET DRAW"
        )]
    spelled = bare(words[0])
    rest = words[1] if len(words) > 1 else ""
    if spelled == "NO" and rest:
        more = rest.split(maxsplit=1)
        spelled = "NO" + bare(more[0])
        rest = more[1] if len(more) > 1 else ""
    if spelled not in SET_WORDS and spelled in SETTING_WORDS:
        return [read_setting(spelled, rest)]
    if spelled in REPLACED:
        word = words[0].rstrip(".,;:!?")
        return [CommandError(f"SET {word} is not a command of this judge: {REPLACED[spelled]}",
                             word)]
    which = SET_WORDS.get(spelled)
    if which is None and spelled.startswith("NO") and spelled[2:] in SET_WORDS:
        return [CommandError(f"SET {spelled} is not a command of this judge", spelled)]
    if which is None:
        meant = nearest(spelled, _KNOWN)
        word = words[0].rstrip(".,;:!?")
        return [CommandError(
            f"unknown SET command 'SET {word}'", word,
            f"SET {meant}" if meant is not None else None,
        )]
    return read(_FORMS[which], rest)
