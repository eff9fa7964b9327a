"""Positions of both games, as properties over real games of every variant and player count.

* every position reached in random play round-trips exactly through the notation and through the JSON codec
  (which builds through the position builder), and the copy plays on identically to the original;
* a position read from notation plays to the end (6 nimmt!: later rounds dealt from a seed, or given at the
  chance step when the position has none);
* random corruptions of a notation line or of a JSON state are refused with an InputError naming a field or
  token — never another exception — or read as a valid position that round-trips.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.game import Game, get_game
from engine.take6 import Deal, DraftStart, deal_order

GAMES = {"take6": get_game("take6"), "petersburg": get_game("petersburg")}
CONFIGS = [
    ("take6", v, n)
    for v in GAMES["take6"].variants
    for n in ((2, 5) if v in ("tactics", "logic") else (2, 4, 10) if v != "kids" else (2, 6))
] + [("petersburg", v, n) for v in GAMES["petersburg"].variants for n in (1, 2, 4)]


def positions(game: Game, variant: str, players: int, seed: int, limit: int = 400) -> list[Any]:
    """Every state of one random game (at most ``limit``, spread over the whole game)."""
    rng = random.Random(seed)
    state = game.new_game(players, seed=seed, variant=variant)
    seen = [state]
    while not game.is_terminal(state):
        actions = game.legal_actions(state)
        state = game.apply_unchecked(state, actions[rng.randrange(len(actions))])
        seen.append(state)
    step = max(1, len(seen) // limit)
    return [*seen[::step], seen[-1]]


def play_on(game: Game, state: Any, seed: int, steps: int) -> list[Any]:
    """``steps`` random checked steps from ``state`` (chance steps dealt from ``seed``)."""
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if game.is_terminal(state):
            break
        state = game.apply(state, _next_action(game, state, rng))
        out.append(state)
    return out


def _next_action(game: Game, state: Any, rng: random.Random) -> Any:
    actions = game.legal_actions(state)
    if actions:
        return actions[rng.randrange(len(actions))]
    # a chance step (6 nimmt! without a seed): deal the round as a seeded game would
    rules = state.rules
    if rules.deal == "draft":
        return DraftStart(rng.randrange(rules.players))
    order = deal_order(rules, rng.randrange(1000), state.round)
    h, n = rules.hand_size, rules.players
    return Deal(hands=[order[p * h : (p + 1) * h] for p in range(n)], rows=order[n * h :])


@settings(max_examples=len(CONFIGS) * 2, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
def test_positions_round_trip_through_notation_and_builder_and_play_on_identically(
    config: tuple[str, str, int], seed: int
) -> None:
    """T6-DECK-1, SP-CARD-5: each reached position written in notation and read back, and written as JSON
    and rebuilt, is equal to the original; the notation line reads back to the same line; and the copy
    plays on exactly as the original."""
    name, variant, players = config
    game = GAMES[name]
    for state in positions(game, variant, players, seed, limit=60):
        line = game.to_notation(state)
        back = game.from_notation(line)
        assert back == state, line
        assert game.to_notation(back) == line
        assert game.state_from_json(game.state_to_json(state)) == state
        assert play_on(game, back, seed, 6) == play_on(game, state, seed, 6)


@settings(max_examples=len(CONFIGS), deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000), data=st.data())
def test_a_position_from_notation_plays_to_the_end(
    config: tuple[str, str, int], seed: int, data: st.DataObject
) -> None:
    """T6-END-1, T6-KIDS-3, SP-END-1: a position read from notation — with its seed, or without one so that
    each later round's deal is a chance step — plays to a finished game through the checked tier."""
    name, variant, players = config
    game = GAMES[name]
    reached = positions(game, variant, players, seed, limit=20)
    start = data.draw(st.sampled_from(reached))
    line = game.to_notation(start)
    if name == "take6" and data.draw(st.booleans()):
        line = " ".join(t for t in line.split() if not t.startswith("seed="))  # later deals unknown
    state = game.from_notation(line)
    rng = random.Random(seed)
    for _ in range(20_000):
        if game.is_terminal(state):
            break
        state = game.apply(state, _next_action(game, state, rng))
    assert game.is_terminal(state)
    assert len(game.result(state).ranking) == players


def _mutate_line(line: str, data: st.DataObject) -> str:
    tokens = line.split()
    i = data.draw(st.integers(0, len(tokens) - 1))
    kind = data.draw(st.sampled_from(["char", "token", "drop", "swap", "number"]))
    tok = tokens[i]
    if kind == "char" and tok:
        j = data.draw(st.integers(0, len(tok) - 1))
        tok = tok[:j] + data.draw(st.sampled_from(list("0123456789./-*@:,|;=[]xZ"))) + tok[j + 1 :]
    elif kind == "token":
        tok = data.draw(st.text(alphabet="0123456789./-*@:,abc", min_size=1, max_size=8))
    elif kind == "drop":
        return " ".join(tokens[:i] + tokens[i + 1 :])
    elif kind == "swap":
        j = data.draw(st.integers(0, len(tokens) - 1))
        tokens[i], tokens[j] = tokens[j], tokens[i]
        return " ".join(tokens)
    else:
        tok = "".join(str(data.draw(st.integers(0, 120))) if c.isdigit() else c for c in tok[:40])
    tokens[i] = tok
    return " ".join(tokens)


def _mutate_json(value: Any, data: st.DataObject) -> Any:
    out = copy.deepcopy(value)
    key = data.draw(st.sampled_from(sorted(out)))
    junk = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 130),
        st.text(max_size=4),
        st.lists(st.integers(-1, 110), max_size=4),
    )
    target = out[key]
    if isinstance(target, list) and target and data.draw(st.booleans()):
        j = data.draw(st.integers(0, len(target) - 1))
        if isinstance(target[j], list) and target[j] and data.draw(st.booleans()):
            target[j][data.draw(st.integers(0, len(target[j]) - 1))] = data.draw(junk)
        else:
            target[j] = data.draw(junk)
    elif data.draw(st.booleans()):
        del out[key]
    else:
        out[key] = data.draw(junk)
    return out


@settings(max_examples=300, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 500), data=st.data())
def test_corrupt_positions_are_refused_with_a_field_never_a_traceback(
    config: tuple[str, str, int], seed: int, data: st.DataObject
) -> None:
    """T6-DECK-1, SP-CARD-5: a randomly corrupted notation line or JSON state is either a valid position (that
    round-trips) or refused by an InputError whose message starts with the field or token it names."""
    name, variant, players = config
    game = GAMES[name]
    start = data.draw(st.sampled_from(positions(game, variant, players, seed, limit=10)))
    if data.draw(st.booleans()):
        _refused_or_valid(game.from_notation, game.to_notation, _mutate_line(game.to_notation(start), data))
    else:
        _refused_or_valid(
            game.state_from_json, game.state_to_json, _mutate_json(game.state_to_json(start), data)
        )


def _refused_or_valid(read: Any, write: Any, value: Any) -> None:
    try:
        state = read(value)
    except InputError as exc:
        assert exc.field and str(exc).startswith(exc.field) and "\n" not in str(exc)
        return
    assert read(write(state)) == state
