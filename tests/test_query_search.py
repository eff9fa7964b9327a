"""Keyword search and "every rule that mentions X": clauses, card names in English, German and Russian
(aliases such as "Zar Peter"), and seed passages with their location."""

from __future__ import annotations

import pytest

from engine.errors import InputError
from engine.query import search
from engine.spec import seed_document


def test_normalize_folds_case_umlauts_and_yo() -> None:
    """Umlauts and ß match the '?' seed 001 lost them to; ё matches е; case does not matter."""
    assert search.words("Gebäude") == search.words("Geb?ude")
    assert search.words("Schlußwertung") == search.words("Schlu?wertung")
    assert search.words("Пётр") == search.words("петр")
    assert search.words("?berbaukarten") == ("berbaukarten",)


def test_search_finds_a_german_seed_passage_with_location() -> None:
    """ "Gebäude" finds seed 001's lines that spell it "Geb?ude", with their line number and section."""
    hits = search.search("Gebäude", kinds=["seed"])
    assert hits and all(h.ref == "001" for h in hits)
    first = hits[0]
    assert first.where.startswith("line ")
    line = int(first.where.split()[1])
    assert seed_document("001").splitlines()[line - 1].strip() == first.text


def test_search_matches_russian_word_forms_by_prefix() -> None:
    """ "ряд" (row) finds the Russian article's placement rules, which say "ряд", "ряда", "ряду"."""
    hits = search.search("ряд", kinds=["seed"], game="take6")
    assert hits and all(h.ref == "004" for h in hits)
    assert len(hits) >= 3


def test_alias_zar_peter_finds_the_card_and_its_clauses() -> None:
    """The German alias "Zar Peter" names Czar and Carpenter; the search returns the card first and the
    clause SP-TRADE-4 (which says "Czar and Carpenter", not "Zar Peter")."""
    hits = search.search("Zar Peter")
    assert hits[0].kind == "card" and hits[0].ref == "Czar and Carpenter"
    assert "SP-TRADE-4" in [h.ref for h in hits if h.kind == "clause"]


def test_russian_card_name_resolves() -> None:
    """A Russian name ("Склад") finds the Warehouse."""
    assert [c.key for c in search.find_cards("Склад")][:1] == ["Warehouse"]


def test_every_word_must_match() -> None:
    """A query with a word found nowhere finds nothing (search is an AND of the words)."""
    assert search.search("bullheads zzzzqqq") == []


def test_empty_query_is_refused() -> None:
    """A query without words is refused, naming TEXT."""
    with pytest.raises(InputError) as err:
        search.search("?! ...")
    assert err.value.field == "TEXT"


def test_mentions_a_card_not_inside_a_longer_card_name() -> None:
    """The Warehouse is mentioned by SP-WAREHOUSE-1 and SP-HAND-3, but SP-CARD-3 names only the
    Warehouse Manager, so it is not listed."""
    cards, clauses = search.mentions("Warehouse")
    ids = [c.id for c in clauses]
    assert [c.key for c in cards] == ["Warehouse"]
    assert "SP-WAREHOUSE-1" in ids and "SP-HAND-3" in ids
    assert "SP-CARD-3" not in ids
    _cards, manager = search.mentions("Warehouse Manager")
    assert "SP-CARD-3" in [c.id for c in manager]


def test_mentions_a_term() -> None:
    """A plain term lists the clauses whose wording, ruling or quotes use it (T6-PLACE-2 says "6th")."""
    _cards, clauses = search.mentions("6th", game="take6")
    assert "T6-PLACE-2" in [c.id for c in clauses]
    assert all(c.game == "take6" for c in clauses)


def test_seed_passages_cover_every_line() -> None:
    """Every non-empty line of every seed is a passage, so nothing the seeds say is unsearchable."""
    for key in ("000", "001", "003", "004", "ref"):
        lines = [ln for ln in seed_document(key).splitlines() if ln.strip()]
        assert len(search.passages(key)) == len(lines)
