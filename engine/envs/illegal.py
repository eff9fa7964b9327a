"""What the PettingZoo environments do with an action that is malformed or illegal.

* A **malformed** action (not an integer index of the action space: a float, a string, ``None`` for an agent
  that must act, a bool, a list, an index outside the space) is refused by every environment with
  :class:`IllegalEnvAction`, naming the agent and the space; the environment is left as it was.
* An **illegal** action (an index of the space outside the agent's action mask) follows PettingZoo's classic
  convention in ``env()``: :class:`TerminateIllegal` (PettingZoo's ``TerminateIllegalWrapper``) ends the
  game, the agent that moved loses and every other agent gets 0, and every agent's info says why
  (``info["illegal_move"]``: the agent, the index and the engine's reason, which names the rule).  By
  default the mover's reward brings its return (the sum of its rewards over the game) to one below the
  lowest a game can give (:func:`~engine.envs.returns.illegal_return`), so it ranks below every other
  seat; ``illegal_reward=r`` gives it the fixed reward ``r`` instead, as the classic games give ``-1``.
  With ``strict=True``, and in ``raw_env()`` and the Parallel environments, it is refused with
  :class:`IllegalEnvAction` instead, the state unchanged.

>>> import numpy as np
>>> action_index("player_0", 7, 215), action_index("player_0", np.int64(7), 215)
(7, 7)
>>> action_index("player_0", 9.9, 215)
Traceback (most recent call last):
...
engine.envs.illegal.IllegalEnvAction: player_0: an action is an integer index 0..214, got 9.9 (float)
"""

from __future__ import annotations

import reprlib
from operator import index as as_index
from typing import Any

from pettingzoo.utils import wrappers

__all__ = ["IllegalEnvAction", "TerminateIllegal", "action_index", "shown"]


class IllegalEnvAction(ValueError):
    """An action the environment refuses: not an integer index of its action space, or (in ``raw_env()``, the
    Parallel environments and ``env(strict=True)``) an index outside the action mask of the agent that gave
    it."""


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters (an error message quotes no more of an input)."""
    if isinstance(value, int) and abs(value) >= 10**30:  # repr of a huge integer is slow, or refused
        return f"<an integer of {value.bit_length()} bits>"
    text = _REPR.repr(value)  # a long string or list is cut before it is written out
    return text if len(text) <= limit else text[: limit - 3] + "..."


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxdict = 6


def action_index(agent: str, action: Any, size: int) -> int:
    """``action`` as an index of a ``Discrete(size)`` space: an integer (``operator.index`` reads it: an
    ``int``, a numpy integer, a 0-d integer array, as ``Discrete.contains`` accepts) in ``0..size-1``;
    anything else (a bool, a float, a string, ``None``, a list) raises :class:`IllegalEnvAction` naming
    ``agent``.  (The environments' steps read the usual index inline, as here, and call this for the rest.)

    >>> action_index("player_1", "4", 215)
    Traceback (most recent call last):
    ...
    engine.envs.illegal.IllegalEnvAction: player_1: an action is an integer index 0..214, got '4' (str)
    """
    try:
        index = as_index(action)
    except TypeError:
        index = None
    if index is None or action.__class__ is bool:
        raise IllegalEnvAction(
            f"{agent}: an action is an integer index 0..{size - 1}, got {shown(action)} "
            f"({action.__class__.__name__})"
        )
    if not 0 <= index < size:
        raise IllegalEnvAction(f"{agent}: action {shown(index)} is outside the action space 0..{size - 1}")
    return index


class TerminateIllegal(wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's ``TerminateIllegalWrapper`` (what its classic games apply by default) that also refuses a
    malformed action (:class:`IllegalEnvAction`) and says in every agent's info why the game ended:
    ``info["illegal_move"] = {"agent": ..., "action": index, "reason": the engine's refusal}``.

    ``illegal_reward``: the mover's reward, a number; or ``None``, the reward that brings the mover's return
    to ``illegal_return``: what ``last()`` paid it so far (its score: the rewards since it last acted are
    paid by the ``last()`` before its step), plus this reward, is that return.

    The wrapped environment is a :class:`~engine.envs.aec.TurnEnv`: it answers ``action_index``,
    ``is_legal``, ``illegal_reason`` and ``return_of``.
    """

    def __init__(self, env: Any, illegal_reward: float | None, illegal_return: float = 0.0) -> None:
        super().__init__(env, illegal_reward=0.0 if illegal_reward is None else illegal_reward)
        self._fixed = illegal_reward is not None
        self._return = illegal_return

    def step(self, action: Any) -> None:
        raw = self.env.unwrapped
        agent = self.agent_selection
        if self._terminated or self.terminations[agent] or self.truncations[agent]:
            super().step(action)
            return
        index = raw.action_index(agent, action)
        if raw.is_legal(agent, index):
            self._prev_obs = self._prev_info = None
            self.env.step(index)
            return
        reason = raw.illegal_reason(agent, index)
        if not self._fixed:  # what the mover was paid (its last() before this step included) plus this
            self._illegal_value = self._return - raw.return_of(agent)
        super().step(index)  # ends the game: the mover gets the illegal reward, the others 0
        move = {"agent": agent, "action": index, "reason": reason}
        for name in raw.infos:
            raw.infos[name]["illegal_move"] = move
