"""The mutation run (``python -m engine.mutation``): which mutants, which tests against each, the run.

A mutant is killed when the tests fail, or run past the time limit, or the tables refuse to load.  The tests
run against a code mutant are the ones that execute its line (``--select coverage``, the default): the
whole suite is run once under coverage.py with one context per test (:func:`collect_coverage`, cached in
:data:`~engine.mutation.coverage.COVERAGE_MAP` until a file of the engine, the tables or the tests
changes), and a mutant of line L runs exactly the tests that ran line L, fastest first, with ``pytest -x``.
A line run only at import (a module constant) and a table mutant (tables are read once, at import) run the
tests of the game the file belongs to (:data:`TESTS`), the table checks first; ``--select game`` uses those
lists for every mutant.  Mutants run ``--jobs N`` at a time, each in a scratch copy of its own.

>>> len(all_mutants(["spec/take6/game.toml"])) > 0
True
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import queue
import random
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from engine import cliargs
from engine.game import GAME_PACKAGES, game_names
from engine.mutation.code import code_mutants
from engine.mutation.coverage import collect_coverage
from engine.mutation.mutant import Mutant
from engine.mutation.report import (
    OUTCOMES,
    equivalent_reason,
    equivalents,
    module_lines,
    read_journal,
    score_lines,
    survivors_of,
)
from engine.mutation.tables import table_mutants
from engine.mutation.worker import Worker, run_tests

ROOT = Path(__file__).resolve().parents[2]

CODE = tuple(package.replace(".", "/") for package in GAME_PACKAGES)
TABLES = ("spec/take6", "spec/petersburg", "spec/seeds.toml")

TESTS: dict[str, tuple[str, ...]] = {
    game: (
        f"tests/test_{game}_*.py",
        f"properties/test_{game}_*.py",
        f"tests/test_query_{game}.py",
        "tests/test_api_generic.py",
        "tests/test_spec_loader.py",
        "tests/test_rule_table_citations.py",
        "tests/test_positions*.py",
        "properties/test_position_properties.py",
        "tests/test_conformance_chance.py" if game == "take6" else "tests/test_petersburg_api.py",
    )
    for game in game_names()
}
"""The tests run against a mutant of each game's code or tables (``spec/seeds.toml``: both games'): the
game's own tests and properties, its queries, the generic protocol test, the loader, the citations, and the
positions (builders, notation, the chance step) that every state is built through."""

TABLE_FIRST = (
    "tests/test_spec_loader.py",
    "tests/test_rule_table_citations.py",
    "tests/test_take6_table_checks.py",
    "tests/test_petersburg_table_checks.py",
    "tests/test_take6_tables.py",
    "tests/test_petersburg_tables.py",
)
"""Run first against a table mutant: the table checks, which kill most of them in seconds."""


NOT_RULES = ("testing.py", "drawing.py")
"""Files of the rule folders that hold no rule: ``engine/petersburg/testing.py`` builds test positions, and
each game's ``drawing.py`` lays out its SVG picture (positions, sizes, colours; what a viewer may see is the
engine's observation, which is mutated where it is computed)."""


# --------------------------------------------------------------------------------------------------
# Running


def all_mutants(only: Sequence[str] = ()) -> list[Mutant]:
    """Every mutant of the rule-bearing code and the tables (restricted to paths starting with ``only``)."""
    out: list[Mutant] = []
    for folder in CODE:
        for file in sorted((ROOT / folder).glob("*.py")):
            if file.name in NOT_RULES:
                continue
            rel = file.relative_to(ROOT).as_posix()
            out += code_mutants(rel, file.read_text(encoding="utf-8"))
    for entry in TABLES:
        base = ROOT / entry
        for file in sorted(base.glob("*.toml")) if base.is_dir() else [base]:
            rel = file.relative_to(ROOT).as_posix()
            out += table_mutants(rel, file.read_text(encoding="utf-8"))
    if only:
        out = [m for m in out if m.path.startswith(tuple(only))]
    return out


def _scratch() -> Path:
    """A copy of the repository's code, tables, tests and seeds to mutate."""
    work = Path(tempfile.mkdtemp(prefix="arbiter-mutation-"))
    for name in ("engine", "spec", "seeds", "tests", "properties", "docs"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("conftest.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, work / name)
    return work


def game_tests(work: Path, games: Sequence[str], *, tables_first: bool = False) -> list[str]:
    """The test files of :data:`TESTS` for ``games`` in ``work`` (the table checks first, if asked)."""
    tests = sorted({str(p.relative_to(work)) for g in games for t in TESTS[g] for p in work.glob(t)})
    if tables_first:
        tests = [t for t in TABLE_FIRST if t in tests] + [t for t in tests if t not in TABLE_FIRST]
    return tests


def selected_tests(mutant: Mutant, coverage: dict[str, Any] | None, work: Path) -> list[str]:
    """What runs against ``mutant``: the tests that ran its line, those of a test file named like the
    mutated module first, then fastest first; the game's tests when the line runs only at import, for a
    table, or without a coverage map."""
    if coverage is not None and mutant.path.endswith(".py"):
        tests = coverage["lines"].get(mutant.path, {}).get(str(mutant.line))
        if tests:
            durations = coverage["durations"]
            near = Path(mutant.path).stem[:5]  # position.py: test_positions.py first, a likelier killer
            return sorted(tests, key=lambda t: (near not in t.partition("::")[0], durations.get(t, 0.0), t))
        if tests == []:  # run, but only while the modules were imported
            return game_tests(work, mutant.games())
        if mutant.path in coverage["lines"]:
            return []  # no test runs this line: nothing can kill the mutant
    return game_tests(work, mutant.games(), tables_first=mutant.path.endswith(".toml"))


FILE_COST = 1.0
"""Seconds a budgeted share is charged for each test file it takes: collecting the file (its imports, its
parameters) is not in any test's duration."""


def within_budget(tests: Sequence[str], durations: dict[str, float], budget: float,
                  first: Sequence[str] = ()) -> list[str]:
    """A share of ``tests`` that took at most ``budget`` seconds in the coverage run, each file taken
    charged :data:`FILE_COST` more: a test file stands for its tests; the files in ``first`` (the game's
    own) come before the others; the tests are taken file by file in turn (each file's fastest first), so
    the share samples several files that run the line rather than the fastest file alone; the first test
    is always taken.

    >>> d = {"a.py::1": 0.5, "a.py::2": 0.5, "b.py::1": 5.0, "c.py::1": 0.5}
    >>> within_budget(["a.py::1", "a.py::2", "b.py::1", "c.py::1"], d, 3.5)  # b.py::1 alone is over
    ['a.py::1', 'c.py::1', 'a.py::2']
    >>> within_budget(["a.py", "c.py::1"], d, 3.5, first=["c.py"])
    ['c.py::1', 'a.py::1', 'a.py::2']
    """
    by_file: dict[str, list[str]] = {}
    for test in tests:
        file, _, node = test.partition("::")
        found = [n for n in durations if n.partition("::")[0] == file] if not node else [test]
        by_file.setdefault(file, []).extend(found or [test])
    order = [f for f in by_file if f in first] + [f for f in by_file if f not in first]
    queues = [sorted(by_file[f], key=lambda n: (durations.get(n, 0.0), n)) for f in order]
    chosen: list[str] = []
    taken = [False] * len(queues)
    spent = 0.0
    while any(queues):
        for i, q in enumerate(queues):
            if not q:
                continue
            cost = durations.get(q[0], 1.0) + (0.0 if taken[i] else FILE_COST)
            if chosen and spent + cost > budget:
                q.clear()  # this file's next test is over the budget: its slower ones are too
                continue
            chosen.append(q.pop(0))
            taken[i] = True
            spent += cost
    return chosen


def time_limit(tests: Sequence[str], coverage: dict[str, Any] | None, timeout: float) -> float:
    """Seconds a mutant's tests may run: ``timeout`` beyond twice what they took in the coverage run (a test
    file counts every test in it), so a mutant is counted as timed out for making the tests hang, not for
    having many tests to run.

    >>> time_limit(["t.py::a", "u.py"], {"durations": {"t.py::a": 2.0, "u.py::b": 3.0, "v.py::c": 9.0}}, 45)
    55.0
    """
    if coverage is None:
        return timeout
    durations: dict[str, float] = coverage["durations"]
    files = {t for t in tests if "::" not in t}
    spent = sum(durations.get(t, 0.0) for t in tests if "::" in t)
    if files:
        spent += sum(d for node, d in durations.items() if node.partition("::")[0] in files)
    return timeout + 2 * spent


def run(
    mutants: Sequence[Mutant],
    *,
    timeout: float = 45.0,
    progress: bool = True,
    coverage: dict[str, Any] | None = None,
    jobs: int = 1,
    journal: Path | None = None,
    budget: float | None = None,
    skip_equivalents: bool = False,
    first: Sequence[str] = (),
    only_first: bool = False,
) -> dict[str, list[Mutant]]:
    """Run the selected tests (:func:`selected_tests`; ``coverage`` None: the games' tests) against every
    mutant, ``jobs`` mutants at a time in scratch copies of their own; mutants grouped by outcome
    (``killed``, ``survived``, ``timeout``, ``equivalent``).

    ``journal``: a file each outcome is appended to as it comes (one JSON object a line); a mutant it
    already holds is not run again, its outcome is read from it, so a run stopped part-way goes on where
    it stopped.

    ``budget``: each mutant runs only a share of its tests that took at most this many seconds in the
    coverage run (:func:`within_budget`); a mutant that survives them is journalled as surviving *within
    the budget*, and a later run without a budget runs it again against all its tests.

    ``skip_equivalents``: a mutant listed in :data:`EQUIVALENTS` is counted as equivalent without being
    run (a second pass need not spend minutes confirming what a reason already says).

    ``first``: tests run before the selected ones against every mutant that has any (tests written for
    survivors, before the coverage map knows them); ``only_first``: those tests alone against every
    mutant, journalling a kill but not a survival (which says nothing of the rest of the suite)."""
    known = equivalents()
    outcome: dict[str, list[Mutant]] = {kind: [] for kind in OUTCOMES}
    if journal is not None:
        earlier = read_journal(journal)
        for m in mutants:
            entry = earlier.get(m.describe())
            result = None if entry is None else entry[0]
            if result == "survived" and only_first:
                result = None  # the tests given may kill what the rest of the suite did not
            elif result == "survived" and entry is not None and entry[1] is not None:
                # survived a share of its tests only: run it against all of them, or (budgeted) say so
                result = None if budget is None else "unconfirmed"
            if result is not None:
                if result in ("survived", "unconfirmed") and equivalent_reason(m, known) is not None:
                    result = "equivalent"
                outcome[result].append(m)
        if progress and earlier:
            print(f"mutation: {sum(map(len, outcome.values()))} of the {len(mutants)} mutants are in the "
                  f"journal {journal}; running the rest", file=sys.stderr, flush=True)
        mutants_done = {m.describe() for ms in outcome.values() for m in ms}
        todo = [m for m in mutants if m.describe() not in mutants_done]
    else:
        todo = list(mutants)
    if skip_equivalents:  # listed with a reason: counted as equivalent without running their tests
        listed = [m for m in todo if equivalent_reason(m, known) is not None]
        outcome["equivalent"].extend(listed)
        todo = [m for m in todo if equivalent_reason(m, known) is None]
    if not todo:
        return outcome
    jobs = cliargs.cap_jobs(jobs, len(todo)) if jobs > 1 else 1
    works = [_scratch() for _ in range(jobs)]
    workers = [Worker(work) for work in works]
    free: queue.Queue[Worker] = queue.Queue()
    for worker in workers:
        free.put(worker)
    done = [0]
    lock = threading.Lock()

    def one(m: Mutant) -> None:
        worker = free.get()
        started = time.perf_counter()
        try:
            target = worker.work / m.path
            original = target.read_text(encoding="utf-8")
            target.write_text(m.build(), encoding="utf-8")
            try:
                tests = list(first) if only_first else selected_tests(m, coverage, worker.work)
                tests = [t for t in tests if (worker.work / t.partition("::")[0]).is_file()]
                if budget is not None and coverage is not None:
                    tests = within_budget(tests, coverage["durations"], budget,
                                          first=game_tests(worker.work, m.games()))
                if first and tests:
                    tests = [*first, *(t for t in tests if t not in first)]
                result = worker.run(tests, time_limit(tests, coverage, timeout))
            finally:
                target.write_text(original, encoding="utf-8")
        finally:
            free.put(worker)
        seconds = time.perf_counter() - started
        with lock:
            if journal is not None and not (only_first and result == "survived"):
                entry: dict[str, Any] = {"mutant": m.describe(), "result": result,
                                         "seconds": round(seconds, 1)}
                if budget is not None and result == "survived":
                    entry["budget"] = budget
                with journal.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(entry) + "\n")
            if result == "survived" and equivalent_reason(m, known) is not None:
                result = "equivalent"
            elif result == "survived" and budget is not None:
                result = "unconfirmed"
            outcome[result].append(m)
            done[0] += 1
            if progress:
                print(f"[{done[0]}/{len(todo)}] {result:<10} {seconds:5.1f} s  {m.describe()}",
                      file=sys.stderr, flush=True)

    try:
        baseline = coverage is None and not only_first
        if baseline and run_tests(works[0], timeout * 3, game_tests(works[0], tuple(TESTS))) != "survived":
            raise SystemExit("mutation: the tests fail on the unmutated code; fix them first")
        if first and workers[0].run(list(first), timeout * 3) != "survived":
            raise SystemExit("mutation: a --first test fails on the unmutated code (it kills every mutant)")
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(one, todo))
    finally:
        for worker in workers:
            worker.close()
        for work in works:
            shutil.rmtree(work, ignore_errors=True)
    return outcome


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m engine.mutation``: exit 0 when every mutant is killed or equivalent, 1 otherwise."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.mutation",
        description="Mutation testing of the rules: change the rule-bearing code and the rule tables, run "
        "the tests, count.",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PATH",
        help="only mutants of files under PATH (repeatable), e.g. spec/take6",
    )
    parser.add_argument(
        "--match",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only mutants whose description matches PATTERN (fnmatch; repeatable), e.g. "
        "'spec/take6/*: variants = *'",
    )
    parser.add_argument(
        "--rerun",
        metavar="REPORT",
        help="only the mutants a previous report (this command's output) lists as SURVIVED",
    )
    parser.add_argument("--sample", type=cliargs.count("--sample"), default=None, metavar="N",
                        help="a random sample of N mutants")
    parser.add_argument("--seed", type=cliargs.seed("--seed"), default=0,
                        help="seed of the sample (default 0)")
    parser.add_argument("--timeout", type=cliargs.seconds("--timeout"), default=45.0,
                        help="seconds per mutant before it is killed")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--select", choices=("coverage", "game", "first"), default="coverage",
                        help="coverage: the tests that run the mutated line (default); game: the game's; "
                        "first: only the --first tests (a kill is journalled, a survival is not)")
    parser.add_argument("--jobs", type=cliargs.count("--jobs", hi=cliargs.MAX_JOBS), default=1, metavar="N",
                        help="mutants run at a time, each in a scratch copy (default 1)")
    parser.add_argument("--modules", action="store_true", help="also print the per-module table (Markdown)")
    parser.add_argument("--budget", type=cliargs.seconds("--budget"), default=None, metavar="SECONDS",
                        help="run each mutant against a share of its tests that took at most SECONDS in the "
                        "coverage run (a quick first pass; a later run without it runs the survivors fully)")
    parser.add_argument("--first", action="append", default=[], metavar="TEST",
                        help="run TEST (a file or node id; repeatable) first against every mutant that has "
                        "tests")
    parser.add_argument("--keep-coverage", action="store_true",
                        help="reuse the coverage map while the rule code and tables are unchanged, though "
                        "tests were added (give the added ones with --first)")
    parser.add_argument("--only-equivalent", action="store_true",
                        help="only the mutants listed as equivalent, run against their tests: a check of "
                        "the reasons (a kill shows a reason to correct; a survivor counts as equivalent)")
    parser.add_argument("--skip-equivalent", action="store_true",
                        help="count the mutants listed as equivalent without running them")
    parser.add_argument("--journal", metavar="FILE", default=None,
                        help="append each outcome to FILE as it comes, and skip the mutants FILE already "
                        "holds (a long run stopped part-way goes on where it stopped)")
    args = parser.parse_args(argv)
    if args.only_equivalent and args.skip_equivalent:
        parser.error("--only-equivalent runs the listed equivalents; --skip-equivalent does not run them")
    known = equivalents()
    mutants = all_mutants(args.only)
    if args.only_equivalent:
        mutants = [m for m in mutants if equivalent_reason(m, known) is not None]
    if args.match:
        mutants = [m for m in mutants if any(fnmatch.fnmatchcase(m.describe(), p) for p in args.match)]
    if args.rerun:
        mutants = survivors_of(Path(args.rerun), mutants)
    if args.sample is not None and args.sample < len(mutants):
        mutants = sorted(
            random.Random(args.seed).sample(mutants, args.sample), key=lambda m: (m.path, m.line)
        )
    if args.list:
        for m in mutants:
            print(m.describe())
        print(f"{len(mutants)} mutants")
        return 0
    journal = Path(args.journal) if args.journal else None
    earlier = read_journal(journal) if journal is not None else {}  # a bad journal stops the run here
    start = time.perf_counter()
    def settled(m: Mutant) -> bool:  # its outcome is in the journal and need not be run again
        result, within = earlier.get(m.describe(), (None, None))
        budgeted_only = within is not None and args.budget is None
        rerun = result == "survived" and (args.select == "first" or budgeted_only)
        listed = args.skip_equivalent and equivalent_reason(m, known) is not None
        return listed or (result is not None and not rerun)

    pending = not all(settled(m) for m in mutants)
    coverage = collect_coverage(keep=args.keep_coverage) if args.select == "coverage" and pending else None
    collected = time.perf_counter() - start
    if args.select == "first" and not args.first:
        raise SystemExit("mutation: --select first needs --first TEST")
    outcome = run(mutants, timeout=args.timeout, coverage=coverage, jobs=args.jobs, journal=journal,
                  only_first=args.select == "first",
                  budget=args.budget, skip_equivalents=args.skip_equivalent, first=args.first)
    for line in score_lines(mutants, outcome):
        print(line)
    if args.modules:
        print()
        for line in module_lines(mutants, outcome):
            print(line)
    spent = time.perf_counter() - start
    print(f"{len(mutants)} mutants in {spent:.0f} s ({collected:.0f} s of it collecting coverage), "
          f"{args.jobs} job(s), tests selected by {args.select}")
    return 1 if outcome["survived"] or outcome["unconfirmed"] else 0

