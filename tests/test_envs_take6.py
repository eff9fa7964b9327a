"""6 nimmt! PettingZoo environments: the action encoding, masks and observations against the engine, the
ecosystem's own API tests, rewards, hiding, seeds and truncation."""

from __future__ import annotations

import random

import pytest
from extras import need

need("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402

from engine.envs import take6_codec, take6_v0  # noqa: E402
from engine.envs.aec import IllegalEnvAction, ParallelTurnEnv  # noqa: E402
from engine.take6 import GAME, Select  # noqa: E402

VARIANTS = GAME.variants


def test_every_index_decodes_to_an_action_that_encodes_back() -> None:
    """decode then encode is the identity on every index but WAIT, for every seat."""
    for p in range(GAME.max_players):
        for i in range(take6_codec.WAIT):
            action = take6_codec.decode(i, p)
            assert action is not None and action.player == p
            assert take6_codec.encode(action) == i
    assert take6_codec.decode(take6_codec.WAIT, 0) is None
    assert take6_codec.NUM_ACTIONS == 215


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 4, 10])
def test_mask_and_observation_match_the_engine_at_every_step(variant: str, players: int) -> None:
    """At every step of a random game, for every seat: the mask is exactly the encoded legal set,
    decode(encode(a)) is a for each legal a, and the fast observation equals the encoding of the engine's
    observation dict (``GAME.observation``)."""
    rng = random.Random(players)
    state = GAME.new_game(players, seed=11, variant=variant)
    codec = take6_codec.codec(state.rules)
    observers = [codec.observer() for _ in range(players)]
    while not GAME.is_terminal(state):
        for p in range(players):
            legal = GAME.legal_actions(state, p)
            assert set(np.flatnonzero(codec.mask(state, p))) == {take6_codec.encode(a) for a in legal}
            assert all(take6_codec.decode(take6_codec.encode(a), p) == a for a in legal)
            expected = take6_codec.observation_from_dict(GAME.observation(state, p), state.rules)
            assert np.array_equal(observers[p].observe(state, p), expected)
            assert np.array_equal(codec.observe(state, p), expected)
        p = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, p)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 5])
def test_one_observer_for_every_seat_matches_the_engine(variant: str, players: int) -> None:
    """An environment's observer, which keeps the public table between calls and serves every seat, gives
    the encoding of the engine's observation and the encoded legal set whatever seats it is asked about
    and however many steps it missed, one at a time or both at once (``view``); each observation is a
    fresh array and each mask read-only."""
    rng = random.Random(players)
    for seed in range(3):
        state = GAME.new_game(players, seed=seed, variant=variant)
        codec = take6_codec.codec(state.rules)
        observer = codec.observer()
        while not GAME.is_terminal(state):
            for p in rng.sample(range(players), rng.randint(0, players)):
                obs = observer.observe(state, p)
                expected = take6_codec.observation_from_dict(GAME.observation(state, p), state.rules)
                assert np.array_equal(obs, expected)
                obs[:] = -1.0  # the caller owns the array: the next observation is not affected
                mask = observer.mask(state, p)
                legal = GAME.legal_actions(state, p)
                assert set(np.flatnonzero(mask)) == {take6_codec.encode(a) for a in legal}
                assert not mask.flags.writeable
                if rng.random() < 0.5:  # asked again, or first asked both at once
                    observer = codec.observer()
                both, both_mask = observer.view(state, p)
                assert np.array_equal(both, expected) and np.array_equal(both_mask, mask)
                assert not both_mask.flags.writeable
            p = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, p)
            state = GAME.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("variant", VARIANTS)
def test_environments_give_the_engines_observation_and_legal_set(variant: str) -> None:
    """What the AEC environment's last() and the Parallel environment's step return for every agent is
    the encoding of the engine's observation of that seat, and the mask the encoded legal set (WAIT for
    a Parallel agent with nothing to do), at every step of random games."""
    rng = random.Random(7)
    aec = take6_v0.env(players=4, variant=variant)
    par = take6_v0.parallel_env(players=4, variant=variant)
    for seed in range(2):
        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            p = aec.possible_agents.index(agent)
            state = aec.engine_state
            expected = take6_codec.observation_from_dict(GAME.observation(state, p), state.rules)
            assert np.array_equal(obs["observation"], expected)
            legal = {take6_codec.encode(a) for a in GAME.legal_actions(state, p)}
            assert set(np.flatnonzero(obs["action_mask"])) == legal
            aec.step(None if terminated or truncated else rng.choice(sorted(legal)))
        observations, _ = par.reset(seed=seed)
        while par.agents:
            state = par.engine_state
            actions = {}
            for p, agent in enumerate(par.possible_agents):
                o = observations[agent]
                expected = take6_codec.observation_from_dict(GAME.observation(state, p), state.rules)
                assert np.array_equal(o["observation"], expected)
                legal = {take6_codec.encode(a) for a in GAME.legal_actions(state, p)} or {take6_codec.WAIT}
                assert set(np.flatnonzero(o["action_mask"])) == legal
                actions[agent] = rng.choice(sorted(legal))
            observations, *_ = par.step(actions)


def test_the_observer_reads_the_fields_it_names() -> None:
    """The observer reads the state's fields by position (as the engine does): each position holds the
    named field (held = each hand with its hidden selection, T6-SELECT-1)."""
    state = GAME.new_game(3, seed=1)
    state = GAME.apply(state, GAME.legal_actions(state, 1)[2])
    c = take6_codec
    assert state[c._FIXED][1] == state.round and state[c._PHASE_AT] is state.phase
    assert state[c._ROWS] is state.rows and state[c._PENDING] is state.pending
    assert state[c._PILES] is state.piles and state[c._PENALTIES] is state.penalties
    assert state[c._SELECTED] is state.selected and state[c._TO_ACT] is state.to_act
    held = state[c._HELD]
    hands = zip(state.hands, state.selected, strict=True)
    assert [tuple(sorted((*h, s))) if s else h for h, s in hands] == list(held)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test(variant: str) -> None:
    """PettingZoo's api_test passes on the AEC environment of every variant."""
    api_test(take6_v0.env(players=3, variant=variant, rank_bonus=1.0), num_cycles=200)


@pytest.mark.parametrize("variant", ["standard", "logic", "kids"])
def test_pettingzoo_seed_test(variant: str) -> None:
    """PettingZoo's seed_test: two environments reset with one seed play identically."""
    seed_test(lambda: take6_v0.env(players=4, variant=variant), num_cycles=100)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_parallel_api_test(variant: str) -> None:
    """PettingZoo's parallel_api_test passes on the Parallel environment of every variant."""
    parallel_api_test(take6_v0.parallel_env(players=3, variant=variant), num_cycles=500)


def _play_parallel(env: ParallelTurnEnv, seed: int) -> list[tuple[float, ...]]:
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    trace = []
    while env.agents:
        actions = {}
        for agent, o in obs.items():
            legal = np.flatnonzero(o["action_mask"])
            actions[agent] = int(legal[rng.randrange(len(legal))])
        obs, rewards, _, _, _ = env.step(actions)
        trace.append(tuple(rewards.values()))
    return trace


def test_parallel_environment_is_reproducible() -> None:
    """Two Parallel environments with one seed and one masked policy give the same rewards step by step.

    (PettingZoo's parallel_seed_test samples actions without the mask, which these games reject.)"""
    assert _play_parallel(take6_v0.parallel_env(players=4), 3) == _play_parallel(
        take6_v0.parallel_env(players=4), 3
    )


def test_parallel_selection_is_simultaneous_and_others_wait() -> None:
    """In a Parallel selection every seat selects in one step (T6-SELECT-2); in a row choice only the
    chooser acts and the others' masks allow only WAIT."""
    env = take6_v0.parallel_env(players=2)
    obs, _ = env.reset(seed=0)
    assert all(o["action_mask"][take6_codec.WAIT] == 0 for o in obs.values())
    seen_choice = False
    rng = random.Random(1)
    while env.agents and not seen_choice:
        acting = GAME.to_act(env.engine_state)
        if env.engine_state.phase == "choose":
            seen_choice = True
            waiting = [a for p, a in enumerate(env.possible_agents) if p not in acting]
            assert all(list(np.flatnonzero(obs[a]["action_mask"])) == [take6_codec.WAIT] for a in waiting)
            chooser = env.possible_agents[acting[0]]
            bad = {a: 0 for a in waiting} | {chooser: take6_codec.TAKE0}
            with pytest.raises(IllegalEnvAction, match="send WAIT"):
                env.step(bad)
        actions = {}
        for agent, o in obs.items():
            legal = np.flatnonzero(o["action_mask"])
            actions[agent] = int(legal[rng.randrange(len(legal))])
        obs, *_ = env.step(actions)
    assert seen_choice


def test_aec_hides_a_selection_from_the_agents_after_it() -> None:
    """In the AEC selection a later agent's observation is the same whichever card an earlier agent
    selected: it shows only that the seat has selected (T6-SELECT-1)."""
    views = []
    for pick in (0, -1):
        env = take6_v0.env(players=4)
        env.reset(seed=5)
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[pick]))
        assert env.agent_selection == "player_1"
        views.append(env.observe("player_1")["observation"])
    assert np.array_equal(views[0], views[1])
    layout = take6_codec.layout_for(env.engine_state.rules)
    assert views[0][layout.offset("selected")] == 1


@pytest.mark.parametrize(("variant", "sign"), [("standard", -1), ("kids", 1)])
def test_rewards_are_the_bullheads_taken(variant: str, sign: int) -> None:
    """Each agent's rewards sum to minus its bullheads (kids: plus, the most wins, T6-KIDS-4), and the rank
    bonus adds (wins - losses) / (n - 1) times the scale at the end."""
    for bonus in (0.0, 3.0):
        env = take6_v0.env(players=3, variant=variant, rank_bonus=bonus)
        env.reset(seed=2)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = random.Random(0)
        while env.agents:
            agent = env.agent_selection
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
            for a, r in env.rewards.items():
                totals[a] += r
            del agent
        state = env.engine_state
        result = GAME.result(state)
        for p, a in enumerate(env.possible_agents):
            place = result.ranking.index(p)
            wins = sum(1 for q in result.ranking[place + 1 :] if state.penalties[q] != state.penalties[p])
            losses = sum(1 for q in result.ranking[:place] if state.penalties[q] != state.penalties[p])
            assert totals[a] == pytest.approx(sign * state.penalties[p] + bonus * (wins - losses) / 2)


def test_seeds_name_engine_games() -> None:
    """reset(seed=s) deals engine game s; the next reset without a seed deals s + 1."""
    env = take6_v0.env(players=4, variant="tactics")
    env.reset(seed=9)
    assert env.engine_state == GAME.new_game(4, seed=9, variant="tactics")
    env.reset()
    assert env.engine_state == GAME.new_game(4, seed=10, variant="tactics")
    with pytest.raises(ValueError, match="non-negative"):
        env.reset(seed=-1)


def test_max_cycles_truncates_every_agent() -> None:
    """With max_cycles=m every agent is truncated after m * n steps, then leaves by a dead step."""
    env = take6_v0.env(players=3, max_cycles=2)
    env.reset(seed=0)
    steps = 0
    while not any(env.truncations.values()):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 6 and all(env.truncations.values()) and not any(env.terminations.values())
    for _ in range(3):
        env.step(None)
    assert env.agents == []


def test_strict_refuses_an_illegal_action_with_the_legal_set_and_the_rule() -> None:
    """With ``strict=True`` an index outside the mask raises IllegalEnvAction listing the legal indices and
    the engine's refusal, which names the rule (T6-SELECT-1: a seat selects a card of its hand); the state
    is kept."""
    env = take6_v0.env(players=2, strict=True)
    env.reset(seed=0)
    before = env.engine_state
    legal = [a.card - 1 for a in GAME.legal_actions(before, 0) if isinstance(a, Select)]
    illegal = next(i for i in range(take6_codec.NUM_ACTIONS) if i not in legal)
    with pytest.raises(IllegalEnvAction, match=r"not legal now \(legal: \[.*\]\): T6-SELECT-1: "):
        env.step(illegal)
    assert env.engine_state is before


def test_render_shows_the_public_position() -> None:
    """render() in ansi mode returns the engine's description of the table, without the notation line that
    holds every hand."""
    env = take6_v0.env(players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and text.startswith("Round 1, turn 1, select")
    assert "Position:" not in text and "Row 0:" in text


def test_aec_and_parallel_play_the_same_game() -> None:
    """Given the same choices (each seat's lowest legal index), the AEC and the Parallel environments reach
    the same engine state: sequential hidden selection is the simultaneous one."""
    aec = take6_v0.env(players=3)
    aec.reset(seed=4)
    for _agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    par = take6_v0.parallel_env(players=3)
    observations, _ = par.reset(seed=4)
    while par.agents:
        observations, *_ = par.step(
            {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
        )
    assert aec.engine_state == par.engine_state and GAME.is_terminal(par.engine_state)
