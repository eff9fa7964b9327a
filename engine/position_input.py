"""What both games' position builders and notation readers share: checks of a builder's values that raise
:class:`~engine.errors.PositionError` (field and clause), and a notation line's tokens, whose errors name
the token by its number and text.

>>> integer(-1, "money[0]", "SP-BUY-2", 0)
Traceback (most recent call last):
...
engine.errors.PositionError: money[0]: expected an integer >= 0, got -1 [SP-BUY-2]
>>> line = Tokens("standard x")
>>> line.number("x", "round", 1)
Traceback (most recent call last):
...
engine.errors.InputError: round (token 2 'x'): expected a number, got 'x'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from engine.digits import number, read_int
from engine.errors import InputError, PositionError
from engine.jsonio import content_hidden, show

__all__ = ["MAX_NUMBER", "Tokens", "integer", "listed"]

T = TypeVar("T")


MAX_NUMBER = 2**63 - 1
"""The largest number a position holds, in its JSON state and in its notation line alike (a seed; every count
of either game is far below it)."""


def integer(value: Any, field: str, clause: str, lo: int | None, hi: int | None = None) -> int:
    """``value`` if it is an integer from ``lo`` to ``hi`` (an open bound is :data:`MAX_NUMBER`, either
    way), else PositionError.

    >>> integer(10**40, "money[0]", "SP-BUY-2", 0)
    Traceback (most recent call last):
    ...
    engine.errors.PositionError: money[0]: expected an integer of at most 19 digits, got ... [SP-BUY-2]
    """
    bad = isinstance(value, bool) or not isinstance(value, int)
    if not bad and abs(value) > MAX_NUMBER:
        raise PositionError(field, clause, f"expected an integer of at most 19 digits, got {show(value)}")
    if bad or (lo is not None and value < lo) or (hi is not None and value > hi):
        if lo is not None and hi is not None:
            span = f" from {lo} to {hi}"
        elif lo is not None:
            span = f" >= {lo}"
        else:
            span = ""
        raise PositionError(field, clause, f"expected an integer{span}, got {show(value)}")
    return int(value)


def listed(value: Any, field: str, clause: str, length: int | None = None) -> Sequence[Any]:
    """``value`` if it is a list (of ``length`` entries, one per player, when given), else PositionError."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise PositionError(field, clause, f"expected a list, got {show(value)}")
    if length is not None and len(value) != length:
        raise PositionError(field, clause, f"expected {length} entries (one per player), got {len(value)}")
    return value


class Tokens:
    """One notation line split into its space-separated tokens; errors name a token by number and text."""

    def __init__(self, text: Any) -> None:
        if not isinstance(text, str):
            raise InputError("position", f"expected a notation line, got {show(text)}")
        self.tokens = text.split()

    def at(self, name: str, index: int) -> str:
        """The field name of token ``index``: ``rows (token 4 '3.10/22')`` (without the text when it comes
        from a file, :func:`engine.jsonio.hidden_content`)."""
        if content_hidden():
            return f"{name} (token {index + 1})"
        return f"{name} (token {index + 1} {show(self.tokens[index])})"

    def fail(self, name: str, index: int, message: str) -> InputError:
        """An InputError about token ``index``."""
        return InputError(self.at(name, index), message)

    def number(self, text: str, name: str, index: int, *, signed: bool = False) -> int:
        """A decimal number written in token ``index`` (``signed``: a leading ``-`` allowed)."""
        value = read_int(text, self.at(name, index), signed=signed)
        if abs(value) > MAX_NUMBER:
            raise self.fail(name, index, f"expected a number of at most 19 digits, got {show(text)}")
        return value

    def variant(
        self, known: Sequence[str], value: Callable[[str, str, int], Any]
    ) -> tuple[str, dict[str, Any]]:
        """The first token, ``variant`` or ``variant[option=value,...]``; ``value(text, option, index)``
        reads an option's value."""
        head, bracket, rest = self.tokens[0].partition("[")
        if head not in known:
            raise self.fail("variant", 0, f"unknown variant {show(head)} (known: {', '.join(known)})")
        options: dict[str, Any] = {}
        if bracket:
            if not rest.endswith("]"):
                raise self.fail("variant", 0, "options end with ']'")
            for item in rest[:-1].split(","):
                key, eq, text = item.partition("=")
                if not eq:
                    raise self.fail("variant", 0, f"expected option=value, got {show(item)}")
                options[key] = value(text, key, 0)
        return head, options

    def rebuilt(
        self,
        build: Callable[[], T],
        where: Mapping[str, int],
        *,
        seats: Sequence[str] = (),
        first_seat: int = 0,
    ) -> T:
        """``build()``; a PositionError it raises is re-raised naming the token its field comes from
        (``where``: field name -> token index; a field of ``seats``, ``name[p]``, comes from seat p's token,
        ``first_seat + p``)."""
        try:
            return build()
        except PositionError as exc:
            name = exc.field.split("[")[0].split(".")[0]
            index = where.get(name)
            if name in seats:
                seat = exc.field[len(name) + 1 :].split("]")[0]
                at = number(seat)
                if at is not None and first_seat + at < len(self.tokens):
                    index = first_seat + at
            if index is None:
                raise
            raise PositionError(self.at(exc.field, index), exc.clause, exc.message) from exc
