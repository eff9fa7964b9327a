"""Saint Petersburg edge cases at the boundaries of the rules: the Observatory's stack of exactly two cards,
the Pub's capacity without a Pub, and the narration of taking a card into hand."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalAction, InputError
from engine.petersburg import GAME, Buy, Discard, Observe, Pass, Play, PubBuy, Reveal, State, Take
from engine.petersburg.legal import pub_capacity
from engine.petersburg.testing import arrange


def at(**kw: Any) -> State:
    """A 2-player position with seat 0 to act and empty rows unless given."""
    kw.setdefault("turn", 0)
    kw.setdefault("upper", [])
    kw.setdefault("lower", [])
    return arrange(GAME.new_game(2, seed=1), **kw)


def test_observatory_may_draw_from_a_stack_of_two() -> None:
    """SP-OBS-1 / SP-OBS-3: only a stack's last card is out of the Observatory's reach, so a stack of exactly
    two cards may be drawn from (and one of one card may not)."""
    s = at(
        phase="building",
        areas={0: ["Observatory"]},
        stacks={"trading": ["Czar", "Bank"], "aristocrat": ["Author"]},
    )
    legal = GAME.legal_actions(s, 0)
    assert Observe(0, "trading") in legal
    assert Observe(0, "aristocrat") not in legal
    after = GAME.apply(s, Observe(0, "trading"))
    assert len(after.stacks[3]) == 1


def test_pub_capacity_is_zero_without_a_pub() -> None:
    """SP-PUB-1: VP can be bought only at one's own Pubs: without a Pub the capacity is 0 whatever the money;
    with one it is min(5, money // 2)."""
    s = at(areas={0: []}, money={0: 50})
    assert pub_capacity(s.rules, s.areas[0], 50) == 0
    with_pub = at(areas={0: ["Pub"]})
    assert pub_capacity(with_pub.rules, with_pub.areas[0], 7) == 3
    assert pub_capacity(with_pub.rules, with_pub.areas[0], 50) == 5


def test_taking_a_card_is_narrated_with_where_it_came_from() -> None:
    """SP-HAND-1: the log says which row a card was taken from, or that it was the Observatory's card."""
    s = at(upper=["Lumberjack"], phase="worker")
    take_row = Take(0, "Lumberjack", "upper")
    after = GAME.apply(s, take_row)
    (line,) = [x for x in GAME.narrate(s, take_row, after) if "takes" in x]
    assert "Lumberjack from the upper row into hand" in line
    assert after.hands[0]
    drawn = GAME.apply(
        at(phase="building", areas={0: ["Observatory"]}, stacks={"trading": ["Czar", "Bank", "Wharf"]}),
        Observe(0, "trading"),
    )
    card = drawn.rules.names[drawn.drawn]
    take = Take(0, card, "drawn")
    lines = [x for x in GAME.narrate(drawn, take, GAME.apply(drawn, take)) if "takes" in x]
    assert lines and f"takes {card} from the Observatory's draw into hand" in lines[0]


def test_a_full_board_draws_nothing_and_does_not_end_the_game() -> None:
    """SP-REFILL-1 / SP-END-1: a refill draws only into empty places, and the game ends only when a refill
    places a stack's last card — with both rows full, an empty stack ends nothing."""
    row = ["Lumberjack", "Gold Miner", "Shepherd", "Fur Trapper", "Ship Builder", "Lumberjack", "Shepherd"]
    s = at(phase="worker", upper=[*row, "Gold Miner"], stacks={"building": []}, money={0: 0, 1: 0})
    assert len(s.upper) + len(s.lower) == 8
    while s.phase == "worker":
        s = GAME.apply(s, Pass(GAME.to_act(s)[0]))
    assert not s.last_round and len(s.upper) == 8


def test_worker_stack_emptied_at_the_round_end_is_narrated_as_the_last_round() -> None:
    """SP-END-3: when the end-of-round refill places the worker stack's last card, the next round is the
    last one (not SP-END-1's end after this round) — and the log says so."""
    s = at(
        phase="trading", lower=["Market"], stacks={"worker": ["Lumberjack", "Shepherd"]}, money={0: 0, 1: 0}
    )
    lines: list[str] = []
    while s.phase == "trading":
        action = Pass(GAME.to_act(s)[0])
        after = GAME.apply(s, action)
        lines += GAME.narrate(s, action, after)
        s = after
    refill = [i for i, line in enumerate(lines) if "2 from the worker stack: Lumberjack, Shepherd" in line]
    assert refill, lines
    last = "the worker stack is empty: next round is the last [SP-END-3]"
    assert last in [line.strip() for line in lines[refill[-1] + 1 : refill[-1] + 3]], lines
    assert s.last_round


def test_actions_refuse_a_negative_seat_or_vp() -> None:
    """SP-TURN-1: an action names a seat (an integer >= 0); SP-PUB-1: VP bought at the Pub are >= 0 — the
    action objects themselves refuse anything else, with an InputError naming the action's field."""
    for bad in (-1, True, "0"):
        with pytest.raises(InputError, match="must be an int >= 0") as exc:
            Pass(bad)  # type: ignore[arg-type]
        assert exc.value.field == "Pass.player"
        with pytest.raises(InputError, match="must be an int >= 0") as exc:
            PubBuy(0, bad)  # type: ignore[arg-type]
        assert exc.value.field == "PubBuy.vp"
    assert PubBuy(0, 0).vp == 0


BAD_FIELDS: list[tuple[Any, str]] = [
    (lambda: Buy(-1, "Market"), "Buy.player"),
    (lambda: Buy(0, 7), "Buy.card"),  # type: ignore[arg-type]
    (lambda: Buy(0, "Market", None), "Buy.source"),  # type: ignore[arg-type]
    (lambda: Buy(0, "Fur Shop", "upper", 3), "Buy.displace"),  # type: ignore[arg-type]
    (lambda: Take(0, None), "Take.card"),  # type: ignore[arg-type]
    (lambda: Take(0, "Pub", 1), "Take.source"),  # type: ignore[arg-type]
    (lambda: Play(0, ["Bank"]), "Play.card"),  # type: ignore[arg-type]
    (lambda: Play(0, "Bank", 0), "Play.displace"),  # type: ignore[arg-type]
    (lambda: Observe(0, 3), "Observe.stack"),  # type: ignore[arg-type]
    (lambda: Observe(None, "trading"), "Observe.player"),  # type: ignore[arg-type]
    (lambda: Discard(0, b"Czar"), "Discard.card"),  # type: ignore[arg-type]
    (lambda: Reveal(None), "Reveal.card"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("make", "field"), BAD_FIELDS, ids=[f for _m, f in BAD_FIELDS])
def test_a_malformed_action_is_an_input_error_naming_its_field(make: Any, field: str) -> None:
    """SP-TURN-1: an action is a seat and card names (strings; a source and a stack by name): a field of
    another type is refused when the action is made, with an InputError naming the action and the field (a
    well-formed action naming no such card or row is a rule matter: IllegalAction when applied)."""
    with pytest.raises(InputError) as exc:
        make()
    assert exc.value.field == field
    assert str(exc.value).startswith(f"{field}: must be ")


def test_a_well_formed_action_naming_nothing_real_breaks_a_rule() -> None:
    """SP-BUY-3 / SP-OBS-1: a string naming no card, row or stack makes an action; applying it is refused
    with the rule, not an input error."""
    s = GAME.new_game(2, seed=1)
    for action, clause in ((Buy(0, "Unicorn"), "SP-BUY-3"), (Buy(0, "Market", "attic"), "SP-BUY-3")):
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(s, action)
        assert exc.value.clause == clause


def test_the_state_shows_copies_of_a_card_counted() -> None:
    """SP-SCORE-2 reads the area by card: the state's description counts copies (``Market x2``) and names a
    single card alone."""
    s = arrange(GAME.new_game(2, seed=1), areas={0: ["Market", "Market", "Pub"]})
    (line,) = [x for x in GAME.describe_state(s) if x.startswith("P0:")]
    assert line.endswith("area: Market x2, Pub")


def test_a_trading_card_bought_without_a_displaced_card_says_why() -> None:
    """SP-TRADE-1: a trading card must displace a card of the buyer's area — the refusal tells a buyer with
    nothing to displace apart from one who only forgot to name the card."""
    for area, reason in (([], "has no card to displace"), (["Fur Trapper"], "name the card it displaces")):
        s = at(areas={0: area}, upper=["Fur Shop"], money={0: 30})
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(s, Buy(0, "Fur Shop", "upper"))
        assert exc.value.clause == "SP-TRADE-1" and reason in exc.value.message


def test_a_drawn_first_card_of_the_catalog_still_blocks_other_actions() -> None:
    """SP-OBS-4: after the Observatory's draw the player must buy, take or discard the drawn card — also when
    it is the catalog's first card (the Lumberjack, kind 0)."""
    s = at(
        phase="building",
        areas={0: ["Observatory"]},
        upper=["Market"],
        money={0: 30},
        stacks={"worker": ["Lumberjack", "Shepherd"]},
    )
    drawn = GAME.apply(s, Observe(0, "worker"))
    assert drawn.rules.names[drawn.drawn] == "Lumberjack"
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(drawn, Buy(0, "Market", "upper"))
    assert exc.value.clause == "SP-OBS-4"
