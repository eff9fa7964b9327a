"""OpenSpiel Python games: OpenSpiel's own random simulation test (with serialization) for every variant,
rl_environment with random agents, explicit chance, observation tensors against the environments' vectors,
resampling for ISMCTS, the utility bounds, and the MCTS / ISMCTS demonstration."""

from __future__ import annotations

from typing import Any

import pytest
from extras import need

need("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from engine.envs import openspiel, openspiel_demo, take6_codec  # noqa: E402
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
    assert state.legal_actions(0) == sorted(c - 1 for c in state.engine.hands[0])
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
        openspiel.parse_options("oops")


def test_mcts_demo_runs_and_prints_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    """The demonstration plays MCTS and ISMCTS against random on both games and prints the win rates."""
    assert openspiel_demo.main(["--games", "1", "--simulations", "4"]) == 0
    out = capsys.readouterr().out
    assert out.count("MCTS   seat 0: win rate") == 2 and out.count("ISMCTS seat 0: win rate") == 2
    assert "python_petersburg" in out and "python_take6" in out


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


def _random_episode(game: Any, seed: int) -> tuple[int, list[float]]:
    """One episode of ``rl_environment.Environment`` with a random agent per seat: (steps, returns)."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    env = rl_environment.Environment(game, enable_legality_check=True)
    env.seed(seed)
    np.random.seed(seed)
    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in range(env.num_players)]
    time_step = env.reset()
    steps, returns = 0, [0.0] * env.num_players
    while not time_step.last():
        if env.is_turn_based:
            actions = [agents[time_step.observations["current_player"]].step(time_step).action]
        else:
            actions = [agent.step(time_step).action for agent in agents]
        time_step = env.step(actions)
        returns = [r + x for r, x in zip(returns, time_step.rewards, strict=True)]
        steps += 1
    return steps, returns


@pytest.mark.parametrize("variant", T6.variants)
def test_rl_environment_plays_whole_take6_games(variant: str) -> None:
    """OpenSpiel's RL entry point, ``rl_environment.Environment(load_game("python_take6", {"players": 4}))``,
    runs whole games of every variant with random agents: every decision node is simultaneous, the seats
    without a choice pass their single legal action; the returns are minus the bullheads taken (kids: plus)
    and lie within the game's utility bounds."""
    game = pyspiel.load_game("python_take6", {"players": 4, "variant": variant})
    steps, returns = _random_episode(game, seed=3)
    assert steps > 10 and any(returns)
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


@pytest.mark.parametrize("variant", SP.variants)
def test_rl_environment_plays_whole_petersburg_games(variant: str) -> None:
    """``rl_environment.Environment`` runs whole Saint Petersburg games of both editions with random agents
    (the default 4 players); the returns are the final VP, within the utility bounds."""
    game = pyspiel.load_game("python_petersburg", {"variant": variant})
    steps, returns = _random_episode(game, seed=5)
    assert game.num_players() == 4 and steps > 50
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def _to_row_choice(players: int) -> Any:
    """A 6 nimmt! state at a row choice (T6-PLACE-3), reached by random joint actions."""
    import random

    rng = random.Random(0)
    game = pyspiel.load_game("python_take6", {"players": players})
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            elif state.engine.phase == "choose":
                return state
            else:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
    raise AssertionError("no row choice reached")


def test_a_row_choice_is_a_simultaneous_node_where_the_others_pass() -> None:
    """At a row choice (T6-PLACE-3) the node is simultaneous: the chooser has its TakeRow actions, every
    other seat exactly the pass action WAIT; a seat without a choice that sends another action is
    refused."""
    state = _to_row_choice(3)
    chooser = T6.to_act(state.engine)[0]
    assert state.is_simultaneous_node()
    for p in range(3):
        legal = state.legal_actions(p)
        if p == chooser:
            assert legal and all(take6_codec.TAKE0 <= a < take6_codec.TAKE0 + 5 for a in legal)
        else:
            assert legal == [take6_codec.WAIT]
    other = (chooser + 1) % 3
    joint = [state.legal_actions(p)[0] for p in range(3)]
    joint[other] = 0
    with pytest.raises(Exception, match="nothing to do now"):
        state.clone().apply_actions(joint)


def test_take6_utility_bounds_come_from_the_tables() -> None:
    """The bounds are derived per configuration (deck, hand size, end threshold), not one loose number:
    4-player standard loses at most 65 + the 40 heaviest cards' 107 bullheads; a rank bonus widens both
    ends by its size."""
    game = pyspiel.load_game("python_take6", {"players": 4})
    assert (game.min_utility(), game.max_utility()) == (-172.0, 0.0)
    wide = pyspiel.load_game("python_take6", {"players": 10, "rank_bonus": 2.0})
    assert (wide.min_utility(), wide.max_utility()) == (-65.0 - 167.0 - 2.0, 2.0)
    kids = pyspiel.load_game("python_take6", {"players": 4, "variant": "kids"})
    assert kids.min_utility() == 0.0 and 0 < kids.max_utility() < 171


def test_petersburg_lower_bound_is_the_hand_penalty_and_defaults_match_pettingzoo() -> None:
    """Saint Petersburg's VP only fall at the final scoring, -5 per card left in a hand of at most 4
    (SP-END-7, the Warehouse's limit): the lower bound is -20; the default player count is PettingZoo's."""
    import inspect

    need("pettingzoo")
    from engine.envs import petersburg_v0

    game = pyspiel.load_game("python_petersburg")
    assert game.min_utility() == -20.0 and game.max_utility() > 0
    default = inspect.signature(petersburg_v0.raw_env).parameters["players"].default
    assert game.num_players() == default == 4


def _walk(game: Any, seed: int, stop: Any) -> Any:
    """Random play (chance by its probabilities) until ``stop(state)`` holds at a decision node."""
    import random

    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        if stop(state):
            return state
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return None


@pytest.mark.parametrize("variant", T6.variants)
def test_take6_resample_keeps_the_information_state_and_redeals_the_rest(variant: str) -> None:
    """``resample_from_infostate(p)`` gives a state with p's information state (string and tensor) and
    legal actions, other hands dealt anew (T6-SETUP-4: hands are dealt face down); logic, drafted face up
    (T6-LOGIC-1), hides no card, so its resample is the state itself."""
    game = pyspiel.load_game("python_take6", {"players": 3, "variant": variant})
    state = _walk(game, 11, lambda s: len(s.history()) > 40 + 3 * 4)
    assert state is not None
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(6):
        world = state.resample_from_infostate(0, sampler)
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.information_state_tensor(0) == state.information_state_tensor(0)
        assert world.legal_actions(0) == state.legal_actions(0)
        others.add(tuple(tuple(h) for h in world.engine.hands[1:]))
    if variant == "logic":
        assert others == {tuple(tuple(h) for h in state.engine.hands[1:])}
    else:
        assert len(others) > 1


def test_petersburg_resample_redraws_unseen_observatory_cards() -> None:
    """An Observatory card another seat took into its hand is unseen (SP-OBS-4): resampling for seat 0
    keeps seat 0's information state and draws that card anew from what its stack could have held."""

    def hidden_elsewhere(s: Any) -> bool:
        return any(s.hidden[q] for q in range(1, 4)) and s.current_player() == 0

    game = pyspiel.load_game("python_petersburg", {"players": 4})
    state = next(s for seed in range(60) if (s := _walk(game, seed, hidden_elsewhere)) is not None)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(12):
        world = state.resample_from_infostate(0, sampler)
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.legal_actions() == state.legal_actions()
        assert world.engine.hands[0] == state.engine.hands[0] and world.engine.vp == state.engine.vp
        hands.add(tuple(world.engine.hands[1:]))
    assert len(hands) > 1


def test_ismcts_plays_both_games() -> None:
    """``ismcts.ISMCTSBot`` plays a whole game of each (6 nimmt! through ``convert_to_turn_based`` and the
    TurnBasedResampler); every world it searches has the bot's information state (ISMCTS asserts it)."""
    import random

    for name, turn_based in (("python_take6", True), ("python_petersburg", False)):
        game = pyspiel.load_game(name, {"players": 2, "max_rounds": 1, "terminal_rewards": True})
        if turn_based:
            game = pyspiel.convert_to_turn_based(game)
        bot = openspiel_demo.make_bot("ISMCTS", game, simulations=8, seed=1)
        returns = openspiel_demo.play(game, bot, random.Random(2))
        assert len(returns) == 2 and game.min_utility() <= returns[0] <= game.max_utility()
