"""Saint Petersburg PettingZoo environment: the action encoding, masks and observations against the
engine, the ecosystem's own API tests, rewards and hiding."""

from __future__ import annotations

import random

import pytest
from extras import need

need("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from engine.envs import petersburg_codec, petersburg_v0  # noqa: E402
from engine.petersburg import GAME, ruleset  # noqa: E402


@pytest.mark.parametrize("variant", GAME.variants)
def test_every_index_decodes_to_an_action_that_encodes_back(variant: str) -> None:
    """encode(decode(i)) is i for every index of the 1068, and each decodes to a distinct action."""
    codec = petersburg_codec.codec(ruleset(variant), 4)
    assert codec.num_actions == 1068 and len(codec.pairs()) == 214
    seen = set()
    for p in range(4):
        for i in range(codec.num_actions):
            action = codec.decode(i, p)
            assert codec.encode(action) == i and action.player == p
            seen.add(action)
    assert len(seen) == 4 * codec.num_actions


@pytest.mark.parametrize("variant", GAME.variants)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_mask_and_observation_match_the_engine_at_every_step(variant: str, players: int) -> None:
    """At every step of a random game, for every seat: the mask is exactly the encoded legal set (no two
    legal actions share an index), decode(encode(a)) is a, and the observation equals the encoding of the
    engine's observation dict (``GAME.observation``), within the declared bounds."""
    rng = random.Random(players)
    state = GAME.new_game(players, seed=4, variant=variant)
    codec = petersburg_codec.codec(state.rules, players)
    low, high = (np.asarray(b, np.float32) for b in codec.layout.bounds())
    while True:
        for p in range(players):
            legal = GAME.legal_actions(state, p)
            indices = [codec.encode(a) for a in legal]
            assert len(set(indices)) == len(indices)
            assert set(np.flatnonzero(codec.mask(state, p))) == set(indices)
            assert all(codec.decode(codec.encode(a), p) == a for a in legal)
            vector = codec.observe(state, p)
            assert np.array_equal(
                vector, petersburg_codec.observation_from_dict(GAME.observation(state, p), state.rules)
            )
            assert (vector >= low).all() and (vector <= high).all()
        if GAME.is_terminal(state):
            break
        p = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, p)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("variant", GAME.variants)
@pytest.mark.parametrize("players", [2, 4])
def test_one_observer_for_every_seat_matches_the_engine(variant: str, players: int) -> None:
    """An environment's observer, which keeps the public fields between calls and serves every seat,
    gives the encoding of the engine's observation whatever seats it is asked about and however many
    steps it missed, each time a fresh array."""
    rng = random.Random(players)
    for seed in range(2):
        state = GAME.new_game(players, seed=seed, variant=variant)
        observer = petersburg_codec.codec(state.rules, players).observer()
        while True:
            for p in rng.sample(range(players), rng.randint(0, players)):
                obs = observer.observe(state, p)
                expected = petersburg_codec.observation_from_dict(GAME.observation(state, p), state.rules)
                assert np.array_equal(obs, expected)
                obs[:] = -1.0  # the caller owns the array: the next observation is not affected
            if GAME.is_terminal(state):
                break
            legal = GAME.legal_actions(state, GAME.to_act(state)[0])
            state = GAME.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("variant", GAME.variants)
def test_environment_gives_the_engines_observation_and_legal_set(variant: str) -> None:
    """What the AEC environment's last() returns is the encoding of the engine's observation of the agent
    to act, and its mask the encoded legal set, at every step of random games."""
    rng = random.Random(5)
    env = petersburg_v0.env(players=3, variant=variant)
    codec = petersburg_codec.codec(ruleset(variant), 3)
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            p = env.possible_agents.index(agent)
            state = env.engine_state
            expected = petersburg_codec.observation_from_dict(GAME.observation(state, p), state.rules)
            assert np.array_equal(obs["observation"], expected)
            legal = {codec.encode(a) for a in GAME.legal_actions(state, p)}
            assert set(np.flatnonzero(obs["action_mask"])) == legal
            env.step(None if terminated or truncated else rng.choice(sorted(legal)))


@pytest.mark.parametrize("variant", GAME.variants)
@pytest.mark.parametrize("players", [1, 2, 4])
def test_pettingzoo_api_test(variant: str, players: int) -> None:
    """PettingZoo's api_test passes on the AEC environment of both editions."""
    api_test(petersburg_v0.env(players=players, variant=variant, rank_bonus=1.0), num_cycles=150)


def test_pettingzoo_seed_test() -> None:
    """PettingZoo's seed_test: two environments reset with one seed play identically."""
    seed_test(lambda: petersburg_v0.env(players=3), num_cycles=100)


def test_rewards_are_the_vp_gained() -> None:
    """Each agent's rewards sum to its final VP (SP-END-1: the final scoring included)."""
    env = petersburg_v0.env(players=2, variant="second")
    env.reset(seed=8)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(0)
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        for a, r in env.rewards.items():
            totals[a] += r
    assert [totals[a] for a in env.possible_agents] == list(env.engine_state.vp)


def test_a_drawn_card_and_hands_and_money_stay_hidden() -> None:
    """Another seat's Observatory card, hand and roubles never reach a player's observation (SP-SETUP-5,
    SP-OBS-4): changing them changes only their owner's view."""
    rng = random.Random(3)
    state = GAME.new_game(3, seed=1)
    codec = petersburg_codec.codec(state.rules, 3)
    while state.drawn < 0:
        legal = GAME.legal_actions(state, GAME.to_act(state)[0])
        observe = [a for a in legal if type(a).__name__ == "Observe"]
        state = GAME.apply(state, observe[0] if observe else legal[rng.randrange(len(legal))])
        if GAME.is_terminal(state):
            state = GAME.new_game(3, seed=rng.randrange(1000))
    owner = state.turn
    other_kind = (state.drawn + 1) % state.rules.nkinds
    hands = list(state.hands)
    hands[owner] = (*hands[owner], 0)
    money = list(state.money)
    money[owner] += 7
    changed = state._replace(drawn=other_kind, hands=tuple(hands), money=tuple(money))
    for p in range(3):
        same = np.array_equal(codec.observe(state, p), codec.observe(changed, p))
        hand_sizes = codec.layout.where("hand_sizes")
        if p == owner:
            assert not same
        else:
            diff = np.flatnonzero(codec.observe(state, p) != codec.observe(changed, p))
            assert all(hand_sizes.start <= i < hand_sizes.stop for i in diff)  # only the hand's size shows
