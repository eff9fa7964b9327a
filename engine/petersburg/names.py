"""Saint Petersburg card names: the names table (English, German, Russian, the seeds' spellings) and the
resolution of any name a caller gives (an edition's name or an alias, any case) to a card kind.

>>> CARDS[resolve_card("Zar Peter")].key
'Czar and Carpenter'
>>> from engine.petersburg.ruleset import ruleset
>>> kind_of(ruleset(), "Markt", "SP-BUY-3") == ruleset().kind["Market"]
True
"""

from __future__ import annotations

import functools
from typing import Any

from attrs import frozen

from engine.errors import IllegalAction, SpecError
from engine.petersburg.catalog import CARDS, GAME, VARIANTS, catalog
from engine.petersburg.ruleset import Ruleset
from engine.spec import Field, Tables, load_table

__all__ = ["Names", "card_names", "kind_of", "resolve_card"]


@frozen
class Names:
    """A card's names: English, German, Russian (first = preferred) and the spellings seed 001 uses."""

    card: str
    en: tuple[str, ...]
    de: tuple[str, ...]
    ru: tuple[str, ...]
    seed_terms: tuple[str, ...]


@functools.cache
def card_names() -> dict[str, Names]:
    """The names table (``spec/petersburg/names.toml``) by first-edition card name.

    >>> card_names()["Czar and Carpenter"].de[0]
    'Zar Peter'
    """
    return names_of(Tables.shipped(GAME))


def names_of(tables: Tables) -> dict[str, Names]:
    """The names table of ``tables`` (checked: every card named, in every language, by non-empty text)."""
    rows = load_table(
        GAME,
        "names.toml",
        "name",
        [
            Field("card", str),
            Field("en", list),
            Field("de", list),
            Field("ru", list),
            Field("seed_terms", list),
        ],
        key="card",
        tables=tables,
    )
    base = {c.key for c in CARDS}
    out: dict[str, Names] = {}
    for r in rows:
        where = f"{GAME}/names.toml [[name]] (card={r['card']!r})"
        if r["card"] not in base:
            raise SpecError(f"{where}: field 'card' names unknown card")
        for f in ("en", "de", "ru", "seed_terms"):
            if not all(isinstance(x, str) and x for x in r[f]):
                raise SpecError(f"{where}: field {f!r} must be a list of non-empty strings")
            if f != "seed_terms" and not r[f]:
                raise SpecError(f"{where}: field {f!r} must name the card at least once")
        out[r["card"]] = Names(
            r["card"], tuple(r["en"]), tuple(r["de"]), tuple(r["ru"]), tuple(r["seed_terms"])
        )
    missing = base - set(out)
    if missing:
        raise SpecError(f"{GAME}/names.toml: no names for {', '.join(sorted(missing))}")
    return out


@functools.cache
def _alias_index() -> dict[str, int]:
    index: dict[str, int] = {}
    by_key = {c.key: c.index for c in CARDS}
    for edition in {*VARIANTS.values()}:
        for c in catalog(edition):
            index[c.name] = c.index
    for n in card_names().values():
        k = by_key[n.card]
        for alias in (*n.en, *n.de, *n.ru, *n.seed_terms):
            folded = alias.casefold()
            if folded in index and index[folded] != k:
                raise SpecError(f"{GAME}/names.toml: alias {alias!r} names two cards")
            index[folded] = k
    return index


def resolve_card(name: str) -> int | None:
    """The card kind named ``name`` (any edition's name, or an alias from the names table, any case).

    >>> CARDS[resolve_card("Zar Peter")].key
    'Czar and Carpenter'
    >>> resolve_card("Unicorn") is None
    True
    """
    index = _alias_index()
    k = index.get(name)
    if k is None:
        k = index.get(name.casefold())
    return k


def kind_of(rs: Ruleset, name: Any, clause: str) -> int:
    """The kind of the card ``name`` (the ruleset's edition name first, then any alias); anything else is
    refused with IllegalAction naming ``clause`` (the rule that needs the card)."""
    k = rs.kind.get(name) if isinstance(name, str) else None
    if k is None:
        k = resolve_card(name) if isinstance(name, str) else None
        if k is None:
            raise IllegalAction(clause, f"no card called {name!r}")
    return k
