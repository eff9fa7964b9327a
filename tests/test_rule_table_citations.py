"""The clause ids and values the rule tables hand to the engine reach the user correctly: each card cites a
clause about that card, each scoring phase is narrated with its clause, a clause bound to variants is cited
by exactly those variants' tables, and the final scoring converts roubles at the table's rate."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.petersburg import GAME as SP
from engine.petersburg import final_breakdown, ruleset
from engine.petersburg.testing import arrange
from engine.play import play_game
from engine.query.cli import answer_for_command
from engine.spec import load_clauses

SPEC = Path(__file__).resolve().parent.parent / "spec"


@pytest.mark.parametrize("variant", ["first", "second"])
def test_every_card_cites_a_clause_about_it(variant: str) -> None:
    """SP-CARD-1..4, SP-EDITION-1, SP-MARI-2: ``arbiter ask card NAME`` cites the clause of the card's row,
    and that clause (its text or a quoted passage) names the card (by its first-edition name too: a
    second-edition card keeps its own rule) or the card's stack — a row pointing at another card's clause
    is caught."""
    book = load_clauses("petersburg")
    for card in ruleset(variant).cards:
        answer = answer_for_command(f'arbiter ask card "{card.name}" --variant {variant}')
        cited = answer.steps[0].clause
        assert cited is not None
        clause = book[cited]
        text = " ".join([clause.text, *(c.quote for c in clause.cites)]).lower()
        named = card.name.lower() in text or card.key.lower() in text  # a renamed card's rule keeps its name
        assert named or f"{card.stack} stack" in text or f"{card.stack}s" in text, (
            f"{card.name} cites {clause.id}: {clause.text[:80]}"
        )


def test_each_scoring_is_narrated_with_its_clause() -> None:
    """SP-SCORE-1 (workers pay roubles), SP-SCORE-2 (buildings pay VP), SP-SCORE-3 (aristocrats): the log
    of a whole game names each scoring phase with its own clause, in phase order."""
    lines, _ = play_game("petersburg", players=2, seed=1)
    scorings = [line.split(":")[0] for line in lines if " scoring [SP-SCORE" in line]
    assert scorings[:3] == [
        "the worker scoring [SP-SCORE-1]",
        "the building scoring [SP-SCORE-2]",
        "the aristocrat scoring [SP-SCORE-3]",
    ]


@pytest.mark.parametrize(("money", "hand", "expected"), [(0, 0, 0), (9, 0, 0), (10, 0, 1), (29, 1, 2 - 5)])
def test_final_scoring_money_and_hand(money: int, hand: int, expected: int) -> None:
    """SP-END-6: every full 10 roubles left is worth 1 VP; SP-END-7: every card still in hand costs 5 VP."""
    state = arrange(SP.new_game(2, seed=1), money={0: money}, hands={0: ["Lumberjack"] * hand}, areas={0: []})
    parts = final_breakdown(state, 0)
    assert parts["money"] + parts["hand"] == expected


def _take6_tables() -> dict[str, Any]:
    return {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in (SPEC / "take6").glob("*.toml")}


def _cited_by(tables: dict[str, Any], variant: str) -> set[str]:
    """Clause ids cited by the rows a variant runs on: its own row, its deck, set-up and end rows, and the
    options that apply to it."""
    row = next(r for r in tables["variants"]["variant"] if r["name"] == variant)
    out = set(row.get("clauses", []))
    for key in ("deck", "setup", "end"):
        for section in tables[key].values():
            for r in section if isinstance(section, list) else []:
                if r.get("name") == row[key]:
                    out |= set(r.get("clauses", [])) | ({r["clause"]} if "clause" in r else set())
    for section in tables["options"].values():
        for r in section if isinstance(section, list) else []:
            if variant in r.get("variants", []) and "clause" in r:
                out.add(r["clause"])
    return out


def test_variant_bound_clauses_are_cited_by_exactly_their_variants() -> None:
    """T6-VAR-1: a clause that applies only in some variants (``variants = [...]``, shown by ``arbiter rules``
    as "applies only in") is cited by the tables of each of those variants and of no other."""
    tables = _take6_tables()
    variants = [r["name"] for r in tables["variants"]["variant"]]
    cited = {v: _cited_by(tables, v) for v in variants}
    bound = [c for c in tables["clauses"]["clause"] if c.get("variants")]
    assert len(bound) >= 10
    for clause in bound:
        users = sorted(v for v in variants if clause["id"] in cited[v])
        assert users == sorted(clause["variants"]), clause["id"]


def _about(row: dict[str, Any]) -> list[str]:
    """The words a row is about: its string values (underscores read as spaces) and its non-zero numbers."""
    out = []
    for key, value in row.items():
        if key in ("clause", "clauses", "description", "doc", "title") or isinstance(value, bool):
            continue
        if isinstance(value, str) and value:
            out += [value.lower(), value.lower().replace("_", " ")]
        elif isinstance(value, int) and value != 0:
            out.append(str(value))
    return out


@pytest.mark.parametrize("game", ["take6", "petersburg"])
def test_every_table_row_cites_a_clause_about_it(game: str) -> None:
    """Traceability: the clause a table row cites (``clause = ...``) speaks of that row — its text, ruling,
    other reading or a quoted passage names one of the row's values as a word (a card, a stack, a colour, an
    option, a count).  A row citing an unrelated clause is caught."""
    book = load_clauses(game)
    checked = 0
    for path in sorted((SPEC / game).glob("*.toml")):
        if path.name == "clauses.toml":
            continue
        for name, section in tomllib.loads(path.read_text(encoding="utf-8")).items():
            if name == "variety":  # rows of the n(n+1)/2 table of SP-END-4, checked as such when they load
                continue
            for row in section if isinstance(section, list) else []:
                if not isinstance(row, dict) or "clause" not in row:
                    continue
                words = _about(row)
                clause = book[row["clause"]]
                text = " ".join(
                    [
                        clause.text,
                        clause.ruling or "",
                        clause.alternative or "",
                        *(c.quote for c in clause.cites),
                        *(c.where for c in clause.cites),
                    ]
                ).lower()
                assert any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text) for w in words), (
                    f"{path.name}: {words[:3]} cites {clause.id}"
                )
                checked += 1
    assert checked >= 10


def _demo(text: str, quote: str, seed: str = "003", **extra: str) -> Any:
    from engine.spec import parse_clauses

    row = {"id": "T6-DEMO-1", "topic": "demo", "text": text,
           "cites": [{"seed": seed, "where": "demo", "quote": quote}], **extra}
    return parse_clauses("take6", {"clause": [row]})["T6-DEMO-1"]


def test_wording_beyond_its_quotes_is_flagged_unless_marked_as_a_ruling() -> None:
    """SP-END-6: a wording that adds to its quote ('the roubles are kept') is flagged by the lint; marked as
    a ruling it passes; reworded to the quote it passes."""
    from engine.wording import check_wording, unquoted_words

    quote = "Money: For each full 10 rubles you have left, you earn 1 point."
    added = _demo("1 VP for each full 10 roubles (the roubles are kept).", quote)
    assert unquoted_words(added) == ("kept",)
    assert check_wording([added]) and "T6-DEMO-1" in check_wording([added])[0]
    marked = _demo("1 VP for each full 10 roubles (the roubles are kept).", quote, ruling="why",
                   rejects="the other reading")
    assert check_wording([marked]) == []
    assert check_wording([_demo("1 VP for each full 10 roubles left.", quote)]) == []


def test_wording_lint_reads_german_and_russian_quotes_through_the_allowance() -> None:
    """SP-SETUP-2, T6-END-2: a German or Russian quote carries the English words its translation allowance
    gives (25 Rubel -> 25 roubles) and nothing else (a word no quote word translates stays flagged)."""
    from engine.wording import unquoted_words

    quote = "Jeder Spieler besitzt ein Startkapital von 25 Rubel"
    german = _demo("Every player has 25 roubles.", quote, "001")
    assert unquoted_words(german) == ()
    assert unquoted_words(_demo("Every player has 25 secret roubles.", "von 25 Rubel", "001")) == ("secret",)
    book = load_clauses("take6")
    assert unquoted_words(book["T6-END-2"]) == ()
    assert "kept" in unquoted_words(load_clauses("petersburg")["SP-END-6"])


def test_the_money_tie_break_ruling_has_an_option_for_the_other_reading() -> None:
    """SP-END-6, SP-END-8: the roubles-kept reading is a named ruling listed as disputed, and the option
    keep_roubles=false selects the tournament reading (ties on the roubles left after converting)."""
    clause = load_clauses("petersburg")["SP-END-6"]
    assert clause.disputed and clause.rejects and clause.alternative == "option keep_roubles=false"
    from engine.petersburg.catalog import OPTIONS

    assert OPTIONS["keep_roubles"].clause == "SP-END-6"
