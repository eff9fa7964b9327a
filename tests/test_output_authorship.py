"""Round three, classes 4, 5, 6 and 10: a command replaces a file only when it can prove it wrote it (the
file's seal, or an export's sealed manifest listing the file's digest), follows no link inside an output
folder, and writes into a stream the user names (docs/robustness.md, "Round three")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from refusals import refused

from engine import outputs
from engine.cli import main
from engine.conformance.campaign.report import check_out_dir
from engine.conformance.vectors.perft import read_perft
from engine.errors import InputError

RECORD = Path(__file__).resolve().parent / "data" / "records" / "good-take6-unfinished.jsonl"
POSITION = "standard 2 select 3.10/22/40.41.45/90 23.8.60/7.9.70 - - 12/0"
PEER = f"{sys.executable} -m engine.conformance.peers.reference"


# --------------------------------------------------------------------------------------------------
# Class 4: the write probe of `fuzz --out DIR`


def test_the_out_folder_probe_follows_no_link_and_removes_no_file(tmp_path: Path) -> None:
    """Class 4: ``fuzz --out DIR`` checked its folder by writing ``DIR/.arbiter-write-test`` through any
    link there (truncating the file it led to) and deleting it.  The probe is now a new file of a fresh
    name: a link or a file of the old name is left as it was."""
    victim = tmp_path / "victim.txt"
    victim.write_text("twelve bytes", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / ".arbiter-write-test").symlink_to(victim)
    check_out_dir(out)
    assert victim.read_text(encoding="utf-8") == "twelve bytes"
    assert (out / ".arbiter-write-test").is_symlink()
    (out / ".arbiter-write-test").unlink()
    (out / ".arbiter-write-test").write_text("mine", encoding="utf-8")
    check_out_dir(out)
    assert (out / ".arbiter-write-test").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in out.iterdir()) == [".arbiter-write-test"]


def test_a_link_named_as_a_class_file_is_refused_not_followed(tmp_path: Path) -> None:
    """Class 4: a link in ``--out DIR`` named as a class's file is refused before the campaign starts; the
    file it leads to is not written."""
    victim = tmp_path / "victim.jsonl"
    victim.write_text("mine\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "01-take6-claim.jsonl").symlink_to(victim)
    with pytest.raises(InputError, match=r"01-take6-claim\.jsonl' is a link; not followed"):
        check_out_dir(out)
    assert victim.read_text(encoding="utf-8") == "mine\n"


# --------------------------------------------------------------------------------------------------
# Class 5: a file that merely looks generated


@pytest.mark.parametrize(
    "notes",
    [
        "<p>my notes quote the marker:</p>\n<!-- Written by arbiter view: a generated page, replaced when "
        "the record is viewed again. -->\n",
        "<!DOCTYPE html>\n<!-- Written by arbiter view: a generated page, replaced when the record is viewed "
        "again (arbiter seal view " + "0" * 64 + ") -->\n<p>my page</p>\n",
    ],
)
def test_view_keeps_a_page_that_quotes_its_marker(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, notes: str
) -> None:
    """Class 5: ``view -o notes.html`` of a page of one's own that quotes the view marker (an earlier
    version's, or a seal that is not this page's) is refused; the page is left as it was."""
    page = tmp_path / "notes.html"
    page.write_text(notes, encoding="utf-8")
    line = refused(capsys, "view", str(RECORD), "-o", str(page))
    assert "notes.html" in line and "--force replaces it" in line
    assert page.read_text(encoding="utf-8") == notes


def test_view_replaces_its_own_page_and_no_page_edited_since(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Class 5: a page ``view`` wrote is replaced the next time; once edited (a line added), it is not:
    the seal no longer matches its content.  ``--force`` replaces it."""
    page = tmp_path / "game.html"
    assert main(["view", str(RECORD), "-o", str(page)]) == 0
    assert main(["view", str(RECORD), "-o", str(page)]) == 0
    edited = page.read_text(encoding="utf-8") + "<!-- my comment -->\n"
    page.write_text(edited, encoding="utf-8")
    capsys.readouterr()
    assert "or was changed since" in refused(capsys, "view", str(RECORD), "-o", str(page))
    assert page.read_text(encoding="utf-8") == edited
    assert main(["view", str(RECORD), "-o", str(page), "--force"]) == 0


def test_a_page_of_an_earlier_version_is_refused_saying_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Class 5 (ruling): a page an earlier arbiter wrote carries its marker but no seal, so nothing proves
    it is unchanged: refused, the message saying why, ``--force`` replaces it."""
    page = tmp_path / "game.html"
    page.write_text("<!DOCTYPE html>\n<!-- Written by arbiter view: a generated page, replaced when the "
                    "record is viewed again. -->\n<p>old</p>\n", encoding="utf-8")
    line = refused(capsys, "view", str(RECORD), "-o", str(page))
    assert "earlier arbiter version" in line and "--force replaces it" in line


def test_a_markdown_file_titled_as_a_report_is_kept(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Class 5: a Markdown file that starts with the campaign report's title is not a report: ``fuzz
    --report`` refuses it before any game."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Conformance campaign: my plans\n\nkeep this\n", encoding="utf-8")
    line = refused(capsys, "fuzz", "--peer", PEER, "--games", "1", "--report", str(notes), "--quiet")
    assert "--report" in line and "notes.md" in line
    assert notes.read_text(encoding="utf-8") == "# Conformance campaign: my plans\n\nkeep this\n"


def test_a_file_whose_first_line_looks_like_perft_is_kept(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Class 5: a file whose first line has a perft line's keys is not a perft file ``vectors perft
    --write`` wrote; one it wrote is replaced."""
    mine = tmp_path / "counts.jsonl"
    text = '{"id": "take6/mine", "game": "take6", "counts": [1]}\nmy other notes\n'
    mine.write_text(text, encoding="utf-8")
    assert "--write" in refused(capsys, "vectors", "perft", "--game", "take6", "--write", str(mine))
    assert mine.read_text(encoding="utf-8") == text
    ours = tmp_path / "perft.jsonl"
    assert main(["vectors", "perft", "--game", "take6", "--write", str(ours)]) == 0
    assert main(["vectors", "perft", "--game", "take6", "--write", str(ours)]) == 0
    assert len(list(read_perft(ours))) == 6  # the seal on the first line is no position; readers take it


def test_a_forged_manifest_does_not_give_away_a_users_schemas(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Class 5: a ``manifest.json`` that lists a user's ``schemas/*.json`` (an earlier version's format, or
    an export's manifest copied in) does not make ``vectors export`` replace them."""
    (tmp_path / "schemas").mkdir()
    mine = tmp_path / "schemas" / "record.schema.json"
    mine.write_text('{"mine": true}\n', encoding="utf-8")
    forged = {"format": "arbiter-vectors", "version": 1, "files": [],
              "schemas": ["schemas/record.schema.json"]}
    (tmp_path / "manifest.json").write_text(json.dumps(forged, indent=2) + "\n", encoding="utf-8")
    assert "manifest.json" in refused(capsys, "vectors", "export", str(tmp_path), "--game", "take6",
                                      "--per-clause", "1")
    assert mine.read_text(encoding="utf-8") == '{"mine": true}\n'
    elsewhere = tmp_path / "real"
    assert main(["vectors", "export", str(elsewhere), "--game", "take6", "--per-clause", "1"]) == 0
    capsys.readouterr()
    (tmp_path / "manifest.json").write_bytes((elsewhere / "manifest.json").read_bytes())  # a true seal
    line = refused(capsys, "vectors", "export", str(tmp_path), "--game", "take6", "--per-clause", "1")
    assert "record.schema.json" in line
    assert mine.read_text(encoding="utf-8") == '{"mine": true}\n'


def test_every_kind_proves_only_its_own_files() -> None:
    """Class 5, the mechanism: for every kind, the sealed text is proven that kind's, and neither the
    text edited by one character nor another kind's sealed file is."""
    kinds = [outputs.VIEW_PAGE, outputs.SVG_PICTURE, outputs.RECORD, outputs.CAMPAIGN_JSON,
             outputs.CAMPAIGN_MD, outputs.VECTORS_MANIFEST, outputs.VECTOR_CASE, outputs.PERFT_FILE,
             outputs.RULES_DOCS]
    texts = {
        "view": "<!DOCTYPE html>\n<p>page</p>\n",
        "show": "<svg></svg>\n",
        "record": RECORD.read_text(encoding="utf-8"),
        "report": '{\n "format": "arbiter-campaign-report"\n}\n',
        "manifest": '{"format": "arbiter-vectors"}\n',
        "vector": '{"id":"take6/x","clauses":[],"kind":"legal"}\n',
        "perft": '{"id":"take6/x","game":"take6","counts":[1]}\n',
        "docs": "\n# Rules reference\n",
    }
    from engine.seal import proven_tags

    for kind in kinds:
        text = texts[kind.tag] if kind is not outputs.CAMPAIGN_MD else "# Conformance campaign: x\n"
        sealed = kind.mark(text)
        assert kind.tag in proven_tags(sealed.encode()), kind
        assert kind.mark(sealed) == sealed
        assert not proven_tags((sealed[:-1] + "x\n").encode()), kind
        for other in kinds:
            if other.tag != kind.tag:
                assert other.tag not in proven_tags(sealed.encode())


# --------------------------------------------------------------------------------------------------
# Class 6: a link inside an output folder


@pytest.mark.parametrize("force", [False, True])
def test_vectors_export_follows_no_schemas_link(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, force: bool
) -> None:
    """Class 6: ``DIR/schemas`` as a link to a folder elsewhere stops ``vectors export DIR`` (with
    ``--force`` too) before a file is written; nothing is written where the link leads."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "schemas").symlink_to(elsewhere)
    argv = ["vectors", "export", str(out), "--game", "take6", "--per-clause", "1", *(["--force"] * force)]
    assert "schemas' is a link; not followed" in refused(capsys, *argv)
    assert list(elsewhere.iterdir()) == []
    assert sorted(p.name for p in out.iterdir()) == ["schemas"]


def test_a_link_in_place_of_an_output_file_is_not_written_through(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Class 6: a link where ``vectors export`` writes a file is refused; with ``--force`` the link itself is
    replaced, the file it led to is not written."""
    victim = tmp_path / "victim.jsonl"
    victim.write_text("mine\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "take6.jsonl").symlink_to(victim)
    argv = ["vectors", "export", str(out), "--game", "take6", "--per-clause", "1"]
    assert "take6.jsonl' is a link" in refused(capsys, *argv)
    assert main([*argv, "--force"]) == 0
    assert victim.read_text(encoding="utf-8") == "mine\n"
    assert not (out / "take6.jsonl").is_symlink()


# --------------------------------------------------------------------------------------------------
# Class 10: output names and streams


def test_a_newline_in_an_output_name_stays_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Class 10: the line saying where the picture went is one line, the name's newline escaped."""
    target = tmp_path / "a\nb.svg"
    assert main(["show", "take6", "--position", POSITION, "-o", str(target)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a\\nb.svg" in err
    assert target.read_text(encoding="utf-8").split("\n", 1)[1].startswith("<svg")


def test_show_writes_into_its_standard_output_through_dev_stdout() -> None:
    """Class 10: ``show -o /dev/stdout`` (a link to the pipe it writes into) writes the picture there, as
    the docs say of a pipe or a terminal, instead of refusing the link."""
    proc = subprocess.run([sys.executable, "-m", "engine", "show", "take6", "--position", POSITION, "-o",
                           "/dev/stdout"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in proc.stdout and proc.stderr == "wrote /dev/stdout\n"


def test_show_writes_into_a_file_the_shell_opened_as_its_standard_output(tmp_path: Path) -> None:
    """Class 10: ``show -o /dev/stdout > pic.svg``: the shell's file is the command's standard output, written
    into (it is not the command's to refuse or replace)."""
    picture = tmp_path / "pic.svg"
    with picture.open("w", encoding="utf-8") as handle:
        proc = subprocess.run([sys.executable, "-m", "engine", "show", "take6", "--position", POSITION, "-o",
                               "/dev/stdout"], stdout=handle, stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in picture.read_text(encoding="utf-8")
