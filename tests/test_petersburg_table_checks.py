"""The Saint Petersburg table loaders refuse malformed tables: each check is run on a table edited in memory
(the file on disk is untouched) and must raise a SpecError naming the table."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine.spec
from engine.errors import SpecError

Edit = Callable[[dict[str, Any]], None]
catalog = importlib.import_module("engine.petersburg.catalog")


def loads_with(monkeypatch: pytest.MonkeyPatch, filename: str, edit: Edit, loader: Callable[[], Any]) -> None:
    """Run the uncached ``loader`` with ``spec/petersburg/<filename>`` edited by ``edit``."""
    real = engine.spec.read_toml

    def patched(path: Path) -> dict[str, Any]:
        doc = real(path)
        if path.name == filename and path.parent.name == "petersburg":
            doc = copy.deepcopy(doc)
            edit(doc)
        return doc

    monkeypatch.setattr(engine.spec, "read_toml", patched)
    loader()


def _set(section: str, index: int, key: str, value: Any) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        doc[section][index][key] = value

    return edit


CASES: dict[str, tuple[str, Edit, str, str]] = {
    "a stack citing no clause": (
        "phases.toml",
        _set("stack", 0, "clause", "SP-NOPE"),
        "_phase_tables",
        "clause",
    ),
    "a set-up citing no clause": ("setup.toml", _set("setup", 1, "clause", "SP-NOPE"), "_setups", "clause"),
    "round_end on the wrong phase": (
        "phases.toml",
        _set("phase", 0, "round_end", True),
        "_phase_tables",
        "round_end on the last",
    ),
    "a pairing on a card that is not a trading card (its row named, counting from 1)": (
        "pairings.toml",
        _set("pairing", 0, "trading", "Lumberjack"),
        "_pairings",
        r"\[\[pairing\]\] row 1 \(trading='Lumberjack'\): field 'trading' must name a trading card",
    ),
    "phases out of order": (
        "phases.toml",
        lambda d: d["phase"].reverse(),
        "_phase_tables",
        "expected phases",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_tables_are_refused(monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    """SP-SETUP-1 / SP-PHASE-1 / SP-TRADE-3: the phase order with the round's end after the trading phase,
    the pairings' trading cards and every row's clause reference are checked when the tables load — a
    malformed table is a SpecError, never a silently different game."""
    filename, edit, loader, message = CASES[case]
    with pytest.raises(SpecError, match=message):
        loads_with(monkeypatch, filename, edit, getattr(catalog, loader).__wrapped__)


def test_the_unedited_tables_load() -> None:
    """The same loaders accept the shipped tables (so the refusals above are about the edits)."""
    for loader in ("_phase_tables", "_setups"):
        assert getattr(catalog, loader).__wrapped__()
