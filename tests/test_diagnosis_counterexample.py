"""Counterexamples from a diagnosis (engine/conformance/diagnosis/counterexample.py, issue 25 item 4): for a
set of faults and a position where their rules and the true rules differ, the smallest position found and
one action, written as a record (``arbiter check`` reports the divergence) and as a test vector that the
reference passes and the rules under the faults fail.

Measured on faults drawn at random from the whole fault space of both games (a seeded draw): each is
tried on seeded random games until it first shows; a fault that changes nothing there is skipped and
counted.  The figures on a larger draw: ``python -m engine.conformance.diagnosis.drawn``.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from attrs import evolve

from engine.conformance.campaign.positions import origin_size, replay_origin
from engine.conformance.campaign.runner import run_campaign
from engine.conformance.campaign.setups.base import GameSetup
from engine.conformance.diagnosis.counterexample import (
    Counterexample,
    NoCounterexample,
    counterexample,
    start_of,
)
from engine.conformance.diagnosis.drawn import Drawn, draw, summary, trial
from engine.conformance.diagnosis.evidence import Seen
from engine.conformance.diagnosis.faults import World, parse
from engine.conformance.peers.base import ReferencePeer
from engine.conformance.peers.edited import EditedPeer, edited_peer
from engine.conformance.peers.launch import in_process
from engine.conformance.records.check import check_record
from engine.conformance.records.format import write_record
from engine.conformance.vectors.suite import run_case, vector_problem
from engine.game import get_game
from engine.petersburg import Buy

DRAWN = 10
"""Faults drawn per game."""


@pytest.fixture(scope="module")
def drawn() -> list[Drawn]:
    rng = random.Random(2025)
    return trial([f for name in ("take6", "petersburg") for f in draw(name, DRAWN, rng)], seed=11)


def verified_both_ways(cx: Counterexample) -> None:
    """The position is valid, the vector is valid, the reference passes it and the rules under the faults
    fail it, ``arbiter check`` reports a divergence on the record, and the edited peer shows a divergence
    from the position where the reference peer shows none."""
    game = get_game(cx.game)
    assert game.to_notation(game.from_notation(cx.notation)) == cx.notation
    assert game.to_notation(game.state_from_json(dict(cx.state))) == cx.notation
    assert vector_problem(cx.vector) is None
    assert cx.vector["setup"]["position"] == cx.notation and cx.vector["clauses"]
    assert run_case(cx.vector).passed
    assert not run_case(cx.vector, under=World(cx.game, cx.faults)).passed
    text = io.StringIO()
    write_record(text, cx.record)
    checked = check_record(io.StringIO(text.getvalue()), name="counterexample.jsonl")
    assert checked.status == "divergence", checked.error
    setup = GameSetup(cx.game, str(cx.state["variant"]), int(cx.state["players"]), None)
    kind = cx.divergence.kind
    peer = in_process(lambda: EditedPeer([f.signature for f in cx.faults]))
    shown = replay_origin(peer(), setup, cx.origin, kind=kind, trials=False)
    if cx.kind != "position":  # the peer reads the position's facts by the reference's codec
        assert shown is not None, (cx.notation, cx.action)
    assert replay_origin(in_process(ReferencePeer)(), setup, cx.origin, kind=kind) is None


def test_drawn_faults_give_small_verified_counterexamples(drawn: list[Drawn]) -> None:
    """Faults drawn from the fault space of both games: every one that shows gives a counterexample
    (but for a reason it names), each verified both ways, no larger than where it first showed and
    mostly smaller; the ones that change nothing on the positions tried are skipped and counted."""
    outcomes = {o: [d for d in drawn if d.outcome == o] for o in ("verified", "no difference", "unverified",
                                                                  "unplayable")}
    shown = len(drawn) - len(outcomes["no difference"]) - len(outcomes["unplayable"])
    assert len(outcomes["verified"]) >= 0.8 * shown, summary(drawn)
    assert all(d.why for d in outcomes["unverified"] + outcomes["unplayable"])
    smaller = 0
    for d in outcomes["verified"]:
        cx = d.counterexample
        assert cx is not None and cx.faults == (d.fault,)
        assert cx.size <= cx.start_size, d.fault.signature
        smaller += cx.size < cx.start_size
        verified_both_ways(cx)
    assert smaller >= 0.8 * len(outcomes["verified"])
    lines = summary(drawn)
    assert any("median CPU" in line for line in lines) and any("skipped" in line for line in lines)


@pytest.mark.parametrize("positions", [True, False])
def test_a_counterexample_starts_from_a_campaign_divergence(positions: bool) -> None:
    """A campaign against the edited peer, with positions (a divergence's origin) and without (the game
    replayed up to the divergence): each class's first divergence starts a counterexample of the edit,
    no larger than where it started, verified both ways."""
    for edit, variant in (("petersburg:edit:phases/param/lower_row_discount/value=2", "first"),
                          ("take6:edit:setup/standard/row_capacity=4", "standard")):
        name = edit.split(":")[0]
        report = run_campaign(edited_peer([edit]), games=3, jobs=1, seed=3, shrink=False, positions=positions,
                              game_names=[name], variants=[variant])
        assert report.classes, edit
        for c in report.classes[:4]:
            first = c.first if positions else evolve(c.first, origin=None)  # the record up to it alone
            assert (first.origin is not None) == positions
            start = start_of(first)
            assert start is not None, c.signature
            cx = counterexample(name, [parse(edit)], start)
            assert cx.size <= cx.start_size, c.signature
            if first.origin is not None:
                assert cx.start_size == origin_size(name, first.origin)
            verified_both_ways(cx)


@pytest.mark.parametrize(
    ("edit", "notation", "action", "kind"),
    [
        # SP-CARD-1: a dearer Lumberjack: the facts after buying it (money) differ
        ("petersburg:edit:cards/Lumberjack/cost=4", "first 1 worker 0 0 0/0/1/1 Lumberjack,Shepherd - - - "
         "25:0:-:-:- 25:0:-:-:-", (0, "Lumberjack"), "claim"),
        # a Lumberjack dearer than the buyer's roubles: the faulty rules refuse a legal buy
        ("petersburg:edit:cards/Lumberjack/cost=9", "first 1 worker 0 0 0/0/1/1 Lumberjack,Shepherd - - - "
         "3:0:-:-:- 25:0:-:-:-", (0, "Lumberjack"), "refused-legal"),
        # a cheaper Lumberjack than its price: the faulty rules accept a buy the rules refuse
        ("petersburg:edit:cards/Lumberjack/cost=1", "first 1 worker 0 0 0/0/1/1 Lumberjack,Shepherd - - - "
         "2:0:-:-:- 25:0:-:-:-", (0, "Lumberjack"), "accepted-illegal"),
    ],
)
def test_each_kind_of_difference_is_written_and_verified(edit: str, notation: str, action: Any, kind: str
                                                         ) -> None:
    """Illustrations of the kinds a counterexample records (the facts after the action, a legal action
    refused, an illegal one accepted), each verified both ways and written so that ``arbiter check``
    names it."""
    game = get_game("petersburg")
    start = Seen("after", game.from_notation(notation), Buy(action[0], action[1], "upper"))
    cx = counterexample("petersburg", [parse(edit)], start)
    assert cx.kind == kind and cx.size[0] == 1, (cx.notation, cx.kind)
    verified_both_ways(cx)


def test_a_position_and_a_winners_difference() -> None:
    """6 nimmt!: a tactics deck of other cards shows in the position's own facts (the cards out of play);
    the other end-of-game winner (T6-END-1) in the winners of the game the action ends."""
    game = get_game("take6")
    tactics = game.from_notation("tactics 1 select 9/1/22/7 8/3/15/14/11 - - 0/0/0/0/0")
    cx = counterexample("take6", [parse("take6:edit:deck/tactics/extra=6")],
                        Seen("after", tactics, game.legal_actions(tactics, 0)[0]))
    assert cx.kind == "position" and cx.differs == ("pool",)
    verified_both_ways(cx)
    end = game.from_notation("standard 3 select 3/22/40/90 5/*7 - 55.66.77/- 60/12")  # the last turn
    cx = counterexample("take6", [parse("take6:edit:end/threshold/winner=highest")],
                        Seen("after", end, game.legal_actions(end, 0)[0]))
    assert cx.kind == "winners" and cx.size <= cx.start_size
    verified_both_ways(cx)


def test_nothing_differs_no_counterexample() -> None:
    """A fault its start position does not touch gives no counterexample, and says why."""
    game = get_game("petersburg")
    state = game.from_notation("first 1 worker 0 0 0/0/1/1 Lumberjack,Shepherd - - - 25:0:-:-:- 25:0:-:-:-")
    with pytest.raises(NoCounterexample, match="do as the rules do"):
        counterexample("petersburg", [parse("petersburg:edit:cards/Patriarch/cost=14")],
                       Seen("after", state, Buy(0, "Shepherd", "upper")))
