"""The one JSON-reading path for every external input, and the one way to quote a value in a message.

Every command, file format and peer reply that carries JSON reads it through :func:`loads`,
:func:`read_text` or :func:`read_arg`, so the same limits hold everywhere:

* **size**: at most :data:`MAX_BYTES` bytes for one document (a record line, an ``--action``, a file);
* **encoding**: UTF-8 only; a byte-order mark or an invalid byte is refused with its position;
* **depth**: at most :data:`MAX_DEPTH` nested arrays and objects;
* **integers**: at most :data:`MAX_INT_DIGITS` digits (a 5,000-digit number is garbage, not a seat);
* **numbers**: no ``NaN`` or ``Infinity``;
* **duplicate keys**: refused (the JSON text would mean two things to two readers).

A refusal is an :class:`~engine.errors.InputError` naming the source, with a one-line message.  Values put in
messages go through :func:`show`, which truncates and escapes them.

>>> loads('{"type": "select", "card": 7}', source="--action")
{'type': 'select', 'card': 7}
>>> loads('[' * 100 + ']' * 100, source="--action")
Traceback (most recent call last):
...
engine.errors.InputError: --action: nesting deeper than 64 levels
>>> loads('1' * 500, source="line 3")
Traceback (most recent call last):
...
engine.errors.InputError: line 3: an integer of 500 digits (at most 100)
>>> show("x" * 100)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (100 characters)"
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from pathlib import Path
from typing import Any

from engine.errors import InputError

MAX_BYTES = 16 * 1024 * 1024
"""The largest JSON document read in one piece (a file, an argument, a record line)."""

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects accepted; every format of the project needs fewer than 10."""

MAX_INT_DIGITS = 100
"""The longest integer accepted; no count, seat or card of either game comes near it."""

_LONG_DIGITS = re.compile(r"\d{" + str(MAX_INT_DIGITS + 1) + "}")

MAX_SHOWN = 60
"""How many characters of a value :func:`show` quotes before it cuts."""


class _LongInt(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _parse_int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _LongInt(digits)
    return int(text)


def show(value: object, limit: int = MAX_SHOWN) -> str:
    """``repr`` of a value for an error message: control characters escaped, cut at ``limit`` characters.

    >>> show("a\\x1b[2Jb")
    "'a\\\\x1b[2Jb'"
    >>> show(7)
    '7'
    """
    text = value if isinstance(value, str) else None
    if isinstance(value, int | float | bool) or value is None:
        return (
            repr(value)[: limit + 20]
            if not isinstance(value, int) or value.bit_length() < 300
            else (f"an integer of {len(str(abs(value)))} digits")
        )
    if text is None:
        try:
            text = json.dumps(value, ensure_ascii=True)
        except (TypeError, ValueError, RecursionError):
            text = type(value).__name__
        if len(text) <= limit:
            return text
        return f"{text[:limit]}… ({len(text)} characters)"
    quoted = repr(text[:limit])
    quoted = quoted.encode("ascii", "backslashreplace").decode("ascii")
    if len(text) <= limit:
        return quoted
    return f"{quoted[:-1]}…{quoted[-1]} ({len(text)} characters)"


def _depth_ok(value: Any) -> bool:
    """True when no array or object in ``value`` is nested deeper than :data:`MAX_DEPTH` (iterative walk)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > MAX_DEPTH:
                return False
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            if depth > MAX_DEPTH:
                return False
            stack.extend((v, depth + 1) for v in item if isinstance(v, dict | list))
    return True


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return out


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _bad_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _parse_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"{text[:20]} is out of range")
    return value


def _decode(data: bytes | str, source: str) -> str:
    if isinstance(data, str):
        if data.startswith("\ufeff"):
            raise InputError(source, "starts with a byte-order mark; save the file as UTF-8 without a BOM")
        return data
    if data.startswith(b"\xef\xbb\xbf"):
        raise InputError(source, "starts with a byte-order mark; save the file as UTF-8 without a BOM")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1]
        raise InputError(source, f"not UTF-8: byte {exc.start} is {bad!r}") from None


_PLAIN = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_bad_constant,
                          parse_float=_parse_float)
_CAPPED = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_bad_constant,
                           parse_float=_parse_float, parse_int=_parse_int)


def loads(data: bytes | str, *, source: str, max_bytes: int = MAX_BYTES) -> Any:
    """Parse one JSON document from external input, within the module's limits; ``source`` names it in errors.

    >>> loads(b'\\xff', source="state.json")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: state.json: not UTF-8: byte 0 is b'\\xff'
    >>> loads('{"a": 1, "a": 2}', source="--state")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: --state: duplicate key 'a'
    """
    if len(data) > max_bytes:
        raise InputError(source, f"{len(data)} bytes is more than the {max_bytes} accepted")
    text = _decode(data, source)
    try:
        # the digit cap is checked per integer only when the text holds a long run of digits at all
        value = (_CAPPED if _LONG_DIGITS.search(text) else _PLAIN).decode(text)
    except _LongInt as exc:
        raise InputError(source, f"an integer of {exc.digits} digits (at most {MAX_INT_DIGITS})") from None
    except _Duplicate as exc:
        raise InputError(source, f"duplicate key {show(exc.key)}") from None
    except RecursionError:
        raise InputError(source, f"nesting deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise InputError(source, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError as exc:
        raise InputError(source, f"not JSON: {exc}") from None
    if (text.count("[") + text.count("{") > MAX_DEPTH) and not _depth_ok(value):
        raise InputError(source, f"nesting deeper than {MAX_DEPTH} levels")
    return value


def read_text(path: str | Path, *, source: str | None = None, max_bytes: int = MAX_BYTES) -> str:
    """A whole text file (``-`` is standard input) as UTF-8, size-capped; errors name the path.

    >>> read_text("/no/such/file")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: /no/such/file: cannot read: No such file or directory
    """
    name = source or str(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(max_bytes + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(name, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise InputError(name, f"larger than the {max_bytes} bytes accepted")
    return _decode(data, name)


def read_json(path: str | Path, *, source: str | None = None, max_bytes: int = MAX_BYTES) -> Any:
    """A whole JSON file, through :func:`loads`."""
    name = source or str(path)
    return loads(read_text(path, source=name, max_bytes=max_bytes), source=name, max_bytes=max_bytes)


def check_writable(path: str | Path, *, source: str) -> None:
    """Refuse an output path that cannot be written (before the work that fills it starts).

    >>> check_writable("/no/such/folder/out.jsonl", source="--record")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: --record: cannot write '/no/such/folder/out.jsonl'
    """
    target = Path(path)
    try:
        if target.is_dir():
            raise InputError(source, f"{show(str(path))} is a directory")
        folder = target.parent
        writable = not target.exists() or os.access(target, os.W_OK)
        ok = folder.is_dir() and os.access(folder, os.W_OK) and writable
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        ok = False
    if not ok:
        raise InputError(source, f"cannot write {show(str(path))}")


def read_arg(text: str, *, source: str) -> Any:
    """A JSON command-line argument: inline JSON, or ``@FILE`` to read it from a file.

    >>> read_arg('{"type": "pass"}', source="--action")
    {'type': 'pass'}
    >>> read_arg('{"type": ', source="--action")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: --action: not JSON: Expecting value at line 1 column 10
    """
    if text.startswith("@"):
        return read_json(text[1:], source=f"{source} {text[1:]}")
    return loads(text, source=source)


MAX_MESSAGE = 400
"""The longest error line printed by the command line (values in it are already cut by :func:`show`)."""


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """A message made safe to print as one line: control characters (newlines included) escaped, cut at
    ``limit`` characters — the last guard before a message reaches a terminal.

    >>> one_line("line 1\\nline 2\\x1b[2J")
    'line 1\\\\nline 2\\\\x1b[2J'
    >>> len(one_line("x" * 1000)) < 450
    True
    """
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in message)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"
