"""``arbiter check RECORD...``: replay game records on the reference engine and report the first divergence.

Each record is streamed line by line (never loaded whole): the header's explicit set-up starts a game, every
action is applied through the checked tier (:meth:`~engine.game.Game.apply`), so it must be legal at that
point, and every claim (facts after an action, the result line) must equal the engine's facts.  The first
divergence stops that record and is reported with the action index, the line, what the record says, what
the rules say, the clause id(s) that decide and a one-line reason.

Outcomes per record, and the exit code of the command (the worst outcome wins):

====================  ====  ==========================================================================
``ok``                0     every action legal, every claim matches
``divergence``        1     an illegal action, a wrong claim, a wrong result, or an inconsistent set-up
``malformed``         2     the file is not a valid record (names the file, line and field)
====================  ====  ==========================================================================

>>> import io
>>> from engine.conformance.records import RecordWriter, record_game, write_record
>>> from engine.game import get_game
>>> g = get_game("take6")
>>> s = g.new_game(2, seed=3)
>>> acts = []
>>> while not g.is_terminal(s):
...     a = g.legal_actions(s, g.to_act(s)[0])[-1]
...     acts.append(a)
...     s = g.apply(s, a)
>>> buf = io.StringIO()
>>> write_record(buf, record_game("take6", players=2, seed=3, actions=acts, claims=True))
>>> report = check_record(io.StringIO(buf.getvalue()), name="game.jsonl")
>>> report.status, report.actions == len(acts)
('ok', True)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, Literal

from attrs import frozen

from engine.conformance.kits import GameKit, get_kit
from engine.conformance.records import ActionLine, Header, ResultLine, dumps_line, iter_record
from engine.errors import InputError, RuleViolation
from engine.game import Game, get_game
from engine.positions import load_position

__all__ = [
    "CheckReport",
    "Divergence",
    "check_paths",
    "check_record",
    "exit_code",
    "expand_paths",
    "format_report",
    "format_summary",
]

Status = Literal["ok", "divergence", "malformed"]
EXIT_CODES: Mapping[str, int] = {"ok": 0, "divergence": 1, "malformed": 2}
LEGAL_SHOWN = 12
"""How many legal actions a divergence report lists before eliding the rest."""


@frozen
class Divergence:
    """Where a record and the rules part ways.

    ``index`` is the 0-based action index (``None`` for the header's set-up or claims and for the result
    line); ``line`` is the record's line number; ``kind`` is ``illegal`` (an action the rules refuse),
    ``claim`` (a claimed fact differs), ``result`` (the claimed outcome differs or the game is not over) or
    ``setup`` (the explicit set-up is inconsistent).
    """

    kind: Literal["illegal", "claim", "result", "setup"]
    index: int | None
    line: int
    record: str
    rules: str
    clauses: tuple[str, ...]
    reason: str
    fact: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form (``fact`` only for claim divergences)."""
        out: dict[str, Any] = {
            "kind": self.kind, "index": self.index, "line": self.line, "record": self.record,
            "rules": self.rules, "clauses": list(self.clauses), "reason": self.reason,
        }
        if self.fact is not None:
            out["fact"] = self.fact
        return out


@frozen
class CheckReport:
    """The outcome of checking one record."""

    path: str
    status: Status
    game: str | None = None
    actions: int = 0
    """Actions validated (applied through the checked tier)."""
    claims: int = 0
    """Claimed facts compared (the result line counts one per field)."""
    finished: bool = False
    """The record ends with a result line."""
    seconds: float = 0.0
    divergence: Divergence | None = None
    error: str | None = None
    """The malformed-input message (names the file, line and field)."""

    @property
    def actions_per_second(self) -> float:
        """Validation speed of this record."""
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON form, as printed by ``arbiter check --json``."""
        return {
            "path": self.path, "status": self.status, "game": self.game, "actions": self.actions,
            "claims": self.claims, "finished": self.finished, "seconds": round(self.seconds, 6),
            "divergence": self.divergence.to_json() if self.divergence else None, "error": self.error,
        }


# --------------------------------------------------------------------------------------------------
# Checking one record


def _show(value: Any) -> str:
    return dumps_line(value) if isinstance(value, dict) else json.dumps(value, ensure_ascii=False)


def _legal_summary(game: Game, state: Any, player: int | None = None) -> str:
    """What the rules allow now: the given player's legal actions when that player must act (the others
    who must act are only named), else every acting player's."""
    acting = game.to_act(state)
    if not acting:
        return "the game is over: no action is legal"
    seats = (player,) if player in acting else acting
    parts = []
    for seat in seats:
        legal = game.legal_actions(state, seat)
        shown = ", ".join(_show(game.action_to_json(a)) for a in legal[:LEGAL_SHOWN])
        more = f", ... ({len(legal)} in all)" if len(legal) > LEGAL_SHOWN else ""
        parts.append(f"player {seat}: {shown}{more}")
    others = [seat for seat in acting if seat not in seats]
    tail = f" (also to act: {', '.join(f'player {seat}' for seat in others)})" if others else ""
    if player is not None and player not in acting:
        tail += f"; player {player} need not act now"
    return "legal now: " + "; ".join(parts) + tail


class _Stop(Exception):
    """Internal: a divergence ends the record."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.reason)
        self.divergence = divergence


def _clauses_for(game: Game, kit: GameKit, fact: str, step: tuple[Any, Any, Any] | None,
                 variant: str) -> tuple[str, ...]:
    """The clauses behind a fact: those of the last step that decide it, else every clause deciding it."""
    book = game.clauses
    general = tuple(c for c in kit.fact_clauses(fact)
                    if c in book and (not book[c].variants or variant in book[c].variants))
    if step is None:
        return general
    try:
        tags = kit.step_clauses(game, *step)
    except Exception:  # tagging is advisory: never let it hide the divergence itself
        return general
    narrow = tuple(c for c in tags if c in general)
    return narrow or tags or general


def _compare_claims(kit: GameKit, state: Any, claims: Mapping[str, Any], index: int | None, *, line: int,
                    where: str, game: Game, step: tuple[Any, Any, Any] | None, variant: str) -> int:
    facts = kit.facts(state)
    for name, claimed in claims.items():
        if name not in facts:
            raise InputError(f"{where}: claims.{name}",
                             f"unknown fact (known: {', '.join(kit.fact_names)})")
        value = kit.normalise(name, claimed)
        if value != facts[name]:
            after = "before the first action" if index is None else f"after action {index}"
            raise _Stop(Divergence(
                kind="claim", index=index, line=line, fact=name,
                record=f"{name} = {_show(claimed)}", rules=f"{name} = {_show(facts[name])}",
                clauses=_clauses_for(game, kit, name, step, variant),
                reason=f"{after}, the rules give a different {name}",
            ))
    return len(claims)


def _compare_result(game: Game, kit: GameKit, state: Any, line: ResultLine, variant: str) -> int:
    record = _show({k: v for k, v in line.to_json().items() if k != "type"})
    if not game.is_terminal(state):
        raise _Stop(Divergence(
            kind="result", index=None, line=line.line, record=f"the game is over: {record}",
            rules=f"the game goes on; {_legal_summary(game, state)}",
            clauses=_clauses_for(game, kit, "over", None, variant),
            reason="the record ends the game before the rules do",
        ))
    truth = game.result(state)
    checked = 0
    for name in ("scores", "winners", "ranking", "tiebreak"):
        claimed = getattr(line, name)
        if claimed is None:
            continue
        checked += 1
        actual = tuple(getattr(truth, name))
        if tuple(claimed) != actual:
            raise _Stop(Divergence(
                kind="result", index=None, line=line.line, fact=name,
                record=f"{name} = {_show(list(claimed))}", rules=f"{name} = {_show(list(actual))}",
                clauses=_clauses_for(game, kit, name, None, variant), reason=f"the final {name} differ",
            ))
    return checked


def check_record(source: str | Path | IO[str], *, name: str | None = None) -> CheckReport:
    """Check one record (a path or a text stream); never raises for bad input, reports it instead.

    Streams the record: memory does not grow with its length.
    """
    label = name or (str(source) if isinstance(source, str | Path) else "<stream>")
    start = time.perf_counter()
    actions = claims = 0
    game_name: str | None = None
    finished = False
    try:
        lines = iter_record(source, name=label)
        header = next(lines)
        assert isinstance(header, Header)
        game_name = header.game
        game, kit, state = _start(header, label)
        if header.claims:
            claims += _compare_claims(kit, state, header.claims, None, line=header.line,
                                      where=f"{label} line 1", game=game, step=None, variant=header.variant)
        for line in lines:
            if isinstance(line, ActionLine):
                before = state
                state = _step(game, kit, state, line, label)
                actions += 1
                if line.claims:
                    step = (before, game.action_from_json(line.action), state)
                    claims += _compare_claims(kit, state, line.claims, line.index, line=line.line,
                                              where=f"{label} line {line.line}", game=game, step=step,
                                              variant=header.variant)
            elif isinstance(line, ResultLine):
                claims += _compare_result(game, kit, state, line, header.variant)
                finished = True
    except _Stop as stop:
        return CheckReport(label, "divergence", game_name, actions, claims, finished,
                           time.perf_counter() - start, divergence=stop.divergence)
    except InputError as exc:
        return CheckReport(label, "malformed", game_name, actions, claims, finished,
                           time.perf_counter() - start, error=str(exc))
    except Exception as exc:  # an engine fault must not become a traceback for the user
        return CheckReport(label, "malformed", game_name, actions, claims, finished,
                           time.perf_counter() - start,
                           error=f"{label}: could not be replayed after {actions} actions "
                                 f"({type(exc).__name__}: {exc})")
    return CheckReport(label, "ok", game_name, actions, claims, finished, time.perf_counter() - start)


def _start(header: Header, label: str) -> tuple[Game, GameKit, Any]:
    where = f"{label} line {header.line}"
    game = get_game(header.game)
    kit = get_kit(header.game)
    if header.variant not in game.variants:
        raise InputError(f"{where}: variant",
                         f"unknown variant {header.variant!r} (known: {', '.join(game.variants)})")
    if not game.min_players <= header.players <= game.max_players:
        raise InputError(f"{where}: players",
                         f"{game.title} takes {game.min_players} to {game.max_players} players")
    if header.position is not None:
        return game, kit, _start_at(game, header, where)
    try:
        setup = kit.setup_from_json(header.setup)
    except InputError as exc:
        raise InputError(f"{where}: {exc.field}", exc.message) from None
    try:
        state = game.new_game(header.players, variant=header.variant, options=header.options, setup=setup)
    except RuleViolation as exc:
        raise _Stop(Divergence(
            kind="setup", index=None, line=header.line, record=f"setup = {_show(header.setup)[:200]}",
            rules=exc.message, clauses=(exc.clause,), reason=f"the explicit set-up breaks {exc.clause}",
        )) from None
    except InputError as exc:
        raise InputError(f"{where}: {exc.field}", exc.message) from None
    return game, kit, state


def _start_at(game: Game, header: Header, where: str) -> Any:
    """The header's starting position: its notation line, held to the header's variant, options and
    player count."""
    assert header.position is not None
    try:
        state = load_position(header.game, header.position)
    except InputError as exc:
        raise InputError(f"{where}: position.{exc.field}", exc.message) from None
    json_form = game.state_to_json(state)
    for key, value in (("variant", header.variant), ("players", header.players), ("options", header.options)):
        if json_form[key] != value:
            shown = _show(json_form[key])
            raise InputError(f"{where}: {key}", f"the header says {_show(value)}, the position {shown}")
    return state


def _step(game: Game, kit: GameKit, state: Any, line: ActionLine, label: str) -> Any:
    where = f"{label} line {line.line}"
    try:
        action = game.action_from_json(line.action)
    except InputError as exc:
        raise InputError(f"{where}: action.{exc.field}" if exc.field else f"{where}: action",
                         exc.message) from None
    except RuleViolation as exc:  # a game may refuse an impossible card outright
        raise _Stop(Divergence(
            kind="illegal", index=line.index, line=line.line,
            record=f"player {line.player}: {_show(line.action)}", rules=exc.message, clauses=(exc.clause,),
            reason=exc.message,
        )) from None
    seat = kit.action_player(action)
    if seat != line.player:
        raise InputError(f"{where}: player", f"the line says seat {line.player}, the action is seat {seat}'s")
    try:
        return game.apply(state, action)
    except RuleViolation as exc:
        raise _Stop(Divergence(
            kind="illegal", index=line.index, line=line.line,
            record=f"player {line.player}: {_show(line.action)}",
            rules=f"illegal: {exc.message}; {_legal_summary(game, state, line.player)}",
            clauses=(exc.clause,), reason=exc.message,
        )) from None


# --------------------------------------------------------------------------------------------------
# Many records


def expand_paths(args: Iterable[str]) -> Iterator[str]:
    """Files to check: each argument as is, a directory as its ``*.jsonl`` files (sorted, recursive)."""
    for arg in args:
        path = Path(arg)
        if arg != "-" and path.is_dir():
            found = sorted(path.rglob("*.jsonl"))
            if not found:
                raise InputError(arg, "directory holds no *.jsonl record")
            yield from (str(p) for p in found)
        else:
            yield arg


def check_paths(paths: Iterable[str]) -> Iterator[CheckReport]:
    """Check each record in turn (``-`` reads standard input)."""
    for path in paths:
        if path == "-":
            yield check_record(sys.stdin, name="<stdin>")
        else:
            yield check_record(path)


def exit_code(reports: Iterable[CheckReport]) -> int:
    """0 when every record is OK, 1 if one diverges, 2 if one is malformed (the worst wins)."""
    return max((EXIT_CODES[r.status] for r in reports), default=0)


def format_report(report: CheckReport, width: int) -> list[str]:
    """Aligned terminal lines for one report; ``width`` is the path column width."""
    status = {"ok": "OK", "divergence": "DIVERGENCE", "malformed": "MALFORMED"}[report.status]
    head = f"{status:<10}  {report.path:<{width}}"
    if report.status == "malformed":
        error = report.error or ""
        if error.startswith(report.path):
            error = error[len(report.path):].lstrip(": ")
        return [f"{head}  {error}"]
    detail = f"{report.game or '-':<10}  {report.actions:>7} actions  {report.claims:>6} claims"
    if report.status == "ok":
        end = "finished" if report.finished else "unfinished"
        return [f"{head}  {detail}  {end:<10}  {report.actions_per_second:>9,.0f} actions/s"]
    d = report.divergence
    assert d is not None
    at = f"action {d.index}" if d.index is not None else ("set-up" if d.kind == "setup" else d.kind)
    return [
        f"{head}  {detail}  at {at} (line {d.line})",
        f"    {'record:':<8} {d.record}",
        f"    {'rules:':<8} {d.rules}",
        f"    {'clause:':<8} {', '.join(d.clauses) or '-'}",
        f"    {'reason:':<8} {d.reason}",
    ]


def format_summary(reports: list[CheckReport], seconds: float) -> str:
    """The closing line: counts by outcome and the overall validation speed."""
    counts = {s: sum(1 for r in reports if r.status == s) for s in EXIT_CODES}
    actions = sum(r.actions for r in reports)
    speed = actions / seconds if seconds > 0 else 0.0
    return (f"{len(reports)} record(s): {counts['ok']} OK, {counts['divergence']} divergence, "
            f"{counts['malformed']} malformed; {actions:,} actions validated in {seconds:.2f} s "
            f"({speed:,.0f} actions/s)")


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter check``."""
    paths = list(expand_paths(args.records))
    width = max((len(p) for p in paths), default=0)
    reports: list[CheckReport] = []
    start = time.perf_counter()
    for report in check_paths(paths):
        reports.append(report)
        if not args.json:
            for text in format_report(report, width):
                print(text)
    seconds = time.perf_counter() - start
    actions = sum(r.actions for r in reports)
    if args.json:
        print(json.dumps({
            "records": [r.to_json() for r in reports],
            "summary": {
                "records": len(reports),
                **{s: sum(1 for r in reports if r.status == s) for s in EXIT_CODES},
                "actions": actions, "seconds": round(seconds, 6),
                "actions_per_second": round(actions / seconds, 1) if seconds > 0 else 0.0,
                "exit_code": exit_code(reports),
            },
        }, ensure_ascii=False, indent=1))
    else:
        print(format_summary(reports, seconds))
    return exit_code(reports)


def register_check(sub: Any) -> None:
    """Add ``check`` to the command line."""
    p = sub.add_parser("check", help="replay game records on the reference engine; report divergences")
    p.add_argument("records", nargs="+", metavar="RECORD",
                   help="record files (JSON Lines), directories of *.jsonl, or - for standard input")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)

