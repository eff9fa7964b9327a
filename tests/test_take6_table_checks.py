"""The 6 nimmt! table loaders refuse malformed rows, naming the row: each check is run on a table edited in
memory (a :class:`~engine.spec.Tables` copy; the file on disk and the shipped rules are untouched)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from engine.errors import SpecError
from engine.spec import Tables
from engine.take6 import rules

Edit = Callable[[list[dict[str, Any]]], None]


def load_with(filename: str, array: str, edit: Edit) -> None:
    """Run the loader of ``spec/take6/<filename>`` on tables whose ``[[array]]`` rows ``edit`` changed."""
    shipped = Tables.shipped("take6")
    doc = copy.deepcopy(dict(shipped.doc(filename)))
    edit(doc[array])
    LOADERS[filename](shipped.replace(filename, doc, f"{filename}: edited"))


LOADERS: dict[str, Callable[[Tables], Any]] = {
    "variants.toml": rules._load_variants,
    "options.toml": lambda t: rules._load_options(t, rules.VARIANTS),
    "bullheads.toml": lambda t: rules._load_bullheads(t, 1, 104, None),
    "setup.toml": rules._load_setups,
}


def _first(key: str, value: Any) -> Edit:
    def edit(rows: list[dict[str, Any]]) -> None:
        rows[0][key] = value

    return edit


def _kids_drafted(rows: list[dict[str, Any]]) -> None:
    next(r for r in rows if r["name"] == "kids")["deal"] = "draft"


def _drop_first(key: str) -> Edit:
    def edit(rows: list[dict[str, Any]]) -> None:
        del rows[0][key]

    return edit


CASES: dict[str, tuple[str, str, Edit, str]] = {
    "an unknown deck": (
        "variants.toml",
        "variant",
        _first("deck", "jumbo"),
        r"row 1 \(standard\): field 'deck' names unknown deck 'jumbo'",
    ),
    "a countdown without its start": (
        "variants.toml",
        "variant",
        _first("display", "countdown"),
        r"row 1 \(standard\): field 'countdown_from'",
    ),
    "a drafted face-down pile": (
        "variants.toml",
        "variant",
        _kids_drafted,
        "drafted hand cannot be a face-down",
    ),
    "an option for an unknown variant": (
        "options.toml",
        "option",
        _first("variants", ["nope"]),
        "row 1: field 'variants' names unknown variant",
    ),
    "more rows than the prebuilt row choices": (
        "setup.toml",
        "setup",
        _first("rows", 17),
        r"setup.toml \[\[setup\]\] row 1 \(standard\): 'rows' 17: at most 16 \(prebuilt TakeRows\)",
    ),
    "a bullhead rule without its n": (
        "bullheads.toml",
        "rule",
        _drop_first("n"),
        "row 1: field 'n' is required",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_variant_rows_are_refused(case: str) -> None:
    """T6-VAR-1: every variant row names a known deck, set-up and end, gives countdown_from exactly with the
    countdown display, and never drafts a face-down pile (T6-LOGIC-1 vs T6-KIDS-2); an option applies to known
    variants; a bullhead rule (T6-BULL-1) other than the last names its n; a set-up has no more rows
    (T6-SETUP-3) than the row choices prebuilt per seat.  A malformed row is a SpecError naming the row by
    number."""
    filename, array, edit, message = CASES[case]
    with pytest.raises(SpecError, match=message):
        load_with(filename, array, edit)


def test_the_unedited_variants_load() -> None:
    """The loaders accept the shipped tables (so the refusals above are about the edits)."""
    shipped = Tables.shipped("take6")
    assert set(rules._load_variants(shipped)) == set(rules.VARIANTS)
    assert set(rules._load_options(shipped, rules.VARIANTS)) == set(rules.OPTIONS)
    assert rules._load_bullheads(shipped, 1, 104, None) == rules.BULLHEADS
    assert rules._load_setups(shipped) == rules.SHIPPED.setups
