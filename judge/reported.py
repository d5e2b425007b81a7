"""A phase's report sections (engine/reports.py) as the judge stores and
reads them: each section's lines under its key in the phase's results
JSON, and under ``sections`` the keys in order with their titles and
secrecy. The results mail, HISTORY and the end-of-game mail read them back
here and loop over them, whatever the variant.

Results stored before sections existed have the four reports of that time
under their own keys and no ``sections``; they are read as sections too,
their lines' text made as the mails of that time made it. So are the
sentences on the board's changes that the judge itself wrote under
``map_changes`` before Diplomap reported them as a section (``board_changes``),
also in results that have ``sections``: they come after the sections, where
the mails of that time put them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.bids import BIDS_KEY, BIDS_TITLE, bid_line
from engine.diplomap.values import fate_text
from engine.reports import DESTROYED_KEY, ReportSection
from engine.state import GameState


@dataclass(frozen=True)
class Reported:
    """A stored section: its lines as JSON, each with its ``text``."""

    key: str
    title: str
    lines: tuple[Mapping[str, Any], ...]
    secret_until_end: bool = False
    label: str = ""  # put before each line where sections share a list (HISTORY)

    @property
    def texts(self) -> list[str]:
        return [str(line["text"]) for line in self.lines]


def to_json(sections: Iterable[ReportSection],
            extra: Mapping[str, Sequence[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """The sections for a phase's results JSON. ``extra``: lines the judge
    adds to a section by key, first (bids and map orders it could not read);
    a section with extra lines and none of the engine's is made for them."""
    extra = dict(extra or {})
    out: dict[str, Any] = {}
    index = []
    for section in sections:
        out[section.key] = [*extra.pop(section.key, ()), *(ln.fields() for ln in section.lines)]
        index.append({"key": section.key, "title": section.title,
                      "secret_until_end": section.secret_until_end,
                      **({"label": section.label} if section.label else {})})
    for key, lines in extra.items():
        if lines:
            title, secret, _ = _LEGACY.get(key, (key, False, ""))
            out[key] = list(lines)
            index.append({"key": key, "title": title, "secret_until_end": secret})
    return {**out, "sections": index} if index else {}


def seat_names(state: GameState) -> dict[str, str]:
    """The name each named seat's lines are filed under its first power for
    ('CAPE_COLONY' -> 'Blue': an Intercontinental colour group bids from one
    pool, filed under its first power); none where no seat has a name of its own."""
    return {seat.powers[0]: seat.player for seat in state.seats if seat.named}


def read(results: Mapping[str, Any], bidders: Mapping[str, str] | None = None,
         ) -> list[Reported]:
    """The sections of a phase's stored results, in order; ``bidders``
    names the bidders of the bids section by their seats (seat_names)."""
    index = list(results.get("sections") or [])
    indexed = {entry["key"] for entry in index}
    # stored before sections existed, or (the board's changes) before theirs
    index.extend({"key": key, "title": title, "secret_until_end": secret, "label": label}
                 for key, (title, secret, label) in _LEGACY.items()
                 if key not in indexed and results.get(key))
    return [Reported(key := entry["key"], entry["title"],
                     _aligned(key, [_with_text(key, line) for line in results.get(key, [])],
                              bidders or {}),
                     bool(entry.get("secret_until_end")), str(entry.get("label") or ""))
            for entry in index]


def _aligned(key: str, lines: list[Mapping[str, Any]],
             bidders: Mapping[str, str]) -> tuple[Mapping[str, Any], ...]:
    """A phase's bids in one column however long their bidders' names
    (each was written alone, in the standard column: CAPE_COLONY overflows
    it), each bidder named by its seat where the seat has a name."""
    if key != BIDS_KEY or not all({"bidder", "bid", "counted"} <= set(ln) for ln in lines):
        return tuple(lines)

    def name(line: Mapping[str, Any]) -> str:
        return bidders.get(str(line["bidder"]), str(line["bidder"]))
    width = max([9, *(len(name(line)) for line in lines)])
    return tuple({**line, "text": bid_line(name(line), str(line["bid"]),
                                          bool(line["counted"]), str(line.get("why") or ""),
                                          width)} for line in lines)


def read_text(record_results: str, bidders: Mapping[str, str] | None = None,
              ) -> list[Reported]:
    return read(json.loads(record_results), bidders) if record_results else []


def for_the_master(sections: Iterable[Reported]) -> list[Reported]:
    """The secret sections with something to say, each titled as the GM's
    copy of the results shows them (the players see them when the game ends)."""
    return [replace(s, title=f"{s.title} (the GM's copy only: secret until the game ends)")
            for s in sections if s.secret_until_end and s.lines]


def public(sections: Iterable[Reported], over: bool = False) -> list[Reported]:
    """The sections everyone may read: not the secret ones until the game is over."""
    return [s for s in sections if over or not s.secret_until_end]


def told_as_destroyed(sections: Iterable[Reported]) -> set[tuple[str, str]]:
    """(power, order) of the result rows the results mail leaves out because
    a section tells them: the rows the engine added for units it took off
    the board (the 'Units destroyed' section says it, once), and the rows a
    line stands for (``unlisted``: the neutral units that held by default,
    counted in one line)."""
    told: set[tuple[str, str]] = set()
    for s in sections:
        for line in s.lines:
            if s.key == DESTROYED_KEY and line.get("order"):
                told.add((str(line.get("power")), str(line["order"])))
            told.update((str(power), str(order)) for power, order in line.get("unlisted", ()))
    return told


# the reports stored by name before sections: (title, secret until the
# end, label), as the mails of that time printed them; the board's changes
# were stored as sentences
_LEGACY: dict[str, tuple[str, bool, str]] = {
    "map_results": ("Map orders (Diplomap)", False, ""),
    "violations": ("Violations against nuclear powers", False, ""),
    "kicks": ("Embassies kicked on the Favor map", False, ""),
    BIDS_KEY: (BIDS_TITLE, True, ""),
    "map_changes": ("The board changes", False, "board"),
}


def _with_text(key: str, line: Mapping[str, Any] | str) -> Mapping[str, Any]:
    if isinstance(line, str):  # a sentence alone (the board's changes, before sections)
        return {"text": line}
    if "text" in line:
        return line
    if key == BIDS_KEY:  # stored, or unreadable and never a fact
        text = bid_line(str(line["bidder"]), str(line["bid"]), bool(line["counted"]),
                        str(line.get("why") or ""))
    elif key == "map_results":
        text = (f"{line['power']:<9} " + fate_text(str(line["order"]), bool(line["succeeded"]),
                                                   str(line.get("reason") or ""),
                                                   str(line.get("section") or "")))
    else:
        text = str(line)
    return {**line, "text": text}
