"""DPJudge's RULE flags: every name DPJudge knows, which of them this judge
honours, and the reading of a variant file's ``[variant] flags`` list.

A map imported from DPJudge (``judge variant import``) carries the RULE lines
of its .map files as ``flags = ["BUILD_ANY", "NO_DRAW", ...]``, in map order,
``"!FLAG"`` where a map switches off a flag a file it USEs switched on. The
rules read the flags in force (``GameMap.flags``) in their hooks
(engine/flag_rules.py); the judge asks the rules, never the flags' names.

A name DPJudge does not know is a problem of the file (``judge variant
check``). A name it knows that is neither :data:`SUPPORTED` nor
:data:`IGNORED` loads, but the variant is not offered to games
(engine/variant_file.py ``unfinished_reason``): its games would be played by
other rules than the map's. docs/rules.md ("DPJudge RULE flags") gives the
reason for each flag the shipped maps use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

# Every rule Rules.txt (DPJudge's rule page, MIT, Manus Hand) describes or lists.
DPJUDGE_RULES: frozenset[str] = frozenset((
    "ALWAYS_CONFIRM", "ALWAYS_WAIT", "ANON_TRANSFER", "BACKSEAT_PRESS", "BLANK_BOARD", "BLIND",
    "BROADCAST_ORDERS", "BUILD_ANY", "CD_BUILDS", "CD_DUMMIES", "CD_RETREATS", "CD_SUPPORTS",
    "CIVIL_DISORDER", "CIVIL_PREVIEW", "COASTAL_CONVOY", "COASTAL_CRAWL", "CONVOY_BACK",
    "DEFAULT_UNORDERED", "DIRECT_ONLY", "DUMMY_FIRE", "EAVESDROP", "EBAYOLA", "EXCHANGE",
    "FAKE_PRESS", "FICTIONAL_OK", "FLAT_TAX", "FLEX_SETUP", "FRIENDLY_FIRE", "FTF_PRESS",
    "GARRISON", "GREEK", "GREY_PRESS", "HIBERNATE", "HIDE_ABSENTEES", "HIDE_BUILDS", "HIDE_COST",
    "HIDE_DUMMIES", "HIDE_EXTENDERS", "HIDE_LATE_POWERS", "HIDE_OFFERS", "HIDE_PROPOSER",
    "HOLD_WIN", "HOME_BUILDS", "IMMOBILE_DUMMIES", "JUMP_OFF_DAYS", "LAST_MAN_STANDING",
    "LATE_CHANGES", "LATE_SEND", "LIMIT_LISTS", "LIMIT_OFFERS", "LIST_UNORDERED", "LIST_WAITERS",
    "MOBILIZE", "MUST_ORDER", "MUTE_OBSERVERS", "MYOPIC", "NO_ABSENCES", "NO_CHECK", "NO_DEADLINE",
    "NO_DIAS", "NO_DONATIONS", "NO_DRAW", "NO_EOG", "NO_FACTORIES", "NO_HOARDING",
    "NO_LATE_CHANGES", "NO_LATE_RECEIVE", "NO_LEDGERS", "NO_LOOTING", "NO_MILITIA",
    "NO_MINOR_WAIT", "NO_PARTIAL", "NO_PARTISANS", "NO_PLATEAU", "NO_PRESS", "NO_PROXY",
    "NO_QUARTER", "NO_RESERVES", "NO_RETREAT", "NO_REVEAL", "NO_SAVINGS", "NO_SCS_SEE",
    "NO_TRANSFER", "NO_UNITS_SEE", "ONE_TRANSFER", "OPEN_ENTRY", "ORDER_ANY", "OWN_SCS_SEE",
    "PAYOLA_CLASSIC", "PAY_DUMMIES", "PLAYER_DEADLINES", "PORTAGE_CONVOY", "POWER_CHOICE",
    "PRESS_MASTER", "PREVIEW", "PROPOSE_DIAS", "PROXY_OK", "PUBLIC_LISTS", "PUBLIC_PRESS",
    "PUBLIC_TOTALS", "REAL_TIME", "REMOTE_BRIBE", "REMOTE_BUILDS", "REMOTE_PRESS",
    "RESTRICT_SIGNAL", "SAFE_CONVOYS", "SEE_ALL_SCS", "SEE_NO_SCS", "SEE_NO_UNITS",
    "SHARED_VICTORY", "SHOW_PHANTOM", "SIGNAL_SUPPORT", "SILENT_ABSENCES", "SILENT_JOIN",
    "SMART_CD", "SOLITAIRE", "START_MASTER", "TEAM_VICTORY", "TORN_ALLEGIANCE", "TOUCH_BRIBE",
    "TOUCH_PRESS", "TROJAN", "UNITS_ADAPT", "UNITS_SEE_OTHER", "UNITS_SEE_SAME", "VASSAL_DUMMIES",
    "VENETIAN", "VICTORY_HOMES", "WEAK_BOUNCES", "WEAK_CONVOYS", "WHITE_GREY", "YELLOW_PRESS",
    "ZEROSUM", "ZERO_FOREIGN",
))

# The flags the rules honour, each with the hook that does (engine/rules.py,
# engine/flag_rules.py) or the part of the judge that does.
SUPPORTED: Mapping[str, str] = {
    "BUILD_ANY": "build_sites: any owned supply centre",
    "HOME_BUILDS": "build_sites: any owned centre that is some power's home",
    "REMOTE_BUILDS": "build_sites: only while the power owns one of its homes",
    "MOBILIZE": "opening and allowance: no units, one build in a home centre",
    "NO_DRAW": "draw_refusal: the judge refuses draw votes",
    "CD_DUMMIES": "dummy powers are in no seat: their units hold unless ordered",
    "CD_BUILDS": "unordered_builds: a power without adjustment orders builds",
    "IMMOBILE_DUMMIES": "order_refusal: a dummy's units may not move",
    "FTF_PRESS": "press_refusal: press to the Master only outside movement phases",
}

# Flags DPJudge itself ignores in the games this judge plays: the Payola
# variant's own rules (Rules.txt §2.1: "silently ignored" in standard games).
IGNORED: Mapping[str, str] = dict.fromkeys((
    "ANON_TRANSFER", "DIRECT_ONLY", "EBAYOLA", "EXCHANGE", "FLAT_TAX", "HIDE_COST",
    "HIDE_OFFERS", "LIMIT_OFFERS", "NO_DONATIONS", "NO_HOARDING", "NO_LEDGERS",
    "NO_LOOTING", "NO_PLATEAU", "NO_SAVINGS", "NO_TRANSFER", "ONE_TRANSFER",
    "PAYOLA_CLASSIC", "PAY_DUMMIES", "PUBLIC_TOTALS", "REMOTE_BRIBE",
    "RESTRICT_SIGNAL", "TOUCH_BRIBE", "ZEROSUM", "ZERO_FOREIGN",
), "a Payola rule: DPJudge ignores it outside Payola games, and this judge plays none")

Problem = Callable[[tuple[str, ...], str | None, str], None]


def read_flags(problem: Problem, raw: Any) -> tuple[str, ...]:
    """The ``[variant] flags`` list as written ("!FLAG" included), each
    name checked against DPJudge's; ``problem`` is told of anything else."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(f, str) for f in raw):
        problem(("variant",), "flags", 'flags is a list of DPJudge rule names: ["BUILD_ANY"]')
        return ()
    written: list[str] = []
    for flag in raw:
        name = flag.removeprefix("!")
        if name not in DPJUDGE_RULES:
            problem(("variant",), "flags", f"{flag!r} is no DPJudge rule")
        elif flag in written:
            problem(("variant",), "flags", f"{flag} is listed twice")
        else:
            written.append(flag)
    return tuple(written)


def in_force(written: Iterable[str]) -> tuple[str, ...]:
    """The flags on once the list is read in order, in that order: "!FLAG"
    switches off a FLAG listed before it (a map switching off a rule of a
    map it USEs)."""
    on: dict[str, None] = {}
    for flag in written:
        if flag.startswith("!"):
            on.pop(flag[1:], None)
        else:
            on[flag] = None
    return tuple(on)


def first_unsupported(written: Sequence[str]) -> str | None:
    """The first flag in force, in the file's order, that the judge neither
    honours nor may ignore; None when the rules play them all."""
    on = in_force(written)
    for flag in written:
        if flag in on and flag not in SUPPORTED and flag not in IGNORED:
            return flag
    return None


def unsupported_reason(written: Sequence[str]) -> str | None:
    """Why a variant with these flags is not offered, or None."""
    flag = first_unsupported(written)
    return None if flag is None else f"DPJudge rule {flag} is not supported yet"
