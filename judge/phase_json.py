"""The JSON form of one phase, as read and written by `judge adjudicate`.

The contract is documented in docs/cli.md. Input errors raise
:class:`PhaseInputError` with a message that names the offending key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from engine.game import Resolution, adjudicate
from engine.layers import LAYERS
from engine.lines import ORDERS, LineKind
from engine.map import GameMap, Power, province_of
from engine.map_cache import per_map
from engine.movement import retreat_options
from engine.phase import Phase
from engine.phase_context import phase_context
from engine.phase_input import PhaseInputError, listed, place_code, place_in, power_in, table
from engine.seasons import may_stand
from engine.state import Dislodged, GameState, Seat
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants import opening_position, rules_for
from judge import reported
from judge.phase_standing import destroyed_dislodged, disabled_json, standing_json
from parser.line_kinds import READERS, reader
from parser.line_kinds import read_lines as read_lines_of


@per_map
def _units_read(board: GameMap) -> dict[tuple[str, str], Unit]:
    """The units read on a board, by power and text, where the text is the
    unit as the judge writes it: a phase's JSON names the same units again
    and again, and these (one per power, kind and place at most) are kept."""
    return {}


def _unit(game_map: GameMap, power: str, text: Any, key: str) -> Unit:
    known = _units_read(game_map)
    unit = known.get((power, text)) if isinstance(text, str) else None
    if unit is None:
        unit = _read_unit(game_map, power, text, key)
        if str(unit) == text:
            known[(power, text)] = unit
    return unit


def _read_unit(game_map: GameMap, power: str, text: Any, key: str) -> Unit:
    parts = str(text).split(None, 1)
    letters = [k.value for k in game_map.kinds]
    if len(parts) != 2 or parts[0].upper() not in letters:
        raise PhaseInputError(f"{key}: unit {text!r} is not a kind ({', '.join(letters)}) "
                              "and a place, like 'A PAR'")
    unit = Unit.parse(power, f"{parts[0]} {place_in(game_map, parts[1], key)}")
    if not may_stand(game_map, unit.kind, unit.location):
        raise PhaseInputError(f"{key}: a {unit.kind.noun} cannot stand on {unit.location}")
    return unit


def _layers_on(game_map: GameMap, data: Mapping[str, Any]) -> GameMap:
    """The map with the rules layers the phase switches on (``"diplomap":
    true``, or a key only the layer reads, as ``map_changes``); a variant
    whose data cannot carry one refuses it, ValueError saying why."""
    for layer in LAYERS.values():
        if any(data.get(key) for key in (layer.name, *layer.implied_by)):
            try:
                game_map = layer.switch_on(game_map)
            except ValueError as exc:
                raise ValueError(f"{layer.name}: {exc}") from None
    return game_map


def _with_options(game_map: GameMap, data: Mapping[str, Any]) -> GameMap:
    """The map with the game's own settings in force ("options", as a GM's
    CREATE lines give them: Intercontinental's ``suez`` and ``year_cap``),
    each read by the variant's rules, which refuse what they do not take."""
    rules = rules_for(game_map)
    settings = []
    for key, value in table(data, "options").items():
        try:
            settings.append((str(key), rules.read_option(game_map, str(key), str(value))))
        except ValueError as exc:
            raise PhaseInputError(f"options.{key}: {exc}") from None
    return rules.with_options(game_map, tuple(settings)) if settings else game_map


def options_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """The settings given, for ``next`` (they stay in force from phase to phase)."""
    return {"options": dict(table(data, "options"))} if data.get("options") else {}


def read_state(data: Mapping[str, Any]) -> tuple[GameMap, GameState]:
    if not isinstance(data, dict):
        raise PhaseInputError("the phase must be a JSON object")
    try:
        game_map = load_variant(str(data.get("variant", "standard")))
    except KeyError as exc:
        raise PhaseInputError(f"variant: {exc.args[0]}") from None
    try:
        phase = Phase.parse(str(data.get("phase", "")), game_map.flow)
    except ValueError as exc:
        raise PhaseInputError(f"phase: {exc}") from None
    game_map = _with_options(game_map, data)
    try:
        game_map = _layers_on(game_map, data)
    except ValueError as exc:
        raise PhaseInputError(str(exc)) from None
    rules = rules_for(game_map)
    opening = opening_position(game_map)  # made once per map
    # what the variant keeps beside the standard game's fields: each part reads its own keys
    state = opening.evolve(phase=phase, units=(), owners=())
    for kind in rules.state_parts:
        state = state.with_part(kind.read_phase(game_map, data, opening))
    board = rules.map_for(game_map, state)  # the board in force, where the units stand
    units: list[Unit] = []
    for name, texts in table(data, "units").items():
        power = power_in(game_map, name, "units")
        key = f"units.{power}"
        units.extend(_unit(board, power, t, key) for t in texts)
    seen: set[str] = set()
    for unit in units:
        if unit.province in seen:
            raise PhaseInputError(f"units: two units in {unit.province}")
        seen.add(unit.province)
        _stands_at_home(game_map, unit, "units")
    centres = _centres(board, data, opening)
    contested = frozenset(place_in(board, str(p), "contested")
                          for p in data.get("contested", []))
    drawn = tuple(str(player) for player in listed(data, "drawn"))
    state = state.evolve(units=tuple(units), owners=GameState.make_owners(centres),
                         contested=contested, drawn=drawn,
                         seats=_seats(game_map, data) or opening.seats,
                         unplayed=frozenset(power_in(game_map, p, "unplayed")
                                            for p in listed(data, "unplayed")))
    dislodged = _dislodged(game_map, board, state, data)
    return game_map, state.evolve(dislodged=dislodged) if dislodged else state


def _centres(board: GameMap, data: Mapping[str, Any],
             opening: GameState) -> dict[str, list[str]]:
    """Who owns which supply centre: as "centers" says, else (the key left
    out) as the variant's opening has it, each power its home centres."""
    centres: dict[str, list[str]] = {}
    if "centers" not in data:
        for centre, power in opening.owners:
            if centre not in board.supply_centres:
                raise PhaseInputError(
                    f"centers: left out, so each power owns its home centres, but the "
                    f"board in force has no centre {centre}: give the centres' owners")
            centres.setdefault(power, []).append(centre)
        return centres
    for name, provs in table(data, "centers").items():
        power = power_in(board, name, "centers")
        key = f"centers.{power}"
        centres[power] = [place_in(board, str(p), key) for p in provs]
        if off := [c for c in centres[power] if c not in board.supply_centres]:
            raise PhaseInputError(f"centers.{power}: {off[0]} is not a supply centre")
    return centres


def _stands_at_home(game_map: GameMap, unit: Unit, table_key: str) -> None:
    """A neutral power steered by bids whose units never move (Dissolution's
    and Intercontinental's minors, Dissolution's nuclear wings) has its
    units only where the variant puts them, or rebuilds them: a unit
    elsewhere is another power's, given under the wrong name."""
    def places(power: Power) -> set[str]:
        if not (power.ordered_by_bids and power.stationary):
            return set()
        return {province_of(loc) for _, loc in power.units} | set(power.home)

    power = game_map.powers[unit.power]
    if not (power.ordered_by_bids and power.stationary):
        return  # a mobile unit: it may stand anywhere
    own = places(power)
    if not own or unit.province in own or unit.province not in game_map.provinces:
        return  # at home, or on a province the board's changes made
    owner = next((p.name for p in game_map.powers.values() if unit.province in places(p)), "")
    raise PhaseInputError(
        f"{table_key}.{unit.power}: {unit}: {unit.power}'s units never move "
        f"(stationary, steered by bids) and stand only in {', '.join(sorted(own))}"
        + (f"; the unit in {unit.province} is {owner}'s: give it under {owner}" if owner
           else ""))


def _dislodged(game_map: GameMap, board: GameMap, state: GameState,
               data: Mapping[str, Any]) -> tuple[Dislodged, ...]:
    """The units waiting to retreat. Where each may go is what the rules
    allow on this position (never where the variant bars it, nowhere for a
    unit that cannot retreat); "retreats", as the phase before's
    next.dislodged gives them, may narrow that but never widen it."""
    rules = rules_for(game_map)
    occupied = {u.province for u in state.units}
    dislodged = []
    for name, entries in table(data, "dislodged").items():
        power = power_in(game_map, name, "dislodged")
        for text, info in entries.items():
            key = f"dislodged.{power}.{text}"
            if not isinstance(info, dict):
                raise PhaseInputError(f"{key} must be an object: {{\"attacker\": ...}}")
            if info.get("destroyed"):
                continue  # taken off the board without a retreat: gone (next.dislodged says so)
            if info.get("displaced") or not board.is_location(
                    place_code(game_map, str(text).split(None, 1)[-1])):
                dislodged.append(_displaced(game_map, board, state, power, text, info, key))
                continue
            unit = _unit(board, power, text, f"dislodged.{power}")
            _stands_at_home(game_map, unit, "dislodged")
            given = _retreats_given(board, info, key)
            by_convoy = bool(info.get("by_convoy", False))
            attacker = place_code(game_map, str(info.get("attacker", "")))
            if given is not None and attacker and not board.is_location(attacker):
                # the attacker's province is gone since (a Diplomap Erase after
                # the moves): the retreats were judged before it, as written
                dislodged.append(Dislodged(unit, attacker, by_convoy, given))
                continue
            if attacker and not board.is_location(attacker) and game_map.is_location(attacker):
                raise PhaseInputError(f"{key}.attacker: {attacker} is no longer on the board "
                                      "in force: give the unit's retreats (the phase "
                                      "before's next.dislodged gives them)")
            attacker = place_in(board, str(info.get("attacker", "")), f"{key}.attacker")
            allowed = retreat_options(
                board, unit, attacker, by_convoy, occupied, state.contested,
                rules.retreat_barred(board, state, unit)) \
                if rules.may_retreat(board, unit) and power not in state.unplayed else ()
            if given is not None:
                barred = [r for r in given if r not in allowed]
                if barred:
                    raise PhaseInputError(f"{key}.retreats: {unit} may not retreat to "
                                          f"{barred[0]} (it may go to: "
                                          f"{', '.join(allowed) or 'nowhere'})")
                allowed = given
            dislodged.append(Dislodged(unit, attacker, by_convoy, allowed))
    return tuple(dislodged)


def _retreats_given(board: GameMap, info: Mapping[str, Any],
                    key: str) -> tuple[str, ...] | None:
    """A dislodged unit's "retreats", as the phase before's next.dislodged
    gives them, read on the board in force; None when not given."""
    given = info.get("retreats")
    if given is None:
        return None
    if not isinstance(given, list):
        raise PhaseInputError(f"{key}.retreats must be a list of places")
    return tuple(place_in(board, str(r), f"{key}.retreats") for r in given)


def _displaced(game_map: GameMap, board: GameMap, state: GameState, power: str, text: str,
               info: Mapping[str, Any], key: str) -> Dislodged:
    """A unit displaced by a Draw (Diplomap §III.B): it stands in the
    province that was split, and its retreats are the parts it may choose.
    Also a unit dislodged in a province split since: its retreats were
    judged on the board before the split, so they are taken as written."""
    location = str(text).split(None, 1)[-1]
    before = rules_for(game_map).reading_board(game_map, state, [place_code(game_map, location)])
    if not before.is_location(place_code(game_map, location)):
        if info.get("displaced"):
            raise PhaseInputError(f"{key}: no board before the changes has {location!r}")
        raise PhaseInputError(f"dislodged.{power}: unknown place {location!r}")
    unit = _unit(before, power, text, key)
    retreats = info.get("retreats")
    if not isinstance(retreats, list):
        raise PhaseInputError(f"{key}.retreats: a displaced unit needs its retreats "
                              "(the phase before's next.dislodged gives them)")
    return Dislodged(unit, str(info.get("attacker", unit.province)),
                     bool(info.get("by_convoy", False)),
                     tuple(place_in(board, str(r), f"{key}.retreats") for r in retreats),
                     displaced=bool(info.get("displaced")))


def _seats(game_map: GameMap, data: Mapping[str, Any]) -> tuple[Seat, ...]:
    """{PLAYER: [POWER, ...]}: who plays which powers, where a player plays
    several (Intercontinental's colour groups share one DP pool, §3)."""
    seats = []
    for player, powers in table(data, "seats").items():
        if not isinstance(powers, list) or not powers:
            raise PhaseInputError(f"seats.{player} must be a list of powers")
        seats.append(Seat(str(player), tuple(power_in(game_map, p, f"seats.{player}")
                                             for p in powers)))
    return tuple(seats)


# A line of each kind that does not read, as a row of the results that
# kind's lines are reported in (the orders' results, the bids' fates, the
# map orders' results), by the kind's name
def read_lines(game_map: GameMap, board: GameMap, data: Mapping[str, Any],
               kind: LineKind[Any]) -> tuple[dict[str, list[Any]], list[dict[str, Any]]]:
    """A kind's key ({POWER: ["...", ...]} or one line per power) read on
    ``board``, the board in force: each power's values, and a result row
    for each line that does not read."""
    texts: dict[str, list[str]] = {}
    for name, given in table(data, kind.name).items():
        power = power_in(game_map, name, kind.name)
        texts.setdefault(power, []).extend(
            str(t) for t in ([given] if isinstance(given, str) else given))
    values, unreadable = read_lines_of(texts, partial(reader(kind).read, board=board))
    return values, [kind.unreadable(*found) for found in unreadable]


def _units_json(units: tuple[Unit, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for unit in units:
        out.setdefault(unit.power, []).append(str(unit))
    return out


def write_state(game_map: GameMap, state: GameState) -> dict[str, Any]:
    centres: dict[str, list[str]] = {}
    for centre, power in state.owners:
        centres.setdefault(power, []).append(centre)
    dislodged: dict[str, dict[str, Any]] = {}
    for d in state.dislodged:
        entry: dict[str, Any] = {"attacker": d.attacker, "retreats": list(d.retreats)}
        if d.by_convoy:
            entry["by_convoy"] = True
        if d.displaced:
            entry["displaced"] = True
        dislodged.setdefault(d.unit.power, {})[str(d.unit)] = entry
    out: dict[str, Any] = {
        "variant": state.variant,
        "phase": str(state.phase),
        "units": _units_json(state.units),
        "centers": centres,
        "dislodged": dislodged,
        "contested": sorted(state.contested),
    }
    if any(seat.powers != (seat.player,) for seat in state.seats):
        out["seats"] = {seat.player: list(seat.powers) for seat in state.seats}
    if state.unplayed:
        out["unplayed"] = sorted(state.unplayed)
    if state.drawn:
        out["drawn"] = list(state.drawn)
    for kind in rules_for(game_map).state_parts:  # what the variant keeps, in its own keys
        out.update(state.part(kind).write_phase(game_map))
    return out


def write_resolution(
    game_map: GameMap, resolution: Resolution,
    unreadable: Mapping[str, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The resolution as JSON; ``unreadable``: rows for the lines that could
    not be read, by where their kind's fates are reported (LineKind.reported_in)."""
    extra = dict(unreadable or {})
    results = list(extra.pop(ORDERS.reported_in, []))
    for result in resolution.results:
        row: dict[str, Any] = {"power": result.power, "order": str(result.order),
                               "outcome": result.outcome.value, "reason": None}
        if result.reason:
            why = row["why"] = result.reason.to_json()
            row["reason"] = why["text"]  # the reason's words, made once
        results.append(row)
    following = write_state(game_map, resolution.next)
    for power, units in destroyed_dislodged(resolution).items():
        following["dislodged"].setdefault(power, {}).update(units)
    out: dict[str, Any] = {
        "phase": str(resolution.state.phase),
        "results": results,
        "next": following,
        "standing": standing_json(game_map, resolution),
    }
    if disabled := disabled_json(resolution):
        out["disabled"] = disabled
    # each report section under its key (the GM's tool: the secret bids too),
    # the lines of its kind that could not be read first
    out.update((key, lines) for key, lines in reported.to_json(resolution.reports, extra).items()
               if key != "sections")
    if resolution.winner:
        out["winner"] = resolution.winner
    return out


def adjudicate_json(data: Mapping[str, Any]) -> dict[str, Any]:
    game_map, state = read_state(data)
    context = phase_context(game_map, state)  # the phase's rules and boards, once
    rules, board = context.rules, context.reading  # lines are read on the reading board
    declared = {kind.name for kind in rules.line_kinds}
    for name, found in READERS.items():
        if name not in declared and data.get(name):
            raise PhaseInputError(f"{name}: " + (
                found.kind.switched_on_by or f"the rules of {state.variant} read none"))
    # each kind of line the rules read, under its own key
    lines: dict[str, Mapping[str, Sequence[object]]] = {}
    unreadable: dict[str, list[dict[str, Any]]] = {}
    for kind in rules.line_kinds:
        lines[kind.name], rows = read_lines(game_map, board, data, kind)
        unreadable.setdefault(kind.reported_in, []).extend(rows)
    orders = ORDERS.given(lines)
    del lines[ORDERS.name]
    out = write_resolution(game_map, adjudicate(game_map, state, orders, lines=lines,
                                                context=context), unreadable)
    out["next"].update(options_json(data))
    return out
