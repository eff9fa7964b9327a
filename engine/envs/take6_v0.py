"""6 nimmt! as PettingZoo environments: ``env()`` (AEC) and ``parallel_env()`` (simultaneous selection).

>>> from engine.envs import take6_v0
>>> env = take6_v0.env(players=4, variant="standard")
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     mask = obs["action_mask"]
...     action = None if terminated or truncated else int(mask.nonzero()[0][0])
...     env.step(action)
>>> env.agents, env.engine_state.phase, env.state().shape  # the engine's state; PettingZoo's global view
([], 'over', (3132,))

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
from typing import Any

from engine.envs import take6_codec
from engine.envs.aec import EngineAdapter, ParallelTurnEnv, TurnEnv, wrap
from engine.envs.returns import take6_bounds
from engine.take6 import GAME, rules_for

__all__ = ["NUM_ACTIONS", "WAIT", "Take6Adapter", "env", "parallel_env", "raw_env"]

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

    def bounds(self, rank_bonus: float = 0.0) -> tuple[float, float]:
        """(min, max) of a seat's return over a game (:func:`~engine.envs.returns.take6_bounds`)."""
        return take6_bounds(self.rules, rank_bonus)


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


def env(
    players: int = 4,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    rank_bonus: float = 0.0,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
    strict: bool = False,
) -> Any:
    """:func:`raw_env` wrapped as PettingZoo wraps its classic games (:func:`~engine.envs.aec.wrap`): an
    illegal action ends the game, its agent getting ``illegal_reward`` (by default minus the span of a
    seat's return, so it loses) and the infos saying why; ``strict=True`` refuses it instead
    (:class:`~engine.envs.illegal.IllegalEnvAction`, nothing changed)."""
    return wrap(
        raw_env(
            players, variant, options, rank_bonus=rank_bonus, max_cycles=max_cycles, render_mode=render_mode
        ),
        illegal_reward,
        strict=strict,
    )


def parallel_env(
    players: int = 4,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    rank_bonus: float = 0.0,
    max_cycles: int | None = None,
    render_mode: str | None = None,
) -> ParallelTurnEnv:
    """The Parallel environment of 6 nimmt! (same arguments as :func:`raw_env`; ``max_cycles`` counts
    parallel steps); the seats without a choice send :data:`WAIT`."""
    return ParallelTurnEnv(
        Take6Adapter(players, variant, options),
        name=NAME,
        wait=WAIT,
        rank_bonus=rank_bonus,
        max_cycles=max_cycles,
        render_mode=render_mode,
    )
