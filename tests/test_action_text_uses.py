"""Action text where actions are read and shown: ``explain`` (the command line and the library), the
``play`` log, the derivation of ``GAME.why``.

* ``explain`` gives the same answer for an action's text as for its JSON form, asks in plain words (no JSON
  ``key=value`` left), names the action's text in ``value.action``, and lists the legal actions by their
  text when it refuses one;
* an ambiguous or malformed text is refused naming ``--action``; an illegal one is explained with the
  engine's clause;
* every ``Action N: TEXT`` line of an ``arbiter play`` log reads back, in the position before that action, as
  the action the game record holds.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.conformance.records.format import ActionLine, iter_record
from engine.errors import InputError
from engine.game import get_game
from engine.play import play_game
from engine.query.explain import explain

ROOT = Path(__file__).resolve().parent.parent
SP_BOTH_ROWS = (
    "first 3 building 1 0 0/1/0/1 Market,Pub Market - - 12:4:-:Lumberjack*2,Shepherd:- 30:2:Bank:GoldMiner:-"
)


def _states(name: str, seed: int, every: int) -> list[Any]:
    """Every ``every``-th state of a seeded random game of 3 players (1 of Saint Petersburg's 2 editions)."""
    game = get_game(name)
    variant = game.variants[seed % len(game.variants)]
    state = game.new_game(3, seed=seed, variant=variant)
    rng = random.Random(seed)
    out = []
    step = 0
    while not game.is_terminal(state):
        if step % every == 0:
            out.append(state)
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
        step += 1
    return out


@pytest.mark.parametrize("name", ["take6", "petersburg"])
def test_explain_answers_a_text_as_its_json_form(name: str) -> None:
    """For legal actions of random positions, ``explain`` of the action's text and of its JSON form give the
    same question, summary and value; the question is plain words ("May P0 buy the Market from the upper
    row here, ...?"), and ``value.action`` is the action's text."""
    game = get_game(name)
    rng = random.Random(name)
    checked = 0
    for state in _states(name, seed=2, every=9)[:12]:
        legal = game.legal_actions(state)
        for action in rng.sample(list(legal), min(3, len(legal))):
            text = game.action_to_text(state, action)
            by_text = explain(name, state, text)
            by_json = explain(name, state, game.action_to_json(action))
            assert by_text.to_json() == by_json.to_json()
            assert by_text.value["legal"] is True and by_text.value["action"] == text
            words = game.action_to_words(state, action)
            assert by_text.question == f"May {words} here, and what happens?"
            assert not re.search(r"\w=|[{}]|player \d", by_text.question), by_text.question
            checked += 1
    assert checked >= 20


def test_explain_refuses_an_ambiguous_text_naming_action_and_its_readings() -> None:
    """A text naming two legal actions (a Market in both rows) is refused on ``--action``, listing both."""
    from engine.positions import load_position

    state = load_position("petersburg", SP_BOTH_ROWS)
    with pytest.raises(InputError) as info:
        explain("petersburg", state, "buy Market")
    assert info.value.field == "--action"
    assert "'buy Market upper' or 'buy Market lower'" in info.value.message
    with pytest.raises(InputError) as info:
        explain("petersburg", state, "buy Unicorn")
    assert info.value.field == "--action: card"


def test_explain_an_illegal_text_with_the_engines_clause_and_the_legal_texts() -> None:
    """SP-TURN-2, SP-BUY-2, T6-SELECT-1: an illegal text is explained (not refused as input): the clause the
    engine names, and what would be legal listed by text."""
    from engine.positions import load_position

    state = load_position("petersburg", SP_BOTH_ROWS)
    answer = explain("petersburg", state, "P0 pass")
    assert answer.value["legal"] is False and answer.value["clause"] == "SP-TURN-2"
    assert answer.question == "May P0 pass here, and what happens?"
    poor = load_position("petersburg", SP_BOTH_ROWS.replace("30:2:Bank", "3:2:Bank"))
    answer = explain("petersburg", poor, "buy Market upper")
    assert answer.value["clause"] == "SP-BUY-2" and answer.value["action"] == "buy Market"
    t6 = get_game("take6")
    s = t6.new_game(2, seed=1)
    answer = explain("take6", s, f"P0 {s.hands[1][0]}")
    assert answer.value["clause"] == "T6-SELECT-1"
    listed = "; ".join(f"P0 {c}" for c in s.hands[0][:8])
    assert any(f"P0's 10 legal actions: {listed} … and 2 more" in note for note in answer.notes), answer.notes


def test_the_explain_command_takes_text_json_and_json_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``arbiter explain --action`` takes the action's text, inline JSON, and ``@FILE`` / ``FILE.json``
    holding JSON: the same answer each way; an ambiguous text exits 2 with one line naming --action."""
    action = {"type": "buy", "player": 1, "card": "Market", "source": "lower"}
    (tmp_path / "a.json").write_text(json.dumps(action), encoding="utf-8")
    outs = []
    for given in ("buy Market lower", "BUY markt FROM lower", json.dumps(action), f"@{tmp_path / 'a.json'}",
                  str(tmp_path / "a.json")):
        assert main(["explain", "petersburg", "--position", SP_BOTH_ROWS, "--action", given, "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert all(o == outs[0] for o in outs)
    assert outs[0]["question"] == "May P1 buy the Market from the lower row here, and what happens?"
    assert main(["explain", "petersburg", "--position", SP_BOTH_ROWS, "--action", "buy Market"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("arbiter: error: --action: 'buy Market' is ambiguous")


def test_explain_phrases_each_kind_of_action_in_plain_words() -> None:
    """The question of every kind of action names it in plain words: a selection, a row choice, a draft, a
    flip, a deal; a pass, a buy from a row and of the drawn card, a take, a play, a displacement, an
    Observatory draw, a discard, a Pub purchase, a reveal."""
    from engine.petersburg import Buy, Discard, Observe, Pass, Play, PubBuy, Reveal, Take
    from engine.take6 import Deal, Draft, DraftStart, Flip, Select, TakeRow

    t6 = get_game("take6").new_game(2, seed=1)
    sp = get_game("petersburg").new_game(2, seed=1)
    expected = {
        ("take6", Select(1, 5)): "P1 select 5",
        ("take6", TakeRow(0, 2)): "P0 take row 2",
        ("take6", Draft(0, 7)): "P0 draft 7 from the face-up pool",
        ("take6", Flip(1)): "P1 flip the top card of their pile",
        ("take6", Deal(hands=[[1], [2]], rows=[3, 4, 5, 6])): "round 1 be dealt 1/2|3.4.5.6",
        ("take6", DraftStart(1)): "the draft of round 1 start with P1",
        ("petersburg", Pass(0)): "P0 pass",
        ("petersburg", Buy(0, "Market", "lower")): "P0 buy the Market from the lower row",
        ("petersburg", Buy(0, "Czar", "drawn")): "P0 buy the drawn Czar",
        ("petersburg", Take(0, "Pub", "upper")): "P0 take the Pub from the upper row into the hand",
        ("petersburg", Play(0, "Bank", "Market")): "P0 play the Bank from the hand, displacing the Market",
        ("petersburg", Buy(0, "Wharf", "upper", "Lumberjack")):
            "P0 buy the Wharf from the upper row, displacing the Lumberjack",
        ("petersburg", Observe(0, "trading")):
            "P0 turn an Observatory to draw the top card of the trading stack",
        ("petersburg", Discard(0, "Czar")): "P0 discard the drawn Czar",
        ("petersburg", PubBuy(0, 3)): "P0 buy 3 VP at the Pub",
        ("petersburg", PubBuy(0, 0)): "P0 buy no VP at the Pub",
        ("petersburg", Reveal("Market")): "the card drawn from a stack of unknown order be the Market",
    }
    for (name, action), words in expected.items():
        state = t6 if name == "take6" else sp
        assert get_game(name).action_to_words(state, action) == words
        answer = explain(name, state, get_game(name).action_to_json(action))
        assert answer.question == f"May {words} here, and what happens?"


@pytest.mark.parametrize(("name", "players", "seed"), [("take6", 3, 2), ("petersburg", 2, 4)])
def test_each_action_line_of_a_play_log_reads_back_as_the_recorded_action(
    name: str, players: int, seed: int, tmp_path: Path
) -> None:
    """``arbiter play`` names action N by its text with its seat (``Action 12: P1 buy Lumberjack``); read in
    the position before it, the text is the action the game's record holds at index N."""
    game = get_game(name)
    path = tmp_path / "game.jsonl"
    lines, _ = play_game(name, players=players, seed=seed, record=str(path))
    shown: dict[int, str] = {}
    for log_line in lines:
        m = re.fullmatch(r"Action (\d+): (.+)", log_line)
        if m:
            shown[int(m.group(1))] = m.group(2)
    state = game.new_game(players, seed=seed)
    count = 0
    for line in iter_record(path):
        if not isinstance(line, ActionLine):
            continue
        action = game.action_from_json(line.action)
        text = shown[line.index]
        assert re.match(r"P\d ", text), text
        assert game.action_from_text(state, text) == action
        state = game.apply(state, action)
        count += 1
    assert count == len(shown) > 20


def test_why_names_the_action_by_its_text() -> None:
    """SP-BUY-1, T6-SELECT-1: the root of ``GAME.why`` names the action by its text (its ``repr`` only for
    something that is no action of the game)."""
    sp = get_game("petersburg")
    s = sp.new_game(2, seed=1)
    why = sp.why(s, sp.action_from_text(s, "buy Shepherd"))  # type: ignore[attr-defined]
    assert why.data == {"action": "buy Shepherd"} and why.note == "buy Shepherd is legal"
    assert sp.why(s, "junk").data == {"action": "'junk'"}  # type: ignore[attr-defined]
    t6 = get_game("take6")
    s = t6.new_game(2, seed=1)
    assert t6.why(s, t6.legal_actions(s)[0]).data == {"action": f"P0 {s.hands[0][0]}"}  # type: ignore[attr-defined]
