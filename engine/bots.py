"""Players for every seat: the engine never chooses for a player, a bot does, outside the rules.

>>> import random
>>> from engine.game import get_game
>>> game = get_game("take6")
>>> state = game.new_game(2, seed=3)
>>> action = random_bot(game, state, 0, random.Random(0))
>>> action in game.legal_actions(state, 0)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.game import Game

Bot = Callable[[Game, Any, int, random.Random], Any]


def random_bot(game: Game, state: Any, player: int, rng: random.Random) -> Any:
    """Choose uniformly among the player's legal actions, with the caller's explicit RNG."""
    actions = game.legal_actions(state, player)
    return actions[rng.randrange(len(actions))]


def playout(
    game: Game, state: Any, rng: random.Random, *, checked: bool = False, max_steps: int = 1_000_000
) -> tuple[Any, int]:
    """Play uniformly random legal actions until the game ends; return the final state and the step count.

    With ``checked`` every action goes through :meth:`Game.apply` (validated), else through
    :meth:`Game.apply_unchecked`.  The first of the players who must act acts first.  The pick is
    ``int(rng.random() * n)``: uniform up to the float's 53-bit resolution, and cheaper than ``randrange``
    (:func:`random_bot` keeps ``randrange``).
    """
    apply = game.apply if checked else game.apply_unchecked
    to_act = game.to_act
    legal = game.legal_actions
    pick = rng.random
    for steps in range(max_steps):
        acting = to_act(state)
        if not acting:
            return state, steps
        actions = legal(state, acting[0])
        state = apply(state, actions[int(pick() * len(actions))])
    raise RuntimeError(f"{game.name}: no end after {max_steps} steps")


BOTS: dict[str, Bot] = {"random": random_bot}
