"""Reading a mail body line by line into commands, blocks and runs of orders.

- A line whose first word is a command word is a command (words.py); its
  arguments are read by the grammars in grammar.py, set_forms.py, press.py.
- PRESS, BROADCAST, GREY PRESS and OFFICIAL take the lines after them, kept
  as written, up to a line holding only ENDPRESS, END PRESS, ENDBROADCAST,
  END or SIGNOFF. Lines starting with '//' are left out (DPJudge comments).
  With no such end line the press is refused and nothing after it is read:
  the sender's signature, or worse, must not go out as press or be run.
- CREATE takes the settings lines after it ('KEY value') up to a line END,
  a blank line or another command.
- SIGNOFF ends the mail; so does a signature separator line ('-- ').
- Lines quoted from another mail ('> ...') are never read.
- Any other run of lines, up to a blank line or a command, is one Orders
  value for the order parser, comments and power headings included (but a
  run of nothing but comments is dropped).
- DPJudge's line joiner for devices without a newline key is honoured: a
  line starting with '\\\\' followed by a sign uses that sign as a line break.

Nothing here raises: every problem is a CommandError on its line.
"""

from __future__ import annotations

import re
from dataclasses import replace

from parser.actions import on_tokens
from parser.commands.grammar import END, FORMS, Form, Outcome, read
from parser.commands.press import PRESS_FORMS
from parser.commands.set_forms import read_set
from parser.commands.values import (
    CommandError,
    Create,
    Line,
    Official,
    Orders,
    Press,
    Process,
    Signoff,
)
from parser.commands.words import KEYWORDS, bare, misspelt, nearest, read_keyword

MAX_LINE = 1000  # characters in a command line; longer ones are refused unread

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ODD_SPACE = re.compile(r"\s")  # tabs, no-break spaces...: read as plain spaces
_WIRELESS = re.compile(r"[ \t]*\\\\[ \t]*([^\w\s])")
_SETTING = re.compile(r"(?P<key>[A-Za-z][A-Za-z0-9_\-]*)[ \t]*[:=]?[ \t]*(?P<value>.*)$")
_BLOCK_COMMANDS = frozenset({"PRESS", "BROADCAST", "GREY", "OFFICIAL"})
_ENDS = {"ENDPRESS": "ENDPRESS", "ENDBROADCAST": "ENDPRESS", "END": "ENDPRESS",
         "SIGNOFF": "SIGNOFF"}
_OFFICIAL = Form("OFFICIAL", END.copy().set_parse_action(on_tokens(lambda _t: Official(""))),
                 "OFFICIAL, then the announcement, then ENDPRESS")

Numbered = tuple[int, str]  # (1-based line number, line as written)


def split_lines(text: str) -> list[Numbered]:
    """The lines of ``text`` with their numbers, '\\\\' lines broken up."""
    lines: list[Numbered] = []
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        joined = _WIRELESS.match(raw)
        if joined is None:
            lines.append((number, raw))
        else:
            lines.extend((number, part) for part in raw[joined.end():].split(joined.group(1)))
    return lines


def _plain(raw: str) -> str:
    return _ODD_SPACE.sub(" ", raw)


def block_end(raw: str) -> str | None:
    """'ENDPRESS' or 'SIGNOFF' when the line alone ends a press block."""
    words = raw.split()
    if not 1 <= len(words) <= 2:
        return None
    return _ENDS.get(re.sub(r"[^A-Za-z]", "", raw).upper())


def _near_block_end(raw: str) -> bool:
    words = raw.split()
    if len(words) != 1 or len(words[0]) > 20:
        return False
    return nearest(bare(words[0]), ("ENDPRESS", "ENDBROADCAST", "SIGNOFF")) is not None


class _Reader:
    def __init__(self, lines: list[Numbered]) -> None:
        self.lines = lines
        self.at = 0
        self.out: list[Line] = []
        self._ends: list[int] | None = None  # for each line, the next press end line

    def _next_end(self, start: int) -> int | None:
        """The index of the first line from ``start`` on that ends a press block."""
        if self._ends is None:  # one pass from the bottom, so that many misspelt
            self._ends = [len(self.lines)] * (len(self.lines) + 1)  # PRESS lines stay linear
            for index in range(len(self.lines) - 1, -1, -1):
                found = block_end(self.lines[index][1]) is not None
                self._ends[index] = index if found else self._ends[index + 1]
        at = self._ends[start] if start < len(self._ends) else len(self.lines)
        return at if at < len(self.lines) else None

    def read(self) -> list[Line]:
        while self.at < len(self.lines) and self._step():
            pass
        return _closing_marked(self.out)

    def _emit(self, number: int, source: str, outcome: Outcome) -> None:
        self.out.append(Line(number, source.strip(), outcome))

    def _kind(self, raw: str) -> str:
        stripped = raw.strip()
        if not stripped:
            return "blank"
        if stripped == "--":
            return "signature"
        if stripped.startswith(">"):
            return "quoted"
        if stripped.startswith(("#", "//")):
            return "comment"
        if read_keyword(_plain(raw)) is not None:
            return "command"
        if misspelt(_plain(raw)) is not None:
            return "misspelt"
        return "order"

    def _step(self) -> bool:
        """Read what starts at the current line; False once the mail has ended."""
        number, raw = self.lines[self.at]
        kind = self._kind(raw)
        if kind == "signature":
            return False
        if kind in ("blank", "quoted"):
            self.at += 1
            return True
        if kind in ("order", "comment"):
            self._orders()
            return True
        if kind == "misspelt":
            return self._misspelt(number, raw)
        return self._command(number, raw)

    # -- runs of orders ----------------------------------------------------

    def _orders(self) -> None:
        run: list[tuple[int, str, str]] = []
        while self.at < len(self.lines):
            number, raw = self.lines[self.at]
            kind = self._kind(raw)
            if kind not in ("order", "comment"):
                break
            run.append((number, raw, kind))
            self.at += 1
        while run and run[-1][2] == "comment":
            run.pop()
        while run and run[0][2] == "comment":
            run.pop(0)
        if run:
            lines = tuple((number, raw) for number, raw, _ in run)
            self._emit(run[0][0], run[0][1], Orders(lines))

    # -- commands ------------------------------------------------------------

    def _misspelt(self, number: int, raw: str) -> bool:
        found = misspelt(_plain(raw))
        assert found is not None
        word, meant = found
        self._emit(number, raw, CommandError(f"unknown command '{word}'", word, meant))
        self.at += 1
        if KEYWORDS[meant] in _BLOCK_COMMANDS:
            # The lines after a misspelt PRESS are press text all the same:
            # never read them as orders or commands if an end line follows.
            ahead = self._next_end(self.at)
            if ahead is not None:
                self.at = ahead + 1
                return block_end(self.lines[ahead][1]) != "SIGNOFF"
        return True

    def _command(self, number: int, raw: str) -> bool:
        text = _plain(raw)
        if len(text) > MAX_LINE:
            message = f"line is {len(text)} characters long; at most {MAX_LINE} are read"
            self._emit(number, raw[:60] + "...", CommandError(message))
            self.at += 1
            return True
        found = read_keyword(text)
        assert found is not None
        command, spelled, end = found
        args = text[end:]
        if command == "SIGNOFF":
            self._emit(number, raw, Signoff())
            return False
        if command in ("END", "ENDPRESS"):  # nothing to end: harmless
            self.at += 1
            return True
        if command in _BLOCK_COMMANDS:
            return self._block(number, raw, command, args)
        if command == "CREATE":
            self._create(number, raw, args)
            return True
        self.at += 1
        if command == "SET":
            outcomes = read_set(args)
        elif command == "UNSUPPORTED":
            word = text.split()[0].rstrip(".,;:!?")
            outcomes = [CommandError(
                f"{spelled} is not a command of this judge; send HELP for the list", word)]
        else:
            outcomes = read(FORMS[command], args)
        if command == "PROCESS" and text.split()[0].endswith("!"):
            # DPJudge's PROCESS!: process even with orders missing
            outcomes = [replace(o, forced=True) if isinstance(o, Process) else o
                        for o in outcomes]
        for outcome in outcomes:
            self._emit(number, raw, outcome)
        return True

    # -- press and OFFICIAL ----------------------------------------------------

    def _block(self, number: int, raw: str, command: str, args: str) -> bool:
        name = "OFFICIAL" if command == "OFFICIAL" else "PRESS"
        if command == "OFFICIAL":
            header = read(_OFFICIAL, args)
        elif command == "GREY":
            then = read_keyword(args)
            if then is None or then[0] not in ("PRESS", "BROADCAST"):
                self._emit(number, raw, CommandError(
                    "GREY must be followed by PRESS or BROADCAST, as in GREY PRESS TO FRANCE"))
                self.at += 1
                return True
            header = read(PRESS_FORMS[(then[0], True)], args[then[2]:])
        else:
            header = read(PRESS_FORMS[(command, False)], args)
        body: list[str] = []
        near_end: str | None = None
        for ahead in range(self.at + 1, len(self.lines)):
            line_number, line = self.lines[ahead]
            end = block_end(line)
            if end is not None:
                for outcome in header:
                    self._emit(number, raw, _with_body(outcome, body))
                self.at = ahead + 1
                if end == "SIGNOFF":
                    self._emit(line_number, line, Signoff())
                    return False
                return True
            if line.strip().startswith("//"):
                continue
            if near_end is None and _near_block_end(line):
                near_end = line.strip()
            body.append(line)
        message = (f"{name} without ENDPRESS: the {name.lower()} was not sent and nothing "
                   f"after it was read; end it with a line ENDPRESS")
        self._emit(number, raw, CommandError(
            message, near_end or "", "ENDPRESS" if near_end else None))
        self.at = len(self.lines)
        return False

    # -- CREATE ------------------------------------------------------------------

    def _create(self, number: int, raw: str, args: str) -> None:
        header = read(FORMS["CREATE"], args)
        settings: list[tuple[str, str]] = []
        problems: list[Line] = []
        self.at += 1
        while self.at < len(self.lines):
            line_number, line = self.lines[self.at]
            stripped = _plain(line).strip()
            if not stripped or bare(stripped) == "END":
                self.at += 1
                break
            kind = self._kind(line)
            if kind in ("signature", "quoted"):
                break
            if kind == "command" and not _is_setting(stripped):
                break
            self.at += 1
            if kind == "comment":
                continue
            if len(stripped) > MAX_LINE:
                problems.append(Line(line_number, stripped[:60] + "...", CommandError(
                    f"line is {len(stripped)} characters long; at most {MAX_LINE} are read")))
                continue
            setting = _SETTING.match(stripped)
            if setting is None:
                problems.append(Line(line_number, stripped, CommandError(
                    f"'{stripped.split()[0]}' is not a setting: write a key and its value, "
                    f"as in: variant standard", stripped.split()[0])))
                continue
            settings.append((setting["key"].lower(), setting["value"].strip()))
        for outcome in header:
            if isinstance(outcome, Create):
                outcome = replace(outcome, settings=outcome.settings + tuple(settings))
            self._emit(number, raw, outcome)
        self.out.extend(problems)


def _closing_marked(out: list[Line]) -> list[Line]:
    """The runs of order lines a closing may end (a signature after the
    orders: 'Regards,', a name), marked for the judge: those followed by
    nothing but other runs of order lines, then SIGNOFF or the mail's end,
    each with the lines of the runs after it."""
    end = len(out)
    while end and isinstance(out[end - 1].command, Signoff):
        end -= 1
    start = end
    while start and isinstance(out[start - 1].command, Orders):
        start -= 1
    marked = list(out)
    earlier = any(isinstance(line.command, Orders) for line in out[:start])
    for index in range(start, end):
        command = out[index].command
        assert isinstance(command, Orders)
        later = tuple(pair for line in out[index + 1:end]
                      if isinstance(line.command, Orders) for pair in line.command.lines)
        marked[index] = replace(out[index], command=replace(
            command, at_end=True, later=later, after_orders=earlier or index > start))
    return marked


def _is_setting(stripped: str) -> bool:
    """Whether a line in a CREATE block that starts with a command word is a setting.

    'press grey', 'list a@b.org' and DPJudge's 'map standard' are settings;
    'PRESS TO ...' after the settings is press.
    """
    words = stripped.split()
    first = bare(words[0])
    if first in ("LIST", "MAP"):
        return True
    if first == "PRESS":
        return len(words) > 1 and bare(words[1]) != "TO" and not words[1].startswith("+")
    return False


def _with_body(outcome: Outcome, body: list[str]) -> Outcome:
    start, stop = 0, len(body)
    while start < stop and not body[start].strip():
        start += 1
    while stop > start and not body[stop - 1].strip():
        stop -= 1
    text = "\n".join(body[start:stop])
    if isinstance(outcome, Press):
        return replace(outcome, body=text)
    if isinstance(outcome, Official):
        return Official(text)
    return outcome


def parse_commands(text: str) -> list[Line]:
    """Every command of a mail body, in order; never raises."""
    if not isinstance(text, str):
        return [Line(1, "", CommandError("the mail has no text"))]
    try:
        return _Reader(split_lines(text)).read()
    except Exception:  # a fault of this reader must not lose the sender's mail
        return [Line(1, "", CommandError("this mail could not be read as commands"))]
