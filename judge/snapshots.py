"""A game's position as JSON, for the phase records in the database.

Unlike the CLI's phase JSON (judge/phase_json.py), a snapshot keeps every
field of :class:`engine.state.GameState` (seats, unplayed powers, the coin
toss...), so a stored game can be resumed or replayed exactly.
"""

from __future__ import annotations

import json
from typing import Any

from engine.diplomap.records import change_from_dict, change_to_dict
from engine.map import UnitKind
from engine.phase import Phase
from engine.state import Dislodged, GameState, Seat, VariantState
from engine.units import Unit


def _unit(unit: Unit) -> list[str]:
    return [unit.power, unit.kind.value, unit.location]


def _read_unit(data: list[str]) -> Unit:
    power, kind, location = data
    return Unit(power, UnitKind(kind), location)


# Version 1 (no "version" key): the standard game's fields, unplayed powers
# under "neutral". Version 2 adds the variants' fields (favor, built, exiles,
# silenced, embassies, kicked, retaliated) and names unplayed powers "unplayed".
# Version 3 adds Diplomap's board changes, the map orders used this year and
# displaced units (older snapshots have none of them).
VERSION = 3


def state_to_dict(state: GameState) -> dict[str, Any]:
    return {
        "version": VERSION,
        "variant": state.variant,
        "phase": str(state.phase),
        "units": [_unit(u) for u in state.units],
        "owners": [list(pair) for pair in state.owners],
        "dislodged": [
            {"unit": _unit(d.unit), "attacker": d.attacker, "by_convoy": d.by_convoy,
             "retreats": list(d.retreats), "displaced": d.displaced}
            for d in state.dislodged
        ],
        "contested": sorted(state.contested),
        "unplayed": sorted(state.unplayed),
        "closed": sorted(state.closed),
        "seats": [{"player": s.player, "powers": list(s.powers)} for s in state.seats],
        "victory": state.victory,
        "victory_by_player": state.victory_by_player,
        "cd_distance": state.cd_distance,
        "seed": state.seed,
        "coin_toss_power": state.coin_toss_power,
        "coin_toss_year": state.coin_toss_year,
        "notes": list(state.notes),
        "favor": [list(f) for f in state.favor],
        "built": [list(b) for b in state.built],
        "exiles": sorted(state.exiles),
        "silenced": sorted(state.silenced),
        "embassies": [list(e) for e in state.embassies],
        "kicked": sorted(list(k) for k in state.kicked),
        "retaliated": sorted(list(r) for r in state.retaliated),
        "map_changes": [change_to_dict(c) for c in state.map_changes],
        "map_orders_used": sorted(list(u) for u in state.map_orders_used),
    }


def state_from_dict(data: dict[str, Any]) -> GameState:
    version = int(data.get("version", 1))
    if version > VERSION:
        raise ValueError(f"snapshot version {version} is newer than this judge ({VERSION})")
    unplayed = data["neutral"] if version == 1 else data["unplayed"]
    return GameState(
        variant=data["variant"],
        phase=Phase.parse(data["phase"]),
        units=tuple(_read_unit(u) for u in data["units"]),
        owners=tuple((c, p) for c, p in data["owners"]),
        dislodged=tuple(
            Dislodged(_read_unit(d["unit"]), d["attacker"], bool(d["by_convoy"]),
                      tuple(d["retreats"]), bool(d.get("displaced", False)))
            for d in data["dislodged"]
        ),
        contested=frozenset(data["contested"]),
        unplayed=frozenset(unplayed),
        closed=frozenset(data["closed"]),
        seats=tuple(Seat(s["player"], tuple(s["powers"])) for s in data["seats"]),
        victory=int(data["victory"]),
        victory_by_player=bool(data["victory_by_player"]),
        cd_distance=data["cd_distance"],
        seed=int(data["seed"]),
        coin_toss_power=data["coin_toss_power"],
        coin_toss_year=int(data["coin_toss_year"]),
        notes=tuple(data["notes"]),
        extra=VariantState(
            favor=tuple((p, n, int(v)) for p, n, v in data.get("favor", ())),
            built=tuple((p, c) for p, c in data.get("built", ())),
            exiles=frozenset(data.get("exiles", ())),
            silenced=frozenset(data.get("silenced", ())),
            embassies=tuple((p, n, s) for p, n, s in data.get("embassies", ())),
            kicked=frozenset((p, n) for p, n in data.get("kicked", ())),
            retaliated=frozenset((p, n) for p, n in data.get("retaliated", ())),
            map_changes=tuple(change_from_dict(c) for c in data.get("map_changes", ())),
            map_orders_used=frozenset((p, k) for p, k in data.get("map_orders_used", ())),
        ),
    )


def dumps(state: GameState) -> str:
    return json.dumps(state_to_dict(state), separators=(",", ":"))


def loads(text: str) -> GameState:
    return state_from_dict(json.loads(text))
