"""docs/rules/ is written from spec/ by ``arbiter rules --write-docs docs/rules``; it must not be stale."""

from __future__ import annotations

from pathlib import Path

from engine.query import rulesref

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def test_docs_rules_match_the_spec() -> None:
    """Every page the generator writes equals the committed page, and no committed page is extra.

    Fix a failure with ``arbiter rules --write-docs docs/rules`` after editing spec/.
    """
    stale = rulesref.stale_pages(DOCS)
    assert not stale, f"docs/rules is stale ({', '.join(stale)}); run 'arbiter rules --write-docs docs/rules'"
