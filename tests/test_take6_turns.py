"""6 nimmt! turns, placement, row taking, rounds and the end: one example test per clause (standard game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.errors import GameOver, IllegalAction, NotYourTurn
from engine.take6 import GAME, Deal, Draft, Flip, Select, State, TakeRow, bullheads, place, rules_for


def padded_deal(starts: Sequence[Sequence[int]], rows: Sequence[int], hand_size: int = 10) -> Deal:
    """A deal whose hands begin with ``starts`` and are filled up with the highest unused cards."""
    used = {c for h in starts for c in h} | set(rows)
    spare = [c for c in range(104, 0, -1) if c not in used]
    hands = []
    for h in starts:
        extra = [spare.pop(0) for _ in range(hand_size - len(h))]
        hands.append((*h, *extra))
    return Deal(hands=tuple(hands), rows=tuple(rows))


def new(starts: Sequence[Sequence[int]], rows: Sequence[int], variant: str = "standard") -> State:
    return GAME.new_game(len(starts), seed=0, variant=variant, setup=padded_deal(starts, rows))


def turn(state: State, cards: Mapping[int, int]) -> State:
    """Every player selects the given card (checked tier)."""
    for p in sorted(cards):
        state = GAME.apply(state, Select(p, cards[p]))
    return state


def midround(
    hands: Sequence[Sequence[int]],
    rows: Sequence[Sequence[int]],
    penalties: Sequence[int],
    variant: str = "standard",
) -> State:
    """A select-phase state of round 2, built through the validated JSON form.  The stock holds the highest
    cards not in use; the other cards dealt this round (played in earlier turns) are in player 0's pile, and
    ``penalties`` are the totals before that pile (player 0's total includes it)."""
    n = len(hands)
    r = rules_for(variant, n)
    used = {c for x in (*hands, *rows) for c in x}
    free = [c for c in r.deck if c not in used]
    stock = sorted(free[len(free) - (len(r.deck) - r.cards_dealt) :])
    pile = [c for c in free if c not in stock]
    totals = [penalties[0] + sum(bullheads(c) for c in pile), *penalties[1:]]
    data: dict[str, Any] = {
        "game": "take6",
        "variant": variant,
        "players": n,
        "seed": 0,
        "options": {},
        "round": 2,
        "phase": "select",
        "rows": [list(x) for x in rows],
        "pending": [],
        "piles": [pile] + [[] for _ in range(n - 1)],
        "penalties": totals,
        "stock": stock,
        "start": 0,
        "deals": [],
        "hands": [sorted(h) for h in hands],
        "selected": [None] * n,
    }
    return GAME.state_from_json(data)


def test_33_goes_after_30_not_29() -> None:
    """T6-PLACE-1: the seed's own example: with rows ending 29 and 30, 33 goes after 30."""
    s = turn(new([[33], [95]], [29, 30, 80, 90]), {0: 33, 1: 95})
    assert s.rows[1] == (30, 33)
    assert s.rows[0] == (29,)
    assert place(((29,), (30,), (80,), (90,)), 33).row == 1


def test_card_goes_only_after_a_lower_end() -> None:
    """T6-PLACE-1: a card never goes after a higher end: 85 goes after 80, not after 90."""
    s = turn(new([[85], [99]], [29, 30, 80, 90]), {0: 85, 1: 99})
    assert s.rows[2] == (80, 85)
    assert s.rows[3] == (90, 99)


def test_selection_is_from_own_hand() -> None:
    """T6-SELECT-1: a card not in the player's hand is refused; the state is unchanged."""
    s = new([[33], [95]], [29, 30, 80, 90])
    before = GAME.state_to_json(s)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(s, Select(0, 95))
    assert info.value.clause == "T6-SELECT-1"
    assert GAME.state_to_json(s) == before
    assert GAME.legal_actions(s, 0) == tuple(Select(0, c) for c in s.hands[0])


def test_selecting_twice_is_refused_and_selections_stay_hidden() -> None:
    """T6-SELECT-2: a player selects once per turn (a second selection raises NotYourTurn naming the
    clause); until all have selected, nobody else sees the card."""
    s = GAME.apply(new([[33, 34], [95]], [29, 30, 80, 90]), Select(0, 33))
    with pytest.raises(NotYourTurn) as info:
        GAME.apply(s, Select(0, 34))
    assert info.value.clause == "T6-SELECT-2"
    assert GAME.to_act(s) == (1,)
    other = GAME.observation(s, 1)
    assert other["selected"] == [True, False]
    assert 33 not in [c for c, _ in other["pending"]] and other["my_selection"] is None
    assert GAME.observation(s, 0)["my_selection"] == 33
    assert "33" not in " ".join(GAME.narrate(new([[33, 34], [95]], [29, 30, 80, 90]), Select(0, 33), s))


def test_cards_resolve_in_ascending_order() -> None:
    """T6-TURN-1: revealed cards are placed lowest first: 31 (player 1) goes after 30 before 35 (player 0)
    is placed, so 35 goes after 31."""
    s = turn(new([[35], [31]], [29, 30, 80, 90]), {0: 35, 1: 31})
    assert s.rows[1] == (30, 31, 35)


def test_later_cards_see_rows_changed_earlier_in_the_turn() -> None:
    """T6-TURN-2: a card taken-and-restarted row is what later cards of the turn see: after player 1's 5
    takes row 0 and starts it, player 0's 7 goes after 5."""
    s = turn(new([[7], [5]], [10, 20, 30, 40]), {0: 7, 1: 5})
    assert s.phase == "choose" and GAME.to_act(s) == (1,)
    s = GAME.apply(s, TakeRow(1, 0))
    assert s.rows[0] == (5, 7)


def test_sixth_card_takes_the_row() -> None:
    """T6-PLACE-2: the card that would be a row's 6th takes its 5 cards (penalty = their bullheads) and
    starts the row."""
    s = new([[11, 13, 15], [12, 14, 99]], [10, 20, 30, 40])
    s = turn(s, {0: 11, 1: 12})
    s = turn(s, {0: 13, 1: 14})
    assert s.rows[0] == (10, 11, 12, 13, 14)
    s = turn(s, {0: 15, 1: 99})
    assert s.rows[0] == (15,)
    assert s.piles[0] == (10, 11, 12, 13, 14)
    assert s.penalties[0] == bullheads(10) + bullheads(11) + 3 == 11


def test_low_card_player_chooses_any_row() -> None:
    """T6-PLACE-3: a card below every row end pauses the turn: its player (only) must choose; every row is
    offered; the engine never picks; the chosen row goes to the player's penalty and the card starts it."""
    s = turn(new([[3], [50]], [10, 22, 30, 40]), {0: 3, 1: 50})
    assert s.phase == "choose" and s.pending == ((3, 0), (50, 1))
    assert GAME.to_act(s) == (0,)
    assert GAME.legal_actions(s, 0) == tuple(TakeRow(0, r) for r in range(4))
    assert GAME.legal_actions(s, 1) == ()
    after = GAME.apply(s, TakeRow(0, 1))
    assert after.rows == ((10,), (3,), (30,), (40, 50))
    assert after.penalties == (5, 0)


def test_taken_cards_go_to_the_penalty_pile_not_the_hand() -> None:
    """T6-PILE-1: taken cards are kept apart from the hand, in the player's pile, and count bullheads."""
    s = GAME.apply(turn(new([[3], [50]], [10, 22, 30, 40]), {0: 3, 1: 50}), TakeRow(0, 1))
    assert s.piles[0] == (22,)
    assert 22 not in s.hands[0]
    assert GAME.observation(s, 1)["piles"][0] == [22]


def test_two_low_cards_in_one_turn() -> None:
    """T6-PLACE-3 and T6-TURN-2: two cards below every row end: the lower one's player chooses first; the
    second card then sees that new row (3 goes after 2, so no second choice is needed)."""
    s = turn(new([[2], [3]], [10, 20, 30, 40]), {0: 2, 1: 3})
    assert s.pending == ((2, 0), (3, 1)) and GAME.to_act(s) == (0,)
    s = GAME.apply(s, TakeRow(0, 2))
    assert s.rows[2] == (2, 3)
    assert s.phase == "select"
    assert s.penalties == (3, 0)


def test_sixth_card_and_low_card_in_the_same_turn() -> None:
    """T6-PLACE-2 with T6-PLACE-3: player 1's low 5 is resolved first (a choice), then player 0's 15
    is the 6th card of row 0 and takes it."""
    s = new([[11, 13, 15], [12, 14, 5]], [10, 20, 30, 40])
    s = turn(turn(s, {0: 11, 1: 12}), {0: 13, 1: 14})
    s = turn(s, {0: 15, 1: 5})
    assert s.phase == "choose" and GAME.to_act(s) == (1,)
    lines = GAME.narrate(s, TakeRow(1, 3), GAME.apply(s, TakeRow(1, 3)))
    s = GAME.apply(s, TakeRow(1, 3))
    assert s.rows == ((15,), (20,), (30,), (5,))
    assert s.piles == ((10, 11, 12, 13, 14), (40,))
    assert s.penalties == (11, 3)
    assert any("6th card" in line and "T6-PLACE-2" in line for line in lines)


def test_row_choice_only_when_pending() -> None:
    """T6-CHOOSE-1: a row choice when no card waits for one is refused."""
    s = new([[33], [95]], [29, 30, 80, 90])
    with pytest.raises(IllegalAction) as info:
        GAME.apply(s, TakeRow(0, 1))
    assert info.value.clause == "T6-CHOOSE-1"


def test_row_choice_must_name_a_row() -> None:
    """T6-CHOOSE-2: the row index must be 0..3."""
    s = turn(new([[3], [50]], [10, 22, 30, 40]), {0: 3, 1: 50})
    for bad in (4, -1, 99):
        with pytest.raises(IllegalAction) as info:
            GAME.apply(s, TakeRow(0, bad))
        assert info.value.clause == "T6-CHOOSE-2"


def test_only_the_players_who_must_act_may_act() -> None:
    """T6-ACT-1: while player 0 must choose a row, player 1 may neither choose nor select; a seat outside
    the table, a wrong kind of action, or a non-action are refused."""
    s = turn(new([[3, 4], [50, 51]], [10, 22, 30, 40]), {0: 3, 1: 50})
    snapshot = GAME.state_to_json(s)
    with pytest.raises(NotYourTurn) as info:
        GAME.apply(s, TakeRow(1, 0))
    assert info.value.clause == "T6-ACT-1"
    with pytest.raises(NotYourTurn):
        GAME.apply(s, Select(1, 51))
    for bad in (Select(0, 4), Draft(0, 4), Flip(0), TakeRow(7, 0)):
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(s, bad)
        assert refused.value.clause == "T6-ACT-1"
    with pytest.raises(IllegalAction):
        GAME.apply(s, "take row 0")  # type: ignore[arg-type]
    assert GAME.state_to_json(s) == snapshot


def last_turn_state(penalties: Sequence[int]) -> State:
    """Round 2 with one card left each; row 0 holds 5 cards, which player 0's 16 will take."""
    return midround(
        hands=[[16], [45], [56]][: len(penalties)],
        rows=[(10, 11, 12, 13, 14), (20,), (30,), (40,)],
        penalties=penalties,
    )


def test_round_lasts_until_hands_are_empty_then_a_new_deal() -> None:
    """T6-ROUND-1: a round is 10 turns; after the 10th the next round is dealt with full hands."""
    s = GAME.new_game(3, seed=4)
    for _ in range(10):
        assert s.round == 1
        while s.phase != "select" or GAME.to_act(s) != (0, 1, 2):
            s = GAME.apply(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
        s = turn(s, {p: s.hands[p][0] for p in range(3)})
        while s.phase == "choose":
            s = GAME.apply(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    assert s.round == 2
    assert [len(h) for h in s.hands] == [10, 10, 10]


def test_round_scores_are_added_and_piles_reset() -> None:
    """T6-ROUND-2: at the round's end the bullheads taken are in the totals, the piles start empty and a
    new round is dealt."""
    before = last_turn_state((0, 0, 5))
    s = turn(before, {0: 16, 1: 45, 2: 56})
    assert s.round == 3 and s.phase == "select"
    assert s.penalties == (before.penalties[0] + 11, 0, 5)
    assert s.piles == ((), (), ())


def test_game_ends_after_the_round_reaching_66() -> None:
    """T6-END-1: a total reaching 66 ends the game after that round, never in the middle of one."""
    mid = midround(
        hands=[[16, 90], [45, 91]], rows=[(10, 11, 12, 13, 14), (20,), (30,), (40,)], penalties=[60, 0]
    )
    mid = turn(mid, {0: 16, 1: 45})
    assert mid.penalties[0] >= 66 and mid.penalties[1] == 0
    assert not GAME.is_terminal(mid) and mid.phase == "select"
    end = turn(mid, {0: 90, 1: 91})
    assert GAME.is_terminal(end) and GAME.to_act(end) == ()
    assert GAME.result(end).winners == (1,)
    with pytest.raises(IllegalAction) as info:
        GAME.result(mid)
    assert info.value.clause == "T6-END-1"


def test_lowest_total_wins() -> None:
    """T6-END-2: the fewest bullheads wins; the ranking is by total."""
    end = turn(last_turn_state((60, 30, 10)), {0: 16, 1: 45, 2: 56})
    res = GAME.result(end)
    assert res.scores[1:] == (30, 10) and res.scores[0] > 66
    assert res.winners == (2,) and res.ranking == (2, 1, 0)


def test_ties_share_the_win() -> None:
    """T6-END-3: players tied for the fewest bullheads all win; the ranking lists them by seat."""
    end = turn(last_turn_state((60, 12, 12)), {0: 16, 1: 45, 2: 56})
    res = GAME.result(end)
    assert res.winners == (1, 2)
    assert res.ranking == (1, 2, 0)
    assert any(
        "share the win" in line
        for line in GAME.narrate(turn(last_turn_state((60, 12, 12)), {0: 16, 1: 45}), Select(2, 56), end)
    )


def test_no_action_after_the_end() -> None:
    """T6-ACT-2: a finished game refuses every action with GameOver; nobody has legal actions."""
    end = turn(last_turn_state((60, 1, 2)), {0: 16, 1: 45, 2: 56})
    for action in (Select(0, 16), TakeRow(0, 0)):
        with pytest.raises(GameOver) as info:
            GAME.apply(end, action)
        assert info.value.clause == "T6-ACT-2"
    assert all(GAME.legal_actions(end, p) == () for p in range(3))
