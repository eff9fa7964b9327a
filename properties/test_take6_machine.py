"""6 nimmt! as a Hypothesis state machine: real games in every variant and player count, legal and illegal
actions, and the invariants checked after every step.

Invariants (each names the clause it protects):

* every card of the deck is in exactly one place: stock, hands, hidden selections, revealed cards awaiting
  placement, rows, penalty piles (T6-DECK-1, T6-TACT-1) — 104 cards in the standard game;
* rows ascend and hold at most the capacity (T6-PLACE-1, T6-PLACE-2, T6-PRO-2);
* penalties never decrease and cover the current piles (T6-PILE-1, T6-ROUND-2);
* a rejected action raises an IllegalAction naming a clause and leaves the state as it was;
* the JSON form round-trips to an equal state; the two API tiers agree;
* the same seed and actions give the same states (replayed at the end of every run);
* an observation shows only the player's own hand and own selection (T6-SELECT-2).
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine.derivation import Trace
from engine.errors import IllegalAction
from engine.take6 import (
    BULLHEADS,
    GAME,
    Draft,
    Flip,
    Select,
    State,
    TakeRow,
    fast_end_row,
    locate,
)
from engine.take6.transitions import step as _step

VARIANTS = GAME.variants


def cards_in_play(s: State) -> list[int]:
    cards = list(s.stock)
    for hand in s.hands:
        cards.extend(hand)
    cards.extend(c for c in s.selected if c)
    cards.extend(c for c, _ in s.pending)
    for row in s.rows:
        cards.extend(row)
    for pile in s.piles:
        cards.extend(pile)
    return cards


class Take6Machine(RuleBasedStateMachine):
    """Plays one game per run; ``advance`` plays several random legal actions at once so that rounds and
    game ends are reached within the step budget, checking the invariants after each of them."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State | None = None
        self.actions: list[Any] = []
        self.params: dict[str, Any] = {}
        self.penalties: tuple[int, ...] = ()

    @initialize(variant=st.sampled_from(VARIANTS), players=st.integers(2, 10), seed=st.integers(0, 2**31))
    def start(self, variant: str, players: int, seed: int) -> None:
        options = {"kids_piles": "shrink"} if variant == "kids" else None
        self.params = {"players": players, "seed": seed, "variant": variant, "options": options}
        self.state = GAME.new_game(players, seed=seed, variant=variant, options=options)
        assert self.state == GAME.new_game(players, seed=seed, variant=variant, options=options)
        self.penalties = self.state.penalties

    # ------------------------------------------------------------------ steps

    def step(self, action: Any) -> None:
        assert self.state is not None
        after = GAME.apply(self.state, action)
        assert GAME.apply_unchecked(self.state, action) == after
        # the hot path (fast row search) and the logged path (placement.locate) agree on every step
        assert _step(self.state, action, Trace()) == after
        self.actions.append(action)
        self.state = after
        self.check_all()

    @precondition(lambda self: self.state is not None and not GAME.is_terminal(self.state))
    @rule(data=st.data())
    def legal_step(self, data: st.DataObject) -> None:
        assert self.state is not None
        acting = GAME.to_act(self.state)
        player = data.draw(st.sampled_from(acting), label="player")
        legal = GAME.legal_actions(self.state, player)
        assert legal
        self.step(data.draw(st.sampled_from(legal), label="action"))

    @precondition(lambda self: self.state is not None and not GAME.is_terminal(self.state))
    @rule(seed=st.integers(0, 2**16), count=st.integers(1, 40))
    def advance(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            assert self.state is not None
            if GAME.is_terminal(self.state):
                return
            acting = GAME.to_act(self.state)
            legal = GAME.legal_actions(self.state, acting[rng.randrange(len(acting))])
            self.step(legal[rng.randrange(len(legal))])

    @precondition(lambda self: self.state is not None)
    @rule(
        kind=st.sampled_from(["select", "take_row", "draft", "flip"]),
        player=st.integers(0, 10),
        number=st.integers(-1, 106),
    )
    def illegal_step(self, kind: str, player: int, number: int) -> None:
        """Try an arbitrary action; if it is not legal it must be refused with a clause and change nothing."""
        assert self.state is not None
        action: Any = {
            "select": Select(player, number),
            "take_row": TakeRow(player, number % 7 - 1),
            "draft": Draft(player, number),
            "flip": Flip(player),
        }[kind]
        legal = player < self.state.players and action in GAME.legal_actions(self.state, player)
        if legal:
            self.step(action)
            return
        before = GAME.state_to_json(self.state)
        try:
            GAME.apply(self.state, action)
        except IllegalAction as exc:
            assert exc.clause in GAME.clauses, exc.clause
        else:
            raise AssertionError(f"{action!r} is not legal but was accepted")
        assert GAME.state_to_json(self.state) == before

    # ------------------------------------------------------------------ invariants

    def check_all(self) -> None:
        self.cards_in_exactly_one_place()
        self.rows_ascend_within_capacity()
        self.penalties_never_decrease()
        self.json_round_trips()
        self.observations_hide_hidden_cards()
        self.someone_acts_until_the_end()

    @invariant()
    def cards_in_exactly_one_place(self) -> None:
        """T6-DECK-1 / T6-TACT-1: the deck's cards, each exactly once."""
        if self.state is None:
            return
        cards = cards_in_play(self.state)
        assert sorted(cards) == list(self.state.rules.deck)
        if self.state.variant in ("standard", "professional", "countdown", "kids"):
            assert len(cards) == 104

    @invariant()
    def rows_ascend_within_capacity(self) -> None:
        """T6-PLACE-1, T6-PLACE-2, T6-PRO-2: rows ascending, never over capacity."""
        if self.state is None:
            return
        cap = self.state.rules.capacity
        if self.state.phase != "draft":
            assert len(self.state.rows) == self.state.rules.rows
        for row in self.state.rows:
            assert 1 <= len(row) <= cap
            assert list(row) == sorted(row)

    @invariant()
    def penalties_never_decrease(self) -> None:
        """T6-PILE-1, T6-ROUND-2: totals only grow and always include the current piles."""
        if self.state is None:
            return
        s = self.state
        assert all(a >= b for a, b in zip(s.penalties, self.penalties, strict=True))
        for p in range(s.players):
            assert s.penalties[p] >= sum(BULLHEADS[c] for c in s.piles[p])
        self.penalties = s.penalties

    @invariant()
    def json_round_trips(self) -> None:
        """The canonical JSON form parses back to an equal state."""
        if self.state is None:
            return
        data = json.loads(json.dumps(GAME.state_to_json(self.state)))
        assert GAME.state_from_json(data) == self.state

    @invariant()
    def observations_hide_hidden_cards(self) -> None:
        """T6-SELECT-2: a player sees their own hand and selection only."""
        if self.state is None:
            return
        s = self.state
        for p in range(s.players):
            obs = GAME.observation(s, p)
            assert set(obs) >= {"rows", "penalties", "hand_sizes"}
            if s.rules.play == "flip":
                assert obs["hand"] is None
            else:
                assert obs["hand"] == list(s.hands[p])
            assert obs["selected"] == [bool(c) for c in s.selected]
            assert obs["my_selection"] == (s.selected[p] or None)
            hidden = {c for q, c in enumerate(s.selected) if c and q != p}
            if s.phase != "draft":
                hidden |= {c for q, h in enumerate(s.hands) if q != p for c in h}
            shown = set(obs["pending"] and [c for c, _ in obs["pending"]])
            for key in ("rows", "piles"):
                shown |= {c for group in obs[key] for c in group}
            if obs["pool"]:
                shown |= set(obs["pool"])
            if obs["hand"]:
                shown |= set(obs["hand"])
            assert not hidden & shown

    @invariant()
    def someone_acts_until_the_end(self) -> None:
        """T6-ACT-2: a running game has someone to act with a legal action; a finished one has nobody."""
        if self.state is None:
            return
        acting = GAME.to_act(self.state)
        assert bool(acting) != GAME.is_terminal(self.state)
        for p in acting:
            assert GAME.legal_actions(self.state, p)

    def teardown(self) -> None:
        """Same seed and actions, same state: replay the whole run with the unchecked tier."""
        if self.state is None:
            return
        p = self.params
        replay = GAME.new_game(p["players"], seed=p["seed"], variant=p["variant"], options=p["options"])
        for action in self.actions:
            replay = GAME.apply_unchecked(replay, action)
        assert replay == self.state
        event(f"ended: {GAME.is_terminal(self.state)}, round {min(self.state.round, 4)}")
        if GAME.is_terminal(self.state):
            res = GAME.result(self.state)
            assert len(res.scores) == self.state.players
            lo, hi = GAME.score_bounds
            assert all(lo <= x <= hi for x in res.scores)
            assert len(self.actions) <= GAME.max_game_length


TestTake6Machine = Take6Machine.TestCase


@st.composite
def table_rows(draw: st.DrawFn) -> list[tuple[int, ...]]:
    """4 or 5 rows of 1..5 ascending cards, no card twice."""
    sizes = draw(st.lists(st.integers(1, 5), min_size=4, max_size=5))
    cards = draw(st.lists(st.integers(1, 104), min_size=sum(sizes), max_size=sum(sizes), unique=True))
    rows, at = [], 0
    for size in sizes:
        rows.append(tuple(sorted(cards[at : at + size])))
        at += size
    return rows


@settings(max_examples=300)
@given(rows=table_rows(), card=st.integers(1, 104))
def test_fast_placement_agrees_with_locate(rows: list[tuple[int, ...]], card: int) -> None:
    """T6-PLACE-1 / T6-PLACE-3: the hot path's row search equals the explaining placement function."""
    if any(card in r for r in rows):
        return
    expected = locate(rows, card, "ends", 5)
    got = fast_end_row(rows, card)
    assert got == (-1 if expected.row is None else expected.row)
    assert (got == -1) == (not expected.fits)
