"""Which tests run each line of the rule code, for :mod:`engine.mutation`: the suite once under coverage.py,
one context per test, kept in :data:`COVERAGE_MAP` under a hash of what it depends on.

>>> COVERAGE_MAP.name
'.mutation-coverage.json'
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.game import GAME_PACKAGES

__all__ = ["COVERAGE_MAP", "COVERAGE_SKIP", "code_fingerprint", "collect_coverage"]

ROOT = Path(__file__).resolve().parents[2]
CODE = tuple(package.replace(".", "/") for package in GAME_PACKAGES)

COVERAGE_MAP = ROOT / ".mutation-coverage.json"
"""Where :func:`collect_coverage` keeps the tests that run each line (ignored by git)."""

COVERAGE_SKIP = (
    "tests/test_lint.py",
    "tests/test_import_cycles.py",
    "tests/test_viewer_browser.py",
    "tests/test_conformance_campaign.py",
    "tests/test_assistant_mcp.py",
    "properties/test_input_fuzz.py",
)
"""Left out of the coverage run: checks of the source text (lint, import cycles), the browser and the input
fuzz harness, which test no rule, and the campaign and MCP tests, whose engine runs in other processes
(coverage sees none of it)."""


def _fingerprint(folders: Sequence[str] = (*CODE, "spec", "tests", "properties")) -> str:
    """A hash of every file the coverage map depends on: the rule code it measures, the tables, the tests
    (but :data:`COVERAGE_SKIP`); ``folders``: of these only."""
    digest = hashlib.sha256(_COLLECT.encode())
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in COVERAGE_SKIP or "__pycache__" in path.parts:
                continue
            if path.suffix in (".py", ".toml", ".json", ".jsonl"):
                digest.update(path.relative_to(ROOT).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


_COLLECT = """
import json, sys, time
import coverage, pytest
cov = coverage.Coverage(data_file=None, include=sys.argv[2].split(","))
durations = {}
failed = []
packages = tuple(sys.argv[3].split(","))
def clear_caches():
    # a cached computation (a ruleset, a table index) runs once per process: cleared before every test, it
    # runs again in each test that needs it, and coverage credits the line to every one of them
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(packages):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
class Contexts:
    def pytest_runtest_logreport(self, report):
        if report.failed:
            failed.append(report.nodeid)
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        clear_caches()
        cov.switch_context(item.nodeid)
        start = time.perf_counter()
        yield
        durations[item.nodeid] = time.perf_counter() - start
        cov.switch_context("")
cov.start()
code = pytest.main(sys.argv[4:], plugins=[Contexts()])
cov.stop()
data = cov.get_data()
lines = {}
for name in data.measured_files():
    by_line = data.contexts_by_lineno(name)
    lines[name] = {str(n): sorted(c for c in cs if c) for n, cs in by_line.items()}
json.dump({"code": int(code), "lines": lines, "durations": durations, "failed": failed},
          open(sys.argv[1], "w"))
"""


def code_fingerprint() -> str:
    """The hash of the rule code and the tables alone (what ``keep`` needs unchanged)."""
    return _fingerprint((*CODE, "spec"))


def collect_coverage(
    path: Path = COVERAGE_MAP, *, progress: bool = True, keep: bool = False
) -> dict[str, Any]:
    """Run the suite once under coverage.py, one context per test, and keep, for each line of the rule
    code, the tests that ran it (with each test's duration): :data:`COVERAGE_MAP`.  Reused while no file
    of the engine, the tables or the tests has changed; ``keep``: while the code and the tables have not
    (tests were added since: they are not in the map, so run them with ``--first``)."""
    fingerprint = _fingerprint()
    if path.is_file():
        cached = json.loads(path.read_text(encoding="utf-8"))
        if cached.get("fingerprint") == fingerprint:
            return cached  # type: ignore[no-any-return]
        if keep and cached.get("code_fingerprint") == code_fingerprint():
            if progress:
                print("mutation: the coverage map predates the tests as they are (--keep-coverage): tests "
                      "added since are not selected", file=sys.stderr, flush=True)
            return cached  # type: ignore[no-any-return]
        if keep:
            raise SystemExit("mutation: --keep-coverage: the rule code or tables changed since the coverage "
                             "map was collected; collect it again (run without --keep-coverage)")
    include = ",".join(str(ROOT / folder / "*.py") for folder in CODE)
    tests = ["tests", "properties"]
    ignore = [f"--ignore={t}" for t in COVERAGE_SKIP]
    out = path.with_suffix(".tmp")
    env = {**os.environ, "HYPOTHESIS_PROFILE": "ci", "PYTHONDONTWRITEBYTECODE": "1"}
    packages = ",".join(GAME_PACKAGES)
    cmd = [sys.executable, "-c", _COLLECT, str(out), include, packages, "-q", "-p", "no:cacheprovider",
           "-p", "no:randomly", "--hypothesis-seed=0", *ignore, *tests]
    if progress:
        print("mutation: collecting which tests run each line (the suite once, under coverage)",
              file=sys.stderr, flush=True)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0 or not out.is_file():
        raise SystemExit(f"mutation: the coverage run failed:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    raw = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    failed = sorted(set(raw["failed"]))
    if failed and progress:  # a test failing unmutated kills nothing: it is left out of every selection
        print(f"mutation: {len(failed)} test(s) fail on the unmutated code and are not selected: "
              + ", ".join(failed[:10]), file=sys.stderr, flush=True)
    lines = {
        Path(name).resolve().relative_to(ROOT).as_posix(): {n: [t for t in ts if t not in failed]
                                                             for n, ts in rows.items()}
        for name, rows in raw["lines"].items()
    }
    data = {"fingerprint": fingerprint, "code_fingerprint": code_fingerprint(),
            "seconds": round(time.perf_counter() - started, 1), "lines": lines,
            "durations": raw["durations"], "failed": failed}
    path.write_text(json.dumps(data), encoding="utf-8")
    return data
