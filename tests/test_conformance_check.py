"""``arbiter check`` (engine.conformance.records.check): replay records, report the first divergence.

Exit codes: 0 every record OK, 1 a divergence, 2 malformed input.  Each deliberately broken record under
tests/data/records/ states what must be reported: the action index, the line, the clause id(s).

The good records are golden games: when a rule changes on purpose, regenerate them with
``arbiter play take6 --players 2 --seed 7 --quiet --record tests/data/records/good-take6-standard-2p.jsonl``
(``petersburg`` likewise; ``take6 --players 3 --seed 8 --variant professional`` for the professional one).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from engine.cli import main
from engine.conformance.records.check import check_record, exit_code, format_report
from engine.conformance.records.format import read_record, write_record

DATA = Path(__file__).parent / "data" / "records"


@pytest.mark.parametrize("filename", sorted(p.name for p in DATA.glob("good-*.jsonl")))
def test_good_records_check_ok(filename: str) -> None:
    """Records written by the engine (claims after every action, result line) replay without divergence."""
    report = check_record(DATA / filename)
    assert report.status == "ok", report
    assert report.actions > 0
    assert report.finished == ("unfinished" not in filename)


# filename -> (kind, action index, line, clause ids that must be named)
DIVERGENCES = {
    "diverge-card-not-in-hand.jsonl": ("illegal", 0, 2, {"T6-SELECT-1"}),
    "diverge-wrong-rows-claim.jsonl": ("claim", 2, 4, {"T6-PLACE-1"}),
    "diverge-wrong-result.jsonl": ("result", None, 120, {"T6-BULL-6"}),
    "diverge-early-result.jsonl": ("result", None, 9, {"T6-END-1"}),
    "diverge-card-dealt-twice.jsonl": ("setup", None, 1, {"T6-SETUP-5"}),
    "diverge-petersburg-money-claim.jsonl": ("claim", 2, 4, {"SP-COST-1"}),
}


@pytest.mark.parametrize("filename", sorted(DIVERGENCES))
def test_divergences_are_reported_with_index_line_and_clause(filename: str) -> None:
    """The first divergence names the action index, the line, what the record and the rules say, and the
    clause ids (T6-SELECT-1 for a card not in hand, T6-SETUP-5 for a card dealt twice, ...)."""
    kind, index, line, clauses = DIVERGENCES[filename]
    report = check_record(DATA / filename)
    assert report.status == "divergence"
    d = report.divergence
    assert d is not None
    assert (d.kind, d.index, d.line) == (kind, index, line)
    assert clauses <= set(d.clauses), d.clauses
    assert d.record and d.rules and d.reason
    assert d.record != d.rules


def test_cli_exit_codes_and_aligned_output(capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 0 when all OK, 1 with a divergence, 2 with malformed input (the worst wins); output is aligned
    columns plus a summary with actions per second; never a traceback."""
    good = str(DATA / "good-take6-standard-2p.jsonl")
    assert main(["check", good]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK ") and "actions/s" in out
    assert main(["check", good, str(DATA / "diverge-card-not-in-hand.jsonl")]) == 1
    out = capsys.readouterr().out
    assert "DIVERGENCE" in out and "T6-SELECT-1" in out and "at action 0 (line 2)" in out
    assert main(["check", str(DATA)]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    rows = [r for r in captured.out.splitlines() if r.split()[0] in ("OK", "DIVERGENCE", "MALFORMED")]
    assert len(rows) == len(list(DATA.glob("*.jsonl")))
    assert len({r.index(str(DATA)) for r in rows}) == 1, "the path column is aligned"
    games = [r for r in rows if not r.startswith("MALFORMED")]
    assert len({r.index(" take6 ") if " take6 " in r else r.index(" petersburg ") for r in games}) == 1


def test_cli_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` prints one machine-readable document with every report and a summary."""
    code = main(
        [
            "check",
            "--json",
            str(DATA / "good-take6-unfinished.jsonl"),
            str(DATA / "bad-json.jsonl"),
            str(DATA / "diverge-wrong-rows-claim.jsonl"),
        ]
    )
    assert code == 2
    doc = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in doc["records"]] == ["ok", "malformed", "divergence"]
    assert doc["records"][1]["error"].endswith("line 4: not JSON: Expecting ',' delimiter at column 43")
    assert doc["records"][2]["divergence"]["fact"] == "rows"
    assert doc["summary"]["exit_code"] == 2 and doc["summary"]["actions"] > 0


def test_missing_file_and_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing file is malformed input naming it; ``-`` reads a record from standard input."""
    assert main(["check", "/nonexistent/game.jsonl"]) == 2
    assert "/nonexistent/game.jsonl" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO((DATA / "good-take6-unfinished.jsonl").read_text()))
    assert main(["check", "-"]) == 0


def test_action_player_must_match_the_line() -> None:
    """The line's ``player`` and the action's own seat must agree (else malformed, naming the field)."""
    lines = (DATA / "good-take6-unfinished.jsonl").read_text().splitlines()
    doc = json.loads(lines[1])
    doc["player"] = 1 - doc["player"]
    lines[1] = json.dumps(doc)
    report = check_record(io.StringIO("\n".join(lines)), name="p.jsonl")
    assert report.status == "malformed"
    assert report.error is not None and report.error.startswith("p.jsonl line 2: player")


def test_exit_code_is_the_worst_outcome() -> None:
    """0 < 1 < 2: malformed input outranks a divergence."""
    ok = check_record(DATA / "good-take6-unfinished.jsonl")
    bad = check_record(DATA / "bad-json.jsonl")
    div = check_record(DATA / "diverge-early-result.jsonl")
    assert exit_code([ok]) == 0 and exit_code([ok, div]) == 1 and exit_code([div, bad, ok]) == 2
    assert format_report(div, 10)[0].startswith("DIVERGENCE")


def test_a_record_with_claims_can_be_truncated_anywhere() -> None:
    """Every prefix of a good record (without its result line) is itself a valid, OK record."""
    record = read_record(DATA / "good-petersburg-first-2p.jsonl")
    for cut in (0, 1, 17, len(record.actions) // 2):
        buf = io.StringIO()
        write_record(buf, type(record)(record.header, record.actions[:cut], None))
        assert check_record(io.StringIO(buf.getvalue()), name="cut").status == "ok"


HUGE = "x" * 3_000_000


def _with(line: int, path: tuple[str, ...], value: object) -> str:
    """The golden 2-player record with ``value`` set at ``path`` of line ``line`` (0: the header)."""
    lines = [json.loads(t) for t in (DATA / "good-take6-standard-2p.jsonl").read_text().splitlines()]
    target = lines[line]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return "\n".join(json.dumps(x) for x in lines) + "\n"


@pytest.mark.parametrize(
    ("line", "path", "value"),
    [
        (0, ("type",), HUGE),                      # the line's type, in the header
        (3, ("type",), HUGE),                      # ... and in an action line
        (3, ("type",), {HUGE: 1}),                 # a type that is an object with a huge key
        (0, ("variant",), HUGE),                   # a variant the game does not have
        (0, ("options",), {HUGE: True}),           # an option the game does not have
        (0, ("claims",), {HUGE: 1}),               # a fact the kit does not know
        (3, ("claims",), {HUGE: 1}),
        (0, (HUGE,), 1),                           # a field the schema does not know
    ],
    ids=["header-type", "action-type", "type-object", "variant", "option", "header-claim", "action-claim",
         "field"],
)
def test_a_huge_value_of_a_record_is_never_quoted_whole(line: int, path: tuple[str, ...],
                                                        value: object) -> None:
    """Round three, class 12: whatever record value an error or a divergence quotes (a line's ``type``, a
    variant, an option, a claimed fact's or an unknown field's name) is cut to a few dozen characters with
    its length, so a 3 MB value makes a line of some hundred characters, not of 3 MB (on the command line
    and in the assistant's ``check_record`` reply alike)."""
    from engine.assistant.tools import call

    text = _with(line, path, value)
    report = check_record(io.StringIO(text), name="r.jsonl")
    assert report.status in ("malformed", "divergence")
    shown = format_report(report, 10)
    assert max(map(len, shown)) < 600, shown[0][:300]
    assert re.search(r"…\W{0,2} \(300000\d characters\)", "\n".join(shown)), shown
    reply = call("check_record", {"record": text})
    assert len(reply.text) < 2000 and len(json.dumps(reply.data)) < 4000


@pytest.mark.parametrize("name", ["take6", "petersburg"])
def test_an_illegal_action_is_named_by_its_text_beside_the_records_json(name: str) -> None:
    """At a random point of random games, a record line holding an action the rules refuse there (another
    position's legal action: T6-SELECT-1, SP-TURN-2, ...) is reported with the action's text in that
    position beside the record's own JSON (the text reads back, unchecked, as the action), and what is
    legal now listed by the texts the engine reads back."""
    import random

    from engine.conformance.records.format import ActionLine, dumps_line, record_game
    from engine.errors import RuleViolation
    from engine.game import get_game

    game = get_game(name)
    reported = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game(3, seed=seed)
        states, actions = [state], []
        while not game.is_terminal(state):
            action = rng.choice(game.legal_actions(state))
            actions.append(action)
            state = game.apply(state, action)
            states.append(state)
        k = rng.randrange(len(actions) - 1)
        before = states[k]
        later = [a for s in states[k + 1 :] for a in game.legal_actions(s)]
        illegal = []
        for a in later:
            try:
                game.apply(before, a)
            except RuleViolation:
                illegal.append(a)
        if not illegal:
            continue
        wrong = rng.choice(illegal)
        record = record_game(name, players=3, seed=seed, actions=actions[:k])
        lines = [dumps_line(line.to_json()) for line in record.lines() if line.to_json()["type"] != "result"]
        seat = wrong.player
        lines.append(dumps_line(ActionLine(k, seat, game.action_to_json(wrong)).to_json()))
        report = check_record(io.StringIO("\n".join(lines) + "\n"), name="g.jsonl")
        d = report.divergence
        assert report.status == "divergence" and d is not None and d.kind == "illegal", report
        text = game.action_to_text(before, wrong)
        text = text if text.startswith(f"P{seat} ") else f"P{seat} {text}"  # with its seat, always
        assert game.action_from_text(before, text, checked=False) == wrong
        shown = json.dumps(game.action_to_json(wrong), ensure_ascii=False, separators=(",", ":"))
        assert d.record == f"player {seat}: {text!r} {shown}", d.record
        acting = game.to_act(before)
        seats = [seat] if seat in acting else list(acting)
        for s in seats:
            texts = [game.action_to_text(before, a) for a in game.legal_actions(before, s)]
            assert f"player {s}: {', '.join(texts[:12])}" in d.rules, (d.rules, texts)
        assert "{" not in d.rules
        reported += 1
    assert reported >= 4


def test_a_claim_before_the_first_action_is_named_by_the_set_up_step_that_says_it() -> None:
    """SP-SETUP-2 (attribution, issue 25): a record whose header claims 24 roubles a player contradicts
    the set-up's own derivation (``GAME.derive_start``: each player takes 25 roubles), so ``check`` names
    SP-SETUP-2 first, as ``arbiter fuzz`` does for a peer's set-up, not a card's price."""
    from engine.conformance.kits.base import get_kit
    from engine.petersburg.setup import seeded_setup

    header = {"type": "header", "format": "arbiter-record", "version": 1, "game": "petersburg",
              "variant": "first", "options": {}, "players": 2,
              "setup": get_kit("petersburg").setup_to_json(seeded_setup(2, seed=4)),
              "claims": {"money": [24, 24]}}
    report = check_record(io.StringIO(json.dumps(header) + "\n"))
    d = report.divergence
    assert d is not None and (d.kind, d.index) == ("claim", None)
    assert d.clauses[0] == "SP-SETUP-2", d.clauses


def test_a_take6_row_claimed_before_the_first_action_is_named_by_the_deal_of_the_rows() -> None:
    """T6-SETUP-5 (attribution, issue 25): a 6 nimmt! record whose header claims other rows than its deal
    lays out contradicts the first round's deal (``GAME.derive_start``), the outermost step holding the
    rows: the record's deal is given, so the given deal (T6-SETUP-5), not the laying of rows (T6-SETUP-3)."""
    header = json.loads((Path(__file__).parents[1] / "docs/examples/take6-record.jsonl").read_text(
        encoding="utf-8").splitlines()[0])
    header["claims"] = {"rows": [[18], [49], [43], [103]]}
    report = check_record(io.StringIO(json.dumps(header) + "\n"))
    d = report.divergence
    assert d is not None and (d.kind, d.index) == ("claim", None), d
    assert d.clauses[0] == "T6-SETUP-5", d.clauses


def test_take6_piles_claimed_before_the_first_action_are_named_by_the_deal_that_holds_the_hands() -> None:
    """T6-SETUP-5 (attribution, issue 25): ``piles`` spell the hands in their order (the kit's
    ``spells``), so a header claiming a hand in the order given, where the rules sort it, contradicts the
    given deal that holds the hands, not no step at all."""
    header = json.loads((Path(__file__).parents[1] / "docs/examples/take6-record.jsonl").read_text(
        encoding="utf-8").splitlines()[0])
    hands = header["setup"][0]["hands"]  # the first round's deal
    header["claims"] = {"piles": [sorted(h, reverse=True) for h in hands]}
    report = check_record(io.StringIO(json.dumps(header) + "\n"))
    d = report.divergence
    assert d is not None and (d.kind, d.index) == ("claim", None), d
    assert d.clauses[0] == "T6-SETUP-5", d.clauses
