"""A campaign's report: its classes, the records of every class in ``--out DIR``, the summary, JSON, Markdown.

* :func:`write_records` writes each class's shrunk record (``NN-<signature>.jsonl``) and its first,
  unshrunk occurrence beside it (``NN-<signature>.first.jsonl``); ``arbiter check`` replays both.  With
  positions, the shrunk record starts from the counterexample's position, and the counterexample is also
  a test vector (``NN-<signature>.vector.json``, one line of ``arbiter vectors``' ``<game>.jsonl``).
* :func:`summary_lines`: the readable summary (classes by count: kind, deciding clause and its wording,
  shrunk size, record path; games, actions, probes, waived).
* :func:`to_markdown`: the same for a bug tracker, one section per class with the shrunk record inline.
* ``CampaignReport.to_json()`` is the ``--report FILE.json`` document, valid against
  ``schemas/campaign-report.schema.json`` (:func:`validate_json`).

>>> r = CampaignReport("p", 1, 2, "processes", 8, 90, 9, 0, 2.0, 1.5, ())
>>> summary_lines(r)[-1]
'no divergence'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from attrs import evolve, field, frozen

from engine import outputs
from engine.conformance.campaign.divergence import Divergence
from engine.conformance.campaign.positions import origin_size
from engine.conformance.records.format import dumps_line, validator, write_record
from engine.errors import InputError

__all__ = [
    "CampaignReport",
    "DivergenceClass",
    "check_out_dir",
    "summary_lines",
    "to_markdown",
    "validate_json",
    "write_records",
]


@frozen
class DivergenceClass:
    """One class of divergence: every occurrence shares ``signature``."""

    signature: str
    count: int
    first: Divergence
    """The first occurrence (lowest batch, then ordinal), unshrunk."""
    shrunk: Divergence | None = None
    waived: str | None = None
    """The waiver's reason, when waived."""
    shrink_seconds: float = 0.0
    record: str | None = None
    """Where the shrunk record was written."""
    first_record: str | None = None
    batch: int = 0
    """The batch of the first occurrence (replayed to shrink it)."""
    vector: Mapping[str, Any] | None = field(default=None, eq=False)
    """The shrunk counterexample as a test vector (a campaign with positions), when it has a clause."""
    vector_path: str | None = None
    """Where the vector was written."""

    @property
    def kind(self) -> str:
        """The divergence kind."""
        return self.first.kind

    @property
    def clause(self) -> str | None:
        """The deciding clause, if any."""
        return self.first.clauses[0] if self.first.clauses else None

    @property
    def best(self) -> Divergence:
        """The shrunk divergence, else the first."""
        return self.shrunk or self.first


@frozen
class CampaignReport:
    """What a campaign played and found."""

    peer: str
    seed: int
    jobs: int
    executor: str
    games: int
    steps: int
    probes: int
    aborted: int
    seconds: float
    cpu: float
    classes: tuple[DivergenceClass, ...]
    interrupted: bool = False
    skipped: tuple[str, ...] = ()
    waived_games: int = field(default=0)
    play_seconds: float = 0.0
    """Wall-clock time of the games (``seconds`` includes shrinking)."""
    positions: bool = False
    """The peer declares the ``position`` capability and the campaign used it: every divergence of a game
    was seen (the peer put back on the reference's position after each), so no class hides another."""
    digest: str = ""
    """A digest of every game played, in batch order: the same seed and games give the same digest through
    ``--jobs``, ``--ray`` and the API."""

    @property
    def games_per_second(self) -> float:
        """Games played per wall-clock second of play."""
        spent = self.play_seconds or self.seconds
        return self.games / spent if spent > 0 else 0.0

    @property
    def open_classes(self) -> tuple[DivergenceClass, ...]:
        """The classes not waived."""
        return tuple(c for c in self.classes if c.waived is None)

    def hiding_note(self) -> str | None:
        """Which classes may hide others: without positions every divergence ends its game, so a class (a
        waived one too) may hide any defect later in the games it ended; ``None`` with positions."""
        if self.positions or not self.classes:
            return None
        ended = sum(c.count for c in self.classes)
        return (f"without positions (the peer does not declare the 'position' capability, or "
                f"--no-positions) each of the {len(self.classes)} classes ended the games it occurred in "
                f"({ended} in all), so each may hide other defects later in those games (waived classes "
                "included)")

    @property
    def exit_code(self) -> int:
        """1 when a class is not waived, else 0."""
        return 1 if self.open_classes else 0

    def to_json(self, clause_text: Callable[[str, str], str] | None = None) -> dict[str, Any]:
        """The JSON report (``schemas/campaign-report.schema.json``)."""
        wording = clause_text or _clause_text

        def occurrence(d: Divergence, path: str | None) -> dict[str, Any]:
            return {
                "actions": d.steps,
                "players": d.setup.players,
                "variant": d.setup.variant,
                "message": d.message,
                "clauses": list(d.clauses),
                "record": path,
                "differences": [x.to_json() for x in d.differences],
            }

        def counterexample(c: DivergenceClass) -> dict[str, Any] | None:
            origin = c.best.origin
            if not self.positions or origin is None:
                return None
            seats, cards = origin_size(c.first.setup.game, origin)
            first_seats, first_cards = (
                origin_size(c.first.setup.game, c.first.origin) if c.first.origin else (seats, cards))
            return {
                "position": origin.notation,
                "action": None if origin.action is None else {"player": origin.action[0],
                                                              "action": origin.action[1]},
                "seats": seats,
                "cards": cards,
                "first_seats": first_seats,
                "first_cards": first_cards,
                "vector": c.vector_path,
            }

        return {
            "format": "arbiter-campaign-report",
            "version": 1,
            "peer": self.peer,
            "seed": self.seed,
            "jobs": self.jobs,
            "executor": self.executor,
            "interrupted": self.interrupted,
            "games": self.games,
            "actions": self.steps,
            "probes": self.probes,
            "aborted": self.aborted,
            "seconds": round(self.seconds, 3),
            "play_seconds": round(self.play_seconds, 3),
            "cpu_seconds": round(self.cpu, 3),
            "games_per_second": round(self.games_per_second, 3),
            "waived_games": self.waived_games,
            "skipped": list(self.skipped),
            "positions": self.positions,
            "hiding": self.hiding_note(),
            "games_digest": self.digest,
            "classes": [
                {
                    "signature": c.signature,
                    "game": c.first.setup.game,
                    "kind": c.kind,
                    "clause": c.clause,
                    "clause_text": wording(c.first.setup.game, c.clause) if c.clause else None,
                    "detail": c.first.detail,
                    "count": c.count,
                    "waived": c.waived,
                    "first": occurrence(c.first, c.first_record),
                    "shrunk": None
                    if c.shrunk is None
                    else {**occurrence(c.shrunk, c.record), "seconds": round(c.shrink_seconds, 3)},
                    "may_hide": not self.positions,
                    "counterexample": counterexample(c),
                }
                for c in self.classes
            ],
        }


def _clause_text(game: str, clause: str) -> str:
    from engine.game import get_game

    book = get_game(game).clauses
    return book[clause].text if clause in book else ""


def _slug(signature: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", signature).strip("_")


CLASS_FILE = re.compile(r"\d{2,}-.+\.(?:first\.jsonl|jsonl|vector\.json)")
"""The names a campaign gives the files of its classes (``01-take6-claim-....first.jsonl``)."""


def check_out_dir(path: str | Path) -> Path:
    """Create ``path`` (a directory) if needed and make sure it can be written, before the run starts; a
    file there that a class's file could be named like and this engine did not write is refused now, not
    when the run is over."""
    target = Path(path)
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".arbiter-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
        names = sorted(p.name for p in target.iterdir() if CLASS_FILE.fullmatch(p.name))
    except OSError as exc:
        raise InputError("--out", f"cannot write to {path}: {exc.strerror or exc}") from None
    for name in names:
        kind = outputs.VECTOR_CASE if name.endswith(".vector.json") else outputs.RECORD
        outputs.guard(target / name, source="--out", kind=kind)
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
        vector = None
        if c.vector is not None:
            vector = target / f"{stem}.vector.json"
            outputs.write(vector, dumps_line(dict(c.vector)) + "\n", source="--out", kind=outputs.VECTOR_CASE)
        classes.append(evolve(c, record=str(record) if record else None, first_record=str(first_path),
                              vector_path=str(vector) if vector else None))
    return evolve(report, classes=tuple(classes))


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _size(c: DivergenceClass) -> str:
    first = c.first
    text = f"{_n(first.steps, 'action')}, {_n(first.setup.players, 'player')}"
    shrunk = c.shrunk
    if shrunk is not None and shrunk.start is not None and shrunk.origin is not None:
        seats, cards = origin_size(first.setup.game, shrunk.origin)
        one = "1 action" if shrunk.origin.action is not None else "no action"
        return f"1 position ({_n(seats, 'seat')}, {_n(cards, 'card')} in play) and {one} (first: {text})"
    if shrunk is not None and shrunk.size != first.size:
        text = f"{_n(shrunk.steps, 'action')}, {_n(shrunk.setup.players, 'player')} (first: {text})"
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
    note = report.hiding_note()
    lines.append(f"note: {note}" if note else "positions: the peer was put back on the reference's position "
                 "after every divergence, so no class hides another")
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
        action = c.best.action_shown()
        if action is not None:
            lines.append(f"    action:  {action}")
        for other in c.best.differences[1:]:
            lines.append(f"    also:    {other.kind} ({other.about}): {other.message}")
        if c.waived is not None:
            lines.append(f"    waived:  {c.waived}")
        if c.record or c.first_record:
            lines.append(f"    record:  {c.record or c.first_record}")
        if c.vector_path:
            lines.append(f"    vector:  {c.vector_path}")
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
    note = report.hiding_note()
    out += [f"**Hiding**: {note}." if note else "**Positions**: the peer was put back on the reference's "
            "position after every divergence, so no class hides another.", ""]
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
        action = c.best.action_shown()
        if action is not None:
            out.append(f"- action: `{action}`")
        out += [f"- also differs: {d.kind} (`{d.about}`): {d.message}" for d in c.best.differences[1:]]
        if c.vector is not None:
            where = f" (`{c.vector_path}`)" if c.vector_path else ""
            out += ["", f"Test vector{where}:", "", "```json", dumps_line(dict(c.vector)), "```"]
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
