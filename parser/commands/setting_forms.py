"""SET commands that change a game's settings, as njudge's GMs write them.

'SET MOVEMENT 24h', 'SET NMR', 'SET GREY PRESS', 'SET ZONE Europe/Paris'
become :class:`SetSetting` values with the key and value a CREATE settings
line would have; the judge checks the value as it checks CREATE's. njudge
forms this judge cannot take as they are ('SET MOVE NEXT 48 GRACE 24',
'SET START ...') are answered with the exact form to write instead, or with
what replaced them.
"""

from __future__ import annotations

from parser.commands.values import CommandError, SetSetting

# spelling after SET (a leading NO joined on) -> the setting it changes
SETTING_WORDS: dict[str, str] = {
    "MOVEMENT": "movement", "MOVE": "movement", "MOVES": "movement",
    "RETREAT": "retreat", "RETREATS": "retreat",
    "ADJUSTMENT": "adjustment", "ADJUSTMENTS": "adjustment", "ADJUST": "adjustment",
    "BUILD": "adjustment", "BUILDS": "adjustment",
    "TIME": "time", "DAYS": "days", "ZONE": "zone", "TIMEZONE": "zone", "TZ": "zone",
    "REMINDER": "reminder", "PLAYERS": "players", "VARIANT": "variant", "RULES": "rules",
    "PRESS": "press", "NMR": "nmr", "CD": "nmr", "NONMR": "nmr", "NOCD": "nmr",
    "WHITE": "press", "GREY": "press", "GRAY": "press", "NOPRESS": "press",
    "NOWHITE": "press", "NOGREY": "press", "NOGRAY": "press", "WHITE/GREY": "press",
    "GREY/WHITE": "press", "GRAY/WHITE": "press", "WHITE/GRAY": "press",
    "LIST": "list", "MAILINGLIST": "list",
    "DIPLOMAP": "diplomap",  # SET DIPLOMAP ON|OFF, before the game starts
}

# settings whose njudge spelling carries the value: SET NMR, SET GREY [PRESS]
_FIXED_VALUES = {
    "NMR": "hold", "CD": "hold", "NONMR": "wait", "NOCD": "wait",
    "WHITE": "white", "NOGREY": "white", "NOGRAY": "white",
    "GREY": "grey", "GRAY": "grey", "NOWHITE": "grey", "WHITE/GREY": "grey",
    "GREY/WHITE": "grey", "GRAY/WHITE": "grey", "WHITE/GRAY": "grey", "NOPRESS": "none",
}

# njudge SET commands with no counterpart here: what to do instead
REPLACED: dict[str, str] = {
    "START": "this judge has no earliest processing time: players SET WAIT, and the GM "
             "moves the deadline with SET DEADLINE",
    "MAX": "an absence may last at most three weeks on this judge (SET MAX ABSENCE is "
           "not needed)",
    "PREFERENCE": "ask for a power when joining: JOIN france@mygame password",
    "MANUAL": "to hold a game, PAUSE it (and RESUME it); PROCESS processes it now",
    "AUTO": "phases are processed at the deadline, or early when every power has orders",
    "NOMANUAL": "phases are processed at the deadline, or early when every power has "
                "orders",
    "CENTERS": "a game is won by the variant's number of centres; it cannot be changed",
    "CENTRES": "a game is won by the variant's number of centres; it cannot be changed",
    "DIAS": "a draw includes every survivor unless the votes name its powers "
            "(SET DRAW AUSTRIA FRANCE)",
    "NODIAS": "a draw includes every survivor unless the votes name its powers "
              "(SET DRAW AUSTRIA FRANCE)",
    "PUBLIC": "every game is shown by LIST on this judge",
    "PRIVATE": "every game is shown by LIST on this judge",
    "LISTED": "every game is shown by LIST on this judge",
    "UNLISTED": "every game is shown by LIST on this judge",
    "UNLIST": "every game is shown by LIST on this judge",
    "NOLIST": "every game is shown by LIST on this judge; to stop mailing the game's "
              "list, CREATE it without a 'list' setting",
}

# njudge's deadline words after SET MOVE|RETREAT|ADJUST
_NJUDGE_TIMING = ("NEXT", "MIN", "CLOCK", "GRACE", "DELAY", "DAYS")


def read_setting(spelled: str, rest: str) -> SetSetting | CommandError:
    """The SET command spelled ``spelled`` (SET_WORDS' key) with ``rest`` after it."""
    key = SETTING_WORDS[spelled]
    words = rest.split()
    if spelled in _FIXED_VALUES:
        if words and not (len(words) == 1 and words[0].upper().rstrip(".") == "PRESS"):
            return CommandError(f"SET {spelled}: did not expect '{words[0]}'. Write it "
                                f"like this: SET {spelled}", words[0])
        return SetSetting(key, _FIXED_VALUES[spelled])
    if key == "list" and spelled == "LIST" and "@" not in rest:
        return CommandError(f"SET LIST: {REPLACED['PUBLIC']}; SET LIST address sets the "
                            "game's mailing list", words[0] if words else "")
    if not words:
        return CommandError(f"SET {spelled} needs a value. Write it like this: "
                            f"SET {spelled} {_EXAMPLES[key]}")
    if key in ("movement", "retreat", "adjustment") and words[0].upper() in _NJUDGE_TIMING:
        return CommandError(_translate_timing(key, words), words[0])
    return SetSetting(key, rest.strip())


_EXAMPLES = {
    "movement": "48h", "retreat": "24h", "adjustment": "24h", "time": "18:00",
    "days": "mon-fri", "zone": "Europe/Paris", "reminder": "12h", "players": "7",
    "variant": "standard", "rules": "cd_distance=home", "press": "grey", "nmr": "wait",
    "list": "mygame@lists.example.org", "diplomap": "on",
}


def _translate_timing(key: str, words: list[str]) -> str:
    """njudge's 'SET MOVE NEXT 48 GRACE 24' said in this judge's commands."""
    forms: list[str] = []
    problems: list[str] = []
    pairs = zip(words[::2], [*words[1::2], ""], strict=False)
    for word, value in pairs:
        name = word.upper()
        if name == "NEXT" and _hours(value):
            forms.append(f"SET {key.upper()} {_hours(value)}")
        elif name == "GRACE" and _hours(value):
            forms.append(f"SET GRACE {_hours(value)}")
        elif name == "CLOCK":
            forms.append("SET TIME 18:00 (the time of day of deadlines, in the game's zone)")
        elif name == "DAYS":
            forms.append("SET DAYS mon-fri (the weekdays deadlines may fall on)")
        elif name in ("MIN", "DELAY"):
            problems.append(f"{name} has no counterpart here")
        else:
            problems.append(f"'{word} {value}'".rstrip() + " is not njudge's timing either")
    said = "; ".join(forms) if forms else f"SET {key.upper()} 48h"
    why = (" (" + ", ".join(problems) + ")") if problems else ""
    return (f"SET {key.upper()} {' '.join(words)} is njudge's form; on this judge write: "
            f"{said}{why}")


def _hours(text: str) -> str:
    """njudge's decimal hours ('48', '1.5') as a duration ('48h', '90m'), or ''."""
    try:
        hours = float(text)
    except ValueError:
        return ""
    if not 0 <= hours <= 24 * 60:  # at most 60 days, as the settings allow
        return ""
    minutes = round(hours * 60)
    return f"{minutes // 60}h" if minutes % 60 == 0 else f"{minutes}m"
