"""OpenSpiel Python games: OpenSpiel's own random simulation test (with serialization) for every variant,
explicit chance, observation tensors against the environments' vectors, and the MCTS demonstration."""

from __future__ import annotations

from typing import Any

import pytest
from extras import need

need("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from engine.envs import openspiel_demo, openspiel_games, take6_codec  # noqa: E402
from engine.petersburg import GAME as SP  # noqa: E402
from engine.take6 import GAME as T6  # noqa: E402


@pytest.mark.parametrize("variant", T6.variants)
def test_take6_random_sim_test_with_serialization(variant: str) -> None:
    """pyspiel.random_sim_test(serialize=True) passes for every 6 nimmt! variant, whole games."""
    game = pyspiel.load_game("python_take6", {"players": 4, "variant": variant, "rank_bonus": 1.0})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2, "variant": "logic", "options": "logic_start:rotate"},
        {"players": 10, "variant": "professional", "options": "professional_tie:start", "max_rounds": 1},
        {"players": 3, "terminal_rewards": True, "max_rounds": 2},
    ],
)
def test_take6_options_and_short_games(params: dict[str, object]) -> None:
    """Options, max_rounds and terminal rewards also pass the random simulation test."""
    pyspiel.random_sim_test(
        pyspiel.load_game("python_take6", params), num_sims=1, serialize=True, verbose=False
    )


def test_take6_turn_based_conversion() -> None:
    """pyspiel.convert_to_turn_based turns the simultaneous selection into hidden sequential moves."""
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("python_take6", {"players": 3, "max_rounds": 1}))
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("variant", SP.variants)
@pytest.mark.parametrize("players", [1, 4])
def test_petersburg_random_sim_test_with_serialization(variant: str, players: int) -> None:
    """pyspiel.random_sim_test(serialize=True) passes for both Saint Petersburg editions, whole games."""
    game = pyspiel.load_game("python_petersburg", {"players": players, "variant": variant, "rank_bonus": 1.0})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_petersburg_options_and_short_games() -> None:
    """trading_discount, max_rounds and terminal rewards pass the random simulation test."""
    params = {"players": 3, "trading_discount": False, "max_rounds": 2, "terminal_rewards": True}
    pyspiel.random_sim_test(
        pyspiel.load_game("python_petersburg", params), num_sims=2, serialize=True, verbose=False
    )


def test_game_types() -> None:
    """6 nimmt! is simultaneous, Saint Petersburg sequential; both imperfect information with explicit
    chance."""
    t6 = pyspiel.load_game("python_take6").get_type()
    sp = pyspiel.load_game("python_petersburg").get_type()
    assert t6.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert sp.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    for t in (t6, sp):
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_take6_deal_is_chance_and_the_tensor_is_the_environment_vector() -> None:
    """A 6 nimmt! round is dealt by 44 uniform chance nodes (4 players: 4 x 10 cards and 4 row starters,
    T6-SETUP-4); then the observation tensor is the environment's observation vector, and a serialized
    state deserializes to the same state."""
    game = pyspiel.load_game("python_take6", {"players": 4})
    state = game.new_initial_state()
    chance = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 104 - chance and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(outcomes[(7 * chance) % len(outcomes)][0])
        chance += 1
    assert chance == 44 and state.is_simultaneous_node()
    codec = take6_codec.codec(state.engine.rules)
    for p in range(4):
        assert np.array_equal(
            np.asarray(state.observation_tensor(p), np.float32), codec.observe(state.engine, p)
        )
        assert state.observation_string(p) in state.information_state_string(p)
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert str(copy) == str(state) and copy.history() == state.history()


def test_petersburg_stack_draws_are_chance() -> None:
    """Saint Petersburg starts with a chance node for the markers, then one per opening worker drawn,
    weighted by the copies left (SP-SETUP-7); nothing about the stacks' order is fixed before."""
    game = pyspiel.load_game("python_petersburg", {"players": 2})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 6  # 2 markers each: C(4, 2)
    state.apply_action(0)
    draws = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(outcomes[-1][0])
        draws += 1
    assert draws == len(state.engine.upper) > 0


def test_parse_options_rejects_a_malformed_item() -> None:
    """An option without ``name:value`` is refused with the item named."""
    with pytest.raises(ValueError, match="expected name:value, got 'oops'"):
        openspiel_games.parse_options("oops")


def test_mcts_demo_runs_and_prints_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    """The demonstration plays MCTS against random on both games and prints the win rates."""
    assert openspiel_demo.main(["--games", "1", "--simulations", "4"]) == 0
    out = capsys.readouterr().out
    assert out.count("MCTS seat 0: win rate") == 2 and "python_petersburg" in out and "python_take6" in out


def _dealt(order: list[int]) -> Any:
    game = pyspiel.load_game("python_take6", {"players": 2})
    state = game.new_initial_state()
    for card in order:
        state.apply_action(card - 1)
    return state


def test_take6_information_state_hides_the_other_hand() -> None:
    """Two deals that differ only in player 0's hand give player 1 the same information state (string and
    tensor) and player 0 different ones (T6-SETUP-4: a hand is dealt face down)."""
    base = list(range(1, 25))  # P0 gets 1..10, P1 11..20, the rows 21..24
    other = [*range(31, 41), *range(11, 25)]
    a, b = _dealt(base), _dealt(other)
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_tensor(1) == b.information_state_tensor(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.observation_tensor(0) != b.observation_tensor(0)
