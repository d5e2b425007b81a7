"""Random command mails for fuzzing the whole mail pipeline, and the live
game they are sent to: used by tests/judge/test_fuzz_mail.py (a short run)
and bench/fuzz_mail.py (a long one).

The mails are made of the judge's own vocabulary, so that they reach deep
into the handlers: real command words, real provinces and orders, game and
power names that exist, mixed with arguments at their extremes (huge
numbers, far dates, unknown zones), unicode, empty lines and odd
whitespace. Each is sent as a player (signed on with the right password),
as the Game Master, or as a stranger, through store_inbound and
process_mail on a real database.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP, default

from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.config import Config
from judge.intake.store import store_inbound
from judge.models import Game, Member, Outbox
from judge.processing import process_mail

CONFIG = Config(name="FUZZJUDGE", address="judge@judge.test")
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # a Monday
INTERNAL_ERROR = "because of an error of its own"
POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
GM_PASSWORD = "gm-pw"

_COMMANDS = (
    "HELP", "LIST", "HISTORY", "SUMMARY", "MAP", "OBSERVE", "JOIN", "SIGNON", "SIGN ON",
    "SIGNOFF", "RESIGN", "WITHDRAW", "CLEAR", "CREATE", "START", "PROCESS", "PROCESS!",
    "PREVIEW", "ROLLBACK", "PAUSE", "RESUME", "EJECT", "SILENCE", "REPLACE", "OFFICIAL",
    "STATUS", "TAKEOVER", "SET", "END", "ENDPRESS", "FORCE BEGIN", "PHASE",
)
_SET_WORDS = (
    "PASSWORD", "ADDRESS", "WAIT", "NOWAIT", "NO WAIT", "ABSENCE", "NOABSENCE", "VACATION",
    "DRAW", "NODRAW", "CONCEDE", "CONC", "DEADLINE", "GRACE", "FAVOR", "MOVEMENT", "MOVE",
    "RETREAT", "ADJUST", "ADJUSTMENT", "NMR", "NO NMR", "CD", "WHITE", "GREY", "NO PRESS",
    "PRESS", "ZONE", "TIME", "DAYS", "REMINDER", "PLAYERS", "VARIANT", "START", "CENTERS",
    "MAX ABSENCE", "LIST", "RULES", "PREFERENCE",
)
_SETTING_KEYS = (
    "variant", "players", "movement", "retreat", "adjustment", "time", "days", "zone",
    "timezone", "grace", "reminder", "press", "nmr", "list", "rules", "map", "colour",
)
# arguments at their extremes, and ordinary ones
_ARGUMENTS = (
    "0", "1", "-1", "7", "99", "1000000000", "99999999999999999999999999999999", "1e309",
    "nan", "inf", "²", "٣", "1000000000d", "+1000000000d", "+48h", "48h", "0s", "-5h",
    "1.5 days", "999999999999999999999999h", "9999-12-31", "0001-01-01", "2026-03-04",
    "2026-03-04 18:00", "2026-02-30", "31 Feb 2026", "1 Jan 99", "9999-12-31 23:59",
    "TO", "FROM", "Wed 18:00", "Wed 25:99", "18:00", "24:00", "mon-fri", "sun-sat",
    "Europe/Paris", "CET", "EST", "IST", "UTC+2", "GMT-5", "+02:00", "UTC+99", "Mars/Olympus",
    "../../etc/passwd", "standard", "dissolution", "white", "grey", "none", "wait", "hold",
    "cd_distance=home", "power_choice=no", "S1901M", "F1901M", "S9999M", "W0000A",
    "g", "nosuchgame", "france@g", "master@g", "m@g", "Fg", "1g", "POWER#1", "?g",
    "pw-france", "gm-pw", "wrong", "a@b.test", "not an address", "FRANCE", "ENGLAND", "F",
    "ALL", "MASTER", "NEXT", "48", "GRACE", "CLOCK", "DAYS", "-MTWTF-", "FULL",
    "é", "İ", "ß", "\u200b", "🙂", "Ⅻ", "x" * 300,
)
_PROVINCES = (
    "PAR", "BUR", "MAR", "BRE", "PIC", "GAS", "SPA", "SPA/SC", "POR", "MAO", "ENG", "LON",
    "EDI", "LVP", "NTH", "NWY", "KIE", "BER", "MUN", "RUH", "HOL", "BEL", "VEN", "ROM",
    "NAP", "TRI", "VIE", "BUD", "GAL", "WAR", "MOS", "SEV", "STP/SC", "STP/NC", "CON",
    "ANK", "SMY", "BLA", "BUL/EC", "Paris", "Mid-Atlantic Ocean", "Lodnon",
)
_SPACES = (" ", "  ", "\t", "\u00a0", "\u2003", " \t ", "")


def _spaced(words: list[str], gaps: list[str]) -> str:
    return "".join(word + gap for word, gap in zip(words, gaps, strict=False)).rstrip() or \
        " ".join(words)


_gap = st.sampled_from(_SPACES)
_argument = st.one_of(
    st.sampled_from(_ARGUMENTS), st.integers(-(10**30), 10**30).map(str),
    st.text(max_size=12),
)
_province = st.sampled_from(_PROVINCES)
_unit = st.tuples(st.sampled_from(("A", "F", "Army", "fleet")), _province).map(" ".join)


@st.composite
def _order(draw: st.DrawFn) -> str:
    unit = draw(_unit)
    kind = draw(st.sampled_from(("move", "hold", "support", "convoy", "build", "remove",
                                 "retreat", "waive")))
    if kind == "move":
        return f"{unit} - {draw(_province)}"
    if kind == "hold":
        return f"{unit} H"
    if kind == "support":
        return f"{unit} S {draw(_unit)} - {draw(_province)}"
    if kind == "convoy":
        return f"{unit} C {draw(_unit)} - {draw(_province)}"
    if kind == "build":
        return f"BUILD {draw(_unit)}"
    if kind == "remove":
        return f"REMOVE {draw(_unit)}"
    if kind == "retreat":
        return f"{unit} R {draw(_province)}"
    return "WAIVE"


# hypothesis draws mostly small integers: the extremes are listed to be met often
_huge = st.one_of(st.sampled_from(("1000000000", "999999999999999999999999", "1e309", "0",
                                    "-1", "²", "0.0000001", "9" * 400, "1000000000",
                                    "100000", "8760", "366", "61", "24")),
                  st.integers(-(10**40), 10**40).map(str))
_unit_word = st.sampled_from(("d", "h", "m", "s", " days", "hours", "min", "sec", ""))
_duration = st.tuples(st.sampled_from(("+", "+", "", "-")), _huge, _unit_word).map("".join)
_date = st.one_of(
    st.tuples(st.integers(0, 10**5), st.integers(0, 99), st.integers(0, 99)).map(
        lambda ymd: f"{ymd[0]:04d}-{ymd[1]:02d}-{ymd[2]:02d}"),
    st.dates().map(str), st.dates().map(lambda d: d.strftime("%d %b %Y")),
    st.sampled_from(("9999-12-31", "0001-01-01", "2026-03-03", "1 Jan 99")),
)
_clock = st.tuples(st.integers(0, 10**4), st.integers(0, 10**3)).map(lambda t: f"{t[0]}:{t[1]:02d}")
_when = st.one_of(_duration, _date, st.tuples(_date, _clock).map(" ".join),
                  st.tuples(st.sampled_from(("Mon", "wed", "Sunday", "Xyz")), _clock).map(" ".join))
_zone = st.one_of(
    st.sampled_from(("Europe/Paris", "europe/paris", "CET", "EST", "IST", "CST", "UTC",
                     "America/New_York", "Etc/GMT+12", "localtime", "/etc/localtime", "")),
    st.tuples(st.sampled_from(("UTC", "GMT", "")), st.sampled_from(("+", "-", "")), _huge,
              st.sampled_from(("", ":30", ":99", "00"))).map("".join),
)
_phase = st.from_regex(r"[SFWU][0-9]{3,4}[MRAX]", fullmatch=True)
# commands with the arguments they take, at their extremes, by who sends them
# (a command sent by someone who may not use it is refused early, and
# reaches little)
_SHAPED: dict[str, dict[str, st.SearchStrategy[str]]] = {
    "gm": {
        "SET DEADLINE": _when, "SET GRACE": _when, "SET ZONE": _zone,
        "SET MOVEMENT": _duration, "SET RETREAT": _duration, "SET ADJUSTMENT": _duration,
        "SET REMINDER": _duration, "SET MOVE": st.tuples(st.sampled_from(
            ("NEXT", "GRACE", "CLOCK", "MIN", "DELAY", "DAYS")), _huge).map(" ".join),
        "SET TIME": _clock, "SET PLAYERS": _huge, "SET DAYS": st.sampled_from(
            ("mon-fri", "sun", "xyz", "")), "ROLLBACK": _phase, "PROCESS": st.just(""),
        "PROCESS!": st.just(""), "PREVIEW": st.just(""), "PAUSE": st.just(""),
        "RESUME": st.just(""), "STATUS": st.just(""), "SET NMR": st.just(""),
        "SET WHITE PRESS": st.just(""), "SET PRESS": st.sampled_from(("NONE", "grey", "x")),
    },
    "player": {
        "SET ABSENCE": st.one_of(_date, st.tuples(_date, _date).map(" TO ".join)),
        "SET ZONE": _zone, "SET TIMEZONE": _zone, "SET DRAW": st.sampled_from(POWERS),
        "SET CONCEDE": st.sampled_from(POWERS), "SET WAIT": st.just(""), "STATUS": st.just(""),
        "SET NOWAIT": st.just(""), "SET DEADLINE": _when, "CLEAR": st.just(""),
        "MAP g": _phase, "LIST": st.just(""),
    },
    "stranger": {
        "SIGNON": st.tuples(_huge, st.just("@g pw")).map("".join),
        "JOIN": st.tuples(_huge, st.just("@g pw")).map("".join), "MAP g": _phase,
        "HISTORY g FROM": _date, "HISTORY g": _phase, "LIST": st.sampled_from(("", "g")),
        "OBSERVE g": st.just("pw"), "STATUS": st.just(""), "SUMMARY": st.just("g"),
    },
}


@st.composite
def _command(draw: st.DrawFn, sender: str) -> str:
    if draw(st.integers(0, 3)) > 0:
        shaped = _SHAPED[sender]
        word = draw(st.sampled_from(sorted(shaped)))
        return f"{word} {draw(shaped[word])}".rstrip()
    word = draw(st.sampled_from(_COMMANDS))
    if word == "SET":
        word = f"SET {draw(st.sampled_from(_SET_WORDS))}"
    if draw(st.booleans()):
        word = word.lower()
    arguments = draw(st.lists(_argument, max_size=4))
    return _spaced([word, *arguments], draw(st.lists(_gap, min_size=4, max_size=5)))


@st.composite
def _block(draw: st.DrawFn) -> list[str]:
    """A press or CREATE block, with or without its end line."""
    if draw(st.booleans()):
        head = draw(st.sampled_from(("PRESS TO FRANCE", "BROADCAST", "GREY PRESS TO ALL",
                                     "PRESS TO MASTER", "OFFICIAL", "PRESS TO NOBODY")))
        body = draw(st.lists(st.text(max_size=40), max_size=3))
        end = draw(st.sampled_from(("ENDPRESS", "END PRESS", "SIGNOFF", "")))
        return [head, *body, end]
    name = draw(st.sampled_from(("fz", "g", "fz_2", "?fz")))
    value = st.one_of(_argument, _duration, _zone, _clock, _huge)
    settings = draw(st.lists(st.tuples(st.sampled_from(_SETTING_KEYS), value).map(
        " ".join), max_size=5))
    return [f"CREATE {name} pw", *settings, draw(st.sampled_from(("END", "")))]


_odd_line = st.one_of(st.text(max_size=30), st.sampled_from(
    ("", " ", "\t", "--", "> quoted", "// comment", "\\\\; A PAR H")))


def _line(sender: str) -> st.SearchStrategy[str]:
    return st.one_of(_command(sender), _command(sender), _order(), _odd_line)


@dataclass(frozen=True)
class FuzzMail:
    sender: str  # 'player', 'gm' or 'stranger'
    body: str


@st.composite
def fuzz_mail(draw: st.DrawFn) -> FuzzMail:
    sender = draw(st.sampled_from(("player", "gm", "stranger")))
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 5)) == 0:
            lines.extend(draw(_block()))
        else:
            lines.extend(draw(st.lists(_line(sender), min_size=1, max_size=4)))
    if sender == "player":
        power = draw(st.sampled_from(POWERS))
        lines.insert(0, f"SIGNON {power}@g pw-{power}")
    elif sender == "gm":
        lines.insert(0, f"SIGNON master@g {GM_PASSWORD}")
    newline = draw(st.sampled_from(("\n", "\r\n", "\r")))
    return FuzzMail(sender, newline.join(lines))


# -- the live game, and sending ------------------------------------------------------------

_numbers = itertools.count(1)


def _raw(sender: str, body: str) -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender
    msg["To"] = CONFIG.address
    msg["Subject"] = "fuzz"
    msg["Message-ID"] = f"<fuzz-{next(_numbers)}-{id(body)}@players.test>"
    msg.set_content(body)
    return msg.as_bytes()


@dataclass(frozen=True)
class Outcome:
    status: str  # process_mail's: done, ignored, failed
    replies: tuple[str, ...]  # the texts of the replies (and notices) the mail caused


def send(engine: Engine, sender: str, body: str) -> Outcome:
    """One mail through intake and processing; its status and replies."""
    with Session(engine) as session:
        last = session.exec(select(Outbox.id).order_by(col(Outbox.id).desc())).first() or 0
    inbound_id, _ = store_inbound(engine, _raw(sender, body), "smtp")
    status = process_mail(engine, CONFIG, inbound_id, now=NOW)
    with Session(engine) as session:
        rows = session.exec(select(Outbox).where(col(Outbox.id) > last)).all()
        replies = tuple(_text(row.raw) for row in rows if row.kind in ("reply", "notice"))
    return Outcome(status, replies)


def _text(raw: bytes) -> str:
    part = message_from_bytes(raw, policy=default).get_body(("plain",))
    return str(part.get_content()) if part is not None else ""


def _address(role: str) -> str:
    return f"{role}@players.test"


def live_game(engine: Engine) -> None:
    """Make sure game 'g' is running with its seven players, as the fuzzed
    mails expect: a GM's TERMINATE or EJECT in an earlier mail ends or
    breaks it, so a new 'g' replaces it (the old one renamed away)."""
    with Session(engine) as session:
        game = session.exec(select(Game).where(Game.name == "g")).first()
        if game is not None:
            players = session.exec(select(Member).where(
                Member.game_id == game.id, Member.role == "player",
                Member.status == "active")).all()
            if game.status == "active" and len(players) == len(POWERS) and \
                    game.master_address == _address("gm"):
                return
            game.name = f"old{game.id}"
            session.add(game)
            session.commit()
    send(engine, _address("gm"), f"CREATE g {GM_PASSWORD}\nvariant standard\nEND")
    for power in POWERS:
        send(engine, _address(power), f"JOIN {power}@g pw-{power}")


def deliver(engine: Engine, mail: FuzzMail) -> Outcome:
    """Send a fuzzed mail from its sender's address, to the live game."""
    # hypothesis seeds the global random module the same for every example;
    # the judge's Message-IDs (email.utils.make_msgid) draw from it, and
    # would repeat within one hundredth of a second
    random.seed()
    live_game(engine)
    if mail.sender == "player":
        power = mail.body.split("@", 1)[0].split()[-1]
        return send(engine, _address(power), mail.body)
    return send(engine, _address(mail.sender), mail.body)


def problem(outcome: Outcome) -> str | None:
    """What is wrong with a fuzzed mail's outcome, or None."""
    if outcome.status not in ("done", "ignored"):
        return f"status {outcome.status}"
    for reply in outcome.replies:
        if INTERNAL_ERROR in reply:
            return "internal-error reply"
    return None
