"""6 nimmt! answers agree with the engine: bullheads and their clause (T6-BULL-1..6), the row a card goes
to (T6-PLACE-1..3, T6-PRO-1..5) and a whole turn (T6-TURN-1, T6-TURN-2) come from the engine's own tables,
placement function and transition — checked here over many random positions."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.game import get_game
from engine.query.questions import ask
from engine.query.take6_common import bullhead_rule
from engine.take6 import Deal, Select, TakeRow, bullheads, place


def test_bullhead_rule_agrees_with_the_engine_for_every_card() -> None:
    """For each of the 104 cards the answer equals ``bullheads(card)`` and names the table row's clause
    (55 -> T6-BULL-1, other multiples of 11 -> T6-BULL-2, of 10 -> T6-BULL-3, of 5 -> T6-BULL-4, else
    T6-BULL-5)."""
    expected = {"T6-BULL-1": 7, "T6-BULL-2": 5, "T6-BULL-3": 3, "T6-BULL-4": 2, "T6-BULL-5": 1}
    for card in range(1, 105):
        value, clause = bullhead_rule(card)
        assert value == bullheads(card) == expected[clause]
        assert ask("bullheads", {"cards": [card]}).value == value


@st.composite
def table(draw: st.DrawFn) -> tuple[list[list[int]], int]:
    cards = draw(st.lists(st.integers(1, 104), min_size=5, max_size=21, unique=True))
    card, rest = cards[0], cards[1:]
    sizes = draw(st.lists(st.integers(1, 5), min_size=4, max_size=4))
    rows: list[list[int]] = []
    i = 0
    for size in sizes:
        chunk = sorted(rest[i : i + size])
        if not chunk:
            taken = {card, *rest, *(c for r in rows for c in r)}
            chunk = [c for c in range(1, 105) if c not in taken][:1]
        rows.append(chunk)
        i += size
    return rows, card


@settings(max_examples=settings().max_examples * 4, deadline=None)
@given(
    position=table(),
    variant=st.sampled_from(["standard", "professional"]),
    tie=st.sampled_from(["end", "start"]),
)
def test_row_answer_is_the_engine_placement(
    position: tuple[list[list[int]], int], variant: str, tie: str
) -> None:
    """On random rows, ``ask row`` gives exactly the row, side, 6th-card flag, candidates and clause ids of
    the engine's placement function (T6-PLACE-1..3; professional T6-PRO-1..5 with either tie option)."""
    rows, card = position
    options = {"professional_tie": tie} if variant == "professional" else {}
    option_args = [f"professional_tie={tie}"] if variant == "professional" else []
    answer = ask("row", {"card": card, "rows": rows, "variant": variant, "option": option_args})
    engine = place(tuple(tuple(r) for r in rows), card, variant, options)
    assert answer.value["row"] == engine.row
    assert answer.value["side"] == engine.side
    assert answer.value["sixth"] == engine.sixth
    assert answer.value["clauses"] == list(engine.clauses)
    assert [(c["row"], c["difference"]) for c in answer.value["candidates"]] == [
        (c.row, c.difference) for c in engine.candidates
    ]
    assert set(engine.clauses) <= set(answer.clauses)


def _engine_turn(rows: list[list[int]], cards: list[int], choices: dict[int, int],
                 waited: set[int] | None = None) -> Any:
    """The same turn played by the engine from an explicit deal (an explicit deal starts rows with one card
    each, so the compared turns use one-card rows); ``waited`` collects the cards that waited for a row
    choice."""
    game = get_game("take6")
    n = len(cards)
    used = {c for r in rows for c in r} | set(cards)
    spare = [c for c in range(104, 0, -1) if c not in used]
    hands = [[cards[p], *spare[p * 9 : (p + 1) * 9]] for p in range(n)]
    state = game.new_game(n, seed=0, setup=(Deal(hands=hands, rows=[r[0] for r in rows]),))
    for p, c in enumerate(cards):
        state = game.apply(state, Select(p, c))
    while state.phase == "choose":
        card, p = state.pending[0]
        if waited is not None:
            waited.add(card)
        state = game.apply(state, TakeRow(p, choices[card]))
    return state


@settings(max_examples=settings().max_examples * 3 // 2, deadline=None)
@given(data=st.data())
def test_turn_answer_matches_a_dealt_game(data: st.DataObject) -> None:
    """A turn on one-card rows resolved by ``ask turn`` ends with the rows and penalties the engine reaches
    from an explicit deal of the same cards (ascending order T6-TURN-1, updated rows T6-TURN-2, low cards
    waiting for their player's choice T6-PLACE-3); a row choice for a card that never waits is refused as
    the engine refuses it (T6-CHOOSE-1)."""
    starters = data.draw(st.lists(st.integers(1, 104), min_size=4, max_size=4, unique=True))
    n = data.draw(st.integers(2, 6))
    free = st.integers(1, 104).filter(lambda c: c not in starters)
    cards = data.draw(st.lists(free, min_size=n, max_size=n, unique=True))
    rows = [[c] for c in sorted(starters)]
    choices = {c: data.draw(st.integers(0, 3)) for c in cards}
    waited: set[int] = set()
    state = _engine_turn(rows, cards, choices, waited)
    if waited != set(cards):
        with pytest.raises(InputError) as err:
            ask("turn", {"rows": rows, "cards": cards, "choose": [f"{c}={r}" for c, r in choices.items()]})
        assert err.value.field == "choose" and "T6-CHOOSE-1" in err.value.message
    asked = {c: r for c, r in choices.items() if c in waited}
    answer = ask("turn", {"rows": rows, "cards": cards, "choose": [f"{c}={r}" for c, r in asked.items()]})
    assert answer.value["waiting"] is None
    assert answer.value["rows"] == [list(r) for r in state.rows]
    assert answer.value["penalties"] == list(state.penalties)
    assert answer.value["order"] == [[c, p] for c, p in sorted((c, p) for p, c in enumerate(cards))]


@pytest.mark.parametrize("choose", [["60=2"], ["3=2", "60=1"], ["3=0", "45=1"]])
def test_turn_refuses_a_choice_for_a_card_that_fits_a_row(choose: list[str]) -> None:
    """T6-CHOOSE-1: a row choice for a card that goes to a row (60 after 50; also after the low card's
    player takes a row, since 3 then ends a row) is refused naming that clause, never silently ignored."""
    cards = [3, 60] if "60" in choose[-1] else [3, 7, 45]
    with pytest.raises(InputError) as err:
        ask("turn", {"rows": [[20], [30], [40], [50]], "cards": cards, "choose": choose})
    assert err.value.field == "choose" and err.value.message.split(": ")[1] == "T6-CHOOSE-1"


def test_turn_waits_for_the_low_card_player() -> None:
    """Without a choice, the turn stops at the first low card and says whose choice it is (T6-PLACE-3): the
    engine never chooses."""
    answer = ask("turn", {"rows": [[20], [30], [40], [50]], "cards": [45, 3, 7]})
    assert answer.value["waiting"] == {"player": 1, "card": 3}
    assert "T6-PLACE-3" in answer.clauses and "T6-TURN-1" in answer.clauses


def test_setup_answers_come_from_rules_for() -> None:
    """Set-up answers equal the engine's resolved rules for every variant and player count (T6-SETUP-1..3,
    T6-TACT-1, T6-KIDS-1)."""
    from engine.take6 import VARIANTS, rules_for

    for variant in VARIANTS:
        for players in range(2, 11):
            r = rules_for(variant, players)
            value = ask("setup", {"game": "take6", "players": players, "variant": variant}).value
            assert value["hand_size"] == r.hand_size and value["rows"] == r.rows
            assert value["deck_size"] == len(r.deck) and value["left_over"] == len(r.deck) - r.cards_dealt


def test_turn_accepts_a_single_card() -> None:
    """T6-PLACE-1: ``ask turn`` with one card answers where it goes (the placement function's answer)."""
    from engine.query.cli import answer_for_command

    a = answer_for_command("arbiter ask turn --rows 20 30 40 50 --cards 45")
    assert a.kind == "turn" and a.value["row"] == 2 and "T6-PLACE-1" in a.clauses


def test_countdown_end_speaks_of_points_left() -> None:
    """T6-COUNT-1: the countdown's end summary says the most points left wins, as players count."""
    from engine.query.cli import answer_for_command

    a = answer_for_command("arbiter ask end take6 --variant countdown")
    assert "most points left wins" in a.summary and "lowest total" not in a.summary
    assert "T6-COUNT-1" in a.clauses
