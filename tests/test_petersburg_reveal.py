"""Saint Petersburg stacks of unknown order and the ``Reveal`` chance step (SP-REVEAL-1).

A position may leave a stack's order unknown (its cards known only as a multiset); each draw from it (a
refill of the upper row, an Observatory draw) stops in phase ``reveal`` until a ``Reveal`` names the card.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

from engine.conformance.records.check import check_record
from engine.conformance.records.format import record_game, write_record
from engine.errors import IllegalAction, NotYourTurn, PositionError
from engine.petersburg import GAME, Observe, Pass, Reveal, State, position, reveals
from engine.petersburg.catalog import STACKS
from engine.petersburg.legal import legal_actions


def _hidden(state: State) -> State:
    """The same position with every stack's order unknown."""
    data = GAME.state_to_json(state)
    data["stacks"] = {name: {"top": [], "unknown": sorted(cards)} for name, cards in data["stacks"].items()}
    return GAME.state_from_json(data)


def _round_trips(state: State) -> None:
    assert GAME.from_notation(GAME.to_notation(state)) == state
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state


def test_a_game_with_unknown_stacks_plays_to_the_end_through_random_reveals() -> None:
    """SP-REVEAL-1: from a position whose stacks are all of unknown order, every refill stops in phase
    ``reveal`` (nobody to act) until a legal reveal, picked at random here; the game still ends, and every
    position on the way round-trips through the notation and JSON."""
    for seed in range(3):
        rng = random.Random(seed)
        state = _hidden(GAME.new_game(2 + seed, seed=seed))
        assert all(len(state.unknown(name)) == len(state.stacks[i]) for i, name in enumerate(STACKS))
        reveal_steps = 0
        while not GAME.is_terminal(state):
            _round_trips(state)
            if state.phase == "reveal":
                assert GAME.to_act(state) == ()
                assert legal_actions(state, state.turn) == ()
                options = reveals(state)
                assert options == GAME.legal_actions(state)
                action: Any = rng.choice(options)
                reveal_steps += 1
            else:
                action = rng.choice(GAME.legal_actions(state))
            state = GAME.apply(state, action)
        assert reveal_steps > 0
        assert not state.hidden or all(k < len(state.rules.names) for k in state.upper)


def test_a_seeded_game_replayed_with_hidden_stacks_and_its_draws_as_reveals_ends_the_same() -> None:
    """SP-REVEAL-1: a seeded game replayed from its start with every stack hidden, each card the seeded
    game drew given as a reveal (Observatory draws included), reaches the same final state and result."""
    for seed in range(4):
        rng = random.Random(seed)
        known = GAME.new_game(2, seed=seed)
        hidden = _hidden(known)
        while not GAME.is_terminal(known):
            action = rng.choice(GAME.legal_actions(known))
            after = GAME.apply(known, action)
            hidden = GAME.apply(hidden, action)
            if isinstance(action, Observe):
                drawn = list(after.cards("drawn"))
            elif after.round != known.round:  # the upper row moved down and was refilled
                drawn = list(after.cards("upper"))
            else:
                drawn = (
                    list(after.cards("upper")[len(known.upper) :])
                    if after.phase_index != known.phase_index
                    else []
                )
            for card in drawn:
                assert hidden.phase == "reveal"
                hidden = GAME.apply(hidden, Reveal(card))
            assert hidden.phase == after.phase
            known = after
        same = [f for f in State._fields if f not in ("stacks", "hidden")]
        assert [getattr(hidden, f) for f in same] == [getattr(known, f) for f in same]
        assert [len(st) for st in hidden.stacks] == [len(st) for st in known.stacks]
        assert GAME.result(hidden) == GAME.result(known)


def _refill_pending() -> State:
    return position(
        players=2,
        phase="reveal",
        upper=["Market", "?building", "?building"],
        unknown={"building": ["Pub", "Pub", "Library"]},
        markers=[0, 0, 1, 1],
    )


def test_wrong_reveals_are_refused_naming_the_clause() -> None:
    """SP-REVEAL-1: a reveal names one of the stack's remaining unknown cards, only in phase reveal; a
    seat's action while a reveal is due is refused; the old state is unchanged."""
    state = _refill_pending()
    assert state.phase == "reveal" and state.phase_index == 1 and GAME.to_act(state) == ()
    assert state.cards("building") == ("?building",) and state.unknown("building") == (
        "Library",
        "Pub",
        "Pub",
    )
    for card in ("Czar", "Lumberjack", "no such card"):
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(state, Reveal(card))
        assert exc.value.clause == "SP-REVEAL-1"
    with pytest.raises(NotYourTurn) as turn:
        GAME.apply(state, Pass(0))
    assert turn.value.clause == "SP-REVEAL-1"
    one = GAME.apply(state, Reveal("Pub"))
    assert one.cards("upper") == ("Market", "Pub", "?building") and one.phase == "reveal"
    two = GAME.apply(one, Reveal("Library"))
    assert (
        two.phase == "building"
        and two.unknown("building") == ("Pub",)
        and two.cards("building") == ("?building",)
    )
    with pytest.raises(IllegalAction) as late:
        GAME.apply(two, Reveal("Pub"))
    assert late.value.clause == "SP-REVEAL-1"
    assert state == _refill_pending()


def test_an_observatory_draw_from_an_unknown_stack_waits_for_its_reveal() -> None:
    """SP-REVEAL-1 with SP-OBS-1: the Observatory draws the unknown top card; the reveal names it and the
    owner then decides on it (SP-OBS-4)."""
    state = position(
        players=1,
        phase="building",
        areas=[["Observatory"]],
        unknown={"aristocrat": ["Author", "Judge", "Administrator"]},
    )
    drawn = GAME.apply(state, Observe(0, "aristocrat"))
    assert drawn.phase == "reveal" and drawn.cards("drawn") == ("?aristocrat",)
    _round_trips(drawn)
    assert "reveal:?aristocrat" in GAME.to_notation(drawn)
    shown = GAME.apply(drawn, Reveal("Judge"))
    assert shown.phase == "observatory" and shown.cards("drawn") == ("Judge",)
    assert shown.unknown("aristocrat") == ("Author", "Administrator") and len(shown.stacks[2]) == 2


def test_unknown_stacks_in_notation_and_bad_ones_refused() -> None:
    """SP-REVEAL-1: a stack of unknown order is written KNOWN~MULTISET and reads back exactly; a card of
    another stack in the multiset, or more drawn cards than unknown ones, is refused naming the field."""
    state = position(players=2, stacks={"building": ["Library"]}, unknown={"building": ["Market", "Pub"]})
    text = GAME.to_notation(state)
    assert "Library~" in text and GAME.from_notation(text) == state
    assert state.cards("building") == ("Library", "?building", "?building")
    with pytest.raises(PositionError) as exc:
        position(players=2, unknown={"worker": ["Market"]})
    assert exc.value.clause == "SP-REVEAL-1" and "unknown.worker" in str(exc.value)
    with pytest.raises(PositionError) as more:
        position(players=2, phase="reveal", upper=["?building", "?building"], unknown={"building": ["Pub"]})
    assert more.value.clause == "SP-REVEAL-1"
    with pytest.raises(PositionError):
        position(players=2, upper=["?building"], unknown={"building": ["Pub"]})


def test_a_record_with_reveal_chance_lines_replays_in_check() -> None:
    """SP-REVEAL-1: a record starting from a position with unknown stacks carries each reveal as a chance
    line (player null, ``{"type": "reveal", "card": NAME}``); ``arbiter check`` replays it, and refuses a
    wrong reveal with the clause."""
    start = _hidden(GAME.new_game(2, seed=7))
    rng = random.Random(7)
    state, actions = start, list[Any]()
    while len(actions) < 60 and not GAME.is_terminal(state):
        action = rng.choice(GAME.legal_actions(state))
        actions.append(action)
        state = GAME.apply(state, action)
    assert any(isinstance(a, Reveal) for a in actions)
    record = record_game(
        "petersburg", players=2, actions=actions, claims=True, position=GAME.to_notation(start)
    )
    buf = io.StringIO()
    write_record(buf, record)
    lines = [json.loads(line) for line in buf.getvalue().splitlines()]
    chance = [x for x in lines if x.get("type") == "action" and x["player"] is None]
    assert chance and all(x["action"]["type"] == "reveal" for x in chance)
    report = check_record(io.StringIO(buf.getvalue()), name="r.jsonl")
    assert report.status == "ok", report.divergence or report.error
    wrong = dict(chance[0], action={"type": "reveal", "card": "Czar"})
    bad = [wrong if x is chance[0] else x for x in lines]
    report = check_record(io.StringIO("\n".join(json.dumps(x) for x in bad)), name="r.jsonl")
    assert report.status == "divergence" and report.divergence is not None
    assert report.divergence.clauses == ("SP-REVEAL-1",)


def test_a_seat_action_while_a_reveal_is_due_is_reported_with_the_legal_reveals() -> None:
    """SP-REVEAL-1: in a record, a player's line where a reveal is due diverges naming the clause, and the
    report lists the legal chance lines."""
    start = _hidden(GAME.new_game(2, seed=3))
    rng = random.Random(3)
    state, actions = start, list[Any]()
    while GAME.to_act(state):
        action = rng.choice(GAME.legal_actions(state))
        actions.append(action)
        state = GAME.apply(state, action)
    actions.append(Pass(state.turn))
    record = record_game("petersburg", players=2, actions=actions[:-1], position=GAME.to_notation(start))
    buf = io.StringIO()
    write_record(buf, record)
    lines = [json.loads(line) for line in buf.getvalue().splitlines()]
    lines.append(
        {
            "type": "action",
            "index": len(actions) - 1,
            "player": state.turn,
            "action": {"type": "pass", "player": state.turn},
        }
    )
    report = check_record(io.StringIO("\n".join(json.dumps(x) for x in lines)), name="r.jsonl")
    assert report.status == "divergence" and report.divergence is not None
    assert report.divergence.clauses == ("SP-REVEAL-1",)
    assert 'only a chance line (player null): reveal ' in report.divergence.rules


def test_arbiter_play_from_unknown_stacks_reveals_at_random_and_its_record_checks(tmp_path: Any) -> None:
    """SP-REVEAL-1: ``arbiter play --from`` a position with stacks of unknown order reveals each drawn card
    at random, plays to the end, and the record it writes (reveals as chance lines) checks ok."""
    from engine.play import play_game

    line = "first 1 aristocrat 0 0 0/1/0/1 Author*6 - -/-/-/~Wharf*2,Harbor - 25:0:-:-:- 25:0:-:-:-"
    path = tmp_path / "game.jsonl"
    lines, state = play_game("petersburg", players=2, start=line, record=str(path))
    assert state.over and any("awaits its reveal [SP-REVEAL-1]" in x for x in lines)
    text = path.read_text()
    assert '"player": null' in text or '"player":null' in text
    report = check_record(io.StringIO(text), name="game.jsonl")
    assert report.status == "ok", report.divergence or report.error
