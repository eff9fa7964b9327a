"""Writing the suite: ``arbiter vectors export DIR`` (cases, perft counts, schemas and a manifest).

>>> import tempfile
>>> export_vectors(tempfile.mkdtemp(), games=["take6"], per_clause=1)["take6"] > 50
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from engine import jsonio
from engine.conformance.records.format import dumps_line, schema
from engine.conformance.vectors.mine import generate_cases
from engine.conformance.vectors.perft import shipped_perft
from engine.conformance.vectors.suite import Case, hand_picked_cases, vector_problem
from engine.errors import SpecError
from engine.game import game_names
from engine.outputs import SUITE_FILE, VECTORS_MANIFEST, Folder

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
                   games_per_config: int = 3, force: bool = False) -> dict[str, int]:
    """Write the suite to ``directory``: ``<game>.jsonl``, ``perft.jsonl``, ``schemas/``, ``manifest.json``.

    Every case and perft line is validated against its schema before it is written.  Returns the number
    of cases per game.  A file already in ``directory`` is replaced only when an earlier export can be shown
    to have written it as it is now (its sealed ``manifest.json`` lists it with its digest) or ``force`` says
    so; anything else is refused before a file is written.  No link in the folder is followed
    (:class:`engine.outputs.Folder`): a link in place of ``schemas/`` is refused.
    """
    names = list(games or game_names())
    stems = ("record", "vector", "perft", *names)
    files = [f"{n}.jsonl" for n in names] + ["perft.jsonl"]
    schemas = [f"{stem}.schema.json" for stem in stems]
    source = jsonio.show(str(directory))
    with Folder(directory, source=source) as out, out.sub("schemas") as sub:  # every file first
        listed = _earlier_digests(out, force)
        for name in files:
            out.check(name, kind=SUITE_FILE, force=force, digests=listed)
        for name in schemas:
            sub.check(name, kind=SUITE_FILE, force=force, digests=_under("schemas/", listed))
    counts: dict[str, int] = {}
    written: dict[str, str] = {}
    with Folder(directory, source=source, create=True) as out, out.sub("schemas", create=True) as sub:
        for name in names:
            cases = all_cases(name, per_clause=per_clause, games_per_config=games_per_config)
            lines = []
            for case in cases:
                data = case.to_json()
                problem = vector_problem(data)
                if problem:
                    raise SpecError(f"vector {case.id}: {problem[0]}: {problem[1]}")
                lines.append(dumps_line(data) + "\n")
            file = f"{name}.jsonl"
            written[file] = out.write(file, "".join(lines), kind=SUITE_FILE, force=force, digests=listed)
            counts[name] = len(cases)
        perft = "".join(dumps_line(d) + "\n" for d in shipped_perft() if d["game"] in names)
        written["perft.jsonl"] = out.write("perft.jsonl", perft, kind=SUITE_FILE, force=force, digests=listed)
        for stem, name in zip(stems, schemas, strict=True):
            text = json.dumps(schema(stem), indent=2, ensure_ascii=False) + "\n"
            written[f"schemas/{name}"] = sub.write(name, text, kind=SUITE_FILE, force=force,
                                                   digests=_under("schemas/", listed))
        manifest = {"format": "arbiter-vectors", "version": FORMAT_VERSION, "cases": counts, "files": files,
                    "schemas": [f"schemas/{name}" for name in schemas], "digests": written}
        out.write("manifest.json", json.dumps(manifest, indent=2) + "\n", kind=VECTORS_MANIFEST, force=force)
    return counts


def _earlier_digests(out: Folder, force: bool) -> dict[str, str]:
    """The files an earlier export wrote here, with their SHA-256 digests, from its ``manifest.json`` when
    that is proven the export's own (its seal); a manifest that is not is refused (``force``: replaced)."""
    out.check("manifest.json", kind=VECTORS_MANIFEST, force=force)
    if force or out.status("manifest.json") is None:
        return {}
    try:
        earlier = json.loads(out.read("manifest.json"))
    except (OSError, ValueError):
        return {}
    digests = earlier.get("digests") if isinstance(earlier, dict) else None
    if not isinstance(digests, dict):
        return {}
    return {k: v for k, v in digests.items() if isinstance(k, str) and isinstance(v, str)}


def _under(prefix: str, digests: Mapping[str, str]) -> dict[str, str]:
    return {k[len(prefix) :]: v for k, v in digests.items() if k.startswith(prefix)}
