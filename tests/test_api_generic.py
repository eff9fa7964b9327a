"""The generic test every game passes (in the manner of OpenSpiel's random-simulation test).

For every game, every variant and a spread of player counts, random games are played through the public
protocol only, and at every step the contract of :class:`engine.game.Game` is checked against the game's
declared metadata.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.errors import GameOver, IllegalSetup, NotYourTurn
from engine.game import Game, Result, game_names, get_game


def cases() -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    for name in game_names():
        game = get_game(name)
        span = sorted({game.min_players, (game.min_players + game.max_players) // 2, game.max_players})
        for variant in game.variants:
            out.extend((name, variant, n) for n in span)
    return out


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def check_step(game: Game, state: Any, players: int) -> None:
    acting = game.to_act(state)
    assert acting, "a non-terminal state has someone to act"
    assert all(0 <= p < players for p in acting)
    assert len(set(acting)) == len(acting)
    # the state's JSON form is plain JSON and round-trips exactly
    data = game.state_to_json(state)
    text = canonical(data)
    again = game.state_from_json(json.loads(text))
    assert again == state
    assert canonical(game.state_to_json(again)) == text
    for p in range(players):
        json.dumps(game.observation(state, p))
        legal = game.legal_actions(state, p)
        if p in acting:
            assert legal, f"player {p} must act but has no legal action"
            for action in legal:
                assert game.action_from_json(json.loads(canonical(game.action_to_json(action)))) == action
        else:
            assert legal == ()


@pytest.mark.parametrize(("name", "variant", "players"), cases())
def test_random_games_respect_the_protocol(name: str, variant: str, players: int) -> None:
    """Property: through the protocol, random games end; every step has someone to act with a legal action;
    state and action JSON round-trip; checked and unchecked tiers agree; a player who need not act is
    refused with NotYourTurn; the result matches the player count; a finished game refuses actions."""
    game = get_game(name)
    rng = random.Random(f"{name}:{variant}:{players}")
    state = game.new_game(players, seed=11, variant=variant)
    assert state == game.new_game(players, seed=11, variant=variant), "same seed, same state"
    steps = 0
    while not game.is_terminal(state):
        if steps % 7 == 0:
            check_step(game, state, players)
        acting = game.to_act(state)
        player = acting[rng.randrange(len(acting))]
        legal = game.legal_actions(state, player)
        action = legal[rng.randrange(len(legal))]
        after = game.apply(state, action)
        assert game.apply_unchecked(state, action) == after, "both tiers share one transition"
        lines = game.narrate(state, action, after)
        assert all(isinstance(line, str) for line in lines)
        state = after
        steps += 1
        assert steps < 20_000, "game did not end"
    assert game.to_act(state) == ()
    result = game.result(state)
    assert isinstance(result, Result)
    assert len(result.scores) == players
    assert result.winners and set(result.winners) <= set(range(players))
    assert sorted(result.ranking) == list(range(players))
    assert set(result.ranking[: len(result.winners)]) == set(result.winners)
    for p in range(players):
        assert game.legal_actions(state, p) == ()
    json.dumps(game.state_to_json(state))
    assert game.state_from_json(game.state_to_json(state)) == state


@pytest.mark.parametrize("name", game_names())
def test_player_count_outside_the_declared_range_is_refused(name: str) -> None:
    """new_game refuses player counts outside [min_players, max_players] with IllegalSetup naming a clause."""
    game = get_game(name)
    for bad in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(IllegalSetup) as info:
            game.new_game(bad, seed=0)
        assert info.value.clause.split("-")[0] in {"T6", "SP"}


@pytest.mark.parametrize("name", game_names())
def test_unknown_variant_is_refused(name: str) -> None:
    """An unknown variant name is refused with IllegalSetup, not ignored."""
    game = get_game(name)
    with pytest.raises(IllegalSetup):
        game.new_game(game.min_players, seed=0, variant="no-such-variant")


@pytest.mark.parametrize("name", game_names())
def test_acting_out_of_turn_or_after_the_end_is_refused(name: str) -> None:
    """An action by a player who need not act raises NotYourTurn and leaves the state unchanged; any action
    on a finished game raises GameOver.  (Action JSON names its acting seat in the field ``player``.)"""
    game = get_game(name)
    players = max(2, game.min_players)
    rng = random.Random(5)
    state = game.new_game(players, seed=5)
    forged_seen = False
    probe = game.legal_actions(state, game.to_act(state)[0])[0]
    while not game.is_terminal(state):
        acting = game.to_act(state)
        idle = [p for p in range(players) if p not in acting]
        legal = game.legal_actions(state, acting[0])
        if idle and not forged_seen:
            forged = game.action_from_json({**game.action_to_json(legal[0]), "player": idle[0]})
            snapshot = game.state_to_json(state)
            with pytest.raises(NotYourTurn):
                game.apply(state, forged)
            assert game.state_to_json(state) == snapshot
            forged_seen = True
        state = game.apply_unchecked(state, legal[rng.randrange(len(legal))])
    assert forged_seen, "some state had a player who need not act"
    with pytest.raises(GameOver):
        game.apply(state, probe)
