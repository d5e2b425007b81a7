"""How the `judge adjudicate` tests compare a phase's JSON with what they expect."""

from __future__ import annotations

from typing import Any


def matches(got: Any, want: Any) -> bool:
    """Every key of want is in got with a matching value; lists compare as sets of
    matches for result rows and as sorted lists of strings otherwise."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and matches(got[k], v)
                                             for k, v in want.items())
    if isinstance(want, list) and want and isinstance(want[0], dict):
        return all(any(matches(g, w) for g in got) for w in want)
    if isinstance(want, list):
        return sorted(got) == sorted(want)
    return bool(got == want)
