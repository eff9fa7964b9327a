"""The PettingZoo machinery both games share: agents, seeds, rewards, terminations, the AEC loop.

A game plugs in through :class:`Adapter` (its codec: observation vector, action mask, decoding, per-step
rewards).  :class:`TurnEnv` is the AEC environment: the agent to act is the first seat of the engine's
``to_act``; in 6 nimmt!'s simultaneous selection that makes the seats select one after another, and a
selection stays hidden from the agents after it (the engine's observation shows only *that* a seat has
selected) until every seat has selected and the cards are revealed.

Rewards, terminations and truncations (see docs/environments.md):

* each step, every agent gets the score it gained in that step (6 nimmt!: minus the bullheads taken, plus
  in kids where the most wins; Saint Petersburg: the VP gained, final scoring included);
* ``rank_bonus=b`` adds, when the game ends, ``b * (wins - losses) / (n - 1)`` for each agent, counting
  one win per opponent ranked below it and one loss per opponent above it (ties count neither);
* all agents terminate when the game ends; with ``max_cycles=m`` all are truncated after ``m * n`` steps.

Seeds: ``reset(seed=s)`` deals engine game ``s``; a later ``reset()`` without a seed deals ``s + 1``,
``s + 2``, ...; the first reset without any seed draws one from the operating system.

The engine's state is ``env.engine_state``; ``env.state()`` is PettingZoo's global view (every seat's
observation vector, concatenated, as PettingZoo's MPE environments build theirs), in ``state_space``.
:func:`wrap` wraps an environment as PettingZoo wraps its own classic games: an illegal action ends the game
with a penalty for its agent (:mod:`engine.envs.illegal`), or, with ``strict=True``, is refused.
:class:`ParallelTurnEnv` is
the Parallel environment: every seat sends an action in every step, the seats without a choice the pass
action its mask allows.  ``render()``: ``"ansi"`` returns the public position as text, ``"human"`` prints
it, ``"rgb_array"`` returns the picture of the whole position (:mod:`engine.svg`, rasterized by
:mod:`engine.raster`); without a render mode it warns, as PettingZoo's environments do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from operator import attrgetter
from operator import index as as_index
from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from engine.envs.illegal import IllegalEnvAction, TerminateIllegal, action_index, shown
from engine.envs.returns import illegal_return, rank_bonuses
from engine.errors import ArbiterError
from engine.game import Game

__all__ = [
    "RENDER_MODES",
    "Adapter",
    "EngineAdapter",
    "IllegalEnvAction",
    "ParallelTurnEnv",
    "TurnEnv",
    "agent_names",
    "rank_bonuses",
    "wrap",
]

RENDER_MODES = ("human", "ansi", "rgb_array")


class Adapter(Protocol):
    """What a game supplies to the environments."""

    @property
    def game(self) -> Game: ...

    players: int
    num_actions: int
    sign: int
    obs_size: int
    obs_low: Any
    obs_high: Any

    def new_state(self, seed: int) -> Any: ...

    def observe(self, state: Any, player: int) -> Any: ...

    def mask(self, state: Any, player: int) -> Any: ...

    def view(self, state: Any, player: int) -> tuple[Any, Any]:
        """``(observe(state, player), mask(state, player))``."""
        ...

    def decode(self, index: int, player: int) -> Any: ...

    def gains(self, before: Any, after: Any) -> tuple[float, ...] | None:
        """Each seat's reward for the step ``before -> after``; ``None`` when all are 0."""
        ...

    def score(self, state: Any) -> Any:
        """The running scores the gains are computed from (a step that keeps the very same object gains
        nothing)."""
        ...

    def bounds(self, rank_bonus: float) -> tuple[float, float]:
        """(min, max) of a seat's return over a game, ``rank_bonus`` included."""
        ...


class EngineAdapter:
    """The shared part of the games' adapters: the configuration, the seeded deal and per-step gains.

    A subclass sets ``game``, ``num_actions`` and, in its ``__init__``, ``codec`` (with a ``layout``),
    ``observe``, ``mask``, ``view`` (both at once) and ``decode``; ``score`` (a field name or a getter)
    reads each seat's running score from a state and ``sign`` says whether it counts for (+1) or
    against (-1) the seat.
    """

    game: Any
    num_actions: int
    players: int
    variant: str
    options: dict[str, Any]

    def __init__(
        self,
        players: int,
        variant: str,
        options: dict[str, Any],
        *,
        layout: Any,
        score: str | Callable[[Any], Any],
        sign: int,
    ) -> None:
        self.players = players
        self.variant = variant
        self.options = options
        self.obs_size = layout.size
        self.obs_low, self.obs_high = layout.bounds()
        self.score = attrgetter(score) if isinstance(score, str) else score
        self.sign = sign

    def new_state(self, seed: int) -> Any:
        """Game ``seed`` of this configuration."""
        return self.game.new_game(self.players, seed=seed, variant=self.variant, options=self.options)

    def gains(self, before: Any, after: Any) -> tuple[float, ...] | None:
        """Each seat's change of score in the step ``before -> after`` times ``sign``; ``None`` if none."""
        sb = self.score(before)
        sa = self.score(after)
        if sa is sb or sa == sb:
            return None
        sign = self.sign
        return tuple(float(sign * (a - b)) for a, b in zip(sa, sb, strict=True))


def agent_names(players: int) -> list[str]:
    """``player_0``, ``player_1``, ... (the seat is the number)."""
    return [f"player_{p}" for p in range(players)]


class Seeds:
    """The seed chain of ``reset``: an explicit seed, then the next integers."""

    def __init__(self) -> None:
        self.next: int | None = None

    def take(self, seed: int | None) -> int:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
            self.next = int(seed)
        elif self.next is None:
            self.next = random.SystemRandom().randrange(2**31)
        out = self.next
        self.next += 1
        return out


def observation_space(adapter: Adapter, num_actions: int | None = None) -> Any:
    """``Dict(observation=Box(float32), action_mask=Box(int8, 0..1))`` (``num_actions``: the mask's
    length, when not the adapter's)."""
    num_actions = adapter.num_actions if num_actions is None else num_actions
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=np.asarray(adapter.obs_low, np.float32),
                high=np.asarray(adapter.obs_high, np.float32),
                dtype=np.float32,
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
        }
    )


def state_space(adapter: Adapter) -> Any:
    """The space of ``state()``: every seat's observation vector, one after another."""
    n = adapter.players
    return spaces.Box(
        low=np.tile(np.asarray(adapter.obs_low, np.float32), n),
        high=np.tile(np.asarray(adapter.obs_high, np.float32), n),
        dtype=np.float32,
    )


def global_state(adapter: Adapter, state: Any) -> Any:
    """PettingZoo's ``state()``: the observation vectors of all seats, concatenated (float32)."""
    if state is None:
        raise RuntimeError("state() before reset(): there is no game yet")
    return np.concatenate([adapter.observe(state, p) for p in range(adapter.players)])


def illegal_reason(adapter: Adapter, state: Any, player: int, index: int, mask: Any) -> str:
    """Why ``index`` is not legal for ``player`` in ``state``: the engine's refusal of the action it encodes
    (which names the rule), and the legal indices (``mask``: the player's action mask)."""
    legal = [int(i) for i in np.flatnonzero(mask)]
    move = adapter.decode(index, player) if index < adapter.num_actions else None
    if move is None:
        why = "the wait action is for a seat with nothing to do (Parallel environment)"
    else:
        try:
            adapter.game.apply(state, move)
            why = "outside the action mask"
        except ArbiterError as error:
            why = str(error)
    return f"action {index} is not legal now (legal: {legal}): {why}"


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}")


def render(adapter: Adapter, state: Any, render_mode: str | None) -> Any:
    """What ``render()`` returns in ``render_mode`` (see the module's docstring)."""
    if render_mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    if state is None:
        return None
    game = adapter.game
    if render_mode == "rgb_array":
        from engine.raster import svg_to_rgb_array
        from engine.svg import board_svg

        return svg_to_rgb_array(board_svg(game.name, state))
    text = "\n".join(line for line in game.describe_state(state) if not line.lstrip().startswith("Position:"))
    if render_mode == "human":
        print(text)
        return None
    return text


def wrap(env: TurnEnv, illegal_reward: float | None = None, *, strict: bool = False) -> Any:
    """``env`` wrapped as PettingZoo wraps its classic games: :class:`~engine.envs.illegal.TerminateIllegal`
    (PettingZoo's ``TerminateIllegalWrapper``: an illegal action ends the game and its agent loses: its
    return becomes one below the lowest a game can give, :func:`~engine.envs.returns.illegal_return`, or it
    gets the fixed reward ``illegal_reward``; the infos say why), ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper`` (so ``step`` before ``reset`` gives PettingZoo's message).  ``strict=True``
    leaves the first out: an illegal action raises :class:`IllegalEnvAction` and changes nothing."""
    if strict:
        if illegal_reward is not None:
            raise ValueError(
                "illegal_reward applies when an illegal action ends the game, not with strict=True"
            )
    else:
        reward = None
        if illegal_reward is not None:
            if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float | np.number):
                raise ValueError(f"illegal_reward must be a number or None, got {shown(illegal_reward)}")
            reward = float(illegal_reward)
            if not np.isfinite(reward):
                raise ValueError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
        lowest = illegal_return(env.adapter.bounds(env.rank_bonus))
        env = TerminateIllegal(env, illegal_reward=reward, illegal_return=lowest)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


class _Views:
    """What both environments answer alike: their name, their spaces, PettingZoo's ``state()``."""

    metadata: dict[str, Any]
    adapter: Adapter
    engine_state: Any
    observation_spaces: dict[str, Any]
    action_spaces: dict[str, Any]

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def state(self) -> Any:
        """PettingZoo's global view: every seat's observation vector, concatenated (``state_space``)."""
        return global_state(self.adapter, self.engine_state)


class TurnEnv(_Views, AECEnv):  # type: ignore[misc]
    """The AEC environment of a game (made by ``take6_v0.env`` / ``petersburg_v0.env``)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's attribute; each instance gets its copy)
        "render_modes": list(RENDER_MODES),
        "name": "arbiter",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        adapter: Adapter,
        *,
        name: str,
        rank_bonus: float = 0.0,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        if max_cycles is not None and (isinstance(max_cycles, bool) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
        self.metadata = {**self.metadata, "name": name}
        self.adapter = adapter
        self.rank_bonus = float(rank_bonus)
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.possible_agents = agent_names(adapter.players)
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        obs_space = observation_space(adapter)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        act_space = spaces.Discrete(adapter.num_actions)
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.state_space = state_space(adapter)
        self._seeds = Seeds()
        self._observe = adapter.observe
        self._view = adapter.view
        self._decode = adapter.decode
        self._apply = adapter.game.apply_unchecked
        self._to_act = adapter.game.to_act
        self._gains = adapter.gains
        self._score = adapter.score
        self._limit = None if max_cycles is None else max_cycles * adapter.players
        self.engine_state: Any = None
        """The engine's state of the game (None before ``reset``)."""


    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (``options`` is accepted and unused: the configuration is fixed at
        construction)."""
        self.game_seed = self._seeds.take(seed)
        self.engine_state = self.adapter.new_state(self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.infos = infos
        self.steps = 0
        self._done = False
        self._dirty = False
        self._mask_state: Any = None
        """The state and seat whose mask ``_mask`` is (the step checks an action against it)."""
        self._mask_seat = -1
        self._mask: Any = None
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.adapter.game.to_act(self.engine_state)[0]]

    def _mask_of(self, player: int) -> Any:
        state = self.engine_state
        if self._mask_state is state and self._mask_seat == player:
            return self._mask
        mask = self.adapter.mask(state, player)
        self._mask_state, self._mask_seat, self._mask = state, player, mask
        return mask

    def action_index(self, agent: str, action: Any) -> int:
        """``action`` as an index of the action space, or :class:`IllegalEnvAction` (malformed)."""
        return action_index(agent, action, self.adapter.num_actions)

    def return_of(self, agent: str) -> float:
        """The sum of ``agent``'s rewards so far in this game (its score, times the sign it counts with)."""
        adapter = self.adapter
        return float(adapter.sign * adapter.score(self.engine_state)[self._seat[agent]])

    def is_legal(self, agent: str, index: int) -> bool:
        """Whether index ``index`` is in the action mask of ``agent`` now."""
        return bool(self._mask_of(self._seat[agent])[index])

    def illegal_reason(self, agent: str, index: int) -> str:
        """Why index ``index`` is not legal for ``agent`` now: the engine's refusal (it names the rule) and
        the legal indices."""
        p = self._seat[agent]
        return illegal_reason(self.adapter, self.engine_state, p, index, self._mask_of(p))

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, accumulated reward, terminated, truncated and info of the agent to act (as
        PettingZoo's ``AECEnv.last``)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> Any:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` of ``agent`` now."""
        p = self._seat[agent]
        state = self.engine_state
        if self._mask_state is state and self._mask_seat == p:  # the mask of this state is known
            return {"observation": self._observe(state, p), "action_mask": self._mask}
        obs, mask = self._view(state, p)
        self._mask_state, self._mask_seat, self._mask = state, p, mask
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self._done:
            self._was_dead_step(action)
            return
        p = self._seat[agent]
        before = self.engine_state
        hit = self._mask_state is before and self._mask_seat == p  # _mask_of, inlined
        mask = self._mask if hit else self._mask_of(p)
        try:  # action_index, inlined for the usual index
            index = as_index(action)
        except TypeError:
            index = -1
        if not 0 <= index < len(mask) or action.__class__ is bool:
            index = self.action_index(agent, action)  # raises
        if not mask[index]:
            raise IllegalEnvAction(f"{agent}: {self.illegal_reason(agent, index)}")
        after = self._apply(before, self._decode(index, p))
        self.engine_state = after
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        if self._dirty:
            for a in rewards:
                rewards[a] = 0.0
            self._dirty = False
        acting = self._to_act(after)
        score = self._score
        if score(after) is score(before) and acting and self._limit is None and self.render_mode != "human":
            # most steps: the scores keep their very object (nothing gained), the game goes on, and
            # there is no step limit and no rendering
            self.steps += 1
            self.agent_selection = self.possible_agents[acting[0]]
            return
        gains = self._gains(before, after)
        if not acting:
            bonus = rank_bonuses(self.adapter.game.result(after), self.rank_bonus)
            gains = tuple(g + b for g, b in zip(gains or (0.0,) * len(bonus), bonus, strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self._done = True
        else:
            self.steps += 1
            if self._limit is not None and self.steps >= self._limit:
                self.truncations = dict.fromkeys(self.agents, True)
                self._done = True
        if gains is not None:
            cumulative = self._cumulative_rewards
            for a, g in zip(self.possible_agents, gains, strict=True):
                rewards[a] = g
                cumulative[a] += g
            self._dirty = True
        if acting:
            self.agent_selection = self.possible_agents[acting[0]]
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """The position in ``render_mode`` (see the module's docstring)."""
        return render(self.adapter, self.engine_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


class ParallelTurnEnv(_Views, ParallelEnv):  # type: ignore[misc]
    """The Parallel environment of a game (``take6_v0.parallel_env``, ``petersburg_v0.parallel_env``): one
    step per turn of the engine, where every seat of ``to_act`` acts at once (6 nimmt!'s selection: all
    seats) and every other seat sends ``wait``, the one action its mask allows (or nothing).

    ``wait`` is an index of the adapter's actions that is never legal in the engine (6 nimmt!'s
    :data:`~engine.envs.take6_codec.WAIT`), or the index just past them, which this environment adds.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's attribute; each instance gets its copy)
        "render_modes": list(RENDER_MODES),
        "name": "arbiter",
        "render_fps": 2,
    }

    def __init__(
        self,
        adapter: Adapter,
        *,
        name: str,
        wait: int,
        rank_bonus: float = 0.0,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        check_render_mode(render_mode)
        if max_cycles is not None and (isinstance(max_cycles, bool) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
        self.metadata = {**self.metadata, "name": name}
        self.adapter = adapter
        self.wait = wait
        self.num_actions = max(adapter.num_actions, wait + 1)
        self._pad = self.num_actions - adapter.num_actions
        """Slots the adapter's masks lack (1 when ``wait`` is added after its actions)."""
        self.rank_bonus = float(rank_bonus)
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.possible_agents = agent_names(adapter.players)
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        obs_space = observation_space(adapter, self.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        act_space = spaces.Discrete(self.num_actions)
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.state_space = state_space(adapter)
        self._seeds = Seeds()
        wait_mask: Any = np.zeros(self.num_actions, np.int8)
        wait_mask[wait] = 1
        wait_mask.flags.writeable = False
        self._wait = wait_mask
        self.engine_state: Any = None
        """The engine's state of the game (None before ``reset``)."""
        self._masks_of: Any = None
        """The state whose acting seats' (observation, mask) ``_masks`` holds."""
        self._masks: dict[int, tuple[Any, Any]] = {}


    def _observations(self) -> dict[str, Any]:
        state = self.engine_state
        acting = self.adapter.game.to_act(state)
        view = self.adapter.view
        observe = self.adapter.observe
        pad = self._pad
        out = {}
        masks = self._masks = {}
        for p, agent in enumerate(self.possible_agents):
            if p in acting:
                obs, mask = view(state, p)
                if pad:
                    mask = np.concatenate([mask, np.zeros(pad, np.int8)])
                masks[p] = (obs, mask)
                out[agent] = {"observation": obs, "action_mask": mask}
            else:
                out[agent] = {"observation": observe(state, p), "action_mask": self._wait}
        self._masks_of = state
        return out

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game; returns observations and infos (``options`` is accepted and unused)."""
        self.game_seed = self._seeds.take(seed)
        self.engine_state = self.adapter.new_state(self.game_seed)
        self.agents = self.possible_agents[:]
        self.steps = 0
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the actions of every seat that must act (the others may send ``wait`` or nothing)."""
        if not self.agents:
            raise IllegalEnvAction("the game is over: call reset()")
        adapter = self.adapter
        game = adapter.game
        decode = adapter.decode
        before = state = self.engine_state
        acting = game.to_act(state)
        known = self._masks if self._masks_of is state else {}  # the masks the last observations gave
        moves = []
        if type(actions) is not dict and not isinstance(actions, Mapping):
            raise IllegalEnvAction(f"actions must be a dict from agent to action, got {shown(actions)}")
        size = self.num_actions
        agents = self.possible_agents
        found = 0  # the agents actions names (more keys than that: an unknown agent)
        for p in acting:
            agent = agents[p]
            action = actions.get(agent)
            if action is None:
                raise IllegalEnvAction(f"{agent} must act now")
            found += 1
            try:  # action_index, inlined for the usual index
                index = as_index(action)
            except TypeError:
                index = -1
            if not 0 <= index < size or action.__class__ is bool:
                index = action_index(agent, action, size)  # raises
            mask = known[p][1] if p in known else adapter.mask(state, p)
            if not mask[index]:
                reason = illegal_reason(adapter, state, p, index, mask)
                raise IllegalEnvAction(f"{agent}: {reason}")
            moves.append(decode(index, p))  # wait is masked out for an acting seat
        if len(moves) < len(agents):
            wait = self.wait
            for p, agent in enumerate(agents):
                if p in acting or agent not in actions:
                    continue
                found += 1
                action = actions[agent]
                if action is None:
                    continue
                try:
                    if as_index(action) == wait:  # (a bool is never wait)
                        continue
                except TypeError:
                    pass
                if action_index(agent, action, size) != wait:  # raises if it is no index at all
                    raise IllegalEnvAction(f"{agent} has nothing to do now: send WAIT ({wait})")
        if found != len(actions):
            unknown = next(a for a in actions if a not in self._seat)
            raise IllegalEnvAction(f"unknown agent {shown(unknown)} (agents: {', '.join(agents)})")
        apply = game.apply_unchecked
        for move in moves:  # the selections of one turn are independent: none changes another's options
            state = apply(state, move)
        self.engine_state = state
        self.steps += 1
        n = adapter.players
        gains = adapter.gains(before, state) or (0.0,) * n
        over = game.is_terminal(state)
        if over:
            bonus = rank_bonuses(game.result(state), self.rank_bonus)
            gains = tuple(g + b for g, b in zip(gains, bonus, strict=True))
        truncated = not over and self.max_cycles is not None and self.steps >= self.max_cycles
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

    def render(self) -> Any:
        """The position in ``render_mode`` (see the module's docstring)."""
        return render(self.adapter, self.engine_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""
