"""Test vectors (engine.conformance.vectors.suite): export, schemas, coverage of every clause, perft counts.

The suite is exported once per session into a temporary folder and then run from the files, through the
JSON forms only, against the engine — so the exported vectors can never drift from the engine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.conformance.records.format import validator
from engine.conformance.vectors.coverage import coverage, exemptions
from engine.conformance.vectors.export import export_vectors
from engine.conformance.vectors.perft import perft_positions, recount_perft, shipped_perft
from engine.conformance.vectors.suite import hand_picked_cases, read_vectors, run_case
from engine.game import game_names
from engine.spec import load_clauses

DOCS = Path(__file__).resolve().parent.parent / "docs" / "conformance.md"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vectors")
    counts = export_vectors(out)
    assert set(counts) == set(game_names())
    return out


def cases_of(exported: Path, game: str) -> list[dict[str, Any]]:
    return list(read_vectors(exported / f"{game}.jsonl"))


@pytest.mark.parametrize("game", game_names())
def test_every_exported_vector_passes_on_the_engine(exported: Path, game: str) -> None:
    """Every exported case (all of them, read back from the files) passes against the engine."""
    failures = [o for o in map(run_case, cases_of(exported, game)) if not o.passed]
    assert not failures, failures[:5]


@pytest.mark.parametrize("game", game_names())
def test_exported_files_validate_against_the_schemas(exported: Path, game: str) -> None:
    """Schemas validate every exported vector (jsonschema, the full check) and the perft file."""
    v = validator("vector")
    cases = cases_of(exported, game)
    assert cases
    for case in cases:
        assert v.is_valid(case), case["id"]
        assert case["game"] == game
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "stable ids are unique"
    perft = [json.loads(r) for r in (exported / "perft.jsonl").read_text().splitlines()]
    assert all(validator("perft").is_valid(p) for p in perft)
    manifest = json.loads((exported / "manifest.json").read_text())
    assert manifest["cases"][game] == len(cases)
    assert (exported / "schemas" / f"{game}.schema.json").is_file()


@pytest.mark.parametrize("game", game_names())
def test_every_clause_has_accept_and_reject_vectors_or_a_reason(exported: Path, game: str) -> None:
    """Coverage: every clause id in spec/ has at least one accept and one reject vector, or is listed in
    coverage.toml with the reason it is not vector-testable that way; no clause has neither kind."""
    report = coverage(game, cases_of(exported, game))
    assert {c.clause for c in report} == set(load_clauses(game))
    incomplete = [c for c in report if not c.complete]
    assert not incomplete, incomplete
    assert all(c.accept + c.reject > 0 or (c.exempt_accept and c.exempt_reject) for c in report)
    for c in report:
        for reason in (c.exempt_accept, c.exempt_reject):
            assert reason is None or len(reason) > 20, c


@pytest.mark.parametrize("game", game_names())
def test_clause_level_exemptions_are_not_stale(exported: Path, game: str) -> None:
    """An exemption of a single clause must not hide vectors that exist (delete it when one is written)."""
    report = {c.clause: c for c in coverage(game, cases_of(exported, game))}
    text = (Path(__file__).resolve().parents[1] / "engine/conformance/vectors/coverage.toml").read_text()
    single = set(re.findall(r'^id = "([A-Z0-9-]+)"', text, re.M))
    for cid, reasons in exemptions(game).items():
        if cid not in single:
            continue
        if "accept" in reasons and "PENDING" not in reasons["accept"]:
            assert report[cid].accept == 0, f"{cid}: accept exemption but {report[cid].accept} vectors"


@pytest.mark.parametrize("game", game_names())
def test_hand_picked_cases_match_their_hand_written_expectations(game: str) -> None:
    """The hand-picked edge cases (the seed's 33-after-30, two low cards in one turn, a 6th card and a low
    card in one turn, professional ties, set-up refusals ...) state facts by hand; the engine must agree."""
    cases = hand_picked_cases(game)
    assert len(cases) >= 5
    assert {c.kind for c in cases} >= {"accept", "reject-setup"}


def test_runner_detects_a_wrong_expectation(exported: Path) -> None:
    """The runner can fail: a tampered expectation, a wrong rejection clause and an accepted 'reject' are
    each reported."""
    case = next(c for c in cases_of(exported, "take6") if c["id"] == "take6/edge/seed-example-33-after-30")
    assert run_case(case).passed
    wrong = json.loads(json.dumps(case))
    wrong["expect"]["facts"]["rows"][0] = [29, 33]
    assert not run_case(wrong).passed
    reject = next(c for c in cases_of(exported, "take6") if c["kind"] == "reject")
    other = json.loads(json.dumps(reject))
    other["expect"]["reject"]["clause"] = "T6-PLACE-1"
    assert "expected T6-PLACE-1" in run_case(other).message
    setup = next(c for c in cases_of(exported, "take6") if c["kind"] == "reject-setup")
    fixed = json.loads(json.dumps(setup))
    fixed["setup"] = case["setup"]
    assert run_case(fixed).message == "set-up accepted, expected a refusal"


def test_shipped_perft_counts_recompute() -> None:
    """The shipped perft file (data/perft.jsonl) recomputes exactly on the engine, position by position."""
    positions = shipped_perft()
    assert {p["game"] for p in positions} == set(game_names())
    for data in positions:
        assert recount_perft(data) == data["counts"], data["id"]


def test_perft_file_is_what_the_regeneration_command_writes() -> None:
    """``arbiter vectors perft --write`` regenerates the shipped file from the named plan: ids, set-ups,
    preludes and counts are identical (so the data file cannot drift from the plan)."""
    fresh = [p.to_json() for p in perft_positions()]
    assert fresh == shipped_perft()


def test_vectors_cli_export_and_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter vectors export DIR`` then ``arbiter vectors run DIR`` pass; a broken file exits 2."""
    assert main(["vectors", "export", str(tmp_path), "--game", "take6"]) == 0
    assert main(["vectors", "run", str(tmp_path), "--no-perft"]) == 0
    assert "0 failed" in capsys.readouterr().out
    (tmp_path / "take6.jsonl").write_text('{"id": "x"}\n')
    assert main(["vectors", "run", str(tmp_path)]) == 2


def test_export_is_deterministic(tmp_path: Path) -> None:
    """Two exports write identical files (stable ids, seeded mining)."""
    export_vectors(tmp_path / "a", games=["take6"])
    export_vectors(tmp_path / "b", games=["take6"])
    assert (tmp_path / "a" / "take6.jsonl").read_bytes() == (tmp_path / "b" / "take6.jsonl").read_bytes()


def test_implementer_guide_example_runs(exported: Path) -> None:
    """The runnable example of docs/conformance.md (an implementer's vector runner) passes every vector."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    runner = next(b for b in blocks if "def run_vectors" in b)
    namespace: dict[str, Any] = {}
    exec(compile(runner, str(DOCS), "exec"), namespace)
    passed, failed = namespace["run_vectors"](str(exported / "take6.jsonl"))
    assert failed == [] and passed > 50
