"""6 nimmt! JSON states: every consistency check of ``state_from_json`` refuses what it must, naming the
field, and the rules behind the checks (the kids row capacity, state equality) hold in play."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.errors import InputError
from engine.take6 import GAME

Edit = Callable[[dict[str, Any]], None]


def position(variant: str = "standard", phase: str | None = None, players: int = 3, seed: int = 1) -> Any:
    """The first state of a seeded random game of ``variant`` in ``phase`` (the start when it is None)."""
    for s in range(seed, seed + 200):
        state = GAME.new_game(players, seed=s, variant=variant)
        rng = random.Random(s)
        while True:
            data = GAME.state_to_json(state)
            if phase is None or data["phase"] == phase:
                return state
            if GAME.is_terminal(state):
                break
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)))
    raise LookupError(phase)  # pragma: no cover - every phase is reached within a few seeds


def refused(state: Any, edit: Edit) -> InputError:
    """The InputError for ``state``'s JSON form after ``edit`` (the unedited form must parse back)."""
    data = copy.deepcopy(GAME.state_to_json(state))
    assert GAME.state_from_json(data) == state
    edit(data)
    with pytest.raises(InputError) as exc:
        GAME.state_from_json(data)
    return exc.value


def _move_to_stock(data: dict[str, Any], card: int) -> None:
    data["stock"] = sorted([*data["stock"], card])


def _swap_first_two(key: str, index: int) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        cards = data[key][index]
        cards[0], cards[1] = cards[1], cards[0]

    return edit


def _hand_card_to_stock(data: dict[str, Any]) -> None:
    _move_to_stock(data, data["hands"][0].pop())


def _duplicate_hand_card_in_stock(data: dict[str, Any]) -> None:
    _move_to_stock(data, data["hands"][0][0])


def _lose_a_stock_card(data: dict[str, Any]) -> None:
    data["stock"].pop()


def _unsort_stock(data: dict[str, Any]) -> None:
    data["stock"][0], data["stock"][1] = data["stock"][1], data["stock"][0]


def _drop_a_row(data: dict[str, Any]) -> None:
    _move_to_stock(data, data["rows"].pop()[0])


def _select_everyone(data: dict[str, Any]) -> None:
    data["selected"] = [hand.pop() for hand in data["hands"]]


def _selected_still_in_hand(data: dict[str, Any]) -> None:
    data["selected"][0] = data["hands"][0][0]


def _pending_in_select(data: dict[str, Any]) -> None:
    data["pending"] = [[data["hands"][0].pop(), 0]]
    data["selected"][0] = None


def _over_capacity(data: dict[str, Any]) -> None:
    row = data["rows"][0]
    higher = [c for c in data["stock"] if c > row[-1]][:5]
    for card in higher:
        data["stock"].remove(card)
    row.extend(higher)


CASES: list[tuple[str, Edit, str, str]] = [
    ("unsorted stock", _unsort_stock, "stock", "must be sorted"),
    ("a card in two places", _duplicate_hand_card_in_stock, "stock", "is also elsewhere"),
    ("a card nowhere", _lose_a_stock_card, "stock", "of the deck is nowhere"),
    ("a row missing", _drop_a_row, "rows", "expected 4 rows, got 3"),
    ("a row descending", lambda d: d["rows"][0].insert(0, d["stock"].pop()), "rows[0]", "cards ascend"),
    ("a row of six", _over_capacity, "rows[0]", "holds 6 cards, at most 5"),
    ("an unsorted hand", _swap_first_two("hands", 0), "hands[0]", "must be sorted"),
    ("uneven hands", _hand_card_to_stock, "hands", "one card a turn each"),
    ("everyone selected", _select_everyone, "selected", "every player has selected"),
    ("a selected card kept in hand", _selected_still_in_hand, "selected", ""),
    ("a pending card while selecting", _pending_in_select, "pending", "only in phase choose"),
    ("penalties below the pile", lambda d: d.update(penalties=[-1, 0, 0]), "penalties", ">= 0"),
    ("a round of zero", lambda d: d.update(round=0), "round", ""),
    ("an unknown phase", lambda d: d.update(phase="bidding"), "phase", "expected one of"),
    ("another game", lambda d: d.update(game="petersburg"), "game", "expected 'take6'"),
    ("an option missing", lambda d: d.update(variant="professional"), "options", ""),
    ("an extra field", lambda d: d.update(extra=1), "extra", "unknown field"),
    ("a field missing", lambda d: d.pop("stock"), "stock", "missing field"),
    ("a seat out of range", lambda d: d.update(start=3), "start", "from 0 to 2"),
]


@pytest.mark.parametrize(("name", "edit", "field", "message"), CASES, ids=[c[0] for c in CASES])
def test_state_json_consistency_checks(name: str, edit: Edit, field: str, message: str) -> None:
    """T6-DECK-1: every card of the deck is in exactly one place; T6-PLACE-1/T6-PLACE-2: rows ascend and hold
    at most five cards; T6-SELECT-1: a turn's selections match the hands.  A JSON state breaking one of them
    is refused with an InputError naming the field."""
    exc = refused(position(), edit)
    assert exc.field.startswith(field), exc
    assert message in exc.message, exc


def test_penalties_cover_the_pile() -> None:
    """T6-PILE-1: a player's penalty is at least the bullheads in the pile taken this round."""
    state = position("standard", seed=3)
    for _ in range(200):
        data = GAME.state_to_json(state)
        if any(data["piles"]):
            break
        state = GAME.apply(state, GAME.legal_actions(state, GAME.to_act(state)[0])[0])
    seat = next(p for p, pile in enumerate(data["piles"]) if pile)
    exc = refused(state, lambda d: d["penalties"].__setitem__(seat, 0))
    assert exc.field == f"penalties[{seat}]"


def test_choose_phase_checks() -> None:
    """T6-PLACE-3: a row choice is due only for a pending card lower than every row end, with no hidden
    selection; the pending cards are resolved in ascending order."""
    state = position("standard", "choose")

    def no_pending(d: dict[str, Any]) -> None:
        for card, _owner in d["pending"]:
            _move_to_stock(d, card)
        d["pending"] = []

    assert refused(state, no_pending).field == "pending"
    if len(GAME.state_to_json(state)["pending"]) > 1:
        assert refused(state, lambda d: d["pending"].reverse()).field == "pending"


def test_kids_flip_and_finished_states_are_checked() -> None:
    """T6-KIDS-2: in the kids game the seats flip in turn, so the face-down piles shrink one seat at a
    time; T6-END-1: a finished game has no cards left in hand."""
    state = position("kids", "flip")
    exc = refused(state, lambda d: _move_to_stock(d, d["hands"][2].pop()))
    assert exc.field.startswith("hands") and "[T6-KIDS-2]" in str(exc)
    exc = refused(state, lambda d: d.update(phase="select"))
    assert exc.field == "phase"
    over = position("standard", "over")
    exc = refused(over, lambda d: d["hands"][0].append(d["stock"].pop(0)))
    assert exc.field == "hands" and "[T6-END-1]" in str(exc)


def test_logic_draft_states_are_checked() -> None:
    """T6-LOGIC-1: during the draft there are no rows yet, and the hands grow one card at a time from the
    starting seat."""
    state = position("logic", "draft")
    exc = refused(
        state,
        lambda d: (
            d["hands"][0].append(d["stock"].pop(0))
            if d["start"] != 0
            else d["hands"][1].append(d["stock"].pop(0))
        ),
    )
    assert exc.field.startswith("hands") and "[T6-LOGIC-1]" in str(exc)
    exc = refused(state, lambda d: d.update(phase="select"))
    assert exc.field in ("rows", "phase", "hands")


def test_shorter_even_hands_are_a_later_turn() -> None:
    """T6-SETUP-2 / T6-SELECT-1: a JSON state is a position, so even hands shorter than the deal's are a
    later turn of the round (the cards out of play are the stock), not an error: one card fewer in every
    hand is turn 2, and the state reads back to itself."""
    state = position("standard")
    data = copy.deepcopy(GAME.state_to_json(state))
    for hand in data["hands"]:
        _move_to_stock(data, hand.pop())
    later = GAME.state_from_json(data)
    assert state.turn == 1 and later.turn == 2
    assert GAME.state_from_json(GAME.state_to_json(later)) == later


def test_kids_rows_hold_five_cards() -> None:
    """T6-KIDS-1 / T6-PLACE-2: in the kids game, as in the standard one, a row holds five cards and the sixth
    takes it: over seeded games some row reaches five cards and none ever holds six."""
    longest = 0
    for seed in range(6):
        state = GAME.new_game(4, seed=seed, variant="kids")
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state, GAME.to_act(state)[0])))
            longest = max(longest, *(len(r) for r in GAME.state_to_json(state)["rows"]))
    assert longest == 5


def test_state_equality_and_inequality() -> None:
    """A state is a value: equal states compare equal and not unequal; states one action apart compare
    unequal (``!=`` is the negation of ``==``)."""
    a = GAME.new_game(3, seed=1)
    b = GAME.new_game(3, seed=1)
    c = GAME.apply(a, GAME.legal_actions(a, 0)[0])
    assert a == b and not a != b  # noqa: SIM202 - the operator itself is under test
    assert a != c and not a == c  # noqa: SIM201
    assert a != "not a state" and not a == 7  # noqa: SIM201
