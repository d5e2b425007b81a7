"""The pyparsing grammar of one order, built once per map.

In outline (keywords case-insensitive, ``[]`` optional, ``|`` first match)::

    line     := ['1.' | '1)' | bullet] [prefix] order ['.' | '!']
    prefix   := power [':' | ')' | ']']          'France: ..', '[ENGLAND] ..', 'R) ..'
    order    := waive | build | remove | disband | retreat | unit tail
    unit     := [kind] place                     kind: A, F, army, fleet
    other    := [nationality] unit               'German A Mun', "Germany's Mun"
    tail     := hold                             H, hold, holds, stand, stands
              | support other [hold]             S, sup, supp, support, supports
              | support other route
              | convoy other route               C, convoy, convoys, transport(s)
              | retreat [to] [move] place        R, retreat, retreats
              | disband | remove | build         (written after the unit)
              | route
    route    := [move] place ([move] place)* [via]
    move     := - -- -> --> => = > (en dash, em dash, arrow) | to | m/move/moves [to]
    via      := ['('] (via | by) (convoy | c) [')']
    build    := (build | builds | B | '+') [kind] place
    remove   := (remove | removes | R) unit
    disband  := (disband | disbands | D) unit
    retreat  := (retreat | retreats) unit (move | to) place
    waive    := waive [number] [build | builds]  |  W  (alone)

A route that names several places ('A Lon - Nth - Nwy') is a move whose
middle places are its convoy path. A missing move operator between two
places is taken as one, as the DPJudge does ('F Wal S Mao Iri').

Places are read by :class:`parser.names.Places` (longest alias match, then
an optional coast); units, places, powers and keywords are single pyparsing
tokens implemented in Python so that an order costs few grammar steps.
Parse actions turn each tail into a function of the ordered unit, and the
order rule applies it, so the result of a parse is one ``Order`` value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pyparsing as pp

from engine.map import GameMap, UnitKind
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
    UnitRef,
    Waive,
)
from parser.actions import on_tokens
from parser.names import Places, Powers
from parser.words import (
    BUILD_WORDS,
    CONVOY_WORDS,
    DISBAND_WORDS,
    HOLD_WORDS,
    KEYWORDS,
    OPERATORS,
    REMOVE_WORDS,
    RETREAT_WORDS,
    STANDARD_KIND_WORDS,
    SUPPORT_WORDS,
    WAIVE_WORDS,
    PowerPrefix,
    kind_words,
    power_letters,
)

_SPACE = re.compile(r"\s+")


def _skip_space(text: str, pos: int) -> int:
    space = _SPACE.match(text, pos)
    return pos if space is None else space.end()


def _words(*words: str) -> str:
    """A regex for any of ``words`` as whole words (Unicode-aware)."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return rf"(?<![^\W_])(?:{alternatives})(?![^\W_])"


_VIA_CONVOY = r"\(?\s*(?<![^\W_])(?:via|by)\s*(?:convoy|c)(?![^\W_])\s*\)?"


def _operators() -> str:
    symbols = "|".join(re.escape(o) for o in sorted(OPERATORS, key=len, reverse=True))
    return rf"(?:{symbols}|{_words('moves', 'move', 'm')}(?:\s+to(?![^\W_]))?|{_words('to')})"


class _Pattern(pp.Token):
    """A regex token that yields ``value`` (or nothing when ``value`` is None)."""

    def __init__(
        self,
        pattern: str,
        name: str,
        value: object = None,
        convert: Callable[[str], object] | None = None,
    ) -> None:
        super().__init__()
        self._regex = re.compile(pattern, re.IGNORECASE)
        self._value = value
        self._convert = convert
        self.mayIndexError = False
        self.set_name(name)

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> tuple[int, Any]:
        found = self._regex.match(instring, loc)
        if found is None or found.end() == loc:
            raise pp.ParseException(instring, loc, self.errmsg, self)
        if self._convert is not None:
            return found.end(), self._convert(found.group())
        return found.end(), ([] if self._value is None else self._value)


def _skip(*words: str) -> _Pattern:
    return _Pattern(_words(*words), "/".join(words))


def _mark(value: object, *words: str) -> _Pattern:
    return _Pattern(_words(*words), "/".join(words), value)


class _Place(pp.Token):
    """A location: a place name and its coast, as a code ('PAR', 'SPA/SC')."""

    def __init__(self, places: Places) -> None:
        super().__init__()
        self._places = places
        self.mayIndexError = False
        self.set_name("place")

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> tuple[int, Any]:
        found = self._places.match(instring, loc)
        if found is None:
            raise pp.ParseException(instring, loc, self.errmsg, self)
        return found.end, found.value


@dataclass(frozen=True, slots=True)
class _RouteValue:
    places: tuple[str, ...]  # every place named, the destination last
    via_convoy: bool


class _Route(pp.Token):
    """[move] place ([move] place)* [via convoy], as a _RouteValue."""

    def __init__(self, places: Places) -> None:
        super().__init__()
        self._places = places
        self._move = re.compile(_operators(), re.IGNORECASE)
        self._via = re.compile(_VIA_CONVOY, re.IGNORECASE)
        self.mayIndexError = False
        self.set_name("destination")

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> tuple[int, Any]:
        named: list[str] = []
        at = end = loc
        while True:
            move = self._move.match(instring, at)
            if move is not None:
                at = _skip_space(instring, move.end())
            found = self._places.match(instring, at)
            if found is None:
                break
            named.append(found.value)
            end = found.end
            at = _skip_space(instring, end)
        if not named:
            raise pp.ParseException(instring, at, self.errmsg, self)
        via = self._via.match(instring, _skip_space(instring, end))
        if via is not None:
            return via.end(), _RouteValue(tuple(named), True)
        return end, _RouteValue(tuple(named), False)


class _Unit(pp.Token):
    """[nationality] [kind] place, as a UnitRef. Nationality only if ``powers``."""

    def __init__(self, places: Places, powers: Powers | None,
                 kinds: Mapping[str, UnitKind] = STANDARD_KIND_WORDS) -> None:
        super().__init__()
        self._places = places
        self._powers = powers
        self._kinds = dict(kinds)
        self._KIND = re.compile(_words(*kinds), re.IGNORECASE)
        self.mayIndexError = False
        self.set_name("unit")

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> tuple[int, Any]:
        starts = [loc]  # a place name first: 'English Channel' is not 'English' + 'Channel'
        if self._powers is not None:
            power = self._powers.match(instring, loc)
            if power is not None:
                starts.append(_skip_space(instring, power.end))
        for start in starts:
            kind = self._KIND.match(instring, start)
            if kind is not None:
                after = _skip_space(instring, kind.end())
                found = self._places.match(instring, after)
                if found is not None:
                    unit = UnitRef(found.value, self._kinds[kind.group().lower()])
                    return found.end, unit
            found = self._places.match(instring, start)
            if found is not None:
                return found.end, UnitRef(found.value)
        raise pp.ParseException(instring, loc, self.errmsg, self)


class _Prefix(pp.Token):
    """The power a line may begin with (parser.words.PowerPrefix), as a token."""

    def __init__(self, prefix: PowerPrefix) -> None:
        super().__init__()
        self._prefix = prefix
        self.mayIndexError = False
        self.set_name("power")

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> tuple[int, Any]:
        found = self._prefix.power_at(instring, loc)
        if found is None:
            raise pp.ParseException(instring, loc, self.errmsg, self)
        return found[0], []


Tail = Callable[[UnitRef], Order]


def _places(tokens: pp.ParseResults) -> list[str]:
    return [t for t in tokens if isinstance(t, str) and not isinstance(t, UnitKind)]


def _target(tokens: pp.ParseResults) -> UnitRef:
    return next(t for t in tokens if isinstance(t, UnitRef))


def _route(tokens: pp.ParseResults) -> _RouteValue | None:
    return next((t for t in tokens if isinstance(t, _RouteValue)), None)


def _move_tail(tokens: pp.ParseResults) -> Tail:
    route = _route(tokens)
    assert route is not None
    dest, path, via = route.places[-1], route.places[:-1], route.via_convoy
    return lambda unit: Move(unit, dest, via_convoy=via, path=path)


def _support_tail(tokens: pp.ParseResults) -> Tail:
    target = _target(tokens)
    route = _route(tokens)
    if route is not None:
        dest = route.places[-1]
        return lambda unit: SupportMove(unit, target, dest)
    return lambda unit: SupportHold(unit, target)


def _convoy_tail(tokens: pp.ParseResults) -> Tail:
    target = _target(tokens)
    route = _route(tokens)
    assert route is not None
    dest = route.places[-1]
    return lambda unit: Convoy(unit, target, dest)


def _retreat_tail(tokens: pp.ParseResults) -> Tail:
    dest = _places(tokens)[-1]
    return lambda unit: Retreat(unit, dest)


def _build_tail(unit: UnitRef) -> Order:
    return Build(unit.location, unit.kind)


def _unit_order(tokens: pp.ParseResults) -> Order:
    unit: UnitRef = tokens[0]
    tail: Tail = tokens[1]
    return tail(unit)


def _build(tokens: pp.ParseResults) -> Order:
    kind = next((t for t in tokens if isinstance(t, UnitKind)), None)
    return Build(_places(tokens)[-1], kind)


def _retreat(tokens: pp.ParseResults) -> Order:
    return Retreat(_target(tokens), _places(tokens)[-1])


def build_grammar(game_map: GameMap) -> pp.ParserElement:
    """The grammar of one order on this map; its parse result is the Order."""
    places = Places(game_map.provinces, game_map.aliases, KEYWORDS)
    powers = Powers(game_map.power_aliases)

    kinds = kind_words(game_map)
    place = _Place(places)
    route = _Route(places)
    unit = _Unit(places, None, kinds)
    other_unit = _Unit(places, powers, kinds)
    prefix = _Prefix(PowerPrefix(powers, power_letters(game_map), places))
    move = _Pattern(_operators(), "move")
    kind = _Pattern(_words(*kinds), "unit type", convert=lambda w: kinds[w.lower()])

    # Every tail but a bare route starts with a keyword: one look tells which.
    keyword_tail = pp.FollowedBy(
        _skip(*HOLD_WORDS, *SUPPORT_WORDS, *CONVOY_WORDS, *RETREAT_WORDS, *DISBAND_WORDS,
              *REMOVE_WORDS, *BUILD_WORDS)
    ) + (
        _mark(Hold, *HOLD_WORDS)
        | (_skip(*SUPPORT_WORDS) + other_unit
           + (route | pp.Opt(_skip(*HOLD_WORDS)))).add_parse_action(on_tokens(_support_tail))
        | (_skip(*CONVOY_WORDS) + other_unit + route).add_parse_action(on_tokens(_convoy_tail))
        | (_skip(*RETREAT_WORDS) + pp.Opt(move) + place).add_parse_action(
            on_tokens(_retreat_tail))
        | _mark(Disband, *DISBAND_WORDS)
        | _mark(Remove, *REMOVE_WORDS)
        | _mark(_build_tail, *BUILD_WORDS)
    )
    tail = keyword_tail | route.copy().add_parse_action(on_tokens(_move_tail))
    unit_order = (unit + tail).add_parse_action(on_tokens(_unit_order))

    waive = (
        _skip(*WAIVE_WORDS) + pp.Opt(_Pattern(r"\d+", "number"))
        + pp.Opt(_skip("builds", "build"))
        | _skip("w") + pp.FollowedBy(pp.StringEnd())
    ).add_parse_action(on_tokens(lambda _t: Waive()))
    build = ((_skip(*BUILD_WORDS) | _Pattern(r"\+", "+")) + pp.Opt(kind) + place).add_parse_action(
        on_tokens(_build)
    )
    remove = (_skip("r", *REMOVE_WORDS) + unit).add_parse_action(
        on_tokens(lambda t: Remove(t[0])))
    disband = (_skip(*DISBAND_WORDS) + unit).add_parse_action(
        on_tokens(lambda t: Disband(t[0])))
    retreat = (_skip("retreat", "retreats") + unit + move + place).add_parse_action(
        on_tokens(_retreat))
    starts = _words(*WAIVE_WORDS, "w", *BUILD_WORDS, "r", *REMOVE_WORDS, *DISBAND_WORDS,
                    *RETREAT_WORDS)
    keyword_order = pp.FollowedBy(_Pattern(rf"\+|{starts}", "")) + (
        waive | build | remove | disband | retreat)

    order = keyword_order | unit_order
    end = pp.Opt(_Pattern(r"[.!]+", "full stop"))
    number = pp.Opt(_Pattern(r"(?:\d{1,3}[.)]|\u2022)(?=\s)", "list number"))
    return (number + pp.Opt(prefix) + order + end).set_name("order")


def build_heading(game_map: GameMap) -> pp.ParserElement:
    """A line that is only a power name ('FRANCE', '[England]'): a heading."""
    places = Places(game_map.provinces, game_map.aliases, KEYWORDS)
    powers = Powers(game_map.power_aliases)
    return _Prefix(PowerPrefix(powers, power_letters(game_map), places)) + pp.Opt(
        _Pattern(r"[.!]+", "full stop")
    )
