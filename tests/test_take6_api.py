"""6 nimmt! public API: explicit deals, JSON forms and their validation, observations, narration, reprs."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.errors import IllegalSetup, InputError
from engine.game import get_game
from engine.take6 import (
    GAME,
    Deal,
    Draft,
    DraftStart,
    Flip,
    Select,
    State,
    TakeRow,
)

HANDS = (tuple(range(1, 11)), tuple(range(11, 21)))
ROWS = (50, 60, 70, 80)


def states(variant: str, n: int, seed: int, every: int = 5) -> list[State]:
    """Some states of a random game (the first, every ``every``-th, the last)."""
    rng = random.Random(seed)
    s = GAME.new_game(n, seed=seed, variant=variant)
    out = [s]
    i = 0
    while not GAME.is_terminal(s):
        legal = GAME.legal_actions(s, GAME.to_act(s)[0])
        s = GAME.apply(s, legal[rng.randrange(len(legal))])
        i += 1
        if i % every == 0:
            out.append(s)
    out.append(s)
    return out


def test_registry_finds_take6() -> None:
    """T6-VAR-1: get_game('take6') is GAME, with its name, title and variants."""
    game = get_game("take6")
    assert game is GAME and (game.name, game.title) == ("take6", "6 nimmt!")


def test_explicit_deal_replaces_the_seeded_shuffle_for_its_rounds() -> None:
    """T6-SETUP-5 and T6-SETUP-4: an explicit deal gives round 1; later rounds use the seeded deal of
    (seed, round), the same as a seeded game's round 2."""
    s = GAME.new_game(2, seed=3, setup=(Deal(hands=HANDS, rows=ROWS),))
    assert s.hands == HANDS and s.rows == ((50,), (60,), (70,), (80,))
    assert s.stock == tuple(c for c in range(1, 105) if c not in set(range(1, 21)) | set(ROWS))
    assert s.deals == ()


@pytest.mark.parametrize(
    ("deal", "needle"),
    [
        (Deal(hands=HANDS[:1], rows=ROWS), "1 hands for 2 players"),
        (Deal(hands=(HANDS[0], HANDS[1][:9]), rows=ROWS), "has 9 cards"),
        (Deal(hands=HANDS, rows=ROWS[:3]), "3 row cards"),
        (Deal(hands=(HANDS[0], (*HANDS[1][:9], 1)), rows=ROWS), "dealt twice"),
        (Deal(hands=HANDS, rows=(50, 60, 70, 105)), "not in the deck"),
        (Deal(hands=HANDS, rows=(50, 60, 70, 10)), "dealt twice"),
    ],
)
def test_explicit_deal_is_validated(deal: Deal, needle: str) -> None:
    """T6-SETUP-5: wrong counts, a card twice, or a card outside the deck: IllegalSetup naming the clause."""
    with pytest.raises(IllegalSetup, match=needle) as info:
        GAME.new_game(2, setup=deal)
    assert info.value.clause == "T6-SETUP-5"


def test_bad_setup_and_seed_are_refused() -> None:
    """T6-SETUP-5 and T6-SETUP-4: a set-up of the wrong type, or a negative seed, is refused."""
    with pytest.raises(IllegalSetup) as info:
        GAME.new_game(2, setup=DraftStart(0))
    assert info.value.clause == "T6-SETUP-5"
    with pytest.raises(IllegalSetup):
        GAME.new_game(2, setup=42)
    with pytest.raises(IllegalSetup) as seed_error:
        GAME.new_game(2, seed=-1)
    assert seed_error.value.clause == "T6-SETUP-4"


def test_second_round_deal_from_the_setup_sequence() -> None:
    """T6-SETUP-5 with T6-ROUND-2: the second deal of the sequence is round 2's deal."""
    second = Deal(hands=(tuple(range(21, 31)), tuple(range(31, 41))), rows=(1, 2, 3, 4))
    s = GAME.new_game(2, setup=(Deal(hands=HANDS, rows=ROWS), second))
    while s.round == 1:
        s = GAME.apply(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    assert s.hands == second.hands and s.rows == ((1,), (2,), (3,), (4,))


@pytest.mark.parametrize("variant", ["standard", "tactics", "logic", "professional", "kids", "countdown"])
def test_json_round_trips_exactly(variant: str) -> None:
    """T6-VAR-1: every state of random games round-trips through canonical JSON to an equal state, and the
    state rebuilds from its public fields to an equal state."""
    for s in states(variant, 3, seed=7):
        data = json.loads(json.dumps(GAME.state_to_json(s)))
        assert GAME.state_from_json(data) == s
        assert State(*s.__getnewargs__()) == s


def test_state_repr_with_explicit_deals_round_trips() -> None:
    """T6-SETUP-5: pending explicit deals are part of the state, its JSON and its repr."""
    s = GAME.new_game(2, setup=(Deal(hands=HANDS, rows=ROWS), Deal(hands=HANDS, rows=ROWS)))
    assert s.deals == (Deal(hands=HANDS, rows=ROWS),)
    assert GAME.state_from_json(GAME.state_to_json(s)) == s
    logic = GAME.new_game(2, variant="logic", setup=(DraftStart(1), DraftStart(0)))
    assert GAME.state_from_json(GAME.state_to_json(logic)) == logic


def base_json() -> dict[str, Any]:
    return GAME.state_to_json(GAME.new_game(2, seed=1))


def bad(**changes: Any) -> dict[str, Any]:
    data = base_json()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "state"),
        (bad(game="chess"), "game"),
        (bad(variant="expert"), "variant"),
        (bad(players=11), "players"),
        (bad(players="2"), "players"),
        (bad(seed=-3), "seed"),
        (bad(round=0), "round"),
        (bad(phase="bidding"), "phase"),
        (bad(rows=[[50], [60], [70]]), "rows"),
        (bad(penalties=[0]), "penalties"),
        (bad(options={"logic_start": "rotate"}), "options"),
        (bad(selected=[105, None]), "selected[0]"),
        (bad(hands=[[1, 1], [2]]), "hands"),
        (bad(colour="red"), "colour"),
        (bad(deals=[{"type": "shuffle"}]), "deals[0].type"),
    ],
)
def test_invalid_state_json_names_the_field(data: Any, field: str) -> None:
    """Invalid JSON input raises InputError naming the field (T6-DECK-1: every card in exactly one place)."""
    if data == []:
        with pytest.raises(InputError):
            GAME.state_from_json(data)
        return
    with pytest.raises(InputError) as info:
        GAME.state_from_json(data)
    assert info.value.field.startswith(field), (info.value.field, field)


def test_state_json_checks_card_conservation_and_rows() -> None:
    """T6-DECK-1 and T6-PLACE-2: a card missing or duplicated, a descending or over-full row is refused."""
    data = base_json()
    data["stock"] = data["stock"][1:]
    with pytest.raises(InputError, match="nowhere"):
        GAME.state_from_json(data)
    data = base_json()
    data["rows"][0] = [data["rows"][0][0], 1] if data["rows"][0][0] > 1 else [1, 0]
    with pytest.raises(InputError):
        GAME.state_from_json(data)
    data = base_json()
    data["piles"][0] = [data["stock"][0]]
    data["stock"] = data["stock"][1:]
    with pytest.raises(InputError, match="penalties"):
        GAME.state_from_json(data)


@pytest.mark.parametrize(
    "action",
    [Select(0, 33), TakeRow(3, 2), Draft(1, 7), Flip(9)],
)
def test_action_json_and_repr_round_trip(action: Any) -> None:
    """T6-SELECT-1: every action has a canonical JSON form naming its player and an evaluable repr."""
    data = GAME.action_to_json(action)
    assert data["player"] == action.player
    assert GAME.action_from_json(json.loads(json.dumps(data))) == action
    assert eval(repr(action), {"Select": Select, "TakeRow": TakeRow, "Draft": Draft, "Flip": Flip}) == action


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ("select 3", "action"),
        ({"type": "pass", "player": 0}, "type"),
        ({"type": "select", "player": 0}, "card"),
        ({"type": "select", "player": 0, "card": 105}, "card"),
        ({"type": "select", "player": True, "card": 5}, "player"),
        ({"type": "take_row", "player": 0, "row": "1"}, "row"),
        ({"type": "flip", "player": 0, "card": 3}, "card"),
    ],
)
def test_invalid_action_json_names_the_field(data: Any, field: str) -> None:
    """T6-CHOOSE-2 and T6-SELECT-1: malformed actions raise InputError naming the field."""
    with pytest.raises(InputError) as info:
        GAME.action_from_json(data)
    assert info.value.field == field


def test_observation_hides_other_hands_and_selections() -> None:
    """T6-SELECT-1 and T6-SELECT-2: a player sees their own hand, never another's, nor unrevealed
    selections; once revealed, the cards awaiting placement are public."""
    s = GAME.new_game(3, seed=2)
    s = GAME.apply(s, Select(0, s.hands[0][0]))
    for p in range(3):
        obs = GAME.observation(s, p)
        text = json.dumps(obs)
        assert obs["hand"] == list(s.hands[p])
        for q in range(3):
            if q != p:
                assert json.dumps(list(s.hands[q])) not in text
        assert obs["my_selection"] == (s.selected[0] if p == 0 else None)
    with pytest.raises(InputError):
        GAME.observation(s, 3)


def test_narration_and_description() -> None:
    """T6-PLACE-3 and T6-ROUND-2: the log shows the reveal, each placement with its clause, row choices
    with bullheads, round scores and the final standings; describe_state shows rows and totals."""
    lines: list[str] = []
    rng = random.Random(4)
    s = GAME.new_game(3, seed=4)
    while not GAME.is_terminal(s):
        legal = GAME.legal_actions(s, GAME.to_act(s)[0])
        a = legal[rng.randrange(len(legal))]
        after = GAME.apply(s, a)
        lines.extend(GAME.narrate(s, a, after))
        s = after
    text = "\n".join(lines)
    for needle in ("All revealed", "goes after", "takes row", "Round 1 ends", "Game over", "Winner", "[T6-"):
        assert needle in text
    desc = GAME.describe_state(GAME.new_game(2, seed=1))
    assert desc[0].startswith("Round 1") and sum(1 for line in desc if "Row" in line) == 4


def test_same_seed_and_actions_same_states() -> None:
    """T6-SETUP-4: a game is reproducible from (variant, players, seed) and the actions."""
    for variant in ("standard", "logic", "kids"):
        a = states(variant, 4, seed=9, every=1)
        b = states(variant, 4, seed=9, every=1)
        assert a == b
