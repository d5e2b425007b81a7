"""Values as plain JSON data and back, derived from their type hints.

A frozen dataclass is written as an object of its fields, each by its own
type hint, so no serialiser lists a type's fields a second time: a field
added to a state type is stored the day it is added. Reading fills a field
the data lacks with its default, so data written before the field existed
still reads.

Supported: str, int, float, bool, None, enums (by value), types read back
from their text by ``parse`` with one argument (a phase, written as its
text), tuples (of one type or of fixed types), frozensets (written sorted,
so equal values write alike), dicts with string keys, optional and union
types, and dataclasses. A union of several dataclasses is written as
``[class name, fields]``.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import types
import typing
from functools import cache
from typing import Any, Union


class PlainDataError(ValueError):
    """Data that does not read as the type asked for; says where."""


def to_plain(value: Any, hint: Any) -> Any:
    """``value`` (of type ``hint``) as JSON data."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        return _union_to_plain(value, typing.get_args(hint))
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return [to_plain(v, args[0]) for v in value]
        return [to_plain(v, a) for v, a in zip(value, args, strict=True)]
    if origin is frozenset:
        (arg,) = typing.get_args(hint)
        return sorted((to_plain(v, arg) for v in value), key=_order)
    if origin is dict:
        _, arg = typing.get_args(hint)
        return {str(k): to_plain(v, arg) for k, v in value.items()}
    if _written_as_text(hint):
        return str(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return {name: to_plain(getattr(value, name), field_hint)
                for name, field_hint in field_hints(hint).items()}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return value.value
    return value


def from_plain(data: Any, hint: Any, where: str = "") -> Any:
    """JSON data read as a value of type ``hint``; PlainDataError names ``where``."""
    try:
        return _from_plain(data, hint, where)
    except PlainDataError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise PlainDataError(f"{where or 'value'}: {exc}") from None


def _from_plain(data: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if hint is Any:
        return data
    if origin in (Union, types.UnionType):
        return _union_from_plain(data, typing.get_args(hint), where)
    if origin is tuple:
        args = typing.get_args(hint)
        _expect(data, list, where)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_plain(v, args[0], f"{where}[{n}]") for n, v in enumerate(data))
        if len(data) != len(args):
            raise PlainDataError(f"{where}: {len(args)} items expected, not {len(data)}")
        return tuple(from_plain(v, a, f"{where}[{n}]")
                     for n, (v, a) in enumerate(zip(data, args, strict=True)))
    if origin is frozenset:
        (arg,) = typing.get_args(hint)
        _expect(data, list, where)
        return frozenset(from_plain(v, arg, f"{where}[{n}]") for n, v in enumerate(data))
    if origin is dict:
        _, arg = typing.get_args(hint)
        _expect(data, dict, where)
        return {str(k): from_plain(v, arg, f"{where}.{k}") for k, v in data.items()}
    if _written_as_text(hint):
        _expect(data, str, where)
        return hint.parse(data)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_from_plain(data, hint, where)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(data)
    if hint is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise PlainDataError(f"{where}: a number expected, not {data!r}")
        return float(data)
    if hint in _SCALARS:
        _expect(data, hint, where)
        if hint is int and isinstance(data, bool):
            raise PlainDataError(f"{where}: a whole number expected, not {data!r}")
        return data
    if hint is type(None):
        if data is not None:
            raise PlainDataError(f"{where}: null expected, not {data!r}")
        return None
    raise PlainDataError(f"{where}: no plain form for {hint!r}")


_SCALARS = (str, int, bool)


def _expect(data: Any, kind: type, where: str) -> None:
    if not isinstance(data, kind):
        raise PlainDataError(f"{where or 'value'}: {kind.__name__} expected, not {data!r}")


@cache
def _written_as_text(hint: Any) -> bool:
    """A type read back from its text by ``parse(text)`` alone (a phase) is
    written as that text."""
    parse = getattr(hint, "parse", None) if isinstance(hint, type) else None
    if parse is None:
        return False
    required = [p for p in inspect.signature(parse).parameters.values()
                if p.default is inspect.Parameter.empty]
    return len(required) == 1


def _order(value: Any) -> str:
    """A sort key for written items of any one type (a set's items)."""
    return repr(value)


_HINTS: dict[type, dict[str, Any]] = {}


def field_hints(kind: type) -> dict[str, Any]:
    """A dataclass's fields (init fields only) with their resolved type hints."""
    hints = _HINTS.get(kind)
    if hints is None:
        every = typing.get_type_hints(kind)
        hints = _HINTS[kind] = {f.name: every[f.name] for f in dataclasses.fields(kind)
                                if f.init}
    return hints


def _dataclass_from_plain(data: Any, kind: type, where: str) -> Any:
    _expect(data, dict, where)
    hints = field_hints(kind)
    unknown = sorted(set(data) - set(hints))
    if unknown:
        raise PlainDataError(f"{where or kind.__name__}: unknown field {unknown[0]!r}")
    values = {name: from_plain(data[name], hint, f"{where}.{name}" if where else name)
              for name, hint in hints.items() if name in data}
    return kind(**values)


def _union_to_plain(value: Any, options: tuple[Any, ...]) -> Any:
    if value is None:
        return None
    classes = [o for o in options if isinstance(o, type) and dataclasses.is_dataclass(o)]
    if len(classes) > 1:
        kind = type(value)
        return [kind.__name__, to_plain(value, kind)]
    (hint,) = [o for o in options if o is not type(None)]
    return to_plain(value, hint)


def _union_from_plain(data: Any, options: tuple[Any, ...], where: str) -> Any:
    if data is None and type(None) in options:
        return None
    classes = {o.__name__: o for o in options
               if isinstance(o, type) and dataclasses.is_dataclass(o)}
    if len(classes) > 1:
        if not (isinstance(data, list) and len(data) == 2 and data[0] in classes):
            raise PlainDataError(f"{where}: one of {', '.join(classes)} as [kind, fields] "
                                 f"expected, not {data!r}")
        return from_plain(data[1], classes[data[0]], where)
    (hint,) = [o for o in options if o is not type(None)]
    return from_plain(data, hint, where)
