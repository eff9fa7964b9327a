"""Conformance campaigns (``arbiter fuzz --games N | --time S``): every defect of a peer in one run.

The multi-defect peer (``engine.conformance.peers.multi``) carries eight independent defects, each breaking a
different rule with a different kind of divergence.  With the diagnosis off (``diagnose=False``: classes by
signature, as for the divergences no diagnosis explains), one campaign must report each as its own class with
the right deciding clause and a shrunk record that ``arbiter check`` replays to the same clause; a waiver
sets one aside and leaves the others; the classes do not depend on the number of jobs, nor on Ray.  These
campaigns do not use the peer's ``position`` capability (tests/test_conformance_positions.py does).
"""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from extras import need

from engine.cli import main
from engine.conformance.campaign.fuzz import Divergence, fuzz, in_process
from engine.conformance.campaign.report import summary_lines, to_markdown, validate_json, write_records
from engine.conformance.campaign.runner import (
    CampaignReport,
    Waiver,
    load_waivers,
    run_campaign,
)
from engine.conformance.peers.lenient import LenientPeer
from engine.conformance.peers.multi import DEFECTS, MultiDefectPeer
from engine.conformance.peers.petersburg_free_cards import FreeCardsPeer
from engine.conformance.peers.take6_fewest_heads import FewestHeadsPeer
from engine.conformance.records.check import check_record
from engine.conformance.records.format import write_record
from engine.errors import InputError

PY = sys.executable
GAMES, SEED = 96, 3

EXPECTED = {
    "low-card": ("take6", "to_act", "T6-PLACE-3"),
    "second-select": ("take6", "accepted-illegal", "T6-SELECT-2"),
    "logic-draft": ("take6", "legal-missing", "T6-LOGIC-1"),
    "bull-55": ("take6", "scores", "T6-BULL-1"),
    "fifth-card": ("take6", "scores", "T6-PLACE-2"),
    "eleven": ("take6", "scores", "T6-BULL-2"),
    "min-cost": ("petersburg", "claim", "SP-COST-6"),
    "hand-limit": ("petersburg", "legal-extra", "SP-HAND-2"),
}
"""Defect → (game, kind, the clause it breaks)."""

ALSO = {("take6", "to_act", "T6-PRO-5")}
"""The low-card defect in the professional variant breaks that variant's own rule: a class of its own."""


def signature_of(defect: str) -> str:
    """The class of a defect nothing explains: its game and the clause it breaks, whatever the kind."""
    game, _kind, clause = EXPECTED[defect]
    return f"{game}:unexplained:{clause}"


def campaign(**kw: Any) -> CampaignReport:
    args: dict[str, Any] = {"games": GAMES, "jobs": 1, "seed": SEED, "shrink_seconds": 3.0,
                            "positions": False, "diagnose": False}
    args.update(kw)
    return run_campaign(in_process(functools.partial(MultiDefectPeer, tuple(EXPECTED))), **args)


@pytest.fixture(scope="module")
def report() -> CampaignReport:
    return campaign()


def replay(div: Divergence) -> Any:
    buf = io.StringIO()
    write_record(buf, div.to_record())
    return check_record(io.StringIO(buf.getvalue()), name="class.jsonl")


def test_every_defect_is_its_own_class_with_its_deciding_clause(report: CampaignReport) -> None:
    """One campaign finds each of the eight defects as a class of its own, named by the clause it breaks
    (T6-PLACE-3, T6-SELECT-2, T6-LOGIC-1, T6-BULL-1, T6-PLACE-2, T6-BULL-2, SP-COST-6, SP-HAND-2), and
    nothing else (but the low-card
    defect's professional sibling, T6-PRO-5, should a professional game show it)."""
    assert set(EXPECTED) <= set(DEFECTS)
    found = {c.signature for c in report.classes}
    for defect in EXPECTED:
        assert signature_of(defect) in found, (defect, found)
    known = [*EXPECTED.values(), *ALSO]
    for c in report.classes:
        game, kind, clause = next(v for v in known if c.signature == f"{v[0]}:unexplained:{v[2]}")
        assert (c.first.setup.game, c.clause) == (game, clause) and kind in c.kinds
        assert c.shrunk is not None and c.shrunk.signature == c.first.signature, "shrinking keeps the class"
        assert c.shrunk.size <= c.first.size, "shrinking never grows the record"


def test_each_shrunk_record_replays_in_check_with_the_same_first_clause(report: CampaignReport) -> None:
    """``arbiter check`` reports every class's shrunk record as a divergence whose first clause is the
    campaign's deciding clause (one clause function for fuzz and check)."""
    for c in report.classes:
        assert c.shrunk is not None
        checked = replay(c.shrunk)
        assert checked.status == "divergence", (c.signature, checked.error)
        assert checked.divergence is not None and checked.divergence.clauses[0] == c.clause, c.signature
        if c.kind in ("to_act", "claim", "scores"):  # a claim in both: the very same clause list
            assert checked.divergence.clauses == c.shrunk.clauses, c.signature


def test_counters_are_honest(report: CampaignReport) -> None:
    """Games, actions and probes add up: every game counted played its actions; the probes that found an
    accepted-illegal divergence are counted."""
    assert report.games == GAMES
    assert report.steps > 0 and report.probes >= next(
        c.count for c in report.classes if c.kind == "accepted-illegal"
    )
    assert sum(c.count for c in report.classes) <= report.games


def test_waiving_one_class_leaves_the_others(report: CampaignReport) -> None:
    """A waived signature ends its games and is counted as waived, a class of its own (the divergences it
    names leave their clause's class); every other class is still reported, and only open classes make the
    exit code 1."""
    low = next(c for c in report.classes if c.kind == "to_act")
    waived = campaign(
        waivers=(Waiver("take6:to_act:*", "we choose the row for the player on purpose"),), shrink=False
    )
    by_sig = {c.signature: c for c in waived.classes}
    assert by_sig[low.first.signature].waived == "we choose the row for the player on purpose"
    assert waived.waived_games == by_sig[low.first.signature].count > 0
    before = {c.signature for c in report.classes}
    assert before - {low.signature} <= {c.signature for c in waived.open_classes} <= before
    assert waived.exit_code == 1
    everything = campaign(waivers=(Waiver("*", "all known"),), shrink=False)
    assert everything.exit_code == 0 and not everything.open_classes


def test_the_classes_do_not_depend_on_the_number_of_jobs(report: CampaignReport) -> None:
    """With --seed and --games the games played and the classes found (with their counts and first
    occurrences) are the same with one job or two."""
    two = campaign(jobs=2, shrink=False)
    assert (two.games, two.steps, two.probes) == (report.games, report.steps, report.probes)

    def classes(r: CampaignReport) -> list[tuple[str, int, tuple[int, int]]]:
        return sorted((c.signature, c.count, c.first.size) for c in r.classes)

    assert classes(two) == classes(report)


def test_a_local_ray_campaign_finds_the_same_classes(report: CampaignReport) -> None:
    """``--ray``: the same batches run as Ray tasks on a local Ray instance give the same classes."""
    ray = need("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        on_ray = campaign(ray=True, games=16, shrink=False)
        local = campaign(jobs=1, games=16, shrink=False)
    finally:
        ray.shutdown()
    assert on_ray.executor == "ray"
    assert sorted((c.signature, c.count) for c in on_ray.classes) == sorted(
        (c.signature, c.count) for c in local.classes
    )
    assert on_ray.classes, "the small campaign finds something to compare"


def test_reports_json_markdown_and_records(report: CampaignReport, tmp_path: Path) -> None:
    """The JSON report is valid against its shipped schema; the Markdown has one section per class; --out
    holds each class's shrunk record and first occurrence, both replayed by check as divergences."""
    written = write_records(report, tmp_path)
    doc = written.to_json()
    validate_json(doc)
    assert [c["signature"] for c in doc["classes"]] == [c.signature for c in report.classes]
    assert all(c["clause_text"] for c in doc["classes"])
    md = to_markdown(written)
    assert md.count("\n## ") == len(report.classes)
    for c in written.classes:
        assert c.record and c.first_record
        for path in (c.record, c.first_record):
            assert check_record(path).status == "divergence"
    text = "\n".join(summary_lines(written))
    assert f"{len(report.classes)} class(es) of divergence" in text
    assert "SP-COST-6: All reductions add up" in text


def test_each_class_names_its_action_by_text(report: CampaignReport) -> None:
    """A class found on an action (accepted-illegal T6-SELECT-2, legal-missing T6-LOGIC-1, legal-extra
    SP-HAND-2) names it by its text in the reference's position there, with its seat, before its canonical
    JSON: in the message, the summary and the Markdown.  ``arbiter check``, replaying the class's record on
    its own, names the accepted illegal action by the same text."""
    from engine.conformance.peers.protocol import canonical

    triggered = 0
    for c in report.classes:
        best = c.best
        shown = best.action_shown()
        assert (shown is None) == (best.trigger is None), c.signature
        if best.trigger is None:
            continue
        triggered += 1
        seat, value = best.trigger
        assert shown is not None and shown.startswith(f"seat {seat}: 'P{seat} ") and shown.endswith(
            canonical(value)
        ), shown
        text = shown.split("'")[1]
        assert f"{text!r} {canonical(value)}" in best.message, best.message
        if c.kind == "accepted-illegal":
            checked = replay(best).divergence
            assert checked is not None and checked.record.startswith(f"player {seat}: {text!r} "), checked
    assert triggered >= 3
    assert "\n".join(summary_lines(report)).count("\n    action:  seat ") == triggered
    assert to_markdown(report).count("\n- action: `seat ") == triggered


@pytest.mark.parametrize(
    ("factory", "kw", "clause"),
    [
        (FewestHeadsPeer, {"games": ("take6",), "variants": ("standard",)}, "T6-PLACE-3"),
        (FreeCardsPeer, {"games": ("petersburg",), "players": (1,), "max_steps": 60}, "SP-COST-6"),
        (LenientPeer, {"games": ("take6",)}, None),
    ],
)
def test_each_shipped_wrong_peer_is_named_first_by_the_clause_its_defect_breaks(
    factory: Any, kw: dict[str, Any], clause: str | None
) -> None:
    """Every divergence names first the clause whose outcome differs: the low-card rule for the peer that
    chooses rows itself, the minimum cost for the free-cards peer, the clause the accepted action breaks
    for the lenient peer; ``arbiter check`` names the same clause first."""
    found = fuzz(in_process(factory), examples=30, seed=1, **kw).divergence
    assert found is not None
    if clause is None:  # the lenient peer: whichever rule the probe broke
        assert found.kind == "accepted-illegal"
        checked = replay(found)
        assert checked.divergence is not None
        clause = checked.divergence.clauses[0]
    assert found.clauses[0] == clause
    checked = replay(found)
    assert checked.divergence is not None and checked.divergence.clauses[0] == clause


def test_waiver_files_are_validated(tmp_path: Path) -> None:
    """A waiver file is TOML with [[waiver]] tables of signature and reason; anything else is refused
    naming the field."""
    good = tmp_path / "w.toml"
    good.write_text('[[waiver]]\nsignature = "take6:to_act:*"\nreason = "known"\n', encoding="utf-8")
    assert load_waivers(good) == (Waiver("take6:to_act:*", "known"),)
    for text, needle in [
        ('[[waiver]]\nsignature = "x"\n', "waiver[0].reason"),
        ('[[waiver]]\nsignature = "x"\nreason = "r"\nwhy = 1\n', "waiver[0].why"),
        ("[[waivers]]\n", "unknown table"),
        ("not toml = = \n", "not TOML"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=needle.replace("[", r"\[").replace("]", r"\]")):
            load_waivers(bad)


def test_cli_campaign_writes_reports_and_exits_1(tmp_path: Path, capsys: Any) -> None:
    """``arbiter fuzz --games N`` against the multi-defect peer (a subprocess, two jobs): exit 1, the
    summary on stdout, --report FILE.json valid against the schema, FILE.md, and the records in --out."""
    out, rj, rm = tmp_path / "out", tmp_path / "r.json", tmp_path / "r.md"
    waive = tmp_path / "w.toml"
    waive.write_text(
        '[[waiver]]\nsignature = "take6:legal-missing:*"\nreason = "logic is not ours"\n', encoding="utf-8"
    )
    code = main(
        [
            "fuzz",
            "--peer",
            f"{PY} -m engine.conformance.peers.multi --defects logic-draft,low-card",
            "--game",
            "take6",
            "--games",
            "16",
            "--jobs",
            "2",
            "--seed",
            "1",
            "--shrink-time",
            "2",
            "--waive",
            str(waive),
            "--out",
            str(out),
            "--report",
            str(rj),
            "--report",
            str(rm),
            "--quiet",
        ]
    )
    assert code == 1
    text = capsys.readouterr().out
    assert "T6-PLACE-3" in text and "WAIVED take6:legal-missing:T6-LOGIC-1:draft" in text
    doc = json.loads(rj.read_text(encoding="utf-8"))
    validate_json(doc)
    assert rm.read_text(encoding="utf-8").split("\n", 1)[1].startswith("# Conformance campaign")  # seal first
    assert sorted(p.name for p in out.iterdir() if not p.name.endswith(".first.jsonl"))


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--games", "4", "--examples", "3"], "--examples"),
        (["--games", "4", "--report", "r.txt"], "must end in .json or .md"),
        (["--jobs", "2"], "only with a campaign"),
        (["--games", "4", "--time", "3"], "not allowed with argument"),
        (["--games", "4", "--waive", "/no/such.toml"], "cannot read"),
    ],
)
def test_cli_campaign_bad_arguments_exit_2(args: list[str], needle: str, capsys: Any) -> None:
    """Campaign arguments are checked before any game: one line, exit 2."""
    try:
        code = main(["fuzz", "--peer", f"{PY} -m engine.conformance.peers.reference", *args])
    except SystemExit as exc:  # argparse's own refusals
        code = int(str(exc.code))
    err = capsys.readouterr().err
    assert code == 2 and needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_fuzz_out_to_an_unwritable_path_is_refused_before_the_run(tmp_path: Path) -> None:
    """Issue 10: ``--out`` to a path that cannot be written is refused at once (exit 2), in both modes,
    so no divergence is found and then lost."""
    started = time.monotonic()
    peer = f"{PY} -m engine.conformance.peers.take6_fewest_heads"
    for args in (["--out", "/proc/no/such/dir/x.jsonl"], ["--games", "50", "--out", "/proc/forbidden"]):
        proc = subprocess.run(
            [PY, "-m", "engine", "fuzz", "--peer", peer, *args], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and "--out" in proc.stderr and "Traceback" not in proc.stderr
    assert time.monotonic() - started < 30


def test_a_peer_command_that_cannot_be_split_exits_2_with_one_line() -> None:
    """Issue 10: ``--peer "python '"`` (an unclosed quote) is bad input: exit 2, one line, no traceback."""
    proc = subprocess.run(
        [PY, "-m", "engine", "fuzz", "--peer", "python '"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "--peer" in proc.stderr and "Traceback" not in proc.stderr


def test_a_hello_with_a_5000_digit_integer_is_garbage(tmp_path: Path) -> None:
    """Issue 10: a peer whose hello holds a 5,000-digit integer is reported as garbage (exit 1), not a
    crash of the harness."""
    script = tmp_path / "peer.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        '    print(\'{"ok": true, "protocol": \' + \'7\' * 5000 + \', "games": {"take6": ["standard"]}}\','
        " flush=True)\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [PY, "-m", "engine", "fuzz", "--peer", f"{PY} {script}", "--examples", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert "divergence (garbage)" in proc.stdout and "5000 digits" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_each_variant_takes_its_player_range_from_the_hello() -> None:
    """A peer that plays kids only with 2 to 6 players declares it in its hello; the harness generates no
    kids game with more, while the other variants keep their full range."""
    from engine.conformance.campaign.fuzz import player_counts
    from engine.conformance.peers.protocol import Hello, parse_reply

    hello = parse_reply(
        json.dumps(
            {
                "ok": True,
                "protocol": 1,
                "name": "p",
                "games": {"take6": ["standard", {"variant": "kids", "players": [2, 6]}]},
            }
        ),
        "hello",
    )
    assert isinstance(hello, Hello)
    assert hello.games == {"take6": ("standard", "kids")}
    counts = player_counts(hello.games, None, hello.players)
    assert counts["take6/kids"] == (2, 3, 4, 5, 6)
    assert counts["take6/standard"] == tuple(range(2, 11))
    with pytest.raises(InputError, match="--players"):
        player_counts({"take6": ("kids",)}, [8], hello.players)


def _start_campaign() -> subprocess.Popen[str]:
    """A campaign far too long to end by itself, its progress on a pipe."""
    return subprocess.Popen(
        [
            PY,
            "-m",
            "engine",
            "fuzz",
            "--peer",
            f"{PY} -m engine.conformance.peers.multi",
            "--game",
            "take6",
            "--games",
            "1000000",
            "--jobs",
            "2",
            "--seed",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_ctrl_c_reports_what_was_found_and_exits_with_the_usual_code() -> None:
    """Ctrl-C during a campaign stops it: the classes the finished batches found are reported (marked
    interrupted, not shrunk) and the exit code is 1 as for any open class; no worker or peer is left.
    Events decide, never the clock: the campaign is far too long to end by itself, the signal is sent once
    the first batch has reported, and the run must end because of it."""
    import signal

    # A suite started in the background of a script runs with SIGINT ignored (POSIX), and the campaign would
    # inherit that and never see the signal; a handler, unlike SIG_IGN, is not inherited across exec, so the
    # campaign starts with the default disposition, as when it is run from a terminal.
    ignored = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = _start_campaign()
    finally:
        signal.signal(signal.SIGINT, ignored)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the first progress line: a batch is done, however loaded the machine
    if first.startswith("arbiter: --jobs"):  # a machine with one core says it starts one worker
        first = proc.stderr.readline()
    assert first.startswith("campaign: "), "plain progress lines on stderr when it is not a terminal"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=600)  # only a guard against a hang: the signal ends the run
    assert proc.returncode == 1, err
    assert "interrupted" in out and "class(es) of divergence" in out
    assert "Traceback" not in first + err


def test_ctrl_c_in_a_pool_is_raised_where_the_campaign_waits_and_stop_ends_the_running_batches() -> None:
    """With worker processes, Ctrl-C is noted and raised as KeyboardInterrupt by ``wait`` (never inside the
    pool's own locking, which could leave a future's lock held and the exit waiting for ever); ``stop`` then
    ends the workers in the middle of their work instead of waiting for it, and gives Ctrl-C back."""
    import os
    import signal

    from engine.conformance.campaign.executors import Pool

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        pool = Pool(1)
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler, "the pool notes Ctrl-C"
        running = pool.submit(time.sleep, 3600)  # far longer than the test: only stop() can end it
        workers = list(pool._pool._processes.values())
        os.kill(os.getpid(), signal.SIGINT)  # noted, not raised here
        with pytest.raises(KeyboardInterrupt):
            pool.wait({running})
        pool.stop()
        assert workers and not any(w.is_alive() for w in workers), "the running work is ended, not awaited"
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        pool.shutdown()
    finally:
        signal.signal(signal.SIGINT, previous)


def test_names_lists_canonical_names_and_aliases(capsys: Any) -> None:
    """``arbiter names``: the canonical spelling of every card per edition and the aliases accepted on
    input (the second edition's Czar & Carpenter is also read as the first edition's name)."""
    assert main(["names", "petersburg", "--variant", "second", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = {r["name"]: r for r in doc["variants"]["second"]}
    assert "Czar and Carpenter" in rows["Czar & Carpenter"]["aliases"]
    assert sum(r["copies"] for r in rows.values()) == 116
    assert main(["names", "take6", "--variant", "tactics"]) == 0
    text = capsys.readouterr().out
    assert "104 cards" in text and "players 3-10" in text
    assert main(["names", "take6", "--variant", "nope"]) == 2


def test_check_jobs_keeps_the_order_of_the_files(tmp_path: Path, capsys: Any) -> None:
    """``arbiter check --jobs 2`` over many files reports every file, in the order given, with the same
    outcome as one job."""
    from engine.conformance.records.format import record_game

    paths = []
    for i in range(6):
        path = tmp_path / f"r{i}.jsonl"
        write_record(path, record_game("take6", players=2, seed=i, actions=[]))
        paths.append(str(path))
    (tmp_path / "r9.jsonl").write_text("not json\n", encoding="utf-8")
    paths.append(str(tmp_path / "r9.jsonl"))
    assert main(["check", "--json", "--jobs", "2", *paths]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert [r["path"] for r in doc["records"]] == paths
    assert [r["status"] for r in doc["records"]] == ["ok"] * 6 + ["malformed"]


def test_bench_check_prints_median_cpu_figures(capsys: Any) -> None:
    """``arbiter bench check`` prints, per record set, the median CPU time of a run with its spread and the
    actions/s per core (figures are printed, never asserted)."""
    assert main(["bench", "check", "--seconds", "0.2", "--repeat", "2"]) == 0
    text = capsys.readouterr().out
    assert "median CPU/run" in text and "actions/s per core" in text and text.count("±") == 8


class _NoPassPeer(MultiDefectPeer):
    """Refuses every pass (a legal action by SP-TURN-3) while offering it."""

    def __init__(self) -> None:
        super().__init__(())

    def do_apply(self, player: int, action: Any) -> None:
        if isinstance(action, dict) and action.get("type") == "pass":
            from engine.errors import IllegalAction

            raise IllegalAction("X-1", "we never pass")
        super().do_apply(player, action)


def test_a_refused_legal_action_replays_as_a_missing_action_in_check() -> None:
    """SP-TURN-3: passing is always allowed.  A peer refusing a pass is a ``refused-legal`` divergence named
    by that clause; its record claims the peer's effective legal set (without the pass), so ``arbiter
    check`` reports the pass as missing, with the same clause, instead of replaying OK."""
    found = fuzz(
        in_process(_NoPassPeer), games=("petersburg",), players=(1,), examples=20, seed=1, max_steps=40
    ).divergence
    assert found is not None and found.kind == "refused-legal"
    assert found.clauses[0] == "SP-TURN-3"
    checked = replay(found)
    assert checked.status == "divergence" and checked.divergence is not None
    assert checked.divergence.fact == "legal" and checked.divergence.clauses[0] == "SP-TURN-3"
    assert [a["type"] for a, _c in checked.divergence.missing] == ["pass"]


def test_peers_that_break_the_protocol_name_no_rule() -> None:
    """The crash and garbage peers break the protocol, not a rule: their divergences name no clause, and
    their class is told by the request they failed on."""
    from engine.conformance.peers.crash import CrashPeer
    from engine.conformance.peers.garbage import GarbagePeer

    for factory, kind in ((CrashPeer, "crash"), (GarbagePeer, "garbage")):
        found = fuzz(in_process(factory), games=("take6",), examples=10, seed=1).divergence
        assert found is not None and found.kind == kind
        assert found.clauses == ()
        assert found.signature.startswith(f"take6:{kind}:-:") and found.detail != "-"


def test_a_time_budget_ends_the_campaign_and_the_report_schema_is_a_valid_schema() -> None:
    """``--time SECONDS``: games are played until the budget is spent (no game starts after it), then the
    campaign reports; the shipped report schema is itself a valid JSON Schema (2020-12)."""
    from jsonschema import Draft202012Validator

    from engine.conformance.records.format import schema

    started = time.monotonic()
    timed = run_campaign(in_process(MultiDefectPeer), seconds=2.0, jobs=1, seed=1, shrink=False)
    assert timed.games > 0 and time.monotonic() - started < 30
    Draft202012Validator.check_schema(schema("campaign-report"))
    validate_json(timed.to_json())
