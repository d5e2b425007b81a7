"""A game's position as JSON, for the phase records in the database.

Unlike the CLI's phase JSON (judge/phase_json.py), a snapshot keeps every
field of :class:`engine.state.GameState` (seats, unplayed powers, the coin
toss...), so a stored game can be resumed or replayed exactly. The fields
are written from their type hints (engine/plain.py), and each variant's
part of the position under its key (engine/state_parts.py): nothing here
names a field, so none can be left out.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from engine.flow import STANDARD_FLOW, Flow
from engine.phase import Phase
from engine.plain import PlainDataError, field_hints, from_plain, to_plain
from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import state_part_named
from judge import snapshot_versions

# Versions 1-3 wrote each field by hand (judge/snapshot_versions.py reads
# them); version 4 writes the position's fields from their types and the
# variants' parts as {key: fields}.
VERSION = 4


def state_to_dict(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {"version": VERSION}
    for name, hint in field_hints(GameState).items():
        if name == "parts":
            out[name] = {part.key: to_plain(part, type(part)) for part in state.parts}
        else:
            out[name] = to_plain(getattr(state, name), hint)
    return out


def state_from_dict(data: dict[str, Any]) -> GameState:
    version = int(data.get("version", 1))
    if version > VERSION:
        raise ValueError(f"snapshot version {version} is newer than this judge ({VERSION})")
    if version < VERSION:
        data = snapshot_versions.upgrade(data, version)
    core = {name: value for name, value in data.items() if name not in ("version", "parts")}
    state = _core_from_plain(core)
    for key, fields in data.get("parts", {}).items():
        state = state.with_part(from_plain(fields, state_part_named(key),
                                           f"snapshot.parts.{key}"))
    return state


def _core_from_plain(core: dict[str, Any]) -> GameState:
    """The position's own fields; its phase read in its variant's flow of
    phases (A1425M is a phase of Hundred's flow, not of the standard year)."""
    hints = field_hints(GameState)
    unknown = sorted(set(core) - set(hints))
    if unknown:
        raise PlainDataError(f"snapshot: unknown field {unknown[0]!r}")
    values = {name: from_plain(core[name], hint, f"snapshot.{name}")
              for name, hint in hints.items() if name in core and name != "phase"}
    try:
        phase = Phase.parse(str(core.get("phase", "")), _flow_of(str(core.get("variant", ""))))
    except ValueError as exc:
        raise PlainDataError(f"snapshot.phase: {exc}") from None
    return GameState(**values, phase=phase)


def _flow_of(variant: str) -> Flow:
    try:
        return load_variant(variant).flow
    except KeyError:  # a variant no longer shipped: its phases are the standard year's
        return STANDARD_FLOW


def dumps(state: GameState) -> str:
    return json.dumps(state_to_dict(state), separators=(",", ":"))


@lru_cache(maxsize=256)
def loads(text: str) -> GameState:
    """The position a snapshot holds. Remembered by its text, per process:
    a worker reads the starting position of each game it has mail for, and
    a game's stays the same until its phase is processed (the position is
    frozen, so every caller may share it)."""
    return state_from_dict(json.loads(text))
