"""Dissolution's part of a position: Favor and the Embassies on the Favor
map, where players have built, exiles, and this year's kicks and
retaliations; with its keys in a phase's JSON (`judge adjudicate`, see
docs/cli.md). Rule text by W. Alex Ronke (CC BY-SA 4.0)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.phase_input import PhaseInputError, listed, place_code, power_in, table
from engine.state import StatePart
from engine.variants.dissolution.favor_board import closest, favor_board, perimeter
from engine.variants.dissolution.nuclear import nuclear_powers

if TYPE_CHECKING:
    from engine.map import GameMap
    from engine.state import GameState


@dataclass(frozen=True, slots=True)
class DissolutionState(StatePart):
    key: ClassVar[str] = "dissolution"
    # Favor of a played power with a nuclear power, where no Embassy says it
    # (a phase's JSON may give values alone): (power, nuclear, value).
    favor: tuple[tuple[str, str, int], ...] = ()
    # Where each power has built before: (power, centre), for emergent build sites (§7.3).
    built: tuple[tuple[str, str], ...] = ()
    # Eliminated powers whose players play on in exile (bidding only, §5.3).
    exiles: frozenset[str] = frozenset()
    # Exiles the GM has stripped of their right to bid.
    silenced: frozenset[str] = frozenset()
    # Where each played power's Embassy stands on the Favor map, per nuclear
    # power: (power, nuclear, space). When present, Favor is read from them.
    embassies: tuple[tuple[str, str, str], ...] = ()
    # This year's kicked Embassies and nuclear retaliations: (power, nuclear).
    kicked: frozenset[tuple[str, str]] = frozenset()
    retaliated: frozenset[tuple[str, str]] = frozenset()

    # -- a phase's JSON --------------------------------------------------------

    @classmethod
    def read_phase(cls, game_map: GameMap, data: Mapping[str, Any],
                   opening: GameState) -> DissolutionState:
        start = of(opening)
        exiles = frozenset(power_in(game_map, p, "exiles") for p in listed(data, "exiles"))
        favor = _read_favor(game_map, data, exiles)
        # §4.1: an eliminated player's Embassies have left the Favor map
        given, embassies = _read_embassies(game_map, data, start, exiles)
        embassies = _placed_for(game_map, favor, given, embassies)
        return cls(
            favor=_unsaid(game_map, favor, embassies),
            embassies=embassies,
            built=tuple(sorted((power_in(game_map, name, "built"),
                                _centre(game_map, str(c), f"built.{name}"))
                               for name, cs in table(data, "built").items() for c in cs)),
            kicked=_read_pairs(game_map, data, "kicked"),
            retaliated=_read_pairs(game_map, data, "retaliated"),
            exiles=exiles,
            silenced=frozenset(power_in(game_map, p, "silenced") for p in listed(data, "silenced")),
        )

    def write_phase(self, game_map: GameMap) -> dict[str, Any]:
        out: dict[str, Any] = {}
        start = nuclear_powers(game_map).start
        favor = {power: {nuclear: self.favor_of(game_map, power, nuclear)
                         for nuclear in start[power]}
                 for power in game_map.powers
                 if start.get(power) and power not in self.exiles}
        if favor:  # each played power's, read from its Embassies where they stand
            out["favor"] = favor
        if self.built:
            out["built"] = _bypower_in(self.built)
        if self.embassies:
            out["embassies"] = _bypower_in((power, space) for power, _, space in self.embassies)
        for key, pairs in (("kicked", self.kicked), ("retaliated", self.retaliated)):
            if pairs:
                out[key] = _bypower_in(sorted(pairs))
        if self.exiles:
            out["exiles"] = sorted(self.exiles)
        if self.silenced:
            out["silenced"] = sorted(self.silenced)
        return out

    # -- questions -------------------------------------------------------------

    def favor_of(self, game_map: GameMap, power: str, nuclear: str) -> int:
        """A power's Favor with a nuclear power: the value of its Embassy's
        space (its second character), else the value given, else the
        variant's starting value; an exile counts as 1 (§5.3)."""
        if power in self.exiles:
            return 1
        for who, whom, space in self.embassies:
            if who == power and whom == nuclear:
                return int(space[1])
        for who, whom, value in self.favor:
            if who == power and whom == nuclear:
                return value
        return nuclear_powers(game_map).starting_favor(power, nuclear)

    def embassy_of(self, power: str, nuclear: str) -> str | None:
        for who, whom, space in self.embassies:
            if who == power and whom == nuclear:
                return space
        return None


def of(state: GameState) -> DissolutionState:
    """Dissolution's part of a position."""
    return state.part(DissolutionState)


def favor_of(game_map: GameMap, state: GameState, power: str, nuclear: str) -> int:
    return of(state).favor_of(game_map, power, nuclear)


# -- reading a phase's JSON ------------------------------------------------------


def _centre(game_map: GameMap, text: str, key: str) -> str:
    code = place_code(game_map, text)
    if code not in game_map.provinces:
        raise PhaseInputError(f"{key}: unknown place {text!r}")
    return code


def _nuclear(game_map: GameMap, name: Any, key: str) -> str:
    nuclear = power_in(game_map, name, key)
    if not nuclear_powers(game_map).is_nuclear(nuclear):
        raise PhaseInputError(f"{key}: {nuclear} is not a nuclear power")
    return nuclear


def _read_pairs(game_map: GameMap, data: Mapping[str, Any],
                key: str) -> frozenset[tuple[str, str]]:
    """{POWER: [NUCLEAR, ...]}: this year's kicks or retaliations (§11.5.3)."""
    pairs: set[tuple[str, str]] = set()
    for name, nuclears in table(data, key).items():
        power = power_in(game_map, name, key)
        if not isinstance(nuclears, list):
            raise PhaseInputError(f"{key}.{power} must be a list of nuclear powers")
        pairs.update((power, _nuclear(game_map, n, f"{key}.{power}")) for n in nuclears)
    return frozenset(pairs)


def _read_embassies(game_map: GameMap, data: Mapping[str, Any], opening: DissolutionState,
                    exiles: frozenset[str],
                    ) -> tuple[frozenset[tuple[str, str]], tuple[tuple[str, str, str], ...]]:
    """Embassies on the Favor map: the opening's, moved where "embassies"
    says; and the (power, nuclear) pairs it placed. An exile has none (they
    left the board, §4.1), and the hexes they stood on may hold another's."""
    where = {(p, n): s for p, n, s in opening.embassies if p not in exiles}
    slices = {s[0]: n for (_, n), s in where.items()}
    given: set[tuple[str, str]] = set()
    for name, spaces in table(data, "embassies").items():
        power = power_in(game_map, name, "embassies")
        if not isinstance(spaces, list):
            raise PhaseInputError(f"embassies.{power} must be a list of spaces")
        if power in exiles:
            raise PhaseInputError(f"embassies.{power}: {power} is in exile: its Embassies "
                                  "have left the Favor map (§4.1)")
        for text in spaces:
            label = str(text).strip()
            label = label[:1].upper() + label[1:2] + label[2:].lower()
            nuclear = slices.get(label[:1])
            if nuclear is None or len(label) != 3 or not (
                    label[1:] == "0z" or (label[1] in "12345" and label[2].isalpha())):
                raise PhaseInputError(f"embassies.{power}: {text!r} is not a Favor map space")
            where[power, nuclear] = label
            given.add((power, nuclear))
    taken: dict[str, str] = {}
    for (power, _), space in where.items():
        if not space.endswith("0z") and space in taken:
            raise PhaseInputError(f"embassies: {space} holds {taken[space]}'s and {power}'s")
        taken[space] = power
    return frozenset(given), tuple(sorted((p, n, s) for (p, n), s in where.items()))


def _placed_for(game_map: GameMap, favor: tuple[tuple[str, str, int], ...],
                given: frozenset[tuple[str, str]],
                embassies: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, str, str], ...]:
    """The Embassies, each whose Favor "favor" gives otherwise than its
    space moved to the nearest vacant hex of that value in its slice (ties
    to the sorting letter first, as kicks go, §11.7.1), the Perimeter for 0:
    so that a Favor given is a place on the board, and kicks and Winter
    moves go on from it. An Embassy "embassies" placed must agree."""
    board = favor_board(game_map)
    where = {(p, n): space for p, n, space in embassies}
    moving = []
    for power, nuclear, value in favor:
        space = where.get((power, nuclear))
        if space is None or board.spaces[space].value == value:
            continue
        if (power, nuclear) in given:
            raise PhaseInputError(f"favor.{power}.{nuclear}: {value}, but the Embassy "
                                  f"embassies puts on {space} gives {space[1]}")
        moving.append((power, nuclear, value, space))
    for power, nuclear, _, _ in moving:
        del where[power, nuclear]
    for power, nuclear, value, space in moving:
        letter = board.slice_of[nuclear]
        if value == 0:
            where[power, nuclear] = perimeter(letter)
            continue
        taken = set(where.values())
        free = [h for h in board.in_slice(letter)
                if board.spaces[h].value == value and h not in taken]
        nearest = closest(board, space, free)
        if nearest is None:
            raise PhaseInputError(f"favor.{power}.{nuclear}: no vacant hex worth {value} "
                                  f"in {nuclear}'s slice: give embassies")
        where[power, nuclear] = nearest
    return tuple(sorted((p, n, s) for (p, n), s in where.items()))


def _read_favor(game_map: GameMap, data: Mapping[str, Any],
                exiles: frozenset[str]) -> tuple[tuple[str, str, int], ...]:
    """Favor values given per played power and nuclear power (the variant's
    starting values stand for the rest)."""
    favor = {}
    for name, values in table(data, "favor").items():
        power = power_in(game_map, name, "favor")
        if not isinstance(values, dict):
            raise PhaseInputError(f"favor.{power} must be an object: NUCLEAR: value")
        if power in exiles:
            raise PhaseInputError(f"favor.{power}: {power} is in exile: its Favor is 1 "
                                  "with every nuclear power (§5.3)")
        for nuclear_name, value in values.items():
            nuclear = _nuclear(game_map, nuclear_name, f"favor.{power}")
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 5:
                raise PhaseInputError(f"favor.{power}.{nuclear}: a Favor value is 0 to 5")
            favor[power, nuclear] = value
    return tuple(sorted((p, n, v) for (p, n), v in favor.items()))


def _unsaid(game_map: GameMap, favor: tuple[tuple[str, str, int], ...],
            embassies: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, str, int], ...]:
    """Only the Favor values nothing else says: not where an Embassy stands
    (its space gives the value), nor the variant's starting value. So a
    position reads back from its JSON exactly as it was written."""
    placed = {(p, n) for p, n, _ in embassies}
    nuclear = nuclear_powers(game_map)
    return tuple(f for f in favor if f[:2] not in placed
                 and nuclear.starting_favor(f[0], f[1]) != f[2])


def _bypower_in(rows: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """(power, thing) rows as {power: [thing, ...]}, in the rows' order."""
    table: dict[str, list[str]] = {}
    for power, thing in rows:
        table.setdefault(power, []).append(thing)
    return table
