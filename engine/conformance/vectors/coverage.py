"""Coverage of the clauses by test vectors, and the documented exemptions (``coverage.toml``).

>>> from engine.conformance.vectors.suite import hand_picked_cases
>>> rows = coverage("take6", hand_picked_cases("take6"))
>>> rows[0].clause.startswith("T6-")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from attrs import frozen

from engine.conformance.vectors.suite import Case
from engine.errors import SpecError
from engine.spec import clause_prefix, load_clauses, read_toml

__all__ = ["Coverage", "coverage", "exemptions"]


@frozen
class Coverage:
    """Per clause: how many accept / reject vectors test it, and any documented exemption."""

    clause: str
    accept: int
    reject: int
    exempt_accept: str | None
    exempt_reject: str | None

    @property
    def complete(self) -> bool:
        """Both kinds present or exempted with a reason."""
        return (self.accept > 0 or self.exempt_accept is not None) and (
            self.reject > 0 or self.exempt_reject is not None
        )


def exemptions(game_name: str) -> dict[str, dict[str, str]]:
    """Clauses not vector-testable one way or the other, with the reason (``coverage.toml``).

    Returns ``{clause: {"accept": reason, "reject": reason}}``; a ``[[topic]]`` row covers a whole topic.
    """
    path = Path(str(resources.files("engine.conformance.vectors").joinpath("coverage.toml")))
    doc = read_toml(path)
    book = load_clauses(game_name)
    out: dict[str, dict[str, str]] = {}
    for i, row in enumerate(doc.get("topic", []), start=1):
        if set(row) - {"game", "topic", "accept", "reject"} or "topic" not in row or "game" not in row:
            raise SpecError(f"coverage.toml [[topic]] row {i}: fields are game, topic, accept, reject")
        if row["game"] != game_name:
            continue
        ids = [c.id for c in book.values() if c.topic == row["topic"]]
        if not ids:
            raise SpecError(f"coverage.toml [[topic]] row {i}: no {game_name} clause of topic {row['topic']}")
        for cid in ids:
            out.setdefault(cid, {}).update({k: row[k] for k in ("accept", "reject") if k in row})
    for i, row in enumerate(doc.get("clause", []), start=1):
        if set(row) - {"id", "accept", "reject"} or "id" not in row:
            raise SpecError(f"coverage.toml [[clause]] row {i}: fields are id, accept, reject")
        if row["id"].split("-")[0] != clause_prefix(game_name):
            continue
        if row["id"] not in book:
            raise SpecError(f"coverage.toml [[clause]] row {i}: unknown clause {row['id']!r}")
        out.setdefault(row["id"], {}).update({k: row[k] for k in ("accept", "reject") if k in row})
    return out


def coverage(game_name: str, cases: Iterable[Case | Mapping[str, Any]]) -> list[Coverage]:
    """Coverage of every clause of the game by ``cases``, in clause-book order."""
    accept: dict[str, int] = {}
    reject: dict[str, int] = {}
    for case in cases:
        data = case.to_json() if isinstance(case, Case) else case
        bucket = accept if data["kind"] == "accept" else reject
        for clause in data["clauses"]:
            bucket[clause] = bucket.get(clause, 0) + 1
    ex = exemptions(game_name)
    return [Coverage(cid, accept.get(cid, 0), reject.get(cid, 0), ex.get(cid, {}).get("accept"),
                     ex.get(cid, {}).get("reject"))
            for cid in load_clauses(game_name)]

