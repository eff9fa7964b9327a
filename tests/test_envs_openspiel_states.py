"""OpenSpiel states as OpenSpiel's users meet them: parameters out of range refused naming the range; every
chance outcome and action checked before anything changes (the state untouched on refusal); short
observation and information-state strings that still identify the information state; the observation's
named pieces, views into the one tensor as the layout table lists them; states that pickle small."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from extras import need

need("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

from engine.envs import take6_codec  # noqa: E402
from engine.envs.openspiel import petersburg, take6  # noqa: E402  (importing registers the games)
from engine.petersburg import GAME as SP  # noqa: E402
from engine.take6 import GAME as T6  # noqa: E402

OBSERVATION_MAX = 500
"""The longest observation string of any sampled state (the longest seen: 228 characters in 6 nimmt!, 339
in Saint Petersburg; before this bound they reached 593 and 1,170)."""
DIGEST = len(" | history ") + 16
"""What an information-state string adds to the observation string."""
DOC = (Path(__file__).resolve().parent.parent / "docs" / "environments.md").read_text(encoding="utf-8")


def _snapshot(game: Any, state: Any) -> str:
    """Everything a state holds, as OpenSpiel serializes it (its history and its attributes)."""
    return str(pyspiel.serialize_game_and_state(game, state))


def _play(game: Any, rng: random.Random, state: Any, stop: Any = None) -> Any:
    """Random play from ``state`` (chance by its probabilities) until the end or ``stop(state)``."""
    n = game.num_players()
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(n)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# ------------------------------------------------------------------------------------------ parameters


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("python_petersburg", {"players": 5}, "python_petersburg: players must be 1..4, got 5"),
        ("python_petersburg", {"players": 0}, "python_petersburg: players must be 1..4, got 0"),
        ("python_take6", {"players": 11}, "python_take6: players must be 2..10, got 11"),
        ("python_take6", {"players": 1}, "python_take6: players must be 2..10, got 1"),
        ("python_take6", {"max_rounds": -1}, "python_take6: max_rounds must be 0 .* 1.., got -1"),
        ("python_petersburg", {"max_rounds": -2}, "python_petersburg: max_rounds must be 0 .* 1.., got -2"),
        (
            "python_take6",
            {"rank_bonus": float("nan")},
            "python_take6: rank_bonus must be a finite number, got nan",
        ),
        ("python_petersburg", {"rank_bonus": float("inf")}, "rank_bonus must be a finite number, got inf"),
        ("python_take6", {"variant": "nope"}, r"unknown variant 'nope' \(known: standard, tactics"),
        ("python_petersburg", {"variant": "third"}, r"unknown variant 'third' \(known: first, second\)"),
        ("python_take6", {"options": "nope:1"}, r"unknown option 'nope' \(known: "),
        ("python_take6", {"options": "oops"}, "options: expected name:value, got 'oops'"),
    ],
)
def test_a_parameter_out_of_range_is_refused_naming_the_range(
    name: str, params: dict[str, Any], message: str
) -> None:
    """``load_game`` with a parameter outside its range raises a ValueError that names the parameter and
    what it accepts (before: a bare ``KeyError: 5`` for 5-player Saint Petersburg; a negative
    ``max_rounds`` and a NaN ``rank_bonus`` were accepted, the latter making the utility bounds NaN)."""
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(name, params)


def test_every_player_count_in_range_loads() -> None:
    """The range the errors name is the range that loads (T6-SETUP-1: 2 to 10; SP-SETUP-1: 1 to 4)."""
    for name, game in (("python_take6", T6), ("python_petersburg", SP)):
        for n in range(game.min_players, game.max_players + 1):
            assert pyspiel.load_game(name, {"players": n}).num_players() == n


# ------------------------------------------------------------------------------------------ checked actions


def _refused(game: Any, state: Any, apply: Any, match: str) -> None:
    """``apply(state)`` raises a ValueError matching ``match`` and leaves the state exactly as it was."""
    before = _snapshot(game, state)
    strings = [state.information_state_string(p) for p in range(game.num_players())]
    with pytest.raises(ValueError, match=match):
        apply(state)
    assert _snapshot(game, state) == before
    assert [state.information_state_string(p) for p in range(game.num_players())] == strings


def test_take6_chance_refuses_an_outcome_out_of_range_or_already_dealt() -> None:
    """At a deal (T6-SETUP-4: each card is dealt once) an outcome that is not a card of the deck, or a card
    already dealt, is refused at once with the range of outcomes, the state untouched; the deal then
    completes as usual (before: the outcome was taken and the deal failed only when it completed, with
    the state already changed)."""
    game = pyspiel.load_game("python_take6", {"players": 2})
    state = game.new_initial_state()
    _refused(
        game,
        state,
        lambda s: s.apply_action(10**6),
        r"outcome 1000000 is not a card left to deal: .* c of 1..104",
    )
    _refused(game, state, lambda s: s.apply_action(-5), "outcome -5 is not a card left to deal")
    state.apply_action(3)
    _refused(
        game, state, lambda s: s.apply_action(3), r"outcome 3 is not a card left to deal: .* the 103 cards"
    )
    _refused(game, state, lambda s: s.apply_actions([0, 0]), "a chance node takes apply_action")
    _play(game, random.Random(1), state, stop=lambda s: not s.is_chance_node())
    assert state.is_simultaneous_node() and len(state.history()) == 24


def test_take6_logic_start_player_outcome_is_checked() -> None:
    """In logic the chance node is the draft's start player (T6-LOGIC-1): only a seat is an outcome."""
    game = pyspiel.load_game("python_take6", {"players": 3, "variant": "logic"})
    state = game.new_initial_state()
    _refused(game, state, lambda s: s.apply_action(3), r"outcome 3 is not a start player 0..2")
    state.apply_action(2)
    assert not state.is_chance_node()


def _to_selection(players: int = 3) -> tuple[Any, Any]:
    game = pyspiel.load_game("python_take6", {"players": players})
    return game, _play(
        game, random.Random(4), game.new_initial_state(), stop=lambda s: not s.is_chance_node()
    )


def test_take6_joint_action_is_checked_whole_before_any_seat_acts() -> None:
    """A joint action with an index out of range, an illegal card (T6-SELECT-1: a card of one's hand), the
    wrong number of actions, or a seat with nothing to do sending more than WAIT is refused before any
    seat's action is applied: the cards revealed so far (the information-state tensor) are untouched
    (before: an out-of-range index raised IndexError after the seats before it had acted)."""
    game, state = _to_selection(3)
    legal = [state.legal_actions(p)[0] for p in range(3)]
    tensors = [state.information_state_tensor(p) for p in range(3)]
    _refused(
        game,
        state,
        lambda s: s.apply_actions([legal[0], legal[1], 10**6]),
        "action 1000000 is not legal for player 2",
    )
    other = next(a for a in range(take6_codec.NUM_ACTIONS) if a not in state.legal_actions(1))
    _refused(
        game,
        state,
        lambda s: s.apply_actions([legal[0], other, legal[2]]),
        f"action {other} is not legal for player 1",
    )
    _refused(game, state, lambda s: s.apply_actions(legal[:2]), "one action for each of the 3 players, got 2")
    _refused(game, state, lambda s: s.apply_action(legal[0]), "a decision node takes apply_actions")
    assert [state.information_state_tensor(p) for p in range(3)] == tensors
    state.apply_actions(legal)
    assert len(state.history()) > 0


def test_petersburg_chance_and_decisions_are_checked() -> None:
    """Saint Petersburg refuses a marker assignment out of range (SP-SETUP-7), a card its stack no longer
    holds, an index out of the encoding and an illegal action (with the engine's clause), the state untouched
    each time (before: an IndexError, or a draw taken that failed later)."""
    game = pyspiel.load_game("python_petersburg", {"players": 2})
    state = game.new_initial_state()
    _refused(
        game,
        state,
        lambda s: s.apply_action(10**6),
        r"outcome 1000000 is not a start-player marker assignment 0..5",
    )
    state.apply_action(0)
    _refused(
        game,
        state,
        lambda s: s.apply_action(99),
        r"99 is not a card left in the worker stack \(the outcomes are its kinds left: \[0, 1, 2, 3, 4, 5\]",
    )
    _refused(game, state, lambda s: s.apply_action(6), "not a card left in the worker stack")
    state = _play(game, random.Random(0), state, stop=lambda s: not s.is_chance_node())
    _refused(game, state, lambda s: s.apply_action(5000), r"action 5000 is outside the actions 0..1067")
    illegal = next(a for a in range(1068) if a not in state.legal_actions())
    _refused(
        game,
        state,
        lambda s: s.apply_action(illegal),
        rf"action {illegal} is not legal for P\d now: SP-[A-Z]+-\d+",
    )
    state.apply_action(state.legal_actions()[0])


# ------------------------------------------------------------------------------------------ strings


def _configurations() -> list[tuple[str, dict[str, Any]]]:
    out = [
        ("python_take6", {"players": n, "variant": v, "max_rounds": 2})
        for v in T6.variants
        for n in range(T6.min_players, T6.max_players + 1)
    ]
    out += [
        ("python_petersburg", {"players": n, "variant": v})
        for v in SP.variants
        for n in range(SP.min_players, SP.max_players + 1)
    ]
    return out


@pytest.mark.parametrize(("name", "params"), _configurations(), ids=str)
def test_strings_are_short_lines(name: str, params: dict[str, Any]) -> None:
    """Over a random game of every variant and player count (6 nimmt!: two rounds), every observation
    string is one line of at most OBSERVATION_MAX characters, and the information-state string is that line
    with the 16-digit history digest (before: up to 146,448 and 170,490 characters, the whole history of
    observation lines)."""
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(len(name) + params["players"])
    n = game.num_players()
    step = 0
    while True:
        if step % 3 == 0 or state.is_terminal():
            for p in range(n):
                obs, info = state.observation_string(p), state.information_state_string(p)
                assert "\n" not in info and len(obs) <= OBSERVATION_MAX, obs
                assert info.startswith(obs + " | history ") and len(info) == len(obs) + DIGEST
        if state.is_terminal():
            break
        _step(game, rng, state)
        step += 1


def _step(game: Any, rng: random.Random, state: Any) -> None:
    """One random step: a chance outcome, a joint action or an action."""
    length = len(state.history())
    _play(game, rng, state, stop=lambda s: len(s.history()) > length)


def test_take6_information_state_string_remembers_what_the_observation_does_not() -> None:
    """Perfect recall: two deals of the same cards to player 0 in another order end in the same observation
    (a hand is a set) but different information states, so different information-state strings; player
    1, who saw neither order, has equal ones (T6-SETUP-4: hands are dealt face down)."""
    game = pyspiel.load_game("python_take6", {"players": 2})
    a, b = game.new_initial_state(), game.new_initial_state()
    for card in range(1, 25):
        a.apply_action(card - 1)
    for card in [2, 1, *range(3, 25)]:
        b.apply_action(card - 1)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(1) == b.information_state_string(1)


def test_petersburg_observatory_draw_is_seen_by_its_seat_alone() -> None:
    """An Observatory's card (SP-OBS-1) is seen by the seat that drew it: two worlds that differ only in
    that card give that seat different information-state strings and every other seat equal ones."""

    def observing(s: Any) -> bool:
        return s.is_chance_node() and s._draw is not None and s._draw[2] == "drawn"

    game = pyspiel.load_game("python_petersburg", {"players": 3})
    state = next(
        s
        for seed in range(80)
        if (s := _play(game, random.Random(seed), game.new_initial_state(), stop=observing)) and observing(s)
    )
    seat = state._observed[0]
    kinds = [k for k, _ in state.chance_outcomes()][:2]
    assert len(kinds) == 2
    worlds = [state.clone() for _ in kinds]
    for world, k in zip(worlds, kinds, strict=True):
        world.apply_action(k)
    for p in range(3):
        same = worlds[0].information_state_string(p) == worlds[1].information_state_string(p)
        assert same == (p != seat)


# ------------------------------------------------------------------------------------------ pieces


@pytest.mark.parametrize(
    ("name", "params", "extra"),
    [
        ("python_take6", {"players": 4}, "played"),
        ("python_take6", {"players": 3, "variant": "countdown"}, "played"),
        ("python_petersburg", {"players": 4}, "known_hands"),
        ("python_petersburg", {"players": 2, "variant": "second"}, "known_hands"),
    ],
)
def test_observation_dict_holds_the_layout_pieces_as_views(
    name: str, params: dict[str, Any], extra: str
) -> None:
    """``make_observation(game).dict`` holds one piece per field of the layout table (docs/environments.md),
    in its order and shape (``rows`` R x C, ``piles`` and ``areas`` n x ..., ``markers`` 4 x n), each a view
    into the one tensor; the information state adds one piece (``played``, ``known_hands``).  After
    ``set_from`` the pieces, flattened in order, are the state's tensor."""
    game = pyspiel.load_game(name, params)
    layout = (take6 if name == "python_take6" else petersburg)._config(game).codec.layout
    state = _play(
        game,
        random.Random(2),
        game.new_initial_state(),
        stop=lambda s: len(s.history()) > 80 and not s.is_chance_node(),
    )
    for kind, names in ((None, list(layout.names())), (INFO_STATE_OBS_TYPE, [*layout.names(), extra])):
        obs = make_observation(game, kind)
        assert list(obs.dict) == names
        for slot in layout.slots:
            assert obs.dict[slot.name].shape == slot.dims and np.shares_memory(
                obs.dict[slot.name], obs.tensor
            )
        assert sum(piece.size for piece in obs.dict.values()) == obs.tensor.size
        obs.set_from(state, 1)
        flat = np.concatenate([piece.ravel() for piece in obs.dict.values()])
        tensor = state.observation_tensor(1) if kind is None else state.information_state_tensor(1)
        assert np.array_equal(flat, obs.tensor) and np.array_equal(flat, np.asarray(tensor, np.float32))
    assert "`played`" in DOC and "`known_hands`" in DOC


def test_named_pieces_read_the_fields() -> None:
    """The pieces read as their names say: 6 nimmt!'s ``hand`` is 1 at c-1 for each card of the hand, ``rows``
    holds the rows' cards row by row, ``seat`` is one-hot (T6-SETUP-4)."""
    game, state = _to_selection(4)
    obs = make_observation(game)
    obs.set_from(state, 2)
    engine_state = state.engine
    assert sorted(int(i) + 1 for i in np.flatnonzero(obs.dict["hand"])) == sorted(engine_state.hands[2])
    assert [int(row[0]) for row in obs.dict["rows"]] == [row[0] for row in engine_state.rows]
    assert obs.dict["seat"].tolist() == [0, 0, 1, 0]


# ------------------------------------------------------------------------------------------ pickling


def test_a_finished_ten_player_game_pickles_small_and_whole() -> None:
    """A finished 10-player 6 nimmt! state pickles to a few kilobytes (before: 474 KB, the whole history of
    every seat's observation strings) and unpickles to the same state."""
    game = pyspiel.load_game("python_take6", {"players": 10})
    state = _play(game, random.Random(0), game.new_initial_state())
    data = pickle.dumps(state)
    assert len(data) < 16_000
    copy = pickle.loads(data)
    assert copy.history() == state.history() and str(copy) == str(state) and copy.returns() == state.returns()
    assert all(copy.information_state_string(p) == state.information_state_string(p) for p in range(10))


@pytest.mark.parametrize("name", ["python_take6", "python_petersburg"])
def test_an_unpickled_state_plays_on_as_the_original(name: str) -> None:
    """A state pickled mid-game is the same state: the same legal actions, strings, tensors, and the same
    game when both play on with the same random choices; nothing it pickles is derived from the rest
    (the configuration travels as its parameters)."""
    game = pyspiel.load_game(name, {"players": 4})
    state = _play(game, random.Random(3), game.new_initial_state(), stop=lambda s: len(s.history()) > 120)
    copy = pickle.loads(pickle.dumps(state))
    assert len(pickle.dumps(state)) < 8_000
    for p in range(4):
        assert copy.information_state_string(p) == state.information_state_string(p)
        assert copy.information_state_tensor(p) == state.information_state_tensor(p)
    a, b = _play(game, random.Random(9), state), _play(game, random.Random(9), copy)
    assert a.history() == b.history() and a.returns() == b.returns()
