"""A campaign's report: the records of every class in ``--out DIR``, the terminal summary, JSON and Markdown.

* :func:`write_records` writes each class's shrunk record (``NN-<signature>.jsonl``) and its first,
  unshrunk occurrence beside it (``NN-<signature>.first.jsonl``); ``arbiter check`` replays both.
* :func:`summary_lines`: the readable summary (classes by count: kind, deciding clause and its wording,
  shrunk size, record path; games, actions, probes, waived).
* :func:`to_markdown`: the same for a bug tracker, one section per class with the shrunk record inline.
* ``CampaignReport.to_json()`` is the ``--report FILE.json`` document, valid against
  ``schemas/campaign-report.schema.json`` (:func:`validate_json`).

>>> from engine.conformance.campaign import CampaignReport
>>> r = CampaignReport("p", 1, 2, "processes", 8, 90, 9, 0, 2.0, 1.5, ())
>>> summary_lines(r)[-1]
'no divergence'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from attrs import evolve

from engine.conformance.campaign import CampaignReport, DivergenceClass, _clause_text
from engine.conformance.records import dumps_line, validator, write_record
from engine.errors import InputError

__all__ = ["check_out_dir", "summary_lines", "to_markdown", "validate_json", "write_records"]


def _slug(signature: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", signature).strip("_")


def check_out_dir(path: str | Path) -> Path:
    """Create ``path`` (a directory) if needed and make sure it can be written, before the run starts."""
    target = Path(path)
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".arbiter-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise InputError("--out", f"cannot write to {path}: {exc.strerror or exc}") from None
    return target


def write_records(report: CampaignReport, out: str | Path) -> CampaignReport:
    """Write every class's records into ``out``; returns the report with the paths filled in."""
    target = check_out_dir(out)
    classes = []
    for i, c in enumerate(report.classes, start=1):
        stem = f"{i:02d}-{_slug(c.signature)}"
        first_path = target / f"{stem}.first.jsonl"
        write_record(first_path, c.first.to_record())
        record = None
        if c.shrunk is not None:
            record = target / f"{stem}.jsonl"
            write_record(record, c.shrunk.to_record())
        classes.append(evolve(c, record=str(record) if record else None, first_record=str(first_path)))
    return evolve(report, classes=tuple(classes))


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _size(c: DivergenceClass) -> str:
    first = c.first
    text = f"{_n(first.steps, 'action')}, {_n(first.setup.players, 'player')}"
    if c.shrunk is not None and c.shrunk.size != first.size:
        text = f"{_n(c.shrunk.steps, 'action')}, {_n(c.shrunk.setup.players, 'player')} (first: {text})"
    return text


def _headline(report: CampaignReport) -> str:
    aborted = f" ({report.aborted} more stopped half-way by the generator)" if report.aborted else ""
    spent = report.play_seconds or report.seconds
    shrink = report.seconds - spent
    return (
        f"played {report.games} games{aborted}, {report.steps} actions, {report.probes} illegal probes "
        f"in {spent:.1f} s ({report.games_per_second:.2f} games/s, {report.jobs} job(s), {report.executor})"
        + (f", then {shrink:.1f} s shrinking" if shrink >= 0.05 else "")
        + f"; seed {report.seed}"
    )


def summary_lines(report: CampaignReport) -> list[str]:
    """The readable summary of a campaign."""
    lines = [f"peer: {report.peer or '(unnamed)'}", _headline(report)]
    if report.interrupted:
        lines.append("interrupted: the classes below are what the finished batches found (not shrunk)")
    for name in report.skipped:
        lines.append(f"skipped {name}: the peer does not offer it (or none of the requested variants)")
    if not report.classes:
        lines.append("no divergence")
        return lines
    open_, waived = report.open_classes, [c for c in report.classes if c.waived is not None]
    lines.append(
        f"{len(open_)} class(es) of divergence, {len(waived)} waived ({report.waived_games} waived game(s))"
    )
    for i, c in enumerate(report.classes, start=1):
        game = c.first.setup.game
        mark = "WAIVED " if c.waived is not None else ""
        lines.append("")
        lines.append(f"{i:>2}. {mark}{c.signature}  x{c.count}")
        lines.append(f"    kind:    {c.kind}: {c.best.message}")
        if c.clause:
            lines.append(f"    clause:  {c.clause}: {_clause_text(game, c.clause)}")
            if len(c.best.clauses) > 1:
                lines.append(f"    context: {', '.join(c.best.clauses[1:])}")
        lines.append(f"    size:    {_size(c)}")
        if c.waived is not None:
            lines.append(f"    waived:  {c.waived}")
        if c.record or c.first_record:
            lines.append(f"    record:  {c.record or c.first_record}")
    return lines


def _jsonl(lines: Iterable[Any]) -> str:
    return "\n".join(dumps_line(line.to_json()) for line in lines)


def to_markdown(report: CampaignReport) -> str:
    """The report for a bug tracker: a summary table, then one section per class."""
    out = [f"# Conformance campaign: {report.peer or 'peer'}", "", _headline(report) + ".", ""]
    if report.interrupted:
        out += ["**Interrupted**: what the finished batches found, not shrunk.", ""]
    if not report.classes:
        return "\n".join([*out, "No divergence.", ""])
    out += [
        "| # | signature | kind | deciding clause | count | size | status |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, c in enumerate(report.classes, start=1):
        status = f"waived: {c.waived}" if c.waived is not None else "open"
        out.append(
            f"| {i} | `{c.signature}` | {c.kind} | {c.clause or '-'} | {c.count} | {_size(c)} | {status} |"
        )
    for i, c in enumerate(report.classes, start=1):
        game = c.first.setup.game
        out += ["", f"## {i}. {c.kind}: {c.clause or 'no clause'} (`{c.signature}`)", ""]
        if c.clause:
            out += [f"> **{c.clause}**: {_clause_text(game, c.clause)}", ""]
        out += [
            f"- what differs: {c.best.message}",
            f"- clauses: {', '.join(c.best.clauses) or '-'}",
            f"- occurrences: {c.count}; size: {_size(c)}",
        ]
        if c.waived is not None:
            out.append(f"- waived: {c.waived}")
        if c.record or c.first_record:
            out.append(
                f"- record: `{c.record or c.first_record}` (replay: `arbiter check "
                f"{c.record or c.first_record}`)"
            )
        records = list(c.best.to_record().lines())
        if len(records) <= 40:
            out += ["", "```jsonl", _jsonl(records), "```"]
    return "\n".join(out) + "\n"


def validate_json(document: Any) -> None:
    """Check a JSON report against ``campaign-report.schema.json``; raises InputError."""
    errors = sorted(validator("campaign-report").iter_errors(document), key=lambda e: list(e.path))
    if errors:
        where = ".".join(str(p) for p in errors[0].absolute_path) or "report"
        raise InputError(where, errors[0].message)
