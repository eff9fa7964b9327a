"""The compiled Saint Petersburg ruleset: for one variant (edition) and option set, per-card tuples indexed
by the card *kind* (0..48, catalog order) that the interpreter reads on its hot path.  It is built from the
loaded tables (:mod:`engine.petersburg.catalog`) and the effects compiled there, once per edition.

>>> rs = ruleset("first")
>>> rs.names[rs.kind["Market"]], rs.cost[rs.kind["Market"]]
('Market', 5)
>>> ruleset("second").names[rs.kind["Pope"]]
'Abbot'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from engine.errors import IllegalSetup
from engine.jsonio import show
from engine.petersburg.catalog import (
    COLOURS,
    FINAL,
    GAME_META,
    OPTIONS,
    STACKS,
    VARIANTS,
    Card,
    catalog,
    effect_tables,
    pairings,
)

__all__ = ["Ruleset", "normalize_options", "ruleset"]


class Ruleset:
    """The compiled rules of one variant and option set: per-kind tuples for the interpreter.

    Instances are cached (one per variant and options), so two states of the same game share one ruleset
    and compare equal.  Read-only by convention: every table is a tuple.
    """

    __slots__ = (
        "cache",
        "cards",
        "colour",
        "cost",
        "costs",
        "displace_clause",
        "dval",
        "edition",
        "effect_clause",
        "hand_limit",
        "hand_limit_kinds",
        "is_trading",
        "key",
        "kind",
        "names",
        "nkinds",
        "obs_phase",
        "observatory_kinds",
        "options",
        "per_card",
        "pub_kinds",
        "pub_max",
        "pub_rate",
        "reducer_clause",
        "reducers_for",
        "roubles",
        "stack",
        "stack_kinds",
        "targets_of",
        "variant",
        "variety_colour",
        "vp",
    )

    def __init__(self, variant: str, options: tuple[tuple[str, Any], ...]) -> None:
        self.variant = variant
        self.options = options = normalize_options(dict(options))  # every option, its default if not given
        self.cache: dict[int, dict[int, Any]] = {}  # interned action objects per seat (a memo, not state)
        # per seat, (area, {action key: cost}): legal_actions' memo of fast_cost while the area is unchanged
        self.costs: dict[int, tuple[tuple[int, ...], dict[int, int]]] = {}
        self.edition = VARIANTS[variant]
        opts = dict(options)
        cards = catalog(self.edition)
        self.cards = cards
        n = len(cards)
        self.nkinds = n
        self.key = (variant, options)
        self.names = tuple(c.name for c in cards)
        self.kind = {c.name: c.index for c in cards}
        self.cost = tuple(c.cost for c in cards)
        self.roubles = tuple(c.roubles for c in cards)
        self.vp = tuple(c.vp for c in cards)
        self.colour = tuple(COLOURS.index(c.colour) for c in cards)
        self.stack = tuple(STACKS.index(c.stack) for c in cards)
        self.is_trading = tuple(c.trading for c in cards)
        self.stack_kinds = tuple(tuple(c.index for c in cards if c.stack == s) for s in STACKS)
        t = effect_tables(self.edition)
        self.dval = tuple(t.displace_value)
        self.displace_clause = tuple(t.displace_clause)
        self.hand_limit = tuple(t.hand_limit)
        self.hand_limit_kinds = tuple(k for k in range(n) if t.hand_limit[k])
        self.pub_rate = tuple(t.pub_rate)
        self.pub_max = tuple(t.pub_max)
        self.pub_kinds = tuple(k for k in range(n) if t.pub_max[k])
        self.obs_phase = tuple(t.observatory_phase)
        self.observatory_kinds = tuple(k for k in range(n) if t.observatory_phase[k] >= 0)
        self.per_card = tuple(t.per_card)
        self.effect_clause = tuple(t.effect_clause)  # the clause of each kind's effect handler, or None
        # reducers_for[k]: ((reducer kind, amount), ...) applying to card k (SP-COST-4, SP-COST-5)
        discount_trading = bool(opts["trading_discount"])
        red: list[tuple[tuple[int, int], ...]] = []
        for ci in range(n):
            red.append(
                tuple(
                    (r, amount)
                    for r, colour, amount in t.reducers
                    if self.colour[ci] == colour and (discount_trading or not self.is_trading[ci])
                )
            )
        self.reducers_for = tuple(red)
        self.reducer_clause = "SP-COST-5" if discount_trading else "SP-COST-4"
        self.targets_of = _targets(cards)
        self.variety_colour = COLOURS.index(FINAL["variety_colour"])

    def __repr__(self) -> str:
        return f"ruleset({self.variant!r}, {dict(self.options)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ruleset, (self.variant, dict(self.options)))


def _targets(cards: tuple[Card, ...]) -> tuple[tuple[int, ...], ...]:
    match, symbol_of = pairings()
    out: list[tuple[int, ...]] = []
    for c in cards:
        if not c.trading:
            out.append(())
            continue
        rule = match[c.colour]
        out.append(
            tuple(
                t.index
                for t in cards
                if not t.trading
                and t.colour == c.colour
                and (rule == "any" or symbol_of[c.index] in t.symbols)
            )
        )
    return tuple(out)


@functools.cache
def _ruleset(variant: str, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset(variant, options)


def normalize_options(options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    """Options with defaults filled in, as a sorted tuple; unknown names or wrong types -> IllegalSetup."""
    opts = dict(options or {})
    out: dict[str, Any] = {}
    for name in opts:
        if name not in OPTIONS:
            raise IllegalSetup("SP-VARIANT-2", f"unknown option {show(name)} (known: {', '.join(OPTIONS)})")
    for name, spec in OPTIONS.items():
        value = opts.get(name, spec.default)
        if not isinstance(value, bool):
            raise IllegalSetup("SP-VARIANT-2", f"option {name!r} must be true or false, got {value!r}")
        out[name] = value
    return tuple(sorted(out.items()))


def ruleset(variant: str | None = None, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The compiled ruleset of a variant (default ``first``) and options; unknown ones -> IllegalSetup."""
    v = GAME_META["default_variant"] if variant is None else variant
    if v not in VARIANTS:
        raise IllegalSetup("SP-VARIANT-1", f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
    return _ruleset(v, normalize_options(options))
