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


def test_a_word_found_nowhere_does_not_hide_the_others() -> None:
    """Hits are ranked by how many query words they match: a word found nowhere finds nothing alone, and
    beside a real word it only lowers no hit's rank."""
    assert search.search("zzzzqqq") == []
    hits = search.search("bullheads zzzzqqq", kinds=["clause"])
    assert hits and all(h.matched == 1 for h in hits)


def test_a_question_as_a_player_types_it() -> None:
    """SP-PHASE-4: "can I pass again" drops the filler words and ranks first the clause matching both
    'pass' (as 'passed') and 'again' (as 'subsequent'); the words looked for are reported."""
    assert search.query_terms("Can I pass again?") == ("pass", "again")
    hits = search.search("can I pass again", kinds=["clause"])
    assert hits[0].ref == "SP-PHASE-4" and hits[0].matched == 2
    assert [h.matched for h in hits] == sorted((h.matched for h in hits), reverse=True)


def test_search_ranks_the_aristocrat_phase_purchase() -> None:
    """SP-PHASE-5: "may a building be bought in the aristocrat phase" finds the clause that says so first."""
    hits = search.search("may I buy a building in the aristocrat phase", kinds=["clause"], limit=3)
    assert "SP-PHASE-5" in [h.ref for h in hits]


@pytest.mark.parametrize(("question", "kind", "command"), [
    ("who wins with VP 23 23 and roubles 30 19?", "standings",
     "arbiter ask standings petersburg --scores 23 23 --money 30 19"),
    ("who wins 6 nimmt with 40 12 70 bullheads", "standings",
     "arbiter ask standings take6 --scores 40 12 70"),
    ("how many bullheads is the 55 worth", "bullheads", "arbiter ask bullheads 55"),
    ("can the gold smelter displace czar and carpenter", "displace",
     'arbiter ask displace "Gold Smelter" "Czar and Carpenter"'),
    ("what does a Market cost", "cost", "arbiter ask cost Market"),
    ("how is a 3 player game set up", "setup", "arbiter ask setup petersburg 3"),
    ("bonus for 7 different aristocrats", "bonus", "arbiter ask bonus 7"),
    ("Zar Peter", "card", 'arbiter ask card "Czar and Carpenter"'),
])
def test_search_names_the_ask_kind_and_a_ready_command(question: str, kind: str, command: str) -> None:
    """A question names the ask kind that answers it and a command built from its numbers and cards."""
    first = search.suggest(question)[0]
    assert (first.kind, first.command, first.ready) == (kind, command, True)


def test_every_suggested_command_runs() -> None:
    """Every command a suggestion gives (ready or an example) parses and is answered by arbiter ask."""
    from engine.query.cli import answer_for_command

    questions = ["who wins a tie", "where does 33 go", "what happens at a whole turn", "pub", "final scoring",
                 "hand limit with the warehouse", "which variants", "where do the seeds disagree",
                 "when does 6 nimmt end", "how many bullheads"]
    for q in questions:
        for tip in search.suggest(q):
            answer_for_command(tip.command)


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
