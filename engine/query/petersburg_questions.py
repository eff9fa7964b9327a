"""Saint Petersburg questions: the cost of a card for a buyer owning some cards, whether a trading card may
displace a card, the aristocrat variety bonus, a card's facts and names, the hand limit, the Pub, the final
scoring, set-up and end of game — each answered by the engine's own functions (``cost_breakdown``,
``can_displace``, ``variety_bonus``, ``hand_limit``, ``pub_capacity``, ``final_breakdown`` and the catalog).

A "what if" position is the engine's own start position (``initial_state`` from a seeded set-up) with the
asking player's play area, roubles and hand set as given; the cost and scoring functions read exactly those.

>>> from engine.query.questions import ask
>>> ask("cost", {"card": "Market", "owns": ["Market", "Market"]}).value["cost"]
3
>>> ask("bonus", {"distinct": 7}).value
28
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import IllegalSetup, InputError, RuleViolation
from engine.game import Game
from engine.query.explain import Explanation, register_explainer
from engine.query.model import Answer, Step
from engine.query.questions import Param, Question, game_handler, register
from engine.query.standings import check_scores, places, seat_names
from engine.spec import load_clauses, read_toml, spec_dir

importlib.import_module("engine.query.suggest")  # registers the shared search question

GAME = "petersburg"
SOURCES = ("upper", "lower", "hand", "drawn")


def _catalog() -> Any:
    return importlib.import_module("engine.petersburg")


def _core() -> Any:
    return importlib.import_module("engine.petersburg")


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    from engine.play import parse_options

    return parse_options(list(pairs))


def _ruleset(variant: str | None, options: Mapping[str, Any]) -> Any:
    try:
        return _catalog().ruleset(variant, options)
    except IllegalSetup as exc:
        raise InputError("--variant" if exc.clause == "SP-VARIANT-1" else "--option", str(exc)) from None


def kind_of(rs: Any, name: str, field: str) -> int:
    """The card kind called ``name`` (the edition's name or any alias); InputError naming ``field``."""
    k = rs.kind.get(name)
    if k is None:
        k = _catalog().resolve_card(name)
    if k is None:
        import difflib

        hint = difflib.get_close_matches(name, list(rs.kind), n=3)
        extra = f"; did you mean {', '.join(hint)}?" if hint else ""
        raise InputError(field, f"no Saint Petersburg card called {name!r}{extra}")
    return int(k)


def seat_position(rs: Any, owns: Sequence[str], money: int, hand: Sequence[str] = ()) -> Any:
    """A 2-player position built by the engine's position builder: seat 0 with the given area, roubles and
    hand, every other card out of the game.  A card given more often than the game has it is refused."""
    area = [rs.names[kind_of(rs, n, "owns")] for n in owns]
    held = [rs.names[kind_of(rs, n, "hand")] for n in hand]
    build = importlib.import_module("engine.petersburg.position").position
    try:
        return build(players=2, variant=rs.variant, options=dict(rs.options), areas=[area, []],
                     hands=[held, []], money=[money, 0])
    except InputError as exc:
        field = {"areas": "owns", "hands": "hand"}.get(exc.field.split("[")[0], exc.field)
        raise InputError(field, exc.message) from None


def seat_of(text: str, seat: int | None) -> tuple[Any, int]:
    """The position ``text`` gives (notation, JSON state or @FILE) and the seat asking (default: to act)."""
    state = importlib.import_module("engine.positions").load_position(GAME, text, source="position")
    if seat is None:
        acting = _core().to_act(state)
        seat = acting[0] if acting else 0
    if not 0 <= seat < state.players:
        raise InputError("seat", f"expected a seat 0..{state.players - 1}, got {seat}")
    return state, seat


def _owned_text(owns: Sequence[str]) -> str:
    if not owns:
        return "nothing"
    counts: dict[str, int] = {}
    for n in owns:
        counts[n] = counts.get(n, 0) + 1
    return ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in counts.items())


VARIANT = Param("variant", str, "edition: first (default) or second", required=False)
OPTION = Param("option", str, "a game option NAME=VALUE, e.g. trading_discount=false (repeatable)",
               required=False, many=True, metavar="NAME=VALUE")


# --------------------------------------------------------------------------------------------------
# cost


def derivation_steps(why: Any) -> list[Step]:
    """The readable chain of an engine derivation (:class:`engine.derivation.Step`): for a legal action
    the clause that grants it first, then every step with a note, depth first, indented by depth (the
    refusal itself is the answer's first step, :func:`engine.query.explain.explain`)."""
    out: list[Step] = []
    if why.says == "legal":
        out.append(Step.of(why.clause, "this rule allows the action"))

    def visit(step: Any, depth: int) -> None:
        if step.note:
            out.append(Step.from_derivation(step, "  " * depth + step.note))
        for child in step.steps:
            visit(child, depth + 1 if step.note else depth)

    for child in why.steps:
        visit(child, 0)
    return out


def cost_steps(b: Any) -> list[Step]:
    """The clause chain of an engine ``CostBreakdown``: printed cost, displaced card, each reduction,
    the minimum of 1, and (when roubles are known) whether the buyer can pay."""
    running = b.printed
    steps = [Step.of("SP-COST-1", f"{b.card}: printed cost {b.printed}", running)]
    if b.displace is not None:
        running -= b.displace_value
        steps.append(Step.of("SP-COST-7", f"displacing {b.displace}: minus its value {b.displace_value}",
                             running))
        if b.displace_clause and b.displace_clause != "SP-COST-7":
            steps.append(Step.of(b.displace_clause,
                                 f"{b.displace} counts {b.displace_value} when displaced"))
    for r in b.reductions:
        running -= r.amount
        steps.append(Step.of(r.clause, f"minus {r.amount} {r.reason}", running))
    minimum = _catalog().PARAM_CLAUSES["minimum_cost"]
    if b.raw < b.minimum:
        steps.append(Step.of(minimum, f"{b.raw} is below the minimum: the card costs {b.minimum}",
                             b.cost))
    else:
        steps.append(Step.of(minimum, f"reductions add up; at least {b.minimum} rouble: {b.cost}",
                             b.cost))
    return steps


def option_steps(state: Any, player: int, b: Any) -> list[Step]:
    """The steps of the engine's own cost derivation (``costs.trace_cost``) that apply an option's other
    reading of a ruling (``Ruling.chosen``: e.g. no colour reduction for a trading card with
    ``trading_discount=false``), which a ``CostBreakdown`` does not list."""
    from engine.derivation import Trace

    costs = importlib.import_module("engine.petersburg.costs")
    rs = state.rules
    trace = Trace()
    costs.trace_cost(rs, state.areas[player], rs.kind[b.card], costs.SRC[b.source],
                     rs.kind[b.displace] if b.displace is not None else -1, money=b.money, trace=trace)
    return [Step.from_derivation(d) for root in trace.steps for d in root.walk()
            if d.ruling is not None and d.ruling.chosen]


def _cost(*, card: str, owns: list[str], row: str | None, displace: str | None, money: int | None,
          variant: str | None, option: list[str], position: str | None = None,
          seat: int | None = None) -> Answer:
    if position is not None:
        return _cost_at(card, row, displace, position, seat)
    rs = _ruleset(variant, _parse_options(option))
    core = _core()
    k = kind_of(rs, card, "card")
    name = rs.names[k]
    owned = list(owns)
    notes: list[str] = []
    steps: list[Step] = []
    if displace is not None:
        t = kind_of(rs, displace, "displace")
        ok, clause, reason = core.can_displace(name, rs.names[t], variant=rs.variant)
        steps.append(Step.of(clause, reason, ok))
        if not ok:
            return Answer(kind="cost", game=GAME, question=f"What does {name} cost displacing {rs.names[t]}?",
                          summary=f"{name} cannot displace {rs.names[t]}, so it cannot be bought that way",
                          value={"cost": None, "legal": False, "clause": clause}, steps=steps)
        if all(kind_of(rs, o, "owns") != t for o in owned):
            owned.append(rs.names[t])
            notes.append(f"The buyer must own the {rs.names[t]} to displace it (SP-TRADE-1); it is counted "
                         "as owned.")
    elif rs.is_trading[k]:
        targets = sorted({rs.names[t] for t in rs.targets_of[k]})
        raise InputError("displace", f"{name} is a trading card: say which card it displaces (--displace), "
                         f"one of {', '.join(targets)} (SP-TRADE-1)")
    source = row or ("hand" if False else "upper")
    state = seat_position(rs, owned, money if money is not None else 0)
    try:
        b = core.cost_breakdown(state, 0, name, source=source,
                                displace=rs.names[kind_of(rs, displace, "displace")] if displace else None)
    except RuleViolation as exc:
        raise InputError("card", str(exc)) from None
    steps.extend(cost_steps(b))
    steps.extend(option_steps(state, 0, b))
    if money is not None:
        steps.append(Step.of("SP-BUY-2", f"the buyer has {money} roubles: "
                             + ("enough" if b.affordable else f"{b.cost - money} short"), b.affordable))
    if source == "hand":
        notes.append("Played from the hand there is no lower-row reduction (SP-HAND-4).")
    elif source == "drawn":
        notes.append("A card drawn with the Observatory has no lower-row reduction (SP-OBS-4).")
    value = {"card": b.card, "cost": b.cost, "printed": b.printed, "displace": b.displace,
             "displace_value": b.displace_value, "reductions": [[r.amount, r.clause] for r in b.reductions],
             "raw": b.raw, "minimum": b.minimum, "affordable": b.affordable if money is not None else None}
    where = {"upper": "the upper row", "lower": "the lower row", "hand": "the hand",
             "drawn": "the Observatory's draw"}[source]
    disp = f", displacing {b.displace}" if b.displace else ""
    summary = f"{b.cost} rouble{'s' if b.cost != 1 else ''}"
    if money is not None:
        summary += " — affordable" if b.affordable else f" — not affordable with {money}"
    return Answer(
        kind="cost", game=GAME,
        question=f"What does {b.card} cost from {where}{disp} for a player owning {_owned_text(owned)}?",
        summary=summary, value=value, steps=steps, notes=notes,
    )


def _cost_at(card: str, row: str | None, displace: str | None, text: str, seat: int | None) -> Answer:
    """The cost for a seat of a given position: its area, its roubles, the rules of the position's game."""
    state, p = seat_of(text, seat)
    rs = state.rules
    name = rs.names[kind_of(rs, card, "card")]
    source = row or "upper"
    try:
        b = _core().cost_breakdown(state, p, name, source=source,
                                   displace=rs.names[kind_of(rs, displace, "displace")] if displace else None)
    except RuleViolation as exc:
        raise InputError("card", str(exc)) from None
    steps = cost_steps(b) + option_steps(state, p, b)
    steps.append(Step.of("SP-BUY-2", f"P{p} has {b.money} roubles: "
                         + ("enough" if b.affordable else f"{b.cost - b.money} short"), b.affordable))
    value = {"card": b.card, "cost": b.cost, "printed": b.printed, "displace": b.displace,
             "displace_value": b.displace_value, "reductions": [[r.amount, r.clause] for r in b.reductions],
             "raw": b.raw, "minimum": b.minimum, "affordable": b.affordable, "seat": p}
    summary = f"{b.cost} rouble{'s' if b.cost != 1 else ''} — " + (
        "affordable" if b.affordable else f"not affordable with {b.money}")
    return Answer(kind="cost", game=GAME, question=f"What does {b.card} cost P{p} in this position?",
                  summary=summary, value=value, steps=steps,
                  notes=[f"Position: {state.phase} phase of round {state.round}; P{p} owns "
                         f"{_owned_text(list(state.cards('area', p)))}."])


POSITION = Param("position", str, "a position instead (notation line, JSON state or @FILE)", required=False,
                 metavar="TEXT")
SEAT = Param("seat", int, "with --position: the seat asking (default: the seat to act)", required=False)


register(Question(
    "cost", GAME,
    "the cost of a card for a buyer owning some cards, from a row or the hand, with the derivation",
    (Param("card", str, "the card to buy or play"),
     Param("owns", str, "cards in the buyer's play area (repeat a name for copies)", required=False,
           many=True, metavar="CARD"),
     Param("row", str, "where the card comes from (default upper)", required=False, choices=SOURCES),
     Param("displace", str, "for a trading card: the card it displaces", required=False, metavar="CARD"),
     Param("money", int, "the buyer's roubles (to say whether they can pay)", required=False),
     VARIANT, OPTION, POSITION, SEAT),
    _cost,
    ("arbiter ask cost Market --owns Market Market",
     "arbiter ask cost Bank --displace \"Potjomkin's Village\" --owns 'Carpenter Workshop' --row lower"),
))


# --------------------------------------------------------------------------------------------------
# displace


def _displace(trading: str, target: str, variant: str | None) -> Answer:
    rs = _ruleset(variant, {})
    k = kind_of(rs, trading, "trading")
    t = kind_of(rs, target, "target")
    ok, clause, reason = _core().can_displace(rs.names[k], rs.names[t], variant=rs.variant)
    steps = [Step.of(clause, reason, ok)]
    if ok:
        steps.append(Step.of("SP-TRADE-1", f"the displaced {rs.names[t]} goes to the discard pile"))
        steps.append(Step.of("SP-COST-7", f"{rs.names[k]} then costs {rs.cost[k]} minus {rs.names[t]}'s "
                             f"value {rs.dval[t]}, before the usual reductions, at least 1"))
    else:
        targets = sorted({rs.names[x] for x in rs.targets_of[k]})
        if targets:
            steps.append(Step(None, f"{rs.names[k]} may displace: {', '.join(targets)}"))
    return Answer(kind="displace", game=GAME, question=f"Can {rs.names[k]} displace {rs.names[t]}?",
                  summary=("yes — " if ok else "no — ") + reason, value=ok, steps=steps)


register(Question(
    "displace", GAME, "whether a trading card may displace a given card (pairings, colours, trading cards)",
    (Param("trading", str, "the trading card", metavar="TRADING_CARD"),
     Param("target", str, "the card it would displace", metavar="CARD"), VARIANT),
    _displace,
    ("arbiter ask displace 'Gold Smelter' 'Czar and Carpenter'", "arbiter ask displace Bank Harbor"),
))


# --------------------------------------------------------------------------------------------------
# bonus


def _variety_clause(n: int) -> str:
    rows = read_toml(spec_dir(GAME) / "scoring.toml").get("variety", [])
    last = max((r["distinct"] for r in rows), default=0)
    for r in rows:
        if r["distinct"] == min(n, last):
            return str(r["clause"])
    return "SP-END-4"


def _bonus(distinct: int) -> Answer:
    if distinct < 0:
        raise InputError("distinct", f"a number of different aristocrats is 0 or more, got {distinct}")
    vp = _catalog().variety_bonus(distinct)
    steps = [Step.of(_variety_clause(distinct), f"{min(distinct, 10)} different aristocrats: {vp} VP", vp)]
    if distinct > 10:
        steps.append(Step.of("SP-END-5", f"{distinct} different aristocrats score as 10", vp))
    return Answer(kind="bonus", game=GAME,
                  question=f"How many VP are {distinct} different aristocrats worth at the final scoring?",
                  summary=f"{vp} VP", value=vp, steps=steps,
                  notes=["Red trading cards count as aristocrats; each name counts once (SP-END-4)."])


register(Question(
    "bonus", GAME, "the final-scoring bonus for n different aristocrats",
    (Param("distinct", int, "number of different aristocrats", metavar="N"),),
    _bonus,
    ("arbiter ask bonus 7", "arbiter ask bonus 12"),
))


# --------------------------------------------------------------------------------------------------
# card facts


_PHASE_OF_COLOUR = {"green": "worker", "blue": "building", "red": "aristocrat"}
_SCORE_CLAUSE = {"green": "SP-SCORE-1", "blue": "SP-SCORE-2", "red": "SP-SCORE-3"}
_KINDS = {"green": "green card (workers and green trading cards)", "blue": "blue card (buildings and blue "
          "trading cards)", "red": "red card (aristocrats and red trading cards)"}


def _effect_text(effect: str | None, params: Mapping[str, Any]) -> str:
    """What a card's effect does, in words, from its parameters (``""`` without an effect)."""
    if effect == "displace_value":
        return f"counts as {params['value']} roubles when a trading card displaces it"
    if effect == "hand_limit":
        return f"its owner may hold up to {params['limit']} cards in hand"
    if effect == "pub":
        return (f"right after each building scoring its owner may buy up to {params['max_vp']} VP at "
                f"{params['roubles_per_vp']} roubles each")
    if effect == "observatory":
        return (f"once in the {params['phase']} phase its owner may turn it as their action to draw the top "
                "card of a stack (not a stack's last), then buy it, take it into hand or discard it; turned, "
                "it scores no VP that round")
    if effect == "cost_reduction":
        return f"its owner pays {params['amount']} rouble less for every {params['colour']} card"
    return ""


def card_scoring(c: Any) -> str:
    """When and how a card scores, by its colour's phase: printed income and per-card income."""
    parts = []
    if c.roubles:
        parts.append(f"{c.roubles} R")
    if c.vp:
        parts.append(f"{c.vp} VP")
    params = dict(c.params)
    if c.effect == "per_card_income":
        each = " + ".join(x for x in (f"{params['roubles']} R" if params["roubles"] else "",
                                      f"{params['vp']} VP" if params["vp"] else "") if x)
        parts.append(f"{each} per {_KINDS[params['count_colour']]} its owner has")
    phase = _PHASE_OF_COLOUR[c.colour]
    if not parts:
        return f"scores nothing at the {phase} scoring"
    return f"scores {' + '.join(parts)} at the {phase} scoring"


def _card(name: str, variant: str | None) -> Answer:
    from engine.query.search import mentions

    rs = _ruleset(variant, {})
    k = kind_of(rs, name, "name")
    c = rs.cards[k]
    names = _catalog().card_names().get(c.key)
    scoring = card_scoring(c)
    effect = _effect_text(c.effect, dict(c.params))
    rows = [["stack", c.stack], ["colour", c.colour], ["cost", str(c.cost)], ["scoring", scoring],
            ["effect", effect or "—"], ["copies", str(c.copies)]]
    if c.trading:
        rows.append(["displaces", ", ".join(sorted({rs.names[t] for t in rs.targets_of[k]}))])
    if names is not None:
        rows.append(["names", "; ".join([*names.en, *names.de, *names.ru])])
    book = load_clauses(GAME)
    steps = [Step.of(c.clause, f"{c.name}: {c.stack} card, cost {c.cost}, {c.copies} cop"
                     f"{'y' if c.copies == 1 else 'ies'}")]
    base = _catalog().ruleset("first").cards[k]
    if c.edition_clause is not None and c.edition_clause != c.clause:
        changed = [f"named {c.name} (first edition: {base.name})"] if c.name != base.name else []
        changed += [f"costs {c.cost} (first edition: {base.cost})"] if c.cost != base.cost else []
        steps.append(Step.of(c.edition_clause, f"{rs.variant} edition: {', '.join(changed)}"))
    steps.append(Step.of(_SCORE_CLAUSE[c.colour], f"{c.name} {scoring}"))
    if c.colour == "red":
        steps.append(Step.of("SP-END-4", "it counts toward the aristocrat variety bonus at the final "
                             "scoring"))
    # the card's own rules: the clauses that name it, in this edition (a first-edition rule the edition's
    # delta replaced, e.g. the Mariinskij Theater's roubles in the second edition, is not its rule here)
    first = base.clause
    _cards, clauses = mentions(c.key, game=GAME)
    for clause in clauses:
        cid = clause.id
        if cid in (c.clause, _SCORE_CLAUSE[c.colour]):
            continue
        if clause.variants and rs.variant not in clause.variants:
            continue
        if cid == first and first != c.clause:
            continue
        steps.append(Step.of(cid, book[cid].topic))
    income = " + ".join(x for x in (f"{c.roubles} R" if c.roubles else "", f"{c.vp} VP" if c.vp else "") if x)
    value = {"key": c.key, "name": c.name, "stack": c.stack, "colour": c.colour, "cost": c.cost,
             "roubles": c.roubles, "vp": c.vp, "copies": c.copies, "effect": c.effect,
             "trading": c.trading, "scoring": scoring, "effect_text": effect or None,
             "income": income or None}
    summary = f"{c.colour} {c.stack} card, cost {c.cost}; {scoring}"
    if effect:
        summary += f"; {effect}"
    summary += f"; {c.copies} in the stack"
    return Answer(kind="card", game=GAME, question=f"What is the card {c.name} ({rs.variant} edition)?",
                  summary=summary, value=value, headers=("fact", "value"), rows=rows, steps=steps)


register(Question(
    "card", GAME, "a card's facts: stack, colour, cost, income, copies, effect, names in every language",
    (Param("name", str, "a card name in any language or edition (e.g. 'Zar Peter')", metavar="CARD"),
     VARIANT),
    _card,
    ("arbiter ask card 'Zar Peter'", "arbiter ask card Abbot --variant second"),
))


# --------------------------------------------------------------------------------------------------
# hand limit, Pub


def _handlimit(owns: list[str], variant: str | None, position: str | None = None,
               seat: int | None = None) -> Answer:
    if position is not None:
        state, p = seat_of(position, seat)
        return _handlimit(list(state.cards("area", p)), state.rules.variant)
    rs = _ruleset(variant, {})
    area = tuple(sorted(kind_of(rs, n, "owns") for n in owns))
    legal = importlib.import_module("engine.petersburg.legal")
    limit = legal.hand_limit(rs, area)
    steps = [Step.of(legal.HAND_CLAUSE,
                     f"the hand limit is {legal.HAND_LIMIT} unless an effect raises it: {limit}", limit)]
    raised = legal.hand_limit_clause(rs, area)
    if raised != legal.HAND_CLAUSE:
        steps.append(Step.of(raised, f"a hand_limit effect in the area raises it to {limit}", limit))
    return Answer(kind="handlimit", game=GAME,
                  question=f"How many cards may a player owning {_owned_text(owns)} hold in hand?",
                  summary=f"{limit} cards", value=limit, steps=steps,
                  notes=["Losing the raising card keeps the cards in hand, but no card may be taken until "
                         "the hand is below the limit again (SP-HAND-3)."])


register(Question(
    "handlimit", GAME, "the hand limit of a player owning some cards",
    (Param("owns", str, "cards in the player's area", required=False, many=True, metavar="CARD"), VARIANT,
     POSITION, SEAT),
    _handlimit,
    ("arbiter ask handlimit --owns Warehouse",),
))


def _pub(money: int, owns: list[str], variant: str | None) -> Answer:
    rs = _ruleset(variant, {})
    if money < 0:
        raise InputError("money", f"roubles are 0 or more, got {money}")
    area = tuple(sorted(kind_of(rs, n, "owns") for n in owns))
    vp = _core().pub_capacity(rs, area, money)
    pubs = sum(1 for k in area if rs.pub_max[k])
    steps = [Step.of("SP-PUB-1", f"{pubs} Pub(s) owned, {money} roubles: at most {vp} VP this building "
                     "scoring", vp)]
    return Answer(kind="pub", game=GAME,
                  question=f"How many VP can a player owning {_owned_text(owns)} buy at the Pub with {money} "
                           "roubles?",
                  summary=f"at most {vp} VP", value=vp, steps=steps)


register(Question(
    "pub", GAME, "how many VP a player can buy at the Pub right after the building scoring",
    (Param("money", int, "the player's roubles"),
     Param("owns", str, "cards in the player's area (Pubs)", required=False, many=True, metavar="CARD"),
     VARIANT),
    _pub,
    ("arbiter ask pub 9 --owns Pub", "arbiter ask pub 30 --owns Pub Pub"),
))


# --------------------------------------------------------------------------------------------------
# final scoring


def _final(owns: list[str], money: int, hand: list[str], variant: str | None, *, position: str | None = None,
           seat: int | None = None) -> Answer:
    if position is not None:
        state, p = seat_of(position, seat)
        return _final(list(state.cards("area", p)), state.money[p], list(state.cards("hand", p)),
                      state.rules.variant)
    rs = _ruleset(variant, {})
    if money < 0:
        raise InputError("money", f"roubles are 0 or more, got {money}")
    state = seat_position(rs, owns, money, hand)
    b = _core().final_breakdown(state, 0)
    steps = [
        Step.of(_variety_clause(b["distinct_uncapped"]),
                f"{b['distinct_uncapped']} different aristocrats: {b['variety']} VP",
                b["variety"]),
        Step.of("SP-END-6", f"{money} roubles: {b['money']} VP", b["money"]),
        Step.of("SP-END-7", f"{len(hand)} card(s) in hand: {b['hand']} VP", b["hand"]),
    ]
    if b["distinct_uncapped"] > b["distinct_capped"]:
        cap = b["distinct_capped"]
        steps.insert(1, Step.of("SP-END-5", f"more than {cap} different aristocrats score as {cap}"))
    return Answer(kind="final", game=GAME,
                  question=f"What does the final scoring add for a player owning {_owned_text(owns)}, with "
                           f"{money} roubles and {len(hand)} card(s) in hand?",
                  summary=f"{b['total']:+d} VP", value=b, steps=steps,
                  notes=["The roubles are kept: they break a tie on VP (SP-END-8)."])


register(Question(
    "final", GAME, "the final-scoring VP of a player: aristocrat variety, money, cards in hand",
    (Param("owns", str, "cards in the player's area", required=False, many=True, metavar="CARD"),
     Param("money", int, "the player's roubles", required=False, default=0),
     Param("hand", str, "cards in the player's hand", required=False, many=True, metavar="CARD"),
     VARIANT, POSITION, SEAT),
    _final,
    ("arbiter ask final --owns Author Administrator Pope --money 27 --hand Market",),
))


# --------------------------------------------------------------------------------------------------
# set-up, end, variants


@game_handler("setup", GAME)
def setup_answer(players: int, variant: str | None, options: Mapping[str, Any]) -> Answer:
    """Set-up of a Saint Petersburg game for ``players``, from the set-up table the engine deals with."""
    catalog = _catalog()
    rs = _ruleset(variant, options)
    if players not in catalog.SETUPS:
        count_clause = importlib.import_module("engine.petersburg.catalog").GAME_META["clause"]
        raise InputError("players", f"{count_clause}: Saint Petersburg is for {min(catalog.SETUPS)} to "
                         f"{max(catalog.SETUPS)} players, got {players}")
    spec = catalog.SETUPS[players]
    stacks = {s: sum(rs.cards[k].copies for k in kinds) for s, kinds in zip(catalog.STACKS, rs.stack_kinds,
                                                                              strict=True)}
    steps = [
        Step.of("SP-GAME-1", f"{players} player(s)"),
        Step.of("SP-SETUP-1", "four shuffled stacks: " + ", ".join(f"{s} {n}" for s, n in stacks.items())),
        Step.of("SP-SETUP-2", f"each player starts with {spec.money} roubles, 0 VP, empty hand and area",
                spec.money),
        Step.of(spec.clause, f"start-player markers per seat: {sorted(spec.markers, reverse=True)}"
                + ("; which seat holds more is dealt at random" if len(set(spec.markers)) > 1 else "")),
        Step.of("SP-SETUP-4", f"{spec.first_workers} workers face up in the upper row", spec.first_workers),
    ]
    value = {"players": players, "money": spec.money, "first_workers": spec.first_workers,
             "markers": sorted(spec.markers, reverse=True), "stacks": stacks}
    return Answer(kind="setup", game=GAME,
                  question=f"How is a {players}-player game of Saint Petersburg set up?",
                  summary=f"{spec.money} roubles each, {spec.first_workers} workers in the upper row, "
                          f"markers {sorted(spec.markers, reverse=True)}",
                  value=value, steps=steps)


@game_handler("end", GAME)
def end_answer(variant: str | None, options: Mapping[str, Any]) -> Answer:
    """When Saint Petersburg ends and how the final scoring and the winner are decided."""
    _ruleset(variant, options)
    catalog = _catalog()
    book = load_clauses(GAME)
    ids = [c.id for c in book.values() if c.topic in ("end", "final scoring", "result")]
    steps = [Step.of(cid, book[cid].topic) for cid in ids]
    final = dict(catalog.FINAL)
    value = {"clauses": ids, "roubles_per_vp": final.get("roubles_per_vp"),
             "vp_per_hand_card": final.get("vp_per_hand_card"), "variety_max": catalog.variety_bonus(99)}
    return Answer(kind="end", game=GAME, question="When does a game of Saint Petersburg end, and who wins?",
                  summary="after the trading card phase of the round in which a stack placed its last card; "
                          "then variety bonus, 1 VP per 10 roubles, -5 VP per card in hand; most VP wins, "
                          "ties to the most roubles",
                  value=value, steps=steps)


@game_handler("variants", GAME)
def variants_answer() -> Answer:
    """The editions and options of Saint Petersburg."""
    catalog = _catalog()
    rows = [[name, edition, ", ".join(catalog.edition_clauses(edition))]
            for name, edition in catalog.VARIANTS.items()]
    steps = [Step.of("SP-VARIANT-1", "two editions")]
    steps += [Step.of(o.clause, f"option {o.name} (default {str(o.default).lower()}): {o.description}")
              for o in catalog.OPTIONS.values()]
    return Answer(kind="variants", game=GAME,
                  question="Which variants and options does Saint Petersburg have?",
                  summary=", ".join(catalog.VARIANTS) + "; options: " + ", ".join(catalog.OPTIONS),
                  value={"variants": list(catalog.VARIANTS), "options": list(catalog.OPTIONS)},
                  headers=("variant", "edition", "clauses"), rows=rows, steps=steps)


# --------------------------------------------------------------------------------------------------
# explain


@register_explainer(GAME)
def explain_petersburg(game: Game, state: Any, action: Any, refusal: RuleViolation | None) -> Explanation:
    """The whole chain of why the action is allowed or refused, from the engine's own derivation
    (``GAME.why``: the granting clause, phase, turn, source or hand, displacement, the cost with each
    reduction and the minimum, and when and how the card scores), and what would make it legal."""
    core = _core()
    model = importlib.import_module("engine.petersburg.model")
    why = core.GAME.why(state, action)
    steps: list[Step] = derivation_steps(why)
    notes: list[str] = []
    value: dict[str, Any] = {"granted_by" if why.says == "legal" else "refused_by": why.clause}
    if isinstance(action, (model.Buy, model.Play)):
        source = "hand" if isinstance(action, model.Play) else action.source
        try:
            b = core.cost_breakdown(state, action.player, action.card, source=source,
                                    displace=action.displace)
        except RuleViolation:
            b = None
        if b is not None:
            value["cost"] = b.cost
            value["summary"] = f"costs {b.cost} rouble{'s' if b.cost != 1 else ''}"
            if not b.affordable:
                notes.append(f"To make it legal: have at least {b.cost} roubles ({b.cost - b.money} more), "
                             "or lower the cost (an identical card owned, the lower row, a Carpenter "
                             "Workshop / Gold Smelter).")
        rs = state.rules
        k = rs.kind.get(action.card)
        if k is not None and rs.is_trading[k]:
            try:
                targets = core.displacement_targets(state, action.player, action.card)
            except RuleViolation:
                targets = ()
            if refusal is not None and refusal.clause in ("SP-TRADE-1", "SP-TRADE-3", "SP-TRADE-5"):
                if targets:
                    notes.append(f"To make it legal: displace one of {', '.join(targets)}.")
                else:
                    allowed = sorted({rs.names[t] for t in rs.targets_of[k]})
                    notes.append(f"To make it legal: first own a card {action.card} may displace "
                                 f"({', '.join(allowed)}); a trading card may still be taken into hand "
                                 "without a target (SP-HAND-5).")
    if isinstance(action, model.Take) and 0 <= action.player < state.players:
        limit = core.hand_limit(state.rules, state.areas[action.player])
        held = len(state.hands[action.player])
        value["summary"] = f"into hand unpaid ({held + 1} of at most {limit})"
        if refusal is not None and refusal.clause in ("SP-HAND-2", "SP-HAND-3"):
            notes.append(f"To make it legal: play or keep fewer cards — the hand after taking must hold at "
                         f"most {limit} (a Warehouse raises the limit to 4).")
    return Explanation(steps=tuple(steps), notes=tuple(notes), value=value)


# --------------------------------------------------------------------------------------------------
# standings


@game_handler("standings", GAME)
def standings_answer(position: str | None, scores: list[int], money: list[int], variant: str | None,
                     option: list[str]) -> Answer:
    """Rank the seats of a Saint Petersburg position or of plain VP and roubles (SP-END-8, SP-END-6)."""
    core = importlib.import_module("engine.petersburg.scoring")
    notes: list[str] = []
    steps: list[Step] = []
    if position is not None:
        state = importlib.import_module("engine.positions").load_position("petersburg", position,
                                                                          source="position")
        over = bool(state.over)
        if not over:
            final = [core.final_breakdown(state, p)["total"] for p in range(state.players)]
            steps.append(Step.of("SP-END-4", "if the game ended now, the final scoring adds: "
                                 + ", ".join(f"P{p} {t:+d} VP" for p, t in enumerate(final))))
            steps.append(Step.of("SP-END-6", "1 VP per full 10 roubles"))
            steps.append(Step.of("SP-END-7", "-5 VP per card in hand"))
            state = state._replace(vp=tuple(v + t for v, t in zip(state.vp, final, strict=True)))
            notes.append("The game is not over: the ranking adds the final scoring as if it ended now.")
        source = f"the position (round {state.round}, {'over' if over else state.phase})"
    else:
        check_scores(scores, "scores")
        if len(money) != len(scores):
            raise InputError("money", f"give the roubles of each seat ({len(scores)}, in seat order), "
                             f"got {len(money)}")
        for m in money:
            if m < 0:
                raise InputError("money", f"roubles are 0 or more, got {m}")
        rs = _ruleset(variant, _parse_options(option))
        build = importlib.import_module("engine.petersburg.position").position
        try:
            state = build(players=len(scores), variant=rs.variant, options=dict(rs.options), phase="over",
                          last_round=True, vp=scores, money=money)
        except InputError as exc:
            raise InputError({"vp": "scores"}.get(exc.field.split("[")[0], exc.field), exc.message) from None
        over = True
        source = "VP " + " ".join(map(str, scores)) + ", roubles " + " ".join(map(str, money))
    ranking, winners = core.standings(state)
    n = state.players
    tie = [core.tiebreak_money(state, p) for p in range(n)]
    key = {p: (state.vp[p], tie[p]) for p in range(n)}
    place = places(ranking, key)
    kept = bool(dict(state.rules.options)["keep_roubles"])  # the ruleset holds every option
    steps.append(Step.of("SP-END-8", "the most VP wins; a tie on VP goes to the most roubles"))
    if kept:
        steps.append(Step.of("SP-END-6", "the roubles are kept after the final scoring: all of them break "
                             "the tie"))
    else:
        steps.append(Step.of("SP-END-6", "each full 10 roubles was paid in for its VP, so the roubles left ("
                             + ", ".join(f"P{p} {tie[p]}" for p in range(n)) + ") break the tie",
                             chosen="keep_roubles=false"))
    vp_tied = sorted({p for p in range(n) for q in range(n) if p != q and state.vp[p] == state.vp[q]})
    if vp_tied:
        steps.append(Step(None, f"{seat_names(vp_tied)} tied on VP: roubles decide"))
    shared = [p for p in ranking if sum(1 for q in ranking if place[q] == place[p]) > 1]
    if shared:
        steps.append(Step.of("SP-END-9", f"{seat_names(shared)} are still tied on VP and roubles: they share "
                             "the place"))
    else:
        steps.append(Step(None, "no seat is tied on both VP and roubles: every place is one seat's"))
    if n == 1:
        steps.append(Step.of("SP-SOLO-1", "solo: the player is the sole winner; the score is the VP"))
    rows = [[str(place[p]), f"P{p}", str(state.vp[p]), str(state.money[p]),
             *([] if kept else [str(tie[p])]), "winner" if p in winners else ""] for p in ranking]
    headers = ("place", "seat", "VP", "roubles", *(() if kept else ("roubles left (tie-break)",)), "result")
    summary = (f"{seat_names(winners)} {'win' if over else 'lead'}{'' if len(winners) > 1 else 's'}"
               + (" (tied, shared)" if len(winners) > 1 else "")
               + f"; order {' > '.join(f'P{p}' for p in ranking)} by VP, then "
               + ("roubles" if kept else "roubles left after converting"))
    value = {"game": "petersburg", "variant": state.rules.variant, "ranking": list(ranking),
             "winners": list(winners), "over": over, "keep_roubles": kept,
             "places": [{"seat": p, "place": place[p], "vp": int(state.vp[p]), "roubles": int(state.money[p]),
                         "tiebreak": tie[p]} for p in ranking]}
    return Answer(kind="standings", game="petersburg", question=f"Who wins Saint Petersburg from {source}?",
                  summary=summary, value=value, steps=steps,
                  headers=headers, rows=rows, notes=notes)
