"""Saint Petersburg rules for table values other than the shipped ones, and inputs that tell apart code
changes once thought to change nothing.

A rule is data: a diagnosis builds the rules from edited tables (any value of ``spec/petersburg/`` may
change: a cost, a discount, an effect's parameter, a set-up row, a pairing), so what the code does with a
value must be right for every value the tables accept, not only for the one shipped.  Each test here runs a
scenario on the shipped tables in this process and on edited tables in a fresh interpreter
(:func:`edited_tables.under_edited`), and says which rule it checks.  The first tests need no edit: the
checked tier's explanation of a card named by another edition's name, the variety cap, the hand limit's
check of a position.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from edited_tables import under_edited

from engine.derivation import Trace
from engine.errors import PositionError
from engine.petersburg import GAME, Buy, Observe, Pass, Take, cost_breakdown
from engine.petersburg.checks import granting_clause
from engine.petersburg.displacement import can_displace
from engine.petersburg.legal import pub_capacity, pub_rate
from engine.petersburg.position import position
from engine.petersburg.scoring import final_breakdown, phase_income
from engine.petersburg.setup import seeded_setup

GAME_NAME = "petersburg"


def _shipped(scenario: Any, *args: Any) -> Any:
    """The scenario on the shipped tables, in this process, as JSON (as :func:`_edited` returns it)."""
    return json.loads(json.dumps(scenario(*args)))


def _edited(edits: dict[str, str], scenario: Any, *args: Any) -> Any:
    return under_edited(__file__, scenario, *args, game=GAME_NAME, edits=edits)


def _card_edit(card: str, change: str) -> dict[str, str]:
    """An edit of cards.toml: ``change`` (Python on the card's row ``row``) applied to ``card``'s row."""
    return {"cards.toml": f"row = next(r for r in doc['card'] if r['name'] == {card!r})\n{change}"}


# --------------------------------------------------------------------------------------------------
# a card named by another edition's name (SP-TRADE-4, SP-POTJ-1, SP-BUY-1), on the shipped tables


def _trading_buy(target: str, trading: str) -> Any:
    return position(players=2, phase="trading", turn=0, upper=[trading], money=[30, 0], areas=[[target], []])


@pytest.mark.parametrize(
    ("target", "trading", "names", "clause"),
    [
        ("Potjomkin's Village", "Bank",
         ["Potjomkin's Village", "Potemkin Village", "potjomkin's village"], "SP-POTJ-1"),
        ("Czar and Carpenter", "Gold Smelter", ["Czar and Carpenter", "Czar & Carpenter", "Zar Peter"],
         "SP-TRADE-4"),
        ("Gold Miner", "Gold Smelter", ["Gold Miner", "Goldgräber"], "SP-BUY-1"),
    ],
)
def test_a_trading_buy_is_explained_alike_whichever_name_gives_the_displaced_card(
    target: str, trading: str, names: list[str], clause: str
) -> None:
    """SP-POTJ-1, SP-TRADE-4, SP-BUY-1: a card may be named by either edition's name or an alias (any
    case); the explanation of a legal trading buy does not depend on which: the same granting clause (the
    rule that makes the displacement possible), the same derivation, the action named alike.  The granting
    clause asked directly of the action as given is the same too."""
    s = _trading_buy(target, trading)
    answers = []
    for name in names:
        action = Buy(0, trading, "upper", name)
        why = GAME.why(s, action)
        assert why.says == "legal" and why.clause == clause, (name, why.clause)
        assert granting_clause(s, action) == clause, name
        answers.append((why.data, [(x.clause, x.says, dict(x.data), x.note) for x in why.walk()]))
    assert all(answer == answers[0] for answer in answers), names


def test_the_granting_clause_of_a_card_the_game_does_not_have_is_the_buy_rule() -> None:
    """SP-BUY-1, SP-TRADE-1: a displaced card no edition and no alias names grants nothing special (the
    checks refuse the buy under SP-TRADE-1); a buy displacing nothing is granted by the buy rule."""
    s = _trading_buy("Czar and Carpenter", "Gold Smelter")
    assert granting_clause(s, Buy(0, "Gold Smelter", "upper", "Nope")) == "SP-BUY-1"
    assert granting_clause(s, Buy(0, "Gold Smelter", "upper")) == "SP-BUY-1"
    assert GAME.why(s, Buy(0, "Gold Smelter", "upper", "Nope")).clause == "SP-TRADE-1"


# --------------------------------------------------------------------------------------------------
# the variety bonus's cap (SP-END-5), the Pub without a Pub (SP-PUB-1), a hand over its limit (SP-HAND-3)

_RED = ["Author", "Administrator", "Warehouse Manager", "Secretary", "Controller", "Judge",
        "Mistress of Ceremonies", "Pope", "Weapon Master", "Chamber Maid", "Builder", "Senator"]


@pytest.mark.parametrize(("distinct", "counted"), [(9, 9), (10, 10), (11, 10), (12, 10)])
def test_the_variety_bonus_counts_at_most_ten_different_aristocrats(distinct: int, counted: int) -> None:
    """SP-END-4, SP-END-5: the red trading cards are aristocrats too (17 kinds in all), so a seat may own
    more than ten different ones; the bonus counts ten at most, and the final scoring's explanation states
    the cap only when it binds (10 different: no cap; 11: no more than for 10)."""
    s = position(players=2, phase="trading", areas=[_RED[:distinct], []])
    trace = Trace()
    parts = final_breakdown(s, 0, trace)
    assert (parts["distinct_uncapped"], parts["distinct_capped"]) == (distinct, counted)
    assert parts["variety"] == (55 if distinct >= 10 else 45)
    caps = [dict(x.data) for x in trace.steps[0].walk() if x.says == "variety-cap"]
    assert caps == ([] if distinct == counted else [{"seat": 0, "distinct": distinct, "counted": counted}])


def test_without_a_pub_no_vp_can_be_bought_and_the_rate_is_zero() -> None:
    """SP-PUB-1: without a Pub a seat can buy no VP, and the rate ``pub_rate`` documents for it is 0."""
    rs = GAME.new_game(2, seed=1).rules
    pub = rs.kind["Pub"]
    assert (pub_rate(rs, ()), pub_capacity(rs, (), 50)) == (0, 0)
    assert (pub_rate(rs, (pub,)), pub_capacity(rs, (pub,), 50)) == (2, 5)


def test_a_hand_over_the_limit_needs_a_lost_card_that_raises_the_limit() -> None:
    """SP-HAND-3, SP-WAREHOUSE-1: a position's hand over its seat's limit is explained only by a lost
    card that raises the limit (a Warehouse displaced or discarded); with the game's one Warehouse on the
    board, any other card lost explains nothing."""
    with pytest.raises(PositionError) as err:
        position(players=2, phase="worker", upper=["Warehouse"], hands=[["Lumberjack"] * 4, []])
    assert (err.value.field, err.value.clause) == ("hands[0]", "SP-HAND-3")
    assert position(players=2, phase="worker", hands=[["Lumberjack"] * 4, []]).hands[0] != ()


# --------------------------------------------------------------------------------------------------
# edited tables: the set-up's start-player markers (SP-SETUP-7)


def marker_counts(players: int, seeds: list[int]) -> list[list[int]]:
    """Per seed, how many start-player markers each seat holds after the seeded set-up."""
    out = []
    for seed in seeds:
        held = Counter(seeded_setup(players, seed=seed).markers)
        out.append([held[p] for p in range(players)])
    return out


def test_the_marker_counts_are_dealt_clockwise_from_the_seeded_seat() -> None:
    """SP-SETUP-7: the set-up table's marker counts go to the seats in dealing order, clockwise from the
    seeded seat d: seat d gets the first count, seat d + 1 the second.  The shipped 3-player row [2, 1, 1]
    reads the same either way round; the row [1, 2, 1] gives seat d + 1 the two markers."""
    seeds = list(range(12))
    shipped = _shipped(marker_counts, 3, seeds)
    edit = "next(r for r in doc['setup'] if r['players'] == 3)['markers'] = [1, 2, 1]"
    edited = _edited({"setup.toml": edit}, marker_counts, 3, seeds)
    for before, after in zip(shipped, edited, strict=True):
        d = before.index(2)  # the seeded seat: the same draw of the same seed
        assert after[(d + 1) % 3] == 2 and sorted(after) == [1, 1, 2], (before, after)


# --------------------------------------------------------------------------------------------------
# edited tables: costs (SP-COST-2, SP-COST-4)


def market_cost(owned: list[str]) -> list[Any]:
    """The cost of a Market from the upper row for a seat owning ``owned``: the reductions and the cost."""
    s = position(players=2, phase="building", turn=0, upper=["Market"], money=[30, 0], areas=[owned, []])
    b = cost_breakdown(s, 0, "Market", source="upper")
    return [[[r.clause, r.amount] for r in b.reductions], b.cost]


def test_the_cost_reductions_are_the_tables_amounts_per_card_owned() -> None:
    """SP-COST-2, SP-COST-4: each identical card owned takes the identical-card discount off, each
    reducer owned its own amount; with a discount and an amount of 2 (edited) a Market (5) for a seat
    owning a Market and a Carpenter Workshop costs 5 - 2 - 2 = 1, the shipped 1 and 1 make it 3."""
    owned = ["Market", "Carpenter Workshop"]
    assert _shipped(market_cost, owned) == [[["SP-COST-2", 1], ["SP-COST-4", 1]], 3]
    edits = {
        "phases.toml": "next(r for r in doc['param'] if r['name'] == 'identical_discount')['value'] = 2",
        **_card_edit("Carpenter Workshop", "row['effect']['amount'] = 2"),
    }
    assert _edited(edits, market_cost, owned) == [[["SP-COST-2", 2], ["SP-COST-4", 2]], 1]
    assert _edited(edits, market_cost, ["Market", "Market", "Carpenter Workshop"]) == [
        [["SP-COST-2", 4], ["SP-COST-4", 2]], 1]


# --------------------------------------------------------------------------------------------------
# edited tables: a turned Observatory's income (SP-OBS-5)


def turned_income() -> list[Any]:
    """The building scoring's income of a seat whose Observatory is turned, and of one whose is not."""
    s = position(players=2, phase="building", turn=0, areas=[["Observatory"], ["Observatory"]],
                 turned=[["Observatory"], []])
    return [list(x) for x in phase_income(s, s.rules.colour[s.rules.kind["Observatory"]])]


def test_a_turned_observatory_scores_nothing_that_round() -> None:
    """SP-OBS-5: a turned Observatory scores nothing at that round's building scoring: not its VP, nor
    its roubles when the table gives it some (edited: 2 R)."""
    assert _shipped(turned_income) == [[0, 0], [0, 1]]
    assert _edited(_card_edit("Observatory", "row['roubles'] = 2"), turned_income) == [[0, 0], [2, 1]]


# --------------------------------------------------------------------------------------------------
# edited tables: the Observatory's phase and which card is one (SP-OBS-1, SP-OBS-2)


def observe_now(card: str, phase: str, other: str) -> list[Any]:
    """Seat 0 owns ``card`` (an Observatory) in ``phase``: is turning it legal, its derivation, the
    refusal in ``other`` phase, and a position where it was turned this phase."""
    stacks = {"worker": ["Lumberjack", "Shepherd"]}
    s = position(players=2, phase=phase, turn=0, areas=[[card], []], stacks=stacks)
    why = GAME.why(s, Observe(0, "worker"))
    after = GAME.apply(s, Observe(0, "worker"))
    off = position(players=2, phase=other, turn=0, areas=[[card], []], stacks=stacks)
    refused = GAME.why(off, Observe(0, "worker"))
    try:
        was = position(players=2, phase=phase, turn=1, areas=[[card], []], turned=[[card], []], stacks=stacks)
        turned = [was.rules.names[k] for k in was.turned[0]]
    except PositionError as exc:
        turned = [exc.field, exc.clause]
    return [
        Observe(0, "worker") in GAME.legal_actions(s, 0),
        [why.clause, why.says, [x.note for x in why.walk() if x.clause == "SP-OBS-2"]],
        after.cards("drawn"),
        [refused.clause, refused.note],
        list(turned),
    ]


def test_the_observatory_works_in_the_phase_its_effect_names() -> None:
    """SP-OBS-1, SP-OBS-2, SP-OBS-5: the Observatory is turned in the phase its effect names: the
    building phase as shipped, the worker phase (the phase numbered 0) when the table says so.  There it
    is legal and explained, it draws the stack's top card, a position may show it turned; in another
    phase it is refused naming its phase."""
    assert _shipped(observe_now, "Observatory", "building", "worker") == [
        True,
        ["SP-OBS-1", "legal", ["the Observatory is used in the building phase"]],
        ["Lumberjack"],
        ["SP-OBS-2", "the Observatory can be used only in the building phase"],
        ["Observatory"],
    ]
    edits = _card_edit("Observatory", "row['effect']['phase'] = 'worker'")
    assert _edited(edits, observe_now, "Observatory", "worker", "building") == [
        True,
        ["SP-OBS-1", "legal", ["the Observatory is used in the worker phase"]],
        ["Lumberjack"],
        ["SP-OBS-2", "the Observatory can be used only in the worker phase"],
        ["Observatory"],
    ]


def test_any_card_the_tables_make_an_observatory_is_one() -> None:
    """SP-OBS-1: the card of kind 0 (the Lumberjack) given the Observatory's effect is an Observatory:
    turned in the building phase, legal and explained, drawing the top card."""
    edits = _card_edit("Lumberjack", "row['effect'] = {'kind': 'observatory', 'phase': 'building'}")
    assert _edited(edits, observe_now, "Lumberjack", "building", "worker") == [
        True,
        ["SP-OBS-1", "legal", ["the Observatory is used in the building phase"]],
        ["Lumberjack"],
        ["SP-OBS-2", "the Observatory can be used only in the building phase"],
        ["Lumberjack"],
    ]


# --------------------------------------------------------------------------------------------------
# edited tables: the hand limit's clause (SP-HAND-2, SP-WAREHOUSE-1)


def take_room(owned: list[str]) -> list[Any]:
    """The clause and limit of the room in hand a take is explained with, for a seat owning ``owned``."""
    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack"], areas=[owned, []],
                 hands=[["Shepherd", "Shepherd"], []])
    why = GAME.why(s, Take(0, "Lumberjack", "upper"))
    return [[x.clause, dict(x.data)] for x in why.walk() if x.says == "room-in-hand"]


def test_the_hand_limit_is_explained_by_the_rule_that_sets_it() -> None:
    """SP-HAND-2, SP-WAREHOUSE-1: the room in hand is explained by the Warehouse's rule when it raises
    the limit (4 as shipped), by the base limit's rule when it does not (edited: a Warehouse of limit 3,
    the base limit)."""
    assert _shipped(take_room, ["Warehouse"]) == [["SP-WAREHOUSE-1", {"held": 2, "limit": 4}]]
    assert _shipped(take_room, []) == [["SP-HAND-2", {"held": 2, "limit": 3}]]
    edits = _card_edit("Warehouse", "row['effect']['limit'] = 3")
    assert _edited(edits, take_room, ["Warehouse"]) == [["SP-HAND-2", {"held": 2, "limit": 3}]]


# --------------------------------------------------------------------------------------------------
# edited tables: the trading cards' targets (SP-TRADE-3, SP-TRADE-4)


def displacing(pairs: list[list[str]]) -> list[Any]:
    """``can_displace`` of each (trading card, target), and the clause granting the buy of the first."""
    trading, target = pairs[0]
    s = _trading_buy(target, trading)
    granted = GAME.why(s, Buy(0, trading, "upper", target)).clause
    return [[list(can_displace(a, b))[:2] for a, b in pairs], granted]


def test_only_a_card_showing_every_symbol_is_displaced_as_a_wildcard() -> None:
    """SP-TRADE-3, SP-TRADE-4: a worker is displaced by the green trading cards of the symbols it shows;
    only one that shows every symbol (the Czar and Carpenter) is the wildcard of SP-TRADE-4.  A worker
    given two symbols (edited: the Lumberjack also shows gold) is displaced by both trading cards under
    SP-TRADE-3, and its buy is granted by the buy rule."""
    pairs = [["Gold Smelter", "Lumberjack"], ["Carpenter Workshop", "Lumberjack"],
             ["Fur Shop", "Czar and Carpenter"]]
    assert _shipped(displacing, pairs[1:]) == [[[True, "SP-TRADE-3"], [True, "SP-TRADE-4"]], "SP-BUY-1"]
    edits = _card_edit("Lumberjack", "row['symbols'] = ['wood', 'gold']")
    assert _edited(edits, displacing, pairs) == [
        [[True, "SP-TRADE-3"], [True, "SP-TRADE-3"], [True, "SP-TRADE-4"]], "SP-BUY-1"]


# --------------------------------------------------------------------------------------------------
# edited tables: the last round (SP-END-1, SP-END-3)


def last_round_after_worker_phase(stack: str, card: str) -> list[Any]:
    """The last-round steps of the refill that ends the worker phase, ``stack`` holding only ``card``."""
    s = position(players=2, phase="worker", turn=0, passes=1, stacks={stack: [card]})
    return [[x.clause, dict(x.data)] for st in GAME.derive(s, Pass(0)) for x in st.walk()
            if x.says == "last-round"]


def test_only_the_worker_refill_at_the_round_end_makes_the_next_round_the_last() -> None:
    """SP-END-1, SP-END-3: a stack running out at a refill ends the game after this round (SP-END-1); the
    worker stack running out at the round's end makes the next round the last (SP-END-3).  The worker
    stack refilled after the worker phase (edited) ends the game after this round, as any other stack."""
    shipped = _shipped(last_round_after_worker_phase, "building", "Market")
    assert shipped == [["SP-END-1", {"stack": "building"}]]
    edits = {"phases.toml": "doc['phase'][0]['refill'] = 'worker'"}
    assert _edited(edits, last_round_after_worker_phase, "worker", "Lumberjack") == [
        ["SP-END-1", {"stack": "worker"}]]
