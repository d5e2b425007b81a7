"""Reading players' orders: text in, :mod:`engine.orders` values out.

``parse_orders`` takes the body of a mail: one or more orders per line,
separated by ';' or ','. Blank lines, lines starting with '#' or '//' (and
the rest of a line after '#' or '//'), and lines that only name a power
('FRANCE', '[England]', 'Russia:') are skipped. Each order is read by the
grammar in :mod:`parser.grammar` (summarised there), built once per map and
cached. Every order that cannot be read becomes an :class:`OrderError` naming
the line, the column and the word at fault, with the most likely province
(or order word) the player meant. Nothing here raises, whatever the input.

Unit types are optional everywhere (``UnitRef.kind`` is None when not
written); provinces come out as map codes ('PAR', 'STP/SC'); a coast the
province does not have is dropped. Whether an order makes sense on the board
(or in this phase) is for the engine to decide, not the parser: in a retreat
phase 'A Mun - Boh' is a Move, which the engine treats as a retreat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from itertools import islice
from typing import TYPE_CHECKING

from engine.map import GameMap
from engine.map_cache import per_map
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from engine.variants import rules_for
from parser.canonical import CanonicalReader
from parser.embassy import EmbassyReader
from parser.names import WORD, Places, Powers, Suggester
from parser.words import KEYWORDS, KNOWN_WORDS, PowerPrefix, power_letters

if TYPE_CHECKING:
    import pyparsing as pp

MAX_LINE = 500  # characters; longer lines are refused unread

_ORDER_TYPES = (
    Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Remove, Waive,
)
_SEGMENT = re.compile(r"[^;,]+")
_COMMENT = re.compile(r"#|//")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ODD_SPACE = re.compile(r"\s")  # tabs, no-break spaces...: read as plain spaces
_DANGLING = re.compile(r"[\s\-=>\u2013\u2014\u2192]*")  # a move operator with nothing after
# Diplomap's map orders ('Draw Gal/War - Gal/Bud', parser.map_orders): a line
# starting so is never read as unit orders ('Gal/War' is no coast, its commas
# part no orders); the judge reads such lines with parse_map_order.
MAP_ORDER_START = re.compile(r"\s*(?P<k>draw|erase)(?![^\W_])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ParsedOrder:
    """An order read from a line of text."""

    line: int  # 1-based line of the text the order was on
    source: str  # the order as written
    order: Order


@dataclass(frozen=True, slots=True)
class OrderError:
    """A line that could not be read as an order, and where it went wrong."""

    line: int
    column: int  # 1-based column of ``word`` in its line
    source: str  # the order as written
    word: str  # the word at fault ('' when something is missing)
    message: str
    suggestion: str | None = None

    def __str__(self) -> str:
        hint = f" (did you mean {self.suggestion}?)" if self.suggestion else ""
        return f"line {self.line}: {self.message}{hint}"


@dataclass(frozen=True, slots=True)
class OrdersParse:
    """What a text of orders reads as: its orders and its errors."""

    orders: tuple[ParsedOrder, ...]
    errors: tuple[OrderError, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


class _MapParser:
    """Everything built from one map: the grammar and the name tables."""

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        self.places = Places(game_map.provinces, game_map.aliases, KEYWORDS)
        self.powers = Powers(game_map.power_aliases)
        self.suggester = Suggester(
            game_map.provinces, game_map.aliases, game_map.power_aliases, KEYWORDS
        )
        self.canonical = CanonicalReader(game_map, KEYWORDS)
        self.prefix = PowerPrefix(self.powers, power_letters(game_map), self.places)
        # orders for another board's units (Dissolution's Embassies), if the map has one
        spaces = rules_for(game_map).board_spaces(game_map)
        self.embassies = EmbassyReader(spaces, _power_names(game_map)) if spaces else None

    # The grammar (pyparsing) is built, and pyparsing loaded, for the first
    # line the canonical reader does not take: a tool giving orders in the
    # judge's own form (`judge adjudicate`) never pays for either.
    @cached_property
    def grammar(self) -> pp.ParserElement:
        from parser.grammar import build_grammar
        return build_grammar(self.game_map)

    @cached_property
    def heading(self) -> pp.ParserElement:
        from parser.grammar import build_heading
        return build_heading(self.game_map)

    # -- one order ----------------------------------------------------------

    def parse(self, text: str, offset: int, line: int,
              fast_lane: bool = True) -> Order | OrderError:
        """Read the order ``text``, found at ``offset`` in its line.

        ``fast_lane=False`` skips the canonical-form reader (for tests that
        compare it with the grammar).
        """
        fast = self.canonical.read(text) if fast_lane else None
        if fast is not None:
            return fast
        if self.embassies is not None:
            embassy = self.embassies.read(text)
            if isinstance(embassy, str):
                return OrderError(line, offset + 1, text.strip(), "", embassy)
            if embassy is not None:
                return embassy
        from pyparsing import ParseBaseException  # loaded with the grammar

        source = text.strip()
        text = _ODD_SPACE.sub(" ", text)
        try:
            result = self.grammar.parse_string(text, parse_all=True)
        except ParseBaseException as exc:
            fail = exc.loc
        except Exception:  # never let a grammar fault escape to the caller
            return OrderError(line, offset + 1, source, "", "this order could not be read")
        else:
            orders = [t for t in result if isinstance(t, _ORDER_TYPES)]
            if len(orders) == 1:
                return orders[0]
            return OrderError(line, offset + 1, source, "", "this order could not be read")
        try:
            return self._diagnose(text, offset, line, fail)
        except Exception:
            return OrderError(line, offset + 1, source, "", "this order could not be read")

    def is_heading(self, text: str) -> bool:
        try:
            self.heading.parse_string(_ODD_SPACE.sub(" ", text), parse_all=True)
        except Exception:
            return False
        return True

    def _diagnose(self, text: str, offset: int, line: int, fail: int) -> OrderError:
        source = text.strip()
        pos = 0
        while True:
            word = WORD.search(text, pos)
            if word is None:
                break
            found = self.places.match(text, word.start()) or self.powers.match(
                text, word.start()
            )
            if found is not None:
                pos = max(found.end, word.end())
                continue
            spelled = word.group()
            if spelled.lower() in KNOWN_WORDS or spelled.isdigit():
                pos = word.end()
                continue
            return self._unknown(text, word, offset, line, source)

        fail = max(0, min(fail, len(text)))
        while fail < len(text) and text[fail].isspace():
            fail += 1
        before = text[:fail].strip()
        if fail >= len(text.rstrip()) or _DANGLING.fullmatch(text, fail):
            return OrderError(
                line, offset + len(text.rstrip()) + 1, source, "",
                f"'{source}' is incomplete",
            )
        at = WORD.match(text, fail)
        bad = at.group() if at is not None else text[fail]
        if before:
            message = f"did not expect '{bad}' after '{before}'"
        else:
            message = f"an order cannot begin with '{bad}'"
        return OrderError(line, offset + fail + 1, source, bad, message)

    def _unknown(
        self, text: str, word: re.Match[str], offset: int, line: int, source: str
    ) -> OrderError:
        following = [w.group().lower() for w in islice(WORD.finditer(text, word.end()), 2)]
        phrases = [" ".join([word.group().lower(), *following[:n]]) for n in range(3)]
        suggestion = self.suggester.suggest(phrases)
        spelled = word.group()
        column = offset + word.start() + 1
        if suggestion is None:
            message = f"'{spelled}' is not a province or an order word"
            return OrderError(line, column, source, spelled, message)
        if suggestion.kind == "province":
            message = f"'{spelled}' is not a province"
        elif suggestion.kind == "power":
            message = f"'{spelled}' is not a power"
        else:
            message = f"'{spelled}' is not a province or an order word"
        return OrderError(line, column, source, spelled, message, suggestion.text)


def _power_names(game_map: GameMap) -> dict[str, str]:
    """Every spelling of a power: its aliases, and its letters (``PA``)."""
    names = dict(game_map.power_aliases)
    for name, power in game_map.powers.items():
        names.setdefault(power.letter.lower(), name)
        names.setdefault(name.lower().replace("_", " "), name)
    return names


_parser_for = per_map(_MapParser)


def _too_long(text: str, line: int) -> OrderError:
    return OrderError(
        line, 1, text[:60] + "...", "",
        f"line is {len(text)} characters long; at most {MAX_LINE} are read",
    )


def parse_order(text: str, game_map: GameMap, line: int = 1) -> Order | OrderError:
    """Read a single order (no ';' or ',' separators, no comments)."""
    if not isinstance(text, str):
        return OrderError(line, 1, "", "", "an order must be text")
    if len(text) > MAX_LINE:
        return _too_long(text, line)
    if "\n" in text or "\r" in text:
        text = _LINE_BREAK.sub(" ", text)
    if not text or text.isspace():
        return OrderError(line, 1, "", "", "no order given")
    if MAP_ORDER_START.match(text):
        return _map_order(text, line)
    try:
        parser = _parser_for(game_map)
    except Exception:
        return OrderError(line, 1, text.strip(), "", "the map's names could not be read")
    return parser.parse(text, 0, line)


_LIST_NUMBER = re.compile(r"\s*(?:\d{1,3}[.)]|\u2022)?\s*")


def written_power(source: str, game_map: GameMap) -> str | None:
    """The power an order's line names before the order ('Canada: F Nort H',
    '[ENGLAND] F Lon H'), which the grammar reads and drops; None if none."""
    try:
        parser = _parser_for(game_map)
    except Exception:
        return None
    start = _LIST_NUMBER.match(source)
    found = parser.prefix.power_at(source, start.end() if start else 0)
    return found[1] if found is not None else None


def _map_order(text: str, line: int) -> OrderError:
    found = MAP_ORDER_START.match(text)
    assert found is not None
    word = found.group("k")
    return OrderError(line, found.start("k") + 1, text.strip(), word,
                      f"'{word}' begins a map order, for games with Diplomap on "
                      "(a line of its own)")


def parse_orders(text: str, game_map: GameMap) -> OrdersParse:
    """Read every order in ``text``; never raises."""
    orders: list[ParsedOrder] = []
    errors: list[OrderError] = []
    if not isinstance(text, str):
        return OrdersParse((), (OrderError(1, 1, "", "", "orders must be text"),))
    try:
        parser = _parser_for(game_map)
    except Exception:
        error = OrderError(1, 1, "", "", "the map's names could not be read")
        return OrdersParse((), (error,))
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith(("#", "//")):
            continue
        if len(raw) > MAX_LINE:
            errors.append(_too_long(raw, number))
            continue
        comment = _COMMENT.search(raw)
        body = raw[: comment.start()] if comment else raw
        if parser.is_heading(body):
            continue
        if MAP_ORDER_START.match(body):
            errors.append(_map_order(body, number))
            continue
        for segment in _SEGMENT.finditer(body):
            if not segment.group().strip():
                continue
            result = parser.parse(segment.group(), segment.start(), number)
            if isinstance(result, OrderError):
                errors.append(result)
            else:
                orders.append(ParsedOrder(number, segment.group().strip(), result))
    return OrdersParse(tuple(orders), tuple(errors))
