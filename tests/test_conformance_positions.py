"""The ``position`` capability of the peer protocol, campaigns that go on after a divergence, counterexamples
of one position and one action, every differing fact recorded, and one seed giving the same games.

A peer declaring ``position`` in its ``hello`` is put back on the reference's position after every
divergence, so a game shows every defect it meets and a waived class hides nothing; each class shrinks to
one position and one action (seats and cards removed while the class holds), exported as a test vector.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from extras import need

from engine.conformance.campaign.fuzz import in_process
from engine.conformance.campaign.grouping import unexplained_class
from engine.conformance.campaign.positions import origin_size, origin_vector, replay_origin
from engine.conformance.campaign.report import summary_lines, to_markdown, validate_json, write_records
from engine.conformance.campaign.runner import CampaignReport, Waiver, run_campaign
from engine.conformance.peers.base import ReferencePeer
from engine.conformance.peers.multi import MultiDefectPeer
from engine.conformance.peers.protocol import ProtocolError, parse_reply, parse_request
from engine.conformance.records.check import check_record
from engine.conformance.records.format import write_record
from engine.conformance.vectors.suite import run_case, vector_problem
from engine.errors import InputError
from engine.game import get_game

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
GAMES, SEED = 24, 5


class NoPositionPeer(MultiDefectPeer):
    """The multi-defect peer without the capability: campaigns work as without positions."""

    capabilities = ()


def campaign(peer: Any = MultiDefectPeer, **kw: Any) -> CampaignReport:
    args: dict[str, Any] = {"games": GAMES, "jobs": 1, "seed": SEED, "shrink_seconds": 5.0}
    args.update(kw)
    return run_campaign(in_process(peer), **args)


@pytest.fixture(scope="module")
def with_positions() -> CampaignReport:
    return campaign()


@pytest.fixture(scope="module")
def without_positions() -> CampaignReport:
    return campaign(NoPositionPeer)


# --------------------------------------------------------------------------------------------------------
# The protocol


def test_hello_declares_the_position_capability() -> None:
    """The reference peer (and every peer built on it) declares ``position``; an unknown capability is
    garbage, named by its field."""
    hello = parse_reply(ReferencePeer().handle_line('{"cmd": "hello", "protocol": 1}') or "", "hello")
    assert hello.capabilities == ("position",)  # type: ignore[union-attr]
    assert MultiDefectPeer().capabilities == ("position",)
    with pytest.raises(ProtocolError, match=r"capabilities\[0\]: expected one of position"):
        parse_reply('{"ok": true, "protocol": 1, "games": {"take6": ["standard"]}, "capabilities": ["x"]}',
                    "hello")


def test_a_position_request_sets_the_peer_on_the_position() -> None:
    """``position`` replaces the peer's game by the given position (the JSON state, else the notation line);
    a malformed request is refused naming the field, and a peer without the capability says unsupported."""
    line = "standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0"
    peer = ReferencePeer()
    reply = peer.handle_line(json.dumps({"cmd": "position", "game": "take6", "position": line, "state": {}}))
    assert json.loads(reply or "") == {"ok": True}
    assert get_game("take6").to_notation(peer.state) == line
    state = get_game("take6").state_to_json(peer.state)
    peer.handle_line(json.dumps({"cmd": "position", "game": "take6", "position": "", "state": state}))
    assert get_game("take6").to_notation(peer.state) == line
    with pytest.raises(InputError, match="request 'position': state: expected an object"):
        parse_request(json.dumps({"cmd": "position", "game": "take6", "position": line, "state": 1}))
    refused = json.loads(NoPositionPeer().handle_line(json.dumps(
        {"cmd": "position", "game": "take6", "position": line, "state": {}})) or "")
    assert refused["error"] == "unsupported"


# --------------------------------------------------------------------------------------------------------
# Campaigns with positions


def test_with_positions_a_game_goes_on_after_a_divergence(with_positions: CampaignReport,
                                                         without_positions: CampaignReport) -> None:
    """The same seed and games: with positions every divergence is seen (a game meets several), without
    them each game stops at its first; so every class found without positions is found with them, more
    often, and the report says which mode hid what.  The classes compared are attribution's (diagnosis
    off): a diagnosis may differ between the modes (a few divergences fit a fault that the many seen with
    positions refute), attribution's signature of a divergence does not."""
    assert with_positions.positions and not without_positions.positions
    attributed = campaign(diagnose=False, shrink=False)
    found = {c.signature: c.count for c in attributed.classes}
    for c in campaign(NoPositionPeer, diagnose=False, shrink=False).classes:
        assert found.get(c.signature, 0) >= c.count, c.signature
    assert sum(found.values()) > sum(c.count for c in without_positions.classes)
    assert with_positions.hiding_note() is None
    note = without_positions.hiding_note()
    assert note is not None and "may hide" in note
    doc = without_positions.to_json()
    assert doc["hiding"] == note and all(c["may_hide"] for c in doc["classes"])
    assert not any(c["may_hide"] for c in with_positions.to_json()["classes"])


def test_a_waived_class_hides_nothing_with_positions(with_positions: CampaignReport) -> None:
    """Waiving the most frequent class leaves every other class, with the same counts: a waived
    divergence no longer ends its game."""
    top = with_positions.classes[0]
    waived = campaign(waivers=(Waiver(top.signature, "known"),), shrink=False)
    counts = {c.signature: c.count for c in waived.classes}
    assert counts == {c.signature: c.count for c in with_positions.classes}
    assert [c.signature for c in waived.classes if c.waived] == [top.signature]


def test_each_class_shrinks_to_one_position_and_one_action(with_positions: CampaignReport) -> None:
    """Every class's counterexample is one position and at most one action, no larger than where it was
    first seen; its record (a header ``position`` and the action) replays in ``arbiter check`` to a
    divergence naming the class's clause; its test vector is valid and passes on the reference."""
    assert with_positions.classes
    for c in with_positions.classes:
        shrunk = c.shrunk
        assert shrunk is not None and shrunk.origin is not None and c.first.origin is not None, c.signature
        assert shrunk.start is not None and shrunk.steps <= 1, c.signature
        game = c.first.setup.game
        assert origin_size(game, shrunk.origin) <= origin_size(game, c.first.origin), c.signature
        buf = io.StringIO()
        write_record(buf, shrunk.to_record())
        checked = check_record(io.StringIO(buf.getvalue()), name="counterexample.jsonl")
        assert checked.status == "divergence", (c.signature, checked.error)
        assert checked.divergence is not None and c.clause in checked.divergence.clauses, c.signature
        if c.clause is not None:
            assert c.vector is not None, c.signature
            assert vector_problem(c.vector) is None and run_case(c.vector).passed
            assert c.vector["setup"]["position"] == shrunk.origin.notation


def test_the_counterexample_shows_the_defect_on_the_peer(with_positions: CampaignReport) -> None:
    """Replayed on the peer from its position, the shrunk counterexample gives the class again; on the
    reference it gives nothing."""
    for c in with_positions.classes:
        shrunk = c.shrunk
        assert shrunk is not None and shrunk.origin is not None
        again = replay_origin(in_process(MultiDefectPeer)(), shrunk.setup, shrunk.origin, kind=c.kind)
        # a diagnosed class's counterexample is the diagnosis's: the peer diverges there (the campaign
        # checked it), its divergence named as attribution names it
        assert again is not None and (c.explained or unexplained_class(again.signature) == c.signature)
        assert replay_origin(in_process(ReferencePeer)(), shrunk.setup, shrunk.origin, kind=c.kind) is None


def test_shrinking_removes_seats_and_cards() -> None:
    """A counterexample first seen in a 6-seat game of the standard variant ends with fewer seats or fewer
    cards in play."""
    report = campaign(games=8, game_names=("take6",), variants=("standard",), players=(6,),
                      shrink_seconds=10.0)
    assert report.classes
    smaller = 0
    for c in report.classes:
        assert c.shrunk is not None and c.shrunk.origin is not None and c.first.origin is not None
        before = origin_size("take6", c.first.origin)
        after = origin_size("take6", c.shrunk.origin)
        smaller += after < before
    assert smaller == len(report.classes)


def test_the_report_gives_counterexamples_and_vectors(with_positions: CampaignReport, tmp_path: Path) -> None:
    """``--out DIR`` writes each class's vector beside its records; the JSON report (valid against its
    schema) and the Markdown give the position, the action and the vector."""
    written = write_records(with_positions, tmp_path)
    doc = written.to_json()
    validate_json(doc)
    with_vector = [c for c in doc["classes"] if c["counterexample"] and c["counterexample"]["vector"]]
    assert with_vector
    for c in with_vector:
        line = Path(c["counterexample"]["vector"]).read_text(encoding="utf-8")
        assert vector_problem(json.loads(line)) is None
    markdown = to_markdown(written)
    assert "**Positions**" in markdown and "Test vector" in markdown
    assert any("1 position (" in line for line in summary_lines(written))


# --------------------------------------------------------------------------------------------------------
# Every differing fact


def test_every_differing_fact_is_recorded(without_positions: CampaignReport) -> None:
    """A divergence keeps every fact that differs at that point (the peer that takes a low card's row
    for its player gets to_act, scores, rows ... wrong at once); its record makes ``arbiter check`` report
    every one, the first as the divergence and the others under ``also``."""
    c = next(c for c in without_positions.classes if c.first.signature.startswith("take6:to_act:T6-PLACE-3"))
    facts = [d.about for d in c.first.differences]
    assert facts[0] == "to_act" and len(facts) >= 3 and len(set(facts)) == len(facts)
    buf = io.StringIO()
    write_record(buf, c.first.to_record())
    checked = check_record(io.StringIO(buf.getvalue()), name="first.jsonl")
    assert checked.divergence is not None
    reported = [checked.divergence.fact, *(d.fact for d in checked.divergence.also)]
    assert set(facts) <= set(reported)
    assert checked.to_json()["divergence"]["also"]
    occurrence = without_positions.to_json()["classes"][0]["first"]
    assert occurrence["differences"]
    assert occurrence["differences"][0]["kind"] == without_positions.classes[0].kind


def test_origin_vector_refuses_without_an_origin(without_positions: CampaignReport) -> None:
    """Without positions a divergence has no origin, hence no vector."""
    assert origin_vector(without_positions.classes[0].first) is None


# --------------------------------------------------------------------------------------------------------
# Determinism


API_RUN = """
import sys
if sys.argv[1] == "cli":
    import engine.cli  # noqa: F401  (imported first: its literals must not change the games)
from engine.conformance.campaign.runner import run_campaign
from engine.conformance.campaign.fuzz import in_process
from engine.conformance.peers.take6_fewest_heads import FewestHeadsPeer
r = run_campaign(in_process(FewestHeadsPeer), games=16, jobs=1, seed=1, shrink=False)
print(r.digest, r.steps, r.probes)
"""


def test_a_seed_gives_the_same_games_through_jobs_ray_and_the_api() -> None:
    """One seed, the same games (set-ups, actions, probes: the digest) with ``--jobs 1``, ``--jobs 2``, on
    Ray, and through the API in a fresh process whether or not ``engine.cli`` was imported first."""
    from engine.conformance.peers.take6_fewest_heads import FewestHeadsPeer

    def run(**kw: Any) -> tuple[str, int, int]:
        r = run_campaign(in_process(FewestHeadsPeer), games=16, seed=1, shrink=False, **kw)
        return r.digest, r.steps, r.probes

    inline = run(jobs=1)
    assert run(jobs=2) == inline
    for first in ("plain", "cli"):
        out = subprocess.run([PY, "-c", API_RUN, first], capture_output=True, text=True, timeout=300,
                             cwd=ROOT, check=True).stdout.split()
        assert (out[0], int(out[1]), int(out[2])) == inline, first
    ray = need("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        assert run(ray=True) == inline
    finally:
        ray.shutdown()

