"""Reading a whole number written in text: the one function every text input goes through.

A number in a command-line argument, a notation line, an ``ask`` parameter or ``--choose CARD=ROW`` is
written with the ASCII digits ``0``-``9`` only, a leading ``-`` where the field may be negative, at most
:data:`MAX_DIGITS` digits.  ``str.isdigit`` is true of superscript, subscript and circled digits (``¹ ₇ ①``)
that ``int`` refuses, and ``int`` reads Arabic-Indic or full-width digits, spaces and ``1_0``: neither is the
test here.  Anything else is refused with one :class:`~engine.errors.InputError` naming the field.

>>> read_int("42", "round")
42
>>> read_int("²³", "totals (token 8)")
Traceback (most recent call last):
...
engine.errors.InputError: totals (token 8): expected a number (digits 0-9 only), got '²³'
>>> read_int("7", "--players", lo=2, hi=5, what="a player count")
Traceback (most recent call last):
...
engine.errors.InputError: --players: expected a player count from 2 to 5, got '7'
>>> number("٣"), number("-4"), number("-4", signed=True)
(None, None, -4)
"""

from __future__ import annotations

from engine.errors import InputError
from engine.jsonio import show

__all__ = ["MAX_DIGITS", "number", "read_int"]

MAX_DIGITS = 19
"""The most digits a number written in text may have: 2**63 - 1, the largest number a position holds, has
19."""

_ASCII_DIGITS = frozenset("0123456789")


def number(text: str, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` writes (ASCII digits, ``-`` first when ``signed``, at most ``max_digits``
    digits), else ``None``."""
    body = text[1:] if signed and text.startswith("-") else text
    if not _written(body) or len(body) > max_digits:
        return None
    return int(text)


def _written(body: str) -> bool:
    return bool(body) and _ASCII_DIGITS.issuperset(body)


def read_int(text: str, field: str, *, lo: int | None = None, hi: int | None = None, signed: bool = False,
             what: str = "a number", max_digits: int = MAX_DIGITS) -> int:
    """The whole number ``text`` writes, from ``lo`` to ``hi`` when given; else InputError naming ``field``:
    ``expected WHAT from LO to HI, got TEXT`` (``of at most N digits`` when the only fault is the length,
    ``(digits 0-9 only)`` when the text holds another script's digits)."""
    value = number(text, signed=signed, max_digits=max_digits)
    if value is not None and (lo is None or value >= lo) and (hi is None or value <= hi):
        return value
    if lo is not None and hi is not None:
        expected = f"{what} from {lo} to {hi}"
    elif lo is not None:
        expected = f"{what} >= {lo}"
    elif hi is not None:
        expected = f"{what} <= {hi}"
    elif value is None and _written(text[1:] if signed and text.startswith("-") else text):
        expected = f"{what} of at most {max_digits} digits"
    else:
        expected = what
    if any(c.isdigit() and c not in _ASCII_DIGITS for c in text):
        expected += " (digits 0-9 only)"
    raise InputError(field, f"expected {expected}, got {show(text)}")
