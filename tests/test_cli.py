"""The command line: readable output, one-line errors with exit code 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.cli import main
from engine.play import parse_options


def run(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "engine", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("game", ["take6", "petersburg"])
def test_play_prints_a_game_and_standings(game: str) -> None:
    """`arbiter play GAME` plays a whole game with bots and ends with the standings."""
    proc = run("play", game, "--players", "3", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) > 20
    assert "Traceback" not in proc.stderr


def test_play_is_reproducible_from_the_seed() -> None:
    """The same seed gives the same log, a different seed a different one."""
    a = run("play", "take6", "--players", "4", "--seed", "9").stdout
    b = run("play", "take6", "--players", "4", "--seed", "9").stdout
    c = run("play", "take6", "--players", "4", "--seed", "10").stdout
    assert a == b
    assert a != c


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "take6", "--players", "11"], "T6-"),
        (["play", "take6", "--players", "four"], "--players: expected a whole number"),
        (["play", "chess"], "invalid choice"),
        (["play", "take6", "--variant", "nope"], "nope"),
        (["play", "take6", "--option", "novalue"], "--option"),
        (["play", "take6", "--bot", "nope"], "--bot"),
        (["play", "petersburg", "--players", "5"], "SP-"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(args: list[str], needle: str) -> None:
    """Bad CLI input: exit code 2, a single error line naming the problem, no traceback."""
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = [line for line in proc.stderr.splitlines() if line.startswith("arbiter: error:")]
    assert len(lines) == 1, proc.stderr
    assert needle in lines[0]
    assert "Traceback" not in proc.stderr


def test_main_returns_exit_codes_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    """main() returns 0 on success and 2 on a rule violation in the input."""
    assert main(["play", "take6", "--players", "2", "--seed", "3", "--quiet"]) == 0
    assert main(["play", "take6", "--players", "1"]) == 2
    assert "arbiter: error:" in capsys.readouterr().err


def test_parse_options_reads_json_values() -> None:
    """--option values are JSON when they parse, strings otherwise."""
    assert parse_options(["a=1", "b=true", "c=x"]) == {"a": 1, "b": True, "c": "x"}
