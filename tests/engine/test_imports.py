"""The engine's modules import one another without a circle, and the engine
and the parser never import the judge (its storage, its mail): a variant's
rules stay testable on their own, and `judge adjudicate` loads no database
layer. Imports inside functions and under TYPE_CHECKING count too: a
late import is a circle put off, not a circle gone."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: frozenset[str] = frozenset()) -> set[str]:
    """The modules a file imports anywhere: at load time, inside functions
    and for the type checker alike (a late import is still a dependency).
    ``from package import module`` names the module, not the package, when
    it is one of ``modules``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                found.update(alias.name for alias in inner.names)
            elif isinstance(inner, ast.ImportFrom) and inner.module and inner.level == 0:
                named = {f"{inner.module}.{alias.name}" for alias in inner.names}
                found.update(named & modules or {inner.module})
    return found


def _graph(package: str) -> dict[str, set[str]]:
    files = {_module(p): p for p in (ROOT / package).rglob("*.py")}
    known = frozenset(files)
    return {name: {m for m in _imports(path, known) if m in files and m != name}
            for name, path in files.items()}


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports, if there is any."""
    state: dict[str, int] = {}  # 1: being visited, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str]:
        state[name] = 1
        path.append(name)
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                return [*path[path.index(other):], other]
            if other not in state:
                found = visit(other)
                if found:
                    return found
        path.pop()
        state[name] = 2
        return []

    for name in sorted(graph):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return []


def test_the_engine_has_no_import_circle() -> None:
    assert _circle(_graph("engine")) == []


def test_a_circle_is_found() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_engine_and_parser_never_import_the_judge() -> None:
    for package in ("engine", "parser"):
        for path in (ROOT / package).rglob("*.py"):
            judge = sorted(m for m in _imports(path) if m.split(".")[0] == "judge")
            assert not judge, f"{path.relative_to(ROOT)} imports {judge}"
