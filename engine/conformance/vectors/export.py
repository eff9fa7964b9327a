"""Writing the suite: ``arbiter vectors export DIR`` (cases, perft counts, schemas and a manifest).

>>> import tempfile
>>> export_vectors(tempfile.mkdtemp(), games=["take6"], per_clause=1)["take6"] > 50
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

from engine import jsonio
from engine.conformance.records.format import dumps_line, schema
from engine.conformance.vectors.mine import generate_cases
from engine.conformance.vectors.perft import shipped_perft
from engine.conformance.vectors.suite import Case, hand_picked_cases, vector_problem
from engine.errors import InputError, SpecError
from engine.game import game_names
from engine.outputs import VECTORS_MANIFEST, guard, write

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
    of cases per game.  A file already in ``directory`` is replaced only when an earlier export wrote it
    (its ``manifest.json`` lists it) or ``force`` says so; anything else is refused before a file is
    written.
    """
    out = Path(directory)
    names = list(games or game_names())
    stems = ("record", "vector", "perft", *names)
    files = [f"{n}.jsonl" for n in names] + ["perft.jsonl"]
    schemas = [f"schemas/{stem}.schema.json" for stem in stems]
    writable = _check_replaceable(out, [*files, *schemas, "manifest.json"], force=force)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "schemas").mkdir(exist_ok=True)
    except OSError as exc:
        raise InputError(str(directory), f"cannot create: {exc.strerror or exc}") from None
    counts: dict[str, int] = {}
    for name in names:
        cases = all_cases(name, per_clause=per_clause, games_per_config=games_per_config)
        lines = []
        for case in cases:
            data = case.to_json()
            problem = vector_problem(data)
            if problem:
                raise SpecError(f"vector {case.id}: {problem[0]}: {problem[1]}")
            lines.append(dumps_line(data) + "\n")
        writable(f"{name}.jsonl", "".join(lines))
        counts[name] = len(cases)
    writable("perft.jsonl", "".join(dumps_line(d) + "\n" for d in shipped_perft() if d["game"] in names))
    for stem, path in zip(stems, schemas, strict=True):
        writable(path, json.dumps(schema(stem), indent=2, ensure_ascii=False) + "\n")
    manifest = {"format": "arbiter-vectors", "version": FORMAT_VERSION, "cases": counts,
                "files": files, "schemas": schemas}
    writable("manifest.json", json.dumps(manifest, indent=2) + "\n")
    return counts


def _check_replaceable(out: Path, targets: list[str], *, force: bool) -> Callable[[str, str], None]:
    """Refuse, before anything is written, a target in ``out`` that exists and is not the export's own: a
    file an earlier export's ``manifest.json`` lists (its ``files`` and ``schemas``, and the manifest
    itself); ``force`` replaces any regular file.  Returns the writer of one target."""
    source = jsonio.show(str(out))
    try:
        folder = out.is_dir()
        exists = out.exists()
    except (OSError, ValueError):
        raise InputError(source, "cannot be written") from None
    if exists and not folder:
        raise InputError(source, "is not a folder")
    ours: set[str] = set()
    manifest = out / "manifest.json"
    if folder and manifest.is_file():
        guard(manifest, source=source, kind=VECTORS_MANIFEST, force=force)
        try:
            earlier = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            earlier = {}
        if isinstance(earlier, dict):
            listed = [*earlier.get("files", []), *earlier.get("schemas", [])]
            ours = {"manifest.json", *(f for f in listed if isinstance(f, str))}
            if not earlier.get("schemas"):  # an export of version 1 without the list: its schemas
                ours |= {t for t in targets if t.startswith("schemas/")}
    for target in targets:
        path = out / target
        if force or not (path.exists() or path.is_symlink()):
            continue
        if path.is_symlink() or not path.is_file():
            raise InputError(source, f"{jsonio.show(target)} is a link or not a regular file; not replaced "
                             "(--force replaces it)")
        if target not in ours:
            raise InputError(source, f"{jsonio.show(target)} exists and was not written by arbiter "
                             "vectors export (--force replaces it)")

    def write_one(target: str, text: str) -> None:
        write(out / target, text, source=source, kind=VECTORS_MANIFEST, force=True)

    return write_one

