"""mypy --strict and ruff are part of the test suite, so CI fails when either complains."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATHS = ["engine", "properties", "tests", "conftest.py"]


def _tool(name: str) -> list[str]:
    exe = Path(sys.executable).parent / name
    if exe.exists():
        return [str(exe)]
    found = shutil.which(name)
    assert found, f"{name} is not installed (pip install -e '.[dev]')"
    return [found]


def test_mypy_strict_is_clean() -> None:
    """mypy --strict reports no error on engine/, properties/ and tests/."""
    proc = subprocess.run([*_tool("mypy"), "--strict", *PATHS], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_is_clean() -> None:
    """ruff check reports nothing."""
    proc = subprocess.run([*_tool("ruff"), "check", *PATHS], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_clause_wording_says_no_more_than_its_quotes() -> None:
    """The wording lint of the rule tables: every clause whose wording adds words its quotes do not carry
    is marked as a ruling (engine.wording.check_wording), and every ruling names the reading it rejects."""
    from engine.spec import all_clauses
    from engine.wording import check_wording

    book = all_clauses()
    assert check_wording(book.values()) == []
    assert [c.id for c in book.values() if c.disputed and not c.rejects] == []
