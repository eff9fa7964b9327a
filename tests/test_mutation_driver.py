"""The mutation driver's own parts (docs/robustness.md, "Mutation testing"): the forked test worker tells a
passing, a failing and a hanging run apart; the journal resumes a run and is validated; a budgeted pass's
survivor is run again by a pass without a budget."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.mutation import coverage as mutation_coverage
from engine.mutation import driver
from engine.mutation import report as mutation_report
from engine.mutation import worker as mutation_worker
from engine.mutation.mutant import Mutant

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the forked worker needs fork")


def test_the_worker_tells_pass_fail_and_hang_apart(tmp_path: Path) -> None:
    """A run whose tests pass is ``survived``, one with a failing test ``killed``, one past its time limit
    ``timeout`` (and the worker goes on serving after it)."""
    (tmp_path / "test_a.py").write_text(
        "import time\n"
        "def test_pass():\n    assert True\n"
        "def test_fail():\n    assert False\n"
        "def test_hang():\n    time.sleep(60)\n",
        encoding="utf-8",
    )
    worker = mutation_worker.Worker(tmp_path)
    try:
        assert worker.run(["test_a.py::test_pass"], 30) == "survived"
        assert worker.run(["test_a.py::test_pass", "test_a.py::test_fail"], 30) == "killed"
        assert worker.run(["test_a.py::test_hang"], 1.5) == "timeout"
        assert worker.run(["test_a.py::test_pass"], 30) == "survived"
        assert worker.run([], 30) == "survived"  # no test runs the line: nothing can kill the mutant
    finally:
        worker.close()


def test_the_worker_imports_the_scratch_copy_afresh(tmp_path: Path) -> None:
    """Each run imports the code of the scratch copy as it stands then: a module changed between two runs is
    the changed one in the second (the worker itself imported none of it)."""
    (tmp_path / "thing.py").write_text("VALUE = 1\n", encoding="utf-8")
    (tmp_path / "test_thing.py").write_text("import thing\ndef test_value():\n    assert thing.VALUE == 1\n",
                                            encoding="utf-8")
    worker = mutation_worker.Worker(tmp_path)
    try:
        assert worker.run(["test_thing.py"], 30) == "survived"
        (tmp_path / "thing.py").write_text("VALUE = 2\n", encoding="utf-8")
        assert worker.run(["test_thing.py"], 30) == "killed"
    finally:
        worker.close()


def test_a_bad_journal_line_stops_the_run_naming_it(tmp_path: Path) -> None:
    """A journal line that is not an outcome stops the run with one line naming the file and line."""
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"mutant": "a:1: x -> y", "result": "killed"}\n{"mutant": "b", "result": "won"}\n',
                       encoding="utf-8")
    with pytest.raises(SystemExit, match=r"j\.jsonl, line 2: not an outcome"):
        mutation_report.read_journal(journal)
    with pytest.raises(SystemExit, match="not a regular file"):
        mutation_report.read_journal(tmp_path)
    assert mutation_report.read_journal(tmp_path / "none.jsonl") == {}


def _mutant(line: int) -> Mutant:
    return Mutant("engine/take6/x.py", line, "a < 1", "a <= 1", lambda: "")


def _fake_worker(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, answer: Callable[[Path, list[str]], str]
) -> list[list[str]]:
    """Stand a fake test worker in for the real one (its answer: ``answer(work, tests)``) and a fresh
    scratch copy (``engine/take6/x.py``, ``t.py``, ``new.py``) for each run; returns what each run got."""
    ran: list[list[str]] = []

    class Fake:
        def __init__(self, work: Path) -> None:
            self.work = work

        def run(self, tests: list[str], timeout: float) -> str:
            ran.append(tests)
            return answer(self.work, tests)

        def close(self) -> None:
            pass

    def scratch() -> Path:
        work = tmp_path / "work"
        (work / "engine" / "take6").mkdir(parents=True, exist_ok=True)
        (work / "engine" / "take6" / "x.py").write_text("", encoding="utf-8")
        for name in ("t.py", "new.py"):
            (work / name).write_text("", encoding="utf-8")
        return work

    monkeypatch.setattr(driver, "Worker", Fake)
    monkeypatch.setattr(driver, "_scratch", scratch)
    return ran


def test_a_journalled_run_runs_nothing_twice(tmp_path: Path) -> None:
    """Every mutant already in the journal keeps its outcome and nothing runs (no scratch copy is made); a
    survivor of a budgeted pass is kept by another budgeted pass, as *unconfirmed*."""
    journal = tmp_path / "j.jsonl"
    kept = [_mutant(1), _mutant(2), _mutant(3)]
    journal.write_text(
        "".join(json.dumps(e) + "\n" for e in (
            {"mutant": kept[0].describe(), "result": "killed"},
            {"mutant": kept[1].describe(), "result": "survived"},
            {"mutant": kept[2].describe(), "result": "survived", "budget": 5},
        )),
        encoding="utf-8",
    )
    outcome = driver.run(kept, journal=journal, budget=5, progress=False)
    assert outcome["killed"] == [kept[0]] and outcome["survived"] == [kept[1]]
    assert outcome["unconfirmed"] == [kept[2]]  # survived a budgeted share only: counted apart


def test_a_pass_without_budget_runs_the_budgeted_survivors_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mutant that survived only a budgeted share of its tests is run again, against all of them, by a
    pass without ``--budget``; its new outcome is appended to the journal."""
    journal = tmp_path / "j.jsonl"
    again = _mutant(3)
    journal.write_text(json.dumps({"mutant": again.describe(), "result": "survived", "budget": 5}) + "\n",
                       encoding="utf-8")
    ran = _fake_worker(monkeypatch, tmp_path, lambda work, tests: "killed")
    coverage = {"lines": {"engine/take6/x.py": {"3": ["t.py::a", "t.py::b"]}}, "durations": {"t.py::a": 9.0,
                                                                                           "t.py::b": 1.0}}
    outcome = driver.run([again], journal=journal, coverage=coverage, progress=False)
    assert outcome["killed"] == [again] and ran == [["t.py::b", "t.py::a"]]
    assert mutation_report.read_journal(journal)[again.describe()] == ("killed", None)


def test_listed_equivalents_can_be_counted_without_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--skip-equivalent``: a mutant listed with a reason is counted as equivalent and nothing runs (no
    scratch copy is made); without it the listed mutant would be run."""
    listing = {("engine/take6/x.py:*: a < 1 -> a <= 1", None): "why"}  # no source pattern: any such line
    monkeypatch.setattr(driver, "equivalents", lambda: listing)

    def no_copy() -> Path:
        raise AssertionError("a scratch copy was made")

    monkeypatch.setattr(driver, "_scratch", no_copy)
    listed = _mutant(7)
    outcome = driver.run([listed], skip_equivalents=True, progress=False)
    assert outcome["equivalent"] == [listed]
    with pytest.raises(AssertionError, match="scratch copy"):
        driver.run([listed], progress=False)


def test_a_kept_coverage_map_must_match_the_rule_code(tmp_path: Path) -> None:
    """``--keep-coverage`` reuses a map whose rule code and tables are those of today, though the tests
    changed since, and refuses one collected on other rule code (its line numbers would be wrong)."""
    path = tmp_path / "map.json"
    code = mutation_coverage.code_fingerprint()
    kept = {"fingerprint": "old", "code_fingerprint": code, "lines": {}, "durations": {}}
    path.write_text(json.dumps(kept), encoding="utf-8")
    assert mutation_coverage.collect_coverage(path, progress=False, keep=True)["fingerprint"] == "old"
    path.write_text(json.dumps({"fingerprint": "old", "code_fingerprint": "other", "lines": {}}),
                    encoding="utf-8")
    with pytest.raises(SystemExit, match="rule code or tables changed"):
        mutation_coverage.collect_coverage(path, progress=False, keep=True)


def test_first_tests_run_before_the_selected_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--first``: the given tests run once on the unmutated copy, then before each mutant's selection, and
    not at all for a mutant no test runs."""
    ran = _fake_worker(monkeypatch, tmp_path, lambda work, tests: "survived")
    coverage = {"lines": {"engine/take6/x.py": {"3": ["t.py::a"], "4": []}}, "durations": {}}
    driver.run([_mutant(3), _mutant(5)], coverage=coverage, first=["new.py", "t.py::a"], progress=False)
    # once on the unmutated copy (a failing first test would kill every mutant), then line 3; line 5: no test
    assert ran == [["new.py", "t.py::a"], ["new.py", "t.py::a"], []]


def test_select_first_journals_a_kill_but_not_a_survival(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--select first``: only the --first tests run; a mutant they kill is journalled as killed, one they
    do not kill keeps its earlier entry (the rest of the suite was not run against it)."""
    journal = tmp_path / "j.jsonl"
    dies, lives = _mutant(3), _mutant(4)
    journal.write_text("".join(json.dumps({"mutant": m.describe(), "result": "survived", "budget": 5}) + "\n"
                               for m in (dies, lives)), encoding="utf-8")

    def answer(work: Path, tests: list[str]) -> str:
        assert tests == ["new.py"]
        return "killed" if (work / "engine/take6/x.py").read_text() == "3" else "survived"

    _fake_worker(monkeypatch, tmp_path, answer)
    dies = Mutant("engine/take6/x.py", 3, "a < 1", "a <= 1", lambda: "3")
    lives = Mutant("engine/take6/x.py", 4, "a < 1", "a <= 1", lambda: "4")
    outcome = driver.run([dies, lives], journal=journal, first=["new.py"], only_first=True, progress=False)
    assert outcome["killed"] == [dies] and outcome["survived"] == [lives]
    expected = {dies.describe(): ("killed", None), lives.describe(): ("survived", 5)}
    assert mutation_report.read_journal(journal) == expected
    # a survivor of all its tests is tried too: the new tests may kill what the suite did not
    with journal.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"mutant": "engine/take6/x.py:3: a < 1 -> a <= 2", "result": "survived"}) + "\n")
    again = Mutant("engine/take6/x.py", 3, "a < 1", "a <= 2", lambda: "3")
    assert driver.run([again], journal=journal, first=["new.py"], only_first=True, progress=False)[
        "killed"
    ] == [again]


def test_only_the_listed_equivalents_can_be_chosen_to_check_their_reasons(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--only-equivalent``: the run is of the listed mutants alone (a check of their reasons), and it
    cannot be combined with ``--skip-equivalent``."""
    listed, other = _mutant(7), _mutant(8)
    monkeypatch.setattr(driver, "all_mutants", lambda only=(): [listed, other])
    monkeypatch.setattr(driver, "equivalents", lambda: {(listed.describe(), None): "why"})
    assert driver.main(["--only-equivalent", "--list"]) == 0
    assert capsys.readouterr().out.splitlines() == [listed.describe(), "1 mutants"]
    with pytest.raises(SystemExit):
        driver.main(["--only-equivalent", "--skip-equivalent", "--list"])
