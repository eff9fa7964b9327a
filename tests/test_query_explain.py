"""``explain`` gives the engine's own verdict: an action is explained as legal exactly when the checked tier
accepts it, an illegal one names the clause the engine refuses it with and says what would make it legal;
positions come from a JSON state, a record prefix or a conformance vector."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InputError, RuleViolation
from engine.game import get_game
from engine.query.explain import explain, state_from_file, state_from_record, state_from_vector

ROOT = Path(__file__).resolve().parent.parent


def _candidates(game: Any, state: Any, rng: random.Random) -> list[Any]:
    """Legal actions of the seats to act, plus actions of other seats (usually illegal)."""
    out: list[Any] = []
    for p in range(state.players):
        acts = game.legal_actions(state, p)
        out.extend(rng.sample(list(acts), min(3, len(acts))))
    return out


@settings(max_examples=max(10, settings().max_examples // 2), deadline=None)
@given(name=st.sampled_from(["take6", "petersburg"]), seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_verdict_is_the_checked_tier(name: str, seed: int, steps: int) -> None:
    """Along a random game, each explained action is legal exactly when ``apply`` accepts it, and an
    illegal one carries the refusing clause as its first step (T6-ACT-1, SP-TURN-2 ...)."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_game(rng.choice([2, 3]), seed=seed)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        actions = game.legal_actions(state, game.to_act(state)[0])
        state = game.apply(state, actions[rng.randrange(len(actions))])
    if game.is_terminal(state):
        return
    for action in _candidates(game, state, rng):
        answer = explain(name, state, game.action_to_json(action))
        try:
            game.apply(state, action)
            legal, clause = True, None
        except RuleViolation as exc:
            legal, clause = False, exc.clause
        assert answer.value["legal"] is legal
        assert answer.value["clause"] == clause
        if not legal:
            assert answer.steps[0].clause == clause
            assert any(n.startswith("To make it legal") for n in answer.notes)


def test_petersburg_buy_shows_the_cost_derivation() -> None:
    """A buy is explained with the engine's cost derivation (SP-COST-1, SP-COST-6) and affordability
    (SP-BUY-2); the engine then narrates the purchase."""
    game = get_game("petersburg")
    state = state_from_file("petersburg", _json(ROOT / "docs" / "examples" / "petersburg-state.json"))
    answer = explain("petersburg", state, {"type": "buy", "player": 0, "card": "Market", "source": "upper"})
    assert answer.value["legal"] and answer.value["cost"] == 5
    assert {"SP-COST-1", "SP-COST-6", "SP-BUY-2"} <= set(answer.clauses)
    assert any(n.startswith("then: ") for n in answer.notes)
    academy = {"type": "buy", "player": 0, "card": "Academy", "source": "upper"}
    too_dear = explain("petersburg", state, academy)
    assert too_dear.value["clause"] == "SP-BUY-2"
    assert any("roubles" in n and n.startswith("To make it legal") for n in too_dear.notes)
    assert game.name == "petersburg"


def test_take6_low_card_from_a_vector() -> None:
    """From the hand-picked vector's position, a card below every row fits no row (T6-PLACE-3)."""
    state = state_from_vector("take6", "take6/edge/low-card-waits-for-choice")
    answer = explain("take6", state, {"type": "select", "player": 1, "card": 3})
    assert answer.value["legal"] and answer.value["placement"]["fits"] is False
    assert "T6-PLACE-3" in answer.clauses


def test_record_prefix_replays_on_the_engine() -> None:
    """``--record FILE --upto N`` replays the first N actions; asking for more than the record holds, or a
    record of another game, is refused naming the field."""
    path = ROOT / "docs" / "examples" / "take6-record.jsonl"
    first = state_from_record("take6", path, upto=0)
    assert first.phase == "select" and not any(first.selected)
    assert state_from_record("take6", path) != first
    with pytest.raises(InputError) as err:
        state_from_record("take6", path, upto=999)
    assert err.value.field == "--upto"
    with pytest.raises(InputError) as err2:
        state_from_record("petersburg", path)
    assert err2.value.field.endswith("game")


def test_bad_state_and_action_name_the_field() -> None:
    """A malformed state or action is refused with the JSON field named under --state / --action."""
    with pytest.raises(InputError) as err:
        state_from_file("take6", {"game": "take6"})
    assert err.value.field.startswith("--state")
    state = state_from_vector("take6", "take6/edge/select-not-in-hand")
    with pytest.raises(InputError) as err2:
        explain("take6", state, {"type": "select", "player": 0, "card": "x"})
    assert err2.value.field == "--action: card"


def _json(path: Path) -> Any:
    import json

    return json.loads(path.read_text(encoding="utf-8"))
