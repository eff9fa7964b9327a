"""Saint Petersburg edges the second pass of the whole-set mutation run found unpinned: the card of kind 0
(the Lumberjack) and the stack of index 0 (the workers), whose numbers are also where "none" (-1) starts;
the checked tier's derivation of every kind of action (``GAME.why`` runs the checks with a trace, so each
check's step is pinned); the notation's bounds and token numbers; the state's helpers.  Each test says
which rule it pins."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalAction, InputError, PositionError
from engine.petersburg import GAME, Buy, Discard, Observe, Pass, PubBuy, Reveal, Take, cost_breakdown
from engine.petersburg.legal import legal_actions, reveals, to_act
from engine.petersburg.model import STATE_PHASES, card_name, changer
from engine.petersburg.position import position


def _walk(state: Any, action: Any) -> list[tuple[str, str]]:
    return [(s.clause, s.says) for s in GAME.why(state, action).walk()]


# --------------------------------------------------------------------------------------------------
# the worker stack (index 0) awaiting a reveal, and the Lumberjack (kind 0) drawn


def _worker_reveal() -> Any:
    return position(players=2, phase="reveal", upper=["?worker", "Shepherd"],
                    unknown={"worker": ["Lumberjack", "Gold Miner"]})


def test_a_card_of_the_worker_stack_awaiting_its_reveal_is_a_chance_step() -> None:
    """SP-REVEAL-1: a card the refill drew from the worker stack (stack 0) of unknown order awaits its
    reveal: nobody acts, the outcomes are the stack's distinct unknown cards, the notation carries it
    through, and the reveal puts the card in the upper row."""
    s = _worker_reveal()
    assert s.phase == "reveal" and to_act(s) == () and legal_actions(s, 0) == ()
    assert reveals(s) == (Reveal("Lumberjack"), Reveal("Gold Miner"))  # in kind order
    assert s.cards("upper")[0] == "?worker" and card_name(s.rules, s.upper[0]) == "?worker"
    line = GAME.to_notation(s)
    assert GAME.from_notation(line) == s and "?worker" in line
    after = GAME.apply(s, Reveal("Lumberjack"))
    assert "Lumberjack" in after.cards("upper") and after.phase != "reveal"
    assert len(s.stacks[0]) == 1  # two unknown workers, one of them drawn


def test_placeholders_are_named_by_their_stack() -> None:
    """SP-REVEAL-1: the placeholder of stack i is kind ``nkinds + i``, named ``?STACK``."""
    rs = GAME.new_game(2, seed=1).rules
    assert [card_name(rs, rs.nkinds + i) for i in range(4)] == ["?worker", "?building", "?aristocrat",
                                                               "?trading"]
    assert card_name(rs, 0) == rs.names[0]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        (dict(phase="reveal", upper=["?worker", "?building"],
              unknown={"worker": ["Lumberjack"], "building": ["Market"]}), "upper"),
        (dict(phase="reveal", upper=["?worker", "?worker"], unknown={"worker": ["Lumberjack"]}),
         "unknown.worker"),
        (dict(phase="worker", lower=["?worker"], unknown={"worker": ["Lumberjack"]}), "lower[0]"),
    ],
)
def test_unknown_cards_come_from_one_refill_of_the_upper_row(fields: dict[str, Any], field: str) -> None:
    """SP-REVEAL-1: the unknown cards awaiting a reveal come from one refill (one stack), no more of them
    than the stack has unknown, and only into the upper row (the lower row is never refilled)."""
    with pytest.raises(PositionError) as err:
        position(players=2, **fields)
    assert err.value.field == field, str(err.value)


def _drawn_lumberjack(**more: Any) -> Any:
    return position(players=2, phase="observatory", turn=0, drawn="Lumberjack",
                    areas=[["Observatory"], []], turned=[["Observatory"], []], **more)


def test_a_drawn_lumberjack_is_the_card_of_kind_0_and_decides_the_turn() -> None:
    """SP-OBS-4, SP-CARD-5: the Observatory drew the Lumberjack (kind 0): the seat must buy, take or
    discard it, nothing else (a pass is refused naming the rule, derived as refused); its derivation says
    who acts and why; the notation carries it; it counts as a copy of the Lumberjack."""
    s = _drawn_lumberjack()
    assert s.phase == "observatory" and s.drawn == 0
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Pass(0))
    assert err.value.clause == "SP-OBS-4"
    assert GAME.why(s, Pass(0)).clause == "SP-OBS-4"
    steps = _walk(s, Buy(0, "Lumberjack", "drawn"))
    assert ("SP-OBS-4", "to-act") in steps and ("SP-OBS-4", "in-row") in steps
    assert ("SP-BUY-3", "in-row") not in steps
    assert GAME.from_notation(GAME.to_notation(s)) == s
    assert GAME.apply(s, Discard(0, "Lumberjack")).phase == "building"
    with pytest.raises(PositionError) as many:
        _drawn_lumberjack(lower=["Lumberjack"] * 6)
    assert (many.value.field, many.value.clause) == ("drawn", "SP-CARD-5")


def test_a_turned_observatory_is_turned_only_from_its_phase_on() -> None:
    """SP-OBS-2, SP-OBS-5: an Observatory is turned in the building phase; a position with one turned in
    the worker phase is refused, one in the later phases of the round is accepted; turning never needs the
    last card of a stack, so a stack of two may be drawn from and a stack of one may not."""
    with pytest.raises(PositionError) as err:
        position(players=2, phase="worker", areas=[["Observatory"], []], turned=[["Observatory"], []])
    assert (err.value.field, err.value.clause) == ("turned[0]", "SP-OBS-2")
    later = position(players=2, phase="aristocrat", areas=[["Observatory"], []],
                     turned=[["Observatory"], []])
    assert later.cards("turned", 0) == ("Observatory",)
    two = position(players=2, phase="building", turn=0, areas=[["Observatory"], []],
                   stacks={"worker": ["Lumberjack", "Shepherd"], "building": ["Market"],
                           "aristocrat": ["Author"], "trading": ["Tax Man"]})
    assert Observe(0, "worker") in GAME.legal_actions(two, 0)
    assert Observe(0, "building") not in GAME.legal_actions(two, 0)
    assert ("SP-OBS-1", "observatory-ready") in _walk(two, Observe(0, "worker"))
    with pytest.raises(IllegalAction) as last:
        GAME.apply(two, Observe(0, "building"))
    assert last.value.clause == "SP-OBS-3"


# --------------------------------------------------------------------------------------------------
# the checked tier's derivations


def test_a_pub_purchase_from_zero_to_the_most_is_derived_as_legal() -> None:
    """SP-PUB-1: at the Pub a seat may buy 0 VP up to the most its Pubs and money allow, each derived as
    within capacity; more, a negative number or a non-integer is refused."""
    s = position(players=2, phase="pub", pub_queue=[0], areas=[["Pub"], []], money=[6, 0])
    for vp in (0, 3):
        assert GAME.why(s, PubBuy(0, vp)).says == "legal"
        assert ("SP-PUB-1", "within-capacity") in _walk(s, PubBuy(0, vp))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, PubBuy(0, 4))
    assert err.value.clause == "SP-PUB-1"


def test_a_pass_and_a_take_are_derived_with_the_rule_that_allows_them() -> None:
    """SP-TURN-3, SP-HAND-2, SP-WAREHOUSE-1: a pass is derived as allowed; a take is derived with the room
    in hand under the hand limit's clause, under the Warehouse's when it raises the limit; with a
    Warehouse, a fourth card may be taken."""
    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack"])
    assert ("SP-TURN-3", "may-pass") in _walk(s, Pass(0))
    assert ("SP-HAND-2", "room-in-hand") in _walk(s, Take(0, "Lumberjack", "upper"))
    w = position(players=2, phase="worker", turn=0, upper=["Lumberjack"], areas=[["Warehouse"], []],
                 hands=[["Shepherd", "Shepherd", "Shepherd"], []])
    assert Take(0, "Lumberjack", "upper") in GAME.legal_actions(w, 0)
    assert ("SP-WAREHOUSE-1", "room-in-hand") in _walk(w, Take(0, "Lumberjack", "upper"))


def test_the_granting_clause_of_a_trading_card_follows_the_card_it_displaces() -> None:
    """SP-BUY-1, SP-TRADE-4, SP-TRADE-1: a trading card over a one-symbol worker is bought under the buy
    rule; over the Czar and Carpenter (all five symbols) under SP-TRADE-4; a displaced card the game does
    not have is refused, not a crash."""
    s = position(players=2, phase="trading", turn=0, upper=["Gold Smelter"], money=[30, 0],
                 areas=[["Gold Miner", "Czar and Carpenter"], []])
    assert GAME.why(s, Buy(0, "Gold Smelter", "upper", "Gold Miner")).clause == "SP-BUY-1"
    assert GAME.why(s, Buy(0, "Gold Smelter", "upper", "Czar and Carpenter")).clause == "SP-TRADE-4"
    refused = GAME.why(s, Buy(0, "Gold Smelter", "upper", "Nope"))
    assert refused.says == "refused" and refused.clause == "SP-TRADE-1"


class _Foreign:
    """Not an action of the game, though it has a seat."""

    player = 0
    card = "Lumberjack"
    source = "upper"


@pytest.mark.parametrize("action", [object(), _Foreign()])
def test_a_foreign_action_or_seat_is_not_a_saint_petersburg_action(action: Any) -> None:
    """SP-TURN-1: an object that is no action of the game (with a seat or without) is refused naming the
    rule (the game's own actions check their seat when they are made)."""
    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack"])
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, action)
    assert err.value.clause == "SP-TURN-1" and "not a Saint Petersburg action" in str(err.value)


def test_a_reveal_may_name_the_card_in_any_language() -> None:
    """SP-REVEAL-1: the revealed card may be named by any of its names (German: Holzfäller)."""
    assert GAME.apply(_worker_reveal(), Reveal("Holzfäller")) == GAME.apply(_worker_reveal(),
                                                                            Reveal("Lumberjack"))


def test_two_copies_in_a_row_are_one_action() -> None:
    """SP-BUY-1: two copies of a card in a row are one buy (copies are interchangeable)."""
    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack", "Lumberjack"])
    buys = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Buy)]
    assert buys == [Buy(0, "Lumberjack", "upper")]


# --------------------------------------------------------------------------------------------------
# costs


def test_the_raw_cost_is_printed_less_displaced_value_less_reductions() -> None:
    """SP-COST-1, SP-COST-7, SP-COST-6: the raw cost subtracts the displaced card's value and every
    reduction from the printed cost; the minimum is noted only when the raw cost is below it."""
    s = position(players=2, phase="trading", turn=0, lower=["Carpenter Workshop"], money=[30, 0],
                 areas=[["Lumberjack"], []])
    b = cost_breakdown(s, 0, "Carpenter Workshop", source="lower", displace="Lumberjack")
    assert b.displace == "Lumberjack" and b.displace_value == 3 and [r.amount for r in b.reductions] == [1]
    assert b.raw == b.printed - 3 - 1 and b.cost == max(b.raw, 1)
    minimum = [st.data for st in GAME.why(s, Buy(0, "Carpenter Workshop", "lower", "Lumberjack")).walk()
               if st.clause == "SP-COST-6"]
    assert minimum and minimum[0]["raw"] == b.raw
    one = position(players=2, phase="worker", turn=0, lower=["Lumberjack"], areas=[["Lumberjack"], []])
    b1 = cost_breakdown(one, 0, "Lumberjack", source="lower")
    assert b1.raw == b1.minimum == 1 and "(raw" not in " ".join(b1.lines())
    traced = [st.data for st in GAME.why(one, Buy(0, "Lumberjack", "lower")).walk()
              if st.clause == "SP-COST-6"]
    assert traced[0]["raw"] == 1 and traced[0]["cost"] == 1


# --------------------------------------------------------------------------------------------------
# notation


@pytest.mark.parametrize(
    ("swap", "says"),
    [
        (("Shepherd", "?nope"), "?nope"),
        (("Shepherd", "Lumberjack*0"), "a count is 1 to 40"),
        (("Shepherd", "Lumberjack*41"), "a count is 1 to 40"),
    ],
)
def test_a_notation_card_token_is_bounded(swap: tuple[str, str], says: str) -> None:
    """SP-REVEAL-1, SP-CARD-5: a ``?STACK`` names a known stack, a count is 1 to 40."""
    line = GAME.to_notation(position(players=2, phase="worker", upper=["Shepherd"]))
    assert swap[0] in line
    with pytest.raises(InputError, match=r"\?nope|a count is 1 to 40") as err:
        GAME.from_notation(line.replace(swap[0], swap[1], 1))
    assert says in str(err.value)


def test_a_notation_count_of_forty_is_a_count() -> None:
    """SP-CARD-5: forty copies are a well-formed count (the bound is 40), refused as copies the game does
    not have, not as a count."""
    line = GAME.to_notation(position(players=2, phase="worker", upper=["Shepherd"]))
    with pytest.raises(InputError) as err:
        GAME.from_notation(line.replace("Shepherd", "Shepherd*40", 1))
    assert "a count is 1 to 40" not in str(err.value)


def test_a_finished_game_keeps_negative_points_through_the_notation() -> None:
    """SP-END-7: after the final scoring a seat may be below 0 VP; the notation writes and reads it."""
    s = position(players=2, phase="over", vp=[-3, 10], last_round=True)
    assert GAME.from_notation(GAME.to_notation(s)).vp == (-3, 10)


def test_a_notation_without_seats_says_the_seat_is_missing() -> None:
    """SP-SETUP-1: a line holding the fields but no seat is refused naming the seats."""
    line = GAME.to_notation(GAME.new_game(2, seed=1))
    fields = line.split(" ")
    from engine.petersburg.notation import FIELDS

    with pytest.raises(InputError) as err:
        GAME.from_notation(" ".join(fields[: len(FIELDS)]))
    assert "seat" in str(err.value)


# --------------------------------------------------------------------------------------------------
# the state's helpers


def test_the_state_phases_are_the_round_with_its_decisions_each_once() -> None:
    """SP-PHASE-1, SP-PUB-2, SP-OBS-4, SP-REVEAL-1: the phase of a state is one of the four phases in
    order, with the Pub's and the Observatory's decisions after the building phase, a reveal and the end;
    each once (an environment's one-hot of the phase has one slot per phase)."""
    assert STATE_PHASES == ("worker", "building", "pub", "observatory", "aristocrat", "trading", "reveal",
                            "over")


def test_a_seat_place_needs_a_seat_of_the_table() -> None:
    """SP-TURN-1: a seat's hand, area or turned cards need a seat of the table."""
    s = GAME.new_game(2, seed=1)
    for seat in (None, 2, -1):
        with pytest.raises(InputError, match=r"needs a seat 0\.\.1"):
            s.cards("hand", seat)


@pytest.mark.parametrize("fields", [("nope",), ("money", "money"), ()])
def test_a_successor_builder_needs_distinct_state_fields(fields: tuple[str, ...]) -> None:
    """The transitions' successor builder refuses unknown, repeated or no fields (a typo is a build-time
    error, not a silently unchanged field)."""
    with pytest.raises(TypeError, match="changer needs distinct State fields"):
        changer(*fields)


def test_a_position_without_points_starts_at_zero() -> None:
    """SP-SETUP-2: the seats of a position given no VP have 0."""
    assert position(players=3).vp == (0, 0, 0)


# --------------------------------------------------------------------------------------------------
# the notation's token numbers


@pytest.mark.parametrize(
    ("line", "token"),
    [
        ("first 1 pub:5 0 0 0/0/1/1 - - - - 6:0:-:Pub:- 0:0:-:-:-", "pub:5"),
        ("first 1 observatory:Lumberjack 0 0 0/0/1/1 - - - - 25:0:-:-:- 25:0:-:-:-",
         "observatory:Lumberjack"),
        ("first 1 reveal 0 0 0/0/1/1 ?worker - Shepherd~Lumberjack*7/-/-/- - 25:0:-:-:- 25:0:-:-:-",
         "Shepherd~Lumberjack*7/-/-/-"),
        ("first 1 worker 1 0 0/0/1/1 - - Nope/-/-/- - 25:0:-:-:- 25:0:-:-:-", "Nope/-/-/-"),
        ("first 1 worker 1 0 0/0/1/1 - - Shepherd~Nope/-/-/- - 25:0:-:-:- 25:0:-:-:-", "Shepherd~Nope/-/-/-"),
        ("first 1 worker 1 0 0/0/1/1 - ?worker -/-/-/- - 25:0:-:-:- 25:0:-:-:-", "?worker"),
        ("first 1 worker 1 0 0/0/1/1 ?nope - -/-/-/- - 25:0:-:-:- 25:0:-:-:-", "?nope"),
    ],
)
def test_a_notation_error_quotes_the_token_that_holds_the_field(line: str, token: str) -> None:
    """SP-PUB-2, SP-OBS-1, SP-CARD-5, SP-REVEAL-1: an error in a Pub queue or a drawn card is in the phase
    token, one in the stacks (known or unknown) in the stacks token; an unknown ``?STACK`` card, or one
    outside the upper row, is refused as such."""
    with pytest.raises(InputError) as err:
        GAME.from_notation(line)
    tokens = line.split(" ")
    assert f"(token {tokens.index(token) + 1} {token!r})" in str(err.value), str(err.value)
    if token.startswith("?"):
        assert "an unknown drawn card is ?STACK in the upper row" in str(err.value)


# --------------------------------------------------------------------------------------------------
# transitions and scoring, derived


def test_the_income_of_a_scoring_is_derived_card_by_card() -> None:
    """SP-SCORE-2, SP-SCORE-4, SP-MARI-1, SP-OBS-5: a building scoring (SP-SCORE-2) derives each seat's
    income from each blue card's printed income under SP-SCORE-4, a per-card income under the card's own
    rule (1 rouble per red card for the Mariinskij Theater), and a turned Observatory's point taken back
    under SP-OBS-5."""
    s = position(players=2, phase="building", turn=1, passes=1,
                 areas=[["Mariinskij Theater", "Author", "Observatory", "Market"], ["Market"]],
                 turned=[["Observatory"], []])
    steps = [st for d in GAME.derive(s, Pass(1)) for st in d.walk() if st.says in ("income", "card-income")]
    got = [(st.clause, st.data.get("card"), st.data["roubles"], st.data["vp"]) for st in steps]
    assert got == [
        ("SP-SCORE-4", None, 1, 1),
        ("SP-SCORE-4", "Market", 0, 1),
        ("SP-SCORE-4", "Observatory", 0, 1),
        ("SP-SCORE-4", "Mariinskij Theater", 0, 0),
        ("SP-MARI-1", "Mariinskij Theater", 1, 0),
        ("SP-OBS-5", "Observatory", 0, -1),
        ("SP-SCORE-4", None, 0, 1),
        ("SP-SCORE-4", "Market", 0, 1),
    ]
    scorings = [st.clause for d in GAME.derive(s, Pass(1)) for st in d.walk() if st.says == "scoring"]
    assert scorings == ["SP-SCORE-2"]


def _derived(state: Any, action: Any) -> list[tuple[str, str]]:
    return [(st.clause, st.says) for d in GAME.derive(state, action) for st in d.walk()]


def _round_end(**more: Any) -> Any:
    return position(players=2, phase="trading", turn=1, passes=1, **more)


def test_the_refill_of_a_new_round_is_derived() -> None:
    """SP-REFILL-1, SP-REFILL-2, SP-END-3, SP-ROUND-3, SP-PHASE-2: the round's end refills the upper row
    from the worker stack up to 8 cards: a row short of one card takes one; a stack with exactly the cards
    needed fills it and makes the next round the last, with no shortage; a shorter one says by how many;
    the new round starts with the worker phase (the upper row's 7 cards moved to the lower row first)."""
    full = ["Lumberjack"] * 6 + ["Shepherd"] * 6
    one = _round_end(upper=["Market"] * 3 + ["Author"] * 2 + ["Gold Miner"] * 2,
                     stacks={"worker": full, "building": [], "aristocrat": [], "trading": []})
    steps = [st for d in GAME.derive(one, Pass(1)) for st in d.walk()]
    refill = next(st for st in steps if st.says == "refill")
    assert refill.data["cards"] == ["Lumberjack"]
    assert [st.data["phase"] for st in steps if st.says == "phase-start"] == ["worker"]
    exact = _round_end(stacks={"worker": full[:8], "building": [], "aristocrat": [], "trading": []})
    says = [(st.clause, st.says) for d in GAME.derive(exact, Pass(1)) for st in d.walk()]
    assert ("SP-END-3", "last-round") in says and not any(s == "short" for _c, s in says)
    short = _round_end(stacks={"worker": full[:5], "building": [], "aristocrat": [], "trading": []})
    missing = [st.data for d in GAME.derive(short, Pass(1)) for st in d.walk() if st.says == "short"]
    assert missing == [{"missing": 3}]


def test_a_refill_of_unknown_order_from_the_worker_stack_awaits_its_reveals() -> None:
    """SP-REVEAL-1: a refill from the worker stack (stack 0) of unknown order is derived as such."""
    s = _round_end(stacks={"worker": [], "building": [], "aristocrat": [], "trading": []},
                   unknown={"worker": ["Lumberjack"] * 6 + ["Shepherd"] * 6})
    says = [st.says for d in GAME.derive(s, Pass(1)) for st in d.walk()]
    assert "unknown-order" in says


def test_a_take_and_an_observatory_draw_are_derived() -> None:
    """SP-HAND-1, SP-OBS-4, SP-OBS-1: a take from a row is derived under SP-HAND-1, a take of the drawn
    card under SP-OBS-4; the Observatory's draw names the stack's top card."""
    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack"])
    assert ("SP-HAND-1", "taken") in _derived(s, Take(0, "Lumberjack", "upper"))
    assert ("SP-OBS-4", "taken") in _derived(_drawn_lumberjack(), Take(0, "Lumberjack", "drawn"))
    obs = position(players=2, phase="building", turn=0, areas=[["Observatory"], []],
                   stacks={"worker": ["Shepherd", "Lumberjack"], "building": [], "aristocrat": [],
                           "trading": []})
    draw = [st.data for d in GAME.derive(obs, Observe(0, "worker")) for st in d.walk() if st.says == "drawn"]
    assert draw[0]["card"] == "Shepherd"


def test_a_refused_buy_says_which_row_or_the_drawn_card() -> None:
    """SP-BUY-3, SP-OBS-4: a buy of a card not in the row names the row; the derivation of a buy from a row
    says where the card lies."""
    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack"])
    refused = GAME.why(s, Buy(0, "Shepherd", "upper"))
    assert refused.clause == "SP-BUY-3" and "no Shepherd in the upper row" in refused.note
    row = [st for st in GAME.why(s, Buy(0, "Lumberjack", "upper")).walk() if st.says == "in-row"]
    assert row[0].clause == "SP-BUY-3" and "lies in the upper row" in row[0].note


def test_a_shared_win_is_derived_and_a_single_one_is_not() -> None:
    """SP-END-9: the result derivation says a win is shared only when several seats win."""
    tie = position(players=3, phase="over", vp=[10, 10, 3], money=[5, 5, 0], last_round=True)
    alone = position(players=3, phase="over", vp=[10, 9, 3], money=[5, 5, 0], last_round=True)
    assert "shared" in [st.says for st in GAME.explain_result(tie).walk()]
    assert "shared" not in [st.says for st in GAME.explain_result(alone).walk()]


def test_a_new_saint_petersburg_game_without_a_seed_argument_is_seed_0() -> None:
    """SP-SETUP-3: ``new_game`` deals from seed 0 unless told otherwise."""
    assert GAME.new_game(2) == GAME.new_game(2, seed=0) != GAME.new_game(2, seed=1)


def test_an_unchecked_step_reads_a_card_by_any_name() -> None:
    """SP-BUY-1, SP-HAND-1, SP-HAND-4: the unchecked tier takes an action naming its card by another name
    (German, or the other edition's) as the checked tier does."""
    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack", "Shepherd"], money=[25, 25])
    for act in (Buy(0, "Holzfäller", "upper"), Take(0, "Holzfäller", "upper")):
        assert GAME.apply_unchecked(s, act) == GAME.apply(s, act)


# --------------------------------------------------------------------------------------------------
# a draw from a stack of unknown order, other stacks than the workers', and the rest


def test_an_observatory_draw_of_unknown_order_awaits_its_reveal() -> None:
    """SP-OBS-4, SP-REVEAL-1: the Observatory drew from the worker stack of unknown order: the drawn card
    (``?worker``) awaits its reveal, counted among the unknown cards drawn; more drawn than the stack has
    unknown is refused."""
    turned: dict[str, Any] = dict(areas=[["Observatory"], []], turned=[["Observatory"], []], turn=0)
    s = position(players=2, phase="reveal", drawn="?worker", unknown={"worker": ["Lumberjack", "Shepherd"]},
                 **turned)
    assert to_act(s) == () and reveals(s) == (Reveal("Lumberjack"), Reveal("Shepherd"))
    assert len(s.stacks[0]) == 1 and GAME.from_notation(GAME.to_notation(s)) == s
    after = GAME.apply(s, Reveal("Shepherd"))
    assert after.phase == "observatory" and card_name(after.rules, after.drawn) == "Shepherd"
    with pytest.raises(PositionError) as err:
        position(players=2, phase="reveal", drawn="?worker", upper=["?worker"],
                 unknown={"worker": ["Lumberjack"]}, **turned)
    assert err.value.field == "unknown.worker"


def test_unknown_cards_of_a_later_stack_are_that_stacks_placeholders() -> None:
    """SP-REVEAL-1: two cards a refill drew from the building stack (stack 1) of unknown order both await
    their reveal; a card of another stack among them is refused."""
    s = position(players=2, phase="reveal", upper=["?building", "?building"],
                 unknown={"building": ["Market", "Pub", "Theater"]})
    assert [card_name(s.rules, k) for k in s.upper] == ["?building", "?building"]
    assert reveals(s) == tuple(Reveal(n) for n in sorted(["Market", "Pub", "Theater"],
                                                         key=s.rules.kind.__getitem__))
    assert len(s.stacks[1]) == 1
    with pytest.raises(PositionError) as err:
        position(players=2, phase="reveal", upper=["?building", "?worker"],
                 unknown={"building": ["Market"], "worker": ["Lumberjack"]})
    assert err.value.field == "upper"


def test_an_unchecked_buy_or_reveal_reads_its_displaced_or_revealed_card_by_any_name() -> None:
    """SP-TRADE-1, SP-REVEAL-1: the unchecked tier reads the displaced card and the revealed card by any
    of their names (German: Holzfäller, the Lumberjack)."""
    s = position(players=2, phase="trading", turn=0, upper=["Carpenter Workshop"], money=[30, 0],
                 areas=[["Lumberjack"], []])
    act = Buy(0, "Carpenter Workshop", "upper", "Holzfäller")
    assert GAME.apply_unchecked(s, act) == GAME.apply(s, act)
    r = _worker_reveal()
    assert GAME.apply_unchecked(r, Reveal("Holzfäller")) == GAME.apply(r, Reveal("Lumberjack"))


@pytest.mark.parametrize("players", [True, "2", 5, 0])
def test_a_json_state_names_a_bad_player_count(players: Any) -> None:
    """SP-SETUP-1: a JSON state's player count is an integer of the game's range (1 to 4)."""
    data = GAME.state_to_json(GAME.new_game(2, seed=1))
    data["players"] = players
    with pytest.raises(InputError) as err:
        GAME.state_from_json(data)
    assert err.value.field == "players" and "expected an integer 1..4" in str(err.value)


def test_the_names_table_refuses_an_empty_or_non_text_name() -> None:
    """SP-CARD-1: every name of names.toml is a non-empty string."""
    from test_strength_whole_sp import _load_edited

    from engine.errors import SpecError
    from engine.petersburg.names import names_of

    for bad in ("", 7):
        with pytest.raises(SpecError, match="must be a list of non-empty strings"):
            _load_edited("petersburg", "names.toml", "name", names_of,
                         lambda rows, b=bad: rows[0]["de"].append(b))


def test_empty_rows_are_described_as_a_dash() -> None:
    """SP-REFILL-1: the position's description shows an empty row as ``-``."""
    lines = GAME.describe_state(position(players=2))
    assert "Upper row: -" in lines and "Lower row: -" in lines
    full = GAME.describe_state(position(players=2, upper=["Lumberjack"], lower=["Shepherd"]))
    assert "Upper row: Lumberjack" in full and "Lower row: Shepherd" in full


def test_unknown_cards_in_a_stack_alone_leave_the_turn_to_the_seat() -> None:
    """SP-PHASE-2, SP-REVEAL-1: stacks of unknown order hold no decision: with no card drawn from them
    awaiting its reveal, the seat to act acts and may act."""
    s = position(players=2, phase="worker", turn=1, upper=["Lumberjack"],
                 unknown={"worker": ["Shepherd", "Gold Miner"]})
    assert to_act(s) == (1,) and GAME.to_act(s) == (1,)
    assert Pass(1) in GAME.legal_actions(s, 1) and reveals(s) == ()


def test_a_drawn_unknown_card_and_unknown_cards_in_the_row_come_from_one_stack() -> None:
    """SP-REVEAL-1, SP-OBS-4: the cards awaiting a reveal come from one stack: an Observatory's draw from
    the worker stack with a worker of the refill still unknown is revealed drawn card first; a draw from
    the building stack with an unknown worker in the row is refused; a stack keeps its unknown cards as
    its own placeholders."""
    turned: dict[str, Any] = dict(areas=[["Observatory"], []], turned=[["Observatory"], []], turn=0)
    both = position(players=2, phase="reveal", drawn="?worker", upper=["?worker"],
                    unknown={"worker": ["Lumberjack", "Shepherd", "Gold Miner"]}, **turned)
    assert card_name(both.rules, both.drawn) == "?worker" and len(both.stacks[0]) == 1
    assert card_name(both.rules, both.stacks[0][0]) == "?worker"
    revealed = GAME.apply(both, Reveal("Shepherd"))
    assert card_name(revealed.rules, revealed.drawn) == "Shepherd" and revealed.phase == "reveal"
    with pytest.raises(PositionError) as err:
        position(players=2, phase="reveal", drawn="?building", upper=["?worker"],
                 unknown={"worker": ["Lumberjack"], "building": ["Market"]}, **turned)
    assert err.value.field == "upper"
    building = position(players=2, phase="reveal", upper=["?building"],
                        unknown={"building": ["Market", "Pub"]})
    assert [card_name(building.rules, k) for k in building.stacks[1]] == ["?building"]
