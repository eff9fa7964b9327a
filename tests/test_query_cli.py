"""``arbiter ask``, ``arbiter explain`` and ``arbiter rules`` on the command line: aligned text, ``--json``
for machines, and bad input answered by one line naming the field with exit code 2 — never a traceback."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.query.questions import all_questions

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "engine", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["ask", "bullheads", "105"], "cards:"),
        (["ask", "row", "33", "--rows", "30 29", "10"], "rows[0]:"),
        (["ask", "row", "30", "--rows", "30", "40"], "card:"),
        (["ask", "cost", "Unicorn"], "card:"),
        (["ask", "cost", "Czar", "--owns", "Author"], "displace:"),
        (["ask", "cost", "Market", "--option", "trading_discount=maybe"], "--option:"),
        (["ask", "setup", "take6", "11"], "players:"),
        (["ask", "setup", "petersburg", "2", "--variant", "third"], "--variant:"),
        (["ask", "turn", "--rows", "20", "30", "40", "50", "--cards", "3", "3"], "cards:"),
        (
            ["ask", "turn", "--rows", "20", "30", "40", "50", "--cards", "3", "7", "--choose", "3-0"],
            "choose:",
        ),
        (["ask", "search", "--game", "take6", "--", "!!!"], "TEXT:"),
        (["rules", "T6-NOPE-1"], "ID:"),
        (["rules", "--game", "take6", "--topic", "nope"], "--topic:"),
        (["explain", "take6", "--action", "{}"], "--state/--record/--case/--position:"),
        (["explain", "take6", "--state", '{"game": "take6"}', "--action", "{}"], "--state:"),
        (
            ["explain", "take6", "--case", "take6/edge/select-not-in-hand", "--action", '{"type": 1}'],
            "--action:",
        ),
        (["explain", "take6", "--record", "no/such/file.jsonl", "--action", "{}"], "--record:"),
        (
            [
                "explain",
                "take6",
                "--record",
                "docs/examples/take6-record.jsonl",
                "--upto",
                "99",
                "--action",
                "{}",
            ],
            "--upto:",
        ),
        (["explain", "petersburg", "--state", "[1", "--action", "{}"], "--state:"),
    ],
)
def test_bad_input_is_one_line_naming_the_field(
    args: list[str], field: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each malformed question is refused with exit 2 and one stderr line that names the field."""
    monkeypatch.chdir(ROOT)
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("arbiter: error: ") and field in err[0], err[0]


@settings(max_examples=settings().max_examples * 3 // 2, deadline=None)
@given(
    kind=st.sampled_from(sorted(all_questions())),
    words=st.lists(
        st.one_of(
            st.text(max_size=8),
            st.sampled_from(
                [
                    "--owns",
                    "--rows",
                    "--cards",
                    "--money",
                    "-1",
                    "0",
                    "999",
                    "Market",
                    "--variant",
                    "x=y",
                    "--option",
                    "take6",
                    "petersburg",
                    "3=9",
                    "--json",
                ]
            ),
        ),
        max_size=6,
    ),
)
def test_no_argument_list_makes_a_traceback(kind: str, words: list[str]) -> None:
    """Whatever words follow a question kind, ``arbiter ask`` answers (0) or refuses (2), never crashes."""
    try:
        code = main(["ask", kind, *words])
    except SystemExit as exc:  # argparse's own refusal (bad flag, missing argument)
        code = exc.code if isinstance(exc.code, int) else 2
    assert code in (0, 2)


@pytest.mark.parametrize("kind", sorted(all_questions()))
def test_json_output_is_the_answer_as_data(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` prints one JSON object with the answer's summary, value, clauses and steps."""
    q = all_questions()[kind]
    words = shlex.split(q.examples[0])
    assert words[:3] == ["arbiter", "ask", kind]
    example = words[3:]
    assert main(["ask", kind, *example, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"kind", "game", "question", "summary", "value", "clauses", "steps"} <= set(data)
    assert data["kind"] == kind
    for step in data["steps"]:
        if step["clause"] and step["rule"]:
            assert step["cite"]["seed"] in {"000", "001", "003", "004", "ref"}


def test_text_output_shows_question_answer_and_clause_chain(capsys: pytest.CaptureFixture[str]) -> None:
    """The readable answer starts with Q:/A: and lists each clause with its wording and seed passage
    (T6-PLACE-1, the seed's own 33-after-30 example)."""
    assert main(["ask", "row", "33", "--rows", "12 14 19", "30", "29 41 52 60 71", "88"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Q: ") and lines[1].startswith("A: row 1")
    assert "T6-PLACE-1" in out and "seed 004" in out
    assert not out.lstrip().startswith("{")


def test_ask_without_kind_lists_every_question(capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter ask`` alone lists the question kinds."""
    assert main(["ask"]) == 0
    out = capsys.readouterr().out
    for kind in all_questions():
        assert f"\n{kind} " in "\n" + out


def test_rules_id_shows_citations_and_checks(capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter rules T6-PLACE-2`` shows the clause, its seed quotes and the tests that cite it; ``--json``
    gives the same as data."""
    assert main(["rules", "T6-PLACE-2"]) == 0
    out = capsys.readouterr().out
    assert "Cited from:" in out and "Checked by:" in out and "tests/" in out
    assert main(["rules", "t6-place-2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["id"] == "T6-PLACE-2" and data["cites"] and data["checked_by"]


def test_rules_disputed_lists_rulings_with_other_reading(capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter rules --disputed`` prints every ruling (T6-PRO-3 with its option, SP-COST-5 with its)."""
    assert main(["rules", "--disputed"]) == 0
    out = capsys.readouterr().out
    assert "T6-PRO-3" in out and "professional_tie" in out
    assert "SP-COST-5" in out and "trading_discount" in out


def test_check_docs_fails_on_a_stale_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--check-docs`` exits 1 on a folder that is not what ``--write-docs`` writes, 0 after writing."""
    assert main(["rules", "--check-docs", str(tmp_path)]) == 1
    assert main(["rules", "--write-docs", str(tmp_path)]) == 0
    assert main(["rules", "--check-docs", str(tmp_path)]) == 0
    capsys.readouterr()


def test_installed_command_runs_ask() -> None:
    """``python -m engine ask ...`` works as a process, with no traceback on bad input."""
    ok = run("ask", "bonus", "7", "--brief")
    assert ok.returncode == 0 and "28 VP" in ok.stdout
    bad = run("ask", "bonus", "seven")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_explain_accepts_brief(capsys: pytest.CaptureFixture[str]) -> None:
    """SP-BUY-2: ``arbiter explain ... --brief`` prints only the question, the answer and the rulings it
    rests on (SP-BUY-2 among them), as ``ask`` does."""
    from engine.cli import main

    action = '{"type": "buy", "player": 0, "card": "Market", "source": "upper"}'
    state = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "petersburg-state.json")
    assert main(["explain", "petersburg", "--state", state, "--action", action, "--brief"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Q: ") and out[1].startswith("A: legal")
    assert out[2:] and all(line.startswith(("   ! ", "     ")) for line in out[2:])
    assert any(line.startswith("   ! ruling SP-BUY-2: ") for line in out[2:])


def test_discard_without_a_draw_is_refused_by_the_turn_rule() -> None:
    """SP-TURN-1: a discard with no Observatory draw pending is not one of a turn's actions; the refusal
    names the turn rule, not the Observatory's."""
    from engine.query.cli import answer_for_command

    state = Path(__file__).resolve().parent.parent / "docs" / "examples" / "petersburg-state.json"
    a = answer_for_command(f"arbiter explain petersburg --state {state} --action "
                           "'{\"type\": \"discard\", \"player\": 0, \"card\": \"Market\"}'")
    assert a.value["legal"] is False and a.value["clause"] == "SP-TURN-1"
