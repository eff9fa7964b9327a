"""A campaign's report says only what happened (docs/robustness.md, round three, class 8; docs/fuzzing.md).

* A peer that declares ``position`` and then fails it (refuses, answers garbage, hangs, exits) when the
  campaign puts it back on the reference's position after a divergence loses the rest of that game: the
  report says so as lost coverage, never "no class hides another".
* The progress line counts classes as the summary does (a candidate set a position discriminated is one
  class in both).
* A ``|``-joined candidate set stays one cell of a Markdown table, and each candidate's wording is given.
* Divergences nothing explains are one class per game and deciding clause, whatever their kind, fact or
  card; the peer's own failures keep their signatures, and so does a divergence a waiver names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.conformance.campaign.divergence import Divergence
from engine.conformance.campaign.grouping import Waiver, group
from engine.conformance.campaign.report import (
    CampaignReport,
    DivergenceClass,
    summary_lines,
    to_markdown,
    validate_json,
)
from engine.conformance.campaign.runner import BatchResult, CampaignProgress, run_campaign
from engine.conformance.campaign.setups.base import GameSetup
from engine.conformance.diagnosis import rates
from engine.conformance.peers.base import ReferencePeer
from engine.conformance.peers.launch import in_process, subprocess_peer
from engine.game import get_game

# A 6 nimmt! peer with one rule defect (it takes a row for the player, so positions are needed after every
# low card) that declares ``position`` and then fails it in the way the first argument says.
FAILING_POSITION = '''
import os, sys, time
from engine.conformance.peers.base import serve
from engine.conformance.peers.take6_fewest_heads import FewestHeadsPeer

MODE = sys.argv[1]

class FailsPosition(FewestHeadsPeer):
    def handle_line(self, line):
        if '"cmd":"position"' not in line.replace(" ", ""):
            return super().handle_line(line)
        if MODE == "refuse":
            return self.refuse("illegal", "no positions today")
        if MODE == "garbage":
            return "position? what position"
        if MODE == "hang":
            time.sleep(600)
        os._exit(5)

serve(FailsPosition())
'''

CLAIMED = ("the peer was put back on the reference's position after every divergence, so no class hides "
           "another")


@pytest.mark.parametrize("mode", ["refuse", "garbage", "hang", "exit"])
def test_a_failed_return_to_the_position_is_reported_as_lost_coverage(tmp_path: Path, mode: str) -> None:
    """Every game where the peer failed its ``position`` request ends there; the report counts those games
    as lost coverage (summary, Markdown, JSON) and never claims that no class hides another."""
    script = tmp_path / "fails_position.py"
    script.write_text(FAILING_POSITION, encoding="utf-8")
    factory = subprocess_peer([sys.executable, str(script), mode], timeout=1.5)
    report = run_campaign(factory, games=6, jobs=1, seed=3, max_steps=80, game_names=["take6"], shrink=False)
    assert report.positions
    summary = "\n".join(summary_lines(report))
    assert CLAIMED not in summary
    assert "lost coverage" in summary and "the rest of those games was not played" in summary
    lost = [c for c in report.classes if c.lost_position]
    assert lost, [c.signature for c in report.classes]
    assert all(c.signature.endswith(":position") for c in lost)
    assert report.lost_games == sum(c.count for c in lost) >= 1
    assert "no class hides another" not in to_markdown(report)
    doc = report.to_json()
    validate_json(doc)
    assert doc["lost_games"] == report.lost_games
    assert all(c["may_hide"] and c["lost_coverage"]
               for c in doc["classes"] if c["signature"].endswith(":position"))


def _claim(clause: str, subject: str, money: int) -> Divergence:
    return Divergence("claim", "money differs", GameSetup("petersburg", "first", 2, None), (),
                      peer_claims={"money": [money, 25]}, clauses=(clause,), subject=subject)


def test_the_progress_line_counts_classes_as_the_summary_does() -> None:
    """A candidate set (``SP-COST-3|SP-COST-4``) that another divergence of the campaign discriminated is
    one class in the summary, and so in the progress line: both say one class."""
    both = _claim("SP-COST-3|SP-COST-4", "Gold Smelter|lower row", 20)
    one = _claim("SP-COST-3", "lower row", 21)
    result = BatchResult(0, 4, 40, 2, 0, ((0, both), (1, one)), counts={both.signature: 1, one.signature: 1})
    progress = CampaignProgress(4, None, 0.0)
    progress.add(result, ())
    classes = group({0: result}, ())
    report = CampaignReport("p", 1, 1, "inline", 4, 40, 2, 0, 1.0, 1.0, classes)
    assert len(classes) == 1
    assert "1 class(es) of divergence (0 diagnosed, 1 unexplained), 0 waived" in summary_lines(report)[2]
    assert ", 1 classes, 0 waived," in progress.line()


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table row (a ``\\|`` is a pipe inside a cell)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def test_a_candidate_set_is_one_table_cell_and_carries_every_wording() -> None:
    """The signature and the deciding entry of a class named by a candidate set keep their ``|`` inside
    their cells (escaped), and the report quotes the wording of each candidate, in Markdown, the summary
    and the JSON report."""
    div = _claim("SP-COST-3|SP-COST-4", "Gold Smelter|lower row", 20)
    report = CampaignReport("p", 1, 1, "inline", 4, 40, 2, 0, 1.0, 1.0,
                            (DivergenceClass(div.signature, 3, div),))
    markdown = to_markdown(report)
    header, rule, row = [line for line in markdown.splitlines() if line.startswith("|")]
    assert len(_cells(header)) == len(_cells(rule)) == len(_cells(row)) == 7
    assert _cells(row)[2] == r"unexplained: SP-COST-3\|SP-COST-4"
    book = get_game("petersburg").clauses
    for clause in ("SP-COST-3", "SP-COST-4"):
        assert f"> **{clause}**: {book[clause].text}" in markdown
        assert f"{clause}: {book[clause].text}" in "\n".join(summary_lines(report))
        assert f"{clause}: {book[clause].text}" in report.to_json()["classes"][0]["clause_text"]


def _divergence(kind: str, clause: str, detail: str = "", subject: str = "") -> Divergence:
    trigger = (0, {"type": detail, "player": 0}) if detail else None
    claims = {"money": [20, 25]} if kind == "claim" else None
    return Divergence(kind, f"{kind} differs", GameSetup("petersburg", "first", 2, None), (),
                      peer_claims=claims, clauses=(clause,) if clause else (), subject=subject,
                      trigger=trigger)


def test_unexplained_divergences_are_one_class_per_deciding_clause() -> None:
    """One defect seen in several ways (a money claim on two cards, a buy missing, a buy refused, all
    decided by SP-COST-1) is one class, ``petersburg:unexplained:SP-COST-1``, the kinds listed; another
    clause is another class; a crash keeps its own signature; a divergence a waiver names stays a class of
    its own, waived."""
    found = [
        _divergence("claim", "SP-COST-1", subject="Pope"),
        _divergence("claim", "SP-COST-1", subject="Abbot"),
        _divergence("legal-missing", "SP-COST-1", "buy"),
        _divergence("refused-legal", "SP-COST-1", "buy"),
        _divergence("legal-missing", "SP-HAND-4", "play"),
        _divergence("crash", "", "apply"),
    ]
    assert len({d.signature for d in found}) == 6
    result = BatchResult(0, 6, 60, 0, 0, tuple(enumerate(found)), counts={d.signature: 1 for d in found})
    classes = {c.signature: c for c in group({0: result}, ())}
    assert set(classes) == {"petersburg:unexplained:SP-COST-1", "petersburg:unexplained:SP-HAND-4",
                            found[-1].signature}
    assert found[-1].signature.startswith("petersburg:crash:")
    cost = classes["petersburg:unexplained:SP-COST-1"]
    assert cost.count == 4 and cost.kinds == ("claim", "legal-missing", "refused-legal")
    assert cost.first.signature == found[0].signature and cost.clause == "SP-COST-1"
    waived = {c.signature: c for c in group({0: result}, (Waiver("*:refused-legal:*", "known"),))}
    assert waived["petersburg:refused-legal:SP-COST-1:buy"].waived == "known"
    assert waived["petersburg:unexplained:SP-COST-1"].count == 3
    assert waived["petersburg:unexplained:SP-COST-1"].waived is None


class _WinnersInverted(ReferencePeer):
    """Defect: a slip in the winner test every variant shares: the seats the rules do not crown win."""

    name = "take6: winners inverted"

    def report(self) -> dict[str, Any]:
        out = super().report()
        if "winners" in out:
            out["winners"] = [p for p in range(self.players) if p not in out["winners"]]
        return out


def test_a_step_one_slip_breaks_in_every_variant_is_one_class() -> None:
    """T6-END-2 / T6-KIDS-4 (grouping, issue 25): the kids variant states the winner step under its own
    clause (T6-KIDS-4 ``restates`` T6-END-2), so a winner test inverted in code both variants share is one
    class, ``take6:unexplained:T6-END-2``, seen in both variants, not one class per variant's clause."""
    progress: list[CampaignProgress] = []
    report = run_campaign(in_process(_WinnersInverted), games=6, jobs=1, seed=3, shrink=False,
                          game_names=["take6"], variants=["standard", "kids"], players=[3], positions=True,
                          progress=progress.append)
    assert [c.signature for c in report.classes] == ["take6:unexplained:T6-END-2"], report.classes
    seen = {c for b in progress[-1].results.values() for _i, d in b.found for c in d.clauses}
    assert {"T6-END-2", "T6-KIDS-4"} <= seen, seen
    # the rates read the class as naming the step in every variant: its clause and the one restating it
    assert rates.found_classes(report)[0].clauses == ("T6-END-2", "T6-KIDS-4")
