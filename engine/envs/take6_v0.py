"""6 nimmt! as PettingZoo environments: ``env()`` (AEC) and ``parallel_env()`` (simultaneous selection).

>>> from engine.envs import take6_v0
>>> env = take6_v0.env(players=4, variant="standard")
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     mask = obs["action_mask"]
...     action = None if terminated or truncated else int(mask.nonzero()[0][0])
...     env.step(action)
>>> env.agents, env.state.phase
([], 'over')

Both APIs use the action encoding and observation of :mod:`engine.envs.take6_codec`; the mechanics of
the AEC loop, rewards, seeds and truncation are in :mod:`engine.envs.aec`.  In the AEC environment the
seats of a simultaneous selection act one after another and see only *that* an earlier seat has selected;
in the Parallel environment every seat acts in each step: during a selection all select at once, and in a
step where only one seat acts (a row choice, a logic draft pick, a kids flip) the others send
:data:`~engine.envs.take6_codec.WAIT`, the one action their mask allows.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from engine.envs import take6_codec
from engine.envs.aec import (
    EngineAdapter,
    IllegalEnvAction,
    Seeds,
    TurnEnv,
    agent_names,
    observation_space,
    rank_bonuses,
)
from engine.take6 import GAME, rules_for

__all__ = ["NUM_ACTIONS", "WAIT", "Take6Adapter", "Take6ParallelEnv", "env", "parallel_env", "raw_env"]

NAME = "take6_v0"
NUM_ACTIONS = take6_codec.NUM_ACTIONS
"""The size of the discrete action space (see :mod:`engine.envs.take6_codec`)."""
WAIT = take6_codec.WAIT


class Take6Adapter(EngineAdapter):
    """One configuration of 6 nimmt! (variant, players, options) for the environments.  Its gains are minus
    the bullheads each seat took in a step (plus in kids, where the most bullheads win)."""

    game = GAME
    num_actions = take6_codec.NUM_ACTIONS

    def __init__(
        self, players: int = 4, variant: str | None = None, options: Mapping[str, Any] | None = None
    ):
        self.rules = rules = rules_for(variant, players, options)
        self.codec = codec = take6_codec.codec(rules)
        super().__init__(
            players,
            rules.variant,
            dict(rules.options),
            layout=codec.layout,
            score=itemgetter(take6_codec.PENALTIES_AT),
            sign=codec.sign,
        )
        observer = codec.observer()
        self.observe = observer.observe
        self.mask = observer.mask
        self.view = observer.view
        tables = tuple(take6_codec.decode_table(p) for p in range(players))

        def decode(index: int, player: int) -> Any:
            """:func:`~engine.envs.take6_codec.decode`, through each seat's table."""
            return tables[player][index]

        self.decode = decode


def raw_env(
    players: int = 4,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    rank_bonus: float = 0.0,
    max_cycles: int | None = None,
    render_mode: str | None = None,
) -> TurnEnv:
    """The AEC environment of 6 nimmt! (``variant``: standard, tactics, logic, professional, kids,
    countdown; ``options``: the engine's options, e.g. ``{"professional_tie": "start"}``)."""
    return TurnEnv(
        Take6Adapter(players, variant, options),
        name=NAME,
        rank_bonus=rank_bonus,
        max_cycles=max_cycles,
        render_mode=render_mode,
    )


env = raw_env
"""The AEC environment (no wrapper: illegal actions raise :class:`~engine.envs.aec.IllegalEnvAction`)."""


class Take6ParallelEnv(ParallelEnv):  # type: ignore[misc]
    """6 nimmt! with the selection simultaneous: one step per selection turn, row choice or pick."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": NAME}

    def __init__(
        self,
        adapter: Take6Adapter,
        *,
        rank_bonus: float = 0.0,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.adapter = adapter
        self.rank_bonus = float(rank_bonus)
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.possible_agents = agent_names(adapter.players)
        self.agents: list[str] = []
        obs_space = observation_space(adapter)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        act_space = spaces.Discrete(adapter.num_actions)
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds = Seeds()
        self._wait = adapter.codec.wait_mask()
        self.state: Any = None
        self._masks_of: Any = None
        """The state whose acting seats' (observation, mask) ``_masks`` holds."""
        self._masks: dict[int, tuple[Any, Any]] = {}

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, Any]:
        state = self.state
        acting = GAME.to_act(state)
        adapter = self.adapter
        view = adapter.view
        observe = adapter.observe
        wait = self._wait
        out = {}
        masks = self._masks = {}
        for p, agent in enumerate(self.possible_agents):
            if p in acting:
                obs, mask = masks[p] = view(state, p)
                out[agent] = {"observation": obs, "action_mask": mask}
            else:
                out[agent] = {"observation": observe(state, p), "action_mask": wait}
        self._masks_of = state
        return out

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game; returns observations and infos (``options`` is accepted and unused)."""
        self.game_seed = self._seeds.take(seed)
        self.state = self.adapter.new_state(self.game_seed)
        self.agents = self.possible_agents[:]
        self.steps = 0
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the actions of every seat that must act (the others may send WAIT or nothing)."""
        if not self.agents:
            raise IllegalEnvAction("the game is over: call reset()")
        adapter = self.adapter
        decode = adapter.decode
        before = state = self.state
        acting = GAME.to_act(state)
        known = self._masks if self._masks_of is state else {}  # the masks the last observations gave
        moves = []
        for p in acting:
            agent = self.possible_agents[p]
            action = actions.get(agent)
            if action is None:
                raise IllegalEnvAction(f"{agent} must act now")
            index = int(action)
            mask = known[p][1] if p in known else adapter.mask(state, p)
            if not 0 <= index < len(mask) or not mask[index]:
                legal = [int(i) for i in np.flatnonzero(mask)]
                raise IllegalEnvAction(f"{agent}: action {index} is not legal now (legal: {legal})")
            moves.append(decode(index, p))  # WAIT is masked out for an acting seat
        if len(moves) < len(self.possible_agents):
            for p, agent in enumerate(self.possible_agents):
                action = actions.get(agent)
                if p not in acting and action is not None and int(action) != take6_codec.WAIT:
                    raise IllegalEnvAction(f"{agent} has nothing to do now: send WAIT ({take6_codec.WAIT})")
        apply = GAME.apply_unchecked
        for move in moves:  # the selections of one turn are independent: none changes another's options
            state = apply(state, move)
        self.state = state
        self.steps += 1
        n = adapter.players
        gains = adapter.gains(before, state) or (0.0,) * n
        over = GAME.is_terminal(state)
        if over:
            bonus = rank_bonuses(GAME.result(state), self.rank_bonus)
            gains = tuple(g + b for g, b in zip(gains, bonus, strict=True))
        truncated = not over and self.max_cycles is not None and self.steps >= self.max_cycles
        agents = self.possible_agents
        obs = self._observations()
        rewards = dict(zip(agents, gains, strict=True))
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated)
        infos: dict[str, Any] = {a: {} for a in agents}
        if over or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The public position as text (``ansi`` returns it, ``human`` prints it): the engine's description
        without its notation line, which holds every hand."""
        if self.state is None:
            return None
        text = "\n".join(
            line for line in GAME.describe_state(self.state) if not line.lstrip().startswith("Position:")
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(
    players: int = 4,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    rank_bonus: float = 0.0,
    max_cycles: int | None = None,
    render_mode: str | None = None,
) -> Take6ParallelEnv:
    """The Parallel environment of 6 nimmt! (same arguments as :func:`raw_env`; ``max_cycles`` counts
    parallel steps)."""
    return Take6ParallelEnv(
        Take6Adapter(players, variant, options),
        rank_bonus=rank_bonus,
        max_cycles=max_cycles,
        render_mode=render_mode,
    )
