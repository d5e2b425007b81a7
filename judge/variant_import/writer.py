"""The variant file's text (docs/variants.md) for an imported map."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from judge.variant_import.board import Province
from judge.variant_import.powers import PowerOut

LICENCE = "MIT, Copyright 2017 Manus Hand (DPJudge); see THIRD_PARTY.md"
_SEASONS = {"SPRING": "S", "FALL": "F", "WINTER": "W"}
_PHASES = {"MOVEMENT": "M", "RETREATS": "R", "ADJUSTMENTS": "A"}


@dataclass(frozen=True, slots=True)
class Header:
    """The [variant] table's facts."""

    name: str
    title: str
    victory: int
    begin: str | None
    flow: tuple[str, ...]
    flags: tuple[str, ...]
    unfinished: str | None


@dataclass(frozen=True, slots=True)
class Source:
    """Where the variant came from: the [source] table."""

    map: str
    files: tuple[str, ...]
    artwork: str | None


def phase_keys(begin: str | None, flow: tuple[str, ...]) -> dict[str, object]:
    """``start`` alone for DPJudge's standard flow; for any other,
    DPJudge's words verbatim, ``begin`` and ``flow`` (engine/flow.py reads
    them; a file gives its first phase once, so then no ``start``)."""
    words = (begin or "SPRING 1901 MOVEMENT").split()
    start = None
    if (len(words) == 3 and words[0].upper() in _SEASONS and words[1].isdigit()
            and words[2].upper() in _PHASES):
        start = f"{_SEASONS[words[0].upper()]}{words[1]}{_PHASES[words[2].upper()]}"
    keys: dict[str, object] = {}
    if start is not None and not flow:
        keys["start"] = start
    elif begin is not None:
        keys["begin"] = " ".join(words)
    if flow:
        keys["flow"] = list(flow)
    return keys


def variant_text(header: Header, source: Source, powers: Iterable[PowerOut],
                 provinces: Mapping[str, Province], map_table: str) -> str:
    out = [
        f"# {header.title}: DPJudge's {source.map}, imported by `judge variant import`.",
        "# The map's facts are DPJudge's (MIT licence, Copyright 2017 Manus Hand);",
        "# the format is described in docs/variants.md. Regenerate it rather than",
        "# editing it: python -m judge.variant_import.ship",
        "",
        "[variant]",
        f"name = {_q(header.name)}",
        f"title = {_q(header.title)}",
    ]
    out += [f"{k} = {toml_value(v)}" for k, v in phase_keys(header.begin, header.flow).items()]
    out.append(f"victory = {header.victory}")
    if header.flags:
        out.append(f"flags = {toml_value(list(header.flags))}")
    if header.unfinished:
        out.append(f"unfinished = {_q(header.unfinished)}")
    out += ["", "[source]", f"map = {_q(source.map)}", f"files = {toml_value(list(source.files))}"]
    if source.artwork:
        out.append(f"artwork = {_q(source.artwork)}")
    out += [f"licence = {_q(LICENCE)}", 'imported_by = "judge variant import"', "",
            "# Powers", ""]
    for power in powers:
        out.append(f"[powers.{power.key}]")
        if power.title:
            out.append(f"title = {_q(power.title)}")
        out += [f"adjective = {_q(power.adjective)}", f"letter = {_q(power.letter)}"]
        if power.aliases:
            out.append(f"aliases = {toml_value(list(power.aliases))}")
        out.append(f"home = {toml_value(sorted(power.home))}")
        if power.centres is not None:
            out.append(f"centres = {toml_value(sorted(power.centres))}")
        out.append(f"units = {toml_value(list(power.units))}")
        if power.dummy:
            out.append("dummy = true")
        out.append("")
    out += ["# Provinces, by code", ""]
    for code in sorted(provinces):
        out += _province(provinces[code])
    out.append(map_table.rstrip("\n"))
    return "\n".join(out) + "\n"


def _province(prov: Province) -> list[str]:
    lines = [f"[provinces.{prov.code}]", f"name = {_q(prov.name)}", f"kind = {_q(prov.kind)}"]
    if prov.centre:
        lines.append("centre = true")
    if prov.aliases:
        lines.append(f"aliases = {toml_value(list(prov.aliases))}")
    if prov.kind == "impassable":
        lines.append(f"borders = {toml_value(list(prov.borders))}")
    if prov.kind in ("land", "coastal"):
        lines.append(f"army = {toml_value(list(prov.army))}")
    if prov.kind in ("water", "coastal") and not prov.coasts:
        lines.append(f"fleet = {toml_value(list(prov.fleet))}")
    lines.append("")
    for coast in prov.coasts:
        lines += [f"[provinces.{prov.code}.coasts.{coast.code}]", f"name = {_q(coast.name)}",
                  f"fleet = {toml_value(list(coast.fleet))}"]
        if coast.aliases:
            lines.append(f"aliases = {toml_value(list(coast.aliases))}")
        lines.append("")
    return lines


def _q(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def toml_value(value: object) -> str:
    """A TOML value: a string, a number, a boolean or a list of them."""
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return _q(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def schematic_table(notice: str) -> str:
    """The [map] table of a map drawn as a schematic."""
    return f"[map]\nnotice = {_q(notice)}\n"


def bare_key(key: str) -> str:
    """A table key as TOML writes it: bare where it may be."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _q(key)
