"""The compiled Saint Petersburg ruleset: for one variant (edition) and option set, per-card tuples indexed
by the card *kind* (0..48, catalog order) that the interpreter reads on its hot path.  It is built from the
loaded tables (:mod:`engine.petersburg.catalog`) and the effects compiled there, once per edition.

>>> rs = ruleset("first")
>>> rs.names[rs.kind["Market"]], rs.cost[rs.kind["Market"]]
('Market', 5)
>>> ruleset("second").names[rs.kind["Pope"]]
'Abbot'

A ruleset is compiled from a :class:`~engine.petersburg.catalog.Book` (default: the shipped tables'), so a
book of edited tables gives a ruleset that plays by the edit: every value the interpreter reads during play
(card facts, effects, pairings, the cost and board parameters, the final scoring) is the ruleset's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import IllegalSetup
from engine.jsonio import show
from engine.petersburg.catalog import COLOURS, SHIPPED, Book, Card

__all__ = ["BOUNDED", "NEGATABLE", "SKIPPABLE", "Ruleset", "normalize_options", "ruleset"]


class Ruleset:
    """The compiled rules of one variant and option set: per-kind tuples for the interpreter.

    Instances are cached (one per variant and options), so two states of the same game share one ruleset
    and compare equal.  Read-only by convention: every table is a tuple.
    """

    __slots__ = (
        "afford",
        "board",
        "book",
        "bounds",
        "cache",
        "cards",
        "charge",
        "colour",
        "cost",
        "costs",
        "displace_clause",
        "dval",
        "edition",
        "edits",
        "effect_clause",
        "hand_base",
        "hand_clause",
        "hand_limit",
        "hand_limit_kinds",
        "is_trading",
        "key",
        "kind",
        "lower_clause",
        "lower_discount",
        "min_clause",
        "min_cost",
        "names",
        "negated",
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
        "roubles_per_vp",
        "same_clause",
        "same_discount",
        "skips",
        "stack",
        "stack_kinds",
        "targets_of",
        "variant",
        "variety",
        "variety_colour",
        "vp",
        "vp_per_hand_card",
    )

    def __init__(
        self,
        variant: str,
        options: tuple[tuple[str, Any], ...],
        book: Book = SHIPPED,
        skips: frozenset[str] = frozenset(),
        *,
        negated: frozenset[str] = frozenset(),
        bounds: frozenset[tuple[str, int]] = frozenset(),
    ) -> None:
        self.variant = variant
        self.book = book
        self.edits = book.tables.edits  # () for the shipped tables
        self.skips = skips  # procedural steps left out (SKIPPABLE): a fault model's, never a game's
        self.negated = negated  # steps applied with the opposite sign (NEGATABLE): a fault model's too
        # what a purchase takes from the seat's money per rouble of its cost (SP-BUY-1): 1; a fault model's
        # payment left out gives 0, its payment negated -1 (the price credited)
        self.charge = _sign("SP-BUY-1", skips, negated)
        self.bounds = bounds  # steps whose bound is off by an amount (BOUNDED): a fault model's too
        # the roubles a card may cost beyond the seat's money and still be affordable (SP-BUY-2): 0; a fault
        # model's bound off by one gives -1 (a card costing all the seat has refused) or 1
        self.afford = dict(bounds).get("SP-BUY-2", 0)
        self.options = options = normalize_options(dict(options), book)  # every option, default if not given
        self.cache: dict[int, dict[int, Any]] = {}  # interned action objects per seat (a memo, not state)
        # per seat, (area, {action key: cost}): legal_actions' memo of fast_cost while the area is unchanged
        self.costs: dict[int, tuple[tuple[int, ...], dict[int, int]]] = {}
        self.edition = book.variants[variant]
        opts = dict(options)
        cards = book.catalog(self.edition)
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
        self.stack = tuple(book.stacks.index(c.stack) for c in cards)
        self.is_trading = tuple(c.trading for c in cards)
        self.stack_kinds = tuple(tuple(c.index for c in cards if c.stack == s) for s in book.stacks)
        t = book.effect_tables(self.edition)
        # the displaced card's value off a trading card's price (SP-COST-7 / SP-POTJ-1); a fault model may
        # leave the step out (every value 0) or negate it (the value added to the price)
        sign = _sign("SP-COST-7", skips, negated)
        self.dval = tuple(sign * v for v in t.displace_value)
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
        sign = _sign("SP-COST-4", skips, negated)  # a fault model's reduction negated: added to the price
        for ci in range(n):
            red.append(
                tuple(
                    (r, sign * amount)
                    for r, colour, amount in t.reducers
                    if self.colour[ci] == colour and (discount_trading or not self.is_trading[ci])
                )
            )
        self.reducers_for = tuple(red)
        self.reducer_clause = "SP-COST-5" if discount_trading else "SP-COST-4"
        self.targets_of = _targets(cards, book)
        # the board and cost parameters (phases.toml [[param]]) and their clauses
        params, clauses = book.params, book.param_clauses
        self.min_cost, self.min_clause = params["minimum_cost"], clauses["minimum_cost"]
        self.lower_discount, self.lower_clause = params["lower_row_discount"], clauses["lower_row_discount"]
        self.same_discount, self.same_clause = params["identical_discount"], clauses["identical_discount"]
        self.hand_base, self.hand_clause = params["hand_limit"], clauses["hand_limit"]
        self.board = params["board_cards"]
        # the final scoring (scoring.toml)
        self.variety = book.variety
        self.variety_colour = COLOURS.index(book.final["variety_colour"])
        self.roubles_per_vp = book.final["roubles_per_vp"]
        self.vp_per_hand_card = book.final["vp_per_hand_card"]

    def __repr__(self) -> str:
        changed = [*self.edits, *(f"skip {c}" for c in sorted(self.skips)),
                   *(f"negate {c}" for c in sorted(self.negated)),
                   *(f"bound {c} {v:+d}" for c, v in sorted(self.bounds))]
        edits = f" [edited: {', '.join(changed)}]" if changed else ""
        return f"ruleset({self.variant!r}, {dict(self.options)!r}){edits}"

    def __reduce__(self) -> tuple[Any, ...]:
        if not self.edits and not self.skips and not self.negated and not self.bounds:
            return (ruleset, (self.variant, dict(self.options)))
        faults = (self.skips, self.negated, self.bounds)
        return (_rebuilt, (self.variant, dict(self.options), self.book, faults))

    def variety_bonus(self, n: int) -> int:
        """VP for ``n`` different aristocrats, capped at the variety table's last row.

        >>> ruleset().variety_bonus(3), ruleset().variety_bonus(12)
        (6, 55)
        """
        return self.variety[min(max(n, 0), len(self.variety) - 1)]


def _targets(cards: tuple[Card, ...], book: Book) -> tuple[tuple[int, ...], ...]:
    match, symbol_of = book.match, book.symbol_of
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


def normalize_options(options: Mapping[str, Any] | None, book: Book = SHIPPED) -> tuple[tuple[str, Any], ...]:
    """Options with defaults filled in, as a sorted tuple; unknown names or wrong types -> IllegalSetup."""
    opts = dict(options or {})
    out: dict[str, Any] = {}
    for name in opts:
        if name not in book.options:
            known = ", ".join(book.options)
            raise IllegalSetup("SP-VARIANT-2", f"unknown option {show(name)} (known: {known})")
    for name, spec in book.options.items():
        value = opts.get(name, spec.default)
        if not isinstance(value, bool):
            raise IllegalSetup("SP-VARIANT-2", f"option {name!r} must be true or false, got {value!r}")
        out[name] = value
    return tuple(sorted(out.items()))


SKIPPABLE: tuple[str, ...] = ("SP-BUY-1", "SP-COST-7", "SP-OBS-5")
"""The procedural steps a ruleset can leave out (``skips``), each guarded where the interpreter takes it:
a fault model of an implementation that forgets the step (engine.conformance.diagnosis): the payment of a
purchase (SP-BUY-1, a buy's or a play's: :attr:`Ruleset.charge` 0), the displaced card's value off a
trading card's price (SP-COST-7, SP-POTJ-1's value too: every ``dval`` 0), a turned Observatory's lost
income (SP-OBS-5).  A skip is never part of a game's rules: only :meth:`PetersburgGame.adopt` with
``skips`` sets one."""

NEGATABLE: tuple[str, ...] = ("SP-BUY-1", "SP-COST-4", "SP-COST-7")
"""The steps of an amount a ruleset can apply with the opposite sign (``negated``), each compiled into the
value the interpreter reads: a fault model of an implementation that adds where the rules subtract (the
price credited, not paid: :attr:`Ruleset.charge` -1; a reducer's rouble added to the price; the displaced
card's value added to it).  Never part of a game's rules, as a skip."""

BOUNDED: tuple[str, ...] = ("SP-BUY-2",)
"""The steps whose bound a ruleset can move by an amount (``bounds``: clause and amount), compiled into the
value the interpreter reads: a fault model of an implementation comparing with ``<`` where the rules say
"at most" (SP-BUY-2 -1: a card costing exactly the seat's money refused, :attr:`Ruleset.afford`).  Never
part of a game's rules, as a skip."""


def ruleset(
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    book: Book = SHIPPED,
    skips: frozenset[str] = frozenset(),
    *,
    negated: frozenset[str] = frozenset(),
    bounds: frozenset[tuple[str, int]] = frozenset(),
) -> Ruleset:
    """The compiled ruleset of a variant (default ``first``) and options, from ``book`` (default: the
    shipped tables), leaving out the steps ``skips`` names (each one of :data:`SKIPPABLE`) and applying
    those ``negated`` names with the opposite sign (each one of :data:`NEGATABLE`) and the bounds of
    ``bounds`` moved (``(clause, amount)``, each of :data:`BOUNDED`); unknown ones -> IllegalSetup.
    Compiled once per book, variant, options, skips, negations and bounds.

    >>> rs = ruleset(negated=frozenset({"SP-BUY-1"}))
    >>> rs.charge, ruleset().charge
    (-1, 1)
    """
    v = book.meta["default_variant"] if variant is None else variant
    if v not in book.variants:
        raise IllegalSetup("SP-VARIANT-1", f"unknown variant {v!r} (known: {', '.join(book.variants)})")
    for given, known, how in ((set(skips), SKIPPABLE, "can be left out"),
                              (set(negated), NEGATABLE, "can be negated"),
                              ({c for c, _ in bounds}, BOUNDED, "has a bound to move")):
        unknown = sorted(given - set(known))
        if unknown:
            raise IllegalSetup("SP-VARIANT-2", f"no step {unknown[0]} {how} (only {', '.join(known)})")
    left = skips if type(skips) is frozenset else frozenset(skips)
    turned = negated if type(negated) is frozenset else frozenset(negated)
    moved = bounds if type(bounds) is frozenset else frozenset(bounds)
    key = (v, normalize_options(options, book), left, turned, moved)
    found: Ruleset | None = book.rulesets.get(key)
    if found is None:
        found = book.rulesets[key] = Ruleset(v, key[1], book, left, negated=turned, bounds=moved)
    return found


def _sign(clause: str, skips: frozenset[str], negated: frozenset[str]) -> int:
    """What a step of an amount is multiplied by: 1 as the rules say, 0 left out, -1 negated."""
    return 0 if clause in skips else -1 if clause in negated else 1


def _rebuilt(
    variant: str,
    options: Mapping[str, Any],
    book: Book,
    faults: tuple[frozenset[str], frozenset[str], frozenset[tuple[str, int]]],
) -> Ruleset:
    """A pickled ruleset of a fault model's rules compiled again (:meth:`Ruleset.__reduce__`)."""
    skips, negated, bounds = faults
    return ruleset(variant, options, book, skips, negated=negated, bounds=bounds)
