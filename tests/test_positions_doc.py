"""docs/positions.md runs: every ``>>>`` example on the page gives the output it shows (T6-PLACE-2,
T6-SELECT-1, T6-SETUP-4, SP-CARD-5)."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "positions.md"


def test_positions_page_examples_run() -> None:
    """Every example of docs/positions.md, run as a doctest."""
    result = doctest.testfile(
        str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted > 10
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of docs/positions.md failed"
