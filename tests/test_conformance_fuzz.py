"""Differential fuzzing (``arbiter fuzz``): the protocol, the harness, the reference peer and the wrong peers.

The reference engine wrapped as a peer must show no divergence; each deliberately wrong peer must be caught
and shrunk to a minimal game whose record ``arbiter check`` replays.  Most peers run in process (fast); the
crash, hang and reference peers also run as real subprocesses.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from engine.conformance.campaign.fuzz import Divergence, FuzzReport, fuzz, in_process, subprocess_peer
from engine.conformance.peers.base import ReferencePeer
from engine.conformance.peers.crash import CrashPeer
from engine.conformance.peers.garbage import GarbagePeer
from engine.conformance.peers.lenient import LenientPeer
from engine.conformance.peers.petersburg_free_cards import FreeCardsPeer
from engine.conformance.peers.protocol import (
    InProcessTransport,
    LegalReport,
    ProtocolError,
    Refusal,
    StateReport,
    parse_reply,
    parse_request,
)
from engine.conformance.peers.take6_fewest_heads import FewestHeadsPeer
from engine.conformance.records.check import check_record
from engine.conformance.records.format import write_record
from engine.game import game_names, get_game

PY = sys.executable


def peer_cmd(name: str) -> str:
    return f"{PY} -m engine.conformance.peers.{name}"


def available_games() -> list[str]:
    out = []
    for name in game_names():
        try:
            get_game(name)
        except (ImportError, AttributeError):
            continue
        out.append(name)
    return out


def divergence_of(report: FuzzReport) -> Divergence:
    assert report.divergence is not None, "the fuzzer found no divergence"
    return report.divergence


def check_status(div: Divergence) -> str:
    buf = io.StringIO()
    write_record(buf, div.to_record())
    return check_record(io.StringIO(buf.getvalue()), name="shrunk.jsonl").status


# ------------------------------------------------------------------------------------------------------
# The protocol


@pytest.mark.parametrize(
    ("line", "cmd", "field"),
    [
        ("thinking...", "state", "not JSON"),
        ("[1, 2]", "state", "expected a JSON object"),
        ('{"to_act": []}', "state", "ok: missing"),
        ('{"ok": "yes"}', "apply", "ok: expected true or false"),
        ('{"ok": true, "terminal": false, "scores": [0, 0]}', "state", "to_act: missing"),
        ('{"ok": true, "to_act": [0, 0], "terminal": false, "scores": [0, 0]}', "state", "listed twice"),
        ('{"ok": true, "to_act": [5], "terminal": false, "scores": [0, 0]}', "state", "to_act[0]"),
        ('{"ok": true, "to_act": [], "terminal": false, "scores": [0]}', "state", "expected 2 scores"),
        ('{"ok": true, "to_act": [], "terminal": true, "scores": [0, 1]}', "state", "winners: missing"),
        ('{"ok": true, "actions": {"a": 1}}', "legal", "actions: expected a list"),
        ('{"ok": true, "actions": [{"a": 1}, {"a": 1}]}', "legal", "listed twice"),
        ('{"ok": true, "actions": [3]}', "legal", "actions[0]"),
        ('{"ok": false, "error": "nope"}', "apply", "error: expected one of"),
        ('{"ok": true, "protocol": 2, "games": {"take6": []}}', "hello", "speaks version 1"),
        ('{"ok": true, "protocol": 1, "games": {}}', "hello", "games"),
    ],
)
def test_every_malformed_reply_is_a_protocol_error_naming_the_field(line: str, cmd: str, field: str) -> None:
    """Property: a reply that is not a valid protocol message is refused with a one-line error naming the
    field (the harness reports it as ``garbage``), never trusted."""
    with pytest.raises(ProtocolError) as info:
        parse_reply(line, cmd, players=2)
    assert field in str(info.value)
    assert info.value.kind == "garbage"


def test_valid_replies_parse_to_typed_values() -> None:
    """The three reply shapes parse: a state report, a legal list (canonical texts), a refusal."""
    state = parse_reply('{"ok":true,"to_act":[1],"terminal":true,"scores":[3,4],"winners":[0]}', "state", 2)
    assert state == StateReport((1,), True, (3, 4), (0,))
    legal = parse_reply('{"ok":true,"actions":[{"b":1,"a":2}]}', "legal", 2)
    assert isinstance(legal, LegalReport) and legal.actions == ('{"a":2,"b":1}',)
    assert parse_reply('{"ok":false,"error":"illegal","message":"m"}', "apply") == Refusal("illegal", "m")


def test_peer_side_requests_are_validated() -> None:
    """A malformed request gets a ``bad-request`` refusal from the reference peer, not a crash."""
    peer = ReferencePeer()
    for line in ("nonsense", '{"cmd": "fly"}', '{"cmd": "legal", "player": -1}', '{"cmd": "legal"}'):
        reply = json.loads(peer.handle_line(line) or "{}")
        assert reply["ok"] is False and reply["error"] == "bad-request", line
    with pytest.raises(ValueError):
        parse_request('{"cmd": "new", "game": 3}')


def test_an_in_process_peer_that_raises_counts_as_a_crash() -> None:
    """Property: an exception inside an in-process peer is reported as a crash, and the transport stays
    dead afterwards."""

    def boom(line: str) -> str:
        raise RuntimeError("kaput")

    transport = InProcessTransport(boom)
    for _ in range(2):
        with pytest.raises(Exception) as info:
            transport.request({"cmd": "state"})
        assert getattr(info.value, "kind", "") == "crash"
        assert "kaput" in str(info.value)


# ------------------------------------------------------------------------------------------------------
# The reference peer: no divergence


@pytest.mark.parametrize("game", available_games())
def test_reference_peer_in_process_shows_no_divergence(game: str) -> None:
    """The reference engine compared with itself through the protocol shows no divergence: set-up JSON,
    action JSON, facts, legal sets and illegal probes all agree."""
    report = fuzz(in_process(ReferencePeer), games=(game,), examples=12, max_steps=250, seed=7)
    assert report.divergence is None, report.divergence and report.divergence.describe()
    assert report.games >= 12 and report.steps > 100
    assert report.probes > 0, "illegal probes were tried"


def test_reference_peer_as_a_subprocess_shows_no_divergence() -> None:
    """Through a real child process and pipes, with a fresh process per game, the reference peer shows no
    divergence."""
    report = fuzz(subprocess_peer(peer_cmd("reference")), games=("take6",), examples=3, max_steps=60, seed=3)
    assert report.divergence is None
    assert report.games == 3 and report.steps > 0


# ------------------------------------------------------------------------------------------------------
# Wrong peers: caught and shrunk


def test_fewest_heads_peer_is_caught_and_shrunk_to_the_first_low_card() -> None:
    """T6-PLACE-3 / T6-CHOOSE-1: a card below every row end makes its player choose a row.  A peer that
    takes the cheapest row itself is caught, and the game shrinks to two players, one turn: 2 selections,
    after which the rules wait for a row choice while the peer does not."""
    div = divergence_of(fuzz(in_process(FewestHeadsPeer), games=("take6",), examples=30, seed=1))
    assert div.kind == "to_act"
    assert div.setup.players == 2 and div.steps == 2
    assert check_status(div) == "divergence", "arbiter check reproduces the wrong claim"


@pytest.mark.skipif("petersburg" not in available_games(), reason="Saint Petersburg not present")
def test_free_cards_peer_is_caught_at_the_first_purchase_below_the_minimum() -> None:
    """SP-COST-6: a cost never falls below 1 rouble.  A peer that lets reductions make a card free is
    caught by its money claim and shrunk to a short solo game (solo keeps the test fast); ``arbiter check``
    reproduces the wrong claim."""
    div = divergence_of(
        fuzz(
            in_process(FreeCardsPeer), games=("petersburg",), players=(1,), examples=10, max_steps=60, seed=1
        )
    )
    assert div.kind == "claim" and "money" in div.message
    assert "SP-COST-6" in div.clauses
    assert div.steps <= 20
    assert check_status(div) == "divergence"


def test_lenient_peer_is_caught_by_an_illegal_probe() -> None:
    """Property: the peer must refuse what the rules refuse (T6-ACT-1 here: a row choice out of turn).
    Shrinking keeps the divergence's class (kind and deciding clause) and never grows it; the shrunk record
    ends with the illegal action, which ``arbiter check`` reports."""
    report = fuzz(in_process(LenientPeer), games=("take6",), examples=30, seed=1)
    div, first = divergence_of(report), report.first
    assert first is not None
    assert div.kind == "accepted-illegal"
    assert div.clauses and div.clauses[0].startswith("T6-")
    assert div.signature == first.signature and div.size <= first.size
    assert report.probes >= 1, "the probe that found it is counted"
    assert check_status(div) == "divergence"


def test_garbage_peer_is_reported_as_garbage() -> None:
    """A log line on the protocol channel is garbage; the game shrinks to the first position where a single
    seat must act."""
    div = divergence_of(fuzz(in_process(GarbagePeer), games=("take6",), examples=20, seed=1))
    assert div.kind == "garbage"
    assert "debug: waiting" in div.message
    assert div.steps == 1


def test_crash_peer_in_process_shrinks_to_the_first_penalty() -> None:
    """The crash peer dies when somebody first scores; the minimal game is the shortest one with a penalty:
    two selections of low cards and the row choice."""
    div = divergence_of(fuzz(in_process(CrashPeer), games=("take6",), examples=30, seed=1))
    assert div.kind == "crash" and "PeerDied" in div.message
    assert div.setup.players == 2 and div.steps == 2 and div.trigger is not None
    assert check_status(div) == "ok", "the reference accepts the game: the fault is the peer's alone"


def test_crash_peer_as_a_subprocess_is_survived_and_shrunk() -> None:
    """A real process that dies is reported with its exit code and stderr; the harness restarts it and
    keeps shrinking."""
    factory = subprocess_peer(peer_cmd("crash"), timeout=5.0)
    report = fuzz(factory, games=("take6",), examples=10, seed=1, reuse=True)
    div = divergence_of(report)
    assert div.kind == "crash"
    assert "exited with code 1" in div.message and "PeerDied" in div.message
    assert div.steps == 2
    assert report.games > 1, "the harness carried on after the first crash"


def test_hang_peer_times_out_and_the_harness_survives() -> None:
    """A peer that stops answering is reported as a timeout after the per-message timeout, and killed."""
    factory = subprocess_peer(peer_cmd("hang"), timeout=0.4)
    report = fuzz(factory, games=("take6",), examples=3, seed=1, shrink=False)
    div = divergence_of(report)
    assert div.kind == "timeout" and "0.4 s" in div.message
    assert div.trigger is not None


# ------------------------------------------------------------------------------------------------------
# The command line


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    cmd = [PY, "-m", "engine", "fuzz", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def test_cli_reports_a_divergence_with_exit_code_1_and_writes_the_record(tmp_path: Any) -> None:
    """``arbiter fuzz`` exits 1 on a divergence, prints the shrunk record, writes it with ``--out``, and
    ``arbiter check`` finds the divergence in it."""
    out = tmp_path / "div.jsonl"
    proc = run_cli(
        "--peer",
        peer_cmd("take6_fewest_heads"),
        "--game",
        "take6",
        "--examples",
        "10",
        "--seed",
        "1",
        "--reuse",
        "--quiet",
        "--out",
        str(out),
    )
    assert proc.returncode == 1, proc.stderr
    assert "divergence (to_act)" in proc.stdout
    assert '"type":"header"' in proc.stdout
    cmd = [PY, "-m", "engine", "check", str(out)]
    check = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert check.returncode == 1


def test_cli_exit_code_0_without_divergence() -> None:
    """No divergence: exit code 0 and a summary line."""
    proc = run_cli(
        "--peer",
        peer_cmd("reference"),
        "--game",
        "take6",
        "--examples",
        "2",
        "--max-steps",
        "30",
        "--seed",
        "2",
        "--reuse",
    )
    assert proc.returncode == 0, proc.stderr
    assert "no divergence" in proc.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--peer", "/nonexistent/peer-binary"], "cannot start"),
        (["--peer", ""], "empty command"),
        (["--peer", "x", "--examples", "0"], "--examples"),
        (["--peer", f"{PY} -m engine.conformance.peers.reference", "--game", "chess"], "unknown game"),
    ],
)
def test_cli_bad_arguments_exit_2_without_traceback(args: list[str], needle: str) -> None:
    """Bad arguments: one line on stderr, exit code 2, never a traceback."""
    proc = run_cli(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr
