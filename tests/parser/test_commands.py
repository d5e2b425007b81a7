"""Judge commands read from mail bodies: vectors in data/commands.toml, plus properties."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parser.commands as commands
from engine.variant_file import load_variant
from parser.commands import (
    CommandError,
    Line,
    Orders,
    Press,
    Signon,
    masked,
    parse_commands,
    redacted_lines,
    redacted_source,
    secret_words,
)
from parser.commands.words import misspelt
from tests.examples import examples

DATA = tomllib.loads((Path(__file__).parent / "data" / "commands.toml").read_text("utf-8"))
CASES: list[dict[str, Any]] = DATA["case"]
_LINE_BREAK = ("\r\n", "\r", "\n")


def _tuples(value: Any) -> Any:
    """TOML lists as the tuples the values hold."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _expected(entry: dict[str, Any]) -> Any:
    cls = getattr(commands, entry["type"])
    # a field the entry leaves out is its default, or None if it has none
    fields = {f.name: _tuples(entry.get(f.name)) for f in dataclasses.fields(cls)
              if f.name in entry or f.default is dataclasses.MISSING}
    unknown = set(entry) - set(fields) - {"line", "type", "source"}
    assert not unknown, f"fields {unknown} are not fields of {entry['type']}"
    return cls(**fields)


def test_enough_vectors() -> None:
    assert len(CASES) >= 80
    bad = [c for c in CASES if any(e["type"] == "CommandError" for e in c["expect"])]
    assert len(bad) >= 20
    assert len({c["about"] for c in CASES}) == len(CASES), "two cases share a description"


@pytest.mark.parametrize("case", CASES, ids=[c["about"] for c in CASES])
def test_vector(case: dict[str, Any]) -> None:
    lines = parse_commands(case["text"])
    got = [(line.line, line.command) for line in lines]
    assert len(lines) == len(case["expect"]), got
    for line, entry in zip(lines, case["expect"], strict=True):
        assert line.line == entry["line"], got
        if "source" in entry:
            assert line.source == entry["source"]
        if entry["type"] == "CommandError":
            assert isinstance(line.command, CommandError), got
            assert entry["message"] in line.command.message
            if "word" in entry:
                assert line.command.word == entry["word"]
            assert line.command.suggestion == entry.get("suggestion")
        else:
            assert line.command == _expected(entry)


def test_errors_show_the_right_form() -> None:
    """Every error about a command's words ends with an example of the right form."""
    for text in ("JOIN jigdy", "SIGNON Fjigdy", "SET ABSENCE soon", "CLEAR now", "EJECT"):
        (line,) = parse_commands(text)
        assert isinstance(line.command, CommandError)
        assert "Write it like this: " in line.command.message
        assert str(line.command) == line.command.message  # no suggestion to add


def test_source_is_the_first_line_as_written() -> None:
    lines = parse_commands("  PRESS TO ALL  \nbody\nENDPRESS\n\tSET WAIT\t")
    assert [line.source for line in lines] == ["PRESS TO ALL", "SET WAIT"]
    assert str(CommandError("m", "w", "SIGNON")) == "m (did you mean SIGNON?)"


# -- the misspelt-command rule never takes an order for a command -------------------


def test_no_province_or_power_name_reads_as_a_misspelt_command() -> None:
    standard = load_variant("standard")
    names = [*standard.aliases, *standard.power_aliases, *standard.provinces]
    for name in names:
        for text in (name, f"{name} - Bur", f"A {name} H", f"{name} S A Par - Bur"):
            assert misspelt(text) is None, text
            lines = parse_commands(f"{text}\n")
            assert len(lines) == 1 and isinstance(lines[0].command, Orders), text


# -- passwords are not repeated ---------------------------------------------------


@pytest.mark.parametrize(("source", "shown"), [
    ("SIGNON Fjigdy S3cret", "SIGNON Fjigdy ********"),
    ("sign on france@jigdy S3cret", "sign on france@jigdy ********"),
    ("RESIGN austria@game pw", "RESIGN austria@game ********"),
    ("WATCH jigdy pw", "WATCH jigdy ********"),
    ("JOIN jigdy pw privacy", "JOIN jigdy ******** ********"),
    ("CREATE g pw standard", "CREATE g ******** ********"),
    ("SET PASSWORD newpw", "SET PASSWORD ********"),
    ("set  password  newpw extra", "set password ******** ********"),
    ("REPLACE france a@b.org pw", "REPLACE france a@b.org ********"),
    ("TAKEOVER austria@jigdy pw", "TAKEOVER austria@jigdy ********"),
    ("SET WAIT", "SET WAIT"),
    ("SET NO DRAW", "SET NO DRAW"),
    ("SET PASWORD newpw", "SET PASWORD ********"),
    ("SINGON Fjigdy pw", "SINGON Fjigdy ********"),
    ("A PAR - BUR", "A PAR - BUR"),
    ("SIGNON", "SIGNON"),
    ("PASSWORD pw", "PASSWORD ********"),
    ("Password: pw", "Password: ********"),
    ("Signon\tF@g pw // note", "Signon F@g ******** ******** ********"),
])
def test_redacted_source(source: str, shown: str) -> None:
    assert redacted_source(source) == shown


SECRETS = tomllib.loads(
    (Path(__file__).parents[1] / "judge" / "data" / "secrets.toml").read_text("utf-8"))


@pytest.mark.parametrize("spelling", [s for s in SECRETS["spelling"] if "mime" not in s],
                         ids=lambda s: s["name"])
def test_every_spelling_of_a_password_is_masked(spelling: dict[str, str]) -> None:
    body = spelling["body"].replace("$pw", "Fr-Secret").replace("$gm", "Gm-Secret")
    shown = "\n".join(redacted_lines(body.splitlines()))
    assert "Secret" not in shown, shown
    assert masked(body, secret_words(body)).count("Secret") == 0


# -- properties ---------------------------------------------------------------------

WORDS = [
    "SIGNON", "sign", "on", "off", "SIGNOFF", "PRESS", "TO", "ALL", "GREY", "BROADCAST",
    "ENDPRESS", "END", "press", "CREATE", "SET", "NO", "WAIT", "ABSENCE", "DRAW", "FROM",
    "PASSWORD", "ADDRESS", "DEADLINE", "JOIN", "OBSERVE", "LIST", "HISTORY", "MAP", "RESIGN",
    "OFFICIAL", "ROLLBACK", "FORM", "HELP", "FAKE", "+", "-", "--", "//", "#", ">", "\\\\:",
    ":", ",", ".", "!", "?", "@", "Fjigdy", "france@jigdy", "?jigdy", "jigdy", "pw",
    "2026-12-01", "2026-02-30", "Dec", "1", "31", "2026", "S1901M", "A", "PAR", "-", "BUR",
    "Mar", "Spa", "SINGON", "PRES", "\t", "\u00a0", "\u2028", "\x00", "é", "🙂",
]
SEPARATORS = [" ", "", "\n", "\r\n", "\r", "  ", "\n\n", ","]

mailish = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=40
).map(lambda parts: "".join(word + sep for word, sep in parts))


def _line_count(text: str) -> int:
    count = 1
    index = 0
    while index < len(text):
        if text.startswith("\r\n", index):
            count += 1
            index += 2
            continue
        if text[index] in "\r\n":
            count += 1
        index += 1
    return count


def _check(text: str, lines: list[Line]) -> None:
    assert isinstance(lines, list)
    count = _line_count(text)
    previous = 1
    for line in lines:
        assert isinstance(line, Line)
        assert 1 <= line.line <= count
        assert line.line >= previous, "lines come out in order"
        previous = line.line
        assert "\n" not in line.source and "\r" not in line.source
        command = line.command
        if isinstance(command, CommandError):
            assert command.message
            assert command.message != "this mail could not be read as commands", "reader fault"
        if isinstance(command, Orders):
            assert command.lines
            assert all(1 <= number <= count for number, _ in command.lines)
        if isinstance(command, Press):
            assert command.recipients


@settings(max_examples=examples(400), deadline=None)
@given(mailish)
def test_never_raises_on_mail_like_text(text: str) -> None:
    _check(text, parse_commands(text))


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_any_text(text: str) -> None:
    _check(text, parse_commands(text))


@pytest.mark.slow
def test_hostile_input() -> None:
    huge_order = "A PAR - BUR " * 100_000
    lines = parse_commands(f"SIGNON Fjigdy pw\n{huge_order}\nSET WAIT")
    assert [type(line.command).__name__ for line in lines] == ["Signon", "Orders", "SetWait"]
    long_command = "SET DRAW " + "FRANCE " * 1000
    (line,) = parse_commands(long_command)
    assert isinstance(line.command, CommandError) and "characters long" in line.command.message
    many = "LIST\n" * 20_000
    assert len(parse_commands(many)) == 20_000
    unterminated = "PRESS TO ALL\n" + "x\n" * 50_000
    (line,) = parse_commands(unterminated)
    assert isinstance(line.command, CommandError)
    assert parse_commands("") == []
    assert parse_commands(None)[0].command == CommandError("the mail has no text")  # type: ignore[arg-type]


def test_signon_values_for_every_power_initial_form() -> None:
    """'Xgame' is an initial and a game for every letter and digit but the Master's."""
    for initial in "ABCDEFGHIJKLNOPQRSTUVWXYZ0123456789":
        (line,) = parse_commands(f"SIGNON {initial}jigdy pw")
        assert line.command == Signon(initial, "jigdy", "pw")
    (line,) = parse_commands("SIGNON mjigdy pw")
    assert line.command == Signon("MASTER", "jigdy", "pw")
