"""The 6 nimmt! variant loader refuses malformed rows, naming the row: each check is run on variants.toml
edited in memory (the file on disk is untouched)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine.spec
from engine.errors import SpecError
from engine.take6 import rules

Edit = Callable[[list[dict[str, Any]]], None]


def load_variants_with(monkeypatch: pytest.MonkeyPatch, edit: Edit) -> None:
    """Run the variant loader on ``spec/take6/variants.toml`` with its rows edited by ``edit``."""
    real = engine.spec.read_toml

    def patched(path: Path) -> dict[str, Any]:
        doc = real(path)
        if path.name == "variants.toml" and path.parent.name == "take6":
            doc = copy.deepcopy(doc)
            edit(doc["variant"])
        return doc

    monkeypatch.setattr(engine.spec, "read_toml", patched)
    rules._load_variants()


def _first(key: str, value: Any) -> Edit:
    def edit(rows: list[dict[str, Any]]) -> None:
        rows[0][key] = value

    return edit


def _kids_drafted(rows: list[dict[str, Any]]) -> None:
    next(r for r in rows if r["name"] == "kids")["deal"] = "draft"


CASES: dict[str, tuple[Edit, str]] = {
    "an unknown deck": (
        _first("deck", "jumbo"),
        r"row 1 \(standard\): field 'deck' names unknown deck 'jumbo'",
    ),
    "a countdown without its start": (
        _first("display", "countdown"),
        r"row 1 \(standard\): field 'countdown_from'",
    ),
    "a drafted face-down pile": (_kids_drafted, "a drafted hand cannot be a face-down pile"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_variant_rows_are_refused(monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    """T6-VAR-1: every variant row names a known deck, set-up and end, gives countdown_from exactly with the
    countdown display, and never drafts a face-down pile (T6-LOGIC-1 vs T6-KIDS-2); a malformed row is a
    SpecError naming the row by number and name."""
    edit, message = CASES[case]
    with pytest.raises(SpecError, match=message):
        load_variants_with(monkeypatch, edit)


def test_the_unedited_variants_load() -> None:
    """The loader accepts the shipped table (so the refusals above are about the edits)."""
    assert set(rules._load_variants()) == set(rules.VARIANTS)
