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
from engine.conformance.campaign.duel import FAILURE_KINDS
from engine.conformance.campaign.positions import origin_size
from engine.conformance.diagnosis.words import described as diagnosis_described
from engine.conformance.diagnosis.words import lines as diagnosis_lines
from engine.conformance.records.format import dumps_line, record_text, validator
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
    kinds: tuple[str, ...] = ()
    """The kinds of the divergences the class holds (a diagnosis gathers a defect seen in several ways)."""
    counterexample_note: str = ""
    """Why a diagnosed class has no counterexample from its diagnosis (it was shrunk instead); ``""``."""
    faults: tuple[str, ...] = ()
    """The class's diagnosis: the signatures of the smallest set of faults explaining every divergence of
    the class (:mod:`engine.conformance.diagnosis`); ``()`` when nothing explains it (*unexplained*)."""

    @property
    def explained(self) -> bool:
        """Whether a diagnosis names the class."""
        return bool(self.faults)

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

    @property
    def lost_position(self) -> bool:
        """The peer failed to go back to the reference's position after a divergence: the rest of each game
        of this class was not played (lost coverage)."""
        return self.first.lost_position

    @property
    def ends_games(self) -> bool:
        """Its divergences ended their games whatever the mode: the peer's own failures."""
        return self.kind in FAILURE_KINDS


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
    """The peer declares the ``position`` capability and the campaign used it: after every divergence the
    peer was put back on the reference's position and the game went on (:meth:`hiding_note` says where
    that failed)."""
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

    @property
    def lost_games(self) -> int:
        """Games whose rest was not played because the peer failed to go back to the reference's position
        after a divergence (refused ``position``, answered garbage, hung or exited): lost coverage."""
        return sum(c.count for c in self.classes if c.lost_position)

    def may_hide(self, c: DivergenceClass) -> bool:
        """Whether class ``c`` ended the games it occurred in, so it may hide defects later in them: every
        class without positions; with them, the peer's own failures (a failed return to the position
        among them)."""
        return not self.positions or c.ends_games

    def hiding_note(self) -> str | None:
        """Which classes may hide others, or ``None`` when none may: without positions every divergence ends
        its game, so a class (a waived one too) may hide any defect later in the games it ended; with them,
        only the peer's own failures end a game — first of all a failed return to the reference's position,
        reported as lost coverage."""
        if not self.classes:
            return None
        if not self.positions:
            ended = sum(c.count for c in self.classes)
            return (f"without positions (the peer does not declare the 'position' capability, or "
                    f"--no-positions) each of the {len(self.classes)} classes ended the games it occurred in "
                    f"({ended} in all), so each may hide other defects later in those games (waived classes "
                    "included)")
        numbered = list(enumerate(self.classes, start=1))
        lost = [(i, c) for i, c in numbered if c.lost_position]
        failed = [(i, c) for i, c in numbered if c.ends_games and not c.lost_position]
        parts = []
        if lost:
            parts.append(
                f"lost coverage: in {_n(sum(c.count for _, c in lost), 'game')} the peer failed to go back "
                f"to the reference's position after a divergence ({_named(lost)}), so the rest of those "
                "games was not played and a class may hide another there"
            )
        if failed:
            parts.append(
                f"{_n(sum(c.count for _, c in failed), 'game')} ended at the peer's own failure "
                f"({_named(failed)}), so a class may hide another later in them"
            )
        return "; ".join(parts) or None

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
            "lost_games": self.lost_games,
            "games_digest": self.digest,
            "classes": [
                {
                    "signature": c.signature,
                    "diagnosis": diagnosis_described(c.faults) if c.faults else None,
                    "kinds": list(c.kinds or (c.kind,)),
                    "counterexample_note": c.counterexample_note,
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
                    "may_hide": self.may_hide(c),
                    "lost_coverage": c.lost_position,
                    "counterexample": counterexample(c),
                }
                for c in self.classes
            ],
        }


def _wordings(game: str, clause: str) -> list[tuple[str, str]]:
    """Each clause of ``clause`` (one id, or a ``|``-joined candidate set) with its wording."""
    from engine.game import get_game

    book = get_game(game).clauses
    return [(c, book[c].text if c in book else "") for c in clause.split("|")]


def _clause_text(game: str, clause: str) -> str:
    """The wording of a clause; of a candidate set, each candidate's, ``id: wording`` joined by `` | ``."""
    found = _wordings(game, clause)
    if len(found) == 1:
        return found[0][1]
    return " | ".join(f"{c}: {text}" for c, text in found)


def _named(numbered: list[tuple[int, DivergenceClass]]) -> str:
    """``class 3: timeout`` / ``classes 2 (garbage), 5 (crash)``: classes by their number in the report."""
    if len(numbered) == 1:
        return f"class {numbered[0][0]}: {numbered[0][1].kind}"
    return "classes " + ", ".join(f"{i} ({c.kind})" for i, c in numbered)


def _cell(text: str) -> str:
    """``text`` as one cell of a Markdown table: a ``|`` (a candidate set's) escaped, even in code."""
    return text.replace("|", "\\|").replace("\n", " ")


def _slug(signature: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", signature).strip("_")


CLASS_FILE = re.compile(r"[0-9]{2,}-.+\.(?:first\.jsonl|jsonl|vector\.json)")
"""The names a campaign gives the files of its classes (``01-take6-claim-....first.jsonl``)."""


def _class_kind(name: str) -> outputs.Kind:
    return outputs.VECTOR_CASE if name.endswith(".vector.json") else outputs.RECORD


def check_out_dir(path: str | Path) -> Path:
    """Create ``path`` (a directory) if needed and make sure it can be written, before the run starts; a
    file there that a class's file could be named like and this engine cannot prove it wrote (its seal,
    :mod:`engine.outputs`) is refused now, not when the run is over.  Nothing in the folder is followed
    through a link, written or removed."""
    with outputs.Folder(path, source="--out", create=True) as folder:
        folder.probe()
        for name in folder.names():
            if CLASS_FILE.fullmatch(name):
                folder.check(name, kind=_class_kind(name))
    return Path(path)


def write_records(report: CampaignReport, out: str | Path) -> CampaignReport:
    """Write every class's records into ``out``; returns the report with the paths filled in."""
    target = check_out_dir(out)
    classes = []
    with outputs.Folder(target, source="--out") as folder:
        for i, c in enumerate(report.classes, start=1):
            stem = f"{i:02d}-{_slug(c.signature)}"
            first_path = target / f"{stem}.first.jsonl"
            folder.write(first_path.name, record_text(c.first.to_record()), kind=outputs.RECORD)
            record = None
            if c.shrunk is not None:
                record = target / f"{stem}.jsonl"
                folder.write(record.name, record_text(c.shrunk.to_record()), kind=outputs.RECORD)
            vector = None
            if c.vector is not None:
                vector = target / f"{stem}.vector.json"
                folder.write(vector.name, dumps_line(dict(c.vector)) + "\n", kind=outputs.VECTOR_CASE)
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


def _where(c: DivergenceClass) -> list[str]:
    """A class's action, waiver, record and vector lines of the summary."""
    action = c.best.action_shown()
    out = [f"    action:  {action}"] if action is not None else []
    if c.waived is not None:
        out.append(f"    waived:  {c.waived}")
    if c.record or c.first_record:
        out.append(f"    record:  {c.record or c.first_record}")
    if c.vector_path:
        out.append(f"    vector:  {c.vector_path}")
    return out


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
    diagnosed = sum(1 for c in open_ if c.faults)
    lines.append(
        f"{len(open_)} class(es) of divergence ({diagnosed} diagnosed, {len(open_) - diagnosed} "
        f"unexplained), {len(waived)} waived ({report.waived_games} waived game(s))"
    )
    note = report.hiding_note()
    lines.append(f"note: {note}" if note else "positions: the peer was put back on the reference's position "
                 "after every divergence, so no class hides another")
    for i, c in enumerate(report.classes, start=1):
        game = c.first.setup.game
        mark = "WAIVED " if c.waived is not None else ("" if c.faults else "UNEXPLAINED ")
        lines.append("")
        lines.append(f"{i:>2}. {mark}{c.signature}  x{c.count}")
        if c.faults:
            lines += [f"    {'diagnosis:' if j == 0 else '          '} {line}"
                      for j, line in enumerate(diagnosis_lines(c.faults, passages=True))]
            lines.append(f"    explains: {_n(c.count, 'divergence')} ({', '.join(c.kinds or (c.kind,))}); "
                         f"first: {c.first.message}")
            if c.counterexample_note:
                lines.append(f"    no counterexample from the diagnosis: {c.counterexample_note}")
            lines.append(f"    size:    {_size(c)}")
            lines += _where(c)
            continue
        lines.append(f"    kind:    {c.kind}: {c.best.message}")
        if len(c.kinds) > 1:
            lines.append(f"    kinds:   {', '.join(c.kinds)} (one deciding clause)")
        if c.clause and "|" in c.clause:
            lines.append(f"    clause:  {c.clause} (candidates, each explaining the difference as well)")
            lines += [f"             {clause}: {text}" for clause, text in _wordings(game, c.clause)]
        elif c.clause:
            lines.append(f"    clause:  {c.clause}: {_clause_text(game, c.clause)}")
        if c.clause and len(c.best.clauses) > 1:
            lines.append(f"    context: {', '.join(c.best.clauses[1:])}")
        lines.append(f"    size:    {_size(c)}")
        for other in c.best.differences[1:]:
            lines.append(f"    also:    {other.kind} ({other.about}): {other.message}")
        lines += _where(c)
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
        "| # | class | diagnosis (or deciding clause) | kinds | count | size | status |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, c in enumerate(report.classes, start=1):
        status = f"waived: {c.waived}" if c.waived is not None else "open"
        named = "; ".join(diagnosis_lines(c.faults)) if c.faults else f"unexplained: {c.clause or '-'}"
        kinds = ", ".join(c.kinds or (c.kind,))
        out.append(f"| {i} | `{_cell(c.signature)}` | {_cell(named)} | {_cell(kinds)} "
                   f"| {c.count} | {_cell(_size(c))} | {_cell(status)} |")
    for i, c in enumerate(report.classes, start=1):
        game = c.first.setup.game
        if c.faults:
            out += ["", f"## {i}. Diagnosis (`{c.signature}`)", ""]
            for d in diagnosis_described(c.faults):
                out.append(f"- the peer {d['describe']}")
                if d["clause"] and d["wording"]:
                    out += ["", f"> **{d['clause']}**: {d['wording']}"]
                    if d["seed"]:
                        s = d["seed"]
                        out += [">", f"> seed {s['seed']}, {s['where']}: \"{s['quote']}\""]
                    out.append("")
            out += [
                f"- explains {_n(c.count, 'divergence')} ({', '.join(c.kinds or (c.kind,))}); the first: "
                f"{c.first.message}",
                f"- counterexample: {_size(c)}"
                + (f" (none from the diagnosis: {c.counterexample_note})" if c.counterexample_note else ""),
            ]
        else:
            kinds = ", ".join(c.kinds or (c.kind,))
            out += ["", f"## {i}. Unexplained: {c.clause or 'no clause'} ({kinds}; `{c.signature}`)", ""]
            for clause, text in _wordings(game, c.clause) if c.clause else ():
                out += [f"> **{clause}**: {text}", ""]
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
