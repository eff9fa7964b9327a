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
from typing import Any

from engine.conformance.kits import KitBase
from engine.errors import InputError
from engine.spec import Field, load_table
from engine.take6.model import Deal, Draft, DraftStart, Flip, Select, State, TakeRow
from engine.take6.placement import locate
from engine.take6.rules import VARIANTS, bullheads, rules_for

__all__ = ["KIT", "Take6Kit"]

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

TAKE_CLAUSES = frozenset({"T6-PLACE-2", "T6-PLACE-3", "T6-PRO-4", "T6-PRO-5"})
"""Placement clauses under which a player takes a row."""


def _taken_rows(b: State, a: State) -> list[list[int]]:
    """The cards each seat took in a step (the growth of the penalty piles)."""
    return [list(pa[len(pb):]) for pb, pa in zip(b.piles, a.piles, strict=True) if len(pa) > len(pb)]


def _bullhead_clauses() -> dict[int, str]:
    """``{card: clause}`` from the ordered bullhead table (the first matching rule decides)."""
    rules = load_table("take6", "bullheads.toml", "rule", [
        Field("when", str), Field("n", int, required=False), Field("bullheads", int), Field("count", int),
        Field("clause", str, clause_ref=True),
    ])
    high = max(c for v in VARIANTS.values() for c in rules_for(v.name, _max_players(v.name)).deck)
    out: dict[int, str] = {}
    for card in range(1, high + 1):
        for rule in rules:
            n = rule["n"]
            if rule["when"] == "otherwise" or (rule["when"] == "equals" and card == n) or (
                rule["when"] == "multiple_of" and card % n == 0
            ):
                out[card] = rule["clause"]
                break
    return out


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
    fact_topics = FACT_TOPICS
    game_over_clause = "T6-ACT-2"

    def __init__(self) -> None:
        super().__init__()
        self._bull = _bullhead_clauses()
        ends = load_table("take6", "end.toml", "end", [
            Field("name", str), Field("kind", str), Field("threshold", int, required=False),
            Field("rounds", int, required=False), Field("winner", str), Field("ties", str),
            Field("clauses", list, clause_ref=True),
        ])
        self._end_clauses: dict[str, tuple[str, ...]] = {e["name"]: tuple(e["clauses"]) for e in ends}

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

    def normalise(self, fact: str, value: Any) -> Any:
        """Claims spell hands and taken cards in any order; the facts sort them."""
        if fact in ("hands", "taken") and isinstance(value, list) and all(isinstance(h, list) for h in value):
            try:
                return [sorted(h) for h in value]
            except TypeError:
                return value
        return value

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
        """The clauses whose outcome a claim of ``fact`` after ``step`` (``(before, action, after)``, or
        ``None`` for the start or the final result) depends on, the deciding one first."""
        end = self._end_clauses[VARIANTS[variant].end]
        if fact in ("winners", "ranking", "tiebreak"):
            return (end[1], *end[2:]) if len(end) > 1 else tuple(end)
        if step is None:
            return ()
        b, action, a = step
        rules = rules_for(b.variant, b.players, dict(b.options))
        if fact == "over" or (a.phase == "over" and fact in ("to_act", "phase")):
            return (end[0],) if a.phase == "over" else ("T6-ROUND-1",)
        if isinstance(action, Deal | DraftStart):  # a chance line: the round's deal decides what it holds
            return (LEGAL_CLAUSES[type(action)], "T6-SETUP-2") if fact in ("hands", "piles", "pool", "rows",
                                                                          "phase", "to_act") else ()
        placements = self._placements(b, action, rules)
        takes = [c for p in placements for c in p.clauses if c in TAKE_CLAUSES]
        if fact in ("to_act", "phase", "pending", "selected"):
            if a.phase == "choose":
                waiting = locate(a.rows, a.pending[0][0], rules.placement, rules.capacity, rules.tie_to_start)
                return waiting.clauses
            if isinstance(action, Select) and a.phase == "select" and any(a.selected):
                return ("T6-SELECT-2",)
            if a.round != b.round:
                return ("T6-ROUND-1", "T6-ROUND-2")
            return ("T6-TURN-1", "T6-TURN-2")
        if fact in ("rows", "taken", "scores"):
            if isinstance(action, TakeRow):
                takes.insert(0, "T6-PRO-5" if rules.placement == "ends_and_starts" else "T6-PLACE-3")
            placed = [c for p in placements for c in p.clauses]
            if fact == "scores":
                bulls = [self._bull[c] for row in _taken_rows(b, a) for c in row]
                return (*takes, "T6-PILE-1", *bulls, "T6-ROUND-2")
            return (*takes, *placed, "T6-TURN-1")
        if fact in ("hands", "piles", "pool"):
            if a.round != b.round:
                return ("T6-SETUP-2", "T6-SETUP-5")
            return (LEGAL_CLAUSES.get(type(action), "T6-SELECT-1"),)
        if fact == "round":
            return ("T6-ROUND-1",)
        return ()

    def _placements(self, b: State, action: Any, rules: Any) -> list[Any]:
        """The placements a step resolves, in order (as :meth:`step_clauses` walks them)."""
        rows = [tuple(r) for r in b.rows]
        cards: list[tuple[int, int]] = []
        if isinstance(action, Select):
            if sum(1 for c in b.selected if c) + 1 == b.players:
                cards = sorted((c or action.card, p) for p, c in enumerate(b.selected)
                               if c or p == action.player)
        elif isinstance(action, TakeRow) and b.pending:
            rows[action.row] = (b.pending[0][0],)
            cards = list(b.pending[1:])
        elif isinstance(action, Flip) and b.hands[action.player]:
            cards = [(b.hands[action.player][0], action.player)]
        out = []
        for card, _player in cards:
            p = locate(rows, card, rules.placement, rules.capacity, rules.tie_to_start)
            out.append(p)
            if p.row is None:
                break
            if p.sixth:
                rows[p.row] = (card,)
            elif p.side == "start":
                rows[p.row] = (card, *rows[p.row])
            else:
                rows[p.row] = (*rows[p.row], card)
        return out


    # -- vectors -----------------------------------------------------------------------------------

    def _variant_clauses(self, variant: str) -> list[str]:
        return [c.id for c in self._book.values() if variant in c.variants]

    def step_clauses(self, game: Any, before: Any, action: Any, after: Any) -> tuple[str, ...]:
        """Clauses a legal step exercises, from the action and what it changed."""
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
        cards: list[tuple[int, int]] = []
        rows = [tuple(r) for r in b.rows]
        if isinstance(action, Select):
            tags.append("T6-SELECT-1")
            if a.phase == "select" and a.round == b.round and any(a.selected):
                tags.append("T6-SELECT-2")
            else:
                cards = sorted((c or action.card, p) for p, c in enumerate(b.selected)
                               if c or p == action.player)
                if len(cards) > 1:
                    tags += ["T6-TURN-1", "T6-TURN-2"]
        elif isinstance(action, TakeRow):
            tags += ["T6-ACT-1", "T6-CHOOSE-1", "T6-CHOOSE-2", "T6-PILE-1"]
            tags.append("T6-PRO-5" if rules.placement == "ends_and_starts" else "T6-PLACE-3")
            card = b.pending[0][0]
            tags += [self._bull[c] for c in b.rows[action.row]]
            rows[action.row] = (card,)
            cards = list(b.pending[1:])
        elif isinstance(action, Flip):
            tags += ["T6-KIDS-2", "T6-ACT-1"]
            cards = [(b.hands[action.player][0], action.player)]
        elif isinstance(action, Draft):
            tags.append("T6-LOGIC-1")
            if a.phase != "draft":
                tags.append("T6-LOGIC-2")
        tie_start = rules.option_map.get("professional_tie") == "start"
        for card, _player in cards:
            p = locate(rows, card, rules.placement, rules.capacity, tie_start)
            tags += list(p.clauses)
            if p.row is None:
                break
            if p.sixth:
                tags += ["T6-PILE-1", *(self._bull[c] for c in rows[p.row])]
                rows[p.row] = (card,)
            elif p.side == "start":
                rows[p.row] = (card, *rows[p.row])
            else:
                rows[p.row] = (*rows[p.row], card)
        if a.round != b.round or a.phase == "over":
            tags += ["T6-ROUND-1", "T6-ROUND-2"]
            if a.phase == "over":
                if rules.end == "threshold":
                    tags.append("T6-END-1")
                tags += ["T6-END-2"] if rules.winner == "lowest" else []
                result = game.result(a)
                if len(result.winners) > 1:
                    tags.append("T6-END-3")
                tags += [c for c in self._variant_clauses(b.variant) if c in ("T6-KIDS-3", "T6-KIDS-4")]
                if rules.display == "countdown":
                    tags.append("T6-COUNT-1")
            elif rules.deal == "draft":
                tags.append("T6-LOGIC-3")
            if any(a.penalties[i] > b.penalties[i] for i in range(b.players)):
                tags.append("T6-BULL-6")
        if a.penalties != b.penalties:
            tags.append("T6-BULL-6")
        # only clauses of this game that apply to this variant
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
