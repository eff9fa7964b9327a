"""6 nimmt! edge cases at the boundaries of the rules (each test names its clause)."""

from __future__ import annotations

import random

from engine.take6 import GAME
from engine.take6.game import derived_seed


def test_rotating_logic_start_is_still_drawn_in_round_one() -> None:
    """T6-LOGIC-3 (option logic_start = rotate): the first round's start player is drawn at random exactly as
    without the option; only later rounds rotate."""
    for seed in range(8):
        rotate = GAME.new_game(4, seed=seed, variant="logic", options={"logic_start": "rotate"})
        drawn = random.Random(derived_seed(seed, 1)).randrange(4)
        assert rotate.start == drawn == GAME.new_game(4, seed=seed, variant="logic").start
