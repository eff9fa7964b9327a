"""docs/environments.md against the code: its tables are the ones the code generates, its training loop
runs, its action ranges are the codecs' offsets; the benchmark command runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from extras import need

need("pettingzoo")

from engine.envs import bench, petersburg_codec, take6_codec  # noqa: E402
from engine.petersburg import ruleset  # noqa: E402
from engine.take6 import rules_for  # noqa: E402

DOC = (Path(__file__).resolve().parent.parent / "docs" / "environments.md").read_text(encoding="utf-8")


def _tables() -> list[tuple[str, str]]:
    return [
        (take6_codec.layout_for(rules_for("standard", 4)).table(), take6_codec.__doc__ or ""),
        (petersburg_codec.layout_for(ruleset("first"), 4).table(), petersburg_codec.__doc__ or ""),
    ]


def test_observation_tables_are_the_generated_ones() -> None:
    """The observation tables in the docs and beside the code are exactly what the layouts declare."""
    for table, docstring in _tables():
        assert table in DOC
        rows = [line for line in table.splitlines() if not line.startswith("|---")]
        assert all("    " + row in docstring for row in rows)


def test_action_ranges_in_the_docs_are_the_codec_offsets() -> None:
    """The index formulas of the Saint Petersburg table use the codec's offsets and sizes."""
    c = petersburg_codec.codec(ruleset("first"), 4)
    assert (c.discard0, c.take0, c.buy0, c.play0, c.pub0, c.num_actions) == (5, 54, 201, 843, 1057, 1068)
    for text in (
        "`54 + src*49 + k` (54..200)",
        "`201 + src*214 + pair` (201..842)",
        "`843 + pair` (843..1056)",
        "`1057 + v` (1057..1067)",
        "(1068 actions;",
    ):
        assert text in DOC
    assert (take6_codec.TAKE0, take6_codec.DRAFT0, take6_codec.FLIP, take6_codec.WAIT) == (104, 109, 213, 214)


def test_the_training_loop_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The training loop of the docs runs as printed (20 games of 4 players)."""
    section = DOC[DOC.index("## A training loop") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    exec(compile(code.group(1), "docs/environments.md", "exec"), {})
    assert "worst cards to select:" in capsys.readouterr().out


def test_benchmark_command_prints_every_line(capsys: pytest.CaptureFixture[str]) -> None:
    """python -m engine.envs.bench prints the engine, AEC, Parallel and masked-pick lines, the AEC ratio
    with and without the pick (figures are not asserted)."""
    assert bench.main(["--steps", "200", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert (
        out.count("engine (legal_actions + apply)") == 2
        and out.count("AEC env") == 2
        and out.count("without the masked pick") == 2
        and out.count("masked pick (nonzero + index)") == 2
        and "Parallel env" in out
    )


def test_arbiter_bench_envs_runs_the_environment_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter bench envs`` is the same benchmark, reached from the command line (figures not asserted)."""
    from engine.cli import main

    assert main(["bench", "envs", "--repeat", "1", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 players" in out and out.count("AEC env") == 2


def test_recorded_masks_are_the_environments_masks() -> None:
    """The masks the pick line replays are the AEC environment's, each with a legal action."""
    from engine.envs import take6_v0

    masks = bench.record_masks(take6_v0.env(players=3), 50)
    assert len(masks) == 50 and all(m.sum() >= 1 for m in masks)
    assert bench.run_pick(masks, 120) == 120


def _snippet(heading: str) -> str:
    section = DOC[DOC.index(heading) :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    return code.group(1)


def _printed(heading: str) -> list[str]:
    """The lines of the output block that follows the code block under ``heading``."""
    section = DOC[DOC.index(heading) :]
    out = re.search(r"```python\n.*?```\n\n```\n(.*?)```", section, re.S)
    assert out is not None
    return out.group(1).splitlines()


def test_the_rl_environment_run_prints_what_the_docs_show(capsys: pytest.CaptureFixture[str]) -> None:
    """The docs' OpenSpiel rl_environment loop (random agents, every 6 nimmt! variant, both editions) runs
    and prints exactly the figures shown."""
    need("pyspiel")
    exec(compile(_snippet("### OpenSpiel's RL environment"), "docs/environments.md", "exec"), {})
    assert capsys.readouterr().out.splitlines() == _printed("### OpenSpiel's RL environment")


def test_the_state_and_picture_run_prints_what_the_docs_show(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The docs' PettingZoo state() / rgb_array run prints the shapes shown and writes the two pictures."""
    need("resvg_py")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs" / "images").mkdir(parents=True)
    exec(compile(_snippet("## PettingZoo's state and pictures"), "docs/environments.md", "exec"), {})
    assert capsys.readouterr().out.splitlines() == _printed("## PettingZoo's state and pictures")
    assert sorted(p.name for p in (tmp_path / "docs" / "images").iterdir()) == [
        "env-petersburg_v0-rgb.png",
        "env-take6_v0-rgb.png",
    ]
