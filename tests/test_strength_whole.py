"""Rules and guards the whole-set mutation run found unpinned (``python -m engine.mutation --budget 5
--journal ...``, docs/robustness.md): each test here kills a mutant that survived the tests selected for it,
and says which rule or guard it pins."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalSetup, InputError, PositionError, RuleViolation, SpecError
from engine.game import facets, get_game
from engine.petersburg import GAME as SP
from engine.take6 import GAME as T6
from engine.take6 import Deal, Draft, DraftStart, Select, TakeRow
from engine.take6 import position as take6_position
from engine.take6.codec import action_from_json, state_from_json, state_to_json
from engine.take6.deal import awaiting_deal
from engine.take6.drawing import BULL_FILL
from engine.take6.layout import MAXP
from engine.take6.narration import describe_state, placement_note, plural, round_note
from engine.take6.placement import locate
from engine.take6.rules import bullheads, rules_for


@pytest.mark.parametrize("patch", [{"start": 3}, {"start": 4}, {"pending": [[5, 3]]}, {"pending": [[5, 4]]}])
def test_a_take6_json_state_names_a_seat_beyond_the_table(patch: dict[str, Any]) -> None:
    """T6-SETUP-1: a 3-player JSON state whose start player or pending card's owner is seat 3 or 4 is
    refused by the codec naming that field (seats are 0 to 2), before any builder sees it."""
    data = {**state_to_json(T6.new_game(3, seed=1)), **patch}
    field = "start" if "start" in patch else "pending[0][1]"
    with pytest.raises(InputError) as err:
        state_from_json(data)
    assert err.value.field == field and "from 0 to 2" in str(err.value)


@pytest.mark.parametrize("kind", ["select", "take_row", "draft", "flip"])
@pytest.mark.parametrize("seat", [MAXP, MAXP + 1])
def test_a_take6_json_action_names_a_seat_no_table_has(kind: str, seat: int) -> None:
    """T6-SETUP-1: an action's ``player`` beyond the largest table (seats 0 to MAXP - 1) is refused by the
    codec naming ``player``."""
    data: dict[str, Any] = {"type": kind, "player": seat}
    data.update({"select": {"card": 5}, "draft": {"card": 5}, "take_row": {"row": 0}}.get(kind, {}))
    with pytest.raises(InputError) as err:
        action_from_json(data)
    assert err.value.field == "player" and f"from 0 to {MAXP - 1}" in str(err.value)


@pytest.mark.parametrize("name", ["take6", "petersburg"])
def test_the_benchmark_player_counts_are_player_counts_of_the_game(name: str) -> None:
    """The registry's ``default_players`` (what ``arbiter bench`` measures) are distinct, ascending and
    each a number of players the game allows."""
    counts = facets(name).default_players
    game = get_game(name)
    assert list(counts) == sorted(set(counts))
    for n in counts:
        game.new_game(n, seed=1)  # raises for a count the game does not allow
    with pytest.raises(Exception, match="player"):
        game.new_game(max(counts) + 1, seed=1)


def test_an_unseeded_rotating_logic_game_waits_for_its_first_draft_start() -> None:
    """T6-LOGIC-3 rotates the draft's first seat only from round 2 on: an unseeded logic game with
    ``logic_start=rotate`` still waits in round 1 for its draft start, a chance step."""
    game = T6
    start = game.new_game(2, variant="logic", options={"logic_start": "rotate"}, seed=None)
    assert (start.phase, start.round, game.to_act(start)) == ("deal", 1, ())
    drafting = game.apply(start, DraftStart(1))
    assert drafting.phase == "draft" and game.to_act(drafting) == (1,)


def test_a_given_draft_start_of_a_later_round_cites_the_draft_rule() -> None:
    """T6-LOGIC-1: a later round's draft that starts from a given seat (an explicit set-up) is derived from
    the draft rule, not from T6-LOGIC-3 (the rule for a start chosen by the engine)."""
    game = T6
    state = game.new_game(2, variant="logic", setup=[DraftStart(0), DraftStart(1)])
    while state.round == 1:
        before, action = state, game.legal_actions(state)[0]
        state = game.apply(state, action)
    steps = [s for st in game.derive(before, action) for s in st.walk() if s.says == "draft-starts"]
    assert [s.clause for s in steps] == ["T6-LOGIC-1"] and state.start == 1


@pytest.mark.parametrize("variant", ["standard", "logic"])
def test_a_round_awaiting_its_deal_is_the_position_of_that_round(variant: str) -> None:
    """T6-SETUP-4, T6-LOGIC-1: a round of an unseeded game waiting for its deal (phase ``deal``) is the same
    state as the position of that round built from its fields, in both kinds of deal (the logic stock is
    the whole deck, the standard one is dealt)."""
    rules = rules_for(variant, 2)
    waiting = awaiting_deal(rules, 2, (5, 0), 0)
    built = take6_position(players=2, variant=variant, hands=[[], []], phase="deal", round=2, totals=[5, 0])
    assert waiting == built
    assert T6.state_from_json(T6.state_to_json(waiting)) == waiting


def test_card_faces_are_coloured_for_every_bullhead_count_of_the_deck() -> None:
    """T6-BULL-1 drawn: the face colours are keyed by exactly the bullhead counts the deck holds (1, 2, 3,
    5, 7), so every card has the colour of its count."""
    assert set(BULL_FILL) == {bullheads(c) for c in range(1, 105)}
    assert BULL_FILL[1] == "#ffffff" and len(set(BULL_FILL.values())) == len(BULL_FILL)


def test_a_bad_explicit_deal_names_its_round() -> None:
    """T6-SETUP-5: an explicit set-up refused names the round it was for, counting from 1 (the first deal
    given is round 1's), and the clause."""
    game = T6
    good = Deal(hands=(tuple(range(1, 11)), tuple(range(11, 21))), rows=(30, 40, 50, 60))
    short = Deal(hands=(tuple(range(1, 10)), tuple(range(11, 21))), rows=(30, 40, 50, 60))
    with pytest.raises(IllegalSetup) as err:
        game.new_game(2, setup=[short])
    assert err.value.clause == "T6-SETUP-5" and "set-up of round 1:" in str(err.value)
    with pytest.raises(IllegalSetup, match="set-up of round 2: player 0's hand has 9 cards"):
        game.new_game(2, setup=[good, short])


@pytest.mark.parametrize("variant", ["standard", "logic"])
def test_an_unseeded_game_starts_as_the_position_of_round_one_awaiting_its_deal(variant: str) -> None:
    """T6-SETUP-4: a game without a seed starts in phase ``deal`` of round 1 with seat 0 as its start seat:
    the same state as that position built from its fields (and its notation read back)."""
    game = T6
    start = game.new_game(2, variant=variant, seed=None)
    built = take6_position(players=2, variant=variant, hands=[[], []], phase="deal", round=1)
    assert start == built and start.start == 0
    assert game.from_notation(game.to_notation(start)) == start


@pytest.mark.parametrize(
    ("action", "clause"),
    [
        (Select(True, 11), "T6-ACT-1"),  # a bool is no seat, though True == 1 (and P1 holds 11)
        (Select(0, True), "T6-SELECT-1"),  # a bool is no card, though True == 1 (and P0 holds 1)
        (Select(1, 11.0), "T6-SELECT-1"),  # type: ignore[arg-type]  # a float is no card, though 11.0 == 11
    ],
)
def test_a_selection_of_the_wrong_type_is_refused_however_it_compares(action: Select, clause: str) -> None:
    """T6-ACT-1, T6-SELECT-1: the checked tier refuses a seat or card that only compares equal to a legal one
    (a bool, a float), on its fast path as on the full check, and leaves the state as it was."""
    game = T6
    hands = (tuple(range(1, 11)), tuple(range(11, 21)))
    state = game.new_game(2, setup=Deal(hands=hands, rows=(30, 40, 50, 60)))
    with pytest.raises(RuleViolation) as err:
        game.apply(state, action)
    assert err.value.clause == clause
    assert game.why(state, action).says == "refused"


def test_a_draft_of_a_float_card_is_refused() -> None:
    """T6-LOGIC-1: a drafted card must be a card of the face-up pool, not a float equal to one."""
    game = T6
    state = game.new_game(2, variant="logic", seed=3)
    seat = game.to_act(state)[0]
    card = state.stock[0]
    with pytest.raises(RuleViolation) as err:
        game.apply(state, Draft(seat, float(card)))  # type: ignore[arg-type]
    assert err.value.clause == "T6-LOGIC-1"
    game.apply(state, Draft(seat, card))


def test_the_interned_tables_hold_every_entry_a_game_reaches() -> None:
    """The hot path's interned tables (engine/take6/layout.py) cover every seat, card, row count and hand
    length a game can reach: a table one entry short would fail at the first game using that entry."""
    from engine.take6 import layout

    assert layout.MAXC == 104  # the highest card of the deck
    assert layout.MAXP == 10
    for table in (layout.ALL, layout.ZEROS, layout.EMPTY):
        assert len(table) == layout.MAXP + 1 and len(table[layout.MAXP]) == layout.MAXP
    assert len(layout.DRAFT) == layout.MAXP and all(len(row) == 105 for row in layout.DRAFT)
    assert layout.DRAFT[9][104] == Draft(9, 104) and layout.ONE[104] == (104,)
    assert len(layout.ONE) == layout.MAXC + 1  # one entry a card, and one for card 0, unused
    from engine.take6.rules import PREBUILT_ROWS

    assert len(layout.TAKES) == PREBUILT_ROWS + 1
    assert layout.TAKES[PREBUILT_ROWS][9] == layout.TAKE[9]
    variants = ("standard", "professional", "tactics", "logic", "kids", "countdown")
    largest = max(rules_for(v, n).hand_size for v in variants for n in range(2, 11) if _allowed(v, n))
    assert len(layout.DROP) == largest + 1  # hands of 0 to the largest any variant deals
    for length, droppers in enumerate(layout.DROP):
        items = tuple(range(length))
        for i, drop in enumerate(droppers):
            assert drop(items) == items[:i] + items[i + 1 :], (length, i)


def _allowed(variant: str, players: int) -> bool:
    try:
        rules_for(variant, players)
    except IllegalSetup:
        return False
    return True


# ---------------------------------------------------------------------------------------- Saint Petersburg


def _observed_lumberjack() -> Any:
    """Seat 0's Observatory has drawn a Lumberjack, the card of kind 0 (index 0 of the card table)."""
    from engine.petersburg import Observe
    from engine.petersburg.testing import arrange

    game = SP
    start = arrange(
        game.new_game(2, seed=1), turn=0, upper=[], lower=[], phase="building", areas={0: ["Observatory"]},
        stacks={"worker": ["Lumberjack", "Lumberjack", "Gold Miner"]}, money={0: 20},
    )
    return game.apply(start, Observe(0, "worker"))


def test_an_observatory_draw_of_the_card_of_kind_0_is_a_drawn_card() -> None:
    """SP-OBS-4: the card the Observatory drew is the one to buy, take or discard, whatever its index in the
    card table; a Lumberjack (kind 0, where "no card drawn" is -1) is drawn as any card is: offered to seat
    0 alone, kept by JSON and notation, shown to its owner and hidden from the other seat."""
    game = SP
    state = _observed_lumberjack()
    assert state.drawn == 0 and state.phase == "observatory"
    acts = game.legal_actions(state, 0)
    assert sorted(type(a).__name__ for a in acts) == ["Buy", "Discard", "Take"]
    assert all(a.card == "Lumberjack" for a in acts)
    assert "observatory:Lumberjack" in game.to_notation(state)
    assert game.from_notation(game.to_notation(state)) == state
    assert game.state_from_json(game.state_to_json(state)) == state
    assert game.observation(state, 0)["drawn"] == "Lumberjack"
    assert game.observation(state, 1)["drawn"] == "hidden"
    for action in acts:
        after = game.apply(state, action)
        assert after.drawn == -1 and game.why(state, action).says == "legal"


# ---------------------------------------------------------------------------------------- 6 nimmt! placement


def test_a_professional_tie_goes_to_the_end_unless_the_option_says_start() -> None:
    """T6-PRO-3: a card as far from a row's end as from another row's start ties; the tie goes to the end
    (by default) or to the start (``tie_to_start``), and the tie's clause is cited only for a tie."""
    rows = ((10,), (30,))
    tie = locate(rows, 20, "ends_and_starts", 5)
    assert (tie.row, tie.side, tie.clauses) == (0, "end", ("T6-PRO-1", "T6-PRO-2", "T6-PRO-3"))
    to_start = locate(rows, 20, "ends_and_starts", 5, True)
    assert (to_start.row, to_start.side) == (1, "start")
    plain = locate(((10,), (40,)), 20, "ends_and_starts", 5)
    assert (plain.row, plain.side, plain.clauses) == (0, "end", ("T6-PRO-1", "T6-PRO-2"))
    nowhere = locate(((30,), (40,)), 20, "ends", 5)
    assert (nowhere.row, nowhere.sixth, nowhere.clauses) == (None, False, ("T6-PLACE-3",))
    assert locate(((30,), (40,)), 20, "ends_and_starts", 5).clauses == ("T6-PRO-1", "T6-PRO-2")


def test_the_placement_note_says_before_a_start_and_lists_candidates_only_when_several() -> None:
    """T6-PLACE-1, T6-PRO-2: the narration says a card goes *before* a row's first card in the professional
    game, *after* a row's end otherwise, and lists the candidates only when there was a choice."""
    rows = ((5, 10), (40, 44))
    assert placement_note(1, locate(rows, 38, "ends_and_starts", 5), rows) == (
        "P1's 38 goes before 40 in row 1, the closest of 10 (+28), 40 (+2)"
    )
    single = ((10,), (50,))
    assert placement_note(1, locate(single, 12, "ends", 5), single) == "P1's 12 goes after 10 in row 0"
    assert plural(1, "bullhead") == "1 bullhead" and plural(2, "bullhead") == "2 bullheads"


@pytest.mark.parametrize(
    ("variant", "sign", "unit"), [("standard", "+", "bullheads"), ("countdown", "-", "points left")]
)
def test_a_round_note_counts_up_or_down(variant: str, sign: str, unit: str) -> None:
    """T6-ROUND-2, T6-COUNT-1: a round's scores are added as bullheads, or in the countdown variant taken
    from the points left."""
    note = round_note(rules_for(variant, 2), 1, ((55,), ()), (7, 0))
    assert note.startswith(f"Round 1 ends ({unit}): P0 {sign}7 = ")


def test_a_round_awaiting_its_deal_is_described_as_a_chance_step() -> None:
    """T6-SETUP-4: the description of a round waiting for its deal says so in its first line, in place of
    who is to act."""
    lines = describe_state(T6.new_game(2, seed=None))
    assert lines[0] == "Round 1 waits for its deal (a chance step) [T6-SETUP-4]."
    assert not any("waiting for nobody" in line for line in lines)


# ---------------------------------------------------------------------------------------- 6 nimmt! notation

_LINE = ["standard", "1", "select", "2/16/43/58", "10.22/5.13/11.30", "-", "-", "0/0/0", "seed=1"]


@pytest.mark.parametrize(
    ("index", "value", "field"),
    [
        (1, "x", "round"),
        (3, "2/x/43/58", "rows"),
        (4, "10.x/5.13/11.30", "hands"),
        (5, "x@1", "pending"),
        (5, "5@x", "pending"),
        (6, "x/-/-", "piles"),
        (7, "0/x/0", "totals"),
    ],
)
def test_a_bad_notation_token_is_named_by_its_number(index: int, value: str, field: str) -> None:
    """docs/positions.md: a malformed token of a 6 nimmt! position line is refused naming its field and its
    number, counted from 1 as the user reads the line."""
    tokens = list(_LINE)
    tokens[index] = value
    with pytest.raises(InputError) as err:
        T6.from_notation(" ".join(tokens))
    assert str(err.value).startswith(f"{field} (token {index + 1} '{value}'): expected a number")


def test_a_selection_in_the_notation_is_the_seats_hidden_card() -> None:
    """T6-SELECT-1: ``*CARD`` after a hand is that seat's selected card; a seat without one has selected
    nothing (0), and the line written back is the line read."""
    game = T6
    line = "standard 1 select 2/16/43/58 10.22*7/5.13/11.30 - - 0/0/0 seed=1"
    state = game.from_notation(line.replace("10.22*7/5.13/11.30", "10.22*7/5.13.14/11.30.31"))
    assert state.selected == (7, 0, 0)
    assert game.to_notation(state).split()[4] == "10.22*7/5.13.14/11.30.31"


def test_a_line_outside_the_selection_marks_no_hidden_card() -> None:
    """T6-SELECT-1: only a selection turn has hidden cards to write; a draft's or a finished game's line
    marks none."""
    game = T6
    drafting = game.new_game(2, variant="logic", seed=3)
    state = game.new_game(2, seed=2)
    while state.phase != "over":
        state = game.apply(state, game.legal_actions(state)[0])
    for s in (drafting, state):
        assert "*" not in game.to_notation(s).split()[4], game.to_notation(s)


@pytest.mark.parametrize(
    ("line", "start"),
    [
        ("standard 1 select 2/16/43/58 10.22*22/5.13*5/11.30 - - 0/0/0", "selected (token 5 "),
        (
            "standard 1 select 2/16/43/58 " + "/".join(f"{c}.{c + 1}" for c in range(60, 82, 2))
            + " - - " + "/".join(["0"] * 11),
            "players (token 5 ",
        ),
        (
            "professional[professional_tie=bogus] 1 select 2/16/43/58 10.22/5.13/11.30 - - 0/0/0",
            "options (token 1 ",
        ),
    ],
)
def test_a_position_error_names_the_token_that_holds_its_field(line: str, start: str) -> None:
    """docs/positions.md: a rule a position breaks is reported at the token that holds the field: the
    selections and the player count at the hands (token 5), the options at the variant (token 1)."""
    with pytest.raises(PositionError) as err:
        T6.from_notation(line)
    assert str(err.value).startswith(start), str(err.value)


def test_the_deals_of_a_line_mark_no_selection() -> None:
    """T6-SETUP-5: a later round's deal written in ``deals=`` is hands and rows only (``hands|rows``): no
    selection mark, and a ``|`` between them."""
    game = T6
    later = Deal(hands=(tuple(range(1, 11)), tuple(range(11, 21))), rows=(30, 40, 50, 60))
    state = take6_position(players=2, rows=[[70], [71], [72], [73]], hands=[list(range(21, 31)),
                                                                          list(range(31, 41))], deals=[later])
    deals = [t for t in game.to_notation(state).split() if t.startswith("deals=")]
    assert deals == ["deals=1.2.3.4.5.6.7.8.9.10/11.12.13.14.15.16.17.18.19.20|30.40.50.60"]


# ---------------------------------------------------------------------------------------- 6 nimmt! positions

_HANDS = [list(range(1, 11)), list(range(11, 21))]
_ROWS = [[30], [40], [50], [60]]


@pytest.mark.parametrize(
    ("fields", "field", "clause"),
    [
        (dict(rows=_ROWS, hands=[list(range(1, 10)), list(range(11, 20))], pending=[[99, 2]], phase="choose"),
         "pending[0][1]", "T6-ACT-1"),
        (dict(variant="logic", rows=_ROWS, hands=_HANDS, start=2), "start", "T6-LOGIC-1"),
        (dict(rows=[[30, 25], [40], [50], [60]], hands=_HANDS), "rows[0]", "T6-PLACE-1"),
        (dict(variant="professional", rows=[[30, 25], [40], [50], [60]], hands=_HANDS), "rows[0]",
         "T6-PRO-2"),
        (dict(rows=_ROWS, hands=_HANDS, selected=[21, 22]), "hands[0]", "T6-SETUP-2"),
        (dict(variant="logic", rows=[[1], [2], [3], [4]], hands=[[], []], phase="draft"), "rows",
         "T6-LOGIC-2"),
        (dict(rows=_ROWS, hands=[[], []], phase="deal"), "rows", "T6-SETUP-3"),
    ],
)
def test_a_position_breaking_a_rule_names_the_field_and_its_clause(
    fields: dict[str, Any], field: str, clause: str
) -> None:
    """The position builder refuses each broken rule naming the field and the rule: a pending card's or the
    draft start's seat beyond the table (T6-ACT-1, T6-LOGIC-1), a descending row (T6-PLACE-1; in the
    professional game T6-PRO-2), a hand of 10 with a selected card more (T6-SETUP-2), rows in a draft
    (T6-LOGIC-2) or before the deal (T6-SETUP-3)."""
    with pytest.raises(PositionError) as err:
        take6_position(players=2, **fields)
    assert (err.value.field, err.value.clause) == (field, clause), str(err.value)


def _finished(players: int, vp: dict[int, int], money: dict[int, int]) -> Any:
    from engine.petersburg.testing import arrange

    game = SP
    return arrange(game.new_game(players, seed=1), turn=0, upper=[], lower=[], phase="over", last_round=True,
                   vp=vp, money=money)


def test_the_final_standings_number_places_and_mark_winners() -> None:
    """SP-END-8, SP-END-9: the standings list the places from 1, mark only the winners, and add the shared
    win line only when more than one seat wins; the derivation has one ``place`` step a seat (numbered from
    1) and a ``tiebreak`` step only for a tie on VP."""
    from engine.petersburg import narration

    shared = narration.standings(_finished(2, {0: 30, 1: 30}, {0: 4, 1: 4}))
    assert shared[1:] == ["  1. P0: 30 VP, 4 R (winner)", "  2. P1: 30 VP, 4 R (winner)",
                          "  shared win: P0, P1 [SP-END-9]"]
    state = _finished(3, {0: 20, 1: 30, 2: 20}, {0: 4, 1: 1, 2: 9})
    assert narration.standings(state)[1:] == ["  1. P1: 30 VP, 1 R (winner)", "  2. P2: 20 VP, 9 R",
                                              "  3. P0: 20 VP, 4 R"]
    steps = list(SP.explain_result(state).walk())
    assert [(s.data["seat"], s.data["place"]) for s in steps if s.says == "place"] == [(1, 1), (2, 2), (0, 3)]
    assert [s.data for s in steps if s.says == "tiebreak"] == [{"vp": [20]}]
    alone = list(SP.explain_result(_finished(2, {0: 31, 1: 30}, {0: 4, 1: 4})).walk())
    assert not any(s.says == "tiebreak" for s in alone)
    assert SP.result(state).winners == (1,)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"players": True}, "players"),
        ({"players": 5}, "players"),
        ({"players": "2"}, "players"),
        ({"stacks": {"worker": {"top": []}}}, "stacks.worker"),
        ({"stacks": {"worker": {"top": [], "unknown": [], "bottom": []}}}, "stacks.worker"),
        ({"stacks": None}, "stacks"),
        ({"stacks": ["worker", "building", "aristocrat", "trading"]}, "stacks"),
        ({"box": "Lumberjack"}, "box"),
        ({"box": [1]}, "box"),
    ],
)
def test_a_petersburg_json_state_names_the_malformed_field(patch: dict[str, Any], field: str) -> None:
    """SP-SETUP-1, docs/positions.md: a Saint Petersburg JSON state with a bad player count (a bool, out of
    1..4, a string), a stack of unknown order without its ``unknown`` cards or with another key, stacks that
    are not the four named ones, or a box that is not a list of card names is refused naming the field."""
    game = SP
    data = game.state_to_json(game.new_game(2, seed=1))
    for key, value in patch.items():
        if key == "stacks" and isinstance(value, dict):
            data["stacks"] = {**data["stacks"], **value}
        else:
            data[key] = value
    with pytest.raises(InputError) as err:
        game.state_from_json(data)
    assert err.value.field == field, str(err.value)


def test_a_card_missing_from_the_stacks_is_in_the_box_or_refused() -> None:
    """SP-SETUP-1: a JSON state holds every copy of every card somewhere; one copy fewer in the stacks is
    refused naming ``stacks`` with the count, unless the ``box`` lists it as out of the game."""
    game = SP
    data = game.state_to_json(game.new_game(2, seed=1))
    first = data["stacks"]["worker"][0]
    data["stacks"]["worker"] = data["stacks"]["worker"][1:]
    with pytest.raises(InputError, match=f"5 x {first} in the game, the catalog has 6") as err:
        game.state_from_json(data)
    assert err.value.field == "stacks"
    data["box"] = [first]
    assert game.state_from_json(data).box.count(game.new_game(2, seed=1).rules.names.index(first)) == 1


def test_a_trading_card_over_a_lumberjack_costs_less_its_value() -> None:
    """SP-COST-7: a trading card laid over a card (here a Lumberjack, the card of kind 0) costs its printed
    cost less the covered card's value: the Carpenter Workshop (4 R) over a Lumberjack (3 R) costs 1 R, so a
    seat with exactly 1 R may buy it (SP-BUY-2), and pays all its money."""
    from engine.petersburg import Buy, cost_breakdown
    from engine.petersburg.testing import arrange

    game = SP
    state = arrange(game.new_game(2, seed=1), turn=0, phase="trading", upper=["Carpenter Workshop"], lower=[],
                    areas={0: ["Lumberjack"]}, money={0: 1})
    buy = Buy(0, "Carpenter Workshop", "upper", "Lumberjack")
    assert buy in game.legal_actions(state, 0)
    breakdown = cost_breakdown(state, 0, "Carpenter Workshop", source="upper", displace="Lumberjack")
    assert (breakdown.printed, breakdown.displace_value, breakdown.cost) == (4, 3, 1)
    assert breakdown.affordable and game.why(state, buy).says == "legal"
    steps = {(s.clause, s.says): s.data for s in game.why(state, buy).walk()}
    assert steps[("SP-COST-7", "displaced-value")]["amount"] == 3
    assert steps[("SP-COST-6", "above-minimum")]["raw"] == 1  # 4 - 3 is not below the minimum of 1
    assert steps[("SP-BUY-2", "affordable")] == {"card": "Carpenter Workshop", "cost": 1, "money": 1}
    after = game.apply(state, buy)
    assert after.money[0] == 0
    lumberjack = state.rules.kind["Lumberjack"]
    assert lumberjack not in after.areas[0] and after.discard[-1] == lumberjack  # the covered card, discarded
    assert game.apply_unchecked(state, buy) == after


def test_a_card_costing_all_the_money_is_affordable() -> None:
    """SP-BUY-2: a card whose cost equals the seat's money may be bought (and leaves it 0 R); one rouble
    short, it may not."""
    from engine.petersburg import Buy, cost_breakdown
    from engine.petersburg.testing import arrange

    game = SP
    state = arrange(game.new_game(2, seed=1), turn=0, upper=["Lumberjack"], lower=[], money={0: 3})
    buy = Buy(0, "Lumberjack", "upper", None)
    assert buy in game.legal_actions(state, 0) and game.apply(state, buy).money[0] == 0
    assert cost_breakdown(state, 0, "Lumberjack", source="upper").affordable
    poor = arrange(state, money={0: 2})
    assert buy not in game.legal_actions(poor, 0)
    with pytest.raises(RuleViolation) as err:
        game.apply(poor, buy)
    assert err.value.clause == "SP-BUY-2"


def test_an_explicit_petersburg_setup_is_checked_and_its_worker_marker_starts() -> None:
    """SP-SETUP-6, SP-SETUP-7, SP-TURN-1: an explicit set-up needs the four stacks and a seat for each of
    the four phase markers (an int seat, not a bool, on the table); the worker phase's marker holder acts
    first; the seeded set-up's default seed is 0."""
    from attrs import evolve

    from engine.petersburg.setup import Setup, seeded_setup

    game = SP
    base = seeded_setup(2, seed=3)
    for bad in (
        evolve(base, stacks=base.stacks[:3]),
        evolve(base, markers=(0, 1, 0)),
        evolve(base, markers=(0, 1, 0, True)),
        evolve(base, markers=(0, 1, 0, 2)),
    ):
        with pytest.raises(IllegalSetup) as err:
            game.new_game(2, setup=bad)
        assert err.value.clause == "SP-SETUP-6"
    assert game.new_game(2, setup=evolve(base, markers=(1, 0, 0, 1))).turn == 1
    assert game.new_game(2, setup=evolve(base, markers=(0, 1, 1, 0))).turn == 0
    assert Setup.seeded(2) == seeded_setup(2) == seeded_setup(2, seed=0) != seeded_setup(2, seed=1)


# ---------------------------------------------------------------------------------------- 6 nimmt! tables


def test_the_take6_rules_value_is_checked_and_shown_as_its_call() -> None:
    """T6-SETUP-1, T6-PRO-3: a player count must be an int (a bool is refused naming the clause); the
    professional tie goes to the end unless the option says start; a ruleset shows as the call that makes
    it."""
    with pytest.raises(IllegalSetup) as err:
        rules_for("standard", True)
    assert err.value.clause == "T6-SETUP-1"
    assert rules_for("professional", 2).tie_to_start is False
    assert rules_for("professional", 2, {"professional_tie": "start"}).tie_to_start is True
    assert repr(rules_for("standard", 2)) == "rules_for('standard', 2)"


def test_the_row_bound_of_a_set_up_is_the_prebuilt_rows() -> None:
    """T6-SETUP-3: a set-up may lay as many rows as there are prebuilt row choices (16), not one more."""
    from engine.take6 import rules as take6_rules

    take6_rules._check_row_bound({"wide": {"rows": take6_rules.PREBUILT_ROWS}})
    with pytest.raises(SpecError, match="at most 16"):
        take6_rules._check_row_bound({"wide": {"rows": take6_rules.PREBUILT_ROWS + 1}})
    assert take6_rules.PREBUILT_ROWS == 16


def test_the_bullhead_rules_table_checks_its_rows() -> None:
    """T6-BULL-1: the bullhead rules' counts and values are positive, and ``otherwise`` is the last rule
    only: each edit of the shipped table below is refused naming the table."""
    import copy

    import engine.spec
    from engine.take6 import rules as take6_rules

    real = engine.spec.read_toml

    def load(edit: Any) -> None:
        def patched(path: Any) -> dict[str, Any]:
            doc = real(path)
            if path.name == "bullheads.toml" and path.parent.name == "take6":
                doc = copy.deepcopy(doc)
                edit(doc["rule"])
            return doc

        engine.spec.read_toml = patched
        try:
            take6_rules._load_bullheads(engine.spec.Tables.read("take6"), 1, 104, None)
        finally:
            engine.spec.read_toml = real

    load(lambda rows: None)
    with pytest.raises(SpecError, match="must be > 0"):
        load(lambda rows: rows[0].update(bullheads=0))
    with pytest.raises(SpecError, match="must be the last rule"):
        load(lambda rows: rows.insert(len(rows) - 1, dict(rows[-1])))


def test_the_final_scoring_adds_variety_and_money_and_takes_the_hand_off() -> None:
    """SP-END-4, SP-END-6, SP-END-7: 3 different aristocrats score 6 VP, 27 R score 2 VP (one per full 10),
    2 cards in hand cost 5 VP each: -2 VP in all, in the breakdown and in its derivation."""
    from engine.derivation import Trace
    from engine.petersburg.scoring import final_breakdown
    from engine.petersburg.testing import arrange

    state = arrange(SP.new_game(2, seed=1), turn=0, upper=[], lower=[],
                    areas={0: ["Author", "Secretary", "Administrator"]}, hands={0: ["Lumberjack", "Pub"]},
                    money={0: 27})
    parts = final_breakdown(state, 0)
    assert (parts["variety"], parts["money"], parts["hand"], parts["total"]) == (6, 2, -10, -2)
    trace = Trace()
    assert final_breakdown(state, 0, trace) == parts
    root = trace.steps[0]
    assert (root.clause, root.data["total"]) == ("SP-END-4", -2)
    assert [s.says for s in root.steps] == ["variety", "money", "hand"]


def test_the_take6_result_derivation_places_the_seats_and_says_a_shared_win() -> None:
    """T6-END-2, T6-END-3, T6-COUNT-1: the result's derivation places every seat from 1, says a shared win
    only for a tie, and in the countdown variant counts the points left."""
    from engine.derivation import Trace, render
    from engine.take6.scoring import rank

    trace = Trace()
    assert rank((40, 40, 70), rules_for("standard", 3), trace).winners == (0, 1)
    assert render(trace.steps) == (
        "Winners: P0 and P1, tied with the fewest bullheads (40 bullheads), share the win [T6-END-2]",
        "  1. P0: 40 bullheads [T6-END-2]",
        "  2. P1: 40 bullheads [T6-END-2]",
        "  3. P2: 70 bullheads [T6-END-2]",
        "  tied players share the win; the ranking lists them by seat [T6-END-3]",
    )
    trace = Trace()
    assert rank((20, 30, 30), rules_for("countdown", 3), trace).winners == (0,)
    lines = render(trace.steps)
    assert lines[0] == "Winner: P0, with the fewest bullheads (46) [T6-END-2]"
    assert lines[1:] == ("  1. P0: 46 points left [T6-END-2]", "  2. P1: 36 points left [T6-END-2]",
                         "  3. P2: 36 points left [T6-END-2]")


# ------------------------------------------------------------------------------------ 6 nimmt! transitions


def test_a_later_seat_selecting_first_leaves_the_others_to_act() -> None:
    """T6-SELECT-1: when seat 1 selects before seat 0, seat 0 alone is left to act, on the general
    transition as on the checked tier's fast path."""
    from engine.take6.transitions import step

    hands = [[25, 1, 2, 3, 4, 5, 6, 7, 8, 9], [65, 11, 12, 13, 14, 15, 16, 17, 18, 19]]
    state = take6_position(players=3, rows=_ROWS, hands=[*hands, list(range(70, 80))])
    assert step(state, Select(1, 65)).to_act == (0, 2) == T6.apply(state, Select(1, 65)).to_act
    assert step(state, Select(2, 70)).to_act == (0, 1)
    assert any(s.says == "selected" for st in T6.derive(state, Select(1, 65)) for s in st.walk())


def test_a_professional_card_below_every_row_goes_before_a_row_start() -> None:
    """T6-PRO-1, T6-PRO-2, T6-PRO-3: in the professional game a card below every row end goes before the
    closest row start (25 before 30), as the checked tier plays it; a card as near a start as an end is a
    tie, derived as one."""
    hands = [[25, 1, 2, 3, 4, 5, 6, 7, 8, 9], [65, 11, 12, 13, 14, 15, 16, 17, 18, 19]]
    state = take6_position(players=2, variant="professional", rows=_ROWS, hands=hands)
    after = T6.apply(T6.apply(state, Select(1, 65)), Select(0, 25))
    assert after.rows == ((25, 30), (40,), (50,), (60, 65))
    tie = take6_position(players=2, variant="professional", rows=[[10], [30], [50], [60]],
                         hands=[[20, *range(1, 10)], [65, *range(11, 20)]])
    steps = [s for st in T6.derive(T6.apply(tie, Select(1, 65)), Select(0, 20)) for s in st.walk()]
    assert [(s.clause, s.says) for s in steps if s.says in ("tie", "closest")][:2] == [
        ("T6-PRO-2", "closest"), ("T6-PRO-3", "tie")
    ]


def test_the_derivations_of_a_draft_a_chance_step_and_a_row_choice() -> None:
    """T6-LOGIC-1, T6-SETUP-5, T6-CHOOSE-1: a draft's derivation names the next drafter (the seat to act
    after it); a round's chance step is granted by the logic draft start or, dealt, by the explicit deal
    rule; a row choice is explained by the card that waits for it."""
    drafting = T6.new_game(2, variant="logic", seed=3)
    act = T6.legal_actions(drafting)[0]
    nxt = [s.data for st in T6.derive(drafting, act) for s in st.walk() if s.says == "next"]
    assert nxt == [{"phase": "draft", "to_act": list(T6.to_act(T6.apply(drafting, act)))}]
    logic = list(T6.why(T6.new_game(2, variant="logic", seed=None), DraftStart(0)).walk())
    assert [s.clause for s in logic if s.says == "granted"] == ["T6-LOGIC-1"]
    deal = Deal(hands=(tuple(range(1, 11)), tuple(range(11, 21))), rows=(30, 40, 50, 60))
    dealt = list(T6.why(T6.new_game(2, seed=None), deal).walk())
    assert [s.clause for s in dealt if s.says == "granted"] == ["T6-SETUP-5"]
    choose = take6_position(players=2, rows=_ROWS, hands=[list(range(1, 10)), list(range(11, 20))],
                            pending=[[10, 0], [20, 1]], phase="choose")
    waiting = [s.data for s in T6.why(choose, TakeRow(0, 2)).walk() if s.says == "waiting"]
    assert waiting == [{"seat": 0, "card": 10}]


def test_the_logic_variant_places_at_row_ends_only() -> None:
    """T6-VAR-1, T6-PLACE-3: the logic variant plays the standard placement (row ends only): its card below
    every row end waits for a row choice, it is not laid before a row's first card."""
    state = take6_position(players=2, variant="logic", rows=[[10], [12], [14], [16]],
                           hands=[[1, 2, 3, 4, 5, 6, 7, 8, 9, 11], [13, 15, 17, 18, 19, 20, 21, 22, 23, 24]])
    after = T6.apply(T6.apply(state, Select(1, 24)), Select(0, 1))
    assert after.phase == "choose" and after.chooser == 0 and after.rows[0] == (10,)


def test_a_new_game_without_a_seed_argument_is_seed_0() -> None:
    """T6-SETUP-4: ``new_game`` deals from seed 0 unless told otherwise."""
    assert T6.new_game(2) == T6.new_game(2, seed=0) != T6.new_game(2, seed=1)
