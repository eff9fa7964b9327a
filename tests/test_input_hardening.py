"""Every class of bad external input found so far: a one-line error naming the field, exit code 2, never a
traceback; exit codes that survive a closed pipe; values in messages cut and escaped; arguments checked
before the work starts.  (The random search for new classes is ``properties/test_input_fuzz.py``.)"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from refusals import refused

from engine.cli import main
from engine.conformance.vectors.perft import perft_counts, shipped_perft
from engine.conformance.vectors.suite import hand_picked_cases
from engine.errors import InputError
from engine.game import get_game
from engine.jsonio import MAX_SHOWN
from engine.play import parse_options

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "docs" / "examples" / "take6-record.jsonl"
SP_STATE = ROOT / "docs" / "examples" / "petersburg-state.json"


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
    page of one's own, the page stays.  An unwritable target is a one-line error."""
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


# --------------------------------------------------------------------------------------------------
# issue 17: the file reader's policy, outputs that do not destroy, bounded numbers and work, and the
# claims, states and positions found from outside


SECRET = "sk-live-SECRET"


@pytest.mark.parametrize(
    "content",
    [
        f"{SECRET} a b c d e f g h\n",
        json.dumps({"game": "take6", "variant": SECRET}),
        json.dumps({"game": "take6", SECRET: 1}),
        "{" + f'"{SECRET}": 1, "{SECRET}": 2' + "}",
        "standard 2 select " + SECRET,
    ],
)
def test_an_error_about_a_position_file_quotes_none_of_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str
) -> None:
    """Item 1: ``--position @FILE`` whose content is not a position is refused naming the argument and the
    field, without quoting the file's tokens, keys or values."""
    path = tmp_path / "s.txt"
    path.write_text(content, encoding="utf-8")
    line = refused(capsys, "explain", "take6", "--position", f"@{path}", "--action", "{}")
    assert "--position" in line and SECRET not in line and "SECRET" not in line


def test_an_error_about_an_action_file_quotes_none_of_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Item 1: ``--action @FILE`` that is not JSON names the argument, not the file's first token."""
    path = tmp_path / "a.txt"
    path.write_text(f"{SECRET} x\n", encoding="utf-8")
    line = refused(capsys, "explain", "take6", "--position", "standard 1 select", "--action", f"@{path}")
    assert "--action" in line and "SECRET" not in line


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_position_file_must_be_a_regular_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    """Items 1, 2: a named pipe, a device or a folder as ``@FILE`` is refused from its status, at once (a pipe
    with no writer would block a reader forever)."""
    if kind == "fifo":
        target = tmp_path / "f"
        os.mkfifo(target)
    elif kind == "device":
        target = Path("/dev/zero")
    else:
        target = tmp_path
    line = refused(capsys, "show", "take6", "--position", f"@{target}")
    assert "not a regular file" in line


def test_check_refuses_a_fifo_record_at_once(tmp_path: Path) -> None:
    """Item 2: ``arbiter check`` of a named pipe reports it malformed instead of waiting for a writer."""
    from engine.conformance.records.check import check_record

    fifo = tmp_path / "r.jsonl"
    os.mkfifo(fifo)
    report = check_record(fifo)
    assert report.status == "malformed" and "not a regular file" in (report.error or "")


def test_the_assistant_reads_no_file_without_a_root(tmp_path: Path) -> None:
    """Item 1: the tools read no file unless the server was given a root: an ``@FILE`` position and a record
    path are refused naming the argument, the file's content is not read."""
    from engine.assistant.tools import call

    secret = tmp_path / "state.json"
    secret.write_text(json.dumps({"game": "take6", "variant": SECRET}), encoding="utf-8")
    calls: list[tuple[str, dict[str, Any]]] = [
        ("legal_actions", {"game": "take6", "position": f"@{secret}"}),
        ("check_record", {"path": str(secret)}),
        ("record_position", {"game": "take6", "path": str(secret)}),
        ("ask_row", {"card": 7, "position": f"@{secret}"}),
    ]
    for name, args in calls:
        with pytest.raises(InputError, match="reading files is off") as err:
            call(name, args)
        assert "SECRET" not in str(err.value), name


def test_the_assistant_reads_only_regular_files_under_its_root(tmp_path: Path) -> None:
    """Item 1: with a root the tools read regular files under it (relative names from the root); a path
    outside it, a link leading out of it, a pipe and standard input are refused; an error about a file's
    content quotes none of it."""
    from engine.assistant.tools import call
    from engine.jsonio import FileAccess

    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "outside.json"
    outside.write_text(SP_STATE.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "state.json").write_text(SP_STATE.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "bad.json").write_text(json.dumps({"game": "petersburg", "variant": SECRET}), encoding="utf-8")
    (root / "link.json").symlink_to(outside)
    os.mkfifo(root / "pipe")
    access = FileAccess.under(root)
    ok = call("legal_actions", {"game": "petersburg", "position": "@state.json"}, access=access)
    assert ok.data["to_act"]
    for position, needle in [
        (f"@{outside}", "outside the folder"),
        ("@../outside.json", "outside the folder"),
        ("@link.json", "outside the folder"),
        ("@pipe", "not a regular file"),
        ("@-", "standard input"),
        ("@bad.json", "options: missing"),
    ]:
        with pytest.raises(InputError, match=needle) as err:
            call("legal_actions", {"game": "petersburg", "position": position}, access=access)
        assert "SECRET" not in str(err.value)
    (root / "bad.jsonl").write_text(f"{SECRET}\n", encoding="utf-8")
    report = call("check_record", {"path": "bad.jsonl"}, access=access)
    assert report.data["status"] == "malformed" and "SECRET" not in report.text


def test_the_assistant_root_is_refused_when_it_is_no_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Item 1: ``arbiter mcp --root`` of a missing folder is one error line, before any serving."""
    pytest.importorskip("mcp")
    line = refused(capsys, "mcp", "--root", str(tmp_path / "nope"))
    assert "--root" in line


def test_a_record_names_no_file(tmp_path: Path) -> None:
    """Item 1: a record header's ``position`` is a notation line, never ``@FILE`` read from the disk."""
    from engine.conformance.records.check import check_record

    state = tmp_path / "p.txt"
    state.write_text("standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0\n", encoding="utf-8")
    header = {"type": "header", "format": "arbiter-record", "version": 3, "game": "take6",
              "variant": "standard", "options": {}, "players": 2, "setup": None, "position": f"@{state}"}
    report = check_record(io.StringIO(json.dumps(header) + "\n"), name="r")
    assert report.status == "malformed" and "reading files is off" in (report.error or "")


def test_view_refuses_to_overwrite_its_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Item 3: a record named ``g.html`` viewed with the default output would be written over: refused,
    even with --force, and the record is left whole."""
    record = tmp_path / "g.html"
    shutil.copy(ROOT / "tests" / "data" / "records" / "good-take6-standard-2p.jsonl", record)
    before = record.read_bytes()
    assert "is the input" in refused(capsys, "view", str(record))
    assert "is the input" in refused(capsys, "view", str(record), "--force", "-o", str(record))
    assert record.read_bytes() == before


def test_view_replaces_only_its_own_pages(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Item 3: ``arbiter view -o PAGE`` replaces a page it wrote (the generated-page marker), refuses any
    other existing file unless --force, and leaves the folder's other files alone."""
    record = ROOT / "tests" / "data" / "records" / "good-take6-standard-2p.jsonl"
    page, mine, other = tmp_path / "page.html", tmp_path / "mine.html", tmp_path / "notes.txt"
    mine.write_text("<p>my own page</p>", encoding="utf-8")
    other.write_text("keep", encoding="utf-8")
    assert main(["view", str(record), "-o", str(page)]) == 0
    assert main(["view", str(record), "-o", str(page)]) == 0  # its own page: replaced
    capsys.readouterr()
    assert "not written by arbiter view" in refused(capsys, "view", str(record), "-o", str(mine))
    assert mine.read_text(encoding="utf-8") == "<p>my own page</p>"
    assert main(["view", str(record), "-o", str(mine), "--force"]) == 0
    assert mine.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert other.read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.html", "notes.txt", "page.html"]


def test_write_docs_refuses_to_overwrite_a_page_it_did_not_write(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Item 4: a user's own README.md in the docs folder stops ``rules --write-docs`` before anything is
    written; the pages it wrote are replaced; a page edited since it was written is not (its seal no longer
    matches: round three, class 5)."""
    (tmp_path / "README.md").write_text("my own readme\n", encoding="utf-8")
    assert "README.md" in refused(capsys, "rules", "--write-docs", str(tmp_path))
    assert [p.name for p in tmp_path.iterdir()] == ["README.md"]
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "my own readme\n"
    (tmp_path / "README.md").unlink()
    assert main(["rules", "--write-docs", str(tmp_path)]) == 0
    assert main(["rules", "--write-docs", str(tmp_path)]) == 0
    edited = (tmp_path / "take6.md").read_text(encoding="utf-8") + "my own line\n"
    (tmp_path / "take6.md").write_text(edited, encoding="utf-8")
    assert "take6.md" in refused(capsys, "rules", "--write-docs", str(tmp_path))
    assert (tmp_path / "take6.md").read_text(encoding="utf-8") == edited


def test_records_and_reports_replace_only_what_arbiter_wrote(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Item 3: ``play --record`` replaces a record this engine wrote but not a user's file; ``fuzz --out`` and
    ``--report`` refuse a user's file before any game is played."""
    mine = tmp_path / "mine.jsonl"
    mine.write_text("my notes\n", encoding="utf-8")
    ours = tmp_path / "ours.jsonl"
    assert main(["play", "take6", "--players", "2", "--quiet", "--record", str(ours)]) == 0
    assert main(["play", "take6", "--players", "2", "--quiet", "--record", str(ours), "--seed", "3"]) == 0
    assert "not written by arbiter" in refused(
        capsys, "play", "take6", "--players", "2", "--quiet", "--record", str(mine)
    )
    assert mine.read_text(encoding="utf-8") == "my notes\n"
    peer = f"{sys.executable} -m engine.conformance.peers.reference"
    for flags in (["--out", str(mine)], ["--games", "1", "--report", str(tmp_path / "r.md")]):
        (tmp_path / "r.md").write_text("# my report\n", encoding="utf-8")
        assert "not written by arbiter" in refused(capsys, "fuzz", "--peer", peer, *flags)
    assert mine.read_text(encoding="utf-8") == "my notes\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["fuzz", "--peer", "x", "--time", "nan"],
        ["fuzz", "--peer", "x", "--games", "1", "--timeout", "1e308"],
        ["fuzz", "--peer", "x", "--games", "1", "--timeout", "inf"],
        ["fuzz", "--peer", "x", "--games", "1", "--shrink-time", "-inf"],
        ["fuzz", "--peer", "x", "--games", "10000000000000"],
        ["fuzz", "--peer", "x", "--games", "1", "--jobs", "100000"],
        ["check", "--jobs", "nan", "x.jsonl"],
        ["bench", "--seconds", "nan"],
        ["play", "take6", "--seed", "1" * 40],
        ["show", "take6", "--position", "{}", "--viewer", "-1"],
    ],
)
def test_numeric_flags_refuse_nan_infinities_and_absurd_values(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Item 9: every numeric flag refuses NaN, infinities and values beyond any real use with one line
    naming the flag, exit code 2 (``fuzz --time nan`` used to play 0 games and report no divergence)."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("arbiter: error: argument --")


def test_jobs_are_capped_by_the_work_and_the_cores(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 5: ``--jobs`` asks for at most so many workers: no more start than the work to share out and the
    cores, and one line on stderr says so."""
    from engine.cliargs import available_cores, cap_jobs

    assert cap_jobs(1000, 3) == min(3, available_cores())
    assert capsys.readouterr().err.count("\n") == 1
    assert cap_jobs(None, 100) == available_cores()
    assert cap_jobs(1, 100) == 1
    assert capsys.readouterr().err == ""


def test_check_jobs_beyond_the_files_start_no_more_workers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 5: ``check --jobs 200`` on two files starts at most two worker processes."""
    import concurrent.futures

    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def pool(max_workers: int) -> Any:
        started.append(max_workers)
        return real(max_workers=max_workers)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    good = ROOT / "tests" / "data" / "records"
    code = main(["check", "--jobs", "200", str(good / "good-take6-standard-2p.jsonl"),
                 str(good / "good-petersburg-first-2p.jsonl")])
    assert code == 0 and all(n <= 2 for n in started)
    assert "--jobs 200 capped to" in capsys.readouterr().err


def _with_claims(record: Path, claims: dict[str, Any], out: Path) -> Path:
    lines = record.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["claims"] = claims
    out.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("record", "claims"),
    [
        ("good-take6-standard-2p.jsonl", {"round": 10**30}),
        ("good-petersburg-first-2p.jsonl", {"upper": ["\ud800"]}),
        ("good-petersburg-first-2p.jsonl", {"money": [10**30, 0]}),
    ],
)
def test_a_claim_beyond_64_bits_or_a_lone_surrogate_is_a_divergence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: str, claims: dict[str, Any]
) -> None:
    """Item 6: a well-formed claim the rules' facts contradict is a divergence (exit 1), even when it holds a
    huge integer or a lone surrogate, and the report prints (escaped) without an error."""
    path = _with_claims(ROOT / "tests" / "data" / "records" / record, claims, tmp_path / "c.jsonl")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "DIVERGENCE" in out and "\ud800" not in out
    assert main(["check", "--json", str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["records"][0]["status"] == "divergence"


def test_check_escapes_a_line_separator_in_the_record_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Item 11: a U+2028 in a claimed value reaches the terminal escaped on the ``record:`` line, as on the
    ``rules:`` line."""
    record = ROOT / "tests" / "data" / "records" / "good-petersburg-first-2p.jsonl"
    path = _with_claims(record, {"upper": ["Mar\u2028ket"]}, tmp_path / "c.jsonl")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "\u2028" not in out and "\\u2028" in out


def _logic_draft() -> dict[str, Any]:
    game = get_game("take6")
    return game.state_to_json(game.new_game(3, variant="logic", seed=1))


@pytest.mark.parametrize("command", ["explain", "show", "play", "ask"])
def test_a_stock_listing_a_card_twice_is_refused_naming_stock(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Item 7: a logic JSON state whose stock repeats a card is refused naming ``stock`` (T6-DECK-1), on
    every command that takes a position (it used to be an IndexError)."""
    state = _logic_draft()
    state["stock"] = sorted([*state["stock"], state["stock"][0]])
    text = json.dumps(state)
    argv = {
        "explain": ["explain", "take6", "--position", text, "--action", "{}"],
        "show": ["show", "take6", "--position", text],
        "play": ["play", "take6", "--from", text],
        "ask": ["ask", "row", "7", "--position", text],
    }[command]
    line = refused(capsys, *argv)
    assert "stock" in line and "T6-DECK-1" in line


def test_earlier_round_bullheads_beyond_the_deck_are_refused() -> None:
    """Item 10 (T6-ROUND-2): a finished game claiming 10^30 bullheads, or more than every earlier round
    could take from the deck, is refused naming ``penalties``; JSON and notation refuse the same values."""
    from engine.errors import PositionError

    game = get_game("take6")
    state = game.new_game(2, seed=3)
    while not game.is_terminal(state):
        seat = game.to_act(state)[0]
        state = game.apply(state, game.legal_actions(state, seat)[0])
    data = game.state_to_json(state)
    for value in (10**30, 10**15):
        data["penalties"][0] = value
        with pytest.raises(PositionError, match=r"^penalties\[0\]"):
            game.state_from_json(data)
    line = "standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0"
    game.from_notation(line)
    with pytest.raises(InputError, match=r"^totals.*at most 19 digits"):
        game.from_notation(line.replace("12/0", "1" * 25 + "/0"))


@pytest.mark.parametrize(("game", "field"), [("petersburg", "money"), ("take6", "seed")])
def test_json_and_notation_accept_the_same_numbers(game: str, field: str) -> None:
    """Item 10: a JSON state with money (or a seed) of 10^40 is refused naming the field, as the notation
    refuses it, instead of being accepted and then written as a notation line no reader takes."""
    g = get_game(game)
    data = g.state_to_json(g.new_game(2, seed=5))
    if field == "money":
        data["money"][0] = 10**40
    else:
        data["seed"] = 10**40
    with pytest.raises(InputError, match=f"^{field}"):
        g.state_from_json(data)
    big = g.new_game(2, seed=2**63 - 1)
    assert g.from_notation(g.to_notation(big)) == big
    assert g.state_from_json(g.state_to_json(big)) == big
