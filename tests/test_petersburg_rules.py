"""Saint Petersburg rules by example: each test names the clause(s) it checks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import GameOver, IllegalAction, IllegalSetup, NotYourTurn
from engine.petersburg import (
    GAME,
    Buy,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Setup,
    State,
    Take,
    cost_breakdown,
    final_breakdown,
)
from engine.petersburg.catalog import STACKS
from engine.petersburg.testing import arrange, card_count, names


def new(players: int = 2, *, variant: str | None = None, options: dict[str, Any] | None = None) -> State:
    return GAME.new_game(players, seed=1, variant=variant, options=options)


def at(
    players: int = 2, *, variant: str | None = None, options: dict[str, Any] | None = None, **kw: Any
) -> State:
    """A position with seat 0 to act (empty rows unless given)."""
    kw.setdefault("turn", 0)
    kw.setdefault("upper", [])
    kw.setdefault("lower", [])
    return arrange(new(players, variant=variant, options=options), **kw)


def rejects(state: State, action: Any, clause: str, exc: type[Exception] = IllegalAction) -> None:
    with pytest.raises(exc) as info:
        GAME.apply(state, action)
    assert getattr(info.value, "clause", None) == clause, str(info.value)


def pass_all(state: State) -> State:
    """Every player passes once, starting with the one to act (ends the phase if nobody acts)."""
    for _ in range(state.players):
        if state.over or state.pub_queue:
            break
        state = GAME.apply(state, Pass(state.turn))
    return state


def n(state: State, cards: tuple[int, ...]) -> list[str]:
    return names(state, cards)


# ============================================================ set-up


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_by_player_count(players: int) -> None:
    """SP-SETUP-1, SP-SETUP-2, SP-SETUP-4, SP-SOLO-1: four separate stacks; 25 roubles each; the first worker
    phase shows 2 workers per player in the upper row; hands and areas empty."""
    s = new(players)
    assert s.money == (25,) * players and s.vp == (0,) * players
    assert len(s.upper) == 2 * players and s.lower == ()
    assert all(s.rules.stack[k] == 0 for k in s.upper)
    assert [len(x) for x in s.stacks] == [31 - 2 * players, 28, 27, 30]
    for i, stack in enumerate(s.stacks):
        assert all(s.rules.stack[k] == i for k in stack)
    assert s.hands == ((),) * players and s.areas == ((),) * players
    assert (s.round, s.phase_index) == (1, 0)


@pytest.mark.parametrize(("players", "counts"), [(1, [4]), (2, [2, 2]), (3, [1, 1, 2]), (4, [1, 1, 1, 1])])
def test_markers_by_player_count(players: int, counts: list[int]) -> None:
    """SP-SETUP-3, SP-SOLO-1: 4 players one marker each, 2 players two each, 3 players one holds two, solo all
    four; the worker-phase marker holder acts first (SP-PHASE-2)."""
    for seed in range(6):
        s = GAME.new_game(players, seed=seed)
        assert sorted(s.markers.count(p) for p in range(players)) == counts
        assert s.turn == s.markers[0]


def test_three_player_double_marker_is_seeded() -> None:
    """SP-SETUP-3, SP-SETUP-7: with 3 players the seat holding two markers comes from the seed: the same seed
    gives the same holder, and different seeds reach every seat."""
    holders = set()
    for seed in range(30):
        s = GAME.new_game(3, seed=seed)
        assert s == GAME.new_game(3, seed=seed)
        holders.add(next(p for p in range(3) if s.markers.count(p) == 2))
    assert holders == {0, 1, 2}


def test_seeded_setup_follows_the_documented_procedure() -> None:
    """SP-SETUP-7: the documented shuffling procedure, re-implemented here, gives the engine's set-up."""
    rs = GAME.new_game(3, seed=42).rules
    rng = random.Random("petersburg:42")
    stacks = []
    for kinds in rs.stack_kinds:
        cards = [k for k in kinds for _ in range(rs.cards[k].copies)]
        rng.shuffle(cards)
        stacks.append(tuple(cards))
    d = rng.randrange(3)
    counts = [0, 0, 0]
    for i, c in enumerate((2, 1, 1)):
        counts[(d + i) % 3] = c
    seats = [s for s in range(3) for _ in range(counts[s])]
    phases = [0, 1, 2, 3]
    rng.shuffle(phases)
    markers = [0] * 4
    for j, ph in enumerate(phases):
        markers[ph] = seats[j]
    s = GAME.new_game(3, seed=42)
    assert s.markers == tuple(markers)
    assert s.upper == stacks[0][:6] and s.stacks[0] == stacks[0][6:]
    assert s.stacks[1:] == tuple(stacks[1:])


def test_explicit_setup_is_used_and_checked() -> None:
    """SP-SETUP-6: an explicit set-up fixes the stack orders (top first) and the markers; a missing card, a
    card in the wrong stack, a bad seat or wrong marker counts are refused with IllegalSetup."""
    good = Setup.seeded(2, seed=3)
    s = GAME.new_game(2, setup=good)
    assert n(s, s.upper) == list(good.stacks[0][:4]) and s.markers == good.markers
    w = list(good.stacks[0])
    cases = [
        (Setup(stacks=(tuple(w[1:]), *good.stacks[1:]), markers=good.markers), "SP-SETUP-6"),
        (Setup(stacks=((*w[1:], "Market"), *good.stacks[1:]), markers=good.markers), "SP-SETUP-6"),
        (Setup(stacks=((*w[1:], "Unicorn"), *good.stacks[1:]), markers=good.markers), "SP-SETUP-6"),
        (Setup(stacks=good.stacks[:3], markers=good.markers), "SP-SETUP-6"),
        (Setup(stacks=good.stacks, markers=(0, 0, 0, 1)), "SP-SETUP-3"),
        (Setup(stacks=good.stacks, markers=(0, 1, 2, 1)), "SP-SETUP-6"),
    ]
    for setup, clause in cases:
        with pytest.raises(IllegalSetup) as info:
            GAME.new_game(2, setup=setup)
        assert info.value.clause == clause


@pytest.mark.parametrize("players", [0, 5, -1])
def test_player_count_range(players: int) -> None:
    """SP-GAME-1: 1 to 4 players; other counts are refused."""
    with pytest.raises(IllegalSetup) as info:
        GAME.new_game(players)
    assert info.value.clause == "SP-GAME-1"
    assert (GAME.min_players, GAME.max_players) == (1, 4)


def test_unknown_variant_and_options() -> None:
    """SP-VARIANT-1, SP-VARIANT-2: variants first/second; unknown variants or options, or ill-typed option
    values, are refused."""
    assert GAME.variants == ("first", "second")
    with pytest.raises(IllegalSetup) as info:
        GAME.new_game(2, variant="third")
    assert info.value.clause == "SP-VARIANT-1"
    for options in ({"trading_dicount": False}, {"trading_discount": "no"}):
        with pytest.raises(IllegalSetup) as info:
            GAME.new_game(2, options=options)
        assert info.value.clause == "SP-VARIANT-2"


# ============================================================ turns and phases


def test_marker_holder_starts_then_seat_order() -> None:
    """SP-PHASE-2: the phase's marker holder acts first, then seats in increasing order, wrapping."""
    s = at(3, markers=(2, 0, 1, 2), turn=2)
    order = []
    for _ in range(2):
        order.append(s.turn)
        s = GAME.apply(s, Pass(s.turn))
    order.append(s.turn)
    assert order == [2, 0, 1]


def test_phase_ends_only_after_consecutive_passes() -> None:
    """SP-PHASE-3, SP-PHASE-4: a player who passed may act again; the phase ends when all players have passed
    consecutively."""
    s = at(3, upper=["Lumberjack", "Lumberjack"], markers=(0, 1, 2, 0))
    s = GAME.apply(s, Pass(0))
    s = GAME.apply(s, Pass(1))
    s = GAME.apply(s, Buy(2, "Lumberjack"))
    assert (s.phase_index, s.passes) == (0, 0)
    s = GAME.apply(s, Pass(0))
    s = GAME.apply(s, Buy(1, "Lumberjack"))  # seat 1 passed before and acts again
    s = GAME.apply(s, Pass(2))
    s = GAME.apply(s, Pass(0))
    assert s.phase_index == 0
    s = GAME.apply(s, Pass(1))
    assert s.phase_index == 1


def test_solo_phase_ends_on_one_pass_and_game_runs() -> None:
    """SP-SOLO-1, SP-PHASE-3: in the solo game one pass ends a phase; the solo player holds every marker and a
    random solo game ends with a result for the single seat."""
    s = new(1)
    assert s.markers == (0, 0, 0, 0)
    s = GAME.apply(s, Pass(0))
    assert s.phase_index == 1
    rng = random.Random(3)
    while not GAME.is_terminal(s):
        legal = GAME.legal_actions(s, 0)
        s = GAME.apply(s, legal[rng.randrange(len(legal))])
    assert GAME.result(s).winners == (0,)


def test_round_has_four_phases_in_order() -> None:
    """SP-PHASE-1: worker, building, aristocrat, trading, then the worker phase of the next round."""
    s = new(2)
    seen = []
    for _ in range(5):
        seen.append((s.round, s.phase_index))
        s = pass_all(s)
    assert seen == [(1, 0), (1, 1), (1, 2), (1, 3), (2, 0)]


def test_any_card_in_any_phase() -> None:
    """SP-PHASE-5: a building may be bought in the aristocrat phase, a worker in the trading phase."""
    s = at(2, phase="aristocrat", upper=["Market", "Lumberjack"])
    s = GAME.apply(s, Buy(0, "Market"))
    s = GAME.apply(s._replace(phase_index=3, turn=0), Buy(0, "Lumberjack"))
    assert n(s, s.areas[0]) == ["Lumberjack", "Market"]


def test_one_action_per_turn_of_the_listed_kinds() -> None:
    """SP-TURN-1: the legal actions are buy, take, play, pass (and Observatory use); after one the turn moves
    on."""
    s = at(2, upper=["Lumberjack"], hands={0: ["Market"]})
    kinds = {type(a) for a in GAME.legal_actions(s, 0)}
    assert kinds == {Buy, Take, Play, Pass}
    assert GAME.apply(s, Take(0, "Lumberjack")).turn == 1


def test_out_of_turn_and_after_the_end() -> None:
    """SP-TURN-2: a seat that is not to act gets NotYourTurn; a finished game raises GameOver; the state is
    unchanged either way."""
    s = at(2, upper=["Lumberjack"])
    before = GAME.state_to_json(s)
    rejects(s, Pass(1), "SP-TURN-2", NotYourTurn)
    rejects(s, Buy(1, "Lumberjack"), "SP-TURN-2", NotYourTurn)
    rejects(s, Pass(7), "SP-TURN-2", NotYourTurn)
    assert GAME.state_to_json(s) == before
    over = s._replace(over=True)
    rejects(over, Pass(0), "SP-END-1", GameOver)
    assert GAME.legal_actions(over, 0) == () and GAME.to_act(over) == ()


def test_pass_is_always_legal() -> None:
    """SP-TURN-3: passing is allowed even when buying is possible."""
    s = at(2, upper=["Lumberjack"])
    legal = GAME.legal_actions(s, 0)
    assert Pass(0) in legal and Buy(0, "Lumberjack") in legal
    assert GAME.apply(s, Pass(0)).passes == 1


# ============================================================ buy / take / play


def test_buy_moves_card_and_pays() -> None:
    """SP-BUY-1, SP-COST-1: buying from the upper row pays the printed cost; the card goes to the area."""
    s = at(2, upper=["Shepherd", "Market"])
    t = GAME.apply(s, Buy(0, "Shepherd"))
    assert t.money[0] == 20 and n(t, t.areas[0]) == ["Shepherd"] and n(t, t.upper) == ["Market"]


def test_cannot_buy_what_one_cannot_afford() -> None:
    """SP-BUY-2: a card dearer than the buyer's roubles is refused; legal_actions omits it."""
    s = at(2, upper=["Academy"], money={0: 22})
    rejects(s, Buy(0, "Academy"), "SP-BUY-2")
    assert Buy(0, "Academy") not in GAME.legal_actions(s, 0)
    assert GAME.apply(s._replace(money=(23, 25)), Buy(0, "Academy")).money[0] == 0


def test_card_must_be_in_the_named_row() -> None:
    """SP-BUY-3: buying or taking a card that is not in the named row is refused."""
    s = at(2, upper=["Market"], lower=["Author"])
    rejects(s, Buy(0, "Market", "lower"), "SP-BUY-3")
    rejects(s, Take(0, "Author", "upper"), "SP-BUY-3")
    rejects(s, Buy(0, "Unicorn"), "SP-BUY-3")
    rejects(s, Buy(0, "Market", "attic"), "SP-BUY-3")
    rejects(s, Buy(0, "Market", "drawn"), "SP-BUY-3")


def test_take_into_hand_is_free() -> None:
    """SP-HAND-1: taking a card into hand costs nothing now."""
    s = at(2, lower=["Academy"], money={0: 0})
    t = GAME.apply(s, Take(0, "Academy", "lower"))
    assert t.money[0] == 0 and n(t, t.hands[0]) == ["Academy"] and t.lower == ()


def test_hand_limit_three() -> None:
    """SP-HAND-2: with three cards in hand no more can be taken."""
    s = at(2, upper=["Market"], hands={0: ["Author", "Author", "Pub"]})
    rejects(s, Take(0, "Market"), "SP-HAND-2")
    assert not any(isinstance(a, Take) for a in GAME.legal_actions(s, 0))


def test_warehouse_raises_hand_limit_to_four() -> None:
    """SP-WAREHOUSE-1, SP-HAND-2: a Warehouse owner may hold 4 cards, not 5."""
    s = at(2, areas={0: ["Warehouse"]}, upper=["Market", "Market"], hands={0: ["Author", "Author", "Pub"]})
    s = GAME.apply(s, Take(0, "Market"))
    assert len(s.hands[0]) == 4
    rejects(s._replace(turn=0), Take(0, "Market"), "SP-HAND-2")


def test_lost_warehouse_keeps_cards_but_blocks_taking() -> None:
    """SP-HAND-3, SP-TRADE-2: after the Warehouse is displaced a player with 4 cards keeps them, but may take
    a card only once the hand is below 3 again."""
    s = at(
        2,
        areas={0: ["Warehouse"]},
        upper=["Bank", "Market"],
        money={0: 30},
        hands={0: ["Author", "Author", "Lumberjack", "Lumberjack"]},
    )
    s = GAME.apply(s, Buy(0, "Bank", displace="Warehouse"))
    assert len(s.hands[0]) == 4 and s.rules.kind["Warehouse"] in s.discard
    s = s._replace(turn=0)
    rejects(s, Take(0, "Market"), "SP-HAND-3")
    s = GAME.apply(s, Play(0, "Lumberjack"))
    s = GAME.apply(s._replace(turn=0), Play(0, "Lumberjack"))
    s = s._replace(turn=0)
    assert len(s.hands[0]) == 2
    assert len(GAME.apply(s, Take(0, "Market")).hands[0]) == 3


def test_play_from_hand_pays_then_without_lower_row_reduction() -> None:
    """SP-HAND-4, SP-COST-2: a card taken from the lower row costs its full price when played later; the same-
    card reduction still applies; the card may come from an earlier round."""
    s = at(2, lower=["Market"], areas={0: ["Market"]})
    s = GAME.apply(s, Take(0, "Market", "lower"))
    s = s._replace(turn=0, round=3)
    assert cost_breakdown(s, 0, "Market", source="hand").cost == 4
    t = GAME.apply(s, Play(0, "Market"))
    assert t.money[0] == 21 and n(t, t.areas[0]) == ["Market", "Market"] and t.hands[0] == ()
    rejects(s, Play(0, "Academy"), "SP-HAND-4")


def test_trading_card_taken_without_target_but_played_only_with_one() -> None:
    """SP-HAND-5, SP-TRADE-1: a trading card can go into hand with nothing to displace; playing it needs a
    target."""
    s = at(2, upper=["Wharf"])
    s = GAME.apply(s, Take(0, "Wharf"))
    s = s._replace(turn=0)
    assert not any(isinstance(a, Play) for a in GAME.legal_actions(s, 0))
    rejects(s, Play(0, "Wharf"), "SP-TRADE-1")
    s = arrange(s, areas={0: ["Ship Builder"]})
    t = GAME.apply(s, Play(0, "Wharf", displace="Ship Builder"))
    assert n(t, t.areas[0]) == ["Wharf"] and t.money[0] == 25 - (12 - 7)


# ============================================================ cost


def test_two_markets_owned_make_a_market_cost_three() -> None:
    """SP-COST-2: the seed's example: with two Markets in the area a Market costs 3 instead of 5."""
    s = at(2, areas={0: ["Market", "Market"]}, upper=["Market"])
    b = cost_breakdown(s, 0, "Market", source="upper")
    assert (b.printed, b.cost, [r.clause for r in b.reductions]) == (5, 3, ["SP-COST-2"])
    assert GAME.apply(s, Buy(0, "Market")).money[0] == 22


def test_lower_row_costs_one_less() -> None:
    """SP-COST-3: a card from the lower row costs 1 rouble less."""
    s = at(2, upper=["Market"], lower=["Market"])
    assert GAME.apply(s, Buy(0, "Market", "lower")).money[0] == 21
    assert GAME.apply(s, Buy(0, "Market", "upper")).money[0] == 20


def test_carpenter_workshop_and_gold_smelter_reduce_their_colour() -> None:
    """SP-COST-4: Carpenter Workshop: 1 less for blue cards; Gold Smelter: 1 less for red cards; not for other
    colours."""
    s = at(2, areas={0: ["Carpenter Workshop", "Gold Smelter"]})
    assert cost_breakdown(s, 0, "Market", source="upper").cost == 4
    assert cost_breakdown(s, 0, "Author", source="upper").cost == 3
    assert cost_breakdown(s, 0, "Shepherd", source="upper").cost == 5


@pytest.mark.parametrize(("discount", "cost"), [(True, 7), (False, 8)])
def test_colour_reduction_on_trading_cards_is_a_ruling_with_an_option(discount: bool, cost: int) -> None:
    """SP-COST-5, SP-COST-7: Bank (13) displacing a Market (5) with a Carpenter Workshop owned costs 7; with
    the option trading_discount=false the reduction does not apply to trading cards and it costs 8."""
    s = at(
        2, options={"trading_discount": discount}, areas={0: ["Carpenter Workshop", "Market"]}, upper=["Bank"]
    )
    assert cost_breakdown(s, 0, "Bank", source="upper", displace="Market").cost == cost
    assert GAME.apply(s, Buy(0, "Bank", displace="Market")).money[0] == 25 - cost
    # buildings are reduced either way
    assert cost_breakdown(s, 0, "Market", source="upper").cost == 3


def test_cost_never_below_one() -> None:
    """SP-COST-6: reductions never take a cost below 1 rouble."""
    s = at(2, areas={0: ["Lumberjack", "Lumberjack", "Lumberjack", "Lumberjack"]}, lower=["Lumberjack"])
    b = cost_breakdown(s, 0, "Lumberjack", source="lower")
    assert (b.raw, b.cost) == (-2, 1)
    assert GAME.apply(s, Buy(0, "Lumberjack", "lower")).money[0] == 24


def test_trading_card_pays_the_difference_or_one() -> None:
    """SP-COST-7: a trading card costs its price minus the displaced card's; 1 if the displaced card is
    dearer."""
    s = at(2, areas={0: ["Fur Trapper", "Hospital"]}, upper=["Fur Shop", "Bank"])
    assert cost_breakdown(s, 0, "Fur Shop", source="upper", displace="Fur Trapper").cost == 4
    assert cost_breakdown(s, 0, "Bank", source="upper", displace="Hospital").cost == 1
    t = GAME.apply(s, Buy(0, "Fur Shop", displace="Fur Trapper"))
    assert t.money[0] == 21 and s.rules.kind["Fur Trapper"] == t.discard[-1]


def test_potjomkins_village_counts_six_when_displaced() -> None:
    """SP-POTJ-1: Potjomkin's Village costs 2 but counts as 6 when displaced: a Bank over it costs 7."""
    s = at(2, areas={0: ["Potjomkin's Village"]}, upper=["Bank"])
    b = cost_breakdown(s, 0, "Bank", source="upper", displace="Potjomkin's Village")
    assert (b.displace_value, b.displace_clause, b.cost) == (6, "SP-POTJ-1", 7)
    assert GAME.apply(s, Buy(0, "Bank", displace="Potjomkin's Village")).money[0] == 18
    assert s.rules.cost[s.rules.kind["Potjomkin's Village"]] == 2


# ============================================================ trading cards


def test_trading_card_without_target_is_refused() -> None:
    """SP-TRADE-1: buying a trading card with no card of its colour to displace is refused, and a non-trading
    card cannot displace."""
    s = at(2, upper=["Bank", "Market"], areas={0: ["Author"]})
    rejects(s, Buy(0, "Bank"), "SP-TRADE-1")
    rejects(s, Buy(0, "Bank", displace="Author"), "SP-TRADE-1")
    rejects(s, Buy(0, "Bank", displace="Market"), "SP-TRADE-1")
    rejects(s, Buy(0, "Market", displace="Author"), "SP-TRADE-1")
    assert not any(isinstance(a, Buy) and a.card == "Bank" for a in GAME.legal_actions(s, 0))


def test_blue_and_red_trading_cards_displace_any_of_their_colour() -> None:
    """SP-TRADE-2: a blue trading card displaces any building (even a special one), red: any aristocrat."""
    s = at(2, upper=["Bank", "Czar"], areas={0: ["Pub", "Author"]}, money={0: 60})
    t = GAME.apply(s, Buy(0, "Bank", displace="Pub"))
    t = GAME.apply(t._replace(turn=0), Buy(0, "Czar", displace="Author"))
    assert n(t, t.areas[0]) == ["Bank", "Czar"]
    assert n(t, t.discard[-2:]) == ["Pub", "Author"]


def test_green_trading_cards_need_the_matching_worker() -> None:
    """SP-TRADE-3: a Fur Shop displaces a Fur Trapper, not a Shepherd; a Weaving Mill displaces a Shepherd."""
    s = at(2, upper=["Fur Shop", "Weaving Mill"], areas={0: ["Shepherd"]})
    rejects(s, Buy(0, "Fur Shop", displace="Shepherd"), "SP-TRADE-3")
    t = GAME.apply(s, Buy(0, "Weaving Mill", displace="Shepherd"))
    assert n(t, t.areas[0]) == ["Weaving Mill"]


def test_czar_and_carpenter_takes_any_green_trading_card() -> None:
    """SP-TRADE-4: any green trading card may displace Czar and Carpenter."""
    for card in ("Carpenter Workshop", "Gold Smelter", "Weaving Mill", "Fur Shop", "Wharf"):
        s = at(2, upper=[card], areas={0: ["Czar and Carpenter"]})
        t = GAME.apply(s, Buy(0, card, displace="Czar and Carpenter"))
        assert n(t, t.areas[0]) == [card]


def test_trading_card_never_displaces_a_trading_card() -> None:
    """SP-TRADE-5: a Bank cannot displace a Harbor."""
    s = at(2, upper=["Bank"], areas={0: ["Harbor"]})
    rejects(s, Buy(0, "Bank", displace="Harbor"), "SP-TRADE-5")


# ============================================================ scoring


def test_worker_scoring_pays_green_cards_only() -> None:
    """SP-SCORE-1, SP-SCORE-4: at the end of the worker phase each green card (workers and green trading
    cards, also those just bought) pays; blue and red cards do not."""
    s = at(
        2,
        upper=["Lumberjack"],
        areas={0: ["Weaving Mill", "Market", "Author"], 1: ["Fur Shop"]},
        money={0: 10, 1: 0},
    )
    s = GAME.apply(s, Buy(0, "Lumberjack"))
    s = pass_all(s)
    assert s.phase_index == 1
    assert s.money == (10 - 3 + 3 + 6, 3) and s.vp == (0, 2)


def test_building_scoring_pays_blue_cards() -> None:
    """SP-SCORE-2, SP-SCORE-4: building scoring pays each blue card (buildings and blue trading cards)."""
    s = at(2, phase="building", areas={0: ["Market", "Customs House", "Bank", "Author"]}, money={0: 0})
    s = pass_all(s)
    assert (s.money[0], s.vp[0]) == (5, 1 + 2 + 1)


def test_aristocrat_scoring_pays_red_cards() -> None:
    """SP-SCORE-3, SP-SCORE-4: aristocrat scoring pays each red card (aristocrats and red trading cards)."""
    s = at(2, phase="aristocrat", areas={0: ["Author", "Controller", "Senator", "Lumberjack"]}, money={0: 0})
    s = pass_all(s)
    assert (s.money[0], s.vp[0]) == (1 + 4 + 2, 1 + 2)


def test_trading_phase_has_no_scoring() -> None:
    """SP-SCORE-5: ending the trading phase pays nothing."""
    s = at(2, phase="trading", areas={0: ["Lumberjack", "Market", "Author", "Bank"]})
    t = pass_all(s)
    assert t.money == s.money and t.vp == s.vp and t.round == s.round + 1


# ============================================================ refills, round end


def test_refill_to_eight_from_the_next_stack() -> None:
    """SP-REFILL-1: after the worker scoring, buildings fill the upper row until both rows hold 8 cards."""
    s = at(
        2,
        upper=["Author"],
        lower=["Market", "Market"],
        stacks={"building": ["Hospital", "Library", "Theater", "Academy", "Firehouse", "Pub"]},
    )
    t = pass_all(s)
    assert n(t, t.upper) == ["Author", "Hospital", "Library", "Theater", "Academy", "Firehouse"]
    assert n(t, t.lower) == ["Market", "Market"] and n(t, t.stacks[1]) == ["Pub"]
    assert not t.last_round


def test_short_stack_places_what_it_has_and_ends_the_game() -> None:
    """SP-REFILL-2, SP-END-2: a stack with too few cards places them all; the rest stays empty; the game ends
    after this round -- also when the stack was already empty."""
    s = at(2, stacks={"building": ["Hospital", "Library"]})
    t = pass_all(s)
    assert n(t, t.upper) == ["Hospital", "Library"] and t.stacks[1] == () and t.last_round
    s2 = at(2, stacks={"building": []})
    t2 = pass_all(s2)
    assert t2.upper == () and t2.last_round


def test_end_of_round_rows_workers_and_markers() -> None:
    """SP-ROUND-1, SP-ROUND-2, SP-ROUND-3: the lower row is discarded, the upper row moves down, workers fill
    the upper row to 8, markers pass one seat, and the next round starts with its worker marker holder."""
    s = at(
        3,
        phase="trading",
        upper=["Bank", "Lumberjack"],
        lower=["Market", "Author"],
        markers=(0, 1, 2, 2),
        turned={0: []},
    )
    top = n(s, s.stacks[0][:6])
    t = pass_all(s)
    assert n(t, t.discard[-2:]) == ["Market", "Author"]
    assert n(t, t.lower) == ["Bank", "Lumberjack"]
    assert n(t, t.upper) == top
    assert t.markers == (1, 2, 0, 0) and (t.round, t.phase_index, t.turn) == (2, 0, 1)


# ============================================================ end of game


def test_last_card_placed_ends_the_game_after_the_trading_phase() -> None:
    """SP-END-1: when a refill places a stack's last card, the round is played to its trading phase and then
    the final scoring ends the game."""
    s = at(
        2,
        upper=["Lumberjack"],
        lower=["Lumberjack", "Lumberjack"],
        stacks={"building": ["Market", "Market", "Hospital", "Library", "Theater"]},
    )
    s = pass_all(s)
    assert s.last_round and s.stacks[1] == () and not s.over
    s = pass_all(s)  # building
    s = pass_all(s)  # aristocrat
    assert not s.over and s.phase_index == 3
    s = pass_all(s)  # trading
    assert s.over and GAME.to_act(s) == ()


@pytest.mark.parametrize("workers", [["Lumberjack"] * 3, ["Lumberjack"] * 6])
def test_worker_stack_emptied_at_round_end_makes_next_round_last(workers: list[str]) -> None:
    """SP-END-3: the round-end worker refill that empties (or cannot fill from) the worker stack makes the
    next round the last one; the game ends after that round's trading phase."""
    s = at(2, phase="trading", upper=["Market", "Market"], stacks={"worker": workers})
    s = pass_all(s)
    assert s.last_round and not s.over and (s.round, s.phase_index) == (2, 0)
    for _ in range(3):
        s = pass_all(s)
        assert not s.over
    s = pass_all(s)
    assert s.over


def test_final_scoring() -> None:
    """SP-END-4, SP-END-6, SP-END-7: distinct aristocrats (a red trading card counts, duplicates once), 1 VP
    per full 10 roubles, -5 per card in hand."""
    s = at(
        2,
        phase="trading",
        last_round=True,
        areas={0: ["Author", "Author", "Administrator", "Pope"]},
        hands={0: ["Market", "Lumberjack"]},
        money={0: 39, 1: 9},
        vp={0: 20, 1: 5},
    )
    assert final_breakdown(s, 0) == {
        "distinct_uncapped": 3,
        "distinct_capped": 3,
        "variety": 6,
        "money": 3,
        "hand": -10,
        "total": -1,
    }
    t = pass_all(s)
    assert t.over and t.vp == (19, 5) and t.money == (39, 9)


def test_variety_bonus_caps_at_ten() -> None:
    """SP-END-5: more than 10 different aristocrats score as 10 (55 VP)."""
    eleven = [
        "Author",
        "Administrator",
        "Warehouse Manager",
        "Secretary",
        "Controller",
        "Judge",
        "Mistress of Ceremonies",
        "Pope",
        "Weapon Master",
        "Chamber Maid",
        "Builder",
    ]
    s = at(2, areas={0: eleven})
    assert final_breakdown(s, 0)["variety"] == 55


def test_most_vp_wins_then_roubles() -> None:
    """SP-END-8, SP-GAME-2: most VP wins; on equal VP the player with more roubles wins."""
    s = at(3, phase="over", last_round=True, vp={0: 30, 1: 30, 2: 12}, money={0: 4, 1: 9, 2: 50})
    r = GAME.result(s)
    assert (
        r.winners == (1,) and r.ranking == (1, 0, 2) and r.scores == (30, 30, 12) and r.tiebreak == (4, 9, 50)
    )


def test_full_tie_is_shared() -> None:
    """SP-END-9: players equal on VP and roubles share the win."""
    s = at(2, phase="over", last_round=True, vp={0: 30, 1: 30}, money={0: 4, 1: 4})
    assert GAME.result(s).winners == (0, 1)
    with pytest.raises(IllegalAction):
        GAME.result(s._replace(over=False))


# ============================================================ special cards


def building_phase_with_observatory(**kw: Any) -> State:
    kw.setdefault("areas", {0: ["Observatory"]})
    kw.setdefault("stacks", {"trading": ["Czar", "Bank", "Wharf"]})
    return at(2, phase="building", **kw)


def test_observatory_draws_the_top_card() -> None:
    """SP-OBS-1: in the building phase the owner turns the Observatory and draws the top card of a stack; the
    same player then decides."""
    s = building_phase_with_observatory()
    assert Observe(0, "trading") in GAME.legal_actions(s, 0)
    t = GAME.apply(s, Observe(0, "trading"))
    assert n(t, (t.drawn,)) == ["Czar"] and n(t, t.stacks[3]) == ["Bank", "Wharf"]
    assert GAME.to_act(t) == (0,) and n(t, t.turned[0]) == ["Observatory"]
    assert card_count(t) == card_count(s)
    rejects(s._replace(areas=((), ())), Observe(0, "trading"), "SP-OBS-1")


def test_observatory_only_in_the_building_phase() -> None:
    """SP-OBS-2: outside the building phase the Observatory cannot be used."""
    s = building_phase_with_observatory()._replace(phase_index=2)
    rejects(s, Observe(0, "trading"), "SP-OBS-2")
    assert not any(isinstance(a, Observe) for a in GAME.legal_actions(s, 0))


def test_observatory_never_draws_a_stacks_last_card() -> None:
    """SP-OBS-3: a stack with one card cannot be drawn from."""
    s = building_phase_with_observatory(stacks={"trading": ["Czar"]})
    rejects(s, Observe(0, "trading"), "SP-OBS-3")
    assert Observe(0, "trading") not in GAME.legal_actions(s, 0)


def test_observatory_card_is_bought_taken_or_discarded() -> None:
    """SP-OBS-4: the drawn card is bought (no lower-row reduction), taken into hand or discarded; nothing else
    is allowed meanwhile."""
    s = GAME.apply(
        building_phase_with_observatory(stacks={"building": ["Market", "Pub", "Pub"]}, upper=["Lumberjack"]),
        Observe(0, "building"),
    )
    assert {type(a) for a in GAME.legal_actions(s, 0)} == {Buy, Take, Discard}
    rejects(s, Pass(0), "SP-OBS-4")
    rejects(s, Buy(0, "Lumberjack"), "SP-OBS-4")
    rejects(s, Discard(0, "Pub"), "SP-OBS-4")
    bought = GAME.apply(s, Buy(0, "Market", "drawn"))
    assert bought.money[0] == 20 and bought.drawn == -1 and bought.turn == 1
    taken = GAME.apply(s, Take(0, "Market", "drawn"))
    assert n(taken, taken.hands[0]) == ["Market"]
    dropped = GAME.apply(s, Discard(0, "Market"))
    assert dropped.discard[-1] == s.drawn and dropped.drawn == -1
    rejects(bought._replace(turn=0), Discard(0, "Market"), "SP-TURN-1")  # no draw: not a turn


def test_turned_observatory_scores_nothing_cannot_be_displaced_and_turns_back() -> None:
    """SP-OBS-5: a turned Observatory scores no VP at building scoring, cannot be displaced while turned, and
    is ready again next round; once per round."""
    s = building_phase_with_observatory(
        areas={0: ["Observatory", "Market"]}, upper=["Hermitage"], money={0: 40}
    )
    s = GAME.apply(s, Observe(0, "trading"))
    s = GAME.apply(s, Discard(0, "Czar"))
    s = s._replace(turn=0)
    rejects(s, Buy(0, "Hermitage", displace="Observatory"), "SP-OBS-5")
    rejects(s, Observe(0, "trading"), "SP-OBS-5")
    assert Buy(0, "Hermitage", "upper", "Market") in GAME.legal_actions(s, 0)
    t = pass_all(s)
    assert t.vp[0] == 1  # the Market only
    while t.round == 1:
        t = pass_all(t)
    assert t.turned[0] == ()


def test_observatory_card_that_cannot_be_used_is_discarded() -> None:
    """SP-OBS-6: a drawn card that cannot be afforded nor taken (hand full) can only be discarded."""
    s = building_phase_with_observatory(money={0: 2}, hands={0: ["Author", "Author", "Author"]})
    s = GAME.apply(s, Observe(0, "trading"))
    assert GAME.legal_actions(s, 0) == (Discard(0, "Czar"),)
    rejects(s, Buy(0, "Czar", "drawn", "Author"), "SP-TRADE-1")
    rejects(s, Take(0, "Czar", "drawn"), "SP-HAND-2")


def test_pub_buys_vp_after_building_scoring() -> None:
    """SP-PUB-1: right after building scoring a Pub owner may buy VP at 2 roubles each, up to 5 per Pub."""
    s = at(2, phase="building", areas={0: ["Pub"]}, money={0: 30})
    s = pass_all(s)
    assert GAME.to_act(s) == (0,) and s.phase_index == 1
    assert [a.vp for a in GAME.legal_actions(s, 0)] == [0, 1, 2, 3, 4, 5]
    rejects(s, PubBuy(0, 6), "SP-PUB-1")
    t = GAME.apply(s, PubBuy(0, 3))
    assert (t.money[0], t.vp[0], t.phase_index) == (24, 3, 2)
    two = pass_all(at(2, phase="building", areas={0: ["Pub", "Pub"]}, money={0: 15}))
    assert max(a.vp for a in GAME.legal_actions(two, 0)) == 7
    rejects(at(2), PubBuy(0, 1), "SP-PUB-1")


def test_pub_decisions_in_turn_order_skipping_those_who_cannot_pay() -> None:
    """SP-PUB-2: Pub decisions start with the building-phase marker holder and go in seat order; owners who
    cannot afford 1 VP are skipped; others may not act meanwhile."""
    s = at(
        3,
        phase="building",
        areas={0: ["Pub"], 1: ["Pub"], 2: ["Market"]},
        money={0: 8, 1: 8, 2: 8},
        markers=(0, 1, 2, 0),
    )
    q = pass_all(s)
    assert q.pub_queue == (1, 0)
    rejects(q, PubBuy(0, 1), "SP-PUB-2", NotYourTurn)
    rejects(q, Pass(1), "SP-PUB-2")
    q = GAME.apply(q, PubBuy(1, 0))
    assert q.pub_queue == (0,) and q.vp[1] == 0
    skip = pass_all(arrange(s, money={0: 1, 1: 8}))
    assert skip.pub_queue == (1,)


def test_mariinskij_pays_per_red_card_at_building_scoring() -> None:
    """SP-MARI-1: the Mariinskij Theater pays 1 rouble per red card (aristocrats and red trading cards)."""
    s = at(2, phase="building", areas={0: ["Mariinskij Theater", "Author", "Author", "Pope"]}, money={0: 0})
    assert pass_all(s).money[0] == 3


def test_mariinsky_pays_vp_in_the_second_edition() -> None:
    """SP-MARI-2, SP-EDITION-1: in the second edition the Mariinsky Theater costs 15 and pays 1 VP per red
    card."""
    s = at(
        2,
        variant="second",
        phase="building",
        areas={0: ["Mariinsky Theater", "Author", "Abbot"]},
        money={0: 0},
    )
    t = pass_all(s)
    assert (t.money[0], t.vp[0]) == (0, 2)
    assert s.rules.cost[s.rules.kind["Mariinsky Theater"]] == 15


def test_tax_man_pays_per_green_card_at_aristocrat_scoring() -> None:
    """SP-TAX-1: the Tax Man pays 1 rouble per green card (workers and green trading cards)."""
    s = at(2, phase="aristocrat", areas={0: ["Tax Man", "Lumberjack", "Lumberjack", "Wharf"]}, money={0: 0})
    assert pass_all(s).money[0] == 3


def test_second_edition_costs_and_names_in_play() -> None:
    """SP-EDITION-1, SP-VARIANT-1: second-edition costs apply (Observatory 7, Judge 17, Mistress 20) and the
    cards carry their new names."""
    s = at(2, variant="second", upper=["Observatory", "Judge", "Mistress of Ceremonies"], money={0: 40})
    costs = {
        a.card: cost_breakdown(s, 0, a.card, source="upper").cost
        for a in GAME.legal_actions(s, 0)
        if isinstance(a, Take)
    }
    assert costs == {"Observatory": 7, "Judge": 17, "Mistress of Ceremonies": 20}
    assert s.rules.cost[s.rules.kind["Czarina"]] == 24
    assert "Czar & Carpenter" in s.rules.names and "Potemkin Village" in s.rules.names


def test_effect_handlers_drive_special_cards() -> None:
    """SP-EFFECT-1: the special cards act through their effect tables, not their names: giving the Warehouse's
    hand_limit to a plain card in a compiled ruleset changes that card's behaviour."""
    s = at(2, areas={0: ["Market"]})
    rs = s.rules
    assert rs.hand_limit[rs.kind["Warehouse"]] == 4 and rs.hand_limit[rs.kind["Market"]] == 0
    assert rs.dval[rs.kind["Potjomkin's Village"]] == 6
    assert [rs.names[r] for r, _ in rs.reducers_for[rs.kind["Market"]]] == ["Carpenter Workshop"]
    assert [rs.names[k] for k in rs.observatory_kinds] == ["Observatory"]
    assert [rs.names[k] for k in rs.pub_kinds] == ["Pub"]
    assert STACKS == ("worker", "building", "aristocrat", "trading")
