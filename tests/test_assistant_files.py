"""Files the assistant reads under ``arbiter mcp --root DIR`` (hostile input, round three, classes 2 and 9):
nothing outside the root is read, not through a folder swapped for a link during the walk, not through a
hard link; and no error names the server's own path to a file or a command-line flag.

The positions inside the root are 6 nimmt! games of 3 players; the ones outside, of 7: an answer about 7
players read a file outside the root.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.assistant.tools import call
from engine.errors import InputError
from engine.game import get_game
from engine.jsonio import FileAccess

RECORD = Path(__file__).resolve().parent / "data" / "records" / "good-take6-standard-2p.jsonl"


def _position(players: int) -> str:
    game = get_game("take6")
    return json.dumps(game.state_to_json(game.new_game(players, seed=1)))


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    """``root/sub/state.json`` (3 players) and ``outside/sub/state.json`` (7 players), a record in each."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    for folder, players in ((root, 3), (outside, 7)):
        (folder / "sub").mkdir(parents=True)
        (folder / "sub" / "state.json").write_text(_position(players), encoding="utf-8")
    (outside / "secret.jsonl").write_text(RECORD.read_text(encoding="utf-8"), encoding="utf-8")
    return {"root": root, "outside": outside}


def _players(result: Any) -> int:
    return len(result.data["actions"]) if "actions" in result.data else -1


def _ask(access: FileAccess, name: str) -> int | str:
    """How many seats the position ``@name`` has, or the error's message."""
    try:
        return _players(call("legal_actions", {"game": "take6", "position": f"@{name}"}, access=access))
    except InputError as exc:
        return exc.message


def _swapping_open(
    monkeypatch: pytest.MonkeyPatch, at: int, swap: Callable[[], None]
) -> list[Any]:
    """``os.open`` that runs ``swap`` just before its ``at``-th call (counted from 0): a folder changed
    between any check of the path and that open."""
    real = os.open
    calls: list[Any] = []

    def hooked(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if len(calls) == at:
            swap()
        calls.append(path)
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", hooked)
    return calls


@pytest.mark.parametrize("at", range(5))
def test_a_folder_swapped_for_a_link_during_the_open_leads_nowhere_outside(
    tree: dict[str, Path], monkeypatch: pytest.MonkeyPatch, at: int
) -> None:
    """Class 2: ``root/sub`` is replaced by a link to ``outside/sub`` just before the server's n-th
    ``open`` of the call, whichever step of the walk that is: the answer is the inside position (the
    folder was held already) or a refusal naming the folder, never the outside position."""
    root, outside = tree["root"], tree["outside"]
    access = FileAccess.under(root)

    def swap() -> None:
        (root / "sub").rename(root / "sub.real")
        (root / "sub").symlink_to(outside / "sub", target_is_directory=True)

    _swapping_open(monkeypatch, at, swap)
    answer = _ask(access, "sub/state.json")
    assert answer in (3, "outside the folder this server may read"), answer


def test_a_hard_link_to_an_outside_file_is_refused(tree: dict[str, Path]) -> None:
    """Class 2: a file of the root that is a hard link to a file outside it (two names) is not read; the
    same content as a file of its own is."""
    root, outside = tree["root"], tree["outside"]
    os.link(outside / "sub" / "state.json", root / "hard.json")
    access = FileAccess.under(root)
    assert "more than one name" in str(_ask(access, "hard.json"))
    os.link(outside / "secret.jsonl", root / "linked.jsonl")
    with pytest.raises(InputError, match="more than one name"):
        call("check_record", {"path": "linked.jsonl"}, access=access)
    (root / "copy.json").write_bytes((outside / "sub" / "state.json").read_bytes())
    assert _ask(access, "copy.json") == 7


def test_links_are_walked_inside_the_root_and_refused_out_of_it(tree: dict[str, Path]) -> None:
    """Class 2: a link inside the root is followed while it stays in the root (to a file, to a folder,
    absolute or relative, ``..`` inside the root); a link leading out, ``..`` above the root and an
    absolute path elsewhere are refused; a link loop is refused."""
    root, outside = tree["root"], tree["outside"]
    (root / "alias.json").symlink_to("sub/state.json")
    (root / "folder").symlink_to(root / "sub", target_is_directory=True)
    (root / "up.json").symlink_to("sub/../sub/state.json")
    (root / "out.json").symlink_to(outside / "sub" / "state.json")
    (root / "sneak.json").symlink_to("../outside/sub/state.json")
    (root / "loop").symlink_to("loop")
    access = FileAccess.under(root)
    for name in ("sub/state.json", "alias.json", "folder/state.json", "up.json", "sub/../sub/state.json",
                 f"{root}/sub/state.json", "./sub//state.json"):
        assert _ask(access, name) == 3, name
    for name in ("out.json", "sneak.json", "../outside/sub/state.json", str(outside / "sub" / "state.json"),
                 "sub/../../outside/sub/state.json"):
        assert _ask(access, name) == "outside the folder this server may read", name
    assert "symbolic links" in str(_ask(access, "loop"))
    assert "not a regular file" in str(_ask(access, "sub"))


def test_errors_name_the_file_as_the_client_gave_it(tree: dict[str, Path]) -> None:
    """Class 9: an error about a record or a position file names the path as the client wrote it, never
    the server's own absolute path to it (before: ``/srv/games/bad.jsonl line 1: ...``)."""
    root = tree["root"]
    (root / "bad.jsonl").write_text('{"type": "nonsense"}\n', encoding="utf-8")
    (root / "bad.json").write_text('{"game": "take6"}', encoding="utf-8")
    access = FileAccess.under(root)
    failures = []
    for name, args in [
        ("record_position", {"game": "take6", "path": "bad.jsonl"}),
        ("record_position", {"game": "petersburg", "path": "sub/../bad.jsonl"}),
        ("record_position", {"game": "take6", "path": "nope.jsonl"}),
        ("legal_actions", {"game": "take6", "position": "@bad.json"}),
    ]:
        with pytest.raises(InputError) as err:
            call(name, args, access=access)
        failures.append(str(err.value))
    report = call("check_record", {"path": "bad.jsonl"}, access=access)
    failures.append(report.data["error"] + report.data["path"] + report.text)
    for text in failures:
        assert str(root) not in text and str(root.parent) not in text, text
    assert failures[0].startswith("path 'bad.jsonl' line 1: ")
    assert failures[1].startswith("path 'sub/../bad.jsonl'")
    assert report.data["path"] == "path 'bad.jsonl'"


def test_the_no_folder_hint_names_no_command_line() -> None:
    """Class 9: a server given no folder says so in words a client can act on (pass the content), not a
    garbled flag (before: ``arbiter mcp position.root DIR``)."""
    for name, args in [
        ("legal_actions", {"game": "take6", "position": "@state.json"}),
        ("record_position", {"game": "take6", "path": "game.jsonl"}),
        ("check_record", {"path": "game.jsonl"}),
    ]:
        with pytest.raises(InputError) as err:
            call(name, args)
        text = str(err.value)
        assert "pass the content itself" in text, text
        assert "--" not in text and "arbiter" not in text and ".root" not in text and "DIR" not in text
