"""Every clause id leads to a test in one hop, and every clause id a test cites exists.

This is the traceability rule: table row → interpreter → test(s) that cite it.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.spec import all_clauses

ROOT = Path(__file__).resolve().parent.parent
ID = re.compile(r"\b(?:T6|SP)-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+\b")


def cited_ids() -> dict[str, set[str]]:
    """Clause ids mentioned in the test and property suites, with the files that mention them."""
    found: dict[str, set[str]] = {}
    for folder in ("tests", "properties"):
        for path in (ROOT / folder).rglob("*.py"):
            for cid in ID.findall(path.read_text(encoding="utf-8")):
                found.setdefault(cid, set()).add(path.name)
    return found


def test_every_clause_is_cited_by_a_test() -> None:
    """Each clause in spec/ is cited by at least one test or property (no untested rule)."""
    cited = cited_ids()
    missing = sorted(cid for cid in all_clauses() if cid not in cited)
    assert not missing, f"clauses no test cites: {', '.join(missing)}"


def test_tests_cite_only_existing_clauses() -> None:
    """A test never cites a clause id that does not exist (no dangling references); the loader tests' own
    made-up clauses (``T6-DEMO-N``) and its dangling example (``T6-NOPE-1``) excepted."""
    known = all_clauses()
    here = Path(__file__).name
    dangling = sorted(
        f"{cid} ({', '.join(sorted(files))})"
        for cid, files in cited_ids().items()
        if cid not in known and files != {here} and not cid.startswith("T6-DEMO-")
        and cid not in {"T6-NOPE-1", "SP-COST-1"}
    )
    assert not dangling, f"tests cite unknown clauses: {', '.join(dangling)}"
