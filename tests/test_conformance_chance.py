"""Chance lines in game records (record version 3): a round's deal given when the round starts.

A record of a real game whose later deals were not known up front gives only the first round's deal in its
set-up (or starts from a position without a seed) and each later round's deal as an action line with
``player`` null.  ``arbiter check`` replays it with no shuffle: a round the set-up does not deal waits for its
deal (phase ``deal``), so a missing, early, misshapen or impossible chance line is a divergence naming its
clause (T6-SETUP-4, T6-SETUP-5, T6-LOGIC-1), and a chance line in an older record is malformed.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.conformance.records.check import CheckReport, check_record
from engine.conformance.records.format import (
    ActionLine,
    Record,
    iter_record,
    record_game,
    validator,
    write_record,
)
from engine.take6 import GAME, Deal, DraftStart

DATA = Path(__file__).parent / "data" / "records"


def _played(players: int, seed: int, variant: str = "standard") -> list[Any]:
    """The actions of a seeded game to its end (the first legal action each time)."""
    state = GAME.new_game(players, seed=seed, variant=variant)
    actions = []
    while not GAME.is_terminal(state):
        action = GAME.legal_actions(state, GAME.to_act(state)[0])[-1]
        actions.append(action)
        state = GAME.apply(state, action)
    return actions


def _text(record: Record) -> str:
    out = io.StringIO()
    write_record(out, record)
    return out.getvalue()


def _lines(record: Record) -> list[dict[str, Any]]:
    return [json.loads(line) for line in _text(record).splitlines()]


def _check(lines: list[dict[str, Any]]) -> CheckReport:
    return check_record(io.StringIO("\n".join(json.dumps(x) for x in lines)), name="r.jsonl")


def _chance_record(players: int = 2, seed: int = 4, variant: str = "standard", claims: bool = True) -> Record:
    return record_game(
        "take6",
        players=players,
        seed=seed,
        variant=variant,
        actions=_played(players, seed, variant),
        claims=claims,
        chance=True,
    )


def _chance_indexes(lines: list[dict[str, Any]]) -> list[int]:
    return [i for i, x in enumerate(lines) if x["type"] == "action" and x["player"] is None]


@pytest.mark.parametrize("variant", ["standard", "tactics", "professional", "kids", "countdown", "logic"])
def test_a_record_dealing_each_round_when_it_starts_replays_ok(variant: str) -> None:
    """T6-SETUP-5, T6-SETUP-4: the header deals round 1 only; every later round's deal is a chance line right
    after the round before ends (logic: its draft start, T6-LOGIC-1), and the record checks OK with every
    fact claimed after every line (phase ``deal`` while a round waits)."""
    record = _chance_record(3, 4, variant)
    lines = _lines(record)
    header = lines[0]
    assert header["version"] == 3 and len(header["setup"]) == 1
    chance = _chance_indexes(lines)
    rounds = record.actions[-1].claims["round"] if record.actions[-1].claims else 0
    rotating = (
        variant == "logic"
        and GAME.new_game(3, variant="logic").rules.option_map.get("logic_start") == "rotate"
    )
    assert len(chance) == (0 if rotating else rounds - 1)
    for i in chance:
        assert lines[i - 1]["claims"]["phase"] == "deal" and lines[i - 1]["claims"]["to_act"] == []
        assert lines[i]["action"]["type"] == ("draft_start" if variant == "logic" else "deal")
    report = _check(lines)
    assert report.status == "ok", report.divergence or report.error
    assert report.finished and report.actions == len(record.actions)


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(
        [
            (v, n)
            for v in GAME.variants
            for n in ((2, 5) if v in ("tactics", "logic") else (2, 4, 10))
            if not (v == "kids" and n > 6)
        ]
    ),
    st.integers(0, 10_000),
)
def test_every_seeded_game_replays_from_its_chance_record(config: tuple[str, int], seed: int) -> None:
    """T6-SETUP-4, T6-SETUP-5, T6-LOGIC-1 as a property: for any variant, player count and seed, the record
    dealing every round after the first by a chance line checks OK with every fact claimed, and its result
    is the seeded game's."""
    variant, players = config
    actions = _played(players, seed, variant)
    record = record_game(
        "take6", players=players, seed=seed, variant=variant, actions=actions, claims=True, chance=True
    )
    report = check_record(io.StringIO(_text(record)), name="p.jsonl")
    assert report.status == "ok", report.divergence or report.error
    assert (
        record.result
        == record_game("take6", players=players, seed=seed, variant=variant, actions=actions).result
    )


def test_the_seeded_record_and_the_chance_record_end_alike() -> None:
    """Chance lines change how the deals are written, not the game: both records give the same result."""
    actions = _played(2, 9)
    seeded = record_game("take6", players=2, seed=9, actions=actions)
    chance = record_game("take6", players=2, seed=9, actions=actions, chance=True)
    assert seeded.result == chance.result
    assert len(chance.actions) == len(seeded.actions) + len(seeded.header.setup) - 1


def test_a_record_from_a_position_without_a_seed_takes_its_deals_as_chance_lines() -> None:
    """docs/positions.md: a position without a seed leads to phase ``deal`` when its round ends; the record
    starts there (header ``position``) and carries the next round's deal as a chance line."""
    start = GAME.from_notation("standard 2 select 3.10/22/40.41.45/90 50/60 - - 2/3")
    deal = Deal(hands=[range(11, 21), range(21, 31)], rows=[1, 2, 3, 4])
    state = start
    actions: list[Any] = []
    for action in (*GAME.legal_actions(start), deal):
        actions.append(action)
        state = GAME.apply(state, action)
    while len(actions) < 8:
        action = GAME.legal_actions(state, GAME.to_act(state)[0])[0]
        actions.append(action)
        state = GAME.apply(state, action)
    record = record_game("take6", players=2, actions=actions, claims=True, position=GAME.to_notation(start))
    lines = _lines(record)
    assert lines[3]["player"] is None and lines[3]["action"]["type"] == "deal"
    assert lines[2]["claims"]["phase"] == "deal"
    report = _check(lines)
    assert report.status == "ok", report.divergence or report.error


def _diverges(lines: list[dict[str, Any]], clause: str, index: int) -> CheckReport:
    report = _check(lines)
    assert report.status == "divergence", report.error
    assert report.divergence is not None
    assert report.divergence.kind == "illegal" and report.divergence.index == index
    assert report.divergence.clauses == (clause,), report.divergence
    return report


def test_a_deal_dealing_a_card_twice_is_refused() -> None:
    """T6-SETUP-5: each card of the deck at most once in a deal, a chance line's too."""
    lines = _lines(_chance_record(claims=False))
    i = _chance_indexes(lines)[0]
    deal = lines[i]["action"]
    deal["hands"][1][0] = deal["hands"][0][0]
    report = _diverges(lines, "T6-SETUP-5", lines[i]["index"])
    assert report.divergence is not None and "dealt twice" in report.divergence.reason
    assert report.divergence.record.startswith("chance: ")


def test_a_deal_with_a_card_outside_the_variants_deck_is_refused() -> None:
    """T6-SETUP-5: tactics plays with the lowest cards only (T6-TACT-1); a deal of a card beyond them
    contradicts the cards in play."""
    lines = _lines(_chance_record(3, 2, "tactics", claims=False))
    i = _chance_indexes(lines)[0]
    lines[i]["action"]["rows"][0] = 104
    report = _diverges(lines, "T6-SETUP-5", lines[i]["index"])
    assert report.divergence is not None and "card 104 is not in the deck" in report.divergence.reason


def test_a_deal_of_the_wrong_shape_is_refused() -> None:
    """T6-SETUP-5: one hand per seat of the hand size, one card per row."""
    lines = _lines(_chance_record(claims=False))
    i = _chance_indexes(lines)[0]
    lines[i]["action"]["hands"][0].pop()
    _diverges(lines, "T6-SETUP-5", lines[i]["index"])


def test_a_deal_before_the_round_ends_is_refused() -> None:
    """T6-SETUP-4: a deal comes only when a round starts; one a line early is refused, and the report lists
    what the players may do instead."""
    lines = _lines(_chance_record(claims=False))
    i = _chance_indexes(lines)[0]
    lines[i - 1], lines[i] = lines[i], lines[i - 1]
    lines[i - 1]["index"], lines[i]["index"] = lines[i]["index"], lines[i - 1]["index"]
    report = _diverges(lines, "T6-SETUP-4", lines[i - 1]["index"])
    assert report.divergence is not None and "legal now: player" in report.divergence.rules


def test_a_missing_deal_stops_the_next_players_action() -> None:
    """T6-SETUP-5: a round not dealt by the set-up waits for its deal; without the chance line the next
    player's action is refused, and the report says a chance line is due."""
    lines = _lines(_chance_record(claims=False))
    i = _chance_indexes(lines)[0]
    del lines[i]
    for n, line in enumerate(lines[i:], start=i):
        if line["type"] == "action":
            line["index"] = n - 1
    report = _diverges(lines, "T6-SETUP-5", i - 1)
    assert report.divergence is not None and "chance line" in report.divergence.rules


def test_a_logic_draft_start_for_a_seat_out_of_range_is_refused() -> None:
    """T6-LOGIC-1: a logic round's chance line names a seat of the game as first drafter."""
    lines = _lines(_chance_record(3, 4, "logic", claims=False))
    chance = _chance_indexes(lines)
    if not chance:
        pytest.skip("logic rounds rotate their start: no chance line")
    lines[chance[0]]["action"]["player"] = 5
    _diverges(lines, "T6-LOGIC-1", lines[chance[0]]["index"])


def test_a_short_setup_without_chance_lines_is_a_divergence_not_a_seeded_deal() -> None:
    """T6-SETUP-5: the header's ``seed`` is informational; a set-up that stops before the record's last
    round is not completed from it, the round waits for a deal (the record must say it)."""
    lines = _lines(record_game("take6", players=2, seed=4, actions=_played(2, 4)))
    lines[0]["setup"] = lines[0]["setup"][:1]
    report = _check(lines)
    assert report.status == "divergence" and report.divergence is not None
    assert report.divergence.clauses == ("T6-SETUP-5",)


def test_chance_lines_need_version_3_and_the_right_player() -> None:
    """The record format: a chance line in a version 1 or 2 record is malformed (naming ``player``); a deal
    with a seat, or a player's action with ``player`` null, is malformed too."""
    base = _lines(_chance_record(claims=False))
    i = _chance_indexes(base)[0]
    for version in (1, 2):
        lines = [dict(x) for x in base]
        lines[0]["version"] = version
        report = _check(lines)
        assert report.status == "malformed"
        assert report.error is not None and f"r.jsonl line {i + 1}: player" in report.error
        assert "needs record version 3" in report.error
    lines = [dict(x) for x in base]
    lines[i]["player"] = 0
    report = _check(lines)
    assert report.status == "malformed" and "a chance outcome (write player null)" in (report.error or "")
    lines = [dict(x) for x in base]
    lines[1]["player"] = None
    report = _check(lines)
    assert report.status == "malformed" and "a chance line (player null), the action is seat" in (
        report.error or ""
    )


def test_the_schema_and_the_reader_accept_chance_lines() -> None:
    """record.schema.json (version 3) and take6.schema.json: a chance line is a valid action line whose
    action is a ``deal`` or ``draft_start``; the stream reader yields it with ``chance`` set."""
    record = _chance_record(claims=False)
    lines = _lines(record)
    i = _chance_indexes(lines)[0]
    assert validator("record").is_valid(lines[i])
    assert validator("take6", "action").is_valid(lines[i]["action"])
    parsed = list(iter_record(io.StringIO(_text(record)), name="r.jsonl"))
    assert [x.index for x in parsed if isinstance(x, ActionLine) and x.chance] == [
        lines[j]["index"] for j in _chance_indexes(lines)
    ]
    assert not validator("record").is_valid({**lines[i], "player": 0.0})


def test_arbiter_check_on_the_shipped_chance_record(capsys: pytest.CaptureFixture[str]) -> None:
    """``arbiter check`` exits 0 on the shipped example of a record with chance lines, and 1 with the clause
    printed when one of its deals deals a card twice."""
    path = DATA / "good-take6-chance-3p.jsonl"
    assert main(["check", str(path)]) == 0
    assert "OK" in capsys.readouterr().out
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    i = _chance_indexes(lines)[0]
    lines[i]["action"]["rows"][1] = lines[i]["action"]["rows"][0]
    bad = io.StringIO("\n".join(json.dumps(x) for x in lines))
    report = check_record(bad, name="bad.jsonl")
    assert report.status == "divergence" and report.divergence is not None
    assert report.divergence.clauses == ("T6-SETUP-5",)


def test_the_shipped_chance_record_deals_later_rounds_by_chance_lines() -> None:
    """The example record (3 players, seed 2, every fact claimed) deals round 1 in its header and every
    later round in a chance line, each after a line claiming phase ``deal``."""
    lines = [json.loads(x) for x in (DATA / "good-take6-chance-3p.jsonl").read_text().splitlines()]
    chance = _chance_indexes(lines)
    assert len(lines[0]["setup"]) == 1 and lines[0]["version"] == 3
    assert len(chance) == lines[-2]["claims"]["round"] - 1 >= 1
    assert all(lines[i - 1]["claims"]["phase"] == "deal" for i in chance)


def test_deals_are_chance_outcomes_not_seats() -> None:
    """The kit names no seat for a chance step (a DraftStart's ``player`` is the first drafter, not the seat
    acting)."""
    from engine.conformance.kits.base import get_kit

    kit = get_kit("take6")
    assert kit.action_player(DraftStart(1)) is None
    assert kit.action_player(Deal(hands=[[1]], rows=[2])) is None
    assert get_kit("petersburg").chance_outcome(None) is None
