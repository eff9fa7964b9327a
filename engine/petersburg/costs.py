"""What a card costs (SP-COST-1..7, SP-POTJ-1): one computation, :func:`fast_cost`, for every caller.

Legal actions, the checked tier's checks, the transitions that charge and :func:`cost_breakdown` (the
derivation a person reads) all call :func:`fast_cost`; it works on kinds, and lists each reduction it
applies when given a list to fill.  Its steps, in order, each under its clause::

    printed cost                                   SP-COST-1
    - the displaced card's value (a trading card)  SP-COST-7 (its cost) / SP-POTJ-1 (its own value)
    - 1 per identical card owned                   SP-COST-2
    - 1 from the lower row                         SP-COST-3
    - per owned reducer of the card's colour       SP-COST-4 (SP-COST-5: trading cards too)
    = never below the minimum                      SP-COST-6

>>> from engine.petersburg import GAME
>>> s = GAME.new_game(2, seed=1)
>>> fast_cost(s.rules, s.areas[0], s.rules.kind["Lumberjack"], LOWER)
2
>>> cost_breakdown(s, 0, "Lumberjack", source="lower").cost
2
"""

from __future__ import annotations

from engine.derivation import Trace
from engine.errors import IllegalAction
from engine.petersburg.catalog import PARAM_CLAUSES, PARAMS
from engine.petersburg.model import SOURCES, CostBreakdown, Reduction, State
from engine.petersburg.names import kind_of
from engine.petersburg.ruleset import Ruleset, ruleset

__all__ = [
    "DRAWN",
    "HAND",
    "LOWER",
    "LOWER_CLAUSE",
    "LOWER_DISCOUNT",
    "MIN_CLAUSE",
    "MIN_COST",
    "SAME_CLAUSE",
    "SAME_DISCOUNT",
    "SRC",
    "UPPER",
    "affordable",
    "cost_breakdown",
    "fast_cost",
    "trace_cost",
]

MIN_COST = PARAMS["minimum_cost"]
LOWER_DISCOUNT = PARAMS["lower_row_discount"]
SAME_DISCOUNT = PARAMS["identical_discount"]
MIN_CLAUSE = PARAM_CLAUSES["minimum_cost"]
LOWER_CLAUSE = PARAM_CLAUSES["lower_row_discount"]
SAME_CLAUSE = PARAM_CLAUSES["identical_discount"]
"""The shipped tables' three cost parameters and the clauses their rows of phases.toml cite (SP-COST-6,
SP-COST-3, SP-COST-2); the interpreter reads a ruleset's own (``rs.min_cost`` ...)."""
UPPER, LOWER, DRAWN, HAND = range(len(SOURCES))
"""Where a card comes from, by number (the names are ``model.SOURCES``)."""
SRC: dict[str, int] = {name: i for i, name in enumerate(SOURCES)}
"""Source name -> number."""


def fast_cost(
    rs: Ruleset,
    area: tuple[int, ...],
    k: int,
    src: int,
    t: int = -1,
    *,
    reductions: list[Reduction] | None = None,
) -> int:
    """The roubles a seat owning ``area`` pays for kind ``k`` from source ``src``, displacing kind ``t``
    (-1: none): the one cost computation.  With ``reductions`` a list, each reduction applied is appended
    (the displaced value and the minimum are not reductions: :func:`cost_breakdown` shows them apart).

    >>> from engine.petersburg import ruleset
    >>> rs = ruleset()
    >>> market = rs.kind["Market"]
    >>> fast_cost(rs, (market, market), market, UPPER)
    3
    """
    cost = rs.cost[k]  # SP-COST-1: the printed cost
    if t >= 0:  # SP-COST-7 / SP-POTJ-1: a trading card costs less the displaced card's value
        cost -= rs.dval[t]
    if area:
        same = area.count(k)
        if same:  # SP-COST-2: identical cards owned
            cost -= same * rs.same_discount
            if reductions is not None:
                reductions.append(
                    Reduction(
                        same * rs.same_discount,
                        rs.same_clause,
                        f"for {same} identical {rs.names[k]} owned",
                        rs.names[k],
                    )
                )
    if src == LOWER:  # SP-COST-3: the lower row
        cost -= rs.lower_discount
        if reductions is not None:
            reductions.append(Reduction(rs.lower_discount, rs.lower_clause, "from the lower row"))
    if area:
        for r, amount in rs.reducers_for[k]:  # SP-COST-4 (trading cards: SP-COST-5): reducers owned
            n = area.count(r)
            if n:
                cost -= n * amount
                if reductions is not None:
                    clause = rs.reducer_clause if rs.is_trading[k] else "SP-COST-4"
                    reductions.append(Reduction(n * amount, clause, f"for {rs.names[r]} owned", rs.names[r]))
    least = rs.min_cost
    return cost if cost > least else least  # SP-COST-6: never below the minimum


def affordable(rs: Ruleset, cost: int, money: int) -> bool:
    """SP-BUY-2: whether a card priced ``cost`` is affordable with ``money`` roubles: at most the money (and
    a fault model's bound, ``rs.afford``: 0 by the rules).  ``legal_actions`` adds the bound to the money
    once per seat instead, on the hot path.

    >>> from engine.petersburg import ruleset
    >>> affordable(ruleset(), 5, 5), affordable(ruleset(bounds=frozenset({("SP-BUY-2", -1)})), 5, 5)
    (True, False)
    """
    return cost <= money + rs.afford


def trace_cost(
    rs: Ruleset, area: tuple[int, ...], k: int, src: int, t: int, *, money: int, trace: Trace
) -> int:
    """:func:`fast_cost` with its derivation recorded into ``trace``: one ``SP-COST-1`` step (``price``)
    whose children are the displaced card's value (SP-COST-7 / SP-POTJ-1), each reduction fast_cost applied
    (``subject`` the card that grants it), each reducer owned that gives nothing off this card
    (``no-reduction``: SP-COST-4 for one of another colour, SP-COST-5 for a trading card the option leaves
    out; ``amount`` what it takes off a card it reduces), and the minimum (SP-COST-6: ``minimum`` when it
    lifts the price, ``above-minimum`` otherwise); then the SP-BUY-2 step (``affordable`` / ``too-dear``).
    Returns the cost.

    >>> from engine.petersburg import ruleset
    >>> rs = ruleset()
    >>> tr = Trace()
    >>> trace_cost(rs, (rs.kind["Market"],), rs.kind["Market"], LOWER, -1, money=25, trace=tr)
    3
    >>> [s.clause for s in tr.steps[0].walk()], tr.steps[1].says
    (['SP-COST-1', 'SP-COST-2', 'SP-COST-3', 'SP-COST-6'], 'affordable')
    """
    reductions: list[Reduction] = []
    cost = fast_cost(rs, area, k, src, t, reductions=reductions)
    name = rs.names[k]
    printed = rs.cost[k]
    raw = printed - (rs.dval[t] if t >= 0 else 0) - sum(r.amount for r in reductions)
    data = {"card": name, "subject": name, "printed": printed, "source": SOURCES[src], "cost": cost}
    with trace.step("SP-COST-1", "price", data, note=f"{name} costs {cost} R (printed {printed} R)"):
        if t >= 0:
            dname = rs.names[t]
            trace.add(
                rs.displace_clause[t],
                "displaced-value",
                {"card": dname, "subject": dname, "amount": rs.dval[t]},
                note=f"{rs.dval[t]} R less for the displaced {dname}",
            )
        for r in reductions:
            facts = {"card": name, "subject": r.card or "lower row", "amount": r.amount}
            if r.clause != "SP-COST-5":
                trace.add(r.clause, "reduction", facts, note=f"{r.amount} R less {r.reason}")
                continue
            # a reducer's rouble off a trading card: the reducer's rule, extended by SP-COST-5
            with trace.step("SP-COST-4", "reduction", facts, note=f"{r.amount} R less {r.reason}"):
                trace.add("SP-COST-5", "trading-card", {"card": name}, note="trading cards of its colour too")
        considered = {reducer for reducer, _amount in rs.reducers_for[k]}
        if rs.is_trading[k] and not dict(rs.options)["trading_discount"]:
            # the option's reading of SP-COST-5: the reducers of the card's colour owned give nothing off
            withheld = ruleset(
                rs.variant, {**dict(rs.options), "trading_discount": True}, rs.book, rs.skips,
                negated=rs.negated, bounds=rs.bounds,
            ).reducers_for[k]
            for reducer, amount in withheld:
                considered.add(reducer)
                if reducer in area:
                    owned = rs.names[reducer]
                    trace.add("SP-COST-5", "no-reduction", {"card": name, "subject": owned, "amount": amount},
                              note=f"no rouble less for {owned} owned: {name} is a trading card",
                              chosen="trading_discount=false")
        for reducer, amount in _reducers(rs).items():  # SP-COST-4: a reducer owned of another colour
            if reducer in area and reducer not in considered:
                owned = rs.names[reducer]
                trace.add("SP-COST-4", "no-reduction", {"card": name, "subject": owned, "amount": amount},
                          note=f"no rouble less for {owned} owned: it reduces cards of another colour")
        least = rs.min_cost
        lifted = raw < least
        trace.add(
            rs.min_clause,
            "minimum" if lifted else "above-minimum",
            {"card": name, "raw": raw, "minimum": least, "cost": cost},
            note=f"{raw} R is below the minimum: {name} costs {least} R"
            if lifted
            else f"{raw} R is not below the minimum of {least} R",
        )
    ok = affordable(rs, cost, money)
    trace.add(
        "SP-BUY-2",
        "affordable" if ok else "too-dear",
        {"card": name, "cost": cost, "money": money},
        note=f"{cost} R {'<=' if ok else '>'} the {money} R the seat has",
    )
    return cost


def _reducers(rs: Ruleset) -> dict[int, int]:
    """Every reducer kind of the ruleset and the roubles it takes off a card it reduces (SP-COST-4)."""
    return {reducer: amount for granted in rs.reducers_for for reducer, amount in granted}


def cost_breakdown(
    state: State, player: int, card: str, *, source: str, displace: str | None = None
) -> CostBreakdown:
    """The full derivation of what ``player`` pays for ``card`` from ``source`` now.

    ``source`` is ``upper``, ``lower``, ``drawn`` (the Observatory's card) or ``hand``.  A trading card
    needs ``displace`` (the card it would replace); the derivation does not check that the card is
    actually there (see :func:`~engine.petersburg.displacement.displacement_targets`).  Raises
    IllegalAction for an unknown card, a trading card without ``displace`` or another card with one.

    >>> from engine.petersburg import GAME
    >>> s = GAME.new_game(2, seed=1)
    >>> b = cost_breakdown(s, 0, "Lumberjack", source="lower")
    >>> (b.printed, [r.amount for r in b.reductions], b.cost)
    (3, [1], 2)
    """
    rs = state.rules
    k = kind_of(rs, card, "SP-BUY-3")
    if source not in SRC:
        raise IllegalAction("SP-BUY-3", f"unknown source {source!r} (known: {', '.join(SRC)})")
    t = -1
    dclause = None
    if rs.is_trading[k]:
        if displace is None:
            raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} is a trading card: name the card it displaces")
        t = kind_of(rs, displace, "SP-TRADE-1")
        dclause = rs.displace_clause[t]
    elif displace is not None:
        raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} is not a trading card and displaces nothing")
    reductions: list[Reduction] = []
    cost = fast_cost(rs, state.areas[player], k, SRC[source], t, reductions=reductions)
    money = state.money[player]
    return CostBreakdown(
        card=rs.names[k],
        source=source,
        printed=rs.cost[k],
        displace=rs.names[t] if t >= 0 else None,
        displace_value=rs.dval[t] if t >= 0 else 0,
        displace_clause=dclause,
        reductions=tuple(reductions),
        minimum=rs.min_cost,
        cost=cost,
        money=money,
        affordable=affordable(rs, cost, money),
    )
