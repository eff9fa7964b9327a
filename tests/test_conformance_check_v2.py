"""``arbiter check`` on record version 2 and on hostile input: legal-set claims, one validator, line caps.

* a ``legal`` claim (record version 2) is compared with the rules' legal set: every missing action is named
  with the clause that makes it legal, every extra one with the clause it breaks; version 1 records stay
  valid and may not make the claim;
* integral floats (``"players": 2.0``) are malformed input on every path, never a rules divergence, and the
  fast checker and ``jsonschema`` agree on them;
* a record line longer than the cap is refused without being read whole (``arbiter check /dev/zero``);
* winners and other result facts name the variant's own end rule first (kids: T6-KIDS-4).
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.conformance.attribution import fact_clauses
from engine.conformance.kits.base import get_kit
from engine.conformance.records.check import check_record
from engine.conformance.records.format import (
    MAX_LINE,
    fast_check,
    record_game,
    validator,
    write_record,
)
from engine.game import get_game


def lines_of(
    game_name: str, players: int = 2, steps: int = 6, *, claims: bool = True, variant: str | None = None
) -> list[dict[str, Any]]:
    g = get_game(game_name)
    s = g.new_game(players, seed=1, variant=variant)
    rng = random.Random(1)
    acts = []
    for _ in range(steps):
        a = rng.choice(g.legal_actions(s, g.to_act(s)[0]))
        acts.append(a)
        s = g.apply(s, a)
    buf = io.StringIO()
    write_record(
        buf, record_game(game_name, players=players, seed=1, actions=acts, claims=claims, variant=variant)
    )
    return [json.loads(line) for line in buf.getvalue().splitlines()]


def check_lines(lines: list[dict[str, Any]]) -> Any:
    return check_record(io.StringIO("\n".join(json.dumps(line) for line in lines)), name="r.jsonl")


def legal_now(game_name: str, lines: list[dict[str, Any]], seat: int) -> list[Any]:
    g, kit = get_game(game_name), get_kit(game_name)
    head = lines[0]
    s = g.new_game(
        head["players"],
        variant=head["variant"],
        options=head["options"],
        setup=kit.setup_from_json(head["setup"]),
    )
    for line in lines[1:]:
        if line["type"] == "action":
            s = g.apply(s, g.action_from_json(line["action"]))
    return [g.action_to_json(a) for a in g.legal_actions(s, seat)]


def test_a_correct_legal_claim_replays_ok() -> None:
    """A ``legal`` claim equal to the rules' set (in any order) is OK and counts as a claim."""
    lines = lines_of("take6", claims=False)
    seat = lines[-1]["player"]
    others = [s for s in range(2) if s != seat]
    lines[-1]["claims"] = {
        "legal": [{"player": p, "actions": legal_now("take6", lines, p)[::-1]} for p in (seat, *others)]
    }
    report = check_lines(lines)
    assert report.status == "ok", report.error or report.divergence


def test_missing_and_extra_actions_are_each_named_with_their_clause() -> None:
    """SP-HAND-1 / SP-TURN-3 / SP-TURN-2: a claimed legal set that leaves out legal actions and adds an
    illegal one is a divergence listing each missing action with the clause making it legal and the extra
    one with the clause it breaks."""
    lines = lines_of("petersburg", claims=False, steps=3)
    g = get_game("petersburg")
    head = lines[0]
    kit = get_kit("petersburg")
    s = g.new_game(2, variant=head["variant"], setup=kit.setup_from_json(head["setup"]))
    for line in lines[1:]:
        s = g.apply(s, g.action_from_json(line["action"]))
    seat = g.to_act(s)[0]
    legal = [g.action_to_json(a) for a in g.legal_actions(s, seat)]
    kept = [a for a in legal if a["type"] not in ("pass", "take")]
    wrong = {"type": "pass", "player": 1 - seat}
    lines[-1]["claims"] = {
        "legal": [{"player": 1 - seat, "actions": [wrong]}, {"player": seat, "actions": kept}]
    }
    report = check_lines(lines)
    assert report.status == "divergence"
    d = report.divergence
    assert d is not None and d.fact == "legal"
    assert d.clauses[0] == "SP-TURN-2", "the first listed seat's extra action: not its turn"
    doc = d.to_json()
    assert doc["extra"] == [{"action": wrong, "text": f"P{1 - seat} pass", "clause": "SP-TURN-2",
                             "reason": doc["extra"][0]["reason"]}]
    report2 = check_lines(
        [*lines[:-1], {**lines[-1], "claims": {"legal": [{"player": seat, "actions": kept}]}}]
    )
    d2 = report2.divergence
    assert d2 is not None
    missing = {a["type"]: c for a, c in d2.missing}
    assert missing["pass"] == "SP-TURN-3" and missing["take"] == "SP-HAND-1"
    assert "missing" in d2.record and d2.clauses[0] in ("SP-TURN-3", "SP-HAND-1")
    # each missing action is named by its text in the claimed position too, beside its JSON form
    texts = [g.action_to_text(s, g.action_from_json(m["action"])) for m in d2.to_json()["missing"]]
    assert [m["text"] for m in d2.to_json()["missing"]] == [f"P{seat} {t}" for t in texts]
    assert f"missing 'P{seat} pass' {{\"type\":\"pass\"" in d2.record


def test_version_1_records_stay_valid_and_cannot_claim_legal_sets() -> None:
    """Records written as version 1 replay as before; a ``legal`` claim in one is malformed (it needs
    version 2)."""
    lines = lines_of("take6")
    lines[0]["version"] = 1
    assert check_lines(lines).status == "ok"
    lines[-1]["claims"] = {"legal": [{"player": 0, "actions": []}]}
    report = check_lines(lines)
    assert report.status == "malformed" and "needs record version 2" in (report.error or "")


MUTATIONS: dict[str, Callable[[list[dict[str, Any]]], None]] = {
    "players": lambda r: r[0].__setitem__("players", 2.0),
    "index": lambda r: r[1].__setitem__("index", 0.0),
    "player": lambda r: r[1].__setitem__("player", 0.0),
    "action.player": lambda r: r[1]["action"].__setitem__("player", float(r[1]["action"]["player"])),
    "claims.scores": lambda r: r[1]["claims"].__setitem__(
        "scores", [float(x) for x in r[1]["claims"]["scores"]]
    ),
    "claims.round": lambda r: r[1]["claims"].__setitem__("round", 1.0),
    "claims.over": lambda r: r[1]["claims"].__setitem__("over", 0),
    "header.claims": lambda r: r[0]["claims"].__setitem__("scores", [0.0, 0.0]),
}


@pytest.mark.parametrize("game", ["take6", "petersburg"])
@pytest.mark.parametrize("where", sorted(MUTATIONS))
def test_integral_floats_are_malformed_input_on_every_path(game: str, where: str) -> None:
    """Issue 10: ``2.0`` where an integer belongs is malformed input (exit 2) naming the field, never a
    rules divergence and never accepted, in the header, action lines and claims alike."""
    lines = lines_of(game)
    MUTATIONS[where](lines)
    report = check_lines(lines)
    assert report.status == "malformed", (report.status, report.divergence)
    assert "integer" in (report.error or "") or "boolean" in (report.error or "")


@pytest.mark.parametrize(
    "doc",
    [
        {"type": "result", "scores": [1.0, 2], "winners": [0]},
        {"type": "result", "scores": [1, 2], "winners": [0.0]},
        {"type": "action", "index": 0.0, "player": 0, "action": {}},
        {"type": "action", "index": True, "player": 0, "action": {}},
    ],
)
def test_the_fast_checker_and_jsonschema_agree_on_integral_floats(doc: dict[str, Any]) -> None:
    """One validator: the fast checker decides and jsonschema (integer meaning an integer literal) agrees,
    so its explanation always exists."""
    kind = doc["type"]
    assert fast_check("record", kind)(doc) is False
    assert validator("record", kind).is_valid(doc) is False


class _Zeros(io.StringIO):
    """An endless stream of NUL characters without a newline (``/dev/zero`` as text)."""

    def __init__(self) -> None:
        self.served = 0

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        n = size if size is not None and size > 0 else 1 << 30
        self.served += n
        return "\0" * n


def test_a_line_longer_than_the_cap_is_refused_without_reading_it_whole() -> None:
    """Issue 10: ``arbiter check /dev/zero`` must not grow memory: a line is read at most MAX_LINE + 1
    characters at a time and refused as malformed."""
    zeros = _Zeros()
    report = check_record(zeros, name="/dev/zero")
    assert report.status == "malformed" and "longer than" in (report.error or "")
    assert zeros.served <= MAX_LINE + 1


def test_winners_name_the_variants_end_rule_first() -> None:
    """T6-KIDS-4: in kids the most bullheads win; a winners divergence names that, not the 66 end or the
    countdown (T6-END-2 for the standard game, T6-COUNT-1 never for kids)."""
    g, kit = get_game("take6"), get_kit("take6")
    kids = fact_clauses(g, kit, "winners", None, "kids")
    assert kids[0] == "T6-KIDS-4" and "T6-COUNT-1" not in kids and "T6-END-1" not in kids
    assert fact_clauses(g, kit, "winners", None, "standard")[0] == "T6-END-2"


def test_check_dev_zero_is_malformed_at_once() -> None:
    """Issue 10: ``arbiter check /dev/zero`` ends at once with exit 2, without reading the endless line into
    memory (issue 17: a device is refused from its status, before it is opened)."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "engine", "check", "/dev/zero"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "not a regular file" in proc.stdout and "Traceback" not in proc.stderr
