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
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import IO, Any

from engine import beneath
from engine.errors import InputError, PositionError

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
    if _HIDDEN.get():
        return _kind(value)
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


def _kind(value: object) -> str:
    """What :func:`show` says of a value while content is hidden: its kind and size, never the value."""
    if isinstance(value, str):
        kind = f"{len(value)} characters"
    elif isinstance(value, bool) or value is None:
        kind = "a constant"
    elif isinstance(value, int | float):
        kind = "a number"
    elif isinstance(value, dict):
        kind = f"an object of {len(value)} fields"
    elif isinstance(value, list | tuple):
        kind = f"a list of {len(value)} entries"
    else:
        kind = type(value).__name__
    return f"({kind}, not shown)"


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
        raise ValueError("a number out of range")
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


class FileAccess:
    """Which files an input may name (an ``@FILE`` argument, a record's path): the policy of the one file
    reader, :func:`open_file`.

    * :data:`LOCAL` (the command line): any regular file the process may read, or ``-`` for standard input;
    * :data:`NO_FILES`: none at all (``arbiter mcp`` without ``--root``; a record's own ``position``);
    * :meth:`under` a root folder (``arbiter mcp --root DIR``): only regular files under the root, opened
      by :func:`engine.beneath.open_beneath` (a relative name is taken from the root; the name is walked one
      folder at a time and no link leading out of the root is followed, even one swapped in during the
      walk; a file with a second name, a hard link, is refused), at most ``max_bytes`` each, never standard
      input (it carries the protocol).

    Whatever the policy, only regular files are read: a named pipe, a device or a folder is refused from its
    status before it is opened, and opened without waiting (``O_NONBLOCK``), so nothing blocks.

    >>> NO_FILES.refusal()
    'reading files is off here'
    """

    __slots__ = ("given", "hint", "max_bytes", "root", "stdin")

    def __init__(self, root: Path | None = None, *, stdin: bool = True, max_bytes: int | None = MAX_BYTES,
                 hint: str | None = None) -> None:
        self.root = root
        self.given = root
        self.stdin = stdin
        self.max_bytes = max_bytes
        self.hint = hint

    @classmethod
    def under(cls, root: str | Path, *, max_bytes: int = MAX_BYTES) -> FileAccess:
        """Only regular files under ``root`` (an existing folder), at most ``max_bytes`` each."""
        try:
            real = Path(root).resolve(strict=True)
        except (OSError, RuntimeError, ValueError):
            raise InputError("--root", f"no such folder: {show(str(root))}") from None
        if not real.is_dir():
            raise InputError("--root", f"not a folder: {show(str(root))}")
        if not beneath.supported():
            raise InputError("--root", "this system cannot open a file relative to a folder without "
                             "following links (dir_fd, O_NOFOLLOW), so no folder can be confined to")
        access = cls(real, stdin=False, max_bytes=max_bytes)
        access.given = Path(os.path.abspath(root))
        return access

    @property
    def enabled(self) -> bool:
        """False when no file may be read at all."""
        return self.max_bytes is not None

    def refusal(self) -> str:
        """Why a file is not read under this policy (with the hint how to allow it, if any)."""
        return "reading files is off here" + (f" ({self.hint})" if self.hint else "")


LOCAL = FileAccess()
"""The command line's policy: any regular file, or ``-`` (standard input)."""
NO_FILES = FileAccess(stdin=False, max_bytes=None)
"""No file at all."""

_ACCESS: ContextVar[FileAccess] = ContextVar("file_access", default=LOCAL)
_HIDDEN: ContextVar[bool] = ContextVar("hidden_content", default=False)


def content_hidden() -> bool:
    """True inside :func:`hidden_content`."""
    return _HIDDEN.get()


def field_name(key: str) -> str:
    """A key of the input used as a field name in an error (an unknown field): the key itself, or, inside
    :func:`hidden_content`, what :func:`show` says of it."""
    return show(key) if _HIDDEN.get() else key


def current_access() -> FileAccess:
    """The policy in force: :data:`LOCAL` unless :func:`file_access` set another one."""
    return _ACCESS.get()


@contextmanager
def file_access(access: FileAccess) -> Iterator[None]:
    """Read every file named inside the block under ``access`` (the assistant's tools run in one)."""
    token = _ACCESS.set(access)
    try:
        yield
    finally:
        _ACCESS.reset(token)


@contextmanager
def hidden_content() -> Iterator[None]:
    """Inside the block :func:`show` quotes no value: it says only what kind of value it is.  Text read from a
    file is parsed in one, so an error about it says which field and what is wrong, not what the file holds.

    >>> with hidden_content():
    ...     show("sk-live-SECRET")
    '(14 characters, not shown)'
    """
    token = _HIDDEN.set(True)
    try:
        yield
    finally:
        _HIDDEN.reset(token)


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'" + "|" + r'"(?:[^"\\]|\\.)*"')


def scrub(message: str) -> str:
    """``message`` with every quoted value cut out: the last guard on an error about a file's content.

    >>> scrub("unknown variant 'sk-live-SECRET' (known: standard)")
    'unknown variant … (known: standard)'
    """
    return _QUOTED.sub("…", message)


@contextmanager
def quoting_no_content(active: bool = True) -> Iterator[None]:
    """While ``active``: :func:`hidden_content`, and an :class:`InputError` leaving the block has every quoted
    value cut (:func:`scrub`) — for a command whose arguments came from files (``--action @FILE``)."""
    if not active:
        yield
        return
    with hidden_content():
        try:
            yield
        except PositionError as exc:
            raise PositionError(scrub(exc.field), exc.clause, scrub(exc.message)) from None
        except InputError as exc:
            raise InputError(scrub(exc.field), scrub(exc.message)) from None


def content_error(exc: InputError, source: str) -> InputError:
    """The error ``exc`` about the content of a file named by ``source``, without a quote of that content:
    the field and what is wrong, every quoted value cut."""
    field = scrub(exc.field)
    where = source if field in ("", source) or field.startswith(f"{source}") else f"{source}: {field}"
    if isinstance(exc, PositionError):
        return PositionError(where, exc.clause, scrub(exc.message))
    return InputError(where, scrub(exc.message))


def allowed_path(path: str | Path, *, source: str | None = None, access: FileAccess | None = None) -> Path:
    """The file ``path`` names under ``access`` (default :func:`current_access`), checked as
    :func:`open_file` checks it: a relative name under a root is taken from the root.

    >>> allowed_path("x.jsonl", access=NO_FILES)
    Traceback (most recent call last):
    ...
    engine.errors.InputError: x.jsonl: reading files is off here
    """
    handle, target = _open(str(path), source or str(path), access or current_access())
    if handle is not sys.stdin.buffer:
        handle.close()
    return target


def _target(text: str, name: str, policy: FileAccess) -> tuple[Path, int]:
    """The path to open and the flags to open it with, or the refusal."""
    if not policy.enabled:
        raise InputError(name, policy.refusal())
    if not text or "\x00" in text:
        raise InputError(name, "not a file name")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    return Path(text), flags


NOT_REGULAR = beneath.NOT_REGULAR


def open_file(path: str | Path, *, source: str | None = None, access: FileAccess | None = None) -> IO[bytes]:
    """Open the file ``path`` for reading in binary under ``access`` (default :func:`current_access`); ``-``
    is standard input where the policy allows it.  Refuses with an :class:`InputError` naming ``source``
    (default: the path) anything but a regular file the policy allows, without blocking on it.

    >>> open_file("/dev/null")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: /dev/null: not a regular file (a pipe, a device or a folder is not read)
    """
    return _open(str(path), source or str(path), access or current_access())[0]


def _open(text: str, name: str, policy: FileAccess) -> tuple[IO[bytes], Path]:
    if text == "-" and policy.enabled:
        if not policy.stdin:
            raise InputError(name, "standard input is not read here")
        return sys.stdin.buffer, Path("-")
    target, flags = _target(text, name, policy)
    if policy.root is not None:  # walked from the root, no link out followed (engine.beneath)
        fd = beneath.open_beneath(policy.root, text, source=name, given=policy.given)
        target = policy.root / text
    else:
        try:
            if not stat.S_ISREG(os.stat(target).st_mode):  # before opening: a pipe or device is never opened
                raise InputError(name, NOT_REGULAR)
            fd = os.open(target, flags)
        except OSError as exc:
            raise InputError(name, f"cannot read: {exc.strerror or exc}") from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise InputError(name, NOT_REGULAR)
        if policy.root is not None and policy.max_bytes is not None and status.st_size > policy.max_bytes:
            raise InputError(name, f"larger than the {policy.max_bytes} bytes accepted")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb", closefd=True), target
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, *, source: str | None = None, max_bytes: int = MAX_BYTES,
               access: FileAccess | None = None) -> bytes:
    """A whole file (``-``: standard input) through :func:`open_file`, at most ``max_bytes``."""
    name = source or str(path)
    handle = open_file(path, source=name, access=access)
    try:
        data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(name, f"cannot read: {exc.strerror or exc}") from None
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()
    if len(data) > max_bytes:
        raise InputError(name, f"larger than the {max_bytes} bytes accepted")
    return data


def read_text(path: str | Path, *, source: str | None = None, max_bytes: int = MAX_BYTES,
              access: FileAccess | None = None) -> str:
    """A whole text file (``-`` is standard input) as UTF-8, size-capped, through :func:`open_file`; errors
    name the path.

    >>> read_text("/no/such/file")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: /no/such/file: cannot read: No such file or directory
    """
    name = source or str(path)
    return _decode(read_bytes(path, source=name, max_bytes=max_bytes, access=access), name)


def read_json(path: str | Path, *, source: str | None = None, max_bytes: int = MAX_BYTES,
              access: FileAccess | None = None) -> Any:
    """A whole JSON file, through :func:`loads`; an error about its content quotes none of it."""
    name = source or str(path)
    text = read_text(path, source=name, max_bytes=max_bytes, access=access)
    with hidden_content():
        try:
            return loads(text, source=name, max_bytes=max_bytes)
        except InputError as exc:
            raise content_error(exc, name) from None


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
