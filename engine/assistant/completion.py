"""Completions for the assistant's resource templates and prompt arguments (MCP ``completion/complete``).

A client completing ``arbiter://clause/{id}`` or a prompt's argument sends what has been typed; the answer is
the values that fit it, read from the engine's own tables:

* ``arbiter://clause/{id}``, and a prompt's ``clause_id`` — the clause ids (of the game already chosen, when
  the prompt has one);
* ``arbiter://seed/{key}`` — the seed documents' keys;
* ``game`` — the games;
* ``variant`` — the variants of the game chosen (of every game before one is);
* ``card`` — the Saint Petersburg cards by every name they have: both editions' names and the names table's
  English, German and Russian names and aliases.

A value fits when it starts with the typed text, ignoring case (those first, in table order), or, failing
that, holds it.  At most :data:`MAX_VALUES` are sent, with the total.

>>> complete("resource", "arbiter://clause/{id}", "id", "t6-pla")[0]
['T6-PLACE-1', 'T6-PLACE-2', 'T6-PLACE-3']
>>> complete("prompt", "explain_card", "card", "zar")[0]
['Zar Peter', 'Zar und Zimmermann', 'Zar', 'Zarin']
>>> complete("prompt", "settle_dispute", "game", "")[0]
['take6', 'petersburg']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from engine.assistant import prompts as prompt_book
from engine.assistant import resources as documents
from engine.errors import InputError
from engine.game import game_names, get_game
from engine.jsonio import show
from engine.query import rulesref
from engine.query.adapters import card_names as names_table
from engine.spec import seed_index

__all__ = ["MAX_TYPED", "MAX_VALUES", "complete"]

MAX_VALUES = 100
"""The most values one completion sends (the protocol's own bound)."""

MAX_TYPED = 200
"""The longest typed text matched (anything longer fits nothing)."""


def _clauses(context: Mapping[str, str]) -> list[str]:
    game = context.get("game")
    return [c.id for c in rulesref.select() if game not in game_names() or c.game == game]


def _seeds(_context: Mapping[str, str]) -> list[str]:
    return list(seed_index())


def _games(_context: Mapping[str, str]) -> list[str]:
    return list(game_names())


def _variants(context: Mapping[str, str]) -> list[str]:
    chosen = context.get("game")
    games = [chosen] if chosen in game_names() else list(game_names())
    out: list[str] = []
    for g in games:
        out.extend(v for v in get_game(g).variants if v not in out)
    return out


@functools.cache
def _card_names() -> tuple[str, ...]:
    """Every name of every Saint Petersburg card: each edition's, then the names table's (en, de, ru)."""
    from engine.petersburg.catalog import VARIANTS, catalog

    out: dict[str, None] = {}
    for edition in dict.fromkeys(VARIANTS.values()):
        out.update((c.name, None) for c in catalog(edition))
    for card in names_table("petersburg"):
        out.update((name, None) for lang, name in card.names if lang != "seed")  # seed 001's lost umlauts
    return tuple(out)


def _cards(_context: Mapping[str, str]) -> list[str]:
    return list(_card_names())


SOURCES: dict[str, Callable[[Mapping[str, str]], list[str]]] = {
    "clause_id": _clauses,
    "game": _games,
    "variant": _variants,
    "card": _cards,
}
"""A prompt argument's values, by the argument's name."""

TEMPLATES: dict[tuple[str, str], Callable[[Mapping[str, str]], list[str]]] = {
    ("arbiter://clause/{id}", "id"): _clauses,
    ("arbiter://seed/{key}", "key"): _seeds,
}
"""A resource template variable's values, by the template and the variable."""


def _fitting(values: list[str], typed: str) -> list[str]:
    if len(typed) > MAX_TYPED:
        return []
    key = typed.casefold()
    first = [v for v in values if v.casefold().startswith(key)]
    return first or [v for v in values if key in v.casefold()]


def complete(
    kind: str, ref: str, argument: str, typed: str, context: Mapping[str, str] | None = None
) -> tuple[list[str], int]:
    """The values of ``argument`` that fit ``typed`` (at most :data:`MAX_VALUES`) and how many fit in all;
    ``kind`` is ``prompt`` (``ref`` its name) or ``resource`` (``ref`` a URI template); ``context`` the
    arguments already chosen.  An argument with nothing to offer (a question in words) gets an empty list;
    an unknown prompt, template or argument is an InputError naming it.

    >>> complete("prompt", "settle_dispute", "players", "")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: argument.name: settle_dispute has no argument 'players' (its arguments: game, \
position, question, action)
    """
    if kind == "prompt":
        index = {p.name: p for p in prompt_book.prompts()}
        if ref not in index:
            raise InputError("ref.name", f"unknown prompt {show(ref)} (known: {', '.join(index)})")
        names = [a.name for a in index[ref].arguments]
        source = SOURCES.get(argument)
        game = index[ref].game
        if game is not None:
            context = {**(context or {}), "game": game}
    else:
        names = [name for template, name in TEMPLATES if template == ref]
        if not names:
            known = ", ".join(t.uri_template for t in documents.resource_templates())
            raise InputError("ref.uri", f"unknown resource template {show(ref)} (known: {known})")
        source = TEMPLATES.get((ref, argument))
    if argument not in names:
        raise InputError("argument.name", f"{ref} has no argument {show(argument)} (its arguments: "
                         f"{', '.join(names)})")
    if source is None:
        return [], 0
    fitting = _fitting(source(context or {}), typed)
    return fitting[:MAX_VALUES], len(fitting)
