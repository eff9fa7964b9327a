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
from engine.envs.returns import illegal_penalty  # noqa: E402

MODULES = [take6_v0, petersburg_v0]
NOT_INDICES = [9.9, "4", "x", math.inf, math.nan, True, [4], np.float64(4.0), np.array([4]), object(), b"4"]
"""Actions that are not an integer index (before: the Parallel environment took 9.9 as 9 and "4" as 4, and
answered "x", inf and None with raw ValueError, OverflowError and AttributeError)."""
OUT_OF_SPACE = [10**30, -1, 5000]


def _illegal(env: Any) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_an_illegal_action_ends_the_game_and_the_mover_loses(module: Any) -> None:
    """By default (PettingZoo's TerminateIllegalWrapper, as its classic games): an index outside the mask
    ends the game; its agent gets minus the span of a return (so its total is the lowest a game can give),
    every other agent 0; every agent is terminated and every info says who, which index and why, with the
    engine's clause."""
    env = module.env(players=3)
    env.reset(seed=1)
    mover = env.agent_selection
    penalty = illegal_penalty(env.unwrapped.adapter.bounds(0.0))
    assert penalty < 0
    before = env.engine_state
    index = _illegal(env)
    env.step(index)
    assert env.engine_state is before
    assert env.rewards == {a: (penalty if a == mover else 0) for a in env.possible_agents}
    assert all(env.terminations.values()) and all(env.truncations.values())
    for agent in env.possible_agents:
        move = env.infos[agent]["illegal_move"]
        assert move["agent"] == mover and move["action"] == index
        assert f"action {index} is not legal now" in move["reason"] and ("T6-" in move["reason"] or "SP-" in move["reason"])
    for agent in env.agent_iter():
        assert env.last()[2]
        env.step(None)
    env.reset(seed=2)
    assert all(info == {} for info in env.infos.values())  # a new game starts with fresh infos


def test_the_default_penalty_is_the_configurations_span() -> None:
    """4-player standard 6 nimmt! returns lie in -172..0 (65 bullheads before the last round, then the 40
    heaviest cards): an illegal move costs 172; a rank bonus of 1 widens the span by 2; ``illegal_reward``
    sets it."""
    for bonus, expected in ((0.0, -172.0), (1.0, -174.0)):
        env = take6_v0.env(players=4, rank_bonus=bonus)
        env.reset(seed=0)
        mover = env.agent_selection
        env.step(_illegal(env))
        assert env.rewards[mover] == expected
    env = take6_v0.env(players=4, illegal_reward=-1)
    env.reset(seed=0)
    mover = env.agent_selection
    env.step(_illegal(env))
    assert env.rewards[mover] == -1.0
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
    with pytest.raises(IllegalEnvAction, match=rf"^{mover}: (an action is an integer index 0\.\.\d+, got .* \(\w+\)|action .* is outside the action space 0\.\.\d+)$"):
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
        refusals: tuple[type[Exception], ...] = (IllegalEnvAction, AssertionError) if wrapped else (IllegalEnvAction,)
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
