"""OpenSpiel's MCTS and ISMCTS against random play on both games: ``python -m engine.envs.openspiel_demo``.

Seat 0 is a search bot, every other seat plays uniformly at random:

* ``MCTS``: :class:`open_spiel.python.algorithms.mcts.MCTSBot` (UCT with random rollouts) searches the true
  state: a determinized, all-seeing search, an upper reference rather than a fair player;
* ``ISMCTS``: :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot` searches the information state: each
  simulation starts from a world drawn by ``resample_from_infostate``, so it sees only what seat 0 sees.

The games are kept short (``max_rounds``) so the demonstration runs in seconds; 6 nimmt! goes through
``pyspiel.convert_to_turn_based``, since both searches need sequential turns, with
:class:`~engine.envs.openspiel.TurnBasedResampler` giving ISMCTS its resampling.  Prints each game's win
rates (a shared first place counts as a fraction) beside the random seats'.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from engine import cliargs
from engine.envs.openspiel import TurnBasedResampler

__all__ = ["BOTS", "DEMOS", "main", "make_bot", "play", "win_shares"]

DEMOS: tuple[tuple[str, dict[str, Any], bool], ...] = (
    ("python_take6", {"players": 2, "max_rounds": 1, "terminal_rewards": True}, True),
    ("python_petersburg", {"players": 2, "max_rounds": 1, "terminal_rewards": True}, False),
)
"""(game, parameters, needs the turn-based conversion)."""
BOTS = ("MCTS", "ISMCTS")


def make_bot(kind: str, game: Any, simulations: int, seed: int) -> Any:
    """An ``MCTS`` or ``ISMCTS`` bot with random rollouts (UCT constant 2)."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    if kind == "MCTS":
        return mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=evaluator,
            solve=False,
            random_state=np.random.RandomState(seed),
        )
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=np.random.RandomState(seed)
    )
    if game.get_type().short_name == "turn_based_simultaneous_game":
        bot.set_resampler(TurnBasedResampler(seed))
    return bot


def play(game: Any, bot: Any, rng: random.Random) -> list[float]:
    """One game: seat 0 is ``bot``, the others random; returns the final returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.current_player() == 0:
            legal = state.legal_actions()
            state.apply_action(legal[0] if len(legal) == 1 else bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns: list[float] = state.returns()
    return returns


def win_shares(returns: Sequence[float]) -> list[float]:
    """Each seat's share of the win: 1 / (number of seats with the best return) for those, else 0.

    >>> win_shares([3.0, 5.0, 5.0])
    [0.0, 0.5, 0.5]
    """
    best = max(returns)
    top = [r == best for r in returns]
    return [1 / sum(top) if t else 0.0 for t in top]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demonstration and print the win rates."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.envs.openspiel_demo", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=cliargs.count("--games"), default=10,
                        help="games per game and bot (default 10)")
    parser.add_argument("--simulations", type=cliargs.count("--simulations"), default=40,
                        help="simulations per move (default 40)")
    parser.add_argument("--bots", nargs="+", choices=BOTS, default=list(BOTS), help="the search bots")
    parser.add_argument("--seed", type=cliargs.seed("--seed"), default=0)
    args = parser.parse_args(argv)
    if args.games < 1 or args.simulations < 1:
        parser.error("--games and --simulations must be positive")
    for name, params, turn_based in DEMOS:
        game = pyspiel.load_game(name, params)
        if turn_based:
            game = pyspiel.convert_to_turn_based(game)
        n = game.num_players()
        print(f"{name} {params}: {args.games} games per bot, {args.simulations} simulations per move")
        for kind in args.bots:
            bot = make_bot(kind, game, args.simulations, args.seed)
            rng = random.Random(args.seed)
            wins = [0.0] * n
            totals = [0.0] * n
            for _ in range(args.games):
                returns = play(game, bot, rng)
                wins = [w + s for w, s in zip(wins, win_shares(returns), strict=True)]
                totals = [t + r for t, r in zip(totals, returns, strict=True)]
            others = sum(wins[1:]) / (args.games * (n - 1))
            mean = sum(totals[1:]) / (args.games * (n - 1))
            print(
                f"  {kind:<6} seat 0: win rate {wins[0] / args.games:.2f}, mean return "
                f"{totals[0] / args.games:.1f}; random seats: win rate {others:.2f}, mean return {mean:.1f}"
            )
        print(f"  (an even share would be {1 / n:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
