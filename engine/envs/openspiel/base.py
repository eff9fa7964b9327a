"""What the two OpenSpiel games share: the game type, the game info, rewards and returns, parameter
parsing, the values clones share, and the resampler that lets ISMCTS search 6 nimmt!'s turn-based form.

>>> parse_options("professional_tie:start"), parse_options("")
({'professional_tie': 'start'}, {})
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from engine.game import Result

__all__ = [
    "Held",
    "Shared",
    "TurnBasedResampler",
    "config_of",
    "game_info",
    "game_type",
    "held",
    "parse_options",
    "result_of",
    "returns_of",
    "rewards_of",
    "rng_of",
    "typed",
]


def game_type(
    name: str, title: str, dynamics: Any, players: tuple[int, int], params: Any, *, terminal: bool = False
) -> Any:
    """A game type of both games: explicit chance, imperfect information, general sum, every view; per-step
    rewards, or terminal rewards only (what MCTS requires)."""
    rewards = pyspiel.GameType.RewardModel
    return pyspiel.GameType(
        short_name=name,
        long_name=title,
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=rewards.TERMINAL if terminal else rewards.REWARDS,
        min_num_players=players[0],
        max_num_players=players[1],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def typed(base: Any, terminal: bool) -> Any:
    """``base``, or the same type with terminal rewards."""
    if not terminal:
        return base
    players = (base.min_num_players, base.max_num_players)
    return game_type(
        base.short_name, base.long_name, base.dynamics, players, base.parameter_specification, terminal=True
    )


def game_info(actions: int, chance: int, players: int, utility: tuple[float, float], length: int) -> Any:
    """OpenSpiel's ``GameInfo``: ``utility`` is (min, max) of a player's return."""
    return pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=chance,
        num_players=players,
        min_utility=float(utility[0]),
        max_utility=float(utility[1]),
        utility_sum=None,
        max_game_length=length,
    )


def rewards_of(state: Any) -> list[float]:
    """The rewards of the last decision (with terminal rewards: the returns at the end, else 0)."""
    if state._g.terminal:
        return state._returns if state._over else [0.0] * state._g.players
    return state._rewards  # type: ignore[no-any-return]


def returns_of(state: Any) -> list[float]:
    """The returns so far (with terminal rewards: 0 until the end)."""
    if state._g.terminal and not state._over:
        return [0.0] * state._g.players
    return state._returns  # type: ignore[no-any-return]


def parse_options(text: str) -> dict[str, str]:
    """``"a:b/c:d"`` -> ``{"a": "b", "c": "d"}`` (the engine checks the names and values).

    OpenSpiel's game strings reserve ``,`` and ``=``, hence ``:`` and ``/``.

    >>> parse_options("kids_piles:3")
    {'kids_piles': '3'}
    """
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split("/"))):
        name, eq, value = part.partition(":")
        if not eq or not name.strip():
            raise ValueError(f"options: expected name:value, got {part!r}")
        out[name.strip()] = value.strip()
    return out


def result_of(scores: tuple[int, ...], higher_wins: bool) -> Result:
    """The result of a game stopped early (``max_rounds``), ranked by ``scores``."""
    n = len(scores)
    ranking = tuple(sorted(range(n), key=lambda p: (-scores[p] if higher_wins else scores[p], p)))
    best = scores[ranking[0]]
    return Result(scores=scores, winners=tuple(p for p in ranking if scores[p] == best), ranking=ranking)


class Shared:
    """An immutable value that clones of a state share (``copy.deepcopy`` returns it as is)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


class Held(Shared):
    """An engine state (an immutable value) held by an OpenSpiel state: clones share it."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def held(name: str, doc: str) -> Any:
    """A property storing an engine state in a :class:`Held` (so cloning a state does not copy it)."""

    def get(self: Any) -> Any:
        return getattr(self, name).value

    def put(self: Any, value: Any) -> None:
        setattr(self, name, Held(value))

    return property(get, put, doc=doc)


_CONFIGS: dict[tuple[Any, ...], Any] = {}


def config_of(game: Any, kind: type, defaults: dict[str, Any]) -> Any:
    """The resolved parameters (``kind(params)``) of ``game``, made once per distinct parameter set."""
    params = {**defaults, **game.get_parameters()}
    key = (kind.__name__, *sorted(params.items()))
    found = _CONFIGS.get(key)
    if found is None:
        found = _CONFIGS[key] = kind(params)
    return found


def rng_of(sampler: Any) -> random.Random:
    """A random generator seeded from OpenSpiel's probability sampler (a callable giving floats in [0, 1),
    such as ``pyspiel.UniformProbabilitySampler(0., 1.)``, what ISMCTS passes)."""
    return random.Random(int(float(sampler()) * 2**53))


class TurnBasedResampler:
    """``resample_from_infostate`` for a game made turn-based by ``pyspiel.convert_to_turn_based``, which
    does not implement it; give it to ``ISMCTSBot.set_resampler``.

    The simultaneous game's state inside resamples itself (its ``resample_from_infostate``); its history,
    replayed on the turn-based game, gives the same sequence of turns.  Inside a joint action the seats
    before the searching one have already chosen, unseen by it: they choose anew, uniformly among their
    legal actions of the resampled world.

    >>> import engine.envs.openspiel
    >>> game = pyspiel.convert_to_turn_based(pyspiel.load_game("python_take6", {"players": 2}))
    >>> state = game.new_initial_state()
    >>> while state.is_chance_node():
    ...     state.apply_action(state.legal_actions()[0])
    >>> state.apply_action(state.legal_actions()[0])  # seat 0 selects, unseen by seat 1
    >>> world = TurnBasedResampler(seed=1)(state, 1)
    >>> world.information_state_string(1) == state.information_state_string(1)
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def __call__(self, state: Any, player: int) -> Any:
        rng = self._rng
        inner = state.simultaneous_game_state()
        world = inner.resample_from_infostate(player, rng.random)
        out = state.get_game().new_initial_state()
        for action in world.history():
            out.apply_action(action)
        while not out.is_terminal() and not out.is_chance_node() and out.current_player() < player:
            out.apply_action(rng.choice(out.legal_actions()))
        return out
