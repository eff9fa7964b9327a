"""Saint Petersburg as a Hypothesis state machine over 1-4 players, both editions and both readings of the
trading-card reduction (SP-COST-5).

Steps are legal actions drawn from ``legal_actions`` (``st.data()``), illegal attempts (random actions
that are not legal, which must be refused and change nothing), and fast-forwards (runs of seeded random
legal actions, so games reach their later rounds and their end).  After every step:

* every one of the 116 cards is in exactly one place (SP-CARD-5): stacks, rows, hands, areas, discard pile,
  or the Observatory's drawn card;
* money >= 0; a hand exceeds its limit only after a hand-limit card was lost, and then never grows
  (SP-HAND-2, SP-HAND-3, SP-WAREHOUSE-1);
* every cost paid is >= 1 (SP-COST-6) and equals ``cost_breakdown`` for that action, and the engine's fast
  path agrees with the derivation for every legal buy and play (SP-COST-1..7);
* VP change only at scorings (SP-SCORE-1..3), Pub decisions (SP-PUB-1) and the final scoring (SP-END-4);
* the state survives JSON exactly; both API tiers give the same state (determinism);
* the game terminates (SP-END-1): fast-forwards are bounded and a separate property plays whole games.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine.errors import NotYourTurn, RuleViolation
from engine.petersburg import (
    GAME,
    Buy,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    State,
    Take,
    cost_breakdown,
    fast_cost,
    hand_limit,
)
from engine.petersburg.catalog import STACKS
from engine.petersburg.checks import diagnose as _diagnose
from engine.petersburg.costs import SRC
from engine.petersburg.testing import card_count

MAX_GAME_STEPS = 5000


def catalog_count(state: State) -> Counter[int]:
    return Counter({c.index: c.copies for c in state.rules.cards})


def paid_cost(state: State, action: Any) -> int | None:
    """The cost the engine reports for a buy or play (None for other actions)."""
    if isinstance(action, Buy):
        return cost_breakdown(
            state, action.player, action.card, source=action.source, displace=action.displace
        ).cost
    if isinstance(action, Play):
        return cost_breakdown(
            state, action.player, action.card, source="hand", displace=action.displace
        ).cost
    return None


def check_transition(before: State, action: Any, after: State) -> None:
    """The step invariants that relate a state to its successor."""
    p = action.player
    cost = paid_cost(before, action)
    if cost is not None:
        assert cost >= 1, "SP-COST-6"
        assert before.money[p] - after.money[p] == cost, "paid what cost_breakdown reports"
        assert all(after.money[q] == before.money[q] for q in range(before.players) if q != p)
    scoring = isinstance(action, Pass) and (
        after.phase_index != before.phase_index
        or after.round != before.round
        or after.pub_queue
        or after.over
    )
    if isinstance(action, PubBuy):
        expect = list(before.vp)
        expect[p] += action.vp
        assert list(after.vp) == expect, "SP-PUB-1"
    elif not scoring:
        assert after.vp == before.vp, "VP change only at scorings, Pub decisions and the final scoring"
    if scoring and not after.over and before.phase_index == 3:
        assert after.vp == before.vp, "SP-SCORE-5: no scoring after the trading phase"
    for q in range(after.players):
        limit = hand_limit(after.rules, after.areas[q])
        if len(after.hands[q]) > limit:
            assert len(after.hands[q]) <= len(before.hands[q]), "SP-HAND-3: no taking above the limit"
            assert len(before.hands[q]) > hand_limit(after.rules, after.areas[q]) or any(
                before.rules.hand_limit[k] for k in before.areas[q]
            ), "only after a lost hand-limit card"


def check_state(state: State) -> None:
    """The invariants of a single state."""
    assert card_count(state) == catalog_count(state), "every card in exactly one place"
    assert all(m >= 0 for m in state.money)
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state
    if GAME.is_terminal(state):
        assert GAME.to_act(state) == ()
        return
    (p,) = GAME.to_act(state)
    legal = GAME.legal_actions(state, p)
    assert legal
    check_legal_set(state, p, legal)
    money = state.money[p]
    rs = state.rules
    for a in legal:
        if isinstance(a, Buy | Play):
            src = "hand" if isinstance(a, Play) else a.source
            b = cost_breakdown(state, p, a.card, source=src, displace=a.displace)
            t = -1 if a.displace is None else rs.kind[a.displace]
            assert b.cost == fast_cost(rs, state.areas[p], rs.kind[a.card], SRC[src], t), (
                "fast path = derivation"
            )
            assert b.affordable and 1 <= b.cost <= money


def candidates(state: State, p: int) -> list[Any]:
    """Every buy, take, play and discard the acting seat could name: each card in a row, the hand or drawn,
    with no target and with each card of its area as the target."""
    rs = state.rules
    targets = [None, *(rs.names[k] for k in dict.fromkeys(state.areas[p]))]
    out: list[Any] = []
    rows = [
        ("upper", state.upper),
        ("lower", state.lower),
        ("drawn", (state.drawn,) if state.drawn >= 0 else ()),
    ]
    for source, row in rows:
        for k in dict.fromkeys(row):
            out.append(Take(p, rs.names[k], source))
            out.extend(Buy(p, rs.names[k], source, t) for t in targets)
            out.append(Discard(p, rs.names[k]))
    for k in dict.fromkeys(state.hands[p]):
        out.extend(Play(p, rs.names[k], t) for t in targets)
    return out


def check_legal_set(state: State, p: int, legal: tuple[Any, ...]) -> None:
    """legal_actions lists exactly the candidates that break no rule (the rule diagnosis and the fast
    generator agree), and the rejected ones name a clause."""
    if state.pub_queue:
        return
    for cand in candidates(state, p):
        try:
            canon = _diagnose(state, cand)
        except RuleViolation as exc:
            assert cand not in legal, f"{cand!r} is listed but breaks {exc.clause}"
        else:
            assert canon in legal, f"{cand!r} breaks no rule but legal_actions omits it"


def random_action(state: State, rng: random.Random) -> Any:
    """A random, usually illegal, action for the illegal-attempt rule."""
    n = state.players
    p = rng.randrange(n + 1)
    names = state.rules.names
    card = names[rng.randrange(len(names))]
    other = names[rng.randrange(len(names))] if rng.random() < 0.5 else None
    source = rng.choice(("upper", "lower", "drawn"))
    kind = rng.randrange(7)
    if kind == 0:
        return Buy(p, card, source, other)
    if kind == 1:
        return Take(p, card, source)
    if kind == 2:
        return Play(p, card, other)
    if kind == 3:
        return Observe(p, rng.choice(STACKS))
    if kind == 4:
        return Discard(p, card)
    if kind == 5:
        return PubBuy(p, rng.randrange(12))
    return Pass(p)


class PetersburgMachine(RuleBasedStateMachine):
    """Random play of Saint Petersburg with the invariants above."""

    state: State

    @initialize(
        players=st.integers(1, 4),
        variant=st.sampled_from(["first", "second"]),
        seed=st.integers(0, 2**20),
        discount=st.booleans(),
    )
    def start(self, players: int, variant: str, seed: int, discount: bool) -> None:
        self.state = GAME.new_game(
            players, seed=seed, variant=variant, options={"trading_discount": discount}
        )
        assert self.state == GAME.new_game(
            players, seed=seed, variant=variant, options={"trading_discount": discount}
        )

    def step(self, action: Any) -> None:
        before = self.state
        after = GAME.apply(before, action)
        assert GAME.apply_unchecked(before, action) == after, "one transition for both tiers"
        check_transition(before, action, after)
        self.state = after

    @precondition(lambda self: not GAME.is_terminal(self.state))
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        (p,) = GAME.to_act(self.state)
        action = data.draw(st.sampled_from(GAME.legal_actions(self.state, p)), label="action")
        self.step(action)

    @rule(seed=st.integers(0, 2**20))
    def illegal_attempt(self, seed: int) -> None:
        rng = random.Random(seed)
        before = self.state
        snapshot = json.dumps(GAME.state_to_json(before), sort_keys=True)
        for _ in range(5):
            action = random_action(before, rng)
            acting = GAME.to_act(before)
            if acting and action.player == acting[0] and action in GAME.legal_actions(before, action.player):
                continue
            try:
                GAME.apply(before, action)
            except RuleViolation as exc:
                assert exc.clause.startswith("SP-")
                if acting and action.player != acting[0]:
                    assert isinstance(exc, NotYourTurn)
            else:
                raise AssertionError(f"illegal {action!r} was accepted")
        assert json.dumps(GAME.state_to_json(before), sort_keys=True) == snapshot, "rejections change nothing"

    @precondition(lambda self: not GAME.is_terminal(self.state))
    @rule(seed=st.integers(0, 2**20), steps=st.integers(1, 120))
    def fast_forward(self, seed: int, steps: int) -> None:
        rng = random.Random(seed)
        for _ in range(steps):
            if GAME.is_terminal(self.state):
                break
            (p,) = GAME.to_act(self.state)
            legal = GAME.legal_actions(self.state, p)
            self.step(legal[rng.randrange(len(legal))])
        assert card_count(self.state) == catalog_count(self.state)

    @invariant()
    def state_is_sound(self) -> None:
        if hasattr(self, "state"):
            check_state(self.state)


TestPetersburgMachine = PetersburgMachine.TestCase


@settings(max_examples=max(10, settings().max_examples // 2))
@given(players=st.integers(1, 4), variant=st.sampled_from(["first", "second"]), seed=st.integers(0, 2**20))
def test_random_games_terminate(players: int, variant: str, seed: int) -> None:
    """SP-END-1, SP-END-2, SP-END-3: uniformly random play always ends (the stacks run out as refills draw);
    the result ranks every seat and the winners have the most VP, then roubles (SP-END-8)."""
    state = GAME.new_game(players, seed=seed, variant=variant)
    rng = random.Random(seed)
    steps = 0
    while not GAME.is_terminal(state):
        (p,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, p)
        state = GAME.apply_unchecked(state, legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < MAX_GAME_STEPS
    assert card_count(state) == catalog_count(state)
    result = GAME.result(state)
    best = max((state.vp[q], state.money[q]) for q in range(players))
    assert {q for q in range(players) if (state.vp[q], state.money[q]) == best} == set(result.winners)
