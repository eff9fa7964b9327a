"""6 nimmt! edge cases at the boundaries of the rules (each test names its clause)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import InputError
from engine.take6 import GAME, DraftStart, Select, TakeRow
from engine.take6.game import derived_seed


def test_rotating_logic_start_is_still_drawn_in_round_one() -> None:
    """T6-LOGIC-3 (option logic_start = rotate): the first round's start player is drawn at random exactly as
    without the option; only later rounds rotate."""
    for seed in range(8):
        rotate = GAME.new_game(4, seed=seed, variant="logic", options={"logic_start": "rotate"})
        drawn = random.Random(derived_seed(seed, 1)).randrange(4)
        assert rotate.start == drawn == GAME.new_game(4, seed=seed, variant="logic").start


def test_take_row_json_bounds_the_row_index() -> None:
    """T6-CHOOSE-2: a row choice names a row; the JSON form refuses an index no table could have (above 15)
    and leaves a plausible but absent row to the rules (an IllegalAction naming the clause)."""
    with pytest.raises(InputError) as exc:
        GAME.action_from_json({"type": "take_row", "player": 0, "row": 16})
    assert exc.value.field == "row"
    assert GAME.action_from_json({"type": "take_row", "player": 0, "row": 15}) == TakeRow(0, 15)


def _first_turn_below_every_row(variant: str) -> tuple[Any, int, int]:
    """A 2-player start where seat 0's lowest card is below every row and below seat 1's cards."""
    for seed in range(500):
        state = GAME.new_game(2, seed=seed, variant=variant)
        data = GAME.state_to_json(state)
        low, other = min(data["hands"][0]), min(data["hands"][1])
        if low < min(r[0] for r in data["rows"]) and low < other:
            return state, low, other
    raise LookupError(variant)  # pragma: no cover


@pytest.mark.parametrize(
    ("variant", "choice"),
    [("standard", True), ("tactics", True), ("countdown", True), ("professional", False)],
)
def test_a_card_below_every_row_is_placed_by_the_variants_rule(variant: str, choice: bool) -> None:
    """T6-PLACE-3: a card lower than every row end makes its player choose a row to take — in every variant
    placing after row ends; T6-PRO-1: in the professional game it goes before a row's first card instead."""
    state, low, other = _first_turn_below_every_row(variant)
    state = GAME.apply(GAME.apply(state, Select(0, low)), Select(1, other))
    assert (GAME.state_to_json(state)["phase"] == "choose") is choice


def test_a_draft_start_set_up_names_any_of_ten_seats() -> None:
    """T6-LOGIC-3 with an explicit set-up: the round's first drafter is any seat of the largest game (0..9);
    seat 10 does not exist."""
    data = GAME.state_to_json(GAME.new_game(10, seed=1, variant="logic"))
    data["deals"] = [{"type": "draft_start", "player": 9}]
    assert GAME.state_from_json(data).deals == (DraftStart(player=9),)
    data["deals"] = [{"type": "draft_start", "player": 10}]
    with pytest.raises(InputError) as exc:
        GAME.state_from_json(data)
    assert exc.value.field == "deals[0].player"


def test_the_description_shows_the_face_up_pool_only_during_the_draft() -> None:
    """T6-LOGIC-1: in the logic game the deck lies face up and is drafted; the state's description lists that
    pool during the draft, and no pool once the rows are laid out."""
    state = GAME.new_game(3, seed=1, variant="logic")
    assert any(line.startswith("  Face-up pool: ") for line in GAME.describe_state(state))
    standard = GAME.new_game(3, seed=1)
    assert not any("Face-up pool" in line for line in GAME.describe_state(standard))
