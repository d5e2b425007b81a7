"""A fast lane for orders already in the judge's own canonical form.

Most orders a judge reads are short and regular: those it printed itself
(results, order lists that players copy back), those other tools send, and
DPJudge-style lines such as ``A PAR - BUR`` or ``F NTH C A LON - NWY``. This
reader takes such a line word by word with plain dictionary look-ups, about
twenty times faster than the full grammar. It answers only when the line
is unambiguous in that form: anything else (full names, missing spaces,
nationalities, typos, words that could be read two ways) returns None and
goes to the pyparsing grammar, which stays the definition of the language.
A property test checks that both read every line the fast lane accepts the
same way.

    order := unit ("H" | "-" place ("-" place)* ["VIA" "CONVOY"]
                   | "S" unit ["-" place] | "C" unit "-" place
                   | "R" place | "DISBAND")
           | "BUILD" [kind] place | "REMOVE" unit | "WAIVE"
    unit  := [kind] place          kind := "A" | "F"
    place := CODE | CODE/COAST     (map codes, any case)
"""

from __future__ import annotations

from collections.abc import Mapping

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


class CanonicalReader:
    def __init__(self, game_map: GameMap, keywords: frozenset[str]) -> None:
        # A place is a map code, or a code and one of its coasts, that is not
        # also an order word (a map with a province coded 'H' goes the slow way).
        places: dict[str, str] = {}
        for code, province in game_map.provinces.items():
            if code.lower() in keywords:
                continue
            places[code] = code
            for coast in province.coasts:
                places[f"{code}/{coast}"] = f"{code}/{coast}"
        self.places: Mapping[str, str] = places
        self.kinds: Mapping[str, UnitKind] = {k.value: k for k in game_map.kinds}
        # one reference per place and kind written, made at its first use
        # (orders are values: a phase's orders may share them)
        self._refs: dict[tuple[str, UnitKind | None], UnitRef] = {}

    def read(self, text: str) -> Order | None:
        words = text.upper().split()
        if not words or len(words) > 12:
            return None
        first = words[0]
        if first == "WAIVE":
            return Waive() if len(words) == 1 else None
        if first == "BUILD":
            return self._build(words[1:])
        if first == "REMOVE":
            unit, rest = self._unit(words, 1)
            return Remove(unit) if unit is not None and rest == len(words) else None
        unit, at = self._unit(words, 0)
        if unit is None or at >= len(words):
            return None
        verb, tail = words[at], words[at + 1:]
        if verb == "H":
            return Hold(unit) if not tail else None
        if verb == "-":
            return self._move(unit, tail)
        if verb == "DISBAND":
            return Disband(unit) if not tail else None
        if verb == "R":
            dest = self._place(tail[0]) if len(tail) == 1 else None
            return Retreat(unit, dest) if dest is not None else None
        if verb in ("S", "C"):
            return self._support_or_convoy(unit, verb, tail)
        return None

    def _place(self, word: str) -> str | None:
        return self.places.get(word)

    def _unit(self, words: list[str], at: int) -> tuple[UnitRef | None, int]:
        kind = self.kinds.get(words[at]) if at < len(words) else None
        if kind is not None:
            at += 1
        place = self._place(words[at]) if at < len(words) else None
        if place is None:
            return None, at
        ref = self._refs.get((place, kind))
        if ref is None:
            ref = self._refs[(place, kind)] = UnitRef(place, kind)
        return ref, at + 1

    def _move(self, unit: UnitRef, tail: list[str]) -> Move | None:
        if len(tail) == 1:  # most moves: one destination
            dest = self._place(tail[0])
            return Move(unit, dest) if dest is not None else None
        via = tail[-2:] == ["VIA", "CONVOY"]
        if via:
            tail = tail[:-2]
        if not tail or len(tail) % 2 == 0 or any(w != "-" for w in tail[1::2]):
            return None
        path: list[str] = []
        for word in tail[:-1:2]:  # the seas of a convoy path: no coasts there
            sea = self._place(word)
            if sea is None or "/" in sea:
                return None
            path.append(sea)
        dest = self._place(tail[-1])
        return Move(unit, dest, via, tuple(path)) if dest is not None else None

    def _support_or_convoy(self, unit: UnitRef, verb: str,
                           tail: list[str]) -> Order | None:
        target, at = self._unit(tail, 0)
        if target is None:
            return None
        rest = tail[at:]
        if verb == "S" and not rest:
            return SupportHold(unit, target)
        if len(rest) != 2 or rest[0] != "-":
            return None
        dest = self._place(rest[1])
        if dest is None:
            return None
        return SupportMove(unit, target, dest) if verb == "S" else Convoy(unit, target, dest)

    def _build(self, words: list[str]) -> Build | None:
        kind = self.kinds.get(words[0]) if words else None
        rest = words[1:] if kind is not None else words
        if len(rest) != 1:
            return None
        place = self._place(rest[0])
        return Build(place, kind) if place is not None else None
