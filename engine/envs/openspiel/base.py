"""What the two OpenSpiel games share: the game type, the game info, rewards and returns, parameter
parsing and checking, the values clones share, the digest of a player's view of the history (what makes an
information-state string identify the information state), and the resampler that lets ISMCTS search
6 nimmt!'s turn-based form.

>>> parse_options("professional_tie:start"), parse_options("")
({'professional_tie': 'start'}, {})
>>> cards_text([1, 2, 3, 7, 9, 10])
'1-3 7 9 10'
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable
from typing import Any

import pyspiel

from engine.game import Result

__all__ = [
    "Config",
    "Held",
    "Shared",
    "TurnBasedResampler",
    "cards_text",
    "check_params",
    "config_for",
    "config_of",
    "game_info",
    "game_type",
    "held",
    "mix",
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


class Config(Shared):
    """A game's parameters, resolved once per distinct set (:func:`config_for`); states keep this, not the
    game object.  It pickles as its parameters, so a pickled state carries none of what they resolve to
    (rules, codec, tables)."""

    params: dict[str, Any]

    def __reduce__(self) -> tuple[Any, ...]:
        return config_for, (type(self), tuple(sorted(self.params.items())))


_CONFIGS: dict[tuple[Any, ...], Any] = {}


def config_for(kind: type, params: Any) -> Any:
    """``kind(params)`` (a :class:`Config`), made once per distinct parameter set."""
    items = tuple(sorted(dict(params).items()))
    key = (kind, items)
    found = _CONFIGS.get(key)
    if found is None:
        found = _CONFIGS[key] = kind(dict(items))
    return found


def config_of(game: Any, kind: type, defaults: dict[str, Any]) -> Any:
    """The resolved parameters (``kind(params)``) of ``game``."""
    return config_for(kind, {**defaults, **game.get_parameters()})


def check_params(game: str, params: dict[str, Any], players: tuple[int, int]) -> None:
    """Refuse a parameter outside its range with a ``ValueError`` naming the game, the parameter and the
    range: ``players`` in ``players`` (min, max), ``max_rounds`` 0 or more, ``rank_bonus`` a finite number.
    (The variant and options are checked by the engine, whose errors name the values it knows.)

    >>> check_params("python_petersburg", {"players": 5, "max_rounds": 0, "rank_bonus": 0.0}, (1, 4))
    Traceback (most recent call last):
    ...
    ValueError: python_petersburg: players must be 1..4, got 5
    """
    lo, hi = players
    n = params["players"]
    if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
        raise ValueError(f"{game}: players must be {lo}..{hi}, got {n!r}")
    rounds = params["max_rounds"]
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise ValueError(
            f"{game}: max_rounds must be 0 (play to the end) or a number of rounds 1.., got {rounds!r}"
        )
    bonus = params["rank_bonus"]
    if isinstance(bonus, bool) or not isinstance(bonus, int | float) or not math.isfinite(bonus):
        raise ValueError(f"{game}: rank_bonus must be a finite number, got {bonus!r}")


def mix(digest: int, event: bytes) -> int:
    """The running digest of a player's view of the history after one more event it saw (64 bits).

    >>> mix(0, b"deal 7") != mix(0, b"deal 8")
    True
    """
    data = digest.to_bytes(8, "little") + event
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def cards_text(cards: Iterable[int]) -> str:
    """Cards as short text: ascending, runs of three or more as ``a-b`` (``-`` for none)."""
    out: list[str] = []
    run: list[int] = []
    for c in sorted(cards):
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        out += _run(run)
        run = [c]
    out += _run(run)
    return " ".join(out) or "-"


def _run(run: list[int]) -> list[str]:
    return [f"{run[0]}-{run[-1]}"] if len(run) > 2 else [str(c) for c in run]


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
