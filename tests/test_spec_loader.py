"""The spec loader fails loudly on malformed tables (the card-script-linter principle).

Each test feeds a deliberately broken table or clause document and checks the SpecError names the table,
row and field.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import SpecError
from engine.spec import Field, all_clauses, check_rows, parse_clauses, seed_document, seed_index

GOOD_CITE = {"seed": "004", "where": "Резюме", "quote": "В игре 104 карты"}


def clause(**over: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": "T6-DEMO-1",
        "topic": "demo",
        "text": "Cards are numbered.",
        "cites": [GOOD_CITE],
    }
    row.update(over)
    return row


def test_unknown_field_is_rejected_with_table_row_and_field() -> None:
    """An unknown key in a row names the table, the row number and the key."""
    with pytest.raises(SpecError, match=r"cards row 2: unknown field 'colour'"):
        check_rows("cards", [{"n": 1}, {"n": 2, "colour": "red"}], [Field("n", int)])


def test_missing_required_field_is_rejected() -> None:
    """A missing required field is named."""
    with pytest.raises(SpecError, match=r"cards row 1: missing field 'cost'"):
        check_rows("cards", [{"name": "x"}], [Field("name", str), Field("cost", int)])


def test_wrong_type_and_bool_for_int_are_rejected() -> None:
    """A field of the wrong type (including a bool where an int is declared) is rejected."""
    with pytest.raises(SpecError, match=r"field 'cost' must be int, got str"):
        check_rows("cards", [{"cost": "3"}], [Field("cost", int)])
    with pytest.raises(SpecError, match=r"field 'cost' must be int, got bool"):
        check_rows("cards", [{"cost": True}], [Field("cost", int)])


def test_field_check_and_duplicate_key() -> None:
    """A failed field check and a duplicate key value are both reported."""
    fields = [Field("name", str), Field("cost", int, check=lambda v: None if v > 0 else "must be > 0")]
    with pytest.raises(SpecError, match=r"field 'cost': must be > 0"):
        check_rows("cards", [{"name": "a", "cost": 0}], fields)
    with pytest.raises(SpecError, match=r"duplicate name 'a'"):
        check_rows("cards", [{"name": "a", "cost": 1}, {"name": "a", "cost": 2}], fields, key="name")


def test_dangling_clause_reference_is_rejected() -> None:
    """A field that refers to a clause id must name an existing clause."""
    with pytest.raises(SpecError, match=r"names unknown clause 'T6-NOPE-1'"):
        check_rows(
            "rules",
            [{"clause": "T6-NOPE-1"}],
            [Field("clause", str, clause_ref=True)],
            clause_ids={"T6-PLACE-1"},
        )


def test_clause_quote_must_be_verbatim_in_the_seed() -> None:
    """A citation whose quote is not in the seed document fails (citations cannot drift from the seeds)."""
    assert parse_clauses("take6", {"clause": [clause()]})["T6-DEMO-1"].text == "Cards are numbered."
    bad = dict(GOOD_CITE, quote="В игре 105 карт")
    with pytest.raises(SpecError, match=r"quote not found in seed 004"):
        parse_clauses("take6", {"clause": [clause(cites=[bad])]})


def test_clause_id_shape_prefix_and_uniqueness() -> None:
    """Clause ids look like T6-TOPIC-N, carry the game's prefix and are unique."""
    with pytest.raises(SpecError, match=r"is not a clause id"):
        parse_clauses("take6", {"clause": [clause(id="place-1")]})
    with pytest.raises(SpecError, match=r"must start with T6-"):
        parse_clauses("take6", {"clause": [clause(id="SP-COST-1")]})
    with pytest.raises(SpecError, match=r"duplicate id 'T6-DEMO-1'"):
        parse_clauses("take6", {"clause": [clause(), clause()]})


def test_clause_needs_a_citation_and_known_seed() -> None:
    """Every clause cites at least one passage of a known seed; an alternative needs a ruling."""
    with pytest.raises(SpecError, match=r"at least one seed passage"):
        parse_clauses("take6", {"clause": [clause(cites=[])]})
    with pytest.raises(SpecError, match=r"unknown seed '999'"):
        parse_clauses("take6", {"clause": [clause(cites=[dict(GOOD_CITE, seed="999")])]})
    with pytest.raises(SpecError, match=r"'alternative' given without a 'ruling'"):
        parse_clauses("take6", {"clause": [clause(alternative="professional")]})
    with pytest.raises(SpecError, match=r"unknown top-level key 'rule'"):
        parse_clauses("take6", {"rule": []})


def test_seed_index_covers_every_seed_file() -> None:
    """Every document in seeds/ is citable, and every citable key resolves to a readable file."""
    index = seed_index()
    assert set(index) == {"000", "001", "003", "004", "ref"}
    for key in index:
        assert len(seed_document(key)) > 1000


def test_every_clause_of_every_game_loads() -> None:
    """All shipped clause files load (ids, citations and quotes all check)."""
    clauses = all_clauses()
    assert any(cid.startswith("T6-") for cid in clauses)
    assert any(cid.startswith("SP-") for cid in clauses)


def test_a_variant_clause_restates_a_clause_of_every_variant() -> None:
    """T6-VAR-1: ``restates`` marks a variant's clause stating a step another clause states for every
    variant (T6-PRO-5 for T6-PLACE-3); it needs ``variants`` and must name a clause that has none."""
    base = clause(id="T6-DEMO-1")
    pro = clause(id="T6-DEMO-2", variants=["professional"], restates="T6-DEMO-1")
    book = parse_clauses("take6", {"clause": [base, pro]})
    assert book["T6-DEMO-2"].restates == "T6-DEMO-1"
    assert book.step_clause("T6-DEMO-2") == "T6-DEMO-1" and book.restating("T6-DEMO-1") == ("T6-DEMO-2",)
    with pytest.raises(SpecError, match=r"'restates' needs 'variants'"):
        parse_clauses("take6", {"clause": [base, clause(id="T6-DEMO-2", restates="T6-DEMO-1")]})
    with pytest.raises(SpecError, match=r"\(T6-DEMO-2\): field 'restates' names no clause: 'T6-DEMO-9'"):
        parse_clauses("take6", {"clause": [base, dict(pro, restates="T6-DEMO-9")]})
    kids = clause(id="T6-DEMO-3", variants=["kids"], restates="T6-DEMO-2")
    with pytest.raises(SpecError, match=r"names a variant's clause: 'T6-DEMO-2'"):
        parse_clauses("take6", {"clause": [base, pro, kids]})
