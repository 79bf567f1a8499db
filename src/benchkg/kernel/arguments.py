"""Arguments of the Python API checked against their annotations where they come in: a call with a
wrong type fails at once naming the argument and what it takes, not deep inside with a library's
error. Only plain annotations are checked (``str``, ``int``, ``float``, ``bool``, ``Path``, ``dict``,
unions of them and ``None``); anything else is left to the function."""

from __future__ import annotations

import functools
import inspect
import os
import types
import typing
from pathlib import Path
from typing import Any, Callable, TypeVar, cast

from benchkg.kernel.errors import UsageError

F = TypeVar("F", bound=Callable[..., Any])

#: what each plain annotation accepts (a path may be given as text; a float as a whole number)
_ACCEPTS = {
    str: (str,),
    int: (int,),
    float: (int, float),
    bool: (bool,),
    Path: (str, os.PathLike),
    dict: (dict,),
    type(None): (type(None),),
}
_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "True or False", Path: "a path", dict: "a dict"}


def _plain(hint: Any) -> tuple[tuple[type, ...], list[str]] | None:
    """The types ``hint`` accepts and how to say them, or None when it is not a plain annotation."""
    origin = typing.get_origin(hint)
    parts = typing.get_args(hint) if origin in (typing.Union, types.UnionType) else (hint,)
    accepted: list[type] = []
    said: list[str] = []
    for part in parts:
        base = typing.get_origin(part) or part
        if base not in _ACCEPTS:
            return None
        accepted += _ACCEPTS[base]
        if base is not type(None):
            said.append(_NAMES[base])
    if type(None) in parts:
        said.append("None")
    return tuple(accepted), said


def checked(function: F) -> F:
    """Check a call's arguments against ``function``'s plain annotations first.

    >>> @checked
    ... def explain(term: str, limit: int | None = None): return term
    >>> explain("tier")
    'tier'
    >>> explain(5)
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: benchkg.explain(term=5): term is text, not int
    >>> explain("tier", limit="3")
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: benchkg.explain(limit='3'): limit is a whole number or None, not str
    """
    signature = inspect.signature(function)

    @functools.cache
    def plans() -> dict[str, tuple[tuple[type, ...], list[str]]]:
        hints = typing.get_type_hints(function)
        return {name: plan for name, hint in hints.items() if name != "return" for plan in [_plain(hint)] if plan}

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind_partial(*args, **kwargs)
        for name, value in bound.arguments.items():
            plan = plans().get(name)
            if plan is None:
                continue
            accepted, said = plan
            wrong = not isinstance(value, accepted) or (isinstance(value, bool) and bool not in accepted)
            if wrong:
                called = "benchkg.open" if function.__name__ == "__init__" else function.__name__
                called = called if "." in function.__qualname__ or "." in called else f"benchkg.{called}"
                raise UsageError(
                    f"{called}({name}={value!r:.60}): {name} is {' or '.join(said)}, not {type(value).__name__}"
                )
        return function(*args, **kwargs)

    return cast(F, call)


def sequence_of_text(value: object, name: str, where: str) -> tuple[str, ...]:
    """``value`` as a tuple of text: a list or tuple of ``str`` (one ``str`` would be read letter by letter).

    >>> sequence_of_text(["round=6.1"], "where", "results")
    ('round=6.1',)
    >>> sequence_of_text("round=6.1", "where", "results")
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: results(where='round=6.1'): where is a list of text, not one text: write where=['round=6.1']
    """
    if isinstance(value, str):
        raise UsageError(f"{where}({name}={value!r}): {name} is a list of text, not one text: write {name}=[{value!r}]")
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{where}({name}={value!r:.60}): {name} is a list of text")
    return tuple(value)


def check_window(called: str, limit: int | None, offset: int = 0) -> None:
    """:raises UsageError: for a ``limit`` or ``offset`` below 0 (``limit=-1`` gave no rows, silently).

    >>> check_window("query", -1)
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: query(limit=-1): limit is 0 (every row) or more, or None
    """
    if limit is not None and not isinstance(limit, bool) and isinstance(limit, int) and limit < 0:
        raise UsageError(f"{called}(limit={limit}): limit is 0 (every row) or more, or None")
    if isinstance(offset, int) and not isinstance(offset, bool) and offset < 0:
        raise UsageError(f"{called}(offset={offset}): offset is 0 or more")
