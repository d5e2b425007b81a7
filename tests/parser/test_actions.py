"""Every parse action in the parser has pyparsing's full (s, loc, tokens)
shape (parser.actions says why: pyparsing's arity discovery for shorter
actions races when two threads make a grammar's first parse together, and
the loser's action is called with the wrong arguments from then on)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator

import pyparsing as pp
import pytest

import parser
from engine.variant_file import load_variant
from parser.commands.grammar import Form
from parser.grammar import build_grammar, build_heading


def _roots() -> Iterator[pp.ParserElement]:
    game_map = load_variant("standard")
    yield build_grammar(game_map)
    yield build_heading(game_map)
    for info in pkgutil.walk_packages(parser.__path__, "parser."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, pp.ParserElement):
                yield value
            elif isinstance(value, dict):
                yield from (form.grammar for form in value.values() if isinstance(form, Form))


def _elements() -> Iterator[pp.ParserElement]:
    seen: set[int] = set()
    todo = list(_roots())
    while todo:
        element = todo.pop()
        if id(element) in seen:
            continue
        seen.add(id(element))
        yield element
        todo.extend(getattr(element, "exprs", ()))
        inner = getattr(element, "expr", None)
        if isinstance(inner, pp.ParserElement):
            todo.append(inner)


def _wrapped(action: object) -> object:
    """The function pyparsing's arity wrapper calls (the wrapper keeps it in
    its closure as 'func')."""
    code = getattr(action, "__code__", None)
    cells = getattr(action, "__closure__", None) or ()
    if code is None:
        return action
    names = dict(zip(code.co_freevars, cells, strict=False))
    return names["func"].cell_contents if "func" in names else action


def test_every_parse_action_takes_text_location_and_tokens() -> None:
    short = []
    count = 0
    for element in _elements():
        for action in element.parseAction:
            count += 1
            func = _wrapped(action)
            try:
                inspect.signature(func).bind("", 0, pp.ParseResults([]))  # type: ignore[arg-type]
            except TypeError:
                short.append(f"{element!s:.60} -> {getattr(func, '__name__', func)}")
    assert count > 40  # the walk does reach the grammars
    if short:
        pytest.fail("parse actions without (s, loc, tokens); wrap them with parser.actions:\n"
                    + "\n".join(sorted(short)))
