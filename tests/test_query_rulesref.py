"""The rule reference (``arbiter rules``): listing, one clause in full, the disputed table, the checks that
cite a clause, and the generated docs pages — all read from the same clause books the engine loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import InputError
from engine.query import rulesref
from engine.query.render import table
from engine.spec import all_clauses, load_clauses, parse_clauses

DEMO = {
    "clause": [
        {
            "id": "T6-DEMO-1",
            "topic": "demo",
            "text": "Cards are numbered.",
            "cites": [{"seed": "004", "where": "Резюме", "quote": "В игре 104 карты"}],
        },
        {
            "id": "T6-NOPE-1",
            "topic": "other",
            "text": "A ruling.",
            "ruling": "The seeds are silent.",
            "alternative": "strict",
            "cites": [{"seed": "004", "where": "Резюме", "quote": "В игре 104 карты"}],
        },
    ]
}


def test_list_groups_by_game_and_topic() -> None:
    """Clauses are listed under a ``game · topic (count)`` heading; rulings are marked with the variant."""
    book = parse_clauses("take6", DEMO)
    lines = rulesref.list_lines(list(book.values()), width=80)
    assert lines[0] == "take6 · demo (1)"
    assert "take6 · other (1)" in lines
    assert any("T6-NOPE-1" in ln and "[ruling; other reading: strict]" in ln for ln in lines)


def test_select_by_game_and_topic_and_errors_name_the_field() -> None:
    """T6-PLACE-1 is found under its game and topic; an unknown topic or game names --topic / --game."""
    placement = rulesref.select("take6", "placement")
    assert "T6-PLACE-1" in [c.id for c in placement]
    assert all(c.topic == "placement" for c in placement)
    with pytest.raises(InputError) as err:
        rulesref.select("take6", "placemnt")
    assert err.value.field == "--topic" and "placement" in str(err.value)
    with pytest.raises(InputError) as err2:
        rulesref.select("chess")
    assert err2.value.field == "--game"


def test_find_clause_is_case_insensitive_and_suggests() -> None:
    """``t6-place-1`` finds T6-PLACE-1; a near miss suggests the close ids."""
    assert rulesref.find_clause("t6-place-1").id == "T6-PLACE-1"
    with pytest.raises(InputError, match="did you mean T6-PLACE-1"):
        rulesref.find_clause("t6-plce-1")


def test_clause_lines_show_wording_citations_and_checks() -> None:
    """``arbiter rules T6-PLACE-1`` shows our wording, each citation's seed and quote, and its checks."""
    clause = load_clauses("take6")["T6-PLACE-1"]
    check = rulesref.Check("test", "tests/x.py", "test_thirty_three", 3)
    text = "\n".join(rulesref.clause_lines(clause, width=100, checks=[check]))
    assert clause.text.split()[0] in text
    for cite in clause.cites:
        assert f"seed {cite.seed}" in text
    assert "test_thirty_three" in text


def test_checks_for_finds_the_enclosing_test(tmp_path: Path) -> None:
    """A clause id inside a test function is reported with that function's name and line."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "properties").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        'def helper():\n    pass\n\n\ndef test_a():\n    """T6-PLACE-2: sixth card."""\n', encoding="utf-8"
    )
    (tmp_path / "properties" / "test_p.py").write_text('class M:\n    """T6-PLACE-2"""\n', encoding="utf-8")
    found = rulesref.checks_for("T6-PLACE-2", tmp_path)
    assert {(c.kind, c.name, c.line) for c in found} == {("test", "test_a", 5), ("property", "M", 1)}
    assert rulesref.checks_for("T6-PLACE-1", tmp_path) == ()


def test_disputed_lists_exactly_the_rulings() -> None:
    """The disputed table holds every clause with a ``ruling`` field and no other (T6-PLACE-3 is one)."""
    clauses = all_clauses()
    expected = {cid for cid, c in clauses.items() if c.ruling is not None}
    assert {c.id for c in rulesref.disputed()} == expected
    assert "T6-PLACE-3" in expected
    lines = "\n".join(rulesref.disputed_lines(rulesref.disputed("take6"), width=100))
    for cid in (c for c in expected if c.startswith("T6-")):
        assert cid in lines


def test_disputed_names_every_rulings_rejected_reading() -> None:
    """SP-END-6: ``rules --disputed`` gives each ruling with the reading it rejects and the option that
    selects that reading (the money tie-break: keep_roubles=false)."""
    text = " ".join("\n".join(rulesref.disputed_lines(rulesref.disputed(), width=400)).split())
    for c in rulesref.disputed():
        assert c.rejects and " ".join(c.rejects.split()) in text, c.id
    block = text[text.index("SP-END-6"):]
    assert "rejects: The tournament reading" in block
    assert "selected by: variant/option 'option keep_roubles=false'" in block


def test_docs_pages_hold_every_clause_and_ruling() -> None:
    """Each game's page shows every clause id and quote; the disputed page lists every ruling."""
    pages = rulesref.docs_pages()
    assert {"README.md", "disputed.md"} <= set(pages)
    for cid, clause in all_clauses().items():
        page = pages[f"{clause.game}.md"]
        assert f"### {cid}" in page
        assert " ".join(clause.cites[0].quote.split()) in page
        if clause.ruling is not None:
            assert f"[{cid}]" in pages["disputed.md"]


def test_write_then_check_docs(tmp_path: Path) -> None:
    """Written pages are fresh; a page the command wrote and no longer generates is reported and removed
    when the pages are written again; a page edited since it was written is reported out of date and not
    replaced (its seal no longer matches); a page the command did not write is never reported nor removed."""
    pages = {"README.md": "x\n", "take6.md": "y\n"}
    rulesref.write_docs(tmp_path, pages)
    assert rulesref.stale_pages(tmp_path, pages) == []
    rulesref.write_docs(tmp_path, {**pages, "old.md": "gone\n"})
    (tmp_path / "notes.md").write_text("someone's own notes\n", encoding="utf-8")
    assert rulesref.stale_pages(tmp_path, pages) == ["old.md (no longer generated)"]
    rulesref.write_docs(tmp_path, pages)
    assert rulesref.stale_pages(tmp_path, pages) == []
    assert not (tmp_path / "old.md").exists()
    assert (tmp_path / "notes.md").read_text(encoding="utf-8") == "someone's own notes\n"
    edited = (tmp_path / "take6.md").read_text(encoding="utf-8") + "edited\n"
    (tmp_path / "take6.md").write_text(edited, encoding="utf-8")
    assert rulesref.stale_pages(tmp_path, pages) == ["take6.md (out of date)"]
    with pytest.raises(InputError, match=r"take6\.md' exists and was not written by .* or was changed since"):
        rulesref.write_docs(tmp_path, pages)
    assert (tmp_path / "take6.md").read_text(encoding="utf-8") == edited


def test_table_aligns_columns_and_wraps_the_last() -> None:
    """Columns align under their headers; the last column wraps at the given width."""
    lines = table(["id", "text"], [["row-1", "word " * 30]], width=40)
    assert lines[0].startswith("id     text")
    assert all(len(ln) <= 40 for ln in lines)
    assert all(ln.startswith("       ") for ln in lines[3:])
