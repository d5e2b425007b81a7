"""Board changes as plain data (JSON snapshots, test vectors) and back."""

from __future__ import annotations

from typing import Any

from engine.diplomap.values import Anchor, MapChange, Merge, Rename, Split


def _anchor(anchor: Anchor) -> list[Any]:
    return [anchor.province, anchor.neighbour, anchor.at]


def _read_anchor(data: list[Any]) -> Anchor:
    province, neighbour, at = data
    return Anchor(str(province), str(neighbour), float(at))


def change_to_dict(change: MapChange) -> dict[str, Any]:
    if isinstance(change, Split):
        return {"split": change.province, "parts": list(change.parts),
                "names": list(change.names), "line": change.line,
                "start": _anchor(change.start), "end": _anchor(change.end),
                "base": change.base, "loop": change.loop, "centre": change.centre,
                "ring": [change.ring_start, change.ring_end]}
    if isinstance(change, Merge):
        return {"merge": list(change.provinces), "into": change.into, "name": change.name,
                "erased": [[_anchor(a), _anchor(b)] for a, b in change.erased]}
    return {"rename": change.code, "to": change.new_code, "name": change.name}


def change_from_dict(data: dict[str, Any]) -> MapChange:
    if "split" in data:
        one, two = data["parts"]
        first, second = data["names"]
        ring_start, ring_end = data["ring"]
        return Split(data["split"], (one, two), (first, second), int(data["line"]),
                     _read_anchor(data["start"]), _read_anchor(data["end"]), data["base"],
                     bool(data["loop"]), data.get("centre"), int(ring_start), int(ring_end))
    if "merge" in data:
        a, b = data["merge"]
        return Merge((a, b), data["into"], data["name"],
                     tuple((_read_anchor(x), _read_anchor(y)) for x, y in data["erased"]))
    return Rename(data["rename"], data["to"], data["name"])
