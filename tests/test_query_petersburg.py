"""Saint Petersburg answers agree with the engine: costs (SP-COST-1..7, SP-POTJ-1, SP-BUY-2) equal what the
engine charges, displacement (SP-TRADE-1..5) equals ``can_displace``, the variety bonus (SP-END-4, SP-END-5)
and the final scoring (SP-END-6, SP-END-7) equal the engine's, and every card name resolves."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.query.adapters import card_names
from engine.query.petersburg_questions import kind_of, seat_position
from engine.query.questions import ask

catalog: Any = importlib.import_module("engine.petersburg")
core: Any = importlib.import_module("engine.petersburg")
RS = catalog.ruleset("first")
NAMES = sorted(RS.kind)
PLAIN = [n for n in NAMES if not RS.is_trading[RS.kind[n]]]
TRADING = [n for n in NAMES if RS.is_trading[RS.kind[n]]]
SRC = {"upper": 0, "lower": 1, "drawn": 2, "hand": 3}


@settings(max_examples=settings().max_examples * 5, deadline=None)
@given(
    card=st.sampled_from(NAMES),
    owns=st.lists(st.sampled_from(NAMES), max_size=8),
    row=st.sampled_from(["upper", "lower", "hand", "drawn"]),
    money=st.integers(0, 40),
    discount=st.booleans(),
    data=st.data(),
)
def test_cost_answer_is_what_the_engine_charges(
    *, card: str, owns: list[str], row: str, money: int, discount: bool, data: st.DataObject
) -> None:
    """For random buyers, ``ask cost`` equals the engine's charged cost (``fast_cost``) and its derivation
    (``cost_breakdown``); a trading card is asked with a target it may displace (SP-COST-7), both readings
    of the SP-COST-5 ruling included."""
    rs = catalog.ruleset("first", {"trading_discount": discount})
    k = rs.kind[card]
    displace = None
    target = -1
    if rs.is_trading[k]:
        target = data.draw(st.sampled_from(rs.targets_of[k]))
        displace = rs.names[target]
        if displace not in owns:
            owns = [*owns, displace]
    assume(all(owns.count(n) <= rs.cards[rs.kind[n]].copies for n in owns))  # a reachable area
    answer = ask(
        "cost",
        {
            "card": card,
            "owns": owns,
            "row": row,
            "displace": displace,
            "money": money,
            "option": [f"trading_discount={str(discount).lower()}"],
        },
    )
    area = tuple(sorted(rs.kind[n] for n in owns))
    charged = core.fast_cost(rs, area, k, SRC[row], target)
    assert answer.value["cost"] == charged
    assert answer.value["cost"] >= 1
    assert answer.value["affordable"] == (charged <= money)
    b = core.cost_breakdown(seat_position(rs, owns, money), 0, card, source=row, displace=displace)
    assert answer.value["reductions"] == [[r.amount, r.clause] for r in b.reductions]
    assert {r.clause for r in b.reductions} <= set(answer.clauses)
    assert "SP-COST-1" in answer.clauses and "SP-COST-6" in answer.clauses


def test_displace_answer_is_can_displace_for_every_pair() -> None:
    """For every trading card and every card, the answer and its clause are ``can_displace``'s."""
    for trading in TRADING:
        for target in NAMES:
            ok, clause, _reason = core.can_displace(trading, target)
            answer = ask("displace", {"trading": trading, "target": target})
            assert answer.value is ok
            assert answer.clauses[0] == clause


def test_bonus_answer_is_the_variety_table() -> None:
    """n distinct aristocrats score n(n+1)/2 (SP-END-4), 55 from 10 on (SP-END-5)."""
    for n in range(0, 16):
        answer = ask("bonus", {"distinct": n})
        assert answer.value == catalog.variety_bonus(n) == min(n, 10) * (min(n, 10) + 1) // 2
        assert ("SP-END-5" in answer.clauses) == (n >= 10)  # the table row for 10 cites it


@settings(max_examples=settings().max_examples * 2, deadline=None)
@given(
    owns=st.lists(st.sampled_from(NAMES), max_size=14),
    money=st.integers(0, 120),
    hand=st.lists(st.sampled_from(PLAIN), max_size=4),
)
def test_final_answer_is_the_engine_final_breakdown(owns: list[str], money: int, hand: list[str]) -> None:
    """The final-scoring answer equals the engine's ``final_breakdown`` (SP-END-4, SP-END-6, SP-END-7)."""
    both = owns + hand
    assume(all(both.count(n) <= RS.cards[RS.kind[n]].copies for n in both))  # a reachable player:
    assume(len(hand) <= 3 or "Warehouse" in owns or "Warehouse" not in hand)  # 4 cards need a Warehouse lost
    answer = ask("final", {"owns": owns, "money": money, "hand": hand})
    assert answer.value == core.final_breakdown(seat_position(RS, owns, money, hand), 0)


def test_every_name_in_the_names_table_resolves_to_its_card() -> None:
    """Each English, German and Russian name and alias of the names table finds its card, both in the
    search index and in the engine's resolver (so ``ask cost "Zar Peter"`` works)."""
    entries = card_names("petersburg")
    assert len(entries) == len({c.key for c in RS.cards})
    for entry in entries:
        for _lang, name in entry.names:
            assert (
                RS.names[kind_of(RS, name, "card")] == entry.key
                or RS.cards[kind_of(RS, name, "card")].key == entry.key
            )


def test_hand_limit_and_pub_come_from_the_engine() -> None:
    """The hand limit is 3, 4 with a Warehouse (SP-HAND-2, SP-WAREHOUSE-1); the Pub sells up to 5 VP per
    Pub at 2 roubles each (SP-PUB-1) — the engine's ``hand_limit`` and ``pub_capacity``."""
    assert ask("handlimit", {}).value == 3
    assert ask("handlimit", {"owns": ["Warehouse"]}).value == 4
    for money in range(0, 25):
        for pubs in range(0, 3):
            area = tuple(sorted([RS.kind["Pub"]] * pubs))
            expected = core.pub_capacity(RS, area, money)
            assert ask("pub", {"money": money, "owns": ["Pub"] * pubs}).value == expected


def test_an_area_the_game_cannot_hold_is_refused() -> None:
    """SP-CARD-5: the game has one Academy, so a buyer owning two is refused with the parameter named."""
    with pytest.raises(InputError, match=r"^owns: one Academy too many"):
        ask("cost", {"card": "Market", "owns": ["Academy", "Academy"]})


def test_cost_and_final_read_a_position() -> None:
    """SP-COST-2, SP-END-4, SP-WAREHOUSE-1: with --position the seat's own area, roubles and hand are
    used."""
    text = "first 3 building 0 0 0/1/0/1 Market - - - 12:4:Bank:Market*2,Author,Judge:- 30:2:-:GoldMiner:-"
    cost = ask("cost", {"card": "Market", "position": text})
    assert (cost.value["seat"], cost.value["cost"], cost.value["affordable"]) == (0, 3, True)
    final = ask("final", {"position": text, "seat": 0})
    assert (final.value["distinct_uncapped"], final.value["hand"]) == (2, -5)
    assert ask("handlimit", {"position": text.replace("GoldMiner", "Warehouse"), "seat": 1}).value == 4


@pytest.mark.parametrize(("edition", "pays", "own", "other"), [
    ("first", "1 R per red card", "SP-MARI-1", "SP-MARI-2"),
    ("second", "1 VP per red card", "SP-MARI-2", "SP-MARI-1"),
])
def test_card_summary_states_its_own_scoring_per_edition(
    edition: str, pays: str, own: str, other: str
) -> None:
    """SP-MARI-1, SP-MARI-2, SP-SCORE-2: the Mariinskij Theater's summary states its own scoring in each
    edition (+1 R per red card in the first, +1 VP in the second), cites its own clause and the building
    scoring, and no other card's rule (not the Tax Man's, not the other edition's)."""
    from engine.query.cli import answer_for_command

    a = answer_for_command(f'arbiter ask card "Mariinskij Theater" --variant {edition}')
    assert pays in a.summary and "building scoring" in a.summary and "income none" not in a.summary
    assert a.clauses[:2] == (own, "SP-SCORE-2")
    assert other not in a.clauses and "SP-TAX-1" not in a.clauses


def test_card_summary_states_an_effect_and_no_scoring() -> None:
    """SP-PUB-1, SP-WAREHOUSE-1, SP-COST-4: cards without income say they score nothing and what their
    effect does."""
    from engine.query.cli import answer_for_command

    pub = answer_for_command("arbiter ask card Pub")
    assert "scores nothing at the building scoring" in pub.summary
    assert "up to 5 VP at 2 roubles" in pub.summary
    smelter = answer_for_command('arbiter ask card "Gold Smelter"')
    assert "3 R at the worker scoring" in smelter.summary
    assert "1 rouble less for every red card" in smelter.summary
