"""``arbiter vectors export DIR | run DIR | perft``: the language-neutral test vectors on the command line.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="arbiter")
>>> register(parser.add_subparsers())
>>> parser.parse_args(["vectors", "export", "out", "--per-clause", "3"]).per_clause
3
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from engine import cliargs, jsonio, outputs
from engine.conformance.records.format import dumps_line
from engine.conformance.vectors.export import export_vectors
from engine.conformance.vectors.perft import perft_positions, read_perft, recount_perft, shipped_perft
from engine.conformance.vectors.suite import CaseOutcome, read_vectors, run_case
from engine.errors import InputError, RuleViolation
from engine.game import game_names


def _run_export(args: argparse.Namespace) -> int:
    if not 1 <= args.per_clause <= 50:
        raise InputError("--per-clause", f"expected 1 to 50 cases per clause and kind, got {args.per_clause}")
    start = time.perf_counter()
    counts = export_vectors(args.dir, games=args.game, per_clause=args.per_clause, force=args.force)
    for name, n in counts.items():  # a newline in the folder's name stays \\n (jsonio.one_line)
        print(jsonio.one_line(f"{name:<12} {n:>6} cases   {Path(args.dir) / (name + '.jsonl')}"))
    print(jsonio.one_line(f"{'perft':<12} {len([d for d in shipped_perft() if d['game'] in counts]):>6} "
                          f"positions   {Path(args.dir) / 'perft.jsonl'}"))
    schemas = Path(args.dir) / "schemas"
    print(jsonio.one_line(f"written in {time.perf_counter() - start:.1f} s; schemas in {schemas}"))
    return 0


def _run_run(args: argparse.Namespace) -> int:
    directory = Path(args.dir)
    try:
        found = directory.is_dir()
    except (OSError, ValueError):
        found = False
    if not found:
        raise InputError(jsonio.show(args.dir), "not a directory")
    files = sorted(p for p in directory.glob("*.jsonl") if p.name != "perft.jsonl")
    if not files:
        raise InputError(str(directory), "no <game>.jsonl vectors file here (run 'arbiter vectors export')")
    perft_file = directory / "perft.jsonl"
    # every file is read and validated against its schema before any case runs
    cases = [(path, data) for path in files for data in read_vectors(path)]
    positions = list(read_perft(perft_file)) if perft_file.is_file() and not args.no_perft else []
    failed: list[CaseOutcome] = []
    start = time.perf_counter()
    for path, data in cases:
        try:
            outcome = run_case(data)
        except InputError as exc:
            raise InputError(f"{path}: case {jsonio.show(data['id'])}", str(exc)) from None
        if not outcome.passed:
            failed.append(outcome)
    total = len(cases)
    perft_bad: list[tuple[str, Any, Any]] = []
    perft_n = len(positions)
    for data in positions:
        try:
            got: Any = recount_perft(data, bounded=True)
        except (RuleViolation, InputError) as exc:
            got = f"no position: {exc}"
        if got != data["counts"]:
            perft_bad.append((data["id"], data["counts"], got))
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"cases": total, "failed": [{"id": o.id, "message": o.message} for o in failed],
                          "perft": perft_n, "perft_failed": [{"id": i, "expected": e, "got": g}
                                                             for i, e, g in perft_bad],
                          "seconds": round(seconds, 3)}, indent=1))
    else:
        for o in failed:
            print(f"FAIL  {o.id:<48}  {o.message}")
        for pid, expected, got in perft_bad:
            print(f"FAIL  {pid:<48}  perft expected {expected}, got {got}")
        print(f"{total} cases, {len(failed)} failed; {perft_n} perft positions, {len(perft_bad)} failed "
              f"({seconds:.1f} s)")
    return 1 if failed or perft_bad else 0


def _run_perft(args: argparse.Namespace) -> int:
    if args.write:
        jsonio.check_writable(args.write, source="--write")
        outputs.guard(args.write, source="--write", kind=outputs.PERFT_FILE, force=args.force)
    elif args.force:
        raise InputError("--force", "only with --write FILE")
    positions = perft_positions(args.game)
    if args.write:
        path = Path(args.write)
        outputs.write(path, "".join(dumps_line(p.to_json()) + "\n" for p in positions), source="--write",
                      kind=outputs.PERFT_FILE, force=args.force)
        print(jsonio.one_line(f"wrote {len(positions)} positions to {path}"))
        return 0
    shipped = {d["id"]: d["counts"] for d in shipped_perft()}
    bad = 0
    for p in positions:
        mark = "ok" if shipped.get(p.id) == list(p.counts) else "DIFFERS"
        bad += mark != "ok"
        print(f"{p.id:<44} {' '.join(f'{c:>8}' for c in p.counts)}   {mark}")
    return 1 if bad else 0


def register(sub: Any) -> None:
    """Add ``vectors`` (``export``, ``run``, ``perft``) to the command line."""
    p = sub.add_parser("vectors", help="language-neutral conformance test vectors and perft counts")
    vsub = p.add_subparsers(dest="vectors_command", metavar="ACTION", parser_class=type(p))
    vsub.required = True
    e = vsub.add_parser("export", help="write the test vectors, perft counts and schemas to DIR")
    e.add_argument("dir", metavar="DIR")
    e.add_argument("--game", action="append", choices=game_names(), help="only this game (repeatable)")
    e.add_argument("--per-clause", type=cliargs.count("--per-clause"), default=2,
                   help="generated cases per clause and kind")
    e.add_argument("--force", action="store_true",
                   help="replace files in DIR that an earlier export did not write")
    e.set_defaults(run=_run_export)
    r = vsub.add_parser("run", help="run exported vectors against the reference engine")
    r.add_argument("dir", metavar="DIR")
    r.add_argument("--no-perft", action="store_true", help="skip the perft recount")
    r.add_argument("--json", action="store_true", help="machine-readable output")
    r.set_defaults(run=_run_run)
    f = vsub.add_parser("perft", help="recompute the perft counts and compare them with the shipped file")
    f.add_argument("--game", action="append", choices=game_names())
    f.add_argument("--write", metavar="FILE", help="write the recomputed positions to FILE instead")
    f.add_argument("--force", action="store_true",
                   help="with --write: replace a FILE that is not a perft file")
    f.set_defaults(run=_run_perft)

