"""The words after a command word: pyparsing grammars, one per command form.

A :class:`Form` holds the grammar of one command's arguments, what its
required words are (to say which is missing) and an example of the right
form (shown in every error about it). :func:`read` runs a form over the text
after the command word and gives the command values it describes, or a
:class:`CommandError` that names the word at fault. Checks a grammar cannot
express (a date that does not exist, fake press) are made in parse actions,
which then yield a CommandError in place of the command.

Tokens tolerate trailing punctuation ('LIST mygame.') except passwords,
which are kept exactly as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pyparsing as pp

from parser.actions import on_tokens
from parser.commands.values import (
    Clear,
    Command,
    CommandError,
    Create,
    Eject,
    Help,
    History,
    Join,
    ListGames,
    MapRequest,
    Observe,
    Pause,
    Preview,
    Process,
    RenameProvince,
    Replace,
    Resign,
    Resume,
    Rollback,
    Signon,
    Silence,
    Start,
    Status,
    Summary,
    Terminate,
    Unsubscribe,
)

_TAIL = r"[.,;:!?]*(?!\S)"  # trailing punctuation, then the end of the word
_STRIP = ".,;:!?"
Outcome = Command | CommandError


def _token(pattern: str, name: str, convert: Callable[[str], str]) -> pp.ParserElement:
    def action(tokens: pp.ParseResults) -> str:
        return convert(str(tokens[0]).rstrip(_STRIP))

    return pp.Regex(f"(?:{pattern}){_TAIL}").set_name(name).set_parse_action(on_tokens(action))


GAME_NAME = r"[A-Za-z0-9_]+"
GAME = _token(GAME_NAME, "a game name (letters, digits and _)", str.lower)
# DPJudge's abbreviation: a season's letter, the year (one digit or more in
# a map's own flow: S1M, A1425M, B273M), the phase type's letter
PHASE_PATTERN = r"[A-Za-z]\d{1,5}[A-Za-z]"
PHASE = _token(PHASE_PATTERN, "a phase such as S1901M", str.upper)
POWER = _token(r"[A-Za-z0-9][^\s,@]*?", "a power", str.upper)
PASSWORD = pp.Regex(r"\S+").set_name("a password")
END = pp.StringEnd().set_name("the end of the line")
REST = pp.Regex(r".*\S").set_name("the rest of the line")


def end_or(name: str) -> pp.ParserElement:
    """The end of the line, where an optional ``name`` might have come instead.

    Named so that 'ROLLBACK FULL' says 'FULL' is not a phase rather than
    that nothing more was expected.
    """
    return pp.StringEnd().set_name(name)


def _master(who: str) -> str:
    """DPJudge and njudge both sign the Master on as 'M'."""
    return "MASTER" if who.upper() == "M" else who.upper()


def _at(tokens: pp.ParseResults) -> tuple[str, str]:
    return _master(str(tokens["who"])), str(tokens["game"]).lower()


# 'france@mygame', 'loudMouth@coolgame': a role, an at-sign, a game
ROLE_AT_GAME = (
    pp.Regex(f"(?P<who>[^@\\s]+)@(?P<game>{GAME_NAME}){_TAIL}")
    .set_name("power@game").set_parse_action(on_tokens(_at))
)
# DPJudge and njudge 'Fmygame': a power's initial (or number) joined to the game
INITIAL_GAME = (
    pp.Regex(f"(?P<who>[A-Za-z0-9])(?P<game>{GAME_NAME})(?!\\S)")
    .set_name("power and game (france@mygame or Fmygame)").set_parse_action(on_tokens(_at))
)
# njudge '?mygame': a game that is forming
FORMING_GAME = (
    pp.Regex(f"\\?(?P<game>{GAME_NAME}){_TAIL}")
    .set_name("?game").set_parse_action(on_tokens(lambda t: str(t["game"]).lower()))
)
# a province's code as Diplomap writes new ones: 'GAL-N', 'LVN+STP', 'LEM'
_PROVINCE_CODE = _token(r"[A-Za-z0-9][A-Za-z0-9+\-]*", "a province's code", str.upper)
ADDRESS = _token(r"[^\s@,]+@[^\s@,]+(?:,[^\s@,]+@[^\s@,]+)*", "an e-mail address", str)


@dataclass(frozen=True, slots=True)
class Form:
    name: str  # the command as the sender sees it ('SIGNON', 'SET PASSWORD')
    grammar: pp.ParserElement  # for the words after the command word
    usage: str  # the right form, shown with every error
    needs: tuple[str, ...] = ()  # what the required words are, in order
    secret_from: int | None = None  # words from here on may be secrets: never echoed


def read(form: Form, args: str) -> list[Outcome]:
    """The commands that ``args`` (the text after the command word) describe."""
    words = args.split()
    if len(words) < len(form.needs):
        return [_error(form, f"{form.name} needs {form.needs[len(words)]}")]
    try:
        result = form.grammar.parse_string(args, parse_all=True)
    except pp.ParseBaseException as exc:
        return [_explain(form, args, exc)]
    outcomes: list[Outcome] = []
    for item in result:
        if isinstance(item, CommandError):  # a check made in a parse action
            outcomes.append(_error(form, item.message, item.word))
        elif isinstance(item, Outcome):
            outcomes.append(item)
    return outcomes or [_error(form, f"{form.name} could not be read")]


def _error(form: Form, problem: str, word: str = "") -> CommandError:
    return CommandError(f"{problem}. Write it like this: {form.usage}", word)


def _explain(form: Form, args: str, exc: pp.ParseBaseException) -> CommandError:
    loc = min(max(exc.loc, 0), len(args))
    while loc < len(args) and args[loc].isspace():
        loc += 1
    if loc >= len(args):
        return _error(form, f"{form.name} needs {_expected(exc) or 'more words'}")
    while loc > 0 and not args[loc - 1].isspace():
        loc -= 1  # a token that failed part-way: name the whole word
    word = args[loc:].split(maxsplit=1)[0]
    index = len(args[:loc].split())
    if form.secret_from is not None and index >= form.secret_from:
        return _error(form, f"{form.name} has too many words")
    expected = _expected(exc)
    if expected == END.customName:
        return _error(form, f"{form.name}: did not expect '{word}'", word)
    if expected is None:
        return _error(form, f"{form.name}: '{word}' is not understood", word)
    return _error(form, f"{form.name}: '{word}' is not {expected}", word)


def _expected(exc: pp.ParseBaseException) -> str | None:
    # pyparsing words its message 'Expected <name of the element that failed>';
    # elements without a name of ours get a name made of their grammar.
    message = str(exc.msg)
    if not message.startswith("Expected ") or any(c in message for c in "{}[]:'\\"):
        return None
    return message[len("Expected "):]


def _no_words(name: str, command: Command) -> Form:
    return Form(name, END.copy().set_parse_action(on_tokens(lambda _t: command)), name)


def _signon(tokens: pp.ParseResults) -> Signon:
    who, game = tokens[0]
    return Signon(who, game, str(tokens[1]))


def _join(tokens: pp.ParseResults) -> Join:
    target = tokens[0]
    if isinstance(target, tuple):
        return Join(target[1], str(tokens[1]), target[0])
    return Join(str(target), str(tokens[1]), None)


def _observe(tokens: pp.ParseResults) -> Observe:
    target = tokens[0]
    if isinstance(target, tuple):
        return Observe(target[0], target[1], str(tokens[1]))
    return Observe(None, str(target), str(tokens[1]))


def _resign(tokens: pp.ParseResults) -> list[Outcome]:
    if not tokens:
        return [Resign()]
    if len(tokens) == 1:  # DPJudge: the Master resigns a player
        return [Eject(str(tokens[0]))]
    # DPJudge: 'RESIGN france@game pw' is given instead of a SIGNON
    return [_signon(tokens), Resign()]


def named(tokens: pp.ParseResults, name: str) -> object:
    """The value saved under ``name`` (None if none); pyparsing may wrap it in a list."""
    if name not in tokens:
        return None
    value: object = tokens[name]
    if isinstance(value, pp.ParseResults) and len(value) == 1:
        return value[0]
    return value


def _history(tokens: pp.ParseResults) -> History:
    return History(str(tokens[0]), _span(named(tokens, "start")), _span(named(tokens, "end")))


def _span(words: object) -> str | None:
    if words is None:
        return None
    text = " ".join(str(w) for w in words) if isinstance(words, pp.ParseResults) else str(words)
    text = text.rstrip(_STRIP)
    return text.upper() if re.fullmatch(PHASE_PATTERN, text) else text


def _replace(tokens: pp.ParseResults) -> Replace:
    password = str(tokens[2]) if len(tokens) > 2 else None
    return Replace(str(tokens[0]), str(tokens[1]), password)


def _eject(tokens: pp.ParseResults) -> Eject:
    return Eject(str(tokens[0]))


def _create(tokens: pp.ParseResults) -> Create:
    settings = (("variant", str(tokens[2]).rstrip(_STRIP)),) if len(tokens) > 2 else ()
    return Create(str(tokens[0]), str(tokens[1]), settings)


_FROM = pp.CaselessKeyword("FROM").suppress()
_TO = pp.CaselessKeyword("TO").suppress()
_SPAN = pp.Group(pp.OneOrMore(~(_FROM | _TO) + pp.Regex(r"\S+"))).set_name("a phase or a date")
_RANGE = (
    (_FROM - _SPAN("start") + pp.Opt(_TO - _SPAN("end")))  # '-': no backing off after FROM
    | (_TO - _SPAN("end"))
    | (PHASE("start") + pp.Opt(PHASE("end")))
).set_name("FROM phase TO phase")
_WHO_OR_GAME = (ROLE_AT_GAME | GAME).set_name("a game name (or name@game)")
_POWER_AND_GAME = "a power and a game (france@mygame or Fmygame)"
_SIGNON_TARGET = (ROLE_AT_GAME | INITIAL_GAME).set_name(_POWER_AND_GAME)
_EJECTED = _token(r"[A-Za-z0-9][^\s,]*?", "a power", lambda w: w if "@" in w else w.upper())

FORMS: dict[str, Form] = {
    "HELP": Form("HELP", pp.Opt(REST).set_parse_action(
        on_tokens(lambda t: Help(" ".join(str(t[0]).split()) if t else ""))),
        "HELP or HELP orders"),
    "UNSUBSCRIBE": Form(
        "UNSUBSCRIBE", (pp.Opt(GAME) + END).set_parse_action(
            on_tokens(lambda t: Unsubscribe(str(t[0]) if t else None))),
        "UNSUBSCRIBE mygame (or, after SIGNON, UNSUBSCRIBE)",
    ),
    "LIST": Form(
        "LIST", (pp.Opt(GAME) + END).set_parse_action(
            on_tokens(lambda t: ListGames(str(t[0]) if t else None))), "LIST or LIST mygame",
    ),
    "HISTORY": Form(
        "HISTORY",
        (GAME + pp.Opt(_RANGE) + end_or("FROM, TO or a phase"))
        .set_parse_action(on_tokens(_history)),
        "HISTORY mygame, HISTORY mygame FROM S1901M TO F1903M", ("a game name",),
    ),
    "SUMMARY": Form(
        "SUMMARY", (GAME + END).set_parse_action(on_tokens(lambda t: Summary(str(t[0])))),
        "SUMMARY mygame", ("a game name",),
    ),
    "MAP": Form(
        "MAP", (GAME + pp.Opt(PHASE) + end_or("a phase such as F1901M")).set_parse_action(
            on_tokens(lambda t: MapRequest(str(t[0]), str(t[1]) if len(t) > 1 else None))),
        "MAP mygame or MAP mygame F1901M", ("a game name",),
    ),
    "OBSERVE": Form(
        "OBSERVE", (_WHO_OR_GAME + PASSWORD + END).set_parse_action(on_tokens(_observe)),
        "OBSERVE mygame password (or OBSERVE myname@mygame password)",
        ("a game name", "a password"), secret_from=1,
    ),
    "JOIN": Form(
        "JOIN", (_WHO_OR_GAME + PASSWORD + END).set_parse_action(on_tokens(_join)),
        "JOIN mygame password (or JOIN france@mygame password)",
        ("a game name", "a password"), secret_from=1,
    ),
    "SIGNON": Form(
        "SIGNON",
        ((FORMING_GAME + PASSWORD + pp.Opt(pp.Regex(r"\S+")).suppress() + END)
         .set_parse_action(on_tokens(lambda t: Join(str(t[0]), str(t[1]), None)))
         | (_SIGNON_TARGET + PASSWORD + END).set_parse_action(on_tokens(_signon)))
        .set_name(_POWER_AND_GAME),
        "SIGNON france@mygame password (or SIGNON Fmygame password)",
        ("a power and a game (france@mygame or Fmygame)", "a password"), secret_from=1,
    ),
    "RESIGN": Form(
        "RESIGN",
        (pp.Opt((_SIGNON_TARGET + PASSWORD) | POWER) + END).set_parse_action(on_tokens(_resign)),
        "RESIGN (after SIGNON), or RESIGN france@mygame password", secret_from=1,
    ),
    "CLEAR": _no_words("CLEAR", Clear()),
    "START": _no_words("START", Start()),
    "PROCESS": _no_words("PROCESS", Process()),
    "PREVIEW": _no_words("PREVIEW", Preview()),
    "STATUS": Form(
        "STATUS", (pp.Opt(GAME) + END).set_parse_action(
            on_tokens(lambda t: Status(str(t[0]) if t else None))), "STATUS (after SIGNON)",
    ),
    "PAUSE": _no_words("PAUSE", Pause()),
    "RESUME": _no_words("RESUME", Resume()),
    "TERMINATE": _no_words("TERMINATE", Terminate()),
    "ROLLBACK": Form(
        "ROLLBACK", (pp.Opt(PHASE) + end_or("a phase such as S1902M")).set_parse_action(
            on_tokens(lambda t: Rollback(str(t[0]) if t else None))), "ROLLBACK or ROLLBACK S1902M",
    ),
    "EJECT": Form(
        "EJECT", (_EJECTED + END).set_parse_action(on_tokens(_eject)), "EJECT france", ("a power",),
    ),
    "SILENCE": Form(
        "SILENCE", (_EJECTED + END).set_parse_action(on_tokens(lambda t: Silence(str(t[0])))),
        "SILENCE romania (a player in exile bids no more)", ("a power",),
    ),
    "RENAME": Form(
        "RENAME", (_PROVINCE_CODE + _PROVINCE_CODE + REST).set_parse_action(on_tokens(
            lambda t: RenameProvince(str(t[0]), str(t[1]), str(t[2])))),
        "RENAME GAL-N LEM Lemberg (a new province's code, its new code and name)",
        ("a province's code", "its new code", "its name"),
    ),
    "REPLACE": Form(
        "REPLACE", (POWER + ADDRESS + pp.Opt(PASSWORD) + END).set_parse_action(on_tokens(_replace)),
        "REPLACE france player@example.org [password]",
        ("a power", "the new player's e-mail address"), secret_from=2,
    ),
    "CREATE": Form(
        "CREATE",
        ((FORMING_GAME | GAME) + PASSWORD + pp.Opt(pp.Regex(r"\S+")) + END)
        .set_parse_action(on_tokens(_create)),
        "CREATE mygame password, then settings lines such as 'variant standard'",
        ("a game name", "a password"), secret_from=1,
    ),
}
