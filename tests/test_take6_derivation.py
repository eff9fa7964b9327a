"""6 nimmt! derivations: every decision of the engine as data, from the code that decides.

A transition's derivation (``GAME.derive``) names each placement with the rule that chose the row, each row
taken and why, each card's bullheads, the round scores, the end and the result; ``GAME.why`` derives an
action's legality from the checked tier's own checks; narration renders derivations.
"""

from __future__ import annotations

import random

from engine.derivation import Step, render
from engine.take6 import GAME, Action, Deal, Flip, Select, State, TakeRow
from engine.take6.rules import BULLHEADS

HANDS = ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10), (11, 12, 13, 14, 15, 16, 17, 18, 19, 55))


def start(variant: str = "standard", rows: tuple[int, ...] = (30, 40, 50, 60)) -> State:
    return GAME.new_game(2, variant=variant, setup=Deal(hands=HANDS, rows=rows))


def play(s: State, *actions: Action) -> tuple[State, tuple[Step, ...]]:
    """Apply the actions (checked), returning the last state and the last step's derivation."""
    derived: tuple[Step, ...] = ()
    for a in actions:
        derived = GAME.derive(s, a)
        s = GAME.apply(s, a)
    return s, derived


def flat(derived: tuple[Step, ...]) -> list[Step]:
    return [s for root in derived for s in root.walk()]


def test_a_low_card_derives_the_wait_for_its_player() -> None:
    """T6-SELECT-2, T6-TURN-1, T6-PLACE-3: the reveal, the order, and a card lower than every row end makes
    its player choose: the step concludes phase choose with that seat to act."""
    s, derived = play(start(), Select(0, 1), Select(1, 11))
    steps = flat(derived)
    assert [d.clause for d in derived] == ["T6-SELECT-2", "T6-PLACE-3"]
    assert next(d for d in steps if d.clause == "T6-TURN-1").data["cards"] == [1, 11]
    wait = derived[-1]
    assert (wait.says, wait.data["to_act"], wait.data["phase"]) == ("fits-nowhere", [0], "choose")
    assert s.phase == "choose" and list(s.to_act) == wait.data["to_act"]


def test_a_row_taken_derives_each_cards_bullheads() -> None:
    """T6-PLACE-3, T6-PILE-1, T6-BULL-1..5: a row choice takes the row; each card's bullheads are a step
    naming the table's rule and its subject, and they add up to the penalty."""
    s, _ = play(start(rows=(30, 40, 65, 60)), Select(0, 1), Select(1, 11))
    after, derived = play(s, TakeRow(0, 2))
    takes = derived[0]
    assert (takes.clause, takes.says, takes.data["cards"]) == ("T6-PLACE-3", "takes", [65])
    bull = takes.find(says="bullheads")
    assert [(b.clause, b.data["card"], b.data["heads"], b.data["subject"]) for b in bull] == [
        ("T6-BULL-4", 65, 2, "x5")
    ]
    assert after.penalties[0] == sum(b.data["heads"] for b in bull) == 2


def test_the_sixth_card_derives_the_take_and_a_card_with_room_says_so() -> None:
    """T6-PLACE-1, T6-PLACE-2: every placement names its row with every candidate, then the capacity: room
    for the card, or as the 6th card it takes the row (T6-PILE-1 with the bullheads per card)."""
    s = GAME.from_notation("standard 2 select 10.20.21.22.23/40/50/60 24.2/41.3 - - 0/0")
    _, derived = play(s, Select(0, 24), Select(1, 41))
    placements = [d for d in derived if d.says == "row"]
    assert [(p.clause, p.data["card"], p.data["row"]) for p in placements] == [
        ("T6-PLACE-1", 24, 0),
        ("T6-PLACE-1", 41, 1),
    ]
    sixth = placements[0].find(says="sixth")[0]
    assert (sixth.clause, sixth.data["length"]) == ("T6-PLACE-2", 5)
    assert sixth.data["cards"] == [10, 20, 21, 22, 23]
    heads = [b.data["heads"] for b in sixth.find(says="bullheads")]
    assert heads == [BULLHEADS[c] for c in (10, 20, 21, 22, 23)]
    room = placements[1].find(says="room")[0]
    assert (room.clause, room.data["length"], room.data["capacity"]) == ("T6-PLACE-2", 1, 5)


def test_professional_placements_name_their_own_rules() -> None:
    """T6-PRO-1..3: a card may go before a row start; a tie between an end and a start names T6-PRO-3."""
    s = GAME.from_notation("professional 2 select 18/22/50/60 20.2/41.3 - - 0/0")
    _, derived = play(s, Select(0, 20), Select(1, 41))
    first = next(d for d in derived if d.says == "row")
    assert first.clause == "T6-PRO-1"
    assert {c.clause for c in first.steps} >= {"T6-PRO-2", "T6-PRO-3", "T6-PRO-4"}


def test_round_scores_end_and_result_are_derived() -> None:
    """T6-ROUND-2, T6-END-1, T6-END-2: the last step of a game derives each seat's round score with its
    cards' bullheads, why the game ends, and the winner with every seat's place."""
    s = GAME.new_game(2, seed=3)
    rng = random.Random(3)
    while True:
        a = rng.choice(GAME.legal_actions(s, GAME.to_act(s)[0]))
        after = GAME.apply(s, a)
        if GAME.is_terminal(after):
            break
        s = after
    derived = GAME.derive(s, a)
    clauses = [c for root in derived for c in root.clauses()]
    assert {"T6-ROUND-2", "T6-END-1", "T6-END-2"} <= set(clauses)
    scores = next(d for d in derived if d.says == "round-scores")
    assert [x["total"] for x in scores.data["scores"]] == list(after.penalties)
    winners = next(d for d in derived if d.says == "winners")
    assert winners.data["winners"] == list(GAME.result(after).winners)
    assert GAME.explain_result(after) == winners


def test_a_tie_derives_the_shared_win() -> None:
    """T6-END-3: tied players share the win; the result's derivation says so."""
    s = GAME.from_notation("standard 2 over 1/2/3/4 -/- - -/- 70/70")
    result = GAME.explain_result(s)
    assert result.data["winners"] == [0, 1] and result.find(clause="T6-END-3")


def test_kids_flip_and_countdown_end() -> None:
    """T6-KIDS-2: a flip is derived with its card; T6-COUNT-1: the countdown end names its presentation."""
    s = GAME.new_game(2, seed=1, variant="kids")
    flip = GAME.derive(s, Flip(0))[0]
    assert (flip.clause, flip.data["card"]) == ("T6-KIDS-2", s.hands[0][0])
    s = GAME.new_game(2, seed=2, variant="countdown")
    rng = random.Random(2)
    while not GAME.is_terminal(s):
        a = rng.choice(GAME.legal_actions(s, GAME.to_act(s)[0]))
        derived, s = GAME.derive(s, a), GAME.apply(s, a)
    assert any(d.clause == "T6-COUNT-1" for root in derived for d in root.walk())


def test_why_an_action_is_legal_or_refused() -> None:
    """T6-ACT-1, T6-SELECT-1, T6-SELECT-2, T6-CHOOSE-1, T6-PRO-5, T6-ACT-2: the legality derivation names
    the granting clause of a legal action with the checks it passed, and the refusing clause of an
    illegal one with the checks passed before it."""
    s = start()
    legal = GAME.why(s, Select(0, 1))
    assert (legal.clause, legal.says) == ("T6-SELECT-1", "legal")
    assert [c.clause for c in legal.steps] == ["T6-ACT-2", "T6-ACT-1", "T6-SELECT-1"]
    foreign = GAME.why(s, Select(0, 11))
    assert (foreign.clause, foreign.says) == ("T6-SELECT-1", "refused") and "not in P0's hand" in foreign.note
    again = GAME.why(GAME.apply(s, Select(0, 1)), Select(0, 2))
    assert again.clause == "T6-SELECT-2"
    assert GAME.why(s, TakeRow(0, 1)).clause == "T6-CHOOSE-1"
    pro = GAME.apply(GAME.apply(start("professional", (30, 40, 50, 60)), Select(0, 1)), Select(1, 11))
    if pro.chooser is not None:
        assert GAME.why(pro, TakeRow(pro.chooser, 0)).clause == "T6-PRO-5"
    over = GAME.from_notation("standard 2 over 1/2/3/4 -/- - -/- 70/60")
    assert GAME.why(over, Select(0, 5)).clause == "T6-ACT-2"


def test_narration_renders_the_derivation_and_the_derivation_is_data() -> None:
    """Narration is the rendered derivation (one line per noted step, its clause appended), and every
    derivation survives its JSON form."""
    s = GAME.new_game(3, seed=9)
    rng = random.Random(9)
    while not GAME.is_terminal(s):
        a = rng.choice(GAME.legal_actions(s, GAME.to_act(s)[0]))
        after = GAME.apply(s, a)
        derived = GAME.derive(s, a)
        assert GAME.narrate(s, a, after) == render(derived)
        assert all(Step.from_json(d.to_json()) == d for d in derived)
        s = after
