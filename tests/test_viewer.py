"""The replay viewer's data (``engine.viewer``), without a browser: the steps are the engine's replay, a
divergence opens the page at its step with both sides, and bad input is refused in one line."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.game import get_game
from engine.viewer import build_replay, replay_html

RECORDS = Path(__file__).resolve().parent / "data" / "records"


def _page_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def _unpack(data: dict[str, Any]) -> list[tuple[str, list[str], list[str]]]:
    """Each step's picture, narration lines and clause ids, unpacked from the page's data as its script
    does (engine/assets/viewer.js): a picture is the step before's, changed (``[i, m]``: m of its elements
    from the i-th; ``k``: element k of the shared table); lines and clauses are indexes into their tables."""
    parts, lines, ids = data["svg_parts"], data["lines"], data["clauses"]
    out: list[tuple[str, list[str], list[str]]] = []
    before: list[int] = []
    for step in data["steps"]:
        now: list[int] = []
        for op in step["svg"]:
            now.extend(before[op[0] : op[0] + op[1]] if isinstance(op, list) else [op])
        out.append(("".join(parts[k] for k in now), [lines[k] for k in step["narration"]],
                    [ids[k] for k in step["clauses"]]))  # fmt: skip
        before = now
    return out


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
    """Every clause id a step names is in the page's glossary with its wording and seed passages (the
    script reads a link's title from there: the wording is on the page once)."""
    from engine.spec import all_clauses

    replay = build_replay(RECORDS / "good-petersburg-first-2p.jsonl")
    page = replay_html(replay)
    named = {c for s in replay.steps for c in s.clauses}
    assert named and named <= set(_page_data(page)["clauses"])
    for cid in named:
        clause = all_clauses()[cid]
        entry = page.split(f'id="clause-{cid}">', 1)[1].split('<div class="clause-entry"', 1)[0]
        assert f"<p>{html.escape(clause.text)}</p>" in entry
        assert html.escape(clause.cites[0].quote) in entry
    assert page.count(html.escape(all_clauses()["SP-TURN-3"].text)) == 1


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


def _hostile_record(tmp_path: Path) -> Path:
    """A good record whose header comment and one action comment hold text that would end or re-open a
    script element (``<!--<script>``, ``</script>``) and the line separators U+2028/U+2029."""
    lines = (RECORDS / "good-take6-unfinished.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["comment"] = "<!--<script> & </script> \u2028 \u2029 -->"
    lines[0] = json.dumps(header)
    line = json.loads(lines[2])
    line["comment"] = "</script><script>alert(1)</script><!--<script>"
    lines[2] = json.dumps(line)
    record = tmp_path / "hostile.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return record


def _script_elements(page: str) -> list[tuple[dict[str, str | None], str]]:
    """The page's script elements and their text, split as an HTML parser splits them (the element ends
    at the first ``</script``; html.parser's script-data handling)."""
    from html.parser import HTMLParser

    found: list[tuple[dict[str, str | None], str]] = []

    class Parser(HTMLParser):
        current: dict[str, str | None] | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "script":
                self.current = dict(attrs)
                found.append((self.current, ""))

        def handle_data(self, data: str) -> None:
            if self.current is not None:
                attrs, text = found[-1]
                found[-1] = (attrs, text + data)

        def handle_endtag(self, tag: str) -> None:
            if tag == "script":
                self.current = None

    Parser().feed(page)
    return found


def test_no_embedded_text_can_end_or_open_a_script_block(tmp_path: Path) -> None:
    """Comments holding ``<!--<script>``, ``</script>`` and U+2028/2029 leave the page's two script
    elements intact: the data element's text holds no ``<``, ``>``, ``&`` or line separator at all (each is
    a ``\\uXXXX`` escape), parses as the replay's JSON, and gives the comments back exactly."""
    record = _hostile_record(tmp_path)
    replay = build_replay(record)
    page = replay_html(replay)
    scripts = _script_elements(page)
    assert [a.get("id") for a, _ in scripts] == ["replay-data", None]
    text = scripts[0][1]
    assert not set(text) & set("<>&\u2028\u2029")
    data = json.loads(text)
    assert data["steps"][0]["comment"] == "<!--<script> & </script> \u2028 \u2029 -->"
    assert data["steps"][2]["comment"] == "</script><script>alert(1)</script><!--<script>"


def test_every_step_unpacks_to_the_engines_replay() -> None:
    """Unpacked as the page's script unpacks them, the steps' pictures, narration and clauses are the
    engine's replay exactly (a 157-step Saint Petersburg game; T6 and divergence pages too)."""
    for name in (
        "good-petersburg-first-2p.jsonl",
        "good-take6-chance-3p.jsonl",
        "diverge-card-not-in-hand.jsonl",
    ):
        replay = build_replay(RECORDS / name)
        data = _page_data(replay_html(replay))
        assert len(data["steps"]) == len(replay.steps)
        for step, (picture, narration, clauses), shown in zip(
            replay.steps, _unpack(data), data["steps"], strict=True
        ):
            assert picture == step.svg and narration == list(step.narration)
            assert clauses == list(step.clauses) and shown["title"] == step.title
            assert shown.get("action") == step.action and shown.get("comment") == step.comment
            if step.action is not None:  # the text as the script reads it: given, or the title's end
                assert shown.get("text", shown["title"].split(": ", 1)[-1]) == step.text


def _petersburg_page(tmp_path: Path, seed: int) -> tuple[Path, Path]:
    """A 4-player Saint Petersburg game of random bots (``arbiter play``) and its page (``arbiter view``)."""
    record, page = tmp_path / f"sp{seed}.jsonl", tmp_path / f"sp{seed}.html"
    assert (
        main(
            ["play", "petersburg", "--players", "4", "--seed", str(seed), "--quiet", "--record", str(record)]
        )
        == 0
    )
    assert main(["view", str(record), "-o", str(page)]) == 0
    return record, page


def test_a_four_player_petersburg_page_is_at_most_400_kb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page of a 4-player Saint Petersburg game is at most 400 kB (docs/pictures.md), for seeds 1..8 and
    55, the longest game of seeds 0..60 (304 steps), and every picture unpacked from it is the engine's."""
    for seed in (*range(1, 9), 55):
        record, page = _petersburg_page(tmp_path, seed)
        size = page.stat().st_size
        assert size <= 400_000, (seed, size)
        if seed in (5, 55):
            replay = build_replay(record)
            assert len(replay.steps) > 250
            pictures = [p for p, _, _ in _unpack(_page_data(page.read_text(encoding="utf-8")))]
            assert pictures == [s.svg for s in replay.steps]
    capsys.readouterr()


def test_the_last_step_of_a_finished_game_shows_the_winners_without_prices() -> None:
    """The last step of a finished game marks the engine's winners (SP-END-8, T6-END-2) and prints no
    price: nothing is left to buy."""
    for name in ("good-petersburg-first-2p.jsonl", "good-take6-standard-2p.jsonl"):
        replay = build_replay(RECORDS / name)
        assert replay.result is not None
        last = replay.steps[-1].svg
        winners = replay.result["winners"]
        assert (
            f"game over · winner{'s' if len(winners) > 1 else ''} {', '.join(f'P{p}' for p in winners)}"
            in last
        )
        assert last.count('class="winner"') == len(winners) and 'class="result"' in last
        assert "pays" not in last and "costs for" not in last
        assert all("game over" not in s.svg for s in replay.steps[:-1])
        scores = ", ".join(map(str, replay.result["scores"]))
        assert f"{'winners' if len(winners) > 1 else 'winner'} P{winners[0]}" in replay_html(replay)
        assert f" · scores {scores}</div>" in replay_html(replay)


def test_a_pass_names_the_clause_that_allows_it() -> None:
    """A pass is allowed by SP-TURN-3: its step names it (no step of a player's action is without a
    clause)."""
    replay = build_replay(RECORDS / "good-petersburg-first-2p.jsonl")
    passes = [s for s in replay.steps if s.action and s.action["type"] == "pass"]
    assert passes and all("SP-TURN-3" in s.clauses for s in passes)
    assert all(s.clauses for s in replay.steps[1:])


def test_counts_in_the_subtitle_agree_with_their_nouns(tmp_path: Path) -> None:
    """A solo Saint Petersburg game (SP-SOLO-1) is "1 player", never "1 players"."""
    from engine.conformance.records.format import record_game, write_record

    g = get_game("petersburg")
    state, actions = g.new_game(1, seed=2), []
    for _ in range(3):
        action = g.legal_actions(state, g.to_act(state)[0])[0]
        actions.append(action)
        state = g.apply(state, action)
    record = tmp_path / "solo.jsonl"
    with record.open("w", encoding="utf-8") as out:
        write_record(out, record_game("petersburg", players=1, seed=2, actions=actions))
    page = replay_html(build_replay(record))
    assert "· 1 player ·" in page and "1 players" not in page


def test_a_legal_set_divergence_lists_each_action(tmp_path: Path) -> None:
    """A wrong ``legal`` claim (T6-SELECT-1) shows each refused and each omitted action as its own list
    item of spaced JSON, not one run of text."""
    lines = (RECORDS / "good-take6-unfinished.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["version"] = 2
    lines[0] = json.dumps(header)
    line = json.loads(lines[1])
    line["claims"] = {"legal": [{"player": 1, "actions": [{"type": "select", "player": 1, "card": 1}]}]}
    lines[1] = json.dumps(line)
    record = tmp_path / "legal.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    replay = build_replay(record)
    assert replay.divergence is not None and replay.divergence["fact"] == "legal"
    page = replay_html(replay)
    rules_side = page.split('id="side-rules"', 1)[1].split("</div></div>", 1)[0]
    assert rules_side.count("<li>") == 10 and "the record omits" in rules_side
    record_side = page.split('id="side-record"', 1)[1].split("</div></div>", 1)[0]
    assert record_side.count("<li>") == 1 and "&quot;card&quot;: 1}" in record_side
    assert "<li><b>P1 1</b> <code>" in record_side  # the action's text (with its seat) before its JSON
    assert rules_side.count("<li><b>P1 ") == 10


def test_the_rules_panel_marks_the_rulings_a_step_rests_on() -> None:
    """A step whose derivation applies a ruling carries it (id, rejected reading, option) for the rules
    panel, which marks its chip; the glossary gives each ruling's rejected reading.  A placement that fits
    no row rests on T6-PLACE-3 (the engine never chooses the row)."""
    replay = build_replay(RECORDS / "good-take6-standard-2p.jsonl")
    ruled = [s for s in replay.steps if s.rulings]
    assert ruled, "no step of a whole game rests on a ruling"
    for step in ruled:
        assert {r["id"] for r in step.rulings} <= set(step.clauses)
        assert all(r["rejects"] for r in step.rulings if not r["chosen"])
    page = replay_html(replay)
    assert 'class="ruling"' in page and "Rejected reading: " in page


def _games(tmp_path: Path) -> list[Path]:
    """Records of random games not picked by hand: 4-player games of both games (``arbiter play``), the
    golden records, and one 6 nimmt! game whose later deals are chance lines."""
    out = [RECORDS / n for n in ("good-take6-chance-3p.jsonl", "good-petersburg-first-2p.jsonl")]
    for game, seed in (("take6", 11), ("petersburg", 12)):
        record = tmp_path / f"{game}{seed}.jsonl"
        argv = ["play", game, "--players", "4", "--seed", str(seed), "--quiet", "--record", str(record)]
        assert main(argv) == 0
        out.append(record)
    return out


def test_each_step_names_its_action_by_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every action's step names it by its text in the position before it, with its seat (a chance step's
    without: a 6 nimmt! deal, T6-SETUP-5): the text reads back there as the record's action, the title
    is ``Action N: TEXT`` (``(chance)`` for a chance line; cut at TITLE_TEXT characters), and the page's
    data carries it beside the record's JSON."""
    from engine.conformance.records.check import _start
    from engine.conformance.records.format import ActionLine, Header, iter_record
    from engine.viewer import TITLE_TEXT

    kinds = set()
    for record in _games(tmp_path):
        replay = build_replay(record)
        lines = iter_record(record)
        header = next(lines)
        assert isinstance(header, Header)
        g, _kit, state = _start(header, record.name)
        actions = [line for line in lines if isinstance(line, ActionLine)]
        assert len(actions) == len(replay.steps) - 1
        for line, step in zip(actions, replay.steps[1:], strict=True):
            action = g.action_from_json(line.action)
            assert step.text is not None and g.action_from_text(state, step.text) == action, step.text
            assert step.text.startswith(f"P{line.player} ") == (line.player is not None)
            how = " (chance)" if line.player is None else ""
            shown = step.text if len(step.text) <= TITLE_TEXT else step.text[: TITLE_TEXT - 1] + "…"
            assert step.title == f"Action {line.index}{how}: {shown}"
            kinds.add(line.action["type"])
            state = g.apply(state, action)
        data = _page_data(replay_html(replay))  # a text the title ends with is read from the title
        said = [s.get("text", s["title"].split(": ", 1)[1]) for s in data["steps"][1:]]
        assert said == [s.text for s in replay.steps[1:]]
        cut = any(len(s.text or "") > TITLE_TEXT for s in replay.steps)
        assert any("text" in s for s in data["steps"]) == cut
    assert {"select", "take_row", "deal", "buy", "pass"} <= kinds
    capsys.readouterr()


def test_a_refused_action_is_named_by_its_text() -> None:
    """The refused step (T6-SELECT-1: a card not in hand) is titled by the action's text with its seat, and
    the divergence's record side names it by text beside the record's JSON."""
    replay = build_replay(RECORDS / "diverge-card-not-in-hand.jsonl")
    step = replay.steps[-1]
    assert step.text == "P0 4" and step.title == "Action 0 (refused): P0 4"
    assert replay.divergence is not None
    assert replay.divergence["record"] == """player 0: 'P0 4' {"type":"select","player":0,"card":4}"""
