"""Positions: the builders of both games, the notation, loading a position, the 6 nimmt! chance step, and
positions on the command line, in records and in vectors.  Each test names the clause it checks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import petersburg, take6
from engine.conformance.records.check import check_record
from engine.conformance.records.format import read_record
from engine.conformance.vectors.suite import run_case
from engine.errors import IllegalAction, InputError, PositionError
from engine.petersburg import GAME as SP
from engine.positions import load_position
from engine.take6 import GAME as T6
from engine.take6 import Deal, DraftStart, Select

ROWS = [[3, 10], [22], [40, 41, 45], [90]]


def refused(field: str, clause: str, build: object, **kw: object) -> None:
    with pytest.raises(PositionError) as info:
        build(**kw)  # type: ignore[operator]
    assert (info.value.field, info.value.clause) == (field, clause), str(info.value)


# --------------------------------------------------------------------------------------------------
# 6 nimmt!


def test_take6_builder_accepts_a_mid_game_position() -> None:
    """T6-PLACE-2, T6-ROUND-2, T6-SELECT-1: rows of several cards, short hands, a selection made and totals
    from earlier rounds; the turn, the totals and who acts are exposed."""
    s = take6.position(
        rows=ROWS,
        hands=[[5, 8, 60], [7, 9, 70, 71]],
        selected=[61, None],
        totals=[12, 30],
        piles=[[], [1, 2]],
        round=3,
        seed=4,
    )
    assert (s.phase, s.turn, s.to_act, s.chooser) == ("select", 7, (1,), None)
    assert s.totals_before_round == (12, 30) and s.penalties == (12, 32)
    assert T6.legal_actions(s) == T6.legal_actions(s, 1)


def test_take6_builder_refuses_with_field_and_clause() -> None:
    """T6-PLACE-2, T6-DECK-1, T6-TACT-1, T6-SELECT-1, T6-PLACE-3, T6-END-1, T6-ROUND-2, T6-SETUP-3: each
    broken rule is named with the field that breaks it."""
    hands = [[5, 8, 60], [7, 9, 70]]
    b = take6.position
    refused("rows[2]", "T6-PLACE-2", b, rows=[[3], [22], [40, 41, 42, 43, 44, 45], [90]], hands=hands)
    refused("rows[1]", "T6-DECK-1", b, rows=ROWS, hands=[[5, 8, 60], [7, 9, 22]])
    refused("hands[0]", "T6-TACT-1", b, variant="tactics", rows=[[1], [2], [3], [4]], hands=[[99], [5]])
    refused("hands[1]", "T6-SELECT-1", b, rows=ROWS, hands=[[5, 8, 60], [7, 9]])
    refused("pending[0]", "T6-PLACE-3", b, rows=ROWS, hands=[[5], [7]], pending=[(50, 0)])
    refused("phase", "T6-END-1", b, rows=ROWS, hands=[[], []], phase="over", totals=[10, 20], round=2)
    refused("totals", "T6-ROUND-2", b, rows=ROWS, hands=hands, totals=[3, 0])
    refused("rows", "T6-SETUP-3", b, rows=ROWS[:3], hands=hands)
    refused("totals", "T6-END-1", b, rows=ROWS, hands=hands, totals=[70, 0], round=5)


def test_take6_builder_other_phases() -> None:
    """T6-LOGIC-1, T6-KIDS-2, T6-PLACE-3: a logic draft half made, a kids flip, a low card waiting for its
    player's row choice."""
    draft = take6.position(variant="logic", players=2, hands=[[1, 5], [7]], start=0)
    assert (draft.phase, draft.to_act, len(draft.stock)) == ("draft", (1,), 21)
    flip = take6.position(
        variant="kids", rows=[[10], [20], [30], [40], [50]], hands=[list(range(51, 65)), list(range(65, 80))]
    )
    assert (flip.phase, flip.to_act, flip.turn) == ("flip", (1,), 2)
    choose = take6.position(rows=ROWS, hands=[[5], [7]], pending=[(1, 1), (50, 0)])
    assert (choose.chooser, choose.turn, T6.legal_actions(choose)[0].player) == (1, 9, 1)


def test_take6_notation_round_trips_and_points_at_the_token() -> None:
    """T6-PLACE-2, T6-DECK-1: the notation reads back exactly; a bad line names the token and the clause."""
    line = "professional[professional_tie=start] 2 choose 3.50/4.60/5.70/6.80 9/11 20@1.30@0 -/33 0/0 seed=7"
    s = take6.from_notation(line)
    assert take6.to_notation(s) == line and s.options == (("professional_tie", "start"),)
    with pytest.raises(PositionError, match=r"^rows\[2\] \(token 4 .*T6-PLACE-2\]$"):
        take6.from_notation("standard 1 select 3/22/40.41.42.43.44.45/90 5/7 - - 0/0")
    with pytest.raises(InputError, match=r"^pending \(token 6 'x'\): expected CARD@SEAT"):
        take6.from_notation("standard 1 select 3/22/40/90 5/7 x - 0/0")


def test_take6_deals_come_when_a_round_starts() -> None:
    """T6-SETUP-4, T6-SETUP-5, T6-ROUND-2: without a seed, a finished round waits in phase deal for its deal,
    a chance step given to apply; a wrong deal or a deal at another time is refused."""
    s = take6.position(rows=ROWS, hands=[[50], [60]], totals=[2, 3], round=2)
    with pytest.raises(IllegalAction) as early:
        T6.apply(s, Deal(hands=[[1], [2]], rows=[3, 4, 5, 6]))
    assert early.value.clause == "T6-SETUP-4"
    s = T6.apply(T6.apply(s, Select(0, 50)), Select(1, 60))
    assert (s.phase, s.round, T6.to_act(s), T6.legal_actions(s), T6.is_terminal(s)) == (
        "deal",
        3,
        (),
        (),
        False,
    )
    with pytest.raises(IllegalAction) as short:
        T6.apply(s, Deal(hands=[[1], [2]], rows=[3, 4, 5, 6]))
    assert short.value.clause == "T6-SETUP-5"
    deal = Deal(hands=[list(range(11, 21)), list(range(21, 31))], rows=[1, 2, 3, 4])
    dealt = T6.apply(s, deal)
    assert (dealt.phase, dealt.round, dealt.rows, dealt.seed) == ("select", 3, ((1,), (2,), (3,), (4,)), None)
    assert T6.narrate(s, deal, dealt)[0].startswith("Round 3: 2 hands of 10 cards (explicit deal)")
    assert T6.action_from_json(T6.action_to_json(deal)) == deal
    logic = take6.position(variant="logic", players=2, hands=[[], []], phase="deal", round=2, totals=[1, 1])
    assert T6.apply(logic, DraftStart(1)).to_act == (1,)


def test_take6_with_seed_deals_later_rounds() -> None:
    """T6-SETUP-4: a seedless position given a seed deals its later rounds (at once when one is due)."""
    s = take6.position(hands=[[], []], phase="deal", round=2, totals=[5, 5])
    dealt = T6.with_seed(s, 9)
    assert (dealt.phase, dealt.seed) == ("select", 9)
    assert T6.with_seed(T6.new_game(2, seed=None), 9).seed == 9


# --------------------------------------------------------------------------------------------------
# Saint Petersburg


def test_petersburg_builder_places_cards_and_boxes_the_rest() -> None:
    """SP-CARD-5, SP-PUB-2, SP-OBS-4: partial stacks, a discard pile, the box for cards not mentioned; the
    phase by name, Pub decisions and a drawn Observatory card included."""
    s = petersburg.position(
        players=2,
        phase="pub",
        pub_queue=[1],
        areas=[[], ["Pub"]],
        money=[3, 20],
        stacks={"trading": ["Bank", "Wharf"]},
        discard=["Market"],
        round=2,
    )
    assert (s.phase, s.phase_index, SP.to_act(s), s.cards("trading")) == ("pub", 1, (1,), ("Bank", "Wharf"))
    assert len(s.box) == 116 - 4
    obs = petersburg.position(
        players=2,
        phase="observatory",
        turn=1,
        areas=[[], ["Observatory"]],
        turned=[[], ["Observatory"]],
        drawn="Czar",
    )
    assert (obs.phase, obs.cards("drawn"), SP.legal_actions(obs) == SP.legal_actions(obs, 1)) == (
        "observatory",
        ("Czar",),
        True,
    )


def test_petersburg_builder_refuses_with_field_and_clause() -> None:
    """SP-BUY-2, SP-CARD-5, SP-HAND-3, SP-PUB-1, SP-OBS-1, SP-END-1, SP-SETUP-1, SP-SETUP-3, SP-REFILL-1:
    each broken rule is named with its field; a hand over the limit is legal once a Warehouse is lost."""
    b = petersburg.position
    refused("money[1]", "SP-BUY-2", b, players=2, money=[1, -2])
    refused("areas[0]", "SP-CARD-5", b, players=2, areas=[["Academy", "Academy"], []])
    four = ["Market", "Pub", "Bank", "Author"]
    refused(
        "hands[0]",
        "SP-HAND-3",
        b,
        players=2,
        hands=[four, []],
        discard=["Lumberjack"],
        stacks={"building": ["Warehouse"]},
    )
    assert len(b(players=2, hands=[four, []], discard=["Warehouse"]).hands[0]) == 4
    refused("pub_queue[0]", "SP-PUB-1", b, players=2, phase="pub", pub_queue=[0])
    refused("drawn", "SP-OBS-1", b, players=2, phase="observatory", drawn="Czar")
    refused("phase", "SP-END-1", b, players=2, phase="over")
    refused("stacks.worker[0]", "SP-SETUP-1", b, players=2, stacks={"worker": ["Market"]})
    refused("markers", "SP-SETUP-3", b, players=2, markers=[0, 0, 0, 0])
    refused("upper", "SP-REFILL-1", b, players=2, upper=["Lumberjack"] * 5, lower=["Shepherd"] * 4)


def test_petersburg_notation_round_trips_and_points_at_the_token() -> None:
    """SP-PUB-2, SP-CARD-5: the notation reads back exactly (editions' names, options, the last-round
    flag); a card the game lacks is named with its token and clause."""
    line = (
        "second[trading_discount=false] 4 pub:1 0 0 0/1/0/1 Market - -/Pub/-/- Czarina "
        "3:10:-:Lumberjack*2:- 9:7:Bank:Pub:- last"
    )
    s = petersburg.from_notation(line)
    assert petersburg.to_notation(s) == line and s.last_round and s.phase == "pub"
    with pytest.raises(PositionError, match=r"^areas\[0\] \(token 11 .*\[SP-CARD-5\]$"):
        petersburg.from_notation("first 1 worker 0 0 0/0/1/1 - - - - 3:0:-:Academy*2:- 1:0:-:-:-")
    with pytest.raises(
        InputError, match=r"^seat 1 \(token 12 .*no Saint Petersburg card with the code 'Foo'"
    ):
        petersburg.from_notation("first 1 worker 0 0 0/0/1/1 - - - - 3:0:-:-:- 1:0:-:Foo:-")


def test_petersburg_json_box_is_optional_and_checked() -> None:
    """SP-CARD-5: a JSON state may list the cards out of the game in ``box``; without it every card must be
    placed; with it the box must be exactly the rest."""
    s = petersburg.position(players=2, upper=["Market"])
    data = SP.state_to_json(s)
    assert len(data["box"]) == 115 and SP.state_from_json(data) == s
    del data["box"]
    with pytest.raises(InputError, match=r"^stacks: "):
        SP.state_from_json(data)
    data["box"] = ["Market"]
    with pytest.raises(InputError, match=r"^box: "):
        SP.state_from_json(data)


def test_one_vocabulary() -> None:
    """SP-END-4, SP-END-5, SP-COST-7, T6-SELECT-1: one spelling ``displace``; capped and uncapped counts
    named; cards by name; legal actions of every acting seat without a seat."""
    s = petersburg.position(players=2, areas=[["Market"], []], money=[30, 0])
    assert petersburg.cost_breakdown(s, 0, "Bank", source="upper", displace="Market").displace == "Market"
    eleven = petersburg.position(
        players=2,
        areas=[[c.name for c in petersburg.CARDS if c.stack == "aristocrat" and c.copies >= 1][:7], []],
    )
    b = petersburg.final_breakdown(eleven, 0)
    assert b["distinct_uncapped"] == b["distinct_capped"] == 7
    g = T6.new_game(3, seed=1)
    assert len(T6.legal_actions(g)) == 30 and s.cards("area", 0) == ("Market",)


# --------------------------------------------------------------------------------------------------
# Loading, the CLI, records, vectors


def test_load_position_reads_notation_json_and_files(tmp_path: Path) -> None:
    """T6-DECK-1: the same position from a notation line, a JSON state and @FILE; errors name the source."""
    line = "standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0"
    s = load_position("take6", line)
    assert load_position("take6", json.dumps(T6.state_to_json(s))) == s
    (tmp_path / "p.txt").write_text(line + "\n", encoding="utf-8")
    assert load_position("take6", f"@{tmp_path / 'p.txt'}") == s
    with pytest.raises(InputError, match=r"^position: empty"):
        load_position("take6", "  ")
    with pytest.raises(InputError, match=r"^position: not JSON"):
        load_position("take6", "{nope")


def _arbiter(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from engine.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=False)


def test_cli_takes_positions(tmp_path: Path) -> None:
    """T6-PLACE-1, T6-END-1, SP-COST-2: explain --position, ask --position and play --from read positions; a
    game played from a position is recorded with it and checks OK; bad notation is one line, exit 2."""
    line = "standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0"
    out = _arbiter(
        "explain", "take6", "--position", line, "--action", '{"type": "select", "player": 0, "card": 60}'
    )
    assert out.returncode == 0 and "60 goes to row 2" in out.stdout
    out = _arbiter("ask", "row", "23", "--position", line, "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["value"]["row"] == 1
    record = tmp_path / "from.jsonl"
    out = _arbiter("play", "take6", "--from", line, "--seed", "3", "--record", str(record), "--quiet")
    assert out.returncode == 0 and "Winner" in out.stdout
    header = read_record(record).header
    assert header.position is not None and header.position.endswith("seed=3") and header.setup is None
    assert check_record(record).status == "ok"
    out = _arbiter("explain", "take6", "--position", line.replace("12/0", "12"), "--action", "{}")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "token 8" in out.stderr


def test_a_vector_may_start_from_a_position() -> None:
    """T6-PLACE-2: a conformance case whose set-up is a position runs like any other."""
    line = "standard 2 select 3/22/40.41.42.43.44/90 45.60/7.9 - - 0/0 seed=1"
    case = {
        "id": "take6/T6-PLACE-2/accept/p",
        "game": "take6",
        "clauses": ["T6-PLACE-2"],
        "kind": "accept",
        "description": "a 6th card takes the row",
        "origin": "hand-picked",
        "setup": {"variant": "standard", "players": 2, "options": {}, "setup": None, "position": line},
        "prelude": [],
        "actions": [
            {"player": 0, "action": {"type": "select", "player": 0, "card": 45}},
            {"player": 1, "action": {"type": "select", "player": 1, "card": 7}},
        ],
        "expect": {"facts": {"scores": [11, 0]}},
    }
    outcome = run_case(case)
    assert outcome.passed, outcome.message
