"""The library and the command line as a new user meets them: ``apply`` given a dict says how to build an
action, ``arbiter --version``, ``bench --help`` names every suite, and a state's repr is short."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import InputError, NotAnAction, RuleViolation
from engine.game import get_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("game", "action"),
    [
        ("take6", {"type": "select", "player": 0, "card": 10}),
        ("take6", {"type": "take_row", "player": 0, "row": 0}),
        ("petersburg", {"type": "pass", "player": 0}),
        ("petersburg", {}),
    ],
)
def test_apply_given_a_json_form_is_a_type_error_naming_action_from_json(
    game: str, action: dict[str, object]
) -> None:
    """``apply(state, {"type": ...})`` is a type error (a TypeError and an InputError naming ``action``)
    that points at ``action_from_json``, not a rules violation such as T6-ACT-1; the state is unchanged."""
    g = get_game(game)
    state = g.new_game(2, seed=1)
    before = g.state_to_json(state)
    with pytest.raises(TypeError, match=r"action_from_json") as info:
        g.apply(state, action)
    assert isinstance(info.value, NotAnAction) and isinstance(info.value, InputError)
    assert not isinstance(info.value, RuleViolation) and info.value.field == "action"
    assert g.state_to_json(state) == before
    if action.get("type") in ("select", "pass"):  # what the message says to do works
        assert g.apply(state, g.action_from_json(action)) is not None


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter --version`` prints the package's version and exits 0."""
    from engine import __version__

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"arbiter {__version__}"


def test_bench_help_names_every_suite() -> None:
    """``arbiter --help`` and ``arbiter bench --help`` name every bench suite, envs included."""
    from engine.bench import SUITES

    top = subprocess.run(
        [sys.executable, "-m", "engine", "--help"], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    bench = subprocess.run(
        [sys.executable, "-m", "engine", "bench", "--help"], capture_output=True, text=True, cwd=ROOT
    ).stdout
    described = " ".join(top.split()).split("bench ", 1)[1].split(" check ", 1)[0]
    for suite in SUITES:
        assert suite in described, (suite, described)
        assert f"({suite}" in " ".join(bench.split()), suite
