"""The replay viewer's data (``engine.viewer``), without a browser: the steps are the engine's replay, a
divergence opens the page at its step with both sides, and bad input is refused in one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.cli import main
from engine.game import get_game
from engine.viewer import build_replay, replay_html

RECORDS = Path(__file__).resolve().parent / "data" / "records"


def _page_data(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


def test_steps_follow_the_engines_replay() -> None:
    """Step k is the position after k actions, narrated by the engine (``Game.narrate``), and the last
    step of a finished game is over with the engine's result (T6-END-1)."""
    replay = build_replay(RECORDS / "good-take6-standard-2p.jsonl")
    assert replay.status == "ok" and replay.divergence is None and replay.start == 0
    assert [s.index for s in replay.steps] == list(range(len(replay.steps)))
    assert replay.steps[0].action is None
    assert all(s.narration for s in replay.steps[1:])
    assert replay.result is not None and "scores" in replay.result
    assert "game over" in replay.steps[-1].svg


def test_narrated_clause_ids_are_linked_to_their_text() -> None:
    """Every clause id a step names is in the page's glossary with its wording and seed passages."""
    from engine.spec import all_clauses

    replay = build_replay(RECORDS / "good-petersburg-first-2p.jsonl")
    page = replay_html(replay)
    data = _page_data(page)
    clauses = data["clauses"]
    assert isinstance(clauses, dict)
    named = {c for s in replay.steps for c in s.clauses}
    assert named and named <= set(clauses)
    for cid in named:
        assert f'id="clause-{cid}"' in page
        assert clauses[cid]["text"] == all_clauses()[cid].text


@pytest.mark.parametrize(
    ("record", "kind"),
    [
        ("diverge-card-not-in-hand.jsonl", "illegal"),
        ("diverge-wrong-rows-claim.jsonl", "claim"),
        ("diverge-petersburg-money-claim.jsonl", "claim"),
        ("diverge-early-result.jsonl", "result"),
        ("diverge-wrong-result.jsonl", "result"),
        ("diverge-card-dealt-twice.jsonl", "setup"),
    ],
)
def test_a_divergence_opens_the_page_at_its_step(record: str, kind: str) -> None:
    """The page of a diverging record starts at the divergence's step and shows both sides of it."""
    replay = build_replay(RECORDS / record)
    assert replay.divergence is not None and replay.divergence["kind"] == kind
    assert replay.start == replay.divergence["step"]
    page = replay_html(replay)
    data = _page_data(page)
    assert data["start"] == replay.start
    assert "The record says" in page and "The rules say" in page
    if kind == "illegal":
        step = replay.steps[replay.start]
        assert step.title.startswith(f"Action {replay.divergence['index']} (refused)")
        assert replay.divergence["explanation"]["value"]["legal"] is False


def test_the_viewer_draws_for_one_seat() -> None:
    """``--viewer`` draws every position as that seat sees it (others' hands hidden: T6-SELECT-2)."""
    replay = build_replay(RECORDS / "good-take6-standard-2p.jsonl", viewer=1)
    assert all("as seen by P1" in s.svg for s in replay.steps)


def test_view_writes_the_page(tmp_path: Path) -> None:
    """``arbiter view RECORD -o FILE`` writes one HTML file."""
    out = tmp_path / "game.html"
    assert main(["view", str(RECORDS / "good-take6-unfinished.jsonl"), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["view", str(RECORDS / "bad-json.jsonl"), "-o", "/dev/null"], "RECORD: bad-json.jsonl line"),
        (["view", "/no/such/record.jsonl"], "cannot read"),
        (
            ["view", str(RECORDS / "good-take6-unfinished.jsonl"), "--viewer", "9", "-o", "/dev/null"],
            "--viewer",
        ),
    ],
)
def test_view_bad_input_is_one_line_and_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A malformed record, a missing file or a bad seat: one error line naming it, exit code 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("arbiter: error: ") and named in err and err.count("\n") == 1


def test_page_is_deterministic() -> None:
    """The same record gives the same page, byte for byte."""
    record = RECORDS / "good-take6-unfinished.jsonl"
    assert replay_html(build_replay(record)) == replay_html(build_replay(record))
    assert get_game("take6").title in replay_html(build_replay(record))


def test_a_fuzzing_comment_opens_the_page_at_its_step(tmp_path: Path) -> None:
    """A ``fuzz`` record whose disagreement no claim can state (the peer refused a legal action) carries an
    ``arbiter fuzz:`` comment: the page opens at that step with the peer's side and the rules' side."""
    lines = (RECORDS / "good-take6-unfinished.jsonl").read_text(encoding="utf-8").splitlines()
    line = json.loads(lines[3])
    line["comment"] = "arbiter fuzz: refused: the peer refuses a legal action"
    lines[3] = json.dumps(line)
    record = tmp_path / "fuzz.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    replay = build_replay(record)
    assert replay.status == "ok" and replay.divergence is not None
    assert replay.start == 3 and replay.divergence["index"] == 2 and replay.divergence["line"] == 4
    assert replay.divergence["record"] == "the peer: the peer refuses a legal action"
    assert replay.divergence["rules"].startswith("the rules: ")
    assert replay.steps[3].comment == line["comment"]
