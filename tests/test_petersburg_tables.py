"""Saint Petersburg data tables: the catalog against the reference facts, editions, pairings, variety,
set-up, phases, names, and the load-time checks of the effect registry."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.errors import SpecError
from engine.petersburg import (
    CARDS,
    HANDLERS,
    can_displace,
    card_names,
    catalog,
    resolve_card,
    ruleset,
    variety_bonus,
)
from engine.petersburg.catalog import GAME_META, OPTIONS, PHASES, SETUPS, STACKS, VARIANTS
from engine.petersburg.effects import EffectTables, compile_effect
from engine.spec import check_rows, load_clauses, seed_document

REF = seed_document("ref")


def ref_rows(heading: str) -> Iterator[list[str]]:
    """The body rows of the first markdown table after ``heading`` in the reference facts."""
    text = REF[REF.index(heading) :]
    started = False
    for line in text.splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set("".join(cells)) <= {"-", " "} or cells[0] == "Card":
                started = True
                continue
            yield cells
        elif started:
            return


def income(text: str) -> tuple[int, int]:
    """(roubles, VP) from a reference income cell such as '4 R + 1 VP'."""
    r = re.search(r"(\d+) R(?! per)", text)
    v = re.search(r"(\d+) VP(?! per)", text)
    if text.startswith("+"):
        return 0, 0
    return (int(r.group(1)) if r else 0, int(v.group(1)) if v else 0)


def by_name() -> dict[str, Any]:
    return {c.key: c for c in CARDS}


@pytest.mark.parametrize(
    ("heading", "stack", "count", "clause"),
    [
        ("## Workers (green)", "worker", 31, "SP-CARD-1"),
        ("## Buildings (blue)", "building", 28, "SP-CARD-2"),
        ("## Aristocrats (red/orange)", "aristocrat", 27, "SP-CARD-3"),
    ],
)
def test_catalog_matches_the_reference_tables(heading: str, stack: str, count: int, clause: str) -> None:
    """SP-CARD-1, SP-CARD-2, SP-CARD-3: every card row of the reference facts has the same cost, income and
    copies in the catalog; the stack has exactly the stated number of cards."""
    cards = by_name()
    seen = 0
    for cells in ref_rows(heading):
        name, cost, inc, copies = cells[0], int(cells[1]), cells[2], int(cells[3])
        card = cards[name]
        assert (card.stack, card.cost, card.copies) == (stack, cost, copies), name
        if inc != "—":
            assert (card.roubles, card.vp) == income(inc), name
        else:
            assert (card.roubles, card.vp) == (0, 0), name
        seen += copies
    assert seen == count == sum(c.copies for c in CARDS if c.stack == stack)
    assert load_clauses("petersburg")[clause]


def test_trading_cards_match_the_reference_tables() -> None:
    """SP-CARD-4: 30 trading cards, 10 per colour; costs and incomes as in the reference facts; the green ones
    displace the named worker (SP-TRADE-3)."""
    cards = by_name()
    green = list(ref_rows("Green trading cards displace"))
    blue = list(ref_rows("Blue trading cards displace"))
    red = list(ref_rows("Red trading cards displace"))
    for cells in green:
        card = cards[cells[0]]
        assert (card.stack, card.colour, card.cost, card.copies) == (
            "trading",
            "green",
            int(cells[1]),
            int(cells[3]),
        )
        assert (card.roubles, card.vp) == income(cells[2])
        assert can_displace(cells[0], cells[4])[0]
    for rows, colour in ((blue, "blue"), (red, "red")):
        for cells in rows:
            card = cards[cells[0]]
            assert (card.stack, card.colour, card.cost, card.copies) == ("trading", colour, int(cells[1]), 1)
            assert (card.roubles, card.vp) == income(cells[2]), cells[0]
    for colour in ("green", "blue", "red"):
        assert sum(c.copies for c in CARDS if c.trading and c.colour == colour) == 10


def test_catalog_totals_116_cards() -> None:
    """SP-CARD-5: 116 cards in four stacks; every card has a cost and an income or an effect."""
    assert sum(c.copies for c in CARDS) == 116
    assert [sum(c.copies for c in CARDS if c.stack == s) for s in STACKS] == [31, 28, 27, 30]
    for c in CARDS:
        assert c.cost >= 1
        assert c.roubles or c.vp or c.effect, c.key


def test_every_effect_kind_has_exactly_one_handler() -> None:
    """SP-EFFECT-1: each special card names an effect kind from the registry; every handler is used by a card
    of the catalog (no orphan handler), and the eight special cards carry effects."""
    used = {c.effect for c in CARDS if c.effect}
    assert used == set(HANDLERS)
    special = {c.key for c in CARDS if c.effect}
    assert special == {
        "Potjomkin's Village",
        "Pub",
        "Warehouse",
        "Observatory",
        "Carpenter Workshop",
        "Gold Smelter",
        "Mariinskij Theater",
        "Tax Man",
    }


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        ({"kind": "teleport"}, "unknown effect kind 'teleport'"),
        ({"kind": "pub", "roubles_per_vp": 2}, "needs parameter 'max_vp'"),
        ({"kind": "hand_limit", "limit": 4, "colour": "red"}, "has no parameter 'colour'"),
        ({"kind": "cost_reduction", "colour": "purple", "amount": 1}, "parameter 'colour' must be one of"),
        ({"kind": "displace_value", "value": "six"}, "parameter 'value' must be int"),
        ({"kind": "observatory", "phase": "lunch"}, "parameter 'phase' must be one of"),
        ({"value": 6}, "needs a string 'kind'"),
    ],
)
def test_effect_parameters_are_checked_at_load(effect: dict[str, Any], message: str) -> None:
    """SP-EFFECT-1: an unknown effect kind, a missing, unknown or ill-typed parameter fails with a SpecError
    naming the table, the row and the field."""
    tables = EffectTables.empty(1, costs=(1,))
    with pytest.raises(SpecError) as info:
        compile_effect(tables, "petersburg/cards.toml", "Pub", 0, effect)
    text = str(info.value)
    assert text.startswith("petersburg/cards.toml row 'Pub': field 'effect'")
    assert message in text


def test_card_rows_reject_unknown_and_missing_fields() -> None:
    """SP-CARD-5: the card schema rejects an unknown field and a missing cost (checked by check_rows)."""
    from engine.petersburg.catalog import _CARD_FIELDS

    row = {"name": "X", "stack": "worker", "colour": "green", "cost": 3, "copies": 1, "clause": "SP-CARD-1"}
    assert check_rows("cards", [row], _CARD_FIELDS)
    with pytest.raises(SpecError, match="unknown field 'price'"):
        check_rows("cards", [{**row, "price": 2}], _CARD_FIELDS)
    with pytest.raises(SpecError, match="missing field 'cost'"):
        check_rows("cards", [{k: v for k, v in row.items() if k != "cost"}], _CARD_FIELDS)
    with pytest.raises(SpecError, match="unknown clause"):
        check_rows("cards", [{**row, "clause": "SP-" + "NOPE-1"}], _CARD_FIELDS, clause_ids={"SP-CARD-1"})


def test_second_edition_delta() -> None:
    """SP-EDITION-1, SP-MARI-2, SP-VARIANT-1: the second edition changes three costs, renames five cards and
    makes the Mariinsky pay VP; every other card is as in the first edition; copy counts are unchanged."""
    first, second = catalog("first"), catalog("second")
    changed = {
        a.key: (b.name, b.cost)
        for a, b in zip(first, second, strict=True)
        if (a.name, a.cost, a.params) != (b.name, b.cost, b.params)
    }
    assert changed == {
        "Observatory": ("Observatory", 7),
        "Judge": ("Judge", 17),
        "Mistress of Ceremonies": ("Mistress of Ceremonies", 20),
        "Mariinskij Theater": ("Mariinsky Theater", 15),
        "Pope": ("Abbot", 6),
        "Czar": ("Czarina", 24),
        "Potjomkin's Village": ("Potemkin Village", 2),
        "Czar and Carpenter": ("Czar & Carpenter", 8),
    }
    assert [c.copies for c in first] == [c.copies for c in second]
    mari = next(c for c in second if c.key == "Mariinskij Theater")
    assert dict(mari.params) == {"count_colour": "red", "roubles": 0, "vp": 1}
    assert tuple(VARIANTS) == ("first", "second") and GAME_META["default_variant"] == "first"


def test_pairings_and_colour_rules() -> None:
    """SP-TRADE-2, SP-TRADE-3, SP-TRADE-4, SP-TRADE-5: the pairing table and colour rules give each trading
    card its targets."""
    rs = ruleset()

    def targets(name: str) -> set[str]:
        return {rs.names[t] for t in rs.targets_of[rs.kind[name]]}

    assert targets("Carpenter Workshop") == {"Lumberjack", "Czar and Carpenter"}
    assert targets("Gold Smelter") == {"Gold Miner", "Czar and Carpenter"}
    assert targets("Weaving Mill") == {"Shepherd", "Czar and Carpenter"}
    assert targets("Fur Shop") == {"Fur Trapper", "Czar and Carpenter"}
    assert targets("Wharf") == {"Ship Builder", "Czar and Carpenter"}
    assert targets("Bank") == {c.key for c in CARDS if c.stack == "building"}
    assert targets("Czar") == {c.key for c in CARDS if c.stack == "aristocrat"}
    for c in CARDS:
        for t in rs.targets_of[c.index]:
            assert not rs.is_trading[t]


def test_variety_table() -> None:
    """SP-END-4, SP-END-5: n different aristocrats score n(n+1)/2, capped at 10 (55)."""
    assert [variety_bonus(n) for n in range(11)] == [n * (n + 1) // 2 for n in range(11)]
    assert variety_bonus(10) == variety_bonus(17) == 55


def test_setup_table() -> None:
    """SP-SETUP-2, SP-SETUP-3, SP-SETUP-4, SP-SOLO-1, SP-GAME-1: 25 roubles; 2 workers per player; markers 4 /
    2+2 / 2+1+1 / 1+1+1+1; player counts 1..4."""
    assert (
        sorted(SETUPS) == [1, 2, 3, 4] == list(range(GAME_META["min_players"], GAME_META["max_players"] + 1))
    )
    for n, spec in SETUPS.items():
        assert spec.money == 25
        assert spec.first_workers == 2 * n
        assert sum(spec.markers) == 4
    assert SETUPS[3].markers == (2, 1, 1) and SETUPS[1].markers == (4,)


def test_phase_table() -> None:
    """SP-PHASE-1, SP-SCORE-1, SP-SCORE-2, SP-SCORE-3, SP-SCORE-5, SP-REFILL-1, SP-ROUND-2: worker, building,
    aristocrat, trading; scoring green, blue, red, none; each refills from the next stack (workers after
    the round end)."""
    assert [p.name for p in PHASES] == ["worker", "building", "aristocrat", "trading"]
    assert [p.scores for p in PHASES] == [0, 1, 2, -1]
    assert [STACKS[p.refill] for p in PHASES] == ["building", "aristocrat", "trading", "worker"]
    assert [p.round_end for p in PHASES] == [False, False, False, True]


def test_options_table() -> None:
    """SP-COST-5, SP-END-6, SP-VARIANT-2: each option switches a ruling (the trading-card reduction, the
    roubles kept after the final scoring), both default on."""
    assert set(OPTIONS) == {"trading_discount", "keep_roubles"}
    assert OPTIONS["trading_discount"].default is True
    assert OPTIONS["trading_discount"].clause == "SP-COST-5"
    assert OPTIONS["keep_roubles"].default is True
    assert OPTIONS["keep_roubles"].clause == "SP-END-6"


def test_names_table() -> None:
    """SP-TRADE-4, SP-POTJ-1, SP-PUB-1, SP-WAREHOUSE-1, SP-OBS-1, SP-COST-4: every card has English, German
    and Russian names; the German names of seed 001 resolve to the right cards; the seed's own spellings
    appear verbatim in seed 001."""
    names = card_names()
    assert set(names) == {c.key for c in CARDS}
    expect = {
        "Zar Peter": "Czar and Carpenter",
        "Schreinerei": "Carpenter Workshop",
        "Goldschmiede": "Gold Smelter",
        "Schenke": "Pub",
        "Lagerhaus": "Warehouse",
        "Sternwarte": "Observatory",
        "potemkinsches Dorf": "Potjomkin's Village",
        "Царь-плотник": "Czar and Carpenter",
        "Аббат": "Pope",
        "Czarina": "Czar",
    }
    for alias, key in expect.items():
        k = resolve_card(alias)
        assert k is not None and CARDS[k].key == key, alias
    seed = seed_document("001")
    for n in names.values():
        assert n.en and n.de and n.ru
        for term in n.seed_terms:
            assert term in seed, term
