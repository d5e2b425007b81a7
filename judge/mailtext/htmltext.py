"""HTML mail turned into plain text."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

# --------------------------------------------------------------------------- HTML

_BLOCK_TAGS = {
    "address", "article", "blockquote", "br", "dd", "div", "dl", "dt", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section",
    "table", "tr", "ul",
}  # fmt: skip
_SKIPPED_TAGS = {"script", "style", "title", "template"}
# Outlook's reply separator in its plain text; an <hr> plays that part in HTML.
_OUTLOOK_RULE = "_" * 32


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.line_quoted = False
        self.skip = 0
        self.pre = 0
        self.quote = 0

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        # The stdlib asserts on '<![foo' (anything but CDATA and MS Office's
        # '<![if ...]>'); skip such a declaration like a browser would.
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            end = self.rawdata.find(">", i)
            return -1 if end < 0 else end + 1

    def flush(self) -> None:
        text = "".join(self.line) if self.pre else "".join(self.line).strip()
        # A signature separator must survive the stripping as "-- ".
        text = "-- " if text == "--" else text
        self.lines.append(f"> {text}" if self.line_quoted else text)
        self.line = []
        self.line_quoted = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self.skip += 1
        elif tag == "br":
            self.flush()
        elif tag in _BLOCK_TAGS:
            if self.line:
                self.flush()
            self.pre += tag == "pre"
            self.quote += tag == "blockquote"
            if tag == "hr":
                self.lines.append(_OUTLOOK_RULE)
        elif tag in ("td", "th"):
            self.line.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK_TAGS and tag != "br":
            if self.line:
                self.flush()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            if tag == "blockquote":
                self.quote = max(0, self.quote - 1)

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if data.strip() and not "".join(self.line).strip():
            self.line_quoted = self.quote > 0
        if self.pre:
            for i, piece in enumerate(data.split("\n")):
                if i:
                    self.flush()
                self.line.append(piece)
            return
        self.line.append(re.sub(r"\s+", " ", data))


def _defuse(html: str) -> str:
    """Escape every '<' that does not open a complete tag before the next '<'.
    html.parser rescans an unclosed tag up to the end of the input, once per
    such tag, so '<div <div <div ...' takes quadratic time; a browser would
    show those as text anyway. Comments are kept whole. Linear: every search
    stops at the next '<', and the search for '-->' is done once per '-->'."""
    out: list[str] = []
    i = 0
    comment_end = -2  # -2: not searched yet; -1: there is none
    while True:
        lt = html.find("<", i)
        if lt < 0:
            out.append(html[i:])
            return "".join(out)
        out.append(html[i:lt])
        if html.startswith("<!--", lt):
            if comment_end != -1 and comment_end < lt + 4:
                comment_end = html.find("-->", lt + 4)
            if comment_end >= 0:
                out.append(html[lt : comment_end + 3])
                i = comment_end + 3
                continue
        else:
            nxt = html.find("<", lt + 1)
            gt = html.find(">", lt + 1, nxt if nxt >= 0 else len(html))
            if gt >= 0:
                out.append(html[lt : gt + 1])
                i = gt + 1
                continue
        out.append("&lt;")
        i = lt + 1


def html_to_text(html: str) -> str:
    """Readable lines of an HTML mail. Quoted blocks come out as '>' lines so
    that the plain-text rules drop them."""
    parser = _HtmlText()
    try:
        parser.feed(_defuse(html))
        parser.close()
    except Exception:
        # Markup the parser rejects: fall back to dropping every tag.
        return unescape(re.sub(r"<[^>]*>", "\n", html))
    if parser.line:
        parser.flush()
    return "\n".join(parser.lines)
