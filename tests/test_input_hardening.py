"""Every class of bad external input found so far: a one-line error naming the field, exit code 2, never a
traceback; exit codes that survive a closed pipe; values in messages cut and escaped; arguments checked
before the work starts.  (The random search for new classes is ``properties/test_input_fuzz.py``.)"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.conformance.vectors import hand_picked_cases
from engine.conformance.vectors_perft import perft_counts, shipped_perft
from engine.errors import InputError
from engine.game import get_game
from engine.jsonio import MAX_SHOWN
from engine.play import parse_options

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "docs" / "examples" / "take6-record.jsonl"
SP_STATE = ROOT / "docs" / "examples" / "petersburg-state.json"


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``arbiter ARGV`` in-process; assert exit 2 with exactly one error line; return that line."""
    code = main(list(argv))
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("arbiter: error: "), err
    assert "Traceback" not in err
    return lines[0]


HUGE = "1" * 4400
DEEP = "[" * 1000 + "]" * 1000


# --------------------------------------------------------------------------------------------------
# arbiter explain: --action / --state, inline or @file


@pytest.mark.parametrize(
    ("game", "action", "field"),
    [
        ("take6", '{"type": ["select"], "player": 0, "card": 40}', "--action: type"),
        ("petersburg", '{"type": ["pass"], "player": 0}', "--action: action.type"),
        ("take6", '{"type": "select", "player": 0, "card": ' + HUGE + "}", "--action: an integer of 4400"),
        ("take6", DEEP, "--action: nesting deeper than 64"),
        (
            "petersburg",
            '{"type": "buy", "player": 3, "card": "Shepherd", "source": "upper"}',
            "--action: player: expected a seat 0..1",
        ),
        ("petersburg", '{"type": "pass", "player": 0, "player": 1}', "--action: duplicate key 'player'"),
    ],
)
def test_explain_refuses_a_malformed_action(
    capsys: pytest.CaptureFixture[str], game: str, action: str, field: str
) -> None:
    """An action whose type is a list, with a 4,400-digit integer, 1,000 levels deep, for a seat the game
    does not have, or with a key twice is malformed input (exit 2 naming --action), not a traceback."""
    source = ["--record", str(RECORD)] if game == "take6" else ["--state", str(SP_STATE)]
    line = refused(capsys, "explain", game, *source, "--action", action)
    assert field in line


@pytest.mark.parametrize("game", ["take6", "petersburg"])
@pytest.mark.parametrize("bad", [{"variant": {"a": 1}}, {"variant": ["standard"]}, {"players": 2.5}])
def test_explain_refuses_a_state_with_a_field_of_the_wrong_type(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, bad: dict[str, Any]
) -> None:
    """A JSON state whose variant is an object or a list (or players a fraction) is refused naming the field,
    from a file as inline; the library raises InputError, never TypeError."""
    g = get_game(game)
    data = {**g.state_to_json(g.new_game(2, seed=1)), **bad}
    with pytest.raises(InputError):
        g.state_from_json(data)
    (tmp_path / "s.json").write_text(json.dumps(data), encoding="utf-8")
    line = refused(capsys, "explain", game, "--state", f"@{tmp_path / 's.json'}", "--action", "{}")
    assert f"--state: {next(iter(bad))}" in line


def test_explain_refuses_a_file_that_is_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A --state or --action file that is not UTF-8 (or starts with a byte-order mark) is refused with the
    byte's position."""
    (tmp_path / "latin1.json").write_bytes('{"type": "pass", "x": "é"}'.encode("latin-1"))
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf{}")
    line = refused(
        capsys, "explain", "petersburg", "--state", f"@{tmp_path / 'latin1.json'}", "--action", "{}"
    )
    assert "not UTF-8: byte 23" in line
    line = refused(
        capsys, "explain", "petersburg", "--state", str(SP_STATE), "--action", f"@{tmp_path / 'bom.json'}"
    )
    assert "byte-order mark" in line


def test_explain_checks_its_arguments_before_replaying(capsys: pytest.CaptureFixture[str]) -> None:
    """--upto below 0 or without --record, --vector without --case, a missing --record file and a bad
    --action are refused before any record is replayed."""
    assert "--upto" in refused(
        capsys, "explain", "take6", "--record", str(RECORD), "--upto", "-1", "--action", "{}"
    )
    assert "--upto" in refused(capsys, "explain", "take6", "--case", "x", "--upto", "1", "--action", "{}")
    assert "--vector" in refused(
        capsys, "explain", "take6", "--record", str(RECORD), "--vector", "v", "--action", "{}"
    )
    assert "--record: no such file" in refused(
        capsys, "explain", "take6", "--record", "/nonexistent", "--action", "{}"
    )
    assert "--record" in refused(capsys, "explain", "take6", "--record", "x" * 5000, "--action", "{}")


def test_error_messages_cut_and_escape_values(capsys: pytest.CaptureFixture[str]) -> None:
    """A 100 KB value with control characters is echoed cut to a few dozen characters, escaped: the error
    stays one short line and no escape sequence reaches the terminal."""
    action = json.dumps({"type": "\x1b[2J\n" + "x" * 100_000, "player": 0})
    line = refused(capsys, "explain", "petersburg", "--state", str(SP_STATE), "--action", action)
    assert len(line) < 400 and "\x1b" not in line and "\\x1b" in line
    assert "x" * (MAX_SHOWN + 1) not in line


def test_argparse_errors_are_cut_too(capsys: pytest.CaptureFixture[str]) -> None:
    """An unrecognised 5,000-character argument is not echoed in full."""
    with pytest.raises(SystemExit) as exc:
        main(["rules", "x", "9" * 5000])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err) < 700 and len(err.splitlines()) == 1


# --------------------------------------------------------------------------------------------------
# arbiter vectors run: the vectors and perft files


@pytest.fixture()
def vectors_dir(tmp_path: Path) -> Path:
    """A small vectors folder: four hand-picked 6 nimmt! cases and two short perft positions."""
    cases = [json.dumps(c.to_json()) for c in hand_picked_cases("take6")[:4]]
    (tmp_path / "take6.jsonl").write_text("\n".join(cases) + "\n", encoding="utf-8")
    perft = [json.dumps({**p, "counts": p["counts"][:2]}) for p in shipped_perft()[:2]]
    (tmp_path / "perft.jsonl").write_text("\n".join(perft) + "\n", encoding="utf-8")
    return tmp_path


def test_vectors_run_passes_on_the_small_folder(
    vectors_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fixture itself passes, so the refusals below are about the edits alone."""
    assert main(["vectors", "run", str(vectors_dir)]) == 0
    assert "4 cases, 0 failed; 2 perft positions, 0 failed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        (b"{not json", "perft.jsonl line 2: not JSON"),
        (b"[]", "perft.jsonl line 2: "),
        (b'{"id": "take6/x", "game": "take6"}', "perft.jsonl line 2: description: required field missing"),
        (b"\xef\xbb\xbf{}", "perft.jsonl line 2: starts with a byte-order mark"),
        (b'{"a": ' + b"1" * 5000 + b"}", "perft.jsonl line 2: an integer of 5000 digits"),
    ],
)
def test_vectors_run_validates_the_perft_file_before_running(
    vectors_dir: Path, line: bytes, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """perft.jsonl is read through engine.jsonio and checked against perft.schema.json, every line before
    any case runs: bad JSON, ``[]``, missing keys, a BOM and a huge integer are each named by line."""
    path = vectors_dir / "perft.jsonl"
    first = path.read_bytes().splitlines()[0]
    path.write_bytes(first + b"\n" + line + b"\n")
    assert needle in refused(capsys, "vectors", "run", str(vectors_dir))
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda text: text[:40] + b"\xff" + text[40:], "take6.jsonl line 1: not UTF-8"),
        (
            lambda text: text.replace(b'"players":', b'"players":' + b"9" * 4500 + b',"x":', 1),
            "take6.jsonl line 1: an integer of 4500 digits",
        ),
        (lambda text: b"[" * 2000 + b"\n" + text, "take6.jsonl line 1: nesting deeper than 64"),
    ],
)
def test_vectors_run_refuses_a_vectors_file_with_bad_bytes(
    vectors_dir: Path, edit: Any, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A vectors file with an invalid UTF-8 byte, a 4,500-digit integer or deep nesting is refused naming
    the line, not a traceback."""
    path = vectors_dir / "take6.jsonl"
    path.write_bytes(edit(path.read_bytes().replace(b": ", b":")))
    assert needle in refused(capsys, "vectors", "run", str(vectors_dir))


def test_perft_recount_stops_at_a_count_beyond_the_claim() -> None:
    """With the claimed counts as limits, the walk stops where a count exceeds its claim: a wrong claim of
    depth 6 costs no more than the right one (and the counts returned differ from the claim)."""
    g = get_game("take6")
    state = g.new_game(4, seed=1)
    assert perft_counts(g, state, 2) == [40, 1200]
    assert perft_counts(g, state, 6, limits=[40, 0, 0, 0, 0, 0]) == [10, 10, 0, 0, 0, 0]


def test_vectors_run_refuses_a_perft_claim_too_large_to_recount(
    vectors_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A perft line claiming more than ten million sequences is refused before any recount."""
    data = {**shipped_perft()[0], "counts": [20, 200, 10**12]}
    (vectors_dir / "perft.jsonl").write_text(json.dumps(data) + "\n", encoding="utf-8")
    assert "counts: more than the 10000000 sequences" in refused(capsys, "vectors", "run", str(vectors_dir))


# --------------------------------------------------------------------------------------------------
# play, bench, rules, vectors: arguments


@pytest.mark.parametrize(
    ("option", "needle"),
    [
        ("kids_piles=" + "9" * 5000, "--option kids_piles: an integer of 5000 digits"),
        ("kids_piles=" + "[" * 1000, "--option kids_piles: nesting deeper than 64"),
    ],
)
def test_play_option_values_go_through_jsonio(
    capsys: pytest.CaptureFixture[str], option: str, needle: str
) -> None:
    """A --option value holding a 5,000-digit integer or 1,000 open brackets is refused, not parsed."""
    assert needle in refused(capsys, "play", "take6", "--variant", "kids", "--option", option)


def test_play_option_given_twice_is_refused() -> None:
    """Two --option flags for the same name would silently keep one: refused."""
    with pytest.raises(InputError, match="given twice"):
        parse_options(["a=1", "a=2"])
    assert parse_options(["a=[1", "b=x"]) == {"a": "[1", "b": "x"}  # not JSON: a string, as documented


def test_output_paths_are_checked_before_the_work(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """play --record and vectors perft --write to a path that cannot be written are refused before the game
    is played or the counts computed (nothing printed first)."""
    assert "--record: cannot write" in refused(capsys, "play", "take6", "--record", "/nonexistent/r.jsonl")
    assert "--record" in refused(capsys, "play", "take6", "--record", str(tmp_path))
    assert "--write: cannot write" in refused(capsys, "vectors", "perft", "--write", "/nonexistent/p.jsonl")
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("seconds", ["nan", "inf", "0", "-1", "1e9"])
def test_bench_refuses_a_duration_that_would_not_end(
    capsys: pytest.CaptureFixture[str], seconds: str
) -> None:
    """bench --seconds must be a duration in (0, 3600]: NaN or infinity would never end."""
    assert "--seconds" in refused(capsys, "bench", "take6", "--seconds", seconds)


def test_vectors_export_refuses_a_per_clause_count_out_of_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """vectors export --per-clause outside 1..50 is refused before any case is mined."""
    assert "--per-clause" in refused(capsys, "vectors", "export", str(tmp_path), "--per-clause", "0")


def test_rules_write_docs_keeps_pages_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rules --write-docs DIR`` removes only stale pages it wrote itself: pointed at a folder holding a
    README of one's own, the README stays.  An unwritable target is a one-line error."""
    (tmp_path / "README.md").write_text("my notes\n", encoding="utf-8")
    (tmp_path / "mine.md").write_text("my page\n", encoding="utf-8")
    assert main(["rules", "--write-docs", str(tmp_path)]) == 0
    assert (tmp_path / "mine.md").read_text(encoding="utf-8") == "my page\n"
    capsys.readouterr()
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert "cannot use the folder" in refused(capsys, "rules", "--write-docs", str(tmp_path / "file" / "d"))


# --------------------------------------------------------------------------------------------------
# Exit codes through a closed pipe


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize(("record", "code"), [("malformed", 2), ("divergent", 1), ("ok", 0)])
def test_a_closed_stdout_keeps_the_exit_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, record: str, code: int
) -> None:
    """When the reader of stdout goes away (``arbiter check ... | head -1``), the command still ends with
    its own exit code: 2 for a malformed record, 1 for a divergence, 0 when all is well."""
    path = tmp_path / "r.jsonl"
    text = RECORD.read_text(encoding="utf-8")
    if record == "malformed":
        text = '{"format": "arbiter-record"}\n'
    elif record == "divergent":
        text = text.replace('"card":40}}', '"card":41}}')
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(["check", str(RECORD), str(path)]) == code


@pytest.mark.skipif(shutil.which("head") is None or shutil.which("sh") is None, reason="needs a POSIX shell")
def test_check_piped_into_head_exits_with_the_checks_code(tmp_path: Path) -> None:
    """Through a real pipe: ``arbiter check GOOD... BAD | head -1`` exits 2 (bash's PIPESTATUS), and the
    interpreter's final flush does not fail (no 'Exception ignored' on stderr)."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "arbiter-record"}\n', encoding="utf-8")
    files = " ".join([str(RECORD)] * 1500 + [str(bad)])  # more output than a pipe buffers
    script = f'"{sys.executable}" -m engine check {files} | head -1 >/dev/null; echo "${{PIPESTATUS[0]}}"'
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.stdout.strip() == "2", proc.stderr
    assert "Exception ignored" not in proc.stderr and "Traceback" not in proc.stderr


def test_a_command_line_with_an_unbalanced_quote_is_input_error() -> None:
    """``answer_for_command`` (the FAQ's and the assistant's way in) refuses a line that does not split."""
    from engine.query.cli import answer_for_command

    with pytest.raises(InputError, match="does not split"):
        answer_for_command("arbiter ask card 'Market")
