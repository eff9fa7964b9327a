"""6 nimmt! tables: the deck, the bullhead rules, set-up, end, variants, options and metadata as data."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import engine.take6.rules as rules_module
from engine.errors import IllegalSetup, SpecError
from engine.spec import Field, Tables, check_rows, load_clauses, load_table
from engine.take6 import BULLHEADS, GAME, OPTIONS, VARIANTS, bullheads, deal_order, derived_seed, rules_for
from engine.take6.rules import GAME_INFO

SHIPPED_TABLES = Tables.shipped("take6")


def test_full_deck_is_1_to_104() -> None:
    """T6-DECK-1: the deck has 104 cards, 1 to 104, each once."""
    deck = rules_for("standard", 4).deck
    assert deck == tuple(range(1, 105))
    assert len(set(deck)) == 104


@pytest.mark.parametrize(
    ("clause", "cards", "heads"),
    [
        ("T6-BULL-1", [55], 7),
        ("T6-BULL-2", [11, 22, 33, 44, 66, 77, 88, 99], 5),
        ("T6-BULL-3", [10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 3),
        ("T6-BULL-4", [5, 15, 25, 35, 45, 65, 75, 85, 95], 2),
    ],
)
def test_bullhead_classes(clause: str, cards: list[int], heads: int) -> None:
    """T6-BULL-1 (55 -> 7), T6-BULL-2 (other multiples of 11 -> 5), T6-BULL-3 (multiples of 10 -> 3),
    T6-BULL-4 (other multiples of 5 -> 2): exactly these cards carry that many bullheads."""
    assert [bullheads(c) for c in cards] == [heads] * len(cards)
    assert sorted(c for c in range(1, 105) if bullheads(c) == heads) == cards, clause


def test_every_other_card_has_one_bullhead() -> None:
    """T6-BULL-5: the 76 remaining cards carry 1 bullhead (e.g. 1, 29, 104)."""
    ones = [c for c in range(1, 105) if bullheads(c) == 1]
    assert len(ones) == 76
    assert {1, 29, 104} <= set(ones)


def test_ordered_rules_give_the_seed_counts_and_171() -> None:
    """T6-BULL-6: applied in order, the rules give 1/8/10/9/76 cards and 171 bullheads in all."""
    counts = {h: sum(1 for c in range(1, 105) if BULLHEADS[c] == h) for h in (7, 5, 3, 2, 1)}
    assert counts == {7: 1, 5: 8, 3: 10, 2: 9, 1: 76}
    assert sum(BULLHEADS[1:]) == 171


def test_variants_table_lists_the_six_variants() -> None:
    """T6-VAR-1: the variants are standard (default), tactics, logic, professional, kids, countdown."""
    assert GAME.variants == ("standard", "tactics", "logic", "professional", "kids", "countdown")
    assert GAME.variants == tuple(VARIANTS)
    with pytest.raises(IllegalSetup) as info:
        GAME.new_game(4, variant="expert")
    assert info.value.clause == "T6-VAR-1"


def test_player_range_2_to_10() -> None:
    """T6-SETUP-1: 2 to 10 players; other counts are refused naming the clause."""
    assert (GAME.min_players, GAME.max_players) == (2, 10)
    for bad in (1, 11, 0):
        with pytest.raises(IllegalSetup) as info:
            GAME.new_game(bad)
        assert info.value.clause == "T6-SETUP-1"
    with pytest.raises(IllegalSetup):
        GAME.new_game(True)


def test_standard_setup_numbers_come_from_the_table() -> None:
    """T6-SETUP-2 and T6-SETUP-3: 10 cards per hand, 4 rows of one card; T6-PLACE-2: capacity 5."""
    r = rules_for("standard", 5)
    assert (r.hand_size, r.rows, r.capacity) == (10, 4, 5)
    s = GAME.new_game(5, seed=2)
    assert [len(h) for h in s.hands] == [10] * 5
    assert [len(row) for row in s.rows] == [1] * 4


def test_end_table_66_lowest_wins() -> None:
    """T6-END-1 and T6-END-2: the standard end is a 66 threshold, lowest total winning."""
    r = rules_for("standard", 3)
    assert (r.end, r.threshold, r.winner) == ("threshold", 66, "lowest")


def test_options_are_checked() -> None:
    """T6-LOGIC-3, T6-PRO-3, T6-KIDS-5: each ruling's alternative is an option with checked values; an
    option of another variant or an unknown option is refused."""
    assert set(OPTIONS) == {"logic_start", "professional_tie", "kids_piles"}
    assert rules_for("logic", 3, {"logic_start": "rotate"}).option_map["logic_start"] == "rotate"
    with pytest.raises(IllegalSetup) as info:
        rules_for("logic", 3, {"logic_start": "sideways"})
    assert info.value.clause == "T6-LOGIC-3"
    with pytest.raises(IllegalSetup) as info:
        rules_for("standard", 3, {"professional_tie": "start"})
    assert info.value.clause == "T6-PRO-3"
    with pytest.raises(IllegalSetup) as info:
        rules_for("standard", 3, {"colour": "red"})
    assert info.value.clause == "T6-VAR-1"


def test_metadata_bounds_hold_for_every_player_count() -> None:
    """T6-SETUP-1 metadata: max_game_length bounds every variant's game (the derivation in game.toml,
    recomputed here from the tables), and the score bounds cover a last round taking the whole deck."""
    worst = 0
    for variant in VARIANTS:
        for n in range(2, 11):
            r = rules_for(variant, n)
            cards = n * r.hand_size + r.rows
            per_round = n * r.hand_size * (3 if r.deal == "draft" else 2)
            if r.end == "rounds":
                assert r.rounds is not None
                rounds = r.rounds
            else:
                assert r.threshold is not None
                least_taken = cards - r.rows * r.capacity
                assert least_taken > 0
                rounds = math.floor((r.threshold - 1) * n / least_taken) + 1
            worst = max(worst, rounds * per_round)
    assert worst <= GAME_INFO.max_game_length
    assert GAME.score_bounds == (0, 65 + sum(BULLHEADS[1:]))


def test_seeded_deal_is_the_documented_sample() -> None:
    """T6-SETUP-4: round r of seed s is random.Random(s * 65536 + r).sample(deck, k): hands in blocks of the
    hand size, then the row cards; the rest of the deck stays in the stock."""
    for variant, n in (("standard", 4), ("tactics", 3), ("kids", 5), ("standard", 10)):
        r = rules_for(variant, n)
        for seed in (0, 1, 99):
            order = random.Random(derived_seed(seed, 1)).sample(r.deck, r.cards_dealt)
            assert deal_order(r, seed, 1) == order
            s = GAME.new_game(n, seed=seed, variant=variant)
            h = r.hand_size
            for p in range(n):
                block = order[p * h : (p + 1) * h]
                assert s.hands[p] == (tuple(block) if variant == "kids" else tuple(sorted(block)))
            assert [row[0] for row in s.rows] == order[n * h :]
            assert s.stock == tuple(sorted(set(r.deck) - set(order)))


def test_every_clause_has_wording_and_rulings_say_why() -> None:
    """Every T6 clause has text and citations; rulings (e.g. T6-END-3, T6-PLACE-3) carry their reason."""
    book = load_clauses("take6")
    assert book["T6-END-3"].ruling and book["T6-PLACE-3"].ruling
    assert all(c.text and c.cites for c in book.values())


def patched_rows(monkeypatch: pytest.MonkeyPatch, filename: str, edit: Any) -> None:
    """Make rules.load_table return ``filename``'s real rows passed through ``edit``."""
    real = load_table

    def fake(game: str, name: str, array: str, fields: Any, **kw: Any) -> tuple[dict[str, Any], ...]:
        rows = real(game, name, array, fields, **kw)
        return tuple(edit([dict(r) for r in rows])) if name == filename else rows

    monkeypatch.setattr(rules_module, "load_table", fake)


def test_bullhead_table_cross_checks_fail_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    """T6-BULL-6: a count that disagrees with the rules, an 'otherwise' that is not last, or a wrong
    total fails at load with a SpecError naming the table and row."""

    def wrong_count(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rows[1]["count"] = 9
        return rows

    patched_rows(monkeypatch, "bullheads.toml", wrong_count)
    with pytest.raises(SpecError, match=r"bullheads.toml \[\[rule\]\] row 2: field 'count'"):
        rules_module._load_bullheads(SHIPPED_TABLES, 1, 104, 171)

    def otherwise_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [rows[-1], *rows[:-1]]

    patched_rows(monkeypatch, "bullheads.toml", otherwise_first)
    with pytest.raises(SpecError, match="last rule"):
        rules_module._load_bullheads(SHIPPED_TABLES, 1, 104, 171)
    monkeypatch.undo()
    with pytest.raises(SpecError, match="bullhead_total 170"):
        rules_module._load_bullheads(SHIPPED_TABLES, 1, 104, 170)


def test_variant_references_fail_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    """T6-VAR-1: a variant naming an unknown deck, or a countdown without its start value, fails at load."""

    def bad_deck(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rows[1]["deck"] = "jumbo"
        return rows

    patched_rows(monkeypatch, "variants.toml", bad_deck)
    with pytest.raises(SpecError, match=r"\(tactics\): field 'deck' names unknown deck 'jumbo'"):
        rules_module._load_variants(SHIPPED_TABLES)

    def no_start(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rows[-1]["countdown_from"] = None
        return rows

    monkeypatch.undo()
    patched_rows(monkeypatch, "variants.toml", no_start)
    with pytest.raises(SpecError, match="countdown_from"):
        rules_module._load_variants(SHIPPED_TABLES)


def test_unknown_handler_kind_fails_loudly() -> None:
    """T6-VAR-1: a kind the interpreter has no handler for is refused by the schema check."""
    fields = [Field("deal", str, check=rules_module._one_of(rules_module.DEAL_KINDS))]
    with pytest.raises(SpecError, match="'deal': 'auction' is not one of shuffle, draft"):
        check_rows("take6/variants.toml [[variant]]", [{"deal": "auction"}], fields)
