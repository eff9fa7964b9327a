"""6 nimmt! variants: set-up and placement edge cases of tactics, logic, professional, kids and countdown."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from engine.errors import IllegalAction, IllegalSetup, NotYourTurn
from engine.take6 import (
    GAME,
    Deal,
    Draft,
    DraftStart,
    Flip,
    Select,
    State,
    TakeRow,
    bullheads,
    place,
    rules_for,
)
from engine.take6.deal import derived_seed


def turn(state: State, cards: Mapping[int, int]) -> State:
    for p in sorted(cards):
        state = GAME.apply(state, Select(p, cards[p]))
    return state


def padded(starts: Sequence[Sequence[int]], rows: Sequence[int], deck: Sequence[int], size: int = 10) -> Deal:
    used = {c for h in starts for c in h} | set(rows)
    spare = [c for c in reversed(deck) if c not in used]
    return Deal(hands=tuple((*h, *(spare.pop(0) for _ in range(size - len(h)))) for h in starts), rows=rows)


def pro(starts: Sequence[Sequence[int]], rows: Sequence[int], **options: str) -> State:
    deal = padded(starts, rows, range(1, 105))
    return GAME.new_game(len(starts), variant="professional", setup=deal, options=options)


def play_random(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while not GAME.is_terminal(state):
        acting = GAME.to_act(state)
        legal = GAME.legal_actions(state, acting[0])
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    return state


# ------------------------------------------------------------------------------------------ tactics


@pytest.mark.parametrize("n", range(2, 11))
def test_tactics_deck_is_1_to_10n_plus_4(n: int) -> None:
    """T6-TACT-1: with n players the deck is 1..10n+4, and every card is dealt (none left over)."""
    s = GAME.new_game(n, seed=n, variant="tactics")
    dealt = sorted([c for h in s.hands for c in h] + [r[0] for r in s.rows])
    assert dealt == list(range(1, 10 * n + 5))
    assert s.stock == ()
    assert rules_for("tactics", n).deck == tuple(range(1, 10 * n + 5))


def test_tactics_refuses_a_deal_outside_its_deck() -> None:
    """T6-TACT-1 with T6-SETUP-5: an explicit tactics deal may use only the cards 1..10n+4."""
    with pytest.raises(IllegalSetup) as info:
        GAME.new_game(2, variant="tactics", setup=padded([[30], [1]], [2, 3, 4, 99], range(1, 25)))
    assert info.value.clause == "T6-SETUP-5"


# ------------------------------------------------------------------------------------------ logic


def test_logic_draft_order_and_leftover_rows() -> None:
    """T6-LOGIC-1 and T6-LOGIC-2: the whole tactics deck lies face up; from the start player, seats draft
    one card at a time clockwise until each holds 10; the 4 left start the rows, lowest in row 0."""
    s = GAME.new_game(3, seed=0, variant="logic", setup=DraftStart(2))
    assert s.phase == "draft" and s.stock == tuple(range(1, 35)) and s.rows == ()
    order = []
    pick = [34, 1, 33, 2, 32, 3, *range(4, 28)]
    for card in pick:
        (p,) = GAME.to_act(s)
        order.append(p)
        s = GAME.apply(s, Draft(p, card))
    assert order[:6] == [2, 0, 1, 2, 0, 1]
    assert [len(h) for h in s.hands] == [10, 10, 10]
    assert s.phase == "select" and s.stock == ()
    assert s.rows == ((28,), (29,), (30,), (31,))
    assert GAME.observation(GAME.new_game(3, variant="logic"), 1)["pool"] == list(range(1, 35))


def test_logic_draft_refusals() -> None:
    """T6-LOGIC-1: a card not in the face-up pool cannot be drafted; only the drafter may act; a logic game
    takes DraftStart set-ups, not deals."""
    s = GAME.new_game(2, variant="logic", setup=DraftStart(0))
    s = GAME.apply(s, Draft(0, 5))
    for bad in (Draft(1, 5), Draft(1, 99)):
        with pytest.raises(IllegalAction) as info:
            GAME.apply(s, bad)
        assert info.value.clause == "T6-LOGIC-1"
    with pytest.raises(NotYourTurn):
        GAME.apply(s, Draft(0, 6))
    with pytest.raises(IllegalSetup) as setup_error:
        GAME.new_game(2, variant="logic", setup=Deal(hands=((1,), (2,)), rows=(3, 4, 5, 6)))
    assert setup_error.value.clause == "T6-LOGIC-1"
    with pytest.raises(IllegalSetup):
        GAME.new_game(2, variant="logic", setup=DraftStart(2))


def finish_round(s: State) -> State:
    start_round = s.round
    while s.round == start_round and not GAME.is_terminal(s):
        s = GAME.apply(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    return s


def test_logic_start_player_is_drawn_each_round() -> None:
    """T6-LOGIC-3: each round's first drafter is random.Random(seed * 65536 + round).randrange(n); with
    option logic_start = rotate it is the previous start plus one."""
    n, seed = 4, 12
    s = GAME.new_game(n, seed=seed, variant="logic")
    assert GAME.to_act(s) == (random.Random(derived_seed(seed, 1)).randrange(n),)
    s2 = finish_round(s)
    assert s2.round == 2
    assert GAME.to_act(s2) == (random.Random(derived_seed(seed, 2)).randrange(n),)
    r = GAME.new_game(n, seed=seed, variant="logic", options={"logic_start": "rotate"})
    first = r.start
    r2 = finish_round(r)
    assert r2.start == (first + 1) % n and GAME.to_act(r2) == (r2.start,)


# ------------------------------------------------------------------------------------------ professional


def test_professional_card_goes_before_a_higher_start() -> None:
    """T6-PRO-1: the seed's example, 10 goes left of 11 rather than anywhere else; ends and starts of all
    rows are compared (33: start 35 at +2 beats end 30 at +3)."""
    p = place(((11,), (15,), (50,), (60,)), 10, "professional")
    assert (p.row, p.side) == (0, "start")
    q = place(((30,), (35, 40), (70,), (80,)), 33, "professional")
    assert (q.row, q.side) == (1, "start")
    s = turn(pro([[10], [99]], [11, 15, 50, 60]), {0: 10, 1: 99})
    assert s.rows[0] == (10, 11)


def test_professional_never_between_cards() -> None:
    """T6-PRO-2: a card never goes inside a row: 30 with row (20, 40) goes before 50, not between."""
    p = place(((20, 40), (50,), (70,), (90,)), 30, "professional")
    assert (p.row, p.side, p.candidates[0].neighbour) == (1, "start", 50)


def test_professional_end_wins_a_tie_with_a_start() -> None:
    """T6-PRO-3: an end below and a start above at the same distance: the end wins; option
    professional_tie = start gives the start."""
    s = turn(pro([[20], [99]], [18, 22, 50, 60]), {0: 20, 1: 99})
    assert s.rows[0] == (18, 20) and s.rows[1] == (22,)
    t = turn(pro([[20], [99]], [18, 22, 50, 60], professional_tie="start"), {0: 20, 1: 99})
    assert t.rows[1] == (20, 22) and t.rows[0] == (18,)


def test_professional_sixth_card_at_either_end() -> None:
    """T6-PRO-4: a 6th card before a row's start takes the row and starts it, as at the end."""
    s = pro([[25, 27, 19], [26, 28, 99]], [24, 60, 70, 80])
    s = turn(s, {0: 25, 1: 26})
    s = turn(s, {0: 27, 1: 28})
    assert s.rows[0] == (24, 25, 26, 27, 28)
    s = turn(s, {0: 19, 1: 99})
    assert s.rows[0] == (19,)
    assert s.piles[0] == (24, 25, 26, 27, 28) and s.penalties[0] == 6


def professional_midround(hands: Sequence[Sequence[int]], rows: Sequence[Sequence[int]]) -> State:
    """A professional select-phase state (round 1) through the validated JSON form; cards played earlier
    this round lie in player 0's pile, the highest unused cards in the stock."""
    n = len(hands)
    r = rules_for("professional", n)
    used = {c for x in (*hands, *rows) for c in x}
    free = [c for c in r.deck if c not in used]
    stock = free[len(free) - (len(r.deck) - r.cards_dealt) :]
    pile = [c for c in free if c not in stock]
    return GAME.state_from_json(
        {
            "game": "take6",
            "variant": "professional",
            "players": n,
            "seed": 0,
            "options": {"professional_tie": "end"},
            "round": 1,
            "phase": "select",
            "rows": [list(x) for x in rows],
            "pending": [],
            "piles": [pile] + [[] for _ in range(n - 1)],
            "penalties": [sum(bullheads(c) for c in pile)] + [0] * (n - 1),
            "stock": stock,
            "start": 0,
            "deals": [],
            "hands": [sorted(h) for h in hands],
            "selected": [None] * n,
        }
    )


def test_professional_card_fitting_nowhere_makes_its_player_choose() -> None:
    """T6-PRO-5: a card with every row end above it and every row start below it fits nowhere: its player
    must choose a row (the engine never picks); later cards see the new row."""
    rows = ((10, 50), (20, 60), (30, 70), (40, 80))
    assert not place(rows, 45, "professional").fits
    assert place(rows, 45, "professional").clauses == ("T6-PRO-5",)
    s = professional_midround([[45, 90], [46, 91]], rows)
    s = turn(s, {0: 45, 1: 46})
    assert s.phase == "choose" and GAME.to_act(s) == (0,)
    assert GAME.legal_actions(s, 0) == tuple(TakeRow(0, r) for r in range(4))
    s = GAME.apply(s, TakeRow(0, 2))
    assert s.rows[2] == (45, 46)
    assert s.piles[0][-2:] == (30, 70)


# ------------------------------------------------------------------------------------------ kids


def test_kids_piles_and_five_rows() -> None:
    """T6-KIDS-1: 15-card face-down piles and 5 rows; the player sees only pile sizes, not the cards."""
    s = GAME.new_game(4, seed=3, variant="kids")
    assert [len(h) for h in s.hands] == [15] * 4 and len(s.rows) == 5
    obs = GAME.observation(s, 0)
    assert obs["hand"] is None and obs["hand_sizes"] == [15] * 4


def test_kids_piles_shrink_for_many_players() -> None:
    """T6-KIDS-5: 15n + 5 <= 104 allows 6 players; 7..10 players get the largest equal share; option
    kids_piles = strict refuses them."""
    assert [rules_for("kids", n).hand_size for n in range(2, 11)] == [15, 15, 15, 15, 15, 14, 12, 11, 9]
    with pytest.raises(IllegalSetup) as info:
        GAME.new_game(7, variant="kids", options={"kids_piles": "strict"})
    assert info.value.clause == "T6-KIDS-5"


def kids_deal() -> Deal:
    piles = ((30, *range(31, 45)), (5, *range(45, 59)))
    return Deal(hands=piles, rows=(10, 20, 60, 70, 80))


def test_kids_seat_order_flips_of_the_top_card() -> None:
    """T6-KIDS-2: seats flip in order 0, 1, 0, 1, ...; the top card of the pile (first listed) is placed by
    the usual rules; a card fitting no row makes its player choose."""
    s = GAME.new_game(2, variant="kids", setup=kids_deal())
    assert GAME.to_act(s) == (0,) and GAME.legal_actions(s, 0) == (Flip(0),)
    with pytest.raises(NotYourTurn):
        GAME.apply(s, Flip(1))
    s = GAME.apply(s, Flip(0))
    assert s.rows[1] == (20, 30)
    assert GAME.to_act(s) == (1,)
    s = GAME.apply(s, Flip(1))
    assert s.phase == "choose" and GAME.to_act(s) == (1,)
    s = GAME.apply(s, TakeRow(1, 4))
    assert s.rows[4] == (5,) and s.penalties == (0, bullheads(80))
    assert GAME.to_act(s) == (0,)


def test_kids_is_one_round_and_most_bullheads_wins() -> None:
    """T6-KIDS-3 and T6-KIDS-4: the game ends when the piles are played out (no 66, no second round); the
    most bullheads taken wins."""
    end = play_random(GAME.new_game(3, seed=8, variant="kids"), 1)
    assert end.round == 1 and all(h == () for h in end.hands)
    res = GAME.result(end)
    assert res.scores[res.winners[0]] == max(res.scores)
    assert res.ranking == tuple(sorted(range(3), key=lambda p: (-res.scores[p], p)))
    assert sum(res.scores) == sum(bullheads(c) for pile in end.piles for c in pile)


# ------------------------------------------------------------------------------------------ countdown


def test_countdown_is_the_standard_game_shown_from_66() -> None:
    """T6-COUNT-1: same seed and actions give the same states' outcomes as standard; points left are
    66 minus bullheads taken, and the result keeps bullheads as scores."""
    a = play_random(GAME.new_game(4, seed=21), 5)
    b = play_random(GAME.new_game(4, seed=21, variant="countdown"), 5)
    assert GAME.result(a) == GAME.result(b)
    obs = GAME.observation(b, 2)
    assert obs["points_left"] == [66 - x for x in b.penalties]
    assert min(obs["points_left"]) <= 0
    assert any("Points left" in line for line in GAME.describe_state(b))
