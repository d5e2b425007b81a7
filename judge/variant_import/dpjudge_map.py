"""Read a DPJudge map's lines (pages/Map.html describes the format) into a
:class:`DpMap`: what each line says, applied in order, as DPJudge applies
them, so that a map that USEs another and then amends, drops, renames or
removes things ends up with what DPJudge would play.

Everything the variant file cannot carry is kept as a :class:`Note` with
its file and line; nothing is dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from judge.variant_import.abuts import bare_location, rename_token
from judge.variant_import.chain import Chain, SourceLine, Where
from judge.variant_import.model import DpMap, DpPower, Location, Note, PlaceName
from judge.variant_import.words import (
    CENTRE,
    CODES_FOLLOW,
    HOME_MARKS,
    OUTSIDE_THE_GAME,
    PLACE_NAME,
    POWER,
    POWER_NAME,
    TERRAINS,
    UNSUPPORTED,
    ascii_code,
    power_key,
)


@dataclass
class _Power:
    name: str
    own_word: str | None
    abbrev: str | None
    where: Where
    homes: list[str] = field(default_factory=list)
    owns: list[str] | None = None
    dummy: bool = False


class _Reader:
    """DPJudge's reading of a map, line by line, into mutable tables."""

    def __init__(self) -> None:
        self.names: dict[str, PlaceName] = {}
        self.locations: dict[str, Location] = {}
        self.powers: dict[str, _Power] = {}
        # province -> (power key, "A BUD"); and where each unit was written
        self.units: dict[str, tuple[str, str]] = {}
        self.unit_lines: dict[str, Where] = {}
        self.unowned: list[str] = []
        self.victory: tuple[int, ...] = ()
        self.begin: str | None = None
        self.flow: list[str] = []
        self.rules_on: list[str] = []
        self.rules_off: list[str] = []
        self.rule_lines: dict[str, Where] = {}
        self.rule_files: dict[str, set[str]] = {}  # the files that switch each flag on
        self.notes: list[Note] = []
        self.text_only = False
        self.current: str | None = None
        self.stanza: str | None = None  # inside DIRECTIVES: its variant, "" for none
        self.dynamic: tuple[str, str] | None = None  # inside IN/FROM: (its file, its line)

    def note(self, where: Where | None, text: str, changes_play: bool = False) -> None:
        self.notes.append(Note(where, text, changes_play))

    # -- one line --------------------------------------------------------

    def read(self, line: SourceLine) -> None:
        where, words = line.where, line.text.split()
        text = " ".join(words)  # as the report quotes it
        keyword = words[0].upper()
        if self.dynamic is not None and where.file != self.dynamic[0]:
            self.dynamic = None  # an IN or FROM block ends with its file
        if self._stanza_line(where, words):
            return
        if keyword in ("IN", "FROM"):
            self._dynamic(where, text, words)
            return
        if self.dynamic is not None:
            self.note(where, f"'{text}' applies only from or in a phase given at line "
                      f"{self.dynamic[1]}: the engine's board does not change during a game",
                      changes_play=True)
            return
        if self.stanza is not None and keyword not in ("RULE", "RULES"):
            self.note(where, f"'{text}' is a game status line the variant file cannot carry",
                      changes_play=True)
            return
        self._directive(where, text, words, keyword)

    def _directive(self, where: Where, text: str, words: list[str], keyword: str) -> None:
        args = [ascii_code(a) for a in words[1:]] if keyword in CODES_FOLLOW else words[1:]
        if "=" in text:  # before the keywords: "COAST of Mexico = com", "PORT Arthur = poa"
            self._place_name(where, text)
        elif keyword == "TEXTONLY":
            self.text_only = True
        elif keyword in TERRAINS or keyword == "AMEND":
            self._terrain(where, keyword, args)
        elif keyword == "DROP":
            for code in args:
                self._drop(code.upper())
        elif keyword in ("UNOWNED", "NEUTRAL") or (keyword == "CENTERS" and self.current is None):
            self.current = None
            self._unowned(args)
        elif keyword in ("OWNS", "CENTERS"):
            self._owns(where, keyword, args)
        elif keyword in ("INHABITS", "HOME", "HOMES"):
            self._homes(where, keyword, args)
        elif keyword == "UNITS":
            if self._power_here(where, text):
                self.units = {p: u for p, u in self.units.items() if u[0] != self.current}
        elif keyword in ("A", "F") and len(args) == 1:
            self._unit(where, text, keyword, args[0])
        elif keyword in ("DUMMY", "DUMMIES"):
            for key in self._powers_named(where, text, args):
                self.powers[key].dummy = True
        elif keyword == "UNPLAYED":
            for key in self._powers_named(where, text, args):
                self._unplay(key)
        elif keyword == "VICTORY":
            self._victory(where, text, args)
        elif keyword == "BEGIN":
            self.begin = " ".join(args)
        elif keyword == "FLOW":
            self.flow = [*self.flow, " ".join(args)] if args else []
        elif keyword in ("RULE", "RULES"):
            self._rules(where, args)
        elif keyword in UNSUPPORTED:
            self.note(where, f"'{text}': {UNSUPPORTED[keyword]} is not supported",
                      changes_play=True)
        elif keyword in OUTSIDE_THE_GAME:
            self.note(where, f"'{text}' not carried: {OUTSIDE_THE_GAME[keyword]}")
        else:
            self._power_line(where, text)

    def _stanza_line(self, where: Where, words: list[str]) -> bool:
        """DIRECTIVES stanzas: the lines of a game's status file."""
        upper = [w.upper() for w in words]
        if upper[-1] not in ("DIRECTIVE", "DIRECTIVES") or len(upper) > 2:
            if self.stanza and self.stanza != "STANDARD":
                self.note(where, f"'{' '.join(words)}' is in force only in "
                          f"{self.stanza} games, which this judge does not play")
                return True
            return False
        if upper[0] == "END":
            self.stanza = None
        else:
            self.stanza = upper[0] if len(upper) == 2 else ""
        return True

    def _dynamic(self, where: Where, text: str, words: list[str]) -> None:
        if words[0].upper() == "FROM" and len(words) > 1 and words[1].upper() == "START":
            self.dynamic = None
            return
        if ":" in text and text.split(":", 1)[1].strip():
            self.note(where, f"'{text}' changes the board during the game: not supported",
                      changes_play=True)
            return
        self.dynamic = (where.file, str(where.line))
        self.note(where, f"'{text}': the lines after it apply only in or from that phase: "
                  "not supported", changes_play=True)

    # -- geography -------------------------------------------------------

    def _place_name(self, where: Where, text: str) -> None:
        found = PLACE_NAME.match(text)
        codes = found.group("codes").split() if found else []
        if not found or not codes:
            self.note(where, f"'{text}' names a place without its abbreviation", True)
            return
        old = found.group("old")
        code = ascii_code(codes[0]).upper()
        if old:
            self._rename(ascii_code(old).upper(), code)
        aliases: list[str] = []
        ambiguous: list[str] = []
        for alias in codes[1:]:
            if alias.endswith("?"):
                ambiguous.append(alias[:-1].lower())
            else:
                aliases.append(alias.replace("+", " ").lower())
        self.names[code] = PlaceName(code, found.group("name").replace("+", " "),
                                     tuple(aliases), tuple(ambiguous), where)

    def _terrain(self, where: Where, terrain: str, args: list[str]) -> None:
        if not args:
            self.note(where, f"'{terrain}' names no place", True)
            return
        code, rest = args[0], args[1:]
        has_abuts = bool(rest) and rest[0].upper() == "ABUTS"
        if has_abuts:
            rest = rest[1:]
        elif rest:
            self.note(where, f"'{terrain} {' '.join(args)}': words before ABUTS", True)
        key = code.upper()
        old = self.locations.get(key)
        if terrain != "AMEND":
            # a line without ABUTS changes the terrain and keeps the
            # adjacencies (renaissance.map's LAND SWI opens Switzerland)
            if not has_abuts and old is not None:
                self.locations[key] = Location(code, terrain, old.abuts, where, old.sources)
            else:
                self.locations[key] = Location(code, terrain, tuple(rest), where,
                                               (where,) * len(rest))
            return
        if old is None:
            self.note(where, f"AMEND {code}: no such place yet", True)
            return
        kept = [(a, old.source(i)) for i, a in enumerate(old.abuts)]
        for token in rest:
            target = bare_location(token.lstrip("-"))
            kept = [(a, w) for a, w in kept if bare_location(a) != target]
            if not token.startswith("-"):
                kept.append((token, where))
        self.locations[key] = Location(code, old.terrain, tuple(a for a, _ in kept), old.where,
                                       tuple(w for _, w in kept))

    def _rename(self, old: str, new: str) -> None:
        if old == new:
            return
        self.names.pop(old, None)
        self.locations = {
            (new if key == old else key): Location(
                rename_token(loc.code, old, new), loc.terrain,
                tuple(rename_token(t, old, new) for t in loc.abuts), loc.where, loc.sources)
            for key, loc in self.locations.items()}
        self._rename_centres(lambda c: new if c == old else c)

    def _drop(self, code: str) -> None:
        def gone(loc: str) -> bool:
            loc = loc.upper()
            return loc == code or ("/" not in code and loc.startswith(code + "/"))

        self.names = {k: v for k, v in self.names.items() if not gone(k)}
        self.locations = {k: _without(v, gone) for k, v in self.locations.items() if not gone(k)}
        self.units = {p: u for p, u in self.units.items() if not gone(p)}
        self._rename_centres(lambda c: None if gone(c) else c)

    def _rename_centres(self, change: Callable[[str], str | None]) -> None:
        """Apply a rename or a drop to the powers' centres and the units."""

        def each(codes: list[str]) -> list[str]:
            out = [change(c) for c in codes]
            return [c for c in out if c is not None]

        self.unowned = each(self.unowned)
        for power in self.powers.values():
            power.homes = each(power.homes)
            if power.owns is not None:
                power.owns = each(power.owns)
        units: dict[str, tuple[str, str]] = {}
        lines: dict[str, Where] = {}
        for owner, unit in self.units.values():
            kind, loc = unit.split()
            province, _, coast = loc.partition("/")
            moved = change(loc)  # a coast renamed on its own (STP/SC -> STP/ZK)
            if moved == loc:
                new = change(province)
                moved = None if new is None else f"{new}/{coast}" if coast else new
            if moved is None:
                continue
            units[moved.split("/")[0]] = (owner, f"{kind} {moved}")
            lines[f"{kind} {moved}"] = self.unit_lines[unit]
        self.unit_lines = lines
        self.units = units

    # -- politics --------------------------------------------------------

    def _power_line(self, where: Where, text: str) -> None:
        found = POWER.match(text)
        if not found:
            self.note(where, f"'{text}': not a line DPJudge's map format knows", True)
            return
        old, name, own, rest = (found.group("old"), found.group("name"),
                                found.group("own"), found.group("rest"))
        if old:
            renamed = self.powers.pop(power_key(old), None)
            if renamed is None:
                self.note(where, f"'{text}': no power {old} to rename", True)
                return
            renamed.name = name
            self.powers[power_key(name)] = renamed
            self.units = {p: (power_key(name) if o == power_key(old) else o, u)
                          for p, (o, u) in self.units.items()}
        key = power_key(name)
        power = self.powers.get(key)
        if power is None:
            # a new power's line: a name, maybe its ownership word, and
            # centre codes (three characters, maybe marked); anything else
            # is a directive DPJudge's map format does not have
            if not POWER_NAME.fullmatch(name) or not all(
                    CENTRE.fullmatch(t) for t in rest.split()):
                self.note(where, f"'{text}': not a line DPJudge's map format knows", True)
                return
            power = _Power(name, None, None, where)
            self.powers[key] = power
        if own is not None:
            word, _, abbrev = own.partition(":")
            power.own_word = word.strip() or None
            power.abbrev = abbrev.strip() or None
        self.current = key
        self._add_homes(where, power, ascii_code(rest).split())

    def _add_homes(self, where: Where, power: _Power, centres: list[str]) -> None:
        for token in centres:
            code = token.upper()
            if code.startswith("-"):
                code = code[1:]
                power.homes = [h for h in power.homes if h != code]
                if code not in self.unowned:
                    self.unowned.append(code)
                continue
            bare = code.lstrip("~&+*@").split("(")[0]
            marks = code[: len(code) - len(code.lstrip("~&+*@"))]
            for mark in marks:
                if mark in HOME_MARKS:
                    self.note(where, f"{token} for {power.name}: {HOME_MARKS[mark]} "
                              "is not supported", changes_play=True)
                elif mark == "~":
                    self.note(where, f"{token} for {power.name}: builds there hidden "
                              "until the next movement is not supported", changes_play=True)
            if any(m in HOME_MARKS for m in marks) or bare == "SC":
                continue
            if bare not in power.homes:
                power.homes.append(bare)

    def _power_here(self, where: Where, text: str) -> bool:
        if self.current is None or self.current not in self.powers:
            self.note(where, f"'{text}': no power is being described", True)
            return False
        return True

    def _unowned(self, args: list[str]) -> None:
        for token in args:
            code = token.upper()
            if code.startswith("-"):
                self.unowned = [c for c in self.unowned if c != code[1:]]
            elif code not in self.unowned:
                self.unowned.append(code)

    def _owns(self, where: Where, keyword: str, args: list[str]) -> None:
        if not self._power_here(where, f"{keyword} {' '.join(args)}"):
            return
        power = self.powers[self.current or ""]
        owns = [] if keyword == "CENTERS" or power.owns is None else power.owns
        for token in args:
            code = token.upper()
            if code[-1:] in "!?":
                self.note(where, f"OWNS {token} for {power.name}: a home centre built on "
                          "without owning it is not supported", changes_play=True)
                continue
            if code not in owns:
                owns.append(code)
        power.owns = owns

    def _homes(self, where: Where, keyword: str, args: list[str]) -> None:
        if not self._power_here(where, f"{keyword} {' '.join(args)}"):
            return
        power = self.powers[self.current or ""]
        # INHABITS and HOMES both set the homes anew (HOMES forgets earlier
        # INHABITS lines too); a map's lines never mix them for one power
        power.homes = []
        self._add_homes(where, power, args)

    def _unit(self, where: Where, text: str, kind: str, loc: str) -> None:
        if not self._power_here(where, text):
            return
        loc = loc.upper()
        self.units[loc.split("/")[0]] = (self.current or "", f"{kind} {loc}")
        self.unit_lines[f"{kind} {loc}"] = where

    def _powers_named(self, where: Where, text: str, args: list[str]) -> list[str]:
        upper = [a.upper() for a in args]
        if not upper:
            return [self.current] if self._power_here(where, text) and self.current else []
        if upper[0] == "ALL":
            except_ = upper[2:] if upper[1:2] == ["EXCEPT"] else []
            kept = {power_key(n) for n in except_}
            return [k for k in self.powers if k not in kept]
        found = []
        for name in upper:
            if power_key(name) in self.powers:
                found.append(power_key(name))
            else:
                self.note(where, f"'{text}': no power {name}", True)
        return found

    def _unplay(self, key: str) -> None:
        power = self.powers.pop(key)
        for home in power.homes:
            if home not in self.unowned:
                self.unowned.append(home)
        self.units = {p: u for p, u in self.units.items() if u[0] != key}
        if self.current == key:
            self.current = None

    def _victory(self, where: Where, text: str, args: list[str]) -> None:
        if not args or not all(a.isdigit() for a in args):
            self.note(where, f"'{text}': VICTORY takes centre counts", True)
            return
        self.victory = tuple(int(a) for a in args)
        if len(set(self.victory)) > 1:
            self.note(where, f"'{text}': a victory count changing by year is not supported; "
                      f"the first, {self.victory[0]}, is carried", changes_play=True)

    def _rules(self, where: Where, args: list[str]) -> None:
        for word in args:
            flag = word.upper()
            self.rule_lines.setdefault(flag, where)
            if flag.startswith("!"):
                if flag[1:] not in self.rules_off:
                    self.rules_off.append(flag[1:])
            else:
                self.rule_files.setdefault(flag, set()).add(where.file)
                if flag not in self.rules_on:
                    self.rules_on.append(flag)

    # -- the result ------------------------------------------------------

    def result(self) -> DpMap:
        # a switched-off rule goes after all the others (Map.html, RULE), so
        # it wins over a later RULE line too. Where another file (one the
        # map uses) had switched the flag on, the list keeps the flag and
        # ends with "!FLAG", which switches off a flag listed before it
        # (engine/flags.py); a flag only this map switches on and off, and
        # a "!FLAG" switching off nothing, are left out
        used = [f for f in self.rules_off
                if self.rule_files.get(f, set()) - {self.rule_lines[f"!{f}"].file}]
        flags = [f for f in self.rules_on if f not in self.rules_off or f in used]
        flags += [f"!{f}" for f in used]
        powers = tuple(
            DpPower(p.name, p.own_word, p.abbrev, tuple(p.homes),
                    tuple(p.owns) if p.owns is not None else None,
                    tuple(u for owner, u in self.units.values() if owner == key),
                    p.dummy, p.where,
                    tuple(self.unit_lines.get(u, p.where)
                          for owner, u in self.units.values() if owner == key))
            for key, p in self.powers.items())
        return DpMap(
            names=dict(self.names), locations=tuple(self.locations.values()),
            powers=powers, unowned=tuple(self.unowned), victory=self.victory,
            begin=self.begin, flow=tuple(self.flow), flags=tuple(flags),
            flag_lines=dict(self.rule_lines),
            notes=tuple(self.notes), text_only=self.text_only)


def _without(loc: Location, gone: Callable[[str], bool]) -> Location:
    """The location without its abuts to places that are gone."""
    kept = [(a, loc.source(i)) for i, a in enumerate(loc.abuts) if not gone(bare_location(a))]
    return Location(loc.code, loc.terrain, tuple(a for a, _ in kept), loc.where,
                    tuple(w for _, w in kept))


def read_map(chain: Chain) -> DpMap:
    """What the map's lines say, applied in order."""
    reader = _Reader()
    for line in chain.lines:
        reader.read(line)
    return reader.result()
