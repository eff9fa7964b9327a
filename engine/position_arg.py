"""Read a position given by a user: the one place the picture, viewer and assistant commands parse one.

A position is the game's JSON state (``GAME.state_to_json``), inline or as ``@FILE``; it is read through
:mod:`engine.jsonio` (size, depth and duplicate-key limits) and checked by the game's ``state_from_json``.
A refusal is an :class:`~engine.errors.InputError` naming ``position`` and the bad field.

>>> from engine.game import get_game
>>> game = get_game("take6")
>>> text = __import__("json").dumps(game.state_to_json(game.new_game(2, seed=5)))
>>> load_position("take6", text) == game.new_game(2, seed=5)
True
>>> load_position("take6", '{"game": "take6"')
Traceback (most recent call last):
...
engine.errors.InputError: position: not JSON: Expecting ',' delimiter at line 1 column 17
"""

from __future__ import annotations

from typing import Any

from engine import jsonio
from engine.errors import InputError
from engine.game import get_game

__all__ = ["load_position"]


def load_position(game_name: str, text: str) -> Any:
    """The state of ``game_name`` written in ``text``: JSON inline, or ``@FILE`` holding it."""
    game = get_game(game_name)
    if not isinstance(text, str) or not text.strip():
        raise InputError("position", "expected the game's JSON state, inline or as @FILE")
    data = jsonio.read_arg(text.strip(), source="position")
    try:
        return game.state_from_json(data)
    except InputError as exc:
        raise InputError(f"position: {exc.field}", exc.message) from None
