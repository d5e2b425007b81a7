"""Read and check a variant data file (TOML, described in docs/variants.md).

The loader collects every problem it finds instead of stopping at the
first, and names the line of the file where each one lives, so that a game
master can fix a whole map in one pass.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from engine import rings as ring_checks
from engine import variant_checks
from engine.flags import in_force, read_flags, unsupported_reason
from engine.flow import STANDARD_FLOW, Flow, FlowError, read_begin, read_flow
from engine.kinds import kind_traits, standard_kinds
from engine.map import (
    COLOUR,
    Canal,
    Drawing,
    GameMap,
    KindTraits,
    Power,
    Province,
    Reach,
    SupplyCentre,
    Terrain,
    UnitKind,
    View,
    WayToPlay,
    normalise_name,
    province_of,
)
from engine.phase import Phase

_CODE = re.compile(r"^[A-Z][A-Z0-9]{1,5}$")
_ARTWORK = re.compile(r"^[a-z0-9_-]+\.(ps|svg)$")
_VIEW_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True, slots=True)
class VariantProblem:
    """One thing wrong in a variant file, where it is."""

    line: int | None
    where: str
    message: str

    def __str__(self) -> str:
        at = f"line {self.line}: " if self.line else ""
        return f"{at}{self.where}: {self.message}"


class VariantError(ValueError):
    """A variant file that cannot be used; ``problems`` lists every reason."""

    def __init__(self, source: str, problems: list[VariantProblem]) -> None:
        self.source = source
        self.problems = problems
        lines = "\n".join(f"{source}:{p}" for p in problems)
        super().__init__(f"{len(problems)} problem(s) in {source}:\n{lines}")


class _LineFinder:
    """Maps a key path such as ``provinces.BUL.coasts.EC`` to its line in the file."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def table(self, *path: str) -> int | None:
        dotted = ".".join(path)
        pattern = re.compile(r"^\s*\[+\s*" + re.escape(dotted) + r"\s*\]+\s*(#.*)?$")
        for number, line in enumerate(self.lines, start=1):
            if pattern.match(line):
                return number
        return None

    def key(self, table_path: tuple[str, ...], key: str) -> int | None:
        start = self.table(*table_path) if table_path else 1
        if start is None:
            return None
        key_re = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for number in range(start, len(self.lines) + 1):
            line = self.lines[number - 1]
            if number > start and line.lstrip().startswith("["):
                break
            if key_re.match(line):
                return number
        return start


class _Builder:
    def __init__(self, data: Mapping[str, Any], text: str) -> None:
        self.data = data
        self.find = _LineFinder(text)
        self.problems: list[VariantProblem] = []
        self.flow: Flow = STANDARD_FLOW  # the year's phases, once [variant] is read

    def problem(self, path: tuple[str, ...], key: str | None, message: str) -> None:
        line = self.find.key(path, key) if key else self.find.table(*path)
        where = ".".join(path) + (f".{key}" if key else "")
        found = VariantProblem(line, where, message)
        if found not in self.problems:  # a list read twice (home, as the centres too)
            self.problems.append(found)

    # -- the sections -----------------------------------------------------

    def _flow_and_start(self, header: Mapping[str, Any]) -> tuple[Flow, str]:
        """The year's flow of phases and the first phase: ``start`` in the
        standard flow ("S1901M", "W1900A", "S1M"), or DPJudge's words:
        ``flow`` (its FLOW lines) and ``begin`` (its BEGIN line)."""
        flow = STANDARD_FLOW
        lines = header.get("flow")
        if lines is not None:
            if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
                self.problem(("variant",), "flow", "flow is a list of DPJudge's FLOW lines")
            else:
                try:
                    flow = read_flow(lines)
                except FlowError as exc:
                    self.problem(("variant",), "flow", str(exc))
        begin = header.get("begin")
        if begin is not None:
            if "start" in header:
                self.problem(("variant",), "begin", "begin and start both give the first "
                             "phase: keep one")
            try:
                return flow, read_begin(str(begin), flow)
            except FlowError as exc:
                self.problem(("variant",), "begin", str(exc))
                return flow, "S1901M"
        start = str(header.get("start", "S1901M"))
        if not self._is_phase(start, flow):
            self.problem(("variant",), "start", f"start phase {start!r} is not like S1901M"
                         + ("" if flow == STANDARD_FLOW else " in the variant's flow"))
        return flow, start

    def _is_phase(self, text: str, flow: Flow | None = None) -> bool:
        try:
            Phase.parse(text, flow or self.flow)
        except ValueError:
            return False
        return True

    def build(self) -> GameMap:
        header = self.data.get("variant", {})
        if not isinstance(header, dict):
            header = {}
            self.problem(("variant",), None, "missing [variant] table")
        name = str(header.get("name", ""))
        if not name:
            self.problem(("variant",), "name", "missing variant name")
        self.flow, start = self._flow_and_start(header)
        victory = header.get("victory", 0)
        if not isinstance(victory, int) or victory <= 0:
            self.problem(("variant",), "victory", "victory must be a positive number of centres")
            victory = 1

        rules = str(header.get("rules", "standard"))
        if not re.match(r"^[a-z0-9_]+$", rules) or not _rules_module_exists(rules):
            self.problem(("variant",), "rules",
                         f"rules {rules!r}: no such rules module in engine/variants/")
            rules = "standard"
        kind_traits = self._kind_traits()
        kinds = self._kinds(header, kind_traits)
        flags = in_force(read_flags(self.problem, header.get("flags")))

        provinces, army, fleet, borders = self._provinces()
        aliases = self._aliases(provinces)
        canals = self._canals(provinces, fleet)
        variant_checks.check_adjacency(self.problem, provinces, army, fleet)
        variant_checks.check_split_coasts(self.problem, provinces, fleet)
        powers = self._powers(provinces, army, fleet, kinds, kind_traits)
        power_aliases = self._power_aliases(powers, aliases)
        seats = self._seats(powers)
        ways_to_play = self._ways_to_play(powers)
        drawing = self._drawing(provinces, fleet)
        variant_checks.check_reachable(self.problem, provinces, army, fleet)
        rings: dict[str, tuple[str, ...]] = {}
        # Optional: only Diplomap needs rings (issue 16). They are held to the
        # adjacency, so while that is wrong they would only repeat its problems.
        if "rings" in self.data and not self.problems:
            rings = ring_checks.check_rings(self.problem, self.data["rings"], provinces,
                                            army, fleet, borders)
        if self.problems:
            raise VariantError(name or "variant", self.problems)
        game_map = GameMap(
            name=name,
            title=str(header.get("title", name)),
            start=start,
            victory=victory,
            provinces=provinces,
            powers=powers,
            army_moves={p: frozenset(s) for p, s in army.items()},
            fleet_moves={p: frozenset(s) for p, s in fleet.items()},
            aliases=aliases,
            power_aliases=power_aliases,
            canals=canals,
            borders={p: frozenset(s) for p, s in borders.items()},
            seats=seats,
            drawing=drawing,
            ways_to_play=ways_to_play,
            rules=rules,
            kinds=kinds,
            kind_traits=kind_traits,
            rings=rings,
            flags=flags,
            flow=self.flow,
            tables={k: v for k, v in self.data.items() if k not in _KNOWN_TABLES},
        )
        for path, message in _rules_problems(game_map):
            self.problem(path[:-1] if len(path) > 1 else path,
                         path[-1] if len(path) > 1 else None, message)
        if self.problems:
            raise VariantError(name or "variant", self.problems)
        return game_map

    def _kinds(self, header: Mapping[str, Any],
               traits: Mapping[UnitKind, KindTraits]) -> tuple[UnitKind, ...]:
        """The kinds of unit on the board: ``kinds = ["A", "F", "W"]``, each
        described by a [kinds.X] table or by the standard game."""
        raw = header.get("kinds", ["A", "F"])
        letters = {k.value: k for k, t in traits.items() if t.follows is not Reach.NONE}
        if not isinstance(raw, list) or not raw or not all(
                isinstance(k, str) and k.upper() in letters for k in raw):
            self.problem(("variant",), "kinds", "kinds lists unit letters among "
                         f"{', '.join(sorted(letters))} (a kind on the board needs a "
                         "[kinds.X] table that follows some adjacency)")
            return (UnitKind.ARMY, UnitKind.FLEET)
        return tuple(dict.fromkeys(letters[k.upper()] for k in raw))

    def _kind_traits(self) -> dict[UnitKind, KindTraits]:
        """What each kind of unit may do: the file's [kinds.X] tables, and
        the standard game's army and fleet where the file has none."""
        raw = self.data.get("kinds", {})
        if not isinstance(raw, dict):
            self.problem(("kinds",), None, "kinds must be tables: [kinds.A], [kinds.F]...")
            raw = {}
        traits = {k: t for k, t in standard_kinds().items()
                  if k.value not in raw}
        for letter, entry in raw.items():
            read = kind_traits(self.problem, ("kinds", letter), letter, entry)
            if read is not None:
                traits[read[0]] = read[1]
        return traits

    def _provinces(
        self,
    ) -> tuple[dict[str, Province], dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
        raw = self.data.get("provinces", {})
        provinces: dict[str, Province] = {}
        army: dict[str, set[str]] = {}
        fleet: dict[str, set[str]] = {}
        borders: dict[str, set[str]] = {}
        if not isinstance(raw, dict) or not raw:
            self.problem(("provinces",), None, "no provinces")
            return provinces, army, fleet, borders
        for code, entry in raw.items():
            path = ("provinces", code)
            if not _CODE.match(code):
                self.problem(path, None, f"province code {code!r} must be 2-6 upper-case letters")
                continue
            if not isinstance(entry, dict):
                self.problem(path, None, "must be a table")
                continue
            try:
                terrain = Terrain(entry.get("kind", ""))
            except ValueError:
                self.problem(path, "kind", "kind must be land, coastal, water or impassable")
                continue
            coasts_raw = entry.get("coasts", {})
            coasts = tuple(coasts_raw) if isinstance(coasts_raw, dict) else ()
            if coasts and terrain is not Terrain.COASTAL:
                self.problem(path, "coasts", "only a coastal province can have coasts")
            if len(coasts) == 1:
                self.problem(path, "coasts", "a province with coasts needs at least two")
            provinces[code] = Province(
                code=code,
                name=str(entry.get("name", code)),
                terrain=terrain,
                coasts=coasts,
                centre=self._centre(path, entry.get("centre")),
            )
            army_list = self._code_list(path, entry, "army")
            fleet_list = self._code_list(path, entry, "fleet")
            if terrain is Terrain.IMPASSABLE:
                if army_list or fleet_list or coasts:
                    self.problem(path, None, "an impassable province has no movement lists")
                borders[code] = set(self._code_list(path, entry, "borders"))
                continue
            if terrain in (Terrain.LAND, Terrain.COASTAL):
                army[code] = set(army_list)
            elif army_list:
                self.problem(path, "army", "armies cannot stand in water")
            if terrain is Terrain.LAND and fleet_list:
                self.problem(path, "fleet", "fleets cannot stand inland")
            if terrain is Terrain.WATER or (terrain is Terrain.COASTAL and not coasts):
                fleet[code] = set(fleet_list)
            elif coasts and fleet_list:
                self.problem(path, "fleet", "a two-coast province lists fleet moves per coast")
            for coast in coasts:
                cpath = (*path, "coasts", coast)
                centry = coasts_raw[coast]
                if not isinstance(centry, dict):
                    self.problem(cpath, None, "must be a table")
                    continue
                fleet[f"{code}/{coast}"] = set(self._code_list(cpath, centry, "fleet"))
        return provinces, army, fleet, borders

    def _centre(self, path: tuple[str, ...], raw: Any) -> SupplyCentre | None:
        if raw is None or raw is False:
            return None
        if raw is True:
            return SupplyCentre()
        if isinstance(raw, int) and raw > 0:
            return SupplyCentre(value=raw)
        if isinstance(raw, dict):
            value = raw.get("value", 1)
            flags = raw.get("flags", [])
            if isinstance(value, int) and value > 0 and isinstance(flags, list):
                return SupplyCentre(value=value, flags=frozenset(str(f) for f in flags))
        self.problem(path, "centre", "centre must be true, a positive value or {value, flags}")
        return None

    def _code_list(self, path: tuple[str, ...], entry: Mapping[str, Any], key: str) -> list[str]:
        raw = entry.get(key, [])
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            self.problem(path, key, f"{key} must be a list of codes")
            return []
        codes = [x.upper() for x in raw]
        if len(set(codes)) != len(codes):
            self.problem(path, key, f"{key} names a place twice")
        return codes

    def _aliases(self, provinces: Mapping[str, Province]) -> dict[str, str]:
        aliases: dict[str, str] = {}
        owner_path: dict[str, tuple[str, ...]] = {}

        def add(spelling: str, target: str, path: tuple[str, ...]) -> None:
            key = normalise_name(spelling)
            if not key:
                return
            if key in aliases and aliases[key] != target:
                self.problem(
                    path,
                    "aliases",
                    f"alias {spelling!r} already means {aliases[key]} "
                    f"({'.'.join(owner_path[key])})",
                )
                return
            aliases[key] = target
            owner_path[key] = path

        raw = self.data.get("provinces", {})
        for code, prov in provinces.items():
            path = ("provinces", code)
            add(code, code, path)
            add(prov.name, code, path)
            for alias in raw[code].get("aliases", []):
                add(str(alias), code, path)
            for coast in prov.coasts:
                centry = raw[code]["coasts"][coast]
                cpath = (*path, "coasts", coast)
                for alias in centry.get("aliases", []) if isinstance(centry, dict) else []:
                    add(str(alias), f"{code}/{coast}", cpath)
        return aliases

    def _canals(
        self, provinces: Mapping[str, Province], fleet: dict[str, set[str]]
    ) -> tuple[Canal, ...]:
        canals: list[Canal] = []
        for index, raw in enumerate(self.data.get("canals", [])):
            path = ("canals",)
            province = str(raw.get("province", ""))
            connects = tuple(str(c).upper() for c in raw.get("connects", []))
            opens = raw.get("opens")
            if province not in provinces:
                self.problem(path, None, f"canal {index + 1}: unknown province {province!r}")
                continue
            locations = [province, *(f"{province}/{c}" for c in provinces[province].coasts)]
            for other in connects:
                if other not in fleet:
                    self.problem(path, None, f"canal {province}: unknown water {other!r}")
                    continue
                listed = any(other in fleet.get(loc, set()) for loc in locations)
                if opens is None and not listed:
                    self.problem(
                        path, None, f"canal {province}: {other} is not in its fleet list"
                    )
                if opens is not None and listed:
                    self.problem(
                        path,
                        None,
                        f"canal {province} opens in {opens}: {other} must not be "
                        "in its fleet list before then",
                    )
            canals.append(Canal(province, connects, opens if isinstance(opens, int) else None))
        return tuple(canals)

    def _powers(
        self,
        provinces: Mapping[str, Province],
        army: Mapping[str, set[str]],
        fleet: Mapping[str, set[str]],
        kinds: tuple[UnitKind, ...],
        kind_traits: Mapping[UnitKind, KindTraits],
    ) -> dict[str, Power]:
        raw = self.data.get("powers", {})
        powers: dict[str, Power] = {}
        if not isinstance(raw, dict) or not raw:
            self.problem(("powers",), None, "no powers")
            return powers
        taken: dict[str, str] = {}
        for name, entry in raw.items():
            path = ("powers", name)
            if not re.match(r"^[A-Z][A-Z_-]*$", name):
                self.problem(path, None, "power names are upper case")
            home = self._code_list(path, entry, "home")
            centres = self._code_list(path, entry, "centres") if "centres" in entry else home
            for key in ("home", "centres") if "centres" in entry else ("home",):
                for code in self._code_list(path, entry, key):
                    prov = provinces.get(code)
                    if prov is None:
                        self.problem(path, key, f"unknown province {code}")
                    elif prov.centre is None:
                        self.problem(path, key, f"{code} is not a supply centre")
            for code in self._code_list(path, entry, "territory"):
                if code not in provinces:
                    self.problem(path, "territory", f"unknown province {code}")
            for code in centres:
                if code in taken and taken[code] != name:
                    self.problem(path, "centres", f"{code} is also owned by {taken[code]}")
                taken[code] = name
            units = self._units(path, entry, provinces, fleet, kinds, kind_traits)
            letter = str(entry.get("letter", name[:1]))
            if not re.match(r"^[A-Za-z]{1,3}$", letter):
                self.problem(path, "letter", "a power's letter is 1 to 3 letters")
            colour = entry.get("colour")
            if colour is not None and not (isinstance(colour, str) and COLOUR.fullmatch(colour)):
                self.problem(path, "colour", f"colour {colour!r} is not like '#1f4e9c'")
                colour = None
            territory = "territory" in entry
            powers[name] = Power(
                name=name,
                adjective=str(entry.get("adjective", name.title())),
                letter=letter.upper(),
                home=tuple(home),
                units=tuple(units),
                centres=tuple(centres),
                territory=tuple(self._code_list(path, entry, "territory")
                                if territory else home),
                colour=colour,
                title=str(entry.get("title", "")),
                **self._traits(path, entry, provinces),
            )
        letters: dict[str, str] = {}
        for power in powers.values():
            if power.letter in letters:
                self.problem(("powers", power.name), "letter",
                             f"letter {power.letter} is also {letters[power.letter]}'s")
            letters[power.letter] = power.name
        self._check_relations(powers)
        occupied: dict[str, str] = {}
        for power in powers.values():
            for _, loc in power.units:
                where = province_of(loc)
                if where in occupied:
                    self.problem(("powers", power.name), "units",
                                 f"{where} already holds a unit of {occupied[where]}")
                occupied[where] = power.name
        return powers

    def _units(self, path: tuple[str, ...], entry: Mapping[str, Any],
               provinces: Mapping[str, Province], fleet: Mapping[str, set[str]],
               kinds: tuple[UnitKind, ...], kind_traits: Mapping[UnitKind, KindTraits]
               ) -> list[tuple[UnitKind, str]]:
        letters = {k.value: k for k in kinds}
        shape = " or ".join(
            f"'{k.value} {'STP/SC' if kind_traits[k].follows is Reach.FLEET else 'PAR'}'"
            for k in kinds)
        units: list[tuple[UnitKind, str]] = []
        for text in entry.get("units", []):
            parts = str(text).upper().split()
            if len(parts) != 2 or parts[0] not in letters:
                self.problem(path, "units", f"unit {text!r} is not like {shape}")
                continue
            kind, loc = letters[parts[0]], parts[1]
            if province_of(loc) not in provinces:
                self.problem(path, "units", f"unit {text!r}: unknown province")
                continue
            prov = provinces[province_of(loc)]
            traits = kind_traits[kind]
            if traits.follows is Reach.FLEET:
                standable = loc in fleet and prov.terrain in traits.stands_on
            else:
                standable = "/" not in loc and prov.terrain in traits.stands_on
            if not standable:
                self.problem(path, "units", f"a {kind.noun} cannot stand on {loc}")
            units.append((kind, loc))
        return units

    def _traits(self, path: tuple[str, ...], entry: Mapping[str, Any],
                provinces: Mapping[str, Province]) -> dict[str, Any]:
        """The keys by which a variant's powers differ from standard ones."""
        traits: dict[str, Any] = {}
        ordered_by = entry.get("ordered_by", "player")
        if ordered_by not in ("player", "bids"):
            self.problem(path, "ordered_by", "ordered_by is 'player' or 'bids'")
        traits["ordered_by_bids"] = ordered_by == "bids"
        for key, default in (("stationary", False), ("invulnerable", False),
                             ("captures", True), ("dummy", False)):
            value = entry.get(key, default)
            if not isinstance(value, bool):
                self.problem(path, key, f"{key} is true or false")
                value = default
            traits[key] = value
        if traits["dummy"] and traits["ordered_by_bids"]:
            self.problem(path, "dummy", "a dummy power is not ordered by bids")
        barred = self._code_list(path, entry, "barred")
        for code in barred:
            if code not in provinces:
                self.problem(path, "barred", f"unknown province {code}")
        traits["barred"] = frozenset(barred)
        friends = entry.get("friends", [])
        if not isinstance(friends, list) or not all(isinstance(f, str) for f in friends):
            self.problem(path, "friends", "friends is a list of power names")
            friends = []
        traits["friends"] = tuple(friends)
        default_order = entry.get("default_order", "hold")
        if default_order not in ("hold", "support-partner"):
            self.problem(path, "default_order", "default_order is 'hold' or 'support-partner'")
            default_order = "hold"
        traits["default_order"] = default_order
        return traits

    def _check_relations(self, powers: Mapping[str, Power]) -> None:
        """Names of other powers in friends must exist."""
        for power in powers.values():
            path = ("powers", power.name)
            for other in power.friends:
                if other not in powers:
                    self.problem(path, None, f"unknown power {other!r}")
            if power.default_order == "support-partner" and len(power.units) != 2:
                self.problem(path, "default_order", "support-partner needs exactly two units")

    def _drawing(self, provinces: Mapping[str, Province],
                 fleet: Mapping[str, set[str]]) -> Drawing:
        """The optional [map] table: artwork, size and where units, labels
        and centre markers are drawn."""
        raw = self.data.get("map")
        if raw is None:
            return Drawing()
        if not isinstance(raw, dict):
            self.problem(("map",), None, "map must be a table")
            return Drawing()
        artwork = raw.get("artwork")
        if artwork is not None and not (isinstance(artwork, str) and _ARTWORK.match(artwork)):
            self.problem(("map",), "artwork", "artwork is a file name like 'standard.ps'")
            artwork = None
        size = self._point(("map",), "size", raw.get("size")) if "size" in raw else None
        if size is not None and min(size) <= 0:
            self.problem(("map",), "size", "size is a width and a height above 0")
            size = None
        locations = set(provinces) | {loc for loc in fleet if "/" in loc}
        tables: dict[str, dict[str, tuple[float, float]]] = {}
        for key, allowed in (("units", locations), ("labels", set(provinces)),
                             ("centres", {c for c, p in provinces.items() if p.centre})):
            table = raw.get(key, {})
            tables[key] = {}
            if not isinstance(table, dict):
                self.problem(("map",), key, f"{key} must be a table: CODE = [x, y]")
                continue
            for place, value in table.items():
                if place not in allowed:
                    what = "supply centre" if key == "centres" else \
                        "province" if key == "labels" else "location"
                    self.problem(("map", key), place, f"unknown {what} {place}")
                    continue
                point = self._point(("map", key), place, value)
                if point is not None:
                    tables[key][place] = point
        if tables["units"] and artwork is not None:
            missing = sorted(locations - set(tables["units"]))
            if missing:
                self.problem(("map", "units"), None,
                             f"no place to draw a unit on {', '.join(missing)}")
        notice = raw.get("notice")
        if notice is not None and not isinstance(notice, str):
            self.problem(("map",), "notice", "notice is a line of text")
            notice = None
        spread = raw.get("spread", False)
        if not isinstance(spread, bool):
            self.problem(("map",), "spread", "spread is true or false")
            spread = False
        return Drawing(artwork=artwork, size=size, units=tables["units"],
                       labels=tables["labels"], centres=tables["centres"], notice=notice,
                       spread=spread, views=self._views(raw.get("views", []), size))

    def _views(self, raw: Any, size: tuple[float, float] | None) -> tuple[View, ...]:
        """The optional [[map.views]]: regions of the board drawn on their own."""
        path = ("map", "views")
        if not isinstance(raw, list) or not all(isinstance(v, dict) for v in raw):
            self.problem(path, None, "views is a list of tables: [[map.views]]")
            return ()
        views = []
        for n, view in enumerate(raw):
            name, title, box = view.get("name"), view.get("title"), view.get("box")
            if not (isinstance(name, str) and _VIEW_NAME.match(name)):
                self.problem(path, str(n), "name is a word for a file name, like 'europe'")
            elif not (isinstance(title, str) and title):
                self.problem(path, name, "title is the view's name as the picture writes it")
            elif not (isinstance(box, list) and len(box) == 4 and all(
                    isinstance(v, int | float) and not isinstance(v, bool) for v in box)
                    and box[0] < box[2] and box[1] < box[3]):
                self.problem(path, name, "box is [left, top, right, bottom] in map units")
            elif size is not None and (min(box) < 0 or box[2] > size[0] or box[3] > size[1]):
                self.problem(path, name, "box reaches beyond the map's size")
            else:
                views.append(View(name, title, (float(box[0]), float(box[1]),
                                                float(box[2]), float(box[3]))))
        if len({v.name for v in views}) != len(views):
            self.problem(path, None, "two views have the same name")
        return tuple(views)

    def _point(self, path: tuple[str, ...], key: str, value: Any) -> tuple[float, float] | None:
        if (isinstance(value, list) and len(value) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
            return float(value[0]), float(value[1])
        self.problem(path, key, "a point is two numbers: [x, y]")
        return None

    def _seats(self, powers: Mapping[str, Power]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Players who control several powers (optional [seats] table).

        Without it every power is a seat of its own.
        """
        raw = self.data.get("seats")
        played = [p for p, power in powers.items()
                  if not power.ordered_by_bids and not power.dummy]
        if raw is None:
            return tuple((p, (p,)) for p in played)
        if not isinstance(raw, dict):
            self.problem(("seats",), None, "seats must be a table: NAME = [POWER, ...]")
            return ()
        seated: dict[str, str] = {}
        seats: list[tuple[str, tuple[str, ...]]] = []
        for name, members in raw.items():
            if not isinstance(members, list) or not members:
                self.problem(("seats",), name, "a seat lists one or more powers")
                continue
            for power in members:
                if power not in powers:
                    self.problem(("seats",), name, f"unknown power {power!r}")
                elif powers[power].dummy:
                    self.problem(("seats",), name, f"{power} is a dummy: no player takes it")
                elif power in seated:
                    self.problem(("seats",), name, f"{power} is already in seat {seated[power]}")
                else:
                    seated[power] = name
            seats.append((name, tuple(str(m) for m in members)))
        for power in played:
            if power not in seated:
                self.problem(("seats",), None, f"{power} is in no seat")
        return tuple(seats)

    def _ways_to_play(self, powers: Mapping[str, Power]) -> dict[int, WayToPlay]:
        """The optional [ways_to_play.N] tables: seatings for N players."""
        raw = self.data.get("ways_to_play", {})
        ways: dict[int, WayToPlay] = {}
        if not isinstance(raw, dict):
            self.problem(("ways_to_play",), None, "ways_to_play must be a table of tables")
            return ways
        for number, entry in raw.items():
            path = ("ways_to_play", number)
            if not number.isdigit() or not isinstance(entry, dict):
                self.problem(path, None, "a way to play is [ways_to_play.N], N players")
                continue
            seats = entry.get("seats", [])
            if not isinstance(seats, list) or len(seats) != int(number) or not all(
                    isinstance(s, list) and s and all(p in powers for p in s) for s in seats):
                self.problem(path, "seats", f"seats lists {number} seats of known powers")
                continue
            seated = [p for s in seats for p in s]
            if len(set(seated)) != len(seated):
                self.problem(path, "seats", "a power sits in one seat only")
            for power in seated:
                if powers[power].dummy:
                    self.problem(path, "seats", f"{power} is a dummy: no player takes it")
            start = entry.get("start")
            if start is not None and not (isinstance(start, str) and self._is_phase(start)):
                self.problem(path, "start", f"start phase {start!r} is not like S1901M")
                start = None
            victory = entry.get("victory")
            if victory is not None and not (isinstance(victory, int) and victory > 0):
                self.problem(path, "victory", "victory is a positive number")
                victory = None
            coin_toss = entry.get("coin_toss")
            if coin_toss is not None and (coin_toss not in powers or coin_toss in seated):
                self.problem(path, "coin_toss", "coin_toss names a power in no seat")
                coin_toss = None
            ways[int(number)] = WayToPlay(
                seats=tuple(tuple(s) for s in seats), start=start, victory=victory,
                victory_by_player=bool(entry.get("victory_by_player", False)),
                coin_toss=coin_toss)
        return ways

    def _power_aliases(
        self, powers: Mapping[str, Power], province_aliases: Mapping[str, str]
    ) -> dict[str, str]:
        result: dict[str, str] = {}
        raw = self.data.get("powers", {})
        for name, power in powers.items():
            own = {normalise_name(name), normalise_name(power.adjective)}
            spellings = [name, power.adjective, *raw[name].get("aliases", [])]
            for spelling in spellings:
                key = normalise_name(str(spelling))
                if key in result and result[key] != name:
                    self.problem(("powers", name), "aliases",
                                 f"alias {spelling!r} already means {result[key]}")
                elif key in province_aliases:
                    # a power's own name or adjective may be a province's
                    # (Hungary, chaos.map's Ankara): the province wins, as
                    # orders name provinces far more often than powers, and
                    # where a power is expected (JOIN, SIGNON, a GM's command)
                    # its name is read first (power_named, resolve_power). A
                    # neutral power is never named in orders at all. An alias
                    # the file adds that is a province's is a mistake.
                    if key not in own and not power.ordered_by_bids:
                        self.problem(("powers", name), "aliases", f"alias {spelling!r} is also "
                                     f"a province ({province_aliases[key]})")
                else:
                    result[key] = name
        return result

# [source] says where an imported map came from (judge variant import); it is
# informational: no rules read it
_KNOWN_TABLES = frozenset(
    {"variant", "kinds", "powers", "provinces", "canals", "seats", "map", "ways_to_play",
     "rings", "source"})


def _rules_problems(game_map: GameMap) -> list[tuple[tuple[str, ...], str]]:
    """What the variant's rules module finds wrong with the tables it reads."""
    from engine.variants import rules_for

    return rules_for(game_map).check_tables(game_map)


def _rules_module_exists(name: str) -> bool:
    from engine.variants import rules_module_exists  # the registry imports the engine

    return rules_module_exists(name)


def parse_variant(text: str, source: str = "variant") -> GameMap:
    """Build a map from the text of a variant file, or raise VariantError."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(source, [VariantProblem(None, "file", f"not valid TOML: {exc}")]) \
            from exc
    builder = _Builder(data, text)
    try:
        return builder.build()
    except VariantError as exc:
        raise VariantError(source, exc.problems) from None


def load_variant_file(path: str | Path) -> GameMap:
    path = Path(path)
    return parse_variant(path.read_text(encoding="utf-8"), str(path))


def shipped_variants() -> list[str]:
    """The names of the variants shipped with the engine (engine/variants/*.toml).

    A ``*_facts.toml`` file is not a variant: it holds the facts of a variant
    still being built (intercontinental_facts.toml) and has no board to play.
    """
    folder = resources.files("engine") / "variants"
    return sorted(entry.name.removesuffix(".toml") for entry in folder.iterdir()
                  if entry.name.endswith(".toml") and not entry.name.endswith("_facts.toml"))


def added_variants() -> list[str]:
    """The variants of the folders named by JUDGE_VARIANTS (separated as
    PATH is) that the engine does not ship: a keeper's own maps, or maps
    made by ``judge variant import`` being tried before they are shipped.
    A shipped variant's name is never taken by one of them."""
    shipped = set(shipped_variants())
    return sorted({path.stem for folder in _added_folders() for path in folder.glob("*.toml")
                   if not path.name.endswith("_facts.toml") and path.stem not in shipped
                   and re.fullmatch(_NAME, path.stem)})


def _added_folders() -> list[Path]:
    return [Path(p) for p in os.environ.get("JUDGE_VARIANTS", "").split(os.pathsep) if p]


def unfinished_reason(name: str) -> str | None:
    """Why a shipped variant is not offered to games yet, or None when it is.

    A variant whose board is shipped before its rules module
    says so with ``unfinished = "why"`` in its [variant] table: the engine and
    its tests load it, but CREATE refuses it and LIST does not offer it, so no
    GM starts a game the judge would adjudicate by the wrong rules. So is a
    map imported from DPJudge with a RULE flag the judge does not play yet
    (engine/flags.py): "DPJudge rule NAME is not supported yet", and one
    whose flow of phases the engine cannot play (DPJudge's INCOME phases).
    """
    header = _variant_header(name)
    reason = header.get("unfinished")
    if reason:
        return str(reason)
    flags = header.get("flags", [])
    # the file's own check names flags that are no DPJudge rule; here only
    # the rules it names but the judge does not play keep it from games
    if isinstance(flags, list):
        unplayed = unsupported_reason([f for f in flags if isinstance(f, str)])
        if unplayed:
            return unplayed
    return flow_unplayable(header)


def flow_unplayable(header: Mapping[str, Any]) -> str | None:
    """Why the engine cannot play the flow of phases a [variant] table
    gives (a DPJudge phase such as INCOME), or None."""
    lines = header.get("flow")
    if not isinstance(lines, list):
        return None
    try:
        return read_flow([str(line) for line in lines]).unplayable
    except FlowError:
        return None  # a problem `judge variant check` reports


def variant_notice(name: str) -> str | None:
    """What every mail of a game of this variant says beside its name, from
    ``notice = "..."`` in the [variant] table (Intercontinental: that its
    board is provisional), or None."""
    notice = _variant_header(name).get("notice")
    return str(notice) if notice else None


@cache
def _variant_header(name: str) -> dict[str, Any]:
    """A shipped variant's [variant] table, read once per process."""
    header = tomllib.loads(_shipped_file(name).read_text(encoding="utf-8")).get("variant", {})
    return header if isinstance(header, dict) else {}


def offered_variants() -> list[str]:
    """The variants a GM may CREATE a game of: the shipped ones and those
    of the JUDGE_VARIANTS folders, less the unfinished."""
    return [name for name in sorted({*shipped_variants(), *added_variants()})
            if unfinished_reason(name) is None]


_CACHE: dict[str, GameMap] = {}


def load_variant(name: str) -> GameMap:
    """A variant shipped with the engine (engine/variants/NAME.toml), loaded once."""
    if name not in _CACHE:
        resource = _shipped_file(name)
        _CACHE[name] = parse_variant(resource.read_text(encoding="utf-8"), f"{name}.toml")
    return _CACHE[name]


def _shipped_file(name: str) -> Traversable:
    """engine/variants/NAME.toml, else NAME.toml in a JUDGE_VARIANTS folder;
    KeyError for a name that is no variant (any text a mail may carry:
    never a path, never too long for one)."""
    if not re.fullmatch(_NAME, name):
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise KeyError(f"unknown variant {shown!r}")
    resource = resources.files("engine") / "variants" / f"{name}.toml"
    if resource.is_file():
        return resource
    for folder in _added_folders():
        if (folder / f"{name}.toml").is_file():
            return folder / f"{name}.toml"
    raise KeyError(f"unknown variant {name!r}")


_NAME = r"[a-z0-9_-]{1,64}"
