"""Diplomap's changes to the board (engine/diplomap/values.py) as JSON, for
the phase snapshots: a game's board is its base map plus these, so every
stored phase carries the board it was played on (ROLLBACK, HISTORY, MAP
and `judge replay` all read it from there)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from engine.diplomap.values import Anchor, MapChange, Merge, Rename, Split

_KINDS: dict[type, str] = {Split: "split", Merge: "merge", Rename: "rename"}


def change_to_dict(change: MapChange) -> dict[str, Any]:
    """A change as JSON's values: tuples as lists, an unset field left out."""
    fields = {k: _plain(v) for k, v in asdict(change).items() if v is not None}
    return {"kind": _KINDS[type(change)], **fields}


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _anchor(data: dict[str, Any]) -> Anchor:
    return Anchor(str(data["province"]), str(data["neighbour"]), float(data["at"]))


def change_from_dict(data: dict[str, Any]) -> MapChange:
    kind = data.get("kind")
    if kind == "split":
        return Split(
            province=data["province"], parts=(data["parts"][0], data["parts"][1]),
            names=(data["names"][0], data["names"][1]), line=int(data["line"]),
            start=_anchor(data["start"]), end=_anchor(data["end"]), base=data["base"],
            loop=bool(data.get("loop", False)), centre=data.get("centre"),
            ring_start=int(data.get("ring_start", 0)), ring_end=int(data.get("ring_end", 0)))
    if kind == "merge":
        first, second = data["provinces"]
        return Merge(provinces=(first, second), into=data["into"], name=data["name"],
                     erased=tuple((_anchor(a), _anchor(b)) for a, b in data.get("erased", ())))
    if kind == "rename":
        return Rename(code=data["code"], new_code=data["new_code"], name=data["name"])
    raise ValueError(f"unknown board change {kind!r} in a snapshot")
