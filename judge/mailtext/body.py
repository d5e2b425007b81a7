"""The body rules: line ends, SIGNOFF, signatures, quotes, comments, length."""

from __future__ import annotations

import re

# --------------------------------------------------------------------------- the body

_NEWLINES = re.compile("\r\n|[\r\v\f\u2028\u2029]")
# Tabs and every Unicode space except the plain one.
_SPACES = re.compile("[\t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
# Controls, lone surrogates, and invisible characters that would split words
# (zero-width space, BOM, soft hyphen, bidirectional overrides).
_INVISIBLE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_SIGNOFF = re.compile(r"(?i)\s*signoff\s*")
_FORWARD = re.compile(
    r"(?i)-{2,}\s*(original message|forwarded message|message d'origine|"
    r"urspr\u00fcngliche nachricht|weitergeleitete nachricht)\s*-{2,}|begin forwarded message:"
)
_HEADER_START = re.compile(r"(?i)\s*(from|de|von|da|van|fra|fr\u00e5n|od)\s?:")
_ATTRIBUTION = re.compile(
    r"(?i).*\b(wrote|writes|schrieb|a \u00e9crit|escribi\u00f3|ha scritto|scrisse|schreef|skrev|"
    r"escreveu|napisa\u0142|\u043d\u0430\u043f\u0438\u0441\u0430\u043b\w*)\s*:\s*"
)
_ATTRIBUTION_START = re.compile(r"(On|Le|Am|El|Il|Op|Em|Den)\s")


def _normalise(text: str) -> str:
    text = _NEWLINES.sub("\n", text)
    text = _SPACES.sub(" ", text)
    return _INVISIBLE.sub("", text)


def _one_line(text: str, limit: int) -> str:
    return re.sub(r"\s+", " ", _normalise(text)).strip()[:limit].strip()


def _outlook_rule(stripped: str) -> bool:
    return len(stripped) >= 30 and stripped == "_" * len(stripped)


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _next_content(lines: list[str], start: int) -> str:
    """The next non-blank line from `start`, looking a few lines ahead only."""
    for line in lines[start : start + 4]:
        if line.strip():
            return line
    return ""


def _attribution(lines: list[str], i: int) -> int:
    """How many lines at `i` form an 'On <date>, <name> wrote:' line (it may be
    wrapped over two) that heads a quote; 0 if they do not."""
    line = lines[i]
    if len(line) > 1000:
        return 0
    if _ATTRIBUTION.fullmatch(line) and _quoted(_next_content(lines, i + 1)):
        return 1
    if (
        _ATTRIBUTION_START.match(line)
        and i + 1 < len(lines)
        and len(lines[i + 1]) < 1000
        and _ATTRIBUTION.fullmatch(lines[i + 1])
        and _quoted(_next_content(lines, i + 2))
    ):
        return 2
    return 0


def _clean_body(text: str, limit: int) -> tuple[str, list[str]]:
    """The mail's text as the judge reads it, and a note if it was cut."""
    lines = _normalise(text).split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _SIGNOFF.fullmatch(line):
            kept.append(stripped)
            break
        if line == "-- " or _FORWARD.fullmatch(stripped):
            break
        if _outlook_rule(stripped) and _HEADER_START.match(_next_content(lines, i + 1)):
            break
        # Lines the judge does not read become blank rather than vanish, so
        # the line numbers in its reply are those of the mail as written.
        if stripped.startswith((">", "//")):
            kept.append("")
            i += 1
            continue
        # An attribution goes with its quote; what follows the quote is the
        # sender's own answer (bottom posting), so it is kept.
        skip = _attribution(lines, i)
        if skip:
            kept.extend([""] * skip)
            i += skip
            continue
        kept.append(line.rstrip())
        i += 1
    body = "\n".join(kept).rstrip("\n")
    if len(body) <= limit:
        return body, []
    cut = body[:limit]
    # Better to lose a whole last line than to read half an order.
    if "\n" in cut and body[limit] != "\n":
        cut = cut[: cut.rindex("\n")]
    return cut.rstrip(), [f"the text was longer than {limit} characters; the rest was ignored"]
