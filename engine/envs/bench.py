"""Environment speed beside the bare engine: ``python -m engine.envs.bench``.

Every line plays random games with a random *masked* action each step.  In the environments the
observation vector and the action mask are computed at every step (``env.last()`` in the AEC loop, every
agent's observation in a Parallel step); the engine line runs the same policy on the engine alone
(``legal_actions`` then ``apply_unchecked``).  Each figure is the median over ``--repeats`` runs of the CPU
time (``time.process_time``) of ``--steps`` steps, with the spread (min..max) beside it; the last column
is the environment's cost per step relative to the engine's cost per action (Parallel: per engine action
applied, since one step carries a whole selection).  Figures are printed, never asserted.

The policy's own work is in every line: the engine line picks from the legal tuple, the environment lines
from the mask (``mask.nonzero()`` then a random index), which costs more.  The "masked pick" line times
that pick alone over masks recorded from the AEC environment, and the AEC line shows its ratio without it
beside the ratio with it.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from engine import cliargs
from engine.game import Game
from engine.measure import cpu_runs

__all__ = ["main", "record_masks", "run_aec", "run_engine", "run_parallel", "run_pick"]


def run_engine(game: Game, new_state: Callable[[int], Any], steps: int, seed: int = 0) -> int:
    """Random legal actions on the bare engine for ``steps`` actions (new games as needed).

    >>> from engine.take6 import GAME
    >>> run_engine(GAME, lambda seed: GAME.new_game(2, seed=seed), 300)
    300
    """
    rng = random.Random(seed)
    pick = rng.random
    legal = game.legal_actions
    apply = game.apply_unchecked
    to_act = game.to_act
    state = new_state(seed)
    games = 1
    for _ in range(steps):
        acting = to_act(state)
        if not acting:
            state = new_state(seed + games)
            games += 1
            acting = to_act(state)
        actions = legal(state, acting[0])
        state = apply(state, actions[int(pick() * len(actions))])
    return steps


def run_aec(env: Any, steps: int, seed: int = 0) -> int:
    """Random masked actions in an AEC environment for ``steps`` live steps (dead steps not counted)."""
    rng = random.Random(seed)
    pick = rng.random
    env.reset(seed=seed)
    done = 0
    while done < steps:
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(legal[int(pick() * len(legal))])
        done += 1
    return done


def run_parallel(env: Any, steps: int, seed: int = 0, wait: int = -1) -> int:
    """Random masked actions in a Parallel environment for ``steps`` steps; returns the engine actions
    applied (an agent whose only legal action is ``wait`` applies none)."""
    rng = random.Random(seed)
    pick = rng.random
    obs, _ = env.reset(seed=seed)
    moves = 0
    for _ in range(steps):
        actions = {}
        for agent, o in obs.items():
            legal = o["action_mask"].nonzero()[0]
            action = actions[agent] = legal[int(pick() * len(legal))]
            moves += action != wait
        obs, *_ = env.step(actions)
        if not env.agents:
            obs, _ = env.reset()
    return moves


def record_masks(env: Any, steps: int, seed: int = 0) -> list[Any]:
    """The action masks an AEC environment gives in ``steps`` live steps of random masked play."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    masks: list[Any] = []
    while len(masks) < steps:
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        masks.append(obs["action_mask"])
        legal = obs["action_mask"].nonzero()[0]
        env.step(legal[rng.randrange(len(legal))])
    return masks


def run_pick(masks: Sequence[Any], steps: int, seed: int = 0) -> int:
    """The random masked pick of :func:`run_aec` alone, over ``masks`` in turn, for ``steps`` picks.

    >>> import numpy as np
    >>> run_pick([np.array([0, 1, 1], np.int8)], 10)
    10
    """
    rng = random.Random(seed)
    pick = rng.random
    k = len(masks)
    for i in range(steps):
        legal = masks[i % k].nonzero()[0]
        legal[int(pick() * len(legal))]
    return steps


def _measure(work: Callable[[], int], repeats: int) -> tuple[float, float, float]:
    """Median, min and max per-step CPU seconds over ``repeats`` runs of ``work`` (each run does the same
    number of steps), measured as every bench of the project is (:func:`engine.measure.cpu_runs`)."""
    runs = cpu_runs(work, repeats)
    per_step = [seconds / runs.actions for seconds in runs.seconds]
    return statistics.median(per_step), min(per_step), max(per_step)


def _line(label: str, figures: tuple[float, float, float], engine: float | None, pick: float = 0.0) -> str:
    med, lo, hi = figures
    spread = f"({1 / hi:,.0f}..{1 / lo:,.0f})"
    ratio = f"{med / engine:6.1f}x" if engine else ""
    if engine and pick:
        ratio += f"  ({(med - pick) / engine:.1f}x without the masked pick)"
    return f"  {label:<34} {1 / med:>10,.0f}  {spread:<22}{ratio}".rstrip()


def main(argv: Sequence[str] | None = None) -> int:
    """Print steps per second of both games on the engine, the AEC environment and (6 nimmt!) the Parallel
    environment."""
    parser = argparse.ArgumentParser(prog="python -m engine.envs.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=cliargs.count("--steps"), default=20_000,
                        help="steps per run (default 20000)")
    parser.add_argument("--repeats", type=cliargs.count("--repeats"), default=5,
                        help="runs per line (default 5)")
    parser.add_argument("--players", type=cliargs.count("--players", hi=cliargs.MAX_SEAT + 1), default=4,
                        help="players (default 4)")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.repeats < 1:
        parser.error("--steps and --repeats must be positive")
    from engine.envs import petersburg_v0, take6_v0

    n, steps, repeats = args.players, args.steps, args.repeats
    print(
        f"Random masked actions, {n} players: steps/s, median of {repeats} runs of {steps} steps of CPU time "
        "(spread min..max); cost per step relative to the engine"
    )
    for title, module in (("6 nimmt!", take6_v0), ("Saint Petersburg", petersburg_v0)):
        aec = module.raw_env(players=n)  # the environment itself, without PettingZoo's wrappers
        adapter = aec.adapter
        engine = _measure(partial(run_engine, adapter.game, adapter.new_state, steps), repeats)
        masks = record_masks(module.raw_env(players=n), min(steps, 5000))
        pick = _measure(partial(run_pick, masks, steps), repeats)
        print(f"{title}")
        print(_line("engine (legal_actions + apply)", engine, None))
        figures = _measure(partial(run_aec, aec, steps), repeats)
        print(_line("AEC env (last + step)", figures, engine[0], pick[0]))
        par = module.parallel_env(players=n)
        per = n if module is take6_v0 else 1  # 6 nimmt!: one Parallel step is a whole selection
        figures = _measure(partial(run_parallel, par, steps // per, wait=par.wait), repeats)
        print(_line("Parallel env (per engine action)", figures, engine[0]))
        print(_line("masked pick (nonzero + index)", pick, engine[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
