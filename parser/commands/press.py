"""Press headers: the words after PRESS or BROADCAST.

    PRESS TO FRANCE ENGLAND      PRESS TO F,E       PRESS + FRANCE
    PRESS TO ALL                 BROADCAST          PRESS TO ALL GREY
    PRESS GREY TO FRANCE         GREY PRESS TO ...  PRESS TO FRANCE WHITE

Recipients are uppercased as written (names, initials, 'MASTER', 'ALL'); the
service resolves them. DPJudge's QUIET (no echo to the sender) is accepted
and has no effect. Fake press (FAKE, FROM, AS) and njudge's exclusions
('PRESS TO ALL - FRANCE') are not offered here and are refused.

The header is read into a :class:`Press` with an empty body; the reader
fills in the body from the lines that follow.
"""

from __future__ import annotations

import pyparsing as pp

from parser.actions import on_tokens
from parser.commands.grammar import Form, Outcome, end_or
from parser.commands.values import CommandError, Press

_STRIP = ".,;:!?"


def _kw(*words: str) -> pp.ParserElement:
    return pp.MatchFirst([pp.CaselessKeyword(w) for w in words])


_OPTION_WORD = _kw("TO", "GREY", "GRAY", "WHITE", "QUIET", "FAKE", "FROM", "AS")
_RECIPIENT = (
    ~_OPTION_WORD + pp.Regex(r"[A-Za-z0-9][^\s,+]*").set_name("a power")
).set_parse_action(on_tokens(lambda t: str(t[0]).rstrip(_STRIP).upper()))
_LIST = pp.OneOrMore(_RECIPIENT + pp.Opt(pp.Suppress(","))).set_name("who the press is for")

_TO = (
    (pp.CaselessKeyword("TO") | pp.Literal("+")).suppress() - pp.Group(_LIST)
).set_parse_action(on_tokens(lambda t: [("to", tuple(str(r) for r in t[0] if str(r)))]))
_GREY = _kw("GREY", "GRAY").set_parse_action(on_tokens(lambda _t: [("grey", True)]))
_WHITE = pp.CaselessKeyword("WHITE").set_parse_action(on_tokens(lambda _t: [("grey", False)]))
_QUIET = pp.CaselessKeyword("QUIET").set_parse_action(on_tokens(lambda _t: [("quiet", True)]))
_FAKE = (_kw("FAKE", "FROM", "AS") + pp.Regex(r".*")).set_parse_action(
    on_tokens(lambda _t: [("fake", True)]))
_OPTIONS = pp.ZeroOrMore(_TO | _GREY | _WHITE | _QUIET | _FAKE)


def _header(broadcast: bool, grey_first: bool) -> pp.ParserElement:
    def action(tokens: pp.ParseResults) -> Outcome:
        options = [item for item in tokens if isinstance(item, tuple)]
        keys = [key for key, _ in options]
        if "fake" in keys:
            return CommandError("fake press (FAKE, FROM, AS) is not supported")
        if any(keys.count(key) > 1 for key in ("to", "grey")) or (
            grey_first and "grey" in keys
        ):
            return CommandError("give each option once")
        recipients: tuple[str, ...] = ("ALL",)
        for key, value in options:
            if key == "to" and isinstance(value, tuple):
                recipients = value
        if broadcast and "to" in keys:
            return CommandError("BROADCAST goes to everyone; use PRESS TO ... for some powers")
        if not broadcast and "to" not in keys:
            return CommandError("PRESS needs TO and who the press is for")
        if "ALL" in recipients and len(recipients) > 1:
            return CommandError("ALL cannot be listed with other powers")
        grey = grey_first or any(key == "grey" and value is True for key, value in options)
        return Press(recipients, grey, "")

    return (_OPTIONS + end_or("TO, GREY or WHITE")).set_parse_action(on_tokens(action))


_PRESS_USAGE = "PRESS TO FRANCE ENGLAND (or PRESS TO ALL, BROADCAST, PRESS TO FRANCE GREY)"
_BROADCAST_USAGE = "BROADCAST (or BROADCAST GREY)"

PRESS_FORMS: dict[tuple[str, bool], Form] = {
    ("PRESS", False): Form("PRESS", _header(False, False), _PRESS_USAGE),
    ("PRESS", True): Form("GREY PRESS", _header(False, True), _PRESS_USAGE),
    ("BROADCAST", False): Form("BROADCAST", _header(True, False), _BROADCAST_USAGE),
    ("BROADCAST", True): Form("GREY BROADCAST", _header(True, True), _BROADCAST_USAGE),
}
