"""arbiter: the reference rules engine for 6 nimmt! (Take 6!) and Saint Petersburg.

Rules live as cited data tables in ``spec/``; this package loads and checks them and interprets them.

>>> from engine import get_game
>>> game = get_game("take6")
>>> state = game.new_game(3, seed=7)
>>> sorted(game.to_act(state))
[0, 1, 2]
"""

from engine.errors import (
    AmbiguousAction,
    ArbiterError,
    GameOver,
    IllegalAction,
    IllegalSetup,
    InputError,
    NotYourTurn,
    RuleViolation,
    SpecError,
)
from engine.game import Game, Result, game_names, get_game

__all__ = [
    "AmbiguousAction",
    "ArbiterError",
    "Game",
    "GameOver",
    "IllegalAction",
    "IllegalSetup",
    "InputError",
    "NotYourTurn",
    "Result",
    "RuleViolation",
    "SpecError",
    "game_names",
    "get_game",
]

__version__ = "0.1.0"
