"""``arbiter bench GAME``: full random games per second on both API tiers.

The random policy picks uniformly among the legal actions of the first player who must act.  The checked
tier applies every action through :meth:`Game.apply` (validated, as a caller uses it); the unchecked tier
through :meth:`Game.apply_unchecked` (the same transition code without re-validation).  Figures are
printed, never asserted: speed is measured here, not in a timed test.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from attrs import frozen

from engine.bots import playout
from engine.errors import InputError
from engine.game import Game, game_names, get_game

DEFAULT_PLAYERS = {"take6": (2, 4, 10), "petersburg": (2, 4)}


@frozen
class BenchFigure:
    """One measured line: game, players, tier, games, seconds, steps."""

    game: str
    players: int
    tier: str
    games: int
    seconds: float
    steps: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def measure(game: Game, players: int, *, checked: bool, seconds: float, seed: int = 0,
            variant: str | None = None) -> BenchFigure:
    """Play random games for about ``seconds`` and count them (set-up included in the time)."""
    rng = random.Random(seed)
    games = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_game(players, seed=seed + games, variant=variant)
        _final, n = playout(game, state, rng, checked=checked)
        games += 1
        steps += n
        now = time.perf_counter()
        if now >= deadline:
            break
    return BenchFigure(game.name, players, "checked" if checked else "unchecked", games, now - start, steps)


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter bench``."""
    if not 0 < args.seconds <= 3600:  # also refuses nan
        raise InputError("--seconds", f"expected a duration in (0, 3600], got {args.seconds}")
    game = get_game(args.game)
    counts: tuple[int, ...] = tuple(args.players) if args.players else DEFAULT_PLAYERS.get(
        game.name, (game.min_players, game.max_players)
    )
    print(f"{game.title}: random games to the end, {args.seconds:g} s per line")
    print(f"{'players':>7}  {'tier':<9}  {'games':>7}  {'games/s':>9}  {'actions/s':>10}")
    for n in counts:
        for checked in (False, True):
            fig = measure(game, n, checked=checked, seconds=args.seconds, variant=args.variant)
            print(f"{n:>7}  {fig.tier:<9}  {fig.games:>7}  {fig.games_per_second:>9.0f}  "
                  f"{fig.steps_per_second:>10.0f}")
    return 0


def register(sub: Any) -> None:
    """Add ``bench`` to the command line."""
    p = sub.add_parser("bench", help="measure random full games per second on both API tiers")
    p.add_argument("game", choices=game_names())
    p.add_argument("--players", type=int, action="append", help="player count (repeatable)")
    p.add_argument("--seconds", type=float, default=3.0, help="time per line (default 3)")
    p.add_argument("--variant", default=None)
    p.set_defaults(run=run)
