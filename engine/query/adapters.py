"""The few game-specific facts the generic query code needs, read from each game's own tables and functions.

Nothing here re-implements a rule: card names come from the game's names table (``spec/<game>/names.toml``),
and every number an answer gives comes from the functions the engine itself calls (see
:mod:`engine.query.questions`).  A game without a names table contributes no card names.

>>> isinstance(card_names("take6"), tuple)
True
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

from attrs import frozen

from engine.errors import InputError
from engine.game import game_names, game_package
from engine.spec import read_toml, spec_dir

__all__ = ["CardNames", "card_names", "game_module", "variant_card_names"]


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
    try:
        return game_package(game)
    except ImportError as exc:
        raise InputError("game", f"the {game} engine is not installed ({exc})") from exc


LANGUAGES = ("en", "de", "ru")


@functools.cache
def _names_of(game: str) -> tuple[CardNames, ...]:
    """The game's names table (``spec/<game>/names.toml``, already checked by the game's loader), with the
    clause each card's catalog row cites (``spec/<game>/cards.toml``)."""
    names_path = spec_dir(game) / "names.toml"
    if not names_path.is_file():
        return ()
    clause_of: dict[str, list[str]] = {}
    cards_path = spec_dir(game) / "cards.toml"
    if cards_path.is_file():
        for row in read_toml(cards_path).get("card", []):
            if isinstance(row, dict) and isinstance(row.get("name"), str):
                refs = [row[k] for k in ("clause",) if isinstance(row.get(k), str)]
                clause_of[row["name"]] = refs
    out: list[CardNames] = []
    for row in read_toml(names_path).get("name", []):
        if not isinstance(row, dict) or not isinstance(row.get("card"), str):
            continue
        key = row["card"]
        pairs: list[tuple[str, str]] = [("en", key)]
        for lang in (*LANGUAGES, "seed_terms"):
            for name in row.get(lang, []) or []:
                label = "seed" if lang == "seed_terms" else lang
                if isinstance(name, str) and all(name != have for _l, have in pairs):
                    pairs.append((label, name))
        out.append(CardNames(game, key, tuple(pairs), tuple(clause_of.get(key, ()))))
    return tuple(out)


def card_names(game: str | None = None) -> tuple[CardNames, ...]:
    """Every card's names for ``game`` (all games when ``None``)."""
    games = [game] if game is not None else list(game_names())
    out: list[CardNames] = []
    for g in games:
        out.extend(_names_of(g))
    return tuple(out)


@functools.cache
def variant_card_names(game: str, variant: str) -> frozenset[str]:
    """The card names a variant's catalog uses (the game package's ``ruleset(variant).names``; a game
    without card names, or without such a ruleset, has none).

    >>> "Mariinsky Theater" in variant_card_names("petersburg", "second")
    True
    """
    make = getattr(game_module(game), "ruleset", None)
    if make is None:
        return frozenset()
    names = getattr(make(variant), "names", ())
    return frozenset(n for n in names if isinstance(n, str))
