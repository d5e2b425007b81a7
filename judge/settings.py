"""A game's settings, as a GM writes them after CREATE, and its deadlines.

    CREATE mygame secret
    variant standard
    players 7
    movement 48h          retreat 24h     adjustment 24h
    time 18:00            days mon-fri    zone Europe/Paris
    grace 24h             reminder 12h
    press grey            nmr wait        list mygame@lists.example.org
    rules cd_distance=home
    END

Each setting is one line, a key and its value (several keys may not share
a line). Every setting has a default; unknown keys and bad values are
reported, with the line's key, and the game is not created.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime, time, timedelta, tzinfo
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from engine.layers import LAYERS
from engine.map import GameMap
from engine.variant_file import load_variant, offered_variants
from engine.variants import rules_for
from engine.ways_to_play import counts_text, full_count, player_counts, players_refusal
from judge.zones import ZoneError, zone_name
from judge.zones import tz as zone_tz

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
PRESS_KINDS = ("white", "grey", "none")  # grey: anonymous press allowed
NMR_POLICIES = ("wait", "hold")  # wait: grace period, then civil disorder
SWITCH = {"on": True, "yes": True, "off": False, "no": False}  # a layer: `diplomap on`
# the `rules` setting's choices, the first of each the default:
# cd_distance: civil disorder removals by distance to owned or home centres;
# power_choice: whether a player may JOIN a named power (DPJudge asks the GM
# to allow it; "no" seats every player at random from the game's seed)
RULE_OPTIONS = {"cd_distance": ("owned", "home"), "power_choice": ("yes", "no")}
# far above any variant's seats: a bound that keeps a typo's digits out of int()
MAX_PLAYERS = 99
_DURATION = re.compile(
    r"^(\d+(?:\.\d+)?)\s*([dhms]|days?|hours?|minutes?|mins?|seconds?|secs?)$")


class SettingsError(ValueError):
    pass


@dataclass(frozen=True)
class GameSettings:
    variant: str = "standard"
    players: int = 7
    movement: timedelta = timedelta(hours=48)
    retreat: timedelta = timedelta(hours=24)
    adjustment: timedelta = timedelta(hours=24)
    time_of_day: time | None = None  # deadlines fall at this time (in ``zone``)
    days: tuple[int, ...] = tuple(range(7))  # allowed weekdays, Monday = 0
    grace: timedelta = timedelta(hours=24)
    reminder: timedelta = timedelta(hours=12)  # before the deadline
    press: str = "white"
    nmr: str = "wait"
    list_address: str = ""
    zone: str = "UTC"
    rules: tuple[tuple[str, str], ...] = field(default=())
    # another setup of the variant's other board, power -> spaces (Dissolution's
    # Favor map, §11.2), published by the GM before the start
    setup: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())
    # the variant's own settings (Intercontinental's `suez 1870`, `year_cap
    # 1880`), key -> value as the rules module wrote it back; the rules read
    # them as tables of the game's map (Rules.with_options)
    options: tuple[tuple[str, str], ...] = field(default=())
    # rules layers switched on over the variant (engine/layers.py), by name:
    # Diplomap (ru12 by Michael Harvath), players redraw the board's borders,
    # for any variant whose data has [rings]
    layers: tuple[str, ...] = field(default=())

    def setup_text(self) -> str:
        """The GM's setup of the other board as players read it:
        'KAZAKHSTAN N1p U1p I1p B1p R2j; ...'."""
        return "; ".join(f"{power} {' '.join(spaces)}" for power, spaces in self.setup)

    def period(self, phase_kind: str) -> timedelta:
        return {"M": self.movement, "R": self.retreat, "A": self.adjustment}[phase_kind]

    @property
    def tz(self) -> tzinfo:
        return zone_tz(self.zone)

    def to_json(self) -> str:
        data: dict[str, Any] = asdict(self)
        for key in ("movement", "retreat", "adjustment", "grace", "reminder"):
            data[key] = getattr(self, key).total_seconds()
        data["time_of_day"] = self.time_of_day.strftime("%H:%M") if self.time_of_day else None
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> GameSettings:
        data = json.loads(text or "{}")
        for key in ("movement", "retreat", "adjustment", "grace", "reminder"):
            if key in data:
                data[key] = timedelta(seconds=data[key])
        if data.get("time_of_day"):
            data["time_of_day"] = time.fromisoformat(data["time_of_day"])
        for key in ("days",):
            if key in data:
                data[key] = tuple(data[key])
        if "rules" in data:
            data["rules"] = tuple(tuple(pair) for pair in data["rules"])
        if "options" in data:
            data["options"] = tuple(tuple(pair) for pair in data["options"])
        if "setup" in data:
            data["setup"] = tuple((power, tuple(spaces)) for power, spaces in data["setup"])
        layers = tuple(data.pop("layers", ()))
        if data.pop("diplomap", False):  # stored before layers had names of their own
            layers = (*layers, "diplomap")
        return cls(**data, layers=layers)

    def describe(self) -> list[tuple[str, str]]:
        """The settings as (key, value) lines for mails."""
        return [
            ("variant", self.variant),
            ("players", str(self.players)),
            ("movement", format_duration(self.movement)),
            ("retreat", format_duration(self.retreat)),
            ("adjustment", format_duration(self.adjustment)),
            ("time", self.time_of_day.strftime("%H:%M") if self.time_of_day else "any"),
            ("days", ",".join(WEEKDAYS[d] for d in self.days)),
            ("zone", self.zone),
            ("grace", format_duration(self.grace)),
            ("reminder", format_duration(self.reminder)),
            ("press", self.press),
            ("nmr", self.nmr),
            ("list", self.list_address or "none"),
            ("rules", " ".join(f"{k}={v}" for k, v in self.rules) or "standard"),
            *self.options,
            # shown only when on: the settings of every other game read as before
            *((name, "on") for name in self.layers),
        ]


# The range of each duration setting. A phase needs at least a minute, or a
# game with every period 0 would be played through by the scheduler at once;
# 60 days keeps every deadline computed from them far inside datetime's range.
PERIOD_RANGE = (timedelta(minutes=1), timedelta(days=60))
DURATION_RANGES: dict[str, tuple[timedelta, timedelta]] = {
    "movement": PERIOD_RANGE, "retreat": PERIOD_RANGE, "adjustment": PERIOD_RANGE,
    "grace": (timedelta(0), timedelta(days=60)),
    "reminder": (timedelta(0), timedelta(days=60)),
    "deadline": (timedelta(0), timedelta(days=365)),  # SET DEADLINE +2d
}
# How far ahead a deadline or an absence may be set: a year is more than any
# game needs, and far from the end of datetime's range (year 9999).
MAX_AHEAD = timedelta(days=365)
_UNIT_SECONDS = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}


def parse_duration(text: str, key: str = "grace") -> timedelta:
    """'48h', '2d', '90m', '1.5 days' ('30s' too, where the range allows it),
    within the range of the setting ``key``."""
    match = _DURATION.match(text.strip().lower())
    if not match:
        raise SettingsError(f"{text!r} is not a duration like 48h, 2d or 90m")
    least, most = DURATION_RANGES[key]
    # checked as a float first: timedelta itself overflows past 999999999 days
    seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)[0]]
    if not least.total_seconds() <= seconds <= most.total_seconds():
        raise SettingsError(f"{text!r} is out of range: {key} is from "
                            f"{format_duration(least)} to {format_duration(most)}")
    return timedelta(seconds=round(seconds))


def format_duration(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds % 60 or seconds == 0:
        return f"{seconds}s"
    minutes = seconds // 60
    if minutes % (24 * 60) == 0:
        return f"{minutes // (24 * 60)}d"
    if minutes % 60 == 0:
        return f"{minutes // 60}h"
    return f"{minutes}m"


def parse_days(text: str) -> tuple[int, ...]:
    """'mon-fri', 'mon,wed,fri', 'all'."""
    text = text.strip().lower().replace(" ", "")
    if text in ("all", "any", "every"):
        return tuple(range(7))
    days: set[int] = set()
    for part in text.split(","):
        ends = part.split("-")
        try:
            index = [WEEKDAYS.index(e[:3]) for e in ends]
        except ValueError:
            raise SettingsError(f"{part!r}: days are like mon-fri or mon,wed,fri") from None
        if len(index) == 1:
            days.add(index[0])
        elif len(index) == 2:
            day = index[0]
            while True:
                days.add(day)
                if day == index[1]:
                    break
                day = (day + 1) % 7
        else:
            raise SettingsError(f"{part!r}: days are like mon-fri or mon,wed,fri")
    return tuple(sorted(days))


def _setting(settings: GameSettings, key: str, value: str) -> GameSettings:
    if key == "variant":
        return replace(settings, variant=value.lower())
    if key == "players":
        # isascii: '²' is a digit to str.isdigit, but not to int(); the counts
        # the variant is played by are checked once the variant is known
        if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= MAX_PLAYERS:
            raise SettingsError("players must be a number, like 7")
        return replace(settings, players=int(value))
    if key in ("movement", "retreat", "adjustment", "grace", "reminder"):
        changes: dict[str, Any] = {key: parse_duration(value, key)}
        return replace(settings, **changes)
    if key == "time":
        try:
            return replace(settings, time_of_day=time.fromisoformat(value.zfill(5)))
        except ValueError:
            raise SettingsError(f"{value!r} is not a time of day like 18:00") from None
    if key == "days":
        return replace(settings, days=parse_days(value))
    if key in ("zone", "timezone"):
        try:
            return replace(settings, zone=zone_name(value))
        except ZoneError as exc:
            raise SettingsError(str(exc)) from None
    if key == "press":
        if value.lower() not in PRESS_KINDS:
            raise SettingsError(f"press must be one of {', '.join(PRESS_KINDS)}")
        return replace(settings, press=value.lower())
    if key == "nmr":
        if value.lower() not in NMR_POLICIES:
            raise SettingsError("nmr must be 'wait' (grace period, then civil disorder) "
                                "or 'hold' (process at the deadline)")
        return replace(settings, nmr=value.lower())
    if key in LAYERS:
        if value.lower() not in SWITCH:
            raise SettingsError(f"{key} must be 'on' or 'off'")
        others = tuple(name for name in settings.layers if name != key)
        return replace(settings, layers=(*others, key) if SWITCH[value.lower()] else others)
    if key in ("list", "mailinglist"):
        if not re.fullmatch(r"[^@\s<>]+@[^@\s<>]+", value):
            raise SettingsError(f"{value!r} is not a mail address")
        return replace(settings, list_address=value)
    if key == "rules":
        rules = dict(settings.rules)
        for item in value.split():
            name, _, option = item.lower().partition("=")
            if option not in RULE_OPTIONS.get(name, ()):
                known = ", ".join(f"{rule}={'|'.join(options)}"
                                  for rule, options in RULE_OPTIONS.items())
                raise SettingsError(f"unknown rule {item!r}; known: {known}")
            rules[name] = option
        return replace(settings, rules=tuple(sorted(rules.items())))
    # any other key may be the variant's own: checked once the variant is known
    return replace(settings, options=(*((k, v) for k, v in settings.options if k != key),
                                      (key, value)))


def _variant_options(settings: GameSettings) -> tuple[GameSettings, list[str]]:
    """The variant's own settings, each read by its rules module (which
    writes the value back in its own form), or refused with the reason."""
    if not settings.options:
        return settings, []
    try:
        game_map = load_variant(settings.variant)
    except KeyError:  # CREATE and SET VARIANT name the unknown variant
        return settings, []
    rules = rules_for(game_map)
    kept: list[tuple[str, str]] = []
    problems: list[str] = []
    for key, value in settings.options:
        try:
            kept.append((key, rules.read_option(game_map, key, value)))
        except ValueError as exc:
            problems.append(f"{key}: {exc}")
    return replace(settings, options=tuple(sorted(kept))), problems


def parse_settings(
    lines: Iterable[tuple[str, str]], base: GameSettings | None = None
) -> tuple[GameSettings, list[str]]:
    """Settings from (key, value) lines, and a message for each bad line."""
    settings = base or GameSettings()
    problems: list[str] = []
    given = False  # a players line read: its count is checked against the variant's
    for key, value in lines:
        try:
            settings = _setting(settings, key.lower(), value.strip())
        except SettingsError as exc:
            problems.append(f"{key}: {exc}")
        else:
            given = given or key.lower() == "players"
    settings, refused = _variant_options(settings)
    settings, players = _players_for_variant(settings, given)
    return settings, problems + refused + players + _layers_refused(settings)


def _players_for_variant(settings: GameSettings,
                         given: bool) -> tuple[GameSettings, list[str]]:
    """The number of players the variant (or one of its ways to play)
    allows: a ``players`` line for another number is refused with the
    counts the variant is played by; with no such line the game gets the
    variant's full count (10 for Dissolution), also when SET VARIANT
    changes the variant of a game created with another count."""
    try:
        game_map = load_variant(settings.variant)
    except KeyError:  # CREATE and SET VARIANT name the unknown variant
        return settings, []
    refusal = players_refusal(game_map, settings.players)
    if refusal is None:
        return settings, []
    if given:
        return settings, [f"players: {refusal}"]
    return replace(settings, players=full_count(game_map)), []


def _layers_refused(settings: GameSettings) -> list[str]:
    """A layer the variant's data cannot carry (Diplomap splits provinces by
    the order of their neighbours round their border, the variant's [rings]:
    a variant without them refuses it)."""
    try:
        game_map = load_variant(settings.variant)
    except KeyError:  # CREATE and SET VARIANT name the unknown variant
        return []
    refused = []
    for name in settings.layers:
        try:
            LAYERS[name].switch_on(game_map)
        except ValueError as exc:
            refused.append(f"{name}: {exc}")
    return refused


@cache
def settings_offered() -> tuple[tuple[str, str], ...]:
    """Every CREATE setting with the values it takes, as HELP lists them:
    built from the variants shipped, their ways to play, the rules layers
    and each variant's own settings, so a new variant or layer is listed
    without editing the help (tests/judge/test_settings_offered.py checks
    that every key ``_setting`` reads is here and in the manual)."""
    maps = {name: load_variant(name) for name in offered_variants()}
    durations = {key: f"{format_duration(least)} to {format_duration(most)}"
                 for key, (least, most) in DURATION_RANGES.items()}
    rows = [
        ("variant", ", ".join(maps)),
        ("players", "; ".join(f"{name} {counts_text(player_counts(game_map))}"
                              for name, game_map in maps.items())
         + " (the full count unless set)"),
        ("movement, retreat, adjustment", f"a duration, {durations['movement']} (48h, 2d)"),
        ("grace, reminder", f"a duration, {durations['grace']}"),
        ("time", "HH:MM, when deadlines fall"),
        ("days", "mon-fri, mon,wed,fri, all"),
        ("zone (timezone)", "a time zone: Europe/Paris, CET, UTC+2"),
        ("press", ", ".join(PRESS_KINDS)),
        ("nmr", ", ".join(NMR_POLICIES)),
        ("list (mailinglist)", "a mail address"),
        ("rules", " ".join(f"{rule}={'|'.join(options)}"
                           for rule, options in RULE_OPTIONS.items())),
    ]
    for name in LAYERS:
        rows.append((name, "on, off; " + ", ".join(
            variant for variant, game_map in maps.items() if _takes(name, game_map)) + " only"))
    for variant, game_map in maps.items():
        rows.extend((key, f"{values}; {variant} only")
                    for key, values in rules_for(game_map).options_offered(game_map))
    return tuple(rows)


def _takes(layer: str, game_map: GameMap) -> bool:
    try:
        LAYERS[layer].switch_on(game_map)
    except ValueError:
        return False
    return True


def next_deadline(
    settings: GameSettings, phase_kind: str, now: datetime,
    absences: Sequence[tuple[date | datetime, date | datetime]] = (),
) -> datetime:
    """When a phase starting ``now`` (aware UTC) is due: its period later,
    moved forward to the game's time of day and allowed weekdays, and past
    any player's announced absence."""
    tz = settings.tz
    due = (now + settings.period(phase_kind)).astimezone(tz)
    for _ in range(30):  # absences can chain; a bound keeps a typo from looping
        due = _fit_calendar(settings, due)
        moved = False
        for start, end in absences:
            start_dt = _as_local(start, tz)
            end_dt = _as_local(end, tz, end_of_day=True)
            if start_dt <= due < end_dt:
                due = end_dt
                moved = True
        if not moved:
            break
    return due.astimezone(ZoneInfo("UTC"))


def _as_local(value: date | datetime, tz: tzinfo, end_of_day: bool = False) -> datetime:
    if isinstance(value, datetime):
        return value.astimezone(tz) if value.tzinfo else value.replace(tzinfo=tz)
    moment = datetime.combine(value, time(0, 0), tzinfo=tz)
    return moment + timedelta(days=1) if end_of_day else moment


def _fit_calendar(settings: GameSettings, due: datetime) -> datetime:
    if settings.time_of_day is not None:
        at = due.replace(hour=settings.time_of_day.hour, minute=settings.time_of_day.minute,
                         second=0, microsecond=0)
        if at < due:
            at += timedelta(days=1)
        due = at
    for _ in range(7):
        if due.weekday() in settings.days:
            break
        due += timedelta(days=1)
    return due
