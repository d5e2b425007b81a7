"""Parse actions that pyparsing calls right the first time, from any thread.

pyparsing accepts a parse action taking (s, loc, tokens), (loc, tokens),
(tokens) or nothing, and finds out which by calling it with three arguments
and dropping one after each TypeError. That discovery keeps its count in the
action's wrapper without a lock: two threads making a grammar's first parse
at once (the scheduler's deadline jobs, a test's threads) can both drop an
argument, after which the action is called with too few arguments for good.
An action of the full (s, loc, tokens) shape is called right at once and
never counts, so every action in the parser is given through these helpers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pyparsing as pp

T = TypeVar("T")

Action = Callable[[str, int, pp.ParseResults], T]


def on_tokens(convert: Callable[[pp.ParseResults], T]) -> Action[T]:
    """A parse action that converts the matched tokens."""
    def action(_text: str, _loc: int, tokens: pp.ParseResults) -> T:
        return convert(tokens)
    action.__name__ = getattr(convert, "__name__", "action")
    return action


def constant(value: T) -> Action[T]:
    """A parse action that stands for the same value whatever matched."""
    def action(_text: str, _loc: int, _tokens: pp.ParseResults) -> T:
        return value
    action.__name__ = f"constant({type(value).__name__})"
    return action
