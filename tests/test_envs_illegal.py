"""PettingZoo environments and bad actions: an illegal action in ``env()`` follows the classic games'
convention (the mover loses, the game ends, the infos say why), ``strict=True`` refuses it; an action that is
not an integer index of the space is refused by every environment (AEC and Parallel) alike, the state
untouched; PettingZoo's ``average_total_reward`` runs on both games."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from extras import need

need("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from pettingzoo.utils import average_total_reward  # noqa: E402

from engine.envs import petersburg_v0, take6_v0  # noqa: E402
from engine.envs.aec import IllegalEnvAction  # noqa: E402
from engine.envs.returns import illegal_return  # noqa: E402

MODULES = [take6_v0, petersburg_v0]
NOT_INDICES = [9.9, "4", "x", math.inf, math.nan, True, [4], np.float64(4.0), np.array([4]), object(), b"4"]
"""Actions that are not an integer index (before: the Parallel environment took 9.9 as 9 and "4" as 4, and
answered "x", inf and None with raw ValueError, OverflowError and AttributeError)."""
OUT_OF_SPACE = [10**30, -1, 5000]


def _illegal(env: Any) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])


def _play_then_move_illegally(env: Any, steps: int, seed: int) -> tuple[str, int, dict[str, float], Any]:
    """Random legal steps, then one illegal action, then every agent's leaving step; each agent's rewards
    summed as an AEC loop sums them (``last()``): (mover, illegal index, totals, the infos after the illegal
    action)."""
    rng = random.Random(seed)
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    mover, index, infos = "", -1, {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        elif steps:
            steps -= 1
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        else:
            mover, index = agent, int(np.flatnonzero(obs["action_mask"] == 0)[0])
            env.step(index)
            infos = {a: dict(info) for a, info in env.infos.items()}
    return mover, index, totals, infos


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
@pytest.mark.parametrize("steps", [0, 25, 160])
def test_an_illegal_action_ends_the_game_and_the_mover_loses(module: Any, steps: int) -> None:
    """By default (PettingZoo's TerminateIllegalWrapper, as its classic games): an index outside the mask
    ends the game; the mover's rewards over the game sum to one below the lowest return a game can give
    (``illegal_return``: 4-player 6 nimmt! -173, Saint Petersburg -21), below every other seat, whose rewards
    sum to its score; every agent is terminated and every info says who, which index and why, with the
    engine's clause; a new game starts with fresh infos."""
    env = module.env(players=4)
    env.reset(seed=1)
    lowest = illegal_return(env.unwrapped.adapter.bounds(0.0))
    assert lowest == (-173.0 if module is take6_v0 else -21.0)
    mover, index, totals, infos = _play_then_move_illegally(env, steps, seed=steps)
    assert totals[mover] == lowest
    scores = env.unwrapped.adapter.score(env.engine_state)
    for p, agent in enumerate(env.possible_agents):
        if agent != mover:
            assert totals[agent] == env.unwrapped.adapter.sign * scores[p] > lowest
        move = infos[agent]["illegal_move"]
        assert move["agent"] == mover and move["action"] == index
        assert f"action {index} is not legal now" in move["reason"] and (
            "T6-" in move["reason"] or "SP-" in move["reason"]
        )
    assert env.agents == []
    env.reset(seed=2)
    assert all(info == {} for info in env.infos.values())


def test_illegal_reward_is_a_fixed_reward_and_the_rank_bonus_widens_the_bound() -> None:
    """``illegal_reward=r`` gives the mover the reward r, as the classic games give -1; with a rank bonus of 1
    the lowest return is one lower; a reward that is not a finite number is refused."""
    env = take6_v0.env(players=4, rank_bonus=1.0)
    env.reset(seed=0)
    mover, _index, totals, _infos = _play_then_move_illegally(env, 0, seed=0)
    assert totals[mover] == -174.0
    env = take6_v0.env(players=4, illegal_reward=-1)
    env.reset(seed=0)
    mover, _index, totals, _infos = _play_then_move_illegally(env, 0, seed=0)
    assert totals[mover] == -1.0
    bad: Any
    for bad in (math.nan, "1", True):
        with pytest.raises(ValueError, match="illegal_reward must be"):
            take6_v0.env(illegal_reward=bad)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_strict_refuses_the_illegal_action_and_changes_nothing(module: Any) -> None:
    """``strict=True`` keeps the reference behaviour: IllegalEnvAction naming the agent, the legal indices
    and the engine's refusal; the game goes on."""
    env = module.env(players=2, strict=True)
    env.reset(seed=1)
    before, agent = env.engine_state, env.agent_selection
    with pytest.raises(IllegalEnvAction, match=rf"{agent}: action \d+ is not legal now \(legal: \[.*\]\): "):
        env.step(_illegal(env))
    assert env.engine_state is before and not any(env.terminations.values())


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_average_total_reward_runs(module: Any) -> None:
    """``pettingzoo.utils.average_total_reward(env())`` runs (it samples the whole action space: nearly every
    sample is illegal and ends the game with the penalty) and returns a finite average."""
    random.seed(0)
    average = average_total_reward(module.env(players=2), max_episodes=3)
    assert math.isfinite(average)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_api_test_passes_with_the_default_wrappers_and_strict(module: Any) -> None:
    """PettingZoo's api_test accepts ``env()`` with the illegal-move wrapper and with ``strict=True``."""
    api_test(module.env(players=2), num_cycles=30)
    api_test(module.env(players=2, strict=True), num_cycles=30)


def _first_mover(par: Any, observations: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    mover = next(a for a, o in observations.items() if not o["action_mask"][par.wait])
    return mover, actions


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
@pytest.mark.parametrize("bad", NOT_INDICES + OUT_OF_SPACE, ids=repr)
def test_parallel_refuses_what_is_not_an_index_as_the_aec_does(module: Any, bad: Any) -> None:
    """The Parallel environment refuses an action that is not an integer index of its space with
    IllegalEnvAction naming the agent and the space, before any seat acts: the state and the step count are
    untouched, and the same step with legal actions then goes through."""
    par = module.parallel_env(players=2)
    observations, _ = par.reset(seed=0)
    mover, actions = _first_mover(par, observations)
    before, steps = par.engine_state, par.steps
    with pytest.raises(
        IllegalEnvAction,
        match=rf"^{mover}: (an action is an integer index 0\.\.\d+, got .* \(\w+\)"
        r"|action .* is outside the action space 0\.\.\d+)$",
    ):
        par.step({**actions, mover: bad})
    assert par.engine_state is before and par.steps == steps
    par.step(actions)
    assert par.engine_state is not before


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_parallel_refuses_actions_that_are_not_a_dict_of_agents(module: Any) -> None:
    """``step`` takes a dict from agent to action: a list, or an unknown agent, is refused by name."""
    par = module.parallel_env(players=2)
    observations, _ = par.reset(seed=0)
    _mover, actions = _first_mover(par, observations)
    with pytest.raises(IllegalEnvAction, match="actions must be a dict from agent to action, got"):
        par.step(list(actions.values()))
    with pytest.raises(IllegalEnvAction, match=r"unknown agent 'player_9' \(agents: player_0, player_1\)"):
        par.step({**actions, "player_9": 0})


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
@pytest.mark.parametrize("bad", NOT_INDICES + OUT_OF_SPACE, ids=repr)
def test_aec_refuses_what_is_not_an_index(module: Any, bad: Any) -> None:
    """``raw_env()`` refuses it with IllegalEnvAction (before: 9.9 was taken as 9 and "4" as 4); ``env()``
    with PettingZoo's AssertOutOfBoundsWrapper's message for what its space does not contain, and with
    IllegalEnvAction for a bool, which the space contains as 0 or 1 but is not an index.  Nothing changes,
    and the game does not end."""
    for env, wrapped in ((module.raw_env(players=2), False), (module.env(players=2), True)):
        env.reset(seed=0)
        before, agent = env.engine_state, env.agent_selection
        refusals: tuple[type[Exception], ...] = (
            (IllegalEnvAction, AssertionError) if wrapped else (IllegalEnvAction,)
        )
        with pytest.raises(refusals) as refused:
            env.step(bad)
        if isinstance(refused.value, AssertionError):
            assert str(refused.value) == "action is not in action space"
        assert env.engine_state is before and env.agent_selection == agent
        assert not any(env.terminations.values())


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_numpy_integers_are_indices(module: Any) -> None:
    """A numpy integer (any width) or a 0-d integer array is an index, as ``Discrete.contains`` says."""
    for make in (np.int64, np.int32, np.uint16, np.array):
        env = module.raw_env(players=2)
        env.reset(seed=0)
        legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
        before = env.engine_state
        env.step(make(legal))
        assert env.engine_state is not before
