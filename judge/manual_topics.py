"""HELP by mail: the manual's sections as topics. Players cannot read
docs/manual.md, so the package carries it as judge/manual.md (a symbolic
link to docs/manual.md in the source tree, so there is one manual; a built
wheel holds the file itself) and answers 'HELP topic' with the section that
topic names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from parser.commands.words import KEYWORDS

MANUAL = Path(__file__).resolve().parent / "manual.md"

_HEADING = re.compile(r"^(#{2,3}) (.+?)\s*$")
_NUMBER = re.compile(r"^\d+\.\s*")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Topic:
    title: str  # the heading as written, without its number
    part: str  # the title of the part (## heading) it belongs to; '' for a part
    text: str  # the section as plain text for a mail
    names: frozenset[str]  # what 'HELP name' finds it by, normalised


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def _names(title: str) -> frozenset[str]:
    """'SET WAIT and SET NOWAIT' answers to 'set wait' and 'set nowait',
    'START (FORM)' to 'start' and 'form'."""
    parts = re.split(r",|\band\b|\(|\)|:", title)
    return frozenset(n for n in (_norm(title), *(_norm(p) for p in parts)) if n)


def _plain(lines: list[str]) -> str:
    """Markdown made readable in a plain-text mail: fences dropped and the
    example mails indented, links as their words, no bold stars."""
    out: list[str] = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
            out.append("")
            continue
        if fenced:
            out.append("    " + line)
            continue
        out.append(_LINK.sub(r"\1", line).replace("**", ""))
    return "\n".join(out).strip("\n")


@cache
def topics() -> tuple[Topic, ...]:
    found: list[Topic] = []
    title, part, level = "", "", 0
    body: list[str] = []

    def close() -> None:
        if title:
            found.append(Topic(title, "" if level == 2 else part, _plain(body), _names(title)))

    for line in MANUAL.read_text("utf-8").splitlines():
        heading = _HEADING.match(line)
        if heading is None:
            body.append(line)
            continue
        close()
        level = len(heading.group(1))
        title, body = _NUMBER.sub("", heading.group(2)), []
        if level == 2:
            part = title
    close()
    return tuple(found)


def contents() -> str:
    """The topics, part by part, for 'HELP' alone."""
    lines = ["Topics (send HELP and a topic, e.g. HELP replacing orders):"]
    for topic in topics():
        if not topic.part:
            lines.append(f"  {topic.title}:")
        else:
            lines.append(f"    {topic.title}")
    return "\n".join(lines)


def lookup(asked: str) -> str:
    """The manual's text for a topic, or what to ask instead."""
    wanted = _norm(asked)
    if wanted.upper() in KEYWORDS:  # njudge's and DPJudge's other spellings
        wanted = _norm(KEYWORDS[wanted.upper()])
    exact = [t for t in topics() if wanted in t.names]
    if not exact:
        words = set(wanted.split())
        exact = [t for t in topics() if words and words <= set(_norm(t.title).split())]
    if not exact:
        return _mentions(asked, wanted)
    titles = {t.title for t in exact}
    if len(titles) > 1:
        return (f"Several topics fit '{asked}'; send HELP and one of them:\n"
                + "\n".join(f"  {t.title}" + (f" (in {t.part})" if t.part else "")
                            for t in exact))
    return "\n\n".join(f"{t.title}" + (f" (in {t.part})" if t.part else "") + "\n\n" + t.text
                       for t in exact)


def _mentions(asked: str, wanted: str) -> str:
    """No heading fits: the sections whose text uses the words, or the list."""
    words = set(wanted.split())
    near = [t for t in topics() if words and words <= set(_norm(t.text).split())]
    if not near:
        return f"There is no topic '{asked}' in the manual.\n\n" + contents()
    return (f"No heading is called '{asked}'; these topics speak of it (send HELP and one "
            "of them):\n" + "\n".join(f"  {t.title}" + (f" (in {t.part})" if t.part else "")
                                      for t in near[:15]))
