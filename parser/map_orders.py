"""Reading Diplomap's map orders: ``Draw Gal/War - Gal/Bud``, ``Erase Gal/War``.

Diplomap (rule text ru12 by Michael Harvath, CC BY-SA 4.0) lets each power
draw a new border inside a province or erase one between two provinces with
its Spring and Fall orders. This reader turns such a line into the values of
:mod:`engine.diplomap.values`. In outline (words in any case)::

    order   := draw | erase                      ['.' | '!'] at the end
    erase   := ERASE place ('/' | '&' | move) place      'Erase Gal/War', 'Erase Ruhr - Bur'
    draw    := DRAW [FROM] border [move] border clause*
    border  := place ('/' | '&') place
    place   := a name of the map in force | OTB | Edge | off the board | board edge
    move    := - -- -> => > = (en dash, em dash, arrow) | to
    clause  := [',' | '(' ...] (inside | centre)
    inside  := (INSIDE | WITHIN | IN) place     the province of a loop (§II.G.2)
    centre  := SC [goes|stays|is...] [IN | ON | TO] [the] compass [region | part | side...]
             | SC [IN | ON] [the] place ['s] (side | part...)
             | SC (WITH | NEXT TO | BY | BESIDE ...) place
    SC      := sc | supply centre | supply center | centre | center
    compass := north | northern | north-east(ern) | N | NE ... (the eight points)
             | inner | inside | the loop | I  /  outer | outside | O    (a loop's two parts)

A border is named by two places as the rule text does; the board's edge is
``EDGE`` (:data:`engine.diplomap.values.EDGE`). Names are looked up in the
aliases of the map in force, so the codes of provinces made by earlier
changes (``Gal-N``, ``Lvn+StP-S``) are read like any other. Place names are
read here, not by :class:`parser.names.Places`, so that ``Gal/War`` is a
border and never Galicia with a coast.

A Draw comes out with the province it splits first in both borders
(``Draw War/Gal - Gal/Bud`` is ``DRAW GAL/WAR - GAL/BUD``), and a loop with
the province it lies in first, so the engine need not guess. Whether the
order can be carried out on the board is for the engine to say at the
deadline; only what cannot be an order at all is refused here. Nothing here
raises, whatever the input.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from engine.diplomap.values import EDGE, Draw, Erase, MapOrder, Side
from engine.map import GameMap, Terrain, normalise_name, province_of
from engine.map_cache import per_map
from parser.names import WORD, NameIndex, Suggester
from parser.orders import MAP_ORDER_START, MAX_LINE, OrderError

_ODD_SPACE = re.compile(r"\s")  # tabs, no-break spaces: plain spaces, same length
_SPACE = re.compile(r"[ ]*")
_WORD_END = r"(?![^\W_])"

_KEYWORD = re.compile(rf"[ ]*(?P<k>draw|erase){_WORD_END}[ ]*:?", re.IGNORECASE)
_ORDER_START = re.compile(rf"(?:^|(?<=[.;,]))\s*(?P<k>draw|erase){_WORD_END}", re.IGNORECASE)
_FROM = re.compile(rf"from{_WORD_END}", re.IGNORECASE)
_BORDER_SLASH = re.compile(r"[ ]*(?:/|&)[ ]*")
_MOVE = re.compile(rf"[ ]*(?:-->|->|--|=>|-|\u2013|\u2014|\u2192|>|=|to{_WORD_END})[ ]*",
                   re.IGNORECASE)
_END = re.compile(r"[ )]*[.!]*[ ]*$")
_CLAUSE_GAP = re.compile(r"[ ,;()]*")
_INSIDE = re.compile(rf"(?:inside(?:[ ]+of)?|within|in){_WORD_END}[ ]*", re.IGNORECASE)
_CENTRE = re.compile(
    rf"(?:sc|supply[ ]+cent(?:re|er)|cent(?:re|er)){_WORD_END}[ ]*"
    rf"(?:(?:goes|stays|remains|is|moves|placed|assigned)(?:[ ]+to)?{_WORD_END}[ ]*)?",
    re.IGNORECASE,
)
_CENTRE_IN = re.compile(rf"(?:(?:in|on|to|at){_WORD_END}[ ]*)?(?:the{_WORD_END}[ ]*)?",
                        re.IGNORECASE)
_CENTRE_WITH = re.compile(
    rf"(?:with|next[ ]+to|by|beside|near|along|bordering|touching|adjacent[ ]+to)"
    rf"{_WORD_END}[ ]*(?:the{_WORD_END}[ ]*)?",
    re.IGNORECASE,
)
_REGION = re.compile(
    rf"[ ]*(?:region|part|side|half|portion|area|piece|province){_WORD_END}",
    re.IGNORECASE,
)
_EDGE = re.compile(
    rf"(?:off[ -]*(?:the[ ]+)?board|otb|(?:the[ ]+)?board(?:'?s)?[ ]+edge"
    rf"|(?:the[ ]+)?edge(?:[ ]+of[ ]+(?:the[ ]+)?(?:board|map))?){_WORD_END}",
    re.IGNORECASE,
)
# north, northern, northeast(ern), north-east(ern), north east, N, NE...
# and for a loop's two parts (§II.G.2) the inner one, I, and the outer one, O,
# as engine/diplomap names them
_COMPASS = re.compile(
    rf"(?:(?P<ns>north|south)(?:[ ]*-?[ ]*(?P<ew1>east|west))?|(?P<ew2>east|west))"
    rf"(?:ern)?{_WORD_END}"
    rf"|(?P<short>[ns][ew]?|[ew]|i|o){_WORD_END}"
    rf"|(?:(?P<inner>inner|inside|within|enclosed)|(?P<outer>outer|outside)){_WORD_END}"
    rf"(?:[ ]+(?:of[ ]+)?the[ ]+loop{_WORD_END})?"
    rf"|(?P<loop>loop){_WORD_END}",
    re.IGNORECASE,
)
_POSSESSIVE = re.compile(r"['\u2019]s" + _WORD_END, re.IGNORECASE)
_WATER_NOISE = re.compile(r"[ _]+(?:sea|ocean)" + _WORD_END, re.IGNORECASE)

# words a map order may use besides place names (for telling a typo from a word)
MAP_ORDER_WORDS = frozenset({
    "draw", "erase", "from", "to", "inside", "within", "in", "of", "sc", "supply", "centre",
    "center", "with", "next", "by", "beside", "near", "along", "bordering", "touching",
    "adjacent", "the", "region", "part", "side", "half", "portion", "area", "piece",
    "province", "north", "south", "east", "west", "northern", "southern", "eastern",
    "western", "northeast", "northwest", "southeast", "southwest", "northeastern",
    "northwestern", "southeastern", "southwestern", "otb", "edge", "board", "off",
    "inner", "outer", "outside", "enclosed", "loop",
})

_EXAMPLE_DRAW = "'Draw Gal/War - Gal/Bud'"


@dataclass(frozen=True, slots=True)
class _Place:
    """A place named in a map order, and where it was written."""

    code: str  # a province code of the map, or EDGE
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _Border:
    """A border named in a map order, and where it was written."""

    places: tuple[str, str]  # codes, as written
    start: int  # where it was written
    end: int


class _Refusal(Exception):
    """A map order that cannot be read: where, the word at fault, why."""

    def __init__(self, at: int, word: str, message: str, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.at = at
        self.word = word
        self.message = message
        self.suggestion = suggestion


def looks_like_map_order(text: str) -> bool:
    """Does the line start with DRAW or ERASE (any case)?"""
    return isinstance(text, str) and MAP_ORDER_START.match(text) is not None


# a mail's 'Draw none' / 'Erase none': the player withdraws the one on file (§II.C)
WAIVED = re.compile(r"^\s*(draw|erase)\s+none\s*$", re.IGNORECASE)
# 'Germany: Draw ...' in a mail: the power a line's map orders are for
_FOR_POWER = re.compile(r"^\s*(?P<power>[^\W\d][\w .'-]{0,40}?)\s*:\s*(?=(draw|erase)\b)",
                        re.IGNORECASE)


def without_power(text: str) -> tuple[str, str]:
    """('Germany', 'Draw ...') for 'Germany: Draw ...'; ('', text) without a power."""
    found = _FOR_POWER.match(text)
    return ("", text) if found is None else (found.group("power"), text[found.end():])


def is_map_line(text: str) -> bool:
    """Is a mail's line map orders, maybe for a power or waived? Such lines
    are taken out of a mail first, so that 'Gal/War' is never read as a
    province with a coast."""
    order = without_power(text)[1]
    return looks_like_map_order(order) or WAIVED.match(order) is not None


def compass_point(text: str) -> str | None:
    """'north-eastern' -> 'NE', 'S' -> 'S', 'inner' -> 'I' (a loop's inside),
    'outer' -> 'O'; None for anything else."""
    found = _COMPASS.fullmatch(_ODD_SPACE.sub(" ", text.strip()))
    return None if found is None else _point(found)


def _point(found: re.Match[str]) -> str:
    if found.group("short") is not None:
        return found.group("short").upper()
    if found.group("inner") is not None or found.group("loop") is not None:
        return "I"
    if found.group("outer") is not None:
        return "O"
    ns = found.group("ns") or ""
    ew = found.group("ew1") or found.group("ew2") or ""
    return (ns[:1] + ew[:1]).upper()


class _MapOrderReader:
    """The name tables of one map, and the reading of one map order on it."""

    def __init__(self, game_map: GameMap) -> None:
        self.provinces = game_map.provinces
        names = {
            key: province_of(location) for key, location in game_map.aliases.items()
            if "/" not in key and province_of(location) in game_map.provinces
        }
        for code in game_map.provinces:  # the codes themselves, as a changed board names them
            names.setdefault(normalise_name(code), code)
        self.index = NameIndex(names)
        self.suggester = Suggester(game_map.provinces, game_map.aliases, {}, MAP_ORDER_WORDS)

    # -- the order ----------------------------------------------------------

    def read(self, text: str) -> MapOrder:
        keyword = _KEYWORD.match(text)
        if keyword is None:
            raise _Refusal(_skip(text, 0), _word_at(text, _skip(text, 0)),
                           "a map order begins with DRAW or ERASE")
        at = keyword.end()
        at = _skip(text, at)
        if keyword.group("k").lower() == "erase":
            return self._erase(text, at)
        return self._draw(text, at)

    def _erase(self, text: str, at: int) -> Erase:
        if _END.match(text, at):
            raise _Refusal(len(text.rstrip()), "", "an Erase names a border: 'Erase Gal/War'")
        first = self._place(text, at)
        sep = _BORDER_SLASH.match(text, first.end) or _MOVE.match(text, first.end)
        if sep is None or sep.end() == first.end:
            raise self._unexpected(text, first.end, "an Erase names a border: 'Erase Gal/War'")
        second = self._place(text, sep.end())
        border = self._border(text, first, second)
        if EDGE in border:
            raise _Refusal(first.start, text[first.start:second.end].strip(),
                           "the board's edge cannot be erased: an Erase names the border "
                           "between two provinces")
        self._finish(text, second.end)
        return Erase(border)

    def _draw(self, text: str, at: int) -> Draw:
        if _END.match(text, at):
            raise _Refusal(len(text.rstrip()), "",
                           f"a Draw names two borders: {_EXAMPLE_DRAW}")
        start_from = _FROM.match(text, at)
        if start_from is not None:
            at = _skip(text, start_from.end())
        first = self._border_at(text, at)
        move = _MOVE.match(text, first.end)
        at = move.end() if move is not None else _skip(text, first.end)
        if _END.match(text, at) or _CENTRE.match(text, at) or _INSIDE.match(text, at):
            raise _Refusal(at, _word_at(text, at),
                           f"a Draw names two borders: {_EXAMPLE_DRAW}")
        second = self._border_at(text, at)
        inside, centre, at = self._clauses(text, second.end, self._without_centre(first, second))
        self._finish(text, at)
        return self._shape(text, first, second, inside, centre)

    def _without_centre(self, first: _Border, second: _Border) -> str | None:
        """'Burgundy (BUR)' when the province a Draw splits has no supply
        centre (for a loop not yet placed 'inside' one, when neither of its
        border's provinces has one): a side for a centre there is moot."""
        one, two = set(first.places), set(second.places)
        return self._centreless(one if one == two else one & two)

    def _centreless(self, codes: Iterable[str]) -> str | None:
        splits = sorted(set(codes) - {EDGE})
        if not splits or any(self.provinces[c].centre is not None for c in splits):
            return None
        return " and ".join(f"{self.provinces[c].name} ({c})" for c in splits)

    # -- borders ------------------------------------------------------------

    def _border_at(self, text: str, at: int) -> _Border:
        """A border 'Gal/War' at ``at``."""
        first = self._place(text, at)
        sep = _BORDER_SLASH.match(text, first.end)
        if sep is None:
            raise self._unexpected(text, first.end,
                                   "a border is written with a slash: 'Gal/War'",
                                   missing=f"a Draw names two borders: {_EXAMPLE_DRAW}")
        second = self._place(text, sep.end())
        return _Border(self._border(text, first, second), first.start, second.end)

    def _border(self, text: str, first: _Place, second: _Place) -> tuple[str, str]:
        if first.code == second.code:
            written = text[first.start:second.end].strip()
            raise _Refusal(first.start, written,
                           f"'{written}' is no border: a border lies between two places")
        return first.code, second.code

    def _shape(self, text: str, first: _Border, second: _Border, inside: _Place | None,
               centre: Side | None) -> Draw:
        """The Draw with the province it splits first in both borders (§II.A.1)."""
        one, two = set(first.places), set(second.places)
        written = text[first.start:second.end].strip()
        if one == two:  # a loop: the same border twice (§II.G.2)
            if inside is None:
                raise _Refusal(first.start, written,
                               "a loop must say which province it lies in, as in "
                               "'Draw Por/Spa - Por/Spa inside Portugal' (§II.G.2)")
            if inside.code not in one:
                raise _Refusal(inside.start, text[inside.start:inside.end],
                               "a loop lies inside one of the two provinces of its border")
            other = (one - {inside.code}).pop()
            return Draw((inside.code, other), (inside.code, other), inside.code, centre)
        common = (one & two) - {EDGE}
        if not common:
            raise _Refusal(first.start, written,
                           "the two borders of a Draw belong to the province it splits, "
                           f"as in {_EXAMPLE_DRAW}")
        province = common.pop()
        if inside is not None and inside.code != province:
            raise _Refusal(inside.start, text[inside.start:inside.end],
                           "'inside' names the province of a loop (a Draw from a border "
                           "back to the same border)")
        return Draw((province, (one - {province}).pop()),
                    (province, (two - {province}).pop()), None, centre)

    # -- what may follow the borders of a Draw ------------------------------

    def _clauses(self, text: str, at: int, without_centre: str | None = None
                 ) -> tuple[_Place | None, Side | None, int]:
        inside: _Place | None = None
        centre: Side | None = None
        while True:
            gap = _CLAUSE_GAP.match(text, at)
            after = gap.end() if gap is not None else at
            found_centre = _CENTRE.match(text, after)
            found_inside = None if found_centre else _INSIDE.match(text, after)
            if found_centre is not None:
                if centre is not None:
                    raise _Refusal(after, _word_at(text, after),
                                   "the supply centre's side is given twice")
                moot = without_centre if inside is None else self._centreless([inside.code])
                centre, at = self._side(text, found_centre.end(), after, moot)
            elif found_inside is not None:
                if inside is not None:
                    raise _Refusal(after, _word_at(text, after), "'inside' is given twice")
                inside = self._place(text, found_inside.end(),
                                     "a loop names its province: 'inside Portugal'")
                if inside.code == EDGE:
                    raise _Refusal(inside.start, text[inside.start:inside.end],
                                   "a loop lies inside a province, not the board's edge")
                at = inside.end
            else:
                return inside, centre, at

    def _side(self, text: str, at: int, clause: int = 0,
              without_centre: str | None = None) -> tuple[Side, int]:
        """Where the supply centre of a split province goes (§II.E).
        ``clause``: where the 'SC' clause starts; ``without_centre``: the
        province split, when it has no centre (an unreadable side is then
        answered with that, not with the compass points)."""
        with_ = _CENTRE_WITH.match(text, at)
        if with_ is not None:
            place = self._place(text, with_.end(), "name the neighbour: 'SC with Lvn'")
            return Side(neighbour=place.code), place.end
        in_ = _CENTRE_IN.match(text, at)
        start = in_.end() if in_ is not None else at
        placed = start > at  # 'SC in ...', 'SC goes to the ...'
        compass = _COMPASS.match(text, start)
        # 'SC in the Livonia side', "SC on Livonia's side"; but 'SC in eastern half'
        # is a compass word, though 'Eastern' names the Eastern Mediterranean
        named = self._try_place(text, start) if placed else None
        if named is not None and (compass is None or named.end > compass.end()):
            possessive = _POSSESSIVE.match(text, named.end)
            region = _REGION.match(text, possessive.end() if possessive else named.end)
            if region is not None:
                return Side(neighbour=named.code), region.end()
        if compass is not None:
            region = _REGION.match(text, compass.end())
            return Side(compass=_point(compass)), region.end() if region else compass.end()
        word = _word_at(text, start)
        if without_centre is not None:
            written = " ".join(text[clause:start + len(word)].split()).rstrip(" .,;")
            has = "have" if " and " in without_centre else "has"
            raise _Refusal(start if word else clause, word or _word_at(text, clause),
                           f"{without_centre} {has} no supply centre, so the Draw needs no "
                           f"side for one: leave out '{written}'")
        if not word:
            raise _Refusal(len(text.rstrip()), "",
                           "say where the supply centre goes: 'SC in north' or 'SC with Lvn'")
        raise _Refusal(start, word,
                       f"'{word}' is not a compass direction: the supply centre's side is "
                       "N, NE, E, SE, S, SW, W or NW ('SC in north'), inner or outer for "
                       "a loop, or a neighbour ('SC with Lvn')",
                       _closest(word, _COMPASS_WORDS))

    # -- places -------------------------------------------------------------

    def _try_place(self, text: str, at: int) -> _Place | None:
        found = self.index.match(text, at)
        if found is not None:
            end = found.end
            if self.provinces[found.value].terrain is Terrain.WATER:
                noise = _WATER_NOISE.match(text, end)
                if noise is not None:
                    end = noise.end()
            return _Place(found.value, at, end)
        edge = _EDGE.match(text, at)
        if edge is not None:
            return _Place(EDGE, at, edge.end())
        return None

    def _place(self, text: str, at: int,
               needs: str = "a border is two places, as in 'Gal/War'") -> _Place:
        at = _skip(text, at)
        place = self._try_place(text, at)
        if place is not None:
            return place
        word = WORD.match(text, at)
        if word is None:
            if at >= len(text.rstrip()):
                raise _Refusal(len(text.rstrip()), "", f"'{text.strip()}' is incomplete: {needs}")
            raise _Refusal(at, text[at], f"a place name was expected, not '{text[at]}'")
        following = [w.group().lower() for w in islice(WORD.finditer(text, word.end()), 2)]
        phrases = [" ".join([word.group().lower(), *following[:n]]) for n in range(3)]
        suggestion = self.suggester.suggest(phrases)
        hint = suggestion.text if suggestion is not None and suggestion.kind == "province" \
            else None
        return_word = word.group()
        raise _Refusal(at, return_word, f"'{return_word}' is not a province", hint)

    # -- the end ------------------------------------------------------------

    def _finish(self, text: str, at: int) -> None:
        if _END.match(text, at) is None:
            raise self._unexpected(text, at, "")

    def _unexpected(self, text: str, at: int, message: str,
                    missing: str | None = None) -> _Refusal:
        at = _skip(text, at)
        if at >= len(text.rstrip()):
            return _Refusal(len(text.rstrip()), "",
                            missing or message or f"'{text.strip()}' is incomplete")
        word = _word_at(text, at)
        before = text[:at].strip()
        return _Refusal(at, word, message or f"did not expect '{word}' after '{before}'")


_COMPASS_WORDS = ("north", "south", "east", "west", "northeast", "northwest", "southeast",
                  "southwest", "northern", "southern", "eastern", "western", "inner", "outer")


def _closest(word: str, candidates: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word.lower(), list(candidates), n=1, cutoff=0.7)
    return close[0] if close else None


def _skip(text: str, at: int) -> int:
    space = _SPACE.match(text, at)
    return at if space is None else space.end()


def _word_at(text: str, at: int) -> str:
    word = WORD.match(text, at)
    if word is not None:
        return word.group()
    return text[at] if at < len(text) else ""


_reader_for = per_map(_MapOrderReader)


def split_map_orders(text: str) -> tuple[tuple[int, str], ...]:
    """The map orders of one line, as the rule text writes several in a row
    ('Erase Lvn/StP. Draw StP/Fin - StP/Lvn'): (offset in the line, order).
    A new order begins at each DRAW or ERASE at the start or after '.', ';'
    or ','."""
    if not isinstance(text, str):
        return ()
    starts = [m.start("k") for m in _ORDER_START.finditer(text)] or [0]
    starts[0] = 0
    ends = [*starts[1:], len(text)]
    return tuple((a, text[a:b]) for a, b in zip(starts, ends, strict=True) if text[a:b].strip())


def parse_map_orders(text: str, game_map: GameMap,
                     line: int = 1) -> tuple[MapOrder | OrderError, ...]:
    """Read every map order of one line (see :func:`split_map_orders`); never
    raises. Columns of errors count from the start of the line."""
    if not isinstance(text, str) or len(text) > MAX_LINE:
        return (parse_map_order(text, game_map, line),)
    read: list[MapOrder | OrderError] = []
    for offset, piece in split_map_orders(text):
        order = parse_map_order(piece.rstrip(" ;,"), game_map, line)
        if isinstance(order, OrderError):
            order = OrderError(line, order.column + offset, text.strip(), order.word,
                               order.message, order.suggestion)
        read.append(order)
    return tuple(read)


def parse_map_order(text: str, game_map: GameMap, line: int = 1) -> MapOrder | OrderError:
    """Read one Draw or Erase order on the map in force; never raises."""
    if not isinstance(text, str):
        return OrderError(line, 1, "", "", "a map order must be text")
    if len(text) > MAX_LINE:
        return OrderError(line, 1, text[:60] + "...", "",
                          f"line is {len(text)} characters long; at most {MAX_LINE} are read")
    source = text.strip()
    plain = _ODD_SPACE.sub(" ", text)  # same length: columns stay right
    try:
        reader = _reader_for(game_map)
    except Exception:
        return OrderError(line, 1, source, "", "the map's names could not be read")
    try:
        return reader.read(plain)
    except _Refusal as refusal:
        return OrderError(line, refusal.at + 1, source, refusal.word, refusal.message,
                          refusal.suggestion)
    except Exception:  # never let a fault of the reader escape to the caller
        return OrderError(line, 1, source, "", "this map order could not be read")
