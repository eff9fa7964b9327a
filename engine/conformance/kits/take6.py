"""The 6 nimmt! conformance kit: explicit set-up JSON, claimable facts, step tags and illegal candidates.

Explicit set-up (the ``setup`` of a record header or a vector), one entry per round in order::

    [{"type": "deal", "hands": [[3, 17, ...], [1, 55, ...]], "rows": [12, 40, 71, 99]},   a dealt round
     {"type": "draft_start", "player": 1},                    a logic round: the seat that drafts first
     ...]

``hands[p]`` is seat p's hand (kids: the face-down pile, top card first); ``rows[i]`` starts row i.  A
record's set-up deals the first rounds; a round after them waits for its deal, a chance line (``player``
null, record version 3) whose action is the round's entry in this form.

Facts (claims and expected outcomes), all JSON:

==============  ================================================================================
``to_act``      seats that must act now, ascending
``phase``       ``select`` / ``choose`` / ``draft`` / ``flip`` / ``deal`` (waits for a chance line) / ``over``
``round``       round number, from 1
``rows``        the rows, each ascending (row 0 first)
``hands``       each seat's hand, sorted ascending (kids: the pile's cards, sorted)
``piles``       kids only meaningfully: each seat's face-down pile, top card first (else = hands)
``selected``    each seat's hidden selection this turn, or ``null``
``pending``     revealed cards not yet placed, ascending: ``[card, seat]`` pairs
``taken``       cards each seat took this round, sorted
``scores``      bullheads each seat has taken in the whole game (this round included)
``pool``        cards neither in hands nor rows (undealt, or the logic draft pool), sorted
``over``        whether the game has ended
==============  ================================================================================

>>> from engine.game import get_game
>>> g = get_game("take6")
>>> s = g.new_game(2, seed=1)
>>> f = KIT.facts(s)
>>> f["to_act"], f["phase"], len(f["rows"]), [len(h) for h in f["hands"]]
([0, 1], 'select', 4, [10, 10])
>>> KIT.setup_from_json(KIT.setup_to_json(KIT.explicit_setup([s])))[0].rows == tuple(r[0] for r in s.rows)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine.conformance.diagnosis.plan import FaultPlan, TableFaults
from engine.conformance.kits.base import EVERY_FACT, KitBase, Trial
from engine.derivation import Step
from engine.errors import InputError, RuleViolation
from engine.spec import field_clause
from engine.take6.model import Deal, Draft, DraftStart, Flip, Select, State, TakeRow
from engine.take6.rules import BULLHEAD_CLAUSE, BULLHEADS, SHIPPED, VARIANTS, bullheads, rules_for
from engine.take6.transitions import MAY_ACT, NOT_AN_ACTION

__all__ = ["KIT", "Take6Kit", "contradicted_steps"]

FACT_NAMES = ("to_act", "phase", "round", "rows", "hands", "piles", "selected", "pending", "taken", "scores",
              "pool", "over")

# Which topics of clauses.toml decide each fact: a divergence on a fact names these clauses.
FACT_TOPICS: Mapping[str, tuple[str, ...]] = {
    "to_act": ("turn", "rejection", "round", "logic", "kids"),
    "phase": ("turn", "placement", "round", "end"),
    "round": ("round", "end"),
    "rows": ("placement", "professional", "turn", "setup"),
    "hands": ("turn", "setup", "logic"),
    "piles": ("kids",),
    "selected": ("turn",),
    "pending": ("turn", "placement"),
    "taken": ("placement", "penalty"),
    "scores": ("bullheads", "penalty", "round"),
    "pool": ("setup", "deck", "logic", "tactics"),
    "over": ("end", "kids", "countdown"),
    "winners": ("end", "kids", "countdown"),
    "ranking": ("end",),
    "tiebreak": ("end",),
}


LEGAL_CLAUSES: Mapping[type, str] = {Select: "T6-SELECT-1", TakeRow: "T6-PLACE-3", Flip: "T6-KIDS-2",
                                     Draft: "T6-LOGIC-1", Deal: "T6-SETUP-5", DraftStart: "T6-LOGIC-1"}
"""Action kind → the clause that makes such an action legal (a missing or refused one names it)."""

def _max_players(variant: str) -> int:
    for n in range(10, 1, -1):
        try:
            rules_for(variant, n)
        except Exception:
            continue
        return n
    return 2


def _ints(data: Any, where: str) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in data):
        raise InputError(where, "expected a list of card numbers")
    return tuple(data)


class Take6Kit(KitBase):
    """The conformance kit of 6 nimmt! (see the module docstring)."""

    name = "take6"
    fact_names = FACT_NAMES
    forms_clause = NOT_AN_ACTION
    turn_clause = MAY_ACT
    fact_topics = FACT_TOPICS
    unordered = ("hands", "taken")  # hands and taken cards are claimed in any order
    spells: Mapping[str, str] = MappingProxyType({"piles": "hands"})  # the hands in order (kids: face down)
    faults = FaultPlan(
        tables=(
            TableFaults("bullheads.toml", "rule", "clause", fields=("bullheads", "n"), swaps=("bullheads",),
                        drop=True, ordered=True),
            TableFaults("setup.toml", "setup", "name", fields=("rows", "hand_size", "row_capacity")),
            TableFaults("end.toml", "end", "name", fields=("threshold", "rounds", "winner"),
                        swaps=("winner",)),
            TableFaults("deck.toml", "deck", "name", fields=("per_player", "extra")),
            TableFaults("variants.toml", "variant", "name", fields=("placement",)),
        ),
        domains={"winner": ("lowest", "highest"), "placement": ("ends", "ends_and_starts")},
    )
    """The rule values of 6 nimmt! a fault may change (engine.conformance.diagnosis.faults): a bullhead
    rule's value or number (a rule left out, two rules' values swapped), a set-up's rows, hand and row
    capacity, the end's threshold, rounds and winner (two ends' winners swapped), the tactics deck's
    size, a variant's placement."""
    game_over_clause = "T6-ACT-2"

    # -- set-up and chance steps ------------------------------------------------------------------

    def action_player(self, action: Any) -> int | None:
        """The seat of an action; ``None`` for a chance step (a round's ``Deal`` or ``DraftStart``, whose
        ``player`` is the first drafter, not the seat acting)."""
        if isinstance(action, Deal | DraftStart):
            return None
        player: int = action.player
        return player

    def chance_outcome(self, state: Any) -> Any:
        """The deal (logic: the draft start) of the round ``state`` has just started (T6-SETUP-5)."""
        return self.explicit_setup([state])[0]

    def setup_to_json(self, setup: Any) -> Any:
        """``(Deal | DraftStart, ...)`` → JSON list (the form the state's ``deals`` field uses)."""
        out: list[dict[str, Any]] = []
        for item in setup:
            if isinstance(item, DraftStart):
                out.append({"type": "draft_start", "player": item.player})
            else:
                out.append({"type": "deal", "hands": [list(h) for h in item.hands], "rows": list(item.rows)})
        return out

    def setup_from_json(self, data: Any) -> Any:
        """JSON list → ``(Deal | DraftStart, ...)``; raises InputError naming the field."""
        if not isinstance(data, list):
            raise InputError("setup", "expected a list with one entry per round")
        out: list[Deal | DraftStart] = []
        for i, item in enumerate(data):
            where = f"setup[{i}]"
            if not isinstance(item, dict) or item.get("type") not in ("deal", "draft_start"):
                raise InputError(f"{where}.type", "expected an object with type 'deal' or 'draft_start'")
            keys = ("type", "player") if item["type"] == "draft_start" else ("type", "hands", "rows")
            for key in item:
                if key not in keys:
                    raise InputError(f"{where}.{key}", f"unknown field (known: {', '.join(keys)})")
            for key in keys:
                if key not in item:
                    raise InputError(f"{where}.{key}", "required field missing")
            if item["type"] == "draft_start":
                seat = item["player"]
                if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
                    raise InputError(f"{where}.player", "expected a seat number")
                out.append(DraftStart(seat))
            else:
                hands = item["hands"]
                if not isinstance(hands, list):
                    raise InputError(f"{where}.hands", "expected a list of hands")
                dealt = [list(_ints(h, f"{where}.hands[{p}]")) for p, h in enumerate(hands)]
                rows: Any = _ints(item["rows"], f"{where}.rows")
                out.append(Deal(hands=dealt, rows=rows))
        return tuple(out)

    def explicit_setup(self, states: Sequence[Any]) -> Any:
        """The deal (or draft start) of every round the states pass through, in order."""
        out: list[Deal | DraftStart] = []
        last_round = 0
        for state in states:
            s: State = state
            if s.round == last_round:
                continue
            last_round = s.round
            if s.phase == "draft":
                out.append(DraftStart(s.start))
            else:
                starters: Any = tuple(r[0] for r in s.rows)
                out.append(Deal(hands=s.hands, rows=starters))
        return tuple(out)

    # -- facts -------------------------------------------------------------------------------------

    def facts(self, state: Any) -> dict[str, Any]:
        """Every fact of a state (see the table in the module docstring)."""
        s: State = state
        kids = VARIANTS[s.variant].play == "flip"
        return {
            "to_act": list(s.to_act),
            "phase": s.phase,
            "round": s.round,
            "rows": [list(r) for r in s.rows],
            "hands": [sorted(h) for h in s.hands] if kids else [list(h) for h in s.hands],
            "piles": [list(h) for h in s.hands],
            "selected": [c or None for c in s.selected],
            "pending": [[c, p] for c, p in s.pending],
            "taken": [sorted(p) for p in s.piles],
            "scores": list(s.penalties),
            "pool": list(s.stock),
            "over": s.phase == "over",
        }

    # -- names -------------------------------------------------------------------------------------

    def card_names(self, variant: str) -> list[dict[str, Any]]:
        """Every card of ``variant``'s largest deck: cards are named by their number (a JSON integer, no
        alias), with their bullheads and the deck sizes by player count where the deck depends on it."""
        decks = {n: rules_for(variant, n).deck for n in range(2, _max_players(variant) + 1)}
        full = max(decks.values(), key=len)
        out = []
        for card in full:
            players = [n for n, deck in decks.items() if card in deck]
            entry: dict[str, Any] = {"name": card, "aliases": [], "bullheads": bullheads(card)}
            if len(players) != len(decks):
                entry["players"] = [min(players), max(players)]
            out.append(entry)
        return out

    # -- deciding clauses --------------------------------------------------------------------------

    def legal_clause(self, action: Any) -> str:
        """The clause that makes an action of this kind legal (named for a missing or refused action)."""
        return LEGAL_CLAUSES.get(type(action), "T6-ACT-1")

    def deciding(self, game: Any, fact: str, step: tuple[Any, Any, Any] | None, variant: str,
                 claimed: Any = None) -> tuple[str, ...]:
        """The clauses a claim of ``fact`` depends on where no step of the reference derivation is
        contradicted (:meth:`contradicted` decides first): the variant's end and winner rules for the
        result, the deal for what a round starts with."""
        end = SHIPPED.ends[VARIANTS[variant].end]  # end.toml: the clause each field states
        if fact in ("winners", "ranking", "tiebreak"):
            return tuple(dict.fromkeys((field_clause(end, "winner"), field_clause(end, "ties"))))
        if step is None:
            return ()
        b, action, a = step
        if fact == "over" or (a.phase == "over" and fact in ("to_act", "phase")):
            return (field_clause(end, "kind"),) if a.phase == "over" else ("T6-ROUND-1",)
        if isinstance(action, Deal | DraftStart):  # a chance line: the round's deal decides what it holds
            return (LEGAL_CLAUSES[type(action)], "T6-SETUP-2") if fact in ("hands", "piles", "pool", "rows",
                                                                          "phase", "to_act") else ()
        if fact in ("hands", "piles", "pool"):
            if a.round != b.round:
                return ("T6-SETUP-2", "T6-SETUP-5")
            return (LEGAL_CLAUSES.get(type(action), "T6-SELECT-1"),)
        if fact == "round":
            return ("T6-ROUND-1",)
        return ()

    # -- derivations -------------------------------------------------------------------------------

    def contradicted(self, derivation: tuple[Step, ...], fact: str, ours: Mapping[str, Any],
                     theirs: Mapping[str, Any]) -> tuple[Step, ...]:
        """The steps the peer's facts contradict, in causal order (see :func:`contradicted_steps`)."""
        return contradicted_steps(derivation, fact, ours, theirs)

    def trials(self, game: Any, before: Any, action: Any, *, fact: str, ours: Mapping[str, Any],
               theirs: Mapping[str, Any]) -> tuple[Trial, ...]:
        """A score difference that several bullhead rules explain (a card 55 valued 1, or two multiples of
        11 valued 2): per rival rule, the position before the step with one of that rule's taken cards
        swapped for an unused card no rival rule values (the same cards taken otherwise, checked on the
        derivation), and the scores the peer gives there if that rule, and only it, is misvalued."""
        if fact != "scores":
            return ()
        root = Step("T6-TURN-1", "step", steps=tuple(game.derive(before, action)))
        anew = _dealt_anew(root)
        if any(_structural(s, ours, theirs, anew) for s in root.walk()):
            return ()
        found = _explanations(root, ours, theirs)
        if found is None or len(found[2]) < 2:
            return ()
        seat, delta, explaining = found
        rivals = {steps[0].clause for steps in explaining}
        out = []
        for steps in explaining:
            per = delta // len(steps)
            for c in dict.fromkeys(int(s.data["card"]) for s in steps):
                swapped = _swapped(game, before, action, root, seat=seat, card=c, rivals=rivals)
                if swapped is None:
                    continue
                state, derivation, after = swapped
                expect = list(after.penalties)
                for pile in Step("T6-TURN-1", "step", steps=derivation).find(says="taken"):
                    for s in pile.steps:
                        if s.clause == steps[0].clause:
                            expect[pile.data["seat"]] += per
                out.append(Trial(tuple(steps), state, action, "scores", expect))
                break
        return tuple(out) if len(out) == len(explaining) else ()

    def revealing(self, game: Any, before: Any, action: Any, *, fact: str, ours: Mapping[str, Any],
                  theirs: Mapping[str, Any]) -> Trial | None:
        """A score difference after a round's last turn, whose rows and taken cards the next round's deal
        (or the game's end) hides: ``before`` with one more card in every hand (kids: under the pile), so
        the turn is not the round's last and the peer's rows after it show where each card went.  ``None``
        when the step ends no round, too few cards are spare, or the position so made would place the
        turn's cards otherwise (checked on its derivation)."""
        b: State = before
        if fact != "scores" or (ours.get("round") == b.round and ours.get("phase") != "over"):
            return None
        data = game.state_to_json(b)
        hands, piles, penalties = data["hands"], [list(p) for p in data["piles"]], list(data["penalties"])
        # the cards to hand out: the pool's, then (a deck with none to spare) cards taken this round, their
        # bullheads off their seat's score so the position stays whole; no card of the turn is either
        spare = [(c, None) for c in data["stock"]] + [(c, q) for q, pile in enumerate(piles) for c in pile]
        if len(spare) < len(hands):
            return None
        kids = VARIANTS[b.variant].play == "flip"
        more = [[*h, c] if kids else sorted([*h, c]) for h, (c, _) in zip(hands, spare, strict=False)]
        for c, q in spare[:len(hands)]:
            if q is not None:
                piles[q].remove(c)
                penalties[q] -= b.rules.heads[c]
        stock = [c for c, q in spare[len(hands):] if q is None]
        try:
            state = game.from_notation(game.to_notation(game.state_from_json(
                {**data, "hands": more, "stock": stock, "piles": piles, "penalties": penalties})))
            derivation = tuple(game.derive(state, action))
        except (InputError, RuleViolation, ValueError):
            return None
        placed = _placements(derivation)
        if not placed or _placements(tuple(game.derive(b, action)))[:len(placed)] != placed:
            return None
        return Trial(derivation, state, action, EVERY_FACT, None)

    def revealed(self, game: Any, probe: Trial, shown: Any) -> tuple[Step, ...]:
        """The steps of the probe's derivation the peer's rows, taken cards or turn contradict there
        (:func:`contradicted_steps`); its scores alone add nothing to what the round's end showed."""
        if not isinstance(shown, Mapping):
            return ()
        mine = self.facts(game.apply(probe.state, probe.action))
        for name in FACT_NAMES:
            if name != "scores" and name in shown and shown[name] != mine.get(name):
                found = contradicted_steps(probe.steps, name, mine, shown)
                if found:
                    return found
        return ()

    # -- vectors -----------------------------------------------------------------------------------

    def _variant_clauses(self, variant: str) -> list[str]:
        return [c.id for c in self._book.values() if variant in c.variants]

    def step_clauses(self, game: Any, before: Any, action: Any, after: Any) -> tuple[str, ...]:
        """Clauses a legal step exercises: the set-up of a fresh game, then every clause of the step's
        derivation (the engine's own, :meth:`derive`)."""
        b: State = before
        a: State = after
        rules = rules_for(b.variant, b.players, dict(b.options))
        tags: list[str] = []
        fresh = sum(map(len, b.hands)) == b.players * rules.hand_size
        if b.round == 1 and b.phase in ("select", "draft", "flip") and not any(b.piles) and fresh:
            tags += ["T6-DECK-1", "T6-SETUP-1", "T6-SETUP-5", "T6-VAR-1"]
            if b.phase != "draft":
                tags += ["T6-SETUP-2", "T6-SETUP-3"]
            tags += [c for c in self._variant_clauses(b.variant)
                     if self._book[c].topic in ("tactics", "countdown") or c in ("T6-KIDS-1", "T6-KIDS-5")]
        if isinstance(action, TakeRow):
            tags += ["T6-ACT-1", "T6-CHOOSE-1", "T6-CHOOSE-2"]
        elif isinstance(action, Flip):
            tags.append("T6-ACT-1")
        for root in self.derive(game, b, action):
            # a vector gives every round's deal explicitly (T6-SETUP-5), never the seeded shuffle
            tags += ["T6-SETUP-5" if c == "T6-SETUP-4" else c for c in root.clauses()]
        if a.phase == "over" and rules.display == "countdown":
            tags.append("T6-COUNT-1")
        if a.penalties != b.penalties or (a.round != b.round and any(a.penalties)):
            tags.append("T6-BULL-6")
        book = self._book
        return tuple(dict.fromkeys(
            t for t in tags if t in book and (not book[t].variants or b.variant in book[t].variants)
        ))

    def illegal_candidates(self, game: Any, state: Any, rng: random.Random) -> Iterable[tuple[Any, str]]:
        """Actions to try at ``state``: a card not in hand, a second selection, a row choice out of turn or
        out of range, another player's move while one player must act."""
        s: State = state
        acting = s.to_act
        out: list[tuple[Any, str]] = []
        if s.phase == "select":
            p = acting[0]
            foreign = [c for q, h in enumerate(s.hands) if q != p for c in h] + [r[-1] for r in s.rows]
            if foreign:
                card = foreign[rng.randrange(len(foreign))]
                out.append((Select(p, card), f"player {p} selects {card}, a card not in their hand"))
            done = [q for q, c in enumerate(s.selected) if c]
            if done and s.hands[done[0]]:
                q = done[0]
                out.append((Select(q, s.hands[q][0]), f"player {q} selects a second card this turn"))
            out.append((TakeRow(p, 0), f"player {p} chooses a row though no card waits"))
        elif s.phase == "choose":
            p = acting[0]
            n = len(s.rows)
            out.append((TakeRow(p, n), f"player {p} chooses row {n}, which does not exist"))
            others = [q for q in range(s.players) if q != p]
            if others:
                q = others[rng.randrange(len(others))]
                out.append((TakeRow(q, 0), f"player {q} chooses a row while player {p} must"))
                if s.hands[q]:
                    why = f"player {q} selects while player {p} must choose a row"
                    out.append((Select(q, s.hands[q][0]), why))
        elif s.phase == "flip":
            others = [q for q in range(s.players) if q not in acting and s.hands[q]]
            if others:
                q = others[0]
                out.append((Flip(q), f"player {q} flips out of turn"))
        elif s.phase == "draft":
            p = acting[0]
            taken = [c for h in s.hands for c in h] + [r[-1] for r in s.rows]
            if taken:
                out.append((Draft(p, taken[0]), f"player {p} drafts a card no longer in the pool"))
            others = [q for q in range(s.players) if q not in acting]
            if others and s.stock:
                out.append((Draft(others[0], s.stock[0]), f"player {others[0]} drafts out of turn"))
        return [(game.action_to_json(a), d) for a, d in out]


KIT = Take6Kit()


# --------------------------------------------------------------------------------------------------
# Attribution: the steps of the reference derivation a peer's facts contradict

_VALUES = frozenset(BULLHEADS[1:])
"""Every value a rule of the bullhead table gives (the alternatives a misapplied rule can give)."""


def _placements(derivation: tuple[Step, ...]) -> list[tuple[str, str, Any, Any]]:
    """What a turn's derivation did with each card, in order: its steps' clause, conclusion, card and row."""
    return [(s.clause, s.says, s.data.get("card"), s.data.get("row"))
            for root in derivation for s in root.walk() if "card" in s.data]


def _seat_list(facts: Mapping[str, Any], name: str, seat: int) -> list[Any] | None:
    value = facts.get(name)
    if isinstance(value, list) and 0 <= seat < len(value) and isinstance(value[seat], list):
        pile: list[Any] = value[seat]
        return pile
    return None


def _holds(cards: Sequence[int], pile: list[Any] | None) -> bool:
    return pile is not None and all(c in pile for c in cards)


def _row_of(facts: Mapping[str, Any], card: int) -> int | None:
    rows = facts.get("rows")
    if not isinstance(rows, list):
        return None
    return next((i for i, r in enumerate(rows) if isinstance(r, list) and card in r), None)


def _row_count(facts: Mapping[str, Any]) -> int | None:
    """How many rows ``facts`` hold (``None``: no rows claimed)."""
    rows = facts.get("rows")
    return len(rows) if isinstance(rows, list) else None


def _placed(facts: Mapping[str, Any]) -> set[Any]:
    """The cards ``facts`` hold in a row, a pile taken this round, or waiting to be placed."""
    waiting = [x[0] for x in facts.get("pending") or [] if isinstance(x, list) and x]
    groups = (*(facts.get("rows") or []), *(facts.get("taken") or []), waiting)
    return {c for g in groups if isinstance(g, list) for c in g if isinstance(c, int)}


def _placed_where(wait: Step, theirs: Mapping[str, Any]) -> str:
    """Where the peer's rows show the card of a wait for a row choice (:func:`_where_placed`, from the
    search below it); ``""`` when they say nothing or the derivation has no search."""
    searched = next((c for c in wait.steps if c.says == "no-row"), None)
    return _where_placed(searched, theirs) if searched is not None and "rows" in theirs else ""


def _where_placed(searched: Step, theirs: Mapping[str, Any]) -> str:
    """Where the peer's rows show a card that fits no row (``searched``: the search that found none):
    ``beside`` another card (after a row's last card, or before its first in professional: the placement
    rule placed it), ``started`` a row that was not full (a row chosen for it), or ``unknown``: its rows no
    longer show it (taken later, or another round's), or it started a row that was full (its 6th card
    takes a full row as a row choice takes any)."""
    at = _row_of(theirs, searched.data["card"])
    if at is None:
        return "unknown"
    row = theirs["rows"][at]
    i = row.index(searched.data["card"])
    if i > 0 or (len(row) > 1 and row[1] in searched.data.get("starts", ())):
        return "beside"
    lengths = searched.data.get("lengths", [])
    full = at < len(lengths) and lengths[at] >= searched.data.get("capacity", 0)
    return "unknown" if full else "started"


def _dealt_anew(root: Step) -> bool:
    """Whether a derivation ends its round: the rows after it are another round's (dealt, or to be laid
    after a draft), and say nothing of where this round's cards went."""
    return any(s.says in ("dealt", "draft-starts") for s in root.walk())


def _structural(step: Step, ours: Mapping[str, Any], theirs: Mapping[str, Any], anew: bool = False) -> bool:
    """Whether the peer's rows, taken cards or turn contradict what one placement step concluded, or its
    hands what a draft or a flip did (a draft changes no hand but the drafting seat's, by the card drafted;
    a flip no pile but the flipping seat's, by its top card).
    ``anew``: the step's rows are another round's (:func:`_dealt_anew`)."""
    d, says = step.data, step.says
    seat = d.get("seat", -1)
    elsewhere = theirs.get("round", ours.get("round")) != ours.get("round")
    if says in ("room", "sixth", "takes", "row") and elsewhere:
        return False  # the peer went on to another round: its rows and taken cards say nothing of this one's
    if says == "row" and anew:
        return False  # both went on to the next round: its rows hold other cards
    if says in ("sixth", "takes") and not anew and _row_count(theirs) not in (None, _row_count(ours)):
        return True  # the peer has another number of rows: the first step that laid a row anew lost or
        # added one (the rows are only ever replaced there)
    if says in ("room", "sixth", "takes"):
        cards = d.get("cards", [])
        if not cards or "taken" not in theirs:
            return False
        ours_took = _holds(cards, _seat_list(ours, "taken", seat))
        theirs_took = _holds(cards, _seat_list(theirs, "taken", seat))
        return ours_took != theirs_took
    if says == "row" and "rows" in theirs:
        card = d["card"]
        mine, peer = _row_of(ours, card), _row_of(theirs, card)
        if mine is None and isinstance(d.get("row"), int):
            mine = d["row"]  # a row the step went on to take: the card was placed there all the same
        if peer is None:  # in no row of the peer's: not beside the card the rules put it beside, if that
            # card still lies in a row (no row was taken from under it: the card was never placed there)
            beside = next((c[2] for c in d.get("candidates", ()) if c[:2] == [d.get("row"), d.get("side")]),
                          None)
            return isinstance(beside, int) and _row_of(theirs, beside) is not None
        return mine is not None and mine != peer
    if says == "rest" and "rows" in theirs and "taken" in theirs and not elsewhere:
        # the turn's other revealed cards, placed after a row choice: one the rules hold in a row, a pile
        # or waiting that the peer holds nowhere was never placed
        held, shown = _placed(ours), _placed(theirs)
        return any(c in held and c not in shown for c in d["cards"])
    if says == "drafted":  # the draft's one change of the hands: the card into the seat's (T6-LOGIC-1)
        return "hands" in theirs and theirs["hands"] != ours.get("hands") and not elsewhere
    if says == "flipped":  # the flip's one change of the piles: its card off the seat's (T6-KIDS-2)
        return not elsewhere and any(n in theirs and theirs[n] != ours.get(n) for n in ("hands", "piles"))
    if says == "no-row":  # the card placed beside another where none fits: the search that found none
        return "rows" in theirs and _where_placed(step, theirs) == "beside"
    if says == "fits-nowhere" and _placed_where(step, theirs) == "beside":
        return False  # its search is the step contradicted, not the choice that follows
    if says == "fits-nowhere":
        if "to_act" in theirs and theirs["to_act"] != d["to_act"] and ours.get("to_act") == d["to_act"]:
            return True
        return "phase" in theirs and theirs["phase"] != "choose" and ours.get("phase") == "choose"
    return False


def _explanations(
    derivation: Step, ours: Mapping[str, Any], theirs: Mapping[str, Any]
) -> tuple[int, int, list[list[Step]]] | None:
    """For the first seat whose score differs: the seat, the difference, and each rule of the table whose
    cards taken in the step, all valued alike by another value of the table, give exactly the difference
    (one rule misapplied), its bullhead steps.  ``None`` when no seat's score differs."""
    mine, peer = ours.get("scores"), theirs.get("scores")
    if not isinstance(mine, list) or not isinstance(peer, list) or len(mine) != len(peer):
        return None
    seat = next((p for p, (a, b) in enumerate(zip(mine, peer, strict=True)) if a != b), None)
    if seat is None or not isinstance(peer[seat], int) or not isinstance(mine[seat], int):
        return None
    delta = peer[seat] - mine[seat]
    groups: dict[str, list[Step]] = {}
    for pile in derivation.find(says="taken"):
        if pile.data.get("seat") == seat:
            for s in pile.steps:
                groups.setdefault(s.clause, []).append(s)
    explaining = []
    for steps in groups.values():
        n, value = len(steps), steps[0].data["heads"]
        if delta % n == 0 and value + delta // n in _VALUES - {value}:
            explaining.append(steps)
    return seat, delta, explaining


def _swapped(game: Any, before: State, action: Any, root: Step, *, seat: int, card: int,
             rivals: set[str]) -> tuple[State, tuple[Step, ...], State] | None:
    """``before`` with ``card`` (in a row) replaced by an unused card between its neighbours whose rule is
    none of ``rivals``, when the step from there takes the same cards but that one: the position, the
    step's derivation and the position after it; ``None`` when no such card works."""
    data = game.state_to_json(before)
    rows, stock = data["rows"], data["stock"]
    where = next(((i, r.index(card)) for i, r in enumerate(rows) if card in r), None)
    if where is None:
        return None
    i, j = where
    low = rows[i][j - 1] if j else 0
    high = rows[i][j + 1] if j + 1 < len(rows[i]) else card
    taken = sorted(c for s in root.find(says="taken") if s.data.get("seat") == seat for c in s.data["cards"])
    tries = 0
    for other in stock:
        if not low < other < high or BULLHEAD_CLAUSE[other] in rivals:
            continue
        tries += 1
        if tries > 8:
            break
        new_rows = [list(r) for r in rows]
        new_rows[i][j] = other
        new_stock = sorted([c for c in stock if c != other] + [card])
        try:
            state = game.from_notation(game.to_notation(game.state_from_json(
                {**data, "rows": new_rows, "stock": new_stock})))
            derivation = tuple(game.derive(state, action))
            after = game.apply(state, action)
        except (InputError, RuleViolation, ValueError):
            continue
        took = sorted(c for s in Step("T6-TURN-1", "step", steps=derivation).find(says="taken")
                      if s.data.get("seat") == seat for c in s.data["cards"])
        if took == sorted(other if c == card else c for c in taken):
            return state, derivation, after
    return None


def _capacity_steps(derivation: Step, ours: Mapping[str, Any], theirs: Mapping[str, Any]
                    ) -> tuple[Step, ...]:
    """The first capacity step that explains a score difference no bullhead rule explains: a card placed
    as a row's last card short of taking it whose seat's score is too high by that row's bullheads (the
    peer took the row one card early), or as its 6th card whose seat's is too low by them (the peer did not
    take it).  Seen where the peer's taken cards cannot show it (the step ended the round); later seats'
    differences are that step's consequences (the row then fills differently)."""
    mine, peer = ours.get("scores"), theirs.get("scores")
    if not isinstance(mine, list) or not isinstance(peer, list) or len(mine) != len(peer):
        return ()
    for s in derivation.walk():
        d = s.data
        seat = d.get("seat")
        if s.says not in ("room", "sixth") or "cards" not in d or not isinstance(seat, int):
            continue
        if not 0 <= seat < len(mine) or not isinstance(peer[seat], int):
            continue
        delta = peer[seat] - mine[seat]
        heads = sum(bullheads(c) for c in d["cards"])
        if s.says == "room" and d["length"] == d["capacity"] - 1 and delta == heads:
            return (s,)
        if s.says == "sixth" and delta == -heads:
            return (s,)
    return ()


def _bullhead_groups(
    derivation: Step, ours: Mapping[str, Any], theirs: Mapping[str, Any]
) -> tuple[Step, ...]:
    """The bullhead steps that explain a score difference (:func:`_explanations`): of the rules that
    explain it, the ones misvaluing the fewest cards (the simplest explanation; a campaign with positions
    tries a discriminating position first, :meth:`Take6Kit.trials`).  Several left: a candidate set."""
    found = _explanations(derivation, ours, theirs)
    if found is None:
        return ()
    seat, _delta, explaining = found
    if not explaining:
        return _capacity_steps(derivation, ours, theirs) or tuple(
            s for s in derivation.find(says="taken") if s.data.get("seat") == seat)
    fewest = min(map(len, explaining))  # the simplest explanation: the fewest cards misvalued
    return tuple(s for steps in explaining if len(steps) == fewest for s in steps)


def contradicted_steps(derivation: Sequence[Step], fact: str, ours: Mapping[str, Any],
                       theirs: Mapping[str, Any]) -> tuple[Step, ...]:
    """The steps of a 6 nimmt! step's derivation that the peer's facts contradict, the first cause only.

    In the derivation's order: a placement whose row, taken cards or wait for a row choice the peer's
    ``rows`` / ``taken`` / ``to_act`` contradict (the 6th-card rule for a row taken too early or not at
    all, the placement rule for a card in another row, the low-card rule for a choice not awaited; the
    search that found no row for a card the peer placed beside others, T6-PLACE-1, and both where its
    rows cannot tell a placement from a row choice: :func:`_placed_where`; the turn's other cards after a
    row choice, one of which the peer never placed), except that a peer's rows or hands other than those
    of a round dealt within the step contradict that deal (T6-SETUP-4, or T6-SETUP-5 given), and rows laid
    at a logic draft's end with other cards than the draft left contradict the draft (T6-LOGIC-1, as a
    claim of its pool does), with the same cards otherwise laid, the laying (T6-LOGIC-2); then,
    for a score difference, the bullhead rules that explain it (:func:`_bullhead_groups`); then the step
    whose ``to_act`` / ``phase`` differs (the next turn, the wait, the end).

    >>> from engine.take6 import GAME, Deal, Select
    >>> s = GAME.new_game(2, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    ...                     (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)), rows=(30, 40, 50, 60)))
    >>> s = GAME.apply(s, Select(0, 1))
    >>> steps = GAME.derive(s, Select(1, 11))
    >>> [x.clause for x in contradicted_steps(steps, "to_act", {"to_act": [0], "phase": "choose"},
    ...                                        {"to_act": [0, 1]})]
    ['T6-PLACE-3']
    """
    root = Step("T6-TURN-1", "step", steps=tuple(derivation))
    dealt = [s for s in root.walk() if s.says == "dealt"]
    if dealt and fact in ("rows", "hands", "piles", "pool") and theirs.get(fact) != ours.get(fact):
        # a round dealt within the step: its rows, hands (the kids' piles) and the pool it left are the
        # deal's (given, T6-SETUP-5, or seeded): the peer's others contradict it
        deal = dealt[-1].data
        said = [[c] for c in deal["rows"]] if fact == "rows" else deal["hands"] if fact != "pool" else None
        if said is None or theirs.get(fact) != said:
            return (dealt[-1],)
    drafted = [s for s in root.walk() if s.says == "drafted"]
    laid = [s for s in root.walk() if s.says == "rows" and "rows" in s.data]
    if drafted and laid and fact == "rows" and theirs.get("rows") != ours.get("rows"):
        # the rows laid from what the draft left (T6-LOGIC-2): other cards are another pool left by the
        # draft, named as a claim of the pool is (its drafted step, T6-LOGIC-1); the same cards laid
        # otherwise are the laying
        # (a draft's end takes and holds back no card: what the peer holds placed is its rows' cards)
        return (laid[-1],) if _placed(theirs) == set(laid[-1].data["rows"]) else (drafted[-1],)
    anew = _dealt_anew(root)
    for s in root.walk():
        if _structural(s, ours, theirs, anew):
            if s.says == "fits-nowhere" and _placed_where(s, theirs) == "unknown":
                return (s, *(c for c in s.steps if c.says == "no-row"))  # placed, or a row chosen: both
            return (s,)
    if "scores" in theirs and theirs.get("scores") != ours.get("scores"):
        found = _bullhead_groups(root, ours, theirs)
        if found:
            return found
    for name in ("to_act", "phase"):
        if name in theirs and theirs[name] != ours.get(name):
            concluding = [s for s in root.walk() if name in s.data]
            if concluding:
                return (concluding[-1],)
    return ()
