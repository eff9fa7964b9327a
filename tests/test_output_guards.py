"""No command destroys what it did not write (docs/robustness.md, the section of that name): the exported
suite, the perft file, a campaign's class files; and the assistant's tools say that a file is read only
under ``--root``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from refusals import refused

from engine.assistant.tools import ROOT_ONLY, tools
from engine.cli import main


def test_vectors_export_keeps_a_file_it_did_not_write(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A user's ``take6.jsonl`` in DIR stops ``vectors export`` before any file is written; ``--force``
    replaces it."""
    mine = tmp_path / "take6.jsonl"
    mine.write_text("my notes\n", encoding="utf-8")
    line = refused(capsys, "vectors", "export", str(tmp_path), "--game", "take6", "--per-clause", "1")
    assert ("'take6.jsonl' exists and was not written by arbiter vectors export, or was changed since "
            "(--force replaces it)") in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["take6.jsonl"]
    assert mine.read_text(encoding="utf-8") == "my notes\n"
    assert main(["vectors", "export", str(tmp_path), "--game", "take6", "--per-clause", "1", "--force"]) == 0
    assert mine.read_text(encoding="utf-8").startswith('{"id":')


def test_vectors_export_replaces_the_files_of_an_earlier_export(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A second export into the same folder replaces the files the first one's sealed manifest lists with
    the digest they still have, and leaves other files alone; a listed file changed since is refused
    (``--force`` replaces it), and so is a user's ``manifest.json``."""
    assert main(["vectors", "export", str(tmp_path), "--game", "take6", "--per-clause", "1"]) == 0
    (tmp_path / "README.md").write_text("about this folder\n", encoding="utf-8")
    assert main(["vectors", "export", str(tmp_path), "--per-clause", "1"]) == 0
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "about this folder\n"
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert "schemas/petersburg.schema.json" in manifest["schemas"]
    assert set(manifest["digests"]) == {*manifest["files"], *manifest["schemas"]}
    (tmp_path / "take6.jsonl").write_text("stale\n", encoding="utf-8")
    line = refused(capsys, "vectors", "export", str(tmp_path), "--per-clause", "1")
    assert "'take6.jsonl' exists and was not written by arbiter vectors export, or was changed since" in line
    assert (tmp_path / "take6.jsonl").read_text(encoding="utf-8") == "stale\n"
    assert main(["vectors", "export", str(tmp_path), "--per-clause", "1", "--force"]) == 0
    assert (tmp_path / "take6.jsonl").read_text(encoding="utf-8").startswith('{"id":')
    (tmp_path / "manifest.json").write_text('{"mine": true}\n', encoding="utf-8")
    line = refused(capsys, "vectors", "export", str(tmp_path), "--per-clause", "1")
    assert "manifest.json" in line and "not written by arbiter vectors export" in line
    assert (tmp_path / "manifest.json").read_text(encoding="utf-8") == '{"mine": true}\n'


def test_vectors_export_into_a_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """DIR naming a file is refused, naming it."""
    target = tmp_path / "out"
    target.write_text("x", encoding="utf-8")
    assert "is not a folder" in refused(capsys, "vectors", "export", str(target))
    assert target.read_text(encoding="utf-8") == "x"


def test_perft_write_replaces_only_a_perft_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``vectors perft --write FILE`` refuses a file that is not a perft file (``--force`` replaces it) and
    replaces the one it wrote."""
    target = tmp_path / "perft.jsonl"
    target.write_text("my counts\n", encoding="utf-8")
    line = refused(capsys, "vectors", "perft", "--game", "take6", "--write", str(target))
    assert "not written by arbiter vectors perft, or was changed since (--force replaces it)" in line
    assert target.read_text(encoding="utf-8") == "my counts\n"
    assert main(["vectors", "perft", "--game", "take6", "--write", str(target), "--force"]) == 0
    assert main(["vectors", "perft", "--game", "take6", "--write", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8").splitlines()[0])["game"] == "take6"
    assert "--force: only with --write FILE" in refused(capsys, "vectors", "perft", "--force")


def test_a_campaign_refuses_a_clashing_file_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A file in ``fuzz --out DIR`` named as a class's file could be (``01-....jsonl``) and not written by
    this engine stops the campaign before the first game, not when it is over."""
    (tmp_path / "01-take6-claim.jsonl").write_text("my notes\n", encoding="utf-8")
    peer = f"{sys.executable} -m engine.conformance.peers.reference"
    line = refused(capsys, "fuzz", "--peer", peer, "--games", "1", "--out", str(tmp_path), "--quiet")
    assert "--out" in line and "01-take6-claim.jsonl" in line and "not written by arbiter" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["01-take6-claim.jsonl"]
    (tmp_path / "01-take6-claim.jsonl").unlink()
    (tmp_path / "notes.jsonl").write_text("not a class file\n", encoding="utf-8")
    assert main(["fuzz", "--peer", peer, "--games", "1", "--out", str(tmp_path), "--quiet"]) == 0
    assert (tmp_path / "notes.jsonl").read_text(encoding="utf-8") == "not a class file\n"


def test_the_tools_say_a_file_is_read_only_under_a_root() -> None:
    """Every input schema that offers a file (an '@FILE' position, a record's path) says a file is read only
    when the server was given a folder (``--root``): the descriptions stay true of a server without one."""
    offers = 0
    for tool in tools():
        for name, prop in tool.schema["properties"].items():
            text = prop.get("description", "")
            if "@FILE" in text or name == "path":
                offers += 1
                assert ROOT_ONLY in text and "given a folder to read" in text, (tool.name, name)
    assert offers >= 3
