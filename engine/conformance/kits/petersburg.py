"""The Saint Petersburg conformance kit: explicit set-up JSON, claimable facts, step tags, illegal candidates.

Explicit set-up (the ``setup`` of a record header or a vector): every stack's order, top card first, by
card name (any edition's name is accepted), and the seat holding each phase's start-player marker::

    {"stacks": {"worker": ["Shepherd", ...], "building": [...], "aristocrat": [...], "trading": [...]},
     "markers": {"worker": 0, "building": 1, "aristocrat": 0, "trading": 1}}

The first worker phase's upper row is drawn from the top of the worker stack.

Facts (claims and expected outcomes), all JSON; cards by the edition's names:

===============  ===============================================================================
``to_act``       the seat that must act now (a one-element list), ``[]`` when over or a card awaits
                 its reveal (a chance line ``{"type": "reveal", "card": NAME}``, player null)
``round``        round number, from 1
``phase``        ``worker`` / ``building`` / ``aristocrat`` / ``trading``
``money``        roubles per seat
``scores``       VP per seat
``hands``        each seat's hand, names sorted
``areas``        each seat's play area, names sorted
``upper``        the upper row, in board order (``?STACK``: drawn from that stack, not yet revealed)
``lower``        the lower row, in board order
``stacks``       cards left in each stack: ``[worker, building, aristocrat, trading]``
``markers``      the seat holding each phase's marker: ``[worker, building, aristocrat, trading]``
``drawn``        the Observatory's drawn card, or ``null``
``over``         whether the game has ended
===============  ===============================================================================

>>> from engine.petersburg import GAME, Setup
>>> s = GAME.new_game(2, seed=1)
>>> f = KIT.facts(s)
>>> f["money"], f["phase"], len(f["upper"]), f["stacks"]
([25, 25], 'worker', 4, [27, 28, 27, 30])
>>> KIT.setup_from_json(KIT.setup_to_json(KIT.explicit_setup([s]))) == Setup.seeded(2, seed=1)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.conformance.diagnosis.plan import FaultPlan, TableFaults
from engine.conformance.kits.base import KitBase
from engine.derivation import Step
from engine.errors import IllegalAction, InputError
from engine.petersburg import (
    Buy,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Reveal,
    Setup,
    Take,
    can_displace,
    cost_breakdown,
)
from engine.petersburg.catalog import COLOURS, PHASES, STACKS
from engine.petersburg.checks import MAY_ACT, NOT_AN_ACTION
from engine.petersburg.effects import HANDLERS
from engine.petersburg.model import State
from engine.petersburg.names import resolve_card

__all__ = ["KIT", "PetersburgKit", "contradicted_steps"]

PHASE_NAMES = tuple(p.name for p in PHASES)
FACT_NAMES = ("to_act", "round", "phase", "money", "scores", "hands", "areas", "upper", "lower", "stacks",
              "markers", "drawn", "over")

FACT_TOPICS: Mapping[str, tuple[str, ...]] = {
    "to_act": ("turn", "phases", "effects"),
    "round": ("end of round", "end"),
    "phase": ("phases",),
    "money": ("cost", "buy", "hand", "scoring", "set-up", "effects", "trading cards"),
    "scores": ("scoring", "final scoring", "effects"),
    "hands": ("hand", "effects"),
    "areas": ("buy", "hand", "trading cards"),
    "upper": ("refill", "end of round", "buy", "set-up"),
    "lower": ("refill", "end of round", "buy"),
    "stacks": ("refill", "set-up", "effects"),
    "markers": ("end of round", "set-up"),
    "drawn": ("effects",),
    "over": ("end",),
    "winners": ("result",),
    "ranking": ("result",),
    "tiebreak": ("result",),
}

# Clauses every legal action of a kind exercises (the rest come from the engine's own narration and cost
# derivation).
ACTION_CLAUSES: Mapping[type, tuple[str, ...]] = {
    Buy: ("SP-TURN-1", "SP-TURN-2", "SP-BUY-1", "SP-BUY-2", "SP-BUY-3", "SP-COST-1", "SP-PHASE-5"),
    Take: ("SP-TURN-1", "SP-TURN-2", "SP-HAND-1", "SP-HAND-2"),
    Play: ("SP-TURN-1", "SP-TURN-2", "SP-HAND-4", "SP-BUY-2", "SP-COST-1"),
    Pass: ("SP-TURN-1", "SP-TURN-2", "SP-TURN-3"),
    Observe: ("SP-TURN-1", "SP-TURN-2", "SP-OBS-1", "SP-OBS-2", "SP-OBS-3"),
    Discard: ("SP-OBS-4", "SP-OBS-6"),
    PubBuy: ("SP-PUB-1", "SP-PUB-2"),
    Reveal: ("SP-REVEAL-1",),
}
LEGAL_CLAUSES: Mapping[type, str] = {Buy: "SP-BUY-1", Take: "SP-HAND-1", Play: "SP-HAND-4", Pass: "SP-TURN-3",
                                     Observe: "SP-OBS-1", Discard: "SP-OBS-4", PubBuy: "SP-PUB-1",
                                     Reveal: "SP-REVEAL-1"}
"""Action kind → the clause that makes such an action legal (a missing or refused one names it)."""

START_CLAUSES = ("SP-GAME-1", "SP-GAME-2", "SP-VARIANT-1", "SP-VARIANT-2", "SP-CARD-1", "SP-CARD-2",
                 "SP-CARD-3", "SP-CARD-4", "SP-CARD-5", "SP-SETUP-1", "SP-SETUP-2", "SP-SETUP-3",
                 "SP-SETUP-4", "SP-SETUP-6", "SP-EFFECT-1", "SP-PHASE-1")


def _fault_plan() -> FaultPlan:
    """The rule values of Saint Petersburg a fault may change (engine.conformance.diagnosis.faults): every
    card's cost, income, VP, colour and symbols (an effect left out or its parameter changed), an edition's
    changed cost, the cost and board parameters, the final scoring, the pairings, the set-up's money and
    first workers.  A step an effect's handler takes is left out by dropping every effect of that kind
    (``skip``: the Carpenter Workshop's and the Gold Smelter's colour reduction, SP-COST-4); a turned
    Observatory's lost income (SP-OBS-5), a purchase's payment (SP-BUY-1) and the displaced card's value
    (SP-COST-7) by the ruleset's skips; the payment, a reducer's rouble and the displaced value negated (a
    sign slip: the ruleset's ``negated``, :data:`~engine.petersburg.ruleset.NEGATABLE`); the affordability
    bound one off (SP-BUY-2: ``<`` for "at most", :data:`~engine.petersburg.ruleset.BOUNDED`)."""
    from engine.petersburg import GAME
    from engine.petersburg.catalog import CARDS
    from engine.petersburg.ruleset import BOUNDED, NEGATABLE, SKIPPABLE, ruleset

    aliases = {c.name: c.key for edition in GAME.variants for c in ruleset(edition).cards if c.name != c.key}
    skips: dict[str, tuple[str, ...]] = dict.fromkeys(SKIPPABLE, ())  # the ruleset's own skips
    for handler in HANDLERS.values():
        holders = [c.key for c in CARDS if c.effect == handler.kind]
        if len(holders) > 1:
            skips[handler.clause] = tuple(f"petersburg:drop:cards/{key}/effect" for key in holders)
    return FaultPlan(
        tables=(
            TableFaults("cards.toml", "card", "name", fields=("cost", "roubles", "vp", "colour", "symbols"),
                        swaps=("cost", "roubles", "vp"), effect="effect",
                        defaults={"roubles": 0, "vp": 0, "symbols": []}),
            TableFaults("editions.toml", "delta", "card@edition", fields=("cost",), effect="effect"),
            TableFaults("phases.toml", "param", "name", fields=("value",)),
            TableFaults("scoring.toml", "variety", "distinct", fields=("vp",)),
            TableFaults("scoring.toml", "final", "name", fields=("value",)),
            TableFaults("pairings.toml", "pairing", "trading", fields=("symbol",), drop=True),
            TableFaults("pairings.toml", "colour_rule", "colour", fields=("match",)),
            TableFaults("setup.toml", "setup", "players", fields=("money", "first_workers")),
        ),
        domains={"colour": COLOURS, "count_colour": COLOURS, "phase": PHASE_NAMES,
                 "variety_colour.value": COLOURS, "match": ("any", "symbol")},
        skips=skips,
        negations=NEGATABLE,
        bounds=BOUNDED,
        aliases=aliases,
    )


def _names(data: Any, where: str) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
        raise InputError(where, "expected a list of card names")
    return tuple(data)


class PetersburgKit(KitBase):
    """The conformance kit of Saint Petersburg (see the module docstring)."""

    name = "petersburg"
    fact_names = FACT_NAMES
    forms_clause = NOT_AN_ACTION
    turn_clause = MAY_ACT
    faults = _fault_plan()
    fact_topics = FACT_TOPICS
    unordered = ("hands", "areas")  # hands and areas are claimed in any order
    game_over_clause = "SP-END-1"


    # -- set-up ------------------------------------------------------------------------------------

    def setup_to_json(self, setup: Any) -> Any:
        """:class:`Setup` → JSON object keyed by stack and phase names."""
        return {"stacks": {st: list(setup.stacks[i]) for i, st in enumerate(STACKS)},
                "markers": {ph: setup.markers[i] for i, ph in enumerate(PHASE_NAMES)}}

    def setup_from_json(self, data: Any) -> Any:
        """JSON → :class:`Setup`; raises InputError naming the field (the engine checks the contents)."""
        if not isinstance(data, dict) or set(data) != {"stacks", "markers"}:
            raise InputError("setup", "expected an object with fields 'stacks' and 'markers'")
        stacks, markers = data["stacks"], data["markers"]
        if not isinstance(stacks, dict) or set(stacks) != set(STACKS):
            raise InputError("setup.stacks", f"expected an object with fields {', '.join(STACKS)}")
        if not isinstance(markers, dict) or set(markers) != set(PHASE_NAMES):
            raise InputError("setup.markers", f"expected an object with fields {', '.join(PHASE_NAMES)}")
        for ph in PHASE_NAMES:
            if isinstance(markers[ph], bool) or not isinstance(markers[ph], int):
                raise InputError(f"setup.markers.{ph}", "expected a seat number")
        return Setup(stacks=tuple(_names(stacks[st], f"setup.stacks.{st}") for st in STACKS),
                     markers=tuple(markers[ph] for ph in PHASE_NAMES))

    def explicit_setup(self, states: Sequence[Any]) -> Any:
        """The set-up of the first state: the worker stack is the dealt upper row, then the rest."""
        s: State = states[0]
        names = s.rules.names
        stacks = [tuple(names[k] for k in st) for st in s.stacks]
        stacks[0] = tuple(names[k] for k in s.upper) + stacks[0]
        return Setup(stacks=tuple(stacks), markers=tuple(s.markers))

    def action_player(self, action: Any) -> int | None:
        """The seat of an action; ``None`` for the chance step ``Reveal`` (a card drawn from a stack of
        unknown order, SP-REVEAL-1)."""
        if isinstance(action, Reveal):
            return None
        player: int = action.player
        return player

    # -- facts -------------------------------------------------------------------------------------

    def facts(self, state: Any) -> dict[str, Any]:
        """Every fact of a state (see the table in the module docstring)."""
        s: State = state
        names = s.rules.names
        from engine.petersburg import GAME

        return {
            "to_act": list(GAME.to_act(s)),
            "round": s.round,
            "phase": PHASE_NAMES[s.phase_index],
            "money": list(s.money),
            "scores": list(s.vp),
            "hands": [sorted(names[k] for k in h) for h in s.hands],
            "areas": [sorted(names[k] for k in a) for a in s.areas],
            "upper": list(s.cards("upper")),
            "lower": [names[k] for k in s.lower],
            "stacks": [len(st) for st in s.stacks],
            "markers": list(s.markers),
            "drawn": s.cards("drawn")[0] if s.drawn >= 0 else None,
            "over": s.over,
        }

    # -- names -------------------------------------------------------------------------------------

    def card_names(self, variant: str) -> list[dict[str, Any]]:
        """Every card kind of ``variant``'s edition: the canonical name (the one states, facts and records
        use), every other spelling the engine accepts (other editions' names, the names table's aliases;
        any case), stack, copies and cost."""
        from engine.petersburg import VARIANTS, card_names, catalog

        edition = VARIANTS[variant]
        others = {e: {c.key: c.name for c in catalog(e)} for e in set(VARIANTS.values()) if e != edition}
        table = card_names()
        out = []
        for c in catalog(edition):
            spellings = [n[c.key] for n in others.values()]
            extra = table.get(c.key)
            if extra is not None:
                spellings += [*extra.en, *extra.de, *extra.ru, *extra.seed_terms]
            aliases = [a for a in dict.fromkeys(spellings) if a != c.name]
            out.append({"name": c.name, "aliases": aliases, "stack": c.stack, "copies": c.copies,
                        "cost": c.cost})
        return out

    # -- deciding clauses --------------------------------------------------------------------------

    def legal_clause(self, action: Any) -> str:
        """The clause that makes an action of this kind legal (named for a missing or refused action)."""
        return LEGAL_CLAUSES.get(type(action), "SP-TURN-1")

    def deciding(self, game: Any, fact: str, step: tuple[Any, Any, Any] | None, variant: str,
                 claimed: Any = None) -> tuple[str, ...]:
        """The clauses whose outcome a claim of ``fact`` after ``step`` (``(before, action, after)``, or
        ``None`` for the start or the final result) depends on, the deciding one first.

        A money claim after a purchase is traced through the cost derivation (:func:`cost_breakdown`): the
        minimum (SP-COST-6) when the peer charged less than it but not below nothing (a purchase that
        credits money is no minimum missed, as no price is below 1), else the reduction or displaced value
        whose amount the difference equals, else the printed cost.
        """
        if fact == "winners":
            return ("SP-END-8", "SP-END-9")
        if fact in ("ranking", "tiebreak"):
            return ("SP-END-8", "SP-END-9")
        if step is None:
            return ()
        b, action, a = step
        if fact == "money" and isinstance(action, Buy | Play):
            return self._money_clauses(b, action, a, claimed)
        roots = self.derive(game, b, action)
        narrated = list(dict.fromkeys(c for root in roots for c in root.clauses()))
        if fact == "hands" and isinstance(action, Take | Play):
            return (LEGAL_CLAUSES[type(action)], "SP-HAND-2")
        if fact == "scores" and isinstance(action, PubBuy):
            return ("SP-PUB-1",)
        if fact in ("money", "scores", "over", "to_act", "phase", "round", "upper", "lower", "stacks"):
            topics = set(self.fact_topics.get(fact, ()))
            # a step concluding that nothing is scored (SP-SCORE-5) decides no difference in money or VP
            quiet = {"no-scoring"} if fact in ("money", "scores") else set()
            counted = dict.fromkeys(s.clause for root in roots for s in root.walk() if s.says not in quiet)
            mine = [c for c in counted if c in self._book and self._book[c].topic in topics]
            return tuple(mine or narrated)
        return ()

    def _money_clauses(self, b: State, action: Any, a: State, claimed: Any) -> tuple[str, ...]:
        source = "hand" if isinstance(action, Play) else action.source
        try:
            cb = cost_breakdown(b, action.player, action.card, source=source, displace=action.displace)
        except IllegalAction:
            return ("SP-COST-1",)
        order = ["SP-COST-1", *(r.clause for r in cb.reductions)]
        if cb.displace_clause:
            order.append(cb.displace_clause)
        order.append("SP-COST-6")
        first: str | None = None
        seat = action.player
        if isinstance(claimed, list) and len(claimed) == len(a.money) and isinstance(claimed[seat], int):
            diff = claimed[action.player] - a.money[action.player]  # > 0: the peer charged less
            paid = cb.cost - diff
            if diff > 0 and cb.cost == cb.minimum and _minimum_missed(paid, cb.minimum):
                first = "SP-COST-6"
            elif cb.displace_clause and abs(diff) == cb.displace_value:
                first = cb.displace_clause
            else:
                first = next((r.clause for r in cb.reductions if r.amount == abs(diff)), None)
        elif cb.cost == cb.minimum and cb.raw < cb.minimum:
            first = "SP-COST-6"
        if first is None:
            first = "SP-COST-1"
        return tuple(dict.fromkeys([first, *order]))

    # -- derivations -------------------------------------------------------------------------------

    def contradicted(self, derivation: tuple[Step, ...], fact: str, ours: Mapping[str, Any],
                     theirs: Mapping[str, Any]) -> tuple[Step, ...]:
        """The steps the peer's facts contradict (see :func:`contradicted_steps`)."""
        return contradicted_steps(derivation, fact, ours, theirs)

    def refuted(self, why: Step) -> tuple[Step, ...]:
        """A buy or play refused as too dear (SP-BUY-2) that the peer allows: the minimum (SP-COST-6) when
        the price without it is affordable; an owned reducer the rules apply to nothing here whose rouble
        off makes it affordable (``no-reduction``, SP-COST-4 / SP-COST-5; several: a candidate set); else
        the card's price (SP-COST-1, ``subject`` the card)."""
        if why.clause != "SP-BUY-2":
            return ()
        dear = next(iter(why.find(clause="SP-BUY-2", says="too-dear")), None)
        price = next(iter(why.find(says="price")), None)
        if dear is None or price is None:
            return ()
        minimum, least, raw = _minimum_of(price)
        money = dear.data["money"]
        if minimum is not None and minimum.says == "minimum" and raw <= money:
            return (minimum,)
        return _spared(price.steps, lambda off: max(least, raw - off) <= money) or (price,)

    def denied(self, why: Step) -> tuple[Step, ...]:
        """A purchase the rules grant that the peer denies, priced at exactly the seat's money: the
        affordability test (SP-BUY-2 ``affordable``), the one step whose outcome a bound one off flips there
        (``<`` where the rules say "at most"); priced below it, the reductions whose omission alone would
        make it too dear (SP-COST-2..4, several: a candidate set); else ``()``.

        >>> from engine.petersburg import GAME, Buy, position
        >>> s = position(players=2, upper=["Market", "Author"], money=[5, 25])
        >>> [[x.clause for x in KIT.denied(GAME.why(s, Buy(0, c, "upper")))] for c in ("Market", "Author")]
        [['SP-BUY-2'], []]
        """
        ok = next(iter(why.find(clause="SP-BUY-2", says="affordable")), None)
        if ok is None:
            return ()
        cost, money = int(ok.data["cost"]), int(ok.data["money"])
        if cost == money:
            return (ok,)
        # below the bound: the reductions whose omission would price the card beyond the seat's money
        price = next(iter(why.find(says="price")), None)
        return () if price is None else tuple(
            s for s in price.steps if s.says == "reduction" and cost + int(s.data["amount"]) > money)

    # -- vectors -----------------------------------------------------------------------------------

    def step_clauses(self, game: Any, before: Any, action: Any, after: Any) -> tuple[str, ...]:
        """Clauses a legal step exercises: the action kind's, the cost derivation's, and every clause the
        engine's narration of the step cites."""
        b: State = before
        a: State = after
        tags: list[str] = list(ACTION_CLAUSES.get(type(action), ()))
        start = b.round == 1 and b.phase_index == 0 and b.turn == b.markers[0]
        if start and not any(b.areas) and not any(b.hands):
            tags += START_CLAUSES
            if b.players == 1:
                tags.append("SP-SOLO-1")
            if b.rules.variant != "first":
                tags.append("SP-EDITION-1")
        if isinstance(action, Buy | Play):
            source = "hand" if isinstance(action, Play) else action.source
            try:
                cb = cost_breakdown(b, action.player, action.card, source=source, displace=action.displace)
            except IllegalAction:
                cb = None
            if cb is not None:
                tags += [r.clause for r in cb.reductions]
                if cb.displace_clause:
                    tags.append(cb.displace_clause)
                if cb.cost == cb.minimum and sum(r.amount for r in cb.reductions) > 0:
                    tags.append("SP-COST-6")
            if action.displace is not None:
                tags += ["SP-TRADE-1", "SP-COST-7", "SP-TRADE-5"]
            if action.displace is not None:
                ok, clause, _why = can_displace(action.card, action.displace, variant=b.rules.variant)
                if ok:
                    tags.append(clause)
        if isinstance(action, Take):
            if len(b.hands[action.player]) >= 3:
                tags.append("SP-WAREHOUSE-1")
            kind = resolve_card(action.card)
            if kind is not None and b.rules.cards[kind].stack == "trading":
                tags.append("SP-HAND-5")
        roots = self.derive(game, b, action)
        narrated = list(dict.fromkeys(c for root in roots for c in root.clauses()))
        tags += narrated
        # the phases whose scoring (phases.toml: its clause, the colour it scores) the step applied
        for phase in b.rules.book.phases:
            if phase.scores < 0 or phase.clause not in narrated:
                continue
            tags.append("SP-SCORE-4")
            colour = COLOURS[phase.scores]
            for area in b.areas:
                for k in area:
                    card = b.rules.cards[k]
                    if card.effect == "per_card_income" and card.colour == colour:
                        tags.append(card.clause)
            if any(b.rules.cards[k].colour == colour for turned in b.turned for k in turned):
                tags.append("SP-OBS-5")  # a turned card of the colour scored scores nothing this round
        if a.phase_index != b.phase_index or a.round != b.round:
            tags += ["SP-PHASE-3"]
        if a.round != b.round:
            tags += ["SP-SCORE-5", "SP-ROUND-2"]
        book = self._book
        return tuple(dict.fromkeys(
            t for t in tags if t in book and (not book[t].variants or b.rules.variant in book[t].variants)
        ))

    def illegal_candidates(self, game: Any, state: Any, rng: random.Random) -> Iterable[tuple[Any, str]]:
        """Actions to try: another seat's pass, buying / taking / playing every visible card (the engine's
        refusals name the clause), trading cards against every card of the area, the Observatory on every
        stack, a Pub purchase; a random sample of them at each position."""
        s: State = state
        acting = game.to_act(s)
        if not acting:
            return []
        p = acting[0]
        names = s.rules.names
        legal = set(game.legal_actions(s, p))
        out: list[tuple[Any, str]] = []
        others = [q for q in range(s.players) if q != p]
        if others:
            out.append((Pass(others[0]), f"player {others[0]} passes out of turn"))
        area = sorted({names[k] for k in s.areas[p]})
        for src, row in (("upper", s.upper), ("lower", s.lower)):
            for k in row:
                card = names[k]
                out.append((Buy(p, card, src), f"player {p} buys {card} from the {src} row"))
                out.append((Take(p, card, src), f"player {p} takes {card} from the {src} row"))
                for target in area[:3]:
                    out.append((Buy(p, card, src, target), f"player {p} buys {card} displacing {target}"))
        other_row = {"upper": "lower", "lower": "upper"}
        for src, row in (("upper", s.upper), ("lower", s.lower)):
            if row:
                card = names[row[0]]
                out.append((Buy(p, card, other_row[src]), f"player {p} buys {card} from the wrong row"))
        for k in s.hands[p]:
            out.append((Play(p, names[k]), f"player {p} plays {names[k]} from hand"))
        for st in STACKS:
            out.append((Observe(p, st), f"player {p} uses an Observatory on the {st} stack"))
        out.append((PubBuy(p, 1), f"player {p} buys 1 VP at a Pub"))
        if s.drawn >= 0:
            out.append((Discard(p, names[s.drawn]), f"player {p} discards the drawn {names[s.drawn]}"))
        elif s.upper:
            out.append((Discard(p, names[s.upper[0]]), f"player {p} discards a card not drawn"))
        illegal = [(act, why) for act, why in out if act not in legal]
        rng.shuffle(illegal)
        return [(game.action_to_json(act), why) for act, why in illegal[:8]]


def _seat_diffs(fact: str, ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[int, int]:
    """Per seat, the peer's value of a per-seat number fact (``money``, ``scores``) less ours."""
    a, b = ours.get(fact), theirs.get(fact)
    if not isinstance(a, list) or not isinstance(b, list) or len(a) != len(b):
        return {}
    return {p: y - x for p, (x, y) in enumerate(zip(a, b, strict=True))
            if isinstance(y, int) and not isinstance(y, bool) and y != x}


def _cards_apart(ours: Any, theirs: Any) -> set[str]:
    """The cards one side's per-seat lists (``areas``) hold more copies of than the other's, in any seat.

    >>> sorted(_cards_apart([["Market", "Pub"], []], [["Market"], ["Pub"]]))
    ['Pub']
    """
    if not isinstance(ours, list) or not isinstance(theirs, list) or len(ours) != len(theirs):
        return set()
    out: set[str] = set()
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(a, list) and isinstance(b, list):
            mine = Counter(x for x in a if isinstance(x, str))
            peer = Counter(x for x in b if isinstance(x, str))
            out.update((mine - peer) | (peer - mine))
    return out


def _minimum_missed(charged: int, least: int) -> bool:
    """Whether a peer charging ``charged`` for a card the minimum prices at ``least`` (SP-COST-6) missed the
    minimum: it charged less, but not below nothing (a purchase that credits money is no minimum missed,
    as no price is below 1: the price itself is the difference).

    >>> _minimum_missed(0, 1), _minimum_missed(-3, 1), _minimum_missed(1, 1)
    (True, False, False)
    """
    return 0 <= charged < least


def _price_steps(price: Step, diff: int) -> tuple[Step, ...]:
    """The steps of one price (an SP-COST-1 ``price`` step) that explain the peer charging ``diff`` roubles
    less (``diff`` > 0) or more (< 0) than the reference: the minimum when the peer charged less than it
    but not below nothing (a purchase that credits money is no minimum missed: no price is below 1); the
    reductions / displaced value whose omission gives the peer's price (several: a candidate set); an owned
    reducer the rules apply to nothing here (``no-reduction``: another colour, or a trading card the
    option leaves out) whose rouble off gives it; else the printed price itself."""
    children = price.steps
    minimum, least, raw = _minimum_of(price)
    theirs = int(price.data.get("cost", 0)) - diff
    if diff > 0 and minimum is not None and minimum.says == "minimum" and _minimum_missed(theirs, least):
        return (minimum,)
    if diff < 0:
        found = tuple(s for s in children if s.says in ("reduction", "displaced-value")
                      and max(least, raw + int(s.data.get("amount", 0))) == theirs)
        if found:
            return found
    if diff > 0:  # reducers owned that the rules say reduce nothing here, taken off all the same
        found = _spared(children, lambda off: max(least, raw - off) == theirs)
        if found:
            return found
    return (price,)


def _minimum_of(price: Step) -> tuple[Step | None, int, int]:
    """A price's minimum step (SP-COST-6), the minimum it applied (0 without one) and the price before it
    (the cost itself without one)."""
    minimum = next((s for s in price.steps if s.clause == "SP-COST-6"), None)
    if minimum is None:
        return None, 0, int(price.data.get("cost", 0))
    return minimum, int(minimum.data["minimum"]), int(minimum.data["raw"])


def _spared(children: Sequence[Step], gives: Callable[[int], bool]) -> tuple[Step, ...]:
    """Of a price's ``no-reduction`` steps (owned reducers the rules apply to nothing here), those whose
    roubles off ``gives`` what the peer shows: each one that does alone (several: a candidate set), else
    all of them together (two reducers of another colour, both taken off)."""
    idle = [s for s in children if s.says == "no-reduction"]
    alone = tuple(s for s in idle if gives(int(s.data.get("amount", 0))))
    if alone or len(idle) < 2:
        return alone
    return tuple(idle) if gives(sum(int(s.data.get("amount", 0)) for s in idle)) else ()


def _money_steps(root: Step, diffs: Mapping[int, int]) -> tuple[Step, ...]:
    for paid in root.find(says="paid"):
        seat = paid.data.get("seat")
        if isinstance(seat, int) and seat in diffs:
            price = next((s for s in paid.steps if s.says == "price"), None)
            if price is not None:
                return _price_steps(price, diffs[seat])
    return ()


def _parts(root: Step, seat: int, diff: int) -> list[Step]:
    """The parts of ``seat``'s final scoring (or its Pub purchase) whose VP is ``diff`` either way."""
    return [s for s in root.walk() if s.data.get("seat") == seat and s.says in ("variety", "money", "hand",
            "pub-bought") and abs(int(s.data.get("vp", 0))) == abs(diff)]


def _income_steps(root: Step, fact: str, diffs: Mapping[int, int]) -> tuple[Step, ...]:
    """Card incomes of the first differing seat whose amount equals its difference; for VP, the parts of
    its final scoring whose amount is its difference where every differing seat has a part of that name
    whose amount is its own (a part left out is left out for all); else that seat's whole income (or
    final scoring).  The first differing seat decides: another seat's part of the same amount, or a part
    matching in one seat only, would be a coincidence."""
    key = "roubles" if fact == "money" else "vp"
    for seat, diff in diffs.items():
        cards = [s for s in root.walk() if s.says == "card-income" and s.data.get("seat") == seat]
        found = tuple(s for s in cards if s.data.get(key) == -diff or (diff > 0 and s.data.get(key) == diff))
        if found:
            return found
        if fact == "scores":
            everywhere = set.intersection(*({s.says for s in _parts(root, q, d)} for q, d in diffs.items()))
            found = tuple(s for s in _parts(root, seat, diff) if s.says in everywhere)
            if found:
                return found
        income = [s for s in root.walk() if s.says in ("income", "final") and s.data.get("seat") == seat]
        if income:
            return (income[0],)
    return ()


def _ends(root: Step, ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> tuple[Step, ...]:
    """The steps saying that the game or a phase ends, or goes on, that the peer's facts contradict:

    * a peer whose game is over where the rules' goes on: the round's end saying it goes on (SP-END-1);
      the final scoring and the refill it did not make follow from it;
    * a pass the phase went on after (SP-PHASE-3 ``goes-on``) where the peer's phase, scores or money
      differ: it ended the phase; where only who acts differs, it ended the phase (the Pub decisions keep
      the building phase's name and its scoring may earn nothing) or slipped in the next turn (SP-PHASE-2):
      both, a candidate set;
    * a pass that ended the phase (``phase-over``) where the peer is still in it: its money and scores are
      the rules' less the scoring's incomes (it did not score it), or, for a phase without a scoring, the
      rules' phase moved on, or the rules' game ended there and the peer's goes on; one that scored it as
      the rules do and stayed holds Pub decisions the step saying there are none contradicts (SP-PUB-2
      ``no-pub``, beside each Pub owner it leaves out as one who can afford no VP, SP-PUB-1 ``affords``;
      a scoring that earned nothing cannot tell the two apart: both, a candidate set); one
      that scored it otherwise is the scoring's (the incomes, below: who may buy at the Pub follows from
      the money);
    * the Pub's last decision taken (SP-PUB-2 ``pub-over``) where the peer, its money and scores alike,
      is still in the phase the Pub kept: it holds decisions the rules do not (the refill and the next
      phase follow from it);
    * a game the rules end where the peer's goes on: the game's end (SP-END-1).
    """
    walked = tuple(root.walk())
    ending = [s for s in walked if s.says in ("game-over", "goes-on") and "over" in s.data]
    game = bool(ending) and "over" in theirs and theirs["over"] != ours.get("over")
    if game and theirs["over"]:
        return (ending[0],)  # its phase ended: the game did, where the rules' goes on

    def differ(*names: str) -> bool:
        return any(n in theirs and theirs[n] != ours.get(n) for n in names)

    goes_on = [s for s in walked if s.says == "goes-on" and "phase" in s.data]
    if goes_on and differ("phase", "scores", "money"):
        return (goes_on[0],)
    if goes_on and differ("to_act"):
        # who acts, alone: the phase ended here (the Pub's decisions keep its name, its scoring may earn
        # nothing) or the next turn slipped: both, a candidate set another divergence may discriminate
        turn = [s for s in walked if "to_act" in s.data and s.data["to_act"] != theirs["to_act"]]
        return (goes_on[0], *turn[-1:])
    over = [s for s in walked if s.says == "pub-over"]
    stayed = bool(over) and theirs.get("phase") == over[0].data["phase"] != ours.get("phase")
    if stayed and not differ("money", "scores"):
        return (over[0],)  # the peer still holds Pub decisions where the last was taken
    ended = [s for s in walked if s.says == "phase-over"]
    if ended and theirs.get("phase") == ended[0].data["phase"]:
        if any(s.says == "no-scoring" for s in walked):
            # no scoring: its phase shows it went on where the rules' moved on, or where the rules ended the
            # game (the phase stays) and the peer's goes on
            moved = ours.get("phase") != ended[0].data["phase"] and differ("phase")
            return (ended[0],) if moved or game else ()
        incomes = [s for s in walked if s.says == "income"]
        earned = any(s.data.get("roubles") or s.data.get("vp") for s in incomes)
        if earned and _unscored(incomes, ours, theirs):
            return (ended[0],)
        none = [s for s in walked if s.says == "no-pub"]
        if none and differ("phase", "to_act") and not differ("money", "scores"):
            # a Pub owner left out could afford no VP (SP-PUB-1), so it is not asked (SP-PUB-2): a peer
            # asking one breaks either, a candidate set another divergence may discriminate
            asked = (none[0], *none[0].steps)
            return asked if earned else (ended[0], *asked)
    return (ending[0],) if game else ()


def _unscored(incomes: Sequence[Step], ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> bool:
    """Whether the peer's money and scores are the rules' less every seat's income of the scoring
    (``incomes``): the peer did not score the phase at all (one that scored it otherwise differs else)."""
    for name, key in (("money", "roubles"), ("scores", "vp")):
        mine, peer = ours.get(name), theirs.get(name)
        if not isinstance(mine, list) or not isinstance(peer, list) or len(mine) != len(peer):
            return False
        before = list(mine)
        for s in incomes:
            seat = s.data.get("seat")
            if isinstance(seat, int) and 0 <= seat < len(before):
                before[seat] -= int(s.data.get(key) or 0)
        if peer != before:
            return False
    return True


def contradicted_steps(derivation: Sequence[Step], fact: str, ours: Mapping[str, Any],
                       theirs: Mapping[str, Any]) -> tuple[Step, ...]:
    """The steps of a Saint Petersburg step's derivation that the peer's facts contradict.

    First the ends a step decided that the peer's facts contradict (:func:`_ends`): whatever else differs
    follows from them.  A money difference after a buy or a play: the step of the price it contradicts
    (the reduction the peer omitted, ``subject`` the card granting it; two equal reductions: both, a
    candidate set; the minimum SP-COST-6 when the peer charged less than it; else the printed price
    SP-COST-1 of the card).  A money or VP difference at a scoring: the card incomes (or final-scoring
    parts) whose amount is the difference.  A card in one side's area only: the last step below the
    action's own naming it (a displaced card kept: SP-TRADE-1).  A differing ``stacks`` or ``upper`` after
    a refill: the refill steps (how many cards each drew, none when the board was full).  Then the last
    step concluding a differing ``to_act`` / ``phase``, the fact asked about first.

    >>> from engine.petersburg import GAME, Buy, position
    >>> s = position(players=2, upper=["Author"], areas=[["Gold Smelter"], []])
    >>> steps = GAME.derive(s, Buy(0, "Author"))
    >>> [(x.clause, x.data["subject"]) for x in contradicted_steps(steps, "money", {"money": [21, 25]},
    ...                                                            {"money": [20, 25]})]
    [('SP-COST-4', 'Gold Smelter')]
    """
    root = Step("SP-TURN-1", "step", steps=tuple(derivation))
    ended = _ends(root, ours, theirs)
    if ended:
        return ended
    for name in ("money", "scores"):
        if name in theirs and theirs.get(name) != ours.get(name):
            diffs = _seat_diffs(name, ours, theirs)
            if not diffs:
                continue
            found = _money_steps(root, diffs) if name == "money" else ()
            if not found:
                found = _income_steps(root, name, diffs)
            if found:
                return found
    if "areas" in theirs and theirs["areas"] != ours.get("areas"):
        # a card in one seat's area and not the other's: the last step below the action's own that names
        # it (a displaced card left in the area: the displacement, SP-TRADE-1, whatever bought it)
        apart = _cards_apart(ours.get("areas"), theirs.get("areas"))
        named = [s for s in root.walk() if s.says not in ("paid", "taken") and s.data.get("card") in apart]
        if named:
            return (named[-1],)
    for name in ("stacks", "upper"):  # the rows and stacks a refill concludes: its steps (SP-REFILL-1)
        if name in theirs and theirs[name] != ours.get(name):
            refills = [s for s in root.walk() if s.says == "refill"]
            if refills:
                return tuple(refills)
    for name in sorted(("to_act", "phase"), key=lambda n: n != fact):  # the fact asked about first
        if name in theirs and theirs[name] != ours.get(name):
            concluding = [s for s in root.walk() if name in s.data and s.data[name] != theirs[name]]
            if concluding:
                return (concluding[-1],)
    return ()


KIT = PetersburgKit()
