"""Keyword search and "every rule that mentions X": clauses, card names in English, German and Russian
(aliases such as "Zar Peter"), and seed passages with their location."""

from __future__ import annotations

import pytest

from engine.errors import InputError
from engine.query import search, suggest
from engine.query.questions import ask
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
    """A word found nowhere finds nothing alone, and beside a real word the real word still ranks its
    clauses."""
    assert search.search("zzzzqqq") == []
    hits = search.search("bullheads zzzzqqq", kinds=["clause"])
    assert hits and hits[0].ref.startswith("T6-BULL-")


def test_a_question_as_a_player_types_it() -> None:
    """SP-PHASE-4: "can I pass again" ranks first the clause saying a player who passed may act on a
    subsequent turn; every word is looked for (no word list drops any)."""
    assert search.query_terms("Can I pass again?") == ("can", "i", "pass", "again")
    assert search.search("can I pass again", kinds=["clause"])[0].ref == "SP-PHASE-4"


@pytest.mark.parametrize(("question", "clause"), [
    ("how many players can play Saint Petersburg", "SP-GAME-1"),
    ("5 players", "SP-GAME-1"),
    ("what happens after the last card of a stack is placed", "SP-END-1"),
    ("can a trading card not displace another trading card", "SP-TRADE-5"),
    ("how many cards can I hold in my hand", "SP-HAND-2"),
])
def test_game_words_carry_meaning(question: str, clause: str) -> None:
    """SP-GAME-1, T6-SETUP-1, SP-END-1, SP-TRADE-5, SP-HAND-2: "players", "cards", "many", "after" and
    "not" are not dropped: each question finds its rule among the first three clauses."""
    assert clause in [h.ref for h in search.search(question, kinds=["clause"], limit=3)]


def test_search_ranks_the_aristocrat_phase_purchase() -> None:
    """SP-PHASE-5: "may a building be bought in the aristocrat phase" finds the clause that says so first."""
    hits = search.search("may I buy a building in the aristocrat phase", kinds=["clause"], limit=3)
    assert "SP-PHASE-5" in [h.ref for h in hits]


def test_a_misspelt_card_is_found() -> None:
    """A close spelling names the card (rapidfuzz): "Lumberjak" is the Lumberjack, "Gold Smelters" the
    Gold Smelter, and its clauses follow."""
    assert [c.key for c in search.find_cards("Lumberjak")][:1] == ["Lumberjack"]
    hits = search.search("Gold Smelters discount")
    assert hits[0].kind == "card" and hits[0].ref == "Gold Smelter"


def test_the_faq_is_searched() -> None:
    """The FAQ's answers are ranked too, each pointing to the clauses its block applies."""
    hits = search.search("do I pay when I take a card into my hand", kinds=["faq"], game="petersburg")
    assert hits and all(h.kind == "faq" for h in hits)
    assert any(h.clauses for h in hits)


@pytest.mark.parametrize(("question", "kind", "command"), [
    ("who wins with VP 23 23 and roubles 30 19?", "standings",
     "arbiter ask standings petersburg --scores 23 23 --money 30 19"),
    ("who wins 6 nimmt with 40 12 70 bullheads", "standings",
     "arbiter ask standings take6 --scores 40 12 70"),
    ("how many bullheads is the 55 worth", "bullheads", "arbiter ask bullheads 55"),
    ("is 55 worth 7 bullheads", "bullheads", "arbiter ask bullheads 55"),
    ("can the gold smelter displace czar and carpenter", "displace",
     'arbiter ask displace "Gold Smelter" "Czar and Carpenter"'),
    ("can czar and carpenter be displaced by the gold smelter", "displace",
     'arbiter ask displace "Gold Smelter" "Czar and Carpenter"'),
    ("what does a Market cost", "cost", "arbiter ask cost Market"),
    ("does owning a Lumberjack make a Gold Miner cheaper", "cost",
     'arbiter ask cost "Gold Miner" --owns Lumberjack'),
    ("how is a 3 player game of Saint Petersburg set up", "setup", "arbiter ask setup petersburg 3"),
    ("how is a 4 player logic game set up", "setup", "arbiter ask setup take6 4 --variant logic"),
    ("bonus for 7 different aristocrats", "bonus", "arbiter ask bonus 7"),
    ("what does the Mariinsky Theater pay", "card", 'arbiter ask card "Mariinskij Theater" --variant second'),
    ("Zar Peter", "card", 'arbiter ask card "Czar and Carpenter"'),
])
def test_search_names_the_ask_kind_and_a_ready_command(question: str, kind: str, command: str) -> None:
    """A question names the ask kind that answers it and a command built from its numbers (a number is a
    card only where the question uses it as one), its cards in their grammatical roles and the variant or
    edition it names."""
    first = suggest.suggest(question)[0]
    assert (first.kind, first.command, first.ready) == (kind, command, True)


@pytest.mark.parametrize("question", [
    "who wins 6 nimmt with 66",  # one score is not a game: `--scores 66` fails, so it is not offered
    "is 55 worth 7 bullheads",  # 7 is a count of bullheads, not a card
    "does owning a Lumberjack make a Gold Miner cheaper",  # no displacement is asked
    "how many players can play", "5 players", "pub", "when does the game end", "which variants",
    "hand limit with the warehouse", "where does 33 go", "what happens at a whole turn", "final scoring",
])
def test_a_ready_suggestion_ran_and_answers_the_question_asked(question: str) -> None:
    """Every suggestion runs (ready or an example); a ready one restates the question's cards and numbers
    and never adds a number the question did not use as a card; none is `--scores 66`, `bullheads 55 7` or
    a displacement the question did not ask."""
    from engine.query.cli import answer_for_command

    for tip in suggest.suggest(question):
        answer = answer_for_command(tip.command)
        assert answer.summary
        if tip.ready and tip.kind != "rule":
            assert "--scores 66" not in tip.command and "bullheads 55 7" not in tip.command
            assert not (tip.kind == "displace" and "displace" not in question)


def test_a_question_naming_no_game_answers_for_both_or_says_which() -> None:
    """A shared question (set-up) asked without a game is answered for both games; a question of one game's
    kind says the game was assumed; a named game is kept."""
    both = [t for t in suggest.suggest("how is a 3 player game set up") if t.kind == "setup" and t.ready]
    assert {t.game for t in both} == {"take6", "petersburg"}
    answer = ask("search", {"text": ["how is a 3 player game set up"]})
    assert "no game named" in answer.summary and "setup take6 3" in answer.summary
    assumed = ask("search", {"text": ["is 55 worth 7 bullheads"]})
    assert "assumed take6" in assumed.summary
    named = ask("search", {"text": ["how is a 3 player game of 6 nimmt set up"]})
    assert named.game == "take6" and "petersburg" not in named.summary


def test_brief_shows_the_best_hits(capsys: pytest.CaptureFixture[str]) -> None:
    """``ask search --brief`` prints the best clauses found, not only their count."""
    from engine.cli import main

    assert main(["ask", "search", "can", "I", "pass", "again", "--brief"]) == 0
    out = capsys.readouterr().out
    assert "best: SP-PHASE-4" in out


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
