"""Writing the suite: ``arbiter vectors export DIR`` (cases, perft counts, schemas and a manifest).

>>> import tempfile
>>> export_vectors(tempfile.mkdtemp(), games=["take6"], per_clause=1)["take6"] > 50
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from engine.conformance.records import dumps_line, schema
from engine.conformance.vectors import Case, hand_picked_cases, vector_problem
from engine.conformance.vectors_mine import generate_cases
from engine.conformance.vectors_perft import shipped_perft
from engine.errors import InputError, SpecError
from engine.game import game_names

__all__ = ["FORMAT_VERSION", "all_cases", "export_vectors"]

FORMAT_VERSION = 1
"""The version of the exported suite (``manifest.json``)."""

def all_cases(game_name: str, *, per_clause: int = 2, games_per_config: int = 3) -> list[Case]:
    """Hand-picked then generated cases of a game, ids unique."""
    cases = hand_picked_cases(game_name) + generate_cases(game_name, per_clause=per_clause,
                                                          games_per_config=games_per_config)
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise SpecError(f"duplicate vector id {case.id!r}")
        seen.add(case.id)
    return cases


def export_vectors(directory: str | Path, *, games: Iterable[str] | None = None, per_clause: int = 2,
                   games_per_config: int = 3) -> dict[str, int]:
    """Write the suite to ``directory``: ``<game>.jsonl``, ``perft.jsonl``, ``schemas/``, ``manifest.json``.

    Every case and perft line is validated against its schema before it is written.  Returns the number
    of cases per game.
    """
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "schemas").mkdir(exist_ok=True)
    except OSError as exc:
        raise InputError(str(directory), f"cannot create: {exc.strerror or exc}") from None
    names = list(games or game_names())
    counts: dict[str, int] = {}
    for name in names:
        cases = all_cases(name, per_clause=per_clause, games_per_config=games_per_config)
        with (out / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
            for case in cases:
                data = case.to_json()
                problem = vector_problem(data)
                if problem:
                    raise SpecError(f"vector {case.id}: {problem[0]}: {problem[1]}")
                fh.write(dumps_line(data) + "\n")
        counts[name] = len(cases)
    with (out / "perft.jsonl").open("w", encoding="utf-8") as fh:
        for data in shipped_perft():
            if data["game"] in names:
                fh.write(dumps_line(data) + "\n")
    for stem in ("record", "vector", "perft", *names):
        (out / "schemas" / f"{stem}.schema.json").write_text(
            json.dumps(schema(stem), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    manifest = {"format": "arbiter-vectors", "version": FORMAT_VERSION, "cases": counts,
                "files": [f"{n}.jsonl" for n in names] + ["perft.jsonl"]}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return counts

