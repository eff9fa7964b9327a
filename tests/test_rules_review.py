"""docs/rules/review.md, the review of every clause's wording against its quotes (issue 27, item 2): it lists
every clause of both games once, and where it says what a clause adds it names the ruling that covers it —
the clause itself when the clause book makes it a ruling, never a clause that is not one."""

from __future__ import annotations

import re
from pathlib import Path

from engine.spec import all_clauses
from engine.wording import check_wording

REVIEW = Path(__file__).resolve().parent.parent / "docs" / "rules" / "review.md"
ROW = re.compile(r"^\| \[(?P<id>[A-Z0-9-]+)\]\([a-z0-9]+\.md#[a-z0-9-]+\) "
                 r"\| (?P<adds>.*) \| (?P<cover>.*) \|$")


def _rows() -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for line in REVIEW.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            assert m["id"] not in rows, f"{m['id']} reviewed twice"
            rows[m["id"]] = (m["adds"], m["cover"])
    return rows


def test_the_review_lists_every_clause_once() -> None:
    """Every clause of both games has its row, and no row names a clause the books do not hold."""
    assert set(_rows()) == set(all_clauses())


def test_every_addition_is_covered_by_a_ruling() -> None:
    """A ruling is covered by itself; a clause that is no ruling adds nothing, or names the ruling (a real
    one) that settles what it leaves open."""
    book = all_clauses()
    for cid, (adds, cover) in _rows().items():
        clause = book[cid]
        if clause.disputed:
            assert cover == f"ruling {cid}", cid
            continue
        if cover != "—":
            other = cover.removeprefix("ruling ")
            assert other in book and book[other].disputed, (cid, cover)
        else:
            assert adds == "nothing" or adds.startswith("nothing"), (cid, adds)


def test_the_reviewed_clauses_say_no_more_than_their_quotes() -> None:
    """SP-COST-4 words the colour reductions as its quotes do (each blue (building) / red (aristocrat) card
    bought), leaving trading cards to the ruling SP-COST-5; SP-OBS-5, SP-MARI-1 and SP-TAX-1, which rested on
    the card facts' note alone, are rulings naming the reading they reject; the lint stays clean."""
    book = all_clauses()
    text = book["SP-COST-4"].text
    assert "each blue (building) card" in text and "each red (aristocrat) card" in text
    assert "every" not in text and "trading" not in text
    for cid in ("SP-OBS-5", "SP-MARI-1", "SP-TAX-1"):
        assert book[cid].disputed and book[cid].rejects, cid
    assert check_wording(book.values()) == []
