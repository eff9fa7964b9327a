"""docs/queries.md runs: every example block is executed, every question kind and every way of giving
``explain`` a position has an example, so the documentation of the query commands cannot drift."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.query.faq import FaqEntry, check_entry, read_faq
from engine.query.questions import all_questions

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = read_faq(ROOT / "docs" / "queries.md")


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"line{e.line}" for e in ENTRIES])
def test_query_doc_example_still_holds(entry: FaqEntry, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example's command (run from the repository root) gives what the block states."""
    monkeypatch.chdir(ROOT)
    problems = check_entry(entry)
    assert not problems, "\n".join(problems)


def test_every_question_kind_has_an_example() -> None:
    """Each registered ``arbiter ask`` kind appears in at least one runnable example."""
    used = {e.command.split()[2] for e in ENTRIES if e.command.startswith("arbiter ask ")}
    missing = sorted(set(all_questions()) - used)
    assert not missing, f"question kinds without an example in docs/queries.md: {', '.join(missing)}"


def test_explain_has_an_example_for_each_kind_of_position() -> None:
    """``arbiter explain`` is shown with a JSON state, a record prefix and a conformance vector."""
    explains = [e.command for e in ENTRIES if e.command.startswith("arbiter explain ")]
    for flag in ("--state", "--record", "--case"):
        assert any(flag in c for c in explains), flag
