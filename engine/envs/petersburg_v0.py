"""Saint Petersburg as PettingZoo environments: ``env()`` (AEC) and ``parallel_env()``.

>>> from engine.envs import petersburg_v0
>>> env = petersburg_v0.env(players=2, variant="second")
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 1, env.agent_selection
((479,), True, 'player_1')

Turns are sequential: in the Parallel environment each step is one seat's turn, and every other seat sends
:data:`WAIT`, an index added after the encoding's actions that is the one action their mask allows
(PettingZoo's ``aec_to_parallel`` does not apply to turn-based games).  The action encoding and observation
are those of :mod:`engine.envs.petersburg_codec`; rewards, seeds and truncation are described in
:mod:`engine.envs.aec`.

>>> par = petersburg_v0.parallel_env(players=2)
>>> observations, infos = par.reset(seed=3)
>>> int(par.action_space("player_0").n) == WAIT + 1, int(observations["player_0"]["action_mask"][WAIT])
(True, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.envs import petersburg_codec
from engine.envs.aec import EngineAdapter, ParallelTurnEnv, TurnEnv, wrap
from engine.envs.returns import petersburg_bounds
from engine.petersburg import GAME, ruleset

__all__ = ["WAIT", "PetersburgAdapter", "env", "parallel_env", "raw_env"]

NAME = "petersburg_v0"
WAIT = petersburg_codec.codec(ruleset(), GAME.max_players).num_actions
"""The Parallel environment's pass action: the index after the encoding's actions (1068; the encoding has
the same size in both editions and for every player count)."""


class PetersburgAdapter(EngineAdapter):
    """One configuration of Saint Petersburg (edition, players, options) for the environments.  Its gains
    are the VP each seat gained in a step (scorings, Pub purchases, the final scoring)."""

    game = GAME

    def __init__(
        self, players: int = 4, variant: str | None = None, options: Mapping[str, Any] | None = None
    ):
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer, got {players!r}")
        if not GAME.min_players <= players <= GAME.max_players:
            raise ValueError(f"Saint Petersburg is for {GAME.min_players} to {GAME.max_players} players")
        self.rules = rules = ruleset(variant, options)
        self.codec = codec = petersburg_codec.codec(rules, players)
        super().__init__(players, rules.variant, dict(rules.options), layout=codec.layout, score="vp", sign=1)
        self.num_actions = codec.num_actions
        observer = codec.observer()
        self.observe = observer.observe
        self.mask = codec.mask
        self.view = observer.view
        self.decode = codec.decode

    def bounds(self, rank_bonus: float = 0.0) -> tuple[float, float]:
        """(min, max) of a seat's return over a game (:func:`~engine.envs.returns.petersburg_bounds`)."""
        return petersburg_bounds(self.rules, self.players, rank_bonus)


def raw_env(
    players: int = 4,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    rank_bonus: float = 0.0,
    max_cycles: int | None = None,
    render_mode: str | None = None,
) -> TurnEnv:
    """The AEC environment of Saint Petersburg (``variant``: first or second edition; ``options``: the
    engine's options, e.g. ``{"trading_discount": False}``)."""
    return TurnEnv(
        PetersburgAdapter(players, variant, options),
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
    """The Parallel environment of Saint Petersburg (same arguments as :func:`raw_env`; ``max_cycles``
    counts parallel steps, one per turn); the seats not to act send :data:`WAIT`."""
    adapter = PetersburgAdapter(players, variant, options)
    return ParallelTurnEnv(
        adapter,
        name=NAME,
        wait=adapter.num_actions,
        rank_bonus=rank_bonus,
        max_cycles=max_cycles,
        render_mode=render_mode,
    )
