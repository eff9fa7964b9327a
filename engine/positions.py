"""Loading a position from outside: a notation line, a JSON state, or ``@FILE`` holding either.

Every command that takes a position (``arbiter explain --position``, ``arbiter ask ... --position``,
``arbiter play --from``, a record header's ``position``, a vector's ``position``) reads it through
:func:`load_position`, so the same forms and the same one-line errors hold everywhere.

>>> s = load_position("take6", "standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0")
>>> s.round, s.turn, s.rows[2]
(2, 8, (40, 41, 45))
>>> load_position("take6", "standard 2 select 3/22/40.41.45.46.47.48/90 5.8.60/7.9.70 - - 12/0")
Traceback (most recent call last):
...
engine.errors.PositionError: rows[2] (token 4 '3/22/40.41.45.46.47.48/90'): holds 6 cards, ... [T6-PLACE-2]
"""

from __future__ import annotations

from typing import Any

from engine.errors import InputError, PositionError
from engine.game import get_game
from engine.jsonio import FileAccess, content_error, hidden_content, loads, read_text, show

__all__ = ["load_position", "load_position_arg"]


def load_position(
    game_name: str, text: str, *, source: str = "position", access: FileAccess | None = None
) -> Any:
    """The state of ``game_name`` that ``text`` gives: the game's notation line, a JSON state object, or
    ``@FILE`` holding either (``@-``: standard input), read under ``access`` (default: the policy in force,
    :func:`engine.jsonio.current_access`).  Raises :class:`~engine.errors.InputError` (a
    :class:`~engine.errors.PositionError` for a broken rule) naming the field or token; about a file's
    content, the error names the field and what is wrong but quotes nothing of the file.

    >>> load_position("petersburg", '{"game": "petersburg"}')
    Traceback (most recent call last):
    ...
    engine.errors.InputError: variant: missing
    """
    game = get_game(game_name)
    if not isinstance(text, str):
        raise InputError(source, f"expected a notation line or a JSON state, got {show(text)}")
    if text.startswith("@"):
        where = f"{source} {show(text[1:])}"
        content = read_text(text[1:], source=where, access=access)
        with hidden_content():
            try:
                return _parse(game, content, where)
            except InputError as exc:
                raise content_error(exc, where) from None
    return _parse(game, text, source)


def _parse(game: Any, text: str, source: str) -> Any:
    body = text.strip()
    if not body:
        raise InputError(source, "empty: expected a notation line or a JSON state")
    if body.startswith("{"):
        return game.state_from_json(loads(body, source=source))
    if "\n" in body:
        raise InputError(source, "a notation line is one line")
    return game.from_notation(body)


def load_position_arg(game_name: str, text: str, *, source: str = "position") -> Any:
    """:func:`load_position` for a named argument (``arbiter show --position``, an assistant tool's
    ``position``): every refusal names the argument first, then the field or token inside it.

    >>> load_position_arg("petersburg", '{"game": "petersburg"}')
    Traceback (most recent call last):
    ...
    engine.errors.InputError: position: variant: missing
    """
    try:
        return load_position(game_name, text, source=source)
    except PositionError as exc:
        raise PositionError(_within(source, exc.field), exc.clause, exc.message) from None
    except InputError as exc:
        raise InputError(_within(source, exc.field), exc.message) from None


def _within(source: str, field: str) -> str:
    return field if field == source or field.startswith(f"{source} ") else f"{source}: {field}"
