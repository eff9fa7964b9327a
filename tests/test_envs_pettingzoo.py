"""PettingZoo conventions both games' environments keep: ``state()`` is the global view, ``env()`` is
wrapped as PettingZoo's classic games are, render modes behave as PettingZoo's, and Saint Petersburg has a
Parallel environment that PettingZoo's parallel_api_test accepts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from extras import need

need("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: E402

from engine.envs import petersburg_v0, take6_v0  # noqa: E402
from engine.envs.aec import IllegalEnvAction  # noqa: E402
from engine.petersburg import GAME as SP  # noqa: E402

MODULES = [take6_v0, petersburg_v0]


def _masked_step(env: Any, rng: random.Random) -> None:
    obs, _, terminated, truncated, _ = env.last()
    legal = np.flatnonzero(obs["action_mask"])
    env.step(None if terminated or truncated else int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_state_is_every_seats_observation_through_the_wrappers(module: Any) -> None:
    """``env.state()`` (PettingZoo's global view, here through every wrapper of ``env()``) is the seats'
    observation vectors concatenated, within ``state_space``; the engine's state is ``engine_state``."""
    env = module.env(players=3)
    env.reset(seed=2)
    rng = random.Random(0)
    for _ in range(25):
        _masked_step(env, rng)
        state = env.state()
        parts = [env.observe(a)["observation"] for a in env.possible_agents]
        assert np.array_equal(state, np.concatenate(parts)) and state.dtype == np.float32
        assert env.state_space.contains(state)
    assert env.unwrapped.engine_state is env.engine_state


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_parallel_state_is_the_global_view(module: Any) -> None:
    """The Parallel environment's ``state()`` is the same concatenation."""
    par = module.parallel_env(players=2)
    observations, _ = par.reset(seed=1)
    state = par.state()
    assert np.array_equal(
        state, np.concatenate([observations[a]["observation"] for a in par.possible_agents])
    )
    assert par.state_space.contains(state)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_env_is_wrapped_like_pettingzoos_classic_games(module: Any) -> None:
    """``env()`` is the raw environment in AssertOutOfBounds and OrderEnforcing wrappers: before ``reset``,
    ``step`` gives PettingZoo's usual message; ``raw_env()`` stays unwrapped."""
    env = module.env(players=2)
    assert isinstance(env, OrderEnforcingWrapper) and not isinstance(module.raw_env(), OrderEnforcingWrapper)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        env.step(0)
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        _ = env.agent_selection


def test_illegal_reward_ends_the_game_instead_of_raising() -> None:
    """With ``illegal_reward`` the game ends on an illegal action, giving the agent that reward; with
    ``strict=True`` the illegal action raises IllegalEnvAction."""
    env = take6_v0.env(players=2, illegal_reward=-100.0)
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    assert env.rewards[agent] == -100.0 and all(env.terminations.values())
    strict = take6_v0.env(players=2, strict=True)
    strict.reset(seed=0)
    with pytest.raises(IllegalEnvAction):
        strict.step(illegal)
    with pytest.raises(ValueError, match="not with strict=True"):
        take6_v0.env(strict=True, illegal_reward=-1.0)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_render_without_a_mode_warns(module: Any) -> None:
    """``render()`` without a render mode warns (PettingZoo's environments' message) and returns None."""
    env = module.env(players=2)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None
    with pytest.raises(ValueError, match="render_mode must be None or one of human, ansi, rgb_array"):
        module.env(render_mode="pixels")


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_rgb_array_render_is_the_picture(module: Any) -> None:
    """``render_mode="rgb_array"`` returns the position's picture as an H x W x 3 uint8 array: a light
    table with dark text and card outlines on it."""
    need("resvg_py")
    env = module.env(players=2, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 200 and image.shape[1] > 300
    dark = (image.max(axis=2) < 100).mean()
    assert 0.002 < dark < 0.3 and image.mean() > 180


@pytest.mark.parametrize("variant", SP.variants)
def test_petersburg_parallel_api_test(variant: str) -> None:
    """PettingZoo's parallel_api_test passes on Saint Petersburg's Parallel environment (both editions)."""
    parallel_api_test(petersburg_v0.parallel_env(players=3, variant=variant), num_cycles=400)


def _play(par: Any, seed: int) -> tuple[list[tuple[float, ...]], Any]:
    rng = random.Random(seed)
    observations, _ = par.reset(seed=seed)
    totals = dict.fromkeys(par.possible_agents, 0.0)
    trace = []
    while par.agents:
        acting = SP.to_act(par.engine_state)
        for p, agent in enumerate(par.possible_agents):
            legal = list(np.flatnonzero(observations[agent]["action_mask"]))
            assert (legal == [petersburg_v0.WAIT]) == (p not in acting)
        actions = {
            a: int(rng.choice(list(np.flatnonzero(o["action_mask"])))) for a, o in observations.items()
        }
        observations, rewards, *_ = par.step(actions)
        trace.append(tuple(rewards.values()))
        for a, r in rewards.items():
            totals[a] += r
    return trace, totals


def test_petersburg_parallel_plays_whole_games_one_turn_a_step() -> None:
    """Each Parallel step is one seat's turn (SP-TURN-1): that seat's mask is its legal actions, every other
    seat's is only WAIT; a whole game's rewards sum to the final VP, and one seed plays the same twice."""
    par = petersburg_v0.parallel_env(players=3)
    trace, totals = _play(par, 4)
    assert SP.is_terminal(par.engine_state)
    assert [totals[a] for a in par.possible_agents] == list(par.engine_state.vp)
    assert trace == _play(petersburg_v0.parallel_env(players=3), 4)[0]


def test_petersburg_parallel_refuses_an_action_from_a_seat_not_to_act() -> None:
    """A seat that is not to act must send WAIT or nothing."""
    par = petersburg_v0.parallel_env(players=2)
    observations, _ = par.reset(seed=0)
    acting = SP.to_act(par.engine_state)[0]
    mover, other = par.possible_agents[acting], par.possible_agents[1 - acting]
    legal = int(np.flatnonzero(observations[mover]["action_mask"])[0])
    with pytest.raises(IllegalEnvAction, match="send WAIT"):
        par.step({mover: legal, other: 0})
    par.step({mover: legal})
