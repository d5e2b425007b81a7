"""Snapshots written before version 4, read as version 4 data.

Versions 1-3 listed the position's fields by hand, the variants' beside
the standard game's. Version 1 (no "version" key) named unplayed powers
"neutral"; version 2 added Dissolution's fields; version 3 Diplomap's
board changes, the map orders used this year and displaced units. These
formats are frozen: this module is the one place that still names their
keys, to move them into the variants' parts.
"""

from __future__ import annotations

from typing import Any

from engine.diplomap.records import change_from_dict
from engine.diplomap.values import MapChange
from engine.plain import to_plain

# the keys of each variant's part in versions 2 and 3, which wrote them flat
_FLAT_PARTS = {
    "dissolution": ("favor", "built", "exiles", "silenced", "embassies", "kicked",
                    "retaliated"),
    "diplomap": ("map_changes", "map_orders_used"),
}


def upgrade(data: dict[str, Any], version: int) -> dict[str, Any]:
    """Version ``version`` data as version 4 data."""
    out = {key: value for key, value in data.items()
           if key not in ("version", "neutral", "dislodged", "units")
           and not any(key in keys for keys in _FLAT_PARTS.values())}
    if version == 1:
        out["unplayed"] = data.get("neutral", [])
    out["units"] = [_unit(u) for u in data["units"]]
    out["dislodged"] = [
        {"unit": _unit(d["unit"]), "attacker": d["attacker"], "by_convoy": d["by_convoy"],
         "retreats": d["retreats"], "displaced": d.get("displaced", False)}
        for d in data["dislodged"]]
    parts: dict[str, dict[str, Any]] = {}
    for key, names in _FLAT_PARTS.items():
        fields = {name: data[name] for name in names if data.get(name)}
        if fields:
            parts[key] = fields
    if "map_changes" in parts.get("diplomap", {}):
        parts["diplomap"]["map_changes"] = [
            _change(change) for change in parts["diplomap"]["map_changes"]]
    out["parts"] = parts
    return out


def _unit(data: list[str]) -> dict[str, str]:
    power, kind, location = data
    return {"power": power, "kind": kind, "location": location}


def _change(data: dict[str, Any]) -> Any:
    """A board change in the form versions 1-3 wrote, in today's plain form."""
    return to_plain(change_from_dict(data), MapChange)

