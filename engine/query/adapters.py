"""The few game-specific facts the generic query code needs, read from each game's own tables and functions.

Nothing here re-implements a rule: card names come from the game's names table, and every number an answer
gives comes from the functions the engine itself calls (see :mod:`engine.query.questions`).  A game whose
package cannot be imported simply contributes no card names.

>>> isinstance(card_names("take6"), tuple)
True
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

from attrs import frozen

from engine.errors import InputError
from engine.game import GAME_MODULES

__all__ = ["CardNames", "card_names", "game_module"]


@frozen
class CardNames:
    """One card's names: its key (the English name the engine uses), and ``(language/label, name)`` pairs
    in every language the sources use, aliases included; ``clauses`` are the clause ids its table row
    cites."""

    game: str
    key: str
    names: tuple[tuple[str, str], ...]
    clauses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"game": self.game, "key": self.key, "names": [list(n) for n in self.names],
                "clauses": list(self.clauses)}


def game_module(game: str) -> ModuleType:
    """The game's package (``engine.take6`` / ``engine.petersburg``); InputError if unknown or missing."""
    if game not in GAME_MODULES:
        raise InputError("game", f"unknown game {game!r} (known: {', '.join(GAME_MODULES)})")
    try:
        return importlib.import_module(GAME_MODULES[game])
    except ImportError as exc:
        raise InputError("game", f"the {game} engine is not installed ({exc})") from exc


@functools.cache
def _names_of(game: str) -> tuple[CardNames, ...]:
    try:
        module = game_module(game)
    except InputError:
        return ()
    provider = getattr(module, "card_names", None)
    if provider is None:
        return ()
    out: list[CardNames] = []
    for item in provider():
        out.append(_to_card_names(game, item))
    return tuple(out)


def _to_card_names(game: str, item: Any) -> CardNames:
    if isinstance(item, CardNames):
        return item
    key = str(getattr(item, "key", getattr(item, "name", item)))
    raw = getattr(item, "names", ())
    names = tuple((str(lang), str(name)) for lang, name in raw) or (("en", key),)
    clauses = tuple(str(c) for c in getattr(item, "clauses", ()))
    return CardNames(game, key, names, clauses)


def card_names(game: str | None = None) -> tuple[CardNames, ...]:
    """Every card's names for ``game`` (all games when ``None``)."""
    games = [game] if game is not None else list(GAME_MODULES)
    out: list[CardNames] = []
    for g in games:
        out.extend(_names_of(g))
    return tuple(out)
