"""Edges of positions that random play rarely reaches: a drawn card of the catalog's first kind, the
Observatory outside its phase, the turn number outside a turn, and a logic round that needs no deal."""

from __future__ import annotations

import random

import pytest

from engine import petersburg
from engine.errors import IllegalAction, PositionError
from engine.petersburg import GAME as SP
from engine.petersburg import Observe, Play
from engine.take6 import GAME as T6
from engine.take6 import DraftStart


def _drawn_lumberjack(stack: int) -> petersburg.State:
    """Seat 0's turned Observatory drew a Lumberjack (the catalog's first kind, index 0); ``stack``
    Lumberjacks are left in the worker stack."""
    return petersburg.position(
        players=2,
        phase="observatory",
        turn=0,
        areas=[["Observatory"], []],
        turned=[["Observatory"], []],
        hands=[["Market"], []],
        drawn="Lumberjack",
        money=[20, 20],
        upper=["Shepherd"],
        stacks={"worker": ["Lumberjack"] * stack},
    )


def test_a_drawn_card_of_the_first_kind_is_the_only_next_action() -> None:
    """SP-OBS-4: handling the drawn card is the owner's only next action, whatever card it is (here the kind
    with index 0): nothing may be played from the hand meanwhile."""
    s = _drawn_lumberjack(5)
    assert s.drawn == 0 and s.cards("drawn") == ("Lumberjack",)
    legal = SP.legal_actions(s, 0)
    assert legal and all(not isinstance(a, Play) for a in legal)
    assert {SP.action_to_json(a)["type"] for a in legal} == {"discard", "buy", "take"}


def test_a_drawn_card_counts_as_one_of_its_copies() -> None:
    """SP-CARD-1 (every copy in one place): the drawn card is a copy like any other, so a position holding
    every Lumberjack in the stack besides a drawn one has one too many."""
    copies = SP.new_game(2, seed=0).rules.cards[0].copies
    assert _drawn_lumberjack(copies - 1).box.count(0) == 0
    with pytest.raises(PositionError):
        _drawn_lumberjack(copies)


def test_the_observatory_outside_the_building_phase_names_its_phase_rule() -> None:
    """SP-OBS-2: an owner who observes in the worker phase is refused by the Observatory's phase rule, not
    by the rule about owning one."""
    s = petersburg.position(
        players=2, phase="worker", areas=[["Observatory"], []], money=[20, 20], upper=["Shepherd"]
    )
    with pytest.raises(IllegalAction) as exc:
        SP.apply(s, Observe(0, "worker"))
    assert exc.value.clause == "SP-OBS-2"


def test_observing_without_an_observatory_names_the_ownership_rule() -> None:
    """SP-OBS-1: a seat without an Observatory that observes (here in the worker phase, where the owner would
    be refused by SP-OBS-2) is refused because it owns none."""
    s = petersburg.position(
        players=2, phase="worker", turn=1, areas=[["Observatory"], []], money=[20, 20], upper=["Shepherd"]
    )
    with pytest.raises(IllegalAction) as exc:
        SP.apply(s, Observe(1, "worker"))
    assert exc.value.clause == "SP-OBS-1"


def test_the_turn_number_is_zero_outside_the_turns() -> None:
    """T6-LOGIC-1 / T6-END-1: the turn counts the selections of a round; during the logic draft and once the
    game is over there is no turn (0)."""
    s = T6.new_game(3, seed=1, variant="logic")
    assert s.phase == "draft" and s.turn == 0
    rng = random.Random(1)
    while not T6.is_terminal(s):
        s = T6.apply(s, rng.choice(T6.legal_actions(s, T6.to_act(s)[0])))
    assert s.phase == "over" and s.turn == 0


def test_a_rotating_logic_draft_needs_no_deal_from_chance() -> None:
    """T6-LOGIC-3 (option logic_start=rotate): the whole deck is drafted face up and the first drafter passes
    one seat, so a later round of a game without a seed starts its draft at once, with no chance step."""
    s = T6.new_game(3, seed=None, variant="logic", options={"logic_start": "rotate"}, setup=(DraftStart(1),))
    rng = random.Random(0)
    while s.round == 1:
        s = T6.apply(s, rng.choice(T6.legal_actions(s, T6.to_act(s)[0])))
    assert (s.phase, s.round, T6.to_act(s)) == ("draft", 2, (2,))
