"""Actions as text through the assistant's tools (``engine.assistant.tools``, protocol-free; the client
session is tests/test_assistant_mcp.py).

* ``legal_actions`` prints each legal action by its text (``game.action_to_text``) and gives the texts in
  its structured result beside the JSON forms, seat by seat and in the same order, valid against its output
  schema;
* ``explain_action`` takes any of those texts and answers as for the action's JSON form;
* a text naming several legal actions, a malformed text, a value neither text nor object is refused naming
  ``action`` (or its part), in the tool's own words; an illegal text is explained with the engine's clause.

The positions are random states of seeded games of both games (every variant), not picked by hand.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from engine.assistant.prompts import get_prompt
from engine.assistant.tools import call, tool_index
from engine.errors import InputError
from engine.game import get_game

SP_BOTH_ROWS = (
    "first 3 building 1 0 0/1/0/1 Market,Pub Market - - 12:4:-:Lumberjack*2,Shepherd:- 30:2:Bank:GoldMiner:-"
)
"""Saint Petersburg, P1 to buy: a Market in each row (so ``buy Market`` is ambiguous)."""
T6_POSITION = "standard 2 select 3.10/22/40.41.45/90 5.8.60*61/7.9.70.71 - - 12/0"


def _positions(name: str, seed: int, count: int) -> list[Any]:
    """``count`` states drawn at random along a seeded random game of ``name`` (a variant and player count
    chosen by the seed), each as the game's JSON state (what a client passes as position)."""
    game = get_game(name)
    rng = random.Random(f"{name}:{seed}")
    variant = game.variants[seed % len(game.variants)]
    players = rng.randint(game.min_players, min(game.max_players, 5))
    state = game.new_game(players, seed=seed, variant=variant)
    states = []
    while not game.is_terminal(state):
        states.append(state)
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    states.append(state)
    return [game.state_to_json(s) for s in rng.sample(states, min(count, len(states)))]


@pytest.mark.parametrize("name", ["take6", "petersburg"])
def test_legal_actions_prints_the_texts_explain_action_takes(name: str) -> None:
    """For random positions: ``texts`` holds, per seat, ``action_to_text`` of each action of ``actions`` in
    the same order (T6-SELECT-1, SP-TURN-1: the seats to act and their actions), the text lists them, the
    result conforms to the output schema; and ``explain_action`` of a text answers exactly as of the JSON
    form (legal, the same clause chain), naming the text in ``value.action``."""
    game = get_game(name)
    schema = tool_index()["legal_actions"].output_schema
    rng = random.Random(name)
    explained = 0
    for seed in (1, 2, 3):
        for position in _positions(name, seed, 6):
            state = game.state_from_json(position)
            result = call("legal_actions", {"game": name, "position": position})
            data = result.data
            assert not list(Draft202012Validator(schema).iter_errors(data))
            assert set(data["texts"]) == set(data["actions"]) == {str(p) for p in game.to_act(state)}
            for seat, values in data["actions"].items():
                actions = [game.action_from_json(v) for v in values]
                assert actions == list(game.legal_actions(state, int(seat)))
                texts = data["texts"][seat]
                assert texts == [game.action_to_text(state, a) for a in actions]
                assert f"P{seat}: {len(texts)} legal action(s): {'; '.join(texts)}" in result.text
                assert "=" not in result.text and "{" not in result.text
                for text, value in rng.sample(list(zip(texts, values, strict=True)), min(2, len(texts))):
                    args = {"game": name, "position": position}
                    by_text = call("explain_action", {**args, "action": text}).data
                    by_json = call("explain_action", {**args, "action": value}).data
                    assert by_text == by_json and by_text["value"]["legal"] is True
                    assert by_text["value"]["action"] == text
                    explained += 1
    assert explained >= 12


def test_a_finished_game_has_no_texts() -> None:
    """At the end of a game (T6-END-2) nobody acts: no seat, no action, no text; a seat asked for has none."""
    game = get_game("take6")
    state = game.new_game(2, seed=5)
    while not game.is_terminal(state):
        state = game.apply(state, game.legal_actions(state)[0])
    position = game.state_to_json(state)
    data = call("legal_actions", {"game": "take6", "position": position}).data
    assert data["over"] is True and data["actions"] == data["texts"] == {}
    data = call("legal_actions", {"game": "take6", "position": position, "player": 1}).data
    assert data["actions"] == {"1": []} and data["texts"] == {"1": []}


def test_an_ambiguous_text_is_refused_naming_action_and_listing_the_texts() -> None:
    """``buy Market`` with a Market in both rows names two legal actions (SP-BUY-1): refused on ``action``,
    listing both readings, each one of the texts legal_actions prints; the JSON form is answered."""
    with pytest.raises(InputError) as info:
        call("explain_action", {"game": "petersburg", "position": SP_BOTH_ROWS, "action": "buy Market"})
    assert info.value.field == "action"
    assert "'buy Market upper' or 'buy Market lower'" in info.value.message
    texts = call("legal_actions", {"game": "petersburg", "position": SP_BOTH_ROWS}).data["texts"]["1"]
    assert {"buy Market upper", "buy Market lower"} <= set(texts)
    action = {"type": "buy", "player": 1, "card": "Market", "source": "lower"}
    answer = call("explain_action", {"game": "petersburg", "position": SP_BOTH_ROWS, "action": action}).data
    assert answer["value"]["legal"] is True and answer["value"]["action"] == "buy Market lower"


@pytest.mark.parametrize(
    ("action", "field", "words"),
    [
        ("", "action", "empty action text"),
        ("P7 3", "action.seat", "expected a seat P0..P1, got 'P7'"),
        ("row", "action.row", "expected row and a number"),
        (7, "action", "expected a text or an object, got 7"),
        (None, "action", "expected a text or an object, got null"),
        ([], "action", "expected a text or an object, got []"),
        ({"type": "select", "player": 1}, "action.card", "missing field"),
    ],
)
def test_a_bad_action_is_refused_in_the_tools_words(action: Any, field: str, words: str) -> None:
    """A malformed text names ``action`` or its part (the seat of ``P7 3`` in a 2-player game: T6-SETUP-1
    seats), a value neither text nor object says what the argument takes; no command-line word."""
    with pytest.raises(InputError) as info:
        call("explain_action", {"game": "take6", "position": T6_POSITION, "action": action})
    assert info.value.field == field and words in info.value.message
    assert not re.search(r"--[a-z]|arbiter [a-z]", str(info.value))


def test_an_illegal_text_is_explained_with_the_engines_clause() -> None:
    """T6-SELECT-1 / T6-SELECT-2: a text naming an illegal action is answered, not refused: the clause the
    engine's apply names, and the legal actions by their texts."""
    answer = call("explain_action", {"game": "take6", "position": T6_POSITION, "action": "P1 8"}).data
    assert answer["value"]["legal"] is False and answer["value"]["clause"] == "T6-SELECT-1"
    assert answer["value"]["action"] == "P1 8"
    assert any("P1's 4 legal actions: 7; 9; 70; 71." in note for note in answer["notes"]), answer["notes"]
    answer = call("explain_action", {"game": "take6", "position": T6_POSITION, "action": "P0 3"}).data
    assert answer["value"]["clause"] == "T6-SELECT-2"


def test_the_dispute_prompt_quotes_a_text_action() -> None:
    """settle_dispute given a text action passes it to explain_action as a JSON string value (a JSON action
    as it came), and tells the assistant legal_actions lists actions by their text."""
    args = {"game": "take6", "position": T6_POSITION, "question": "May P1 play 7?"}
    text = get_prompt("settle_dispute", {**args, "action": "P1 7"})[1]
    assert 'this position and action "P1 7":' in text and "by its text" in text
    action = '{"type": "select", "player": 1, "card": 7}'
    text = get_prompt("settle_dispute", {**args, "action": action})[1]
    assert f"this position and action {action}:" in text
