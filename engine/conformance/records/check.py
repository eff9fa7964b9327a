"""Checking game records: replay them on the reference engine and report the divergence (``arbiter check
RECORD...``, the command line in :mod:`engine.conformance.records.cli`).

Each record is streamed line by line (never loaded whole): the header's explicit set-up starts a game (with no
seed: a round the set-up does not deal waits for its deal, a chance line), every action is applied through the
checked tier (:meth:`~engine.game.Game.apply`), so it must be legal at that point (a chance line's deal too:
only when a round starts, of the right shape and cards), and every claim (facts after an action, the result
line) must equal the engine's facts. The first divergence stops that record and is reported with the action
index, the line, what the record says, what the rules say, the clause id(s) that decide and a one-line reason.

Outcomes per record, and the exit code of the command (the worst outcome wins):

====================  ====  ==========================================================================
``ok``                0     every action legal, every claim matches
``divergence``        1     an illegal action, a wrong claim, a wrong result, or an inconsistent set-up
``malformed``         2     the file is not a valid record (names the file, line and field)
====================  ====  ==========================================================================

>>> import io
>>> from engine.conformance.records.format import RecordWriter, record_game, write_record
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

import json
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, Literal

import orjson
from attrs import evolve, frozen

from engine.action_input import text_of_json
from engine.cliargs import cap_jobs
from engine.conformance.attribution import attribute, granting, refusing
from engine.conformance.diagnosis.evidence import Seen
from engine.conformance.diagnosis.search import Diagnoser
from engine.conformance.diagnosis.words import described, lines
from engine.conformance.kits.base import GameKit, get_kit
from engine.conformance.records.format import (
    ActionLine,
    Header,
    ResultLine,
    check_claims,
    dumps_line,
    iter_record,
    json_path,
)
from engine.errors import InputError, RuleViolation
from engine.game import Game, get_game
from engine.jsonio import NO_FILES, one_line, show
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
    missing: tuple[tuple[Any, str], ...] = ()
    """A ``legal`` claim: the legal actions the record leaves out, each with the clause making it legal."""
    extra: tuple[tuple[Any, str, str], ...] = ()
    """A ``legal`` claim: the actions the record adds, each with the clause it breaks and why."""
    texts: tuple[tuple[str | None, ...], tuple[str | None, ...]] = ((), ())
    """The texts of ``missing`` and of ``extra`` in the position claimed (``game.action_to_text``; ``None``
    for a value that is no action of the game), in their order."""
    also: tuple[Divergence, ...] = ()
    """The other differing facts of the same line (every one is recorded; this one is the first)."""

    def to_json(self) -> dict[str, Any]:
        """JSON form (``fact`` only for claim divergences; ``missing`` / ``extra`` for a ``legal`` claim)."""
        out: dict[str, Any] = {
            "kind": self.kind, "index": self.index, "line": self.line, "record": self.record,
            "rules": self.rules, "clauses": list(self.clauses), "reason": self.reason,
        }
        if self.fact is not None:
            out["fact"] = self.fact
        if self.fact == "legal":
            said, added = _texts(self.texts[0], len(self.missing)), _texts(self.texts[1], len(self.extra))
            out["missing"] = [{"action": a, "text": x, "clause": c}
                              for (a, c), x in zip(self.missing, said, strict=True)]
            out["extra"] = [{"action": a, "text": x, "clause": c or None, "reason": r}
                            for (a, c, r), x in zip(self.extra, added, strict=True)]
        if self.also:
            out["also"] = [d.to_json() for d in self.also]
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
    diagnosis: tuple[tuple[str, ...], ...] = ()
    """A divergence's diagnosis (:mod:`engine.conformance.diagnosis`): every smallest set of faults (their
    signatures) under which the reference does what the record does there and at every step before it,
    simplest first; ``()``: nothing explains it (or no divergence)."""

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
            "diagnosis": [described(fs) for fs in self.diagnosis],
        }


# --------------------------------------------------------------------------------------------------
# Checking one record


def _texts(texts: tuple[str | None, ...], count: int) -> tuple[str | None, ...]:
    return texts if len(texts) == count else (None,) * count


def _show(value: Any) -> str:
    return dumps_line(value) if isinstance(value, dict) else json.dumps(value, ensure_ascii=False)


def _named(game: Game, state: Any, value: Any, seat: int | None) -> str:
    """``seat``'s action in a record, for a person: its text in ``state``, quoted, then the record's JSON
    (``'P0 4' {"type":"select","player":0,"card":4}``); the JSON alone when it is no action of the game."""
    text = text_of_json(game, state, value, seat)
    return f"{show(text)} {_show(value)}" if text is not None else _show(value)


def _listed(game: Game, state: Any, actions: list[Any]) -> str:
    """At most :data:`LEGAL_SHOWN` actions by their texts in ``state``, and how many there are in all."""
    shown = ", ".join(game.action_to_text(state, a) for a in actions[:LEGAL_SHOWN])
    return shown + (f", ... ({len(actions)} in all)" if len(actions) > LEGAL_SHOWN else "")


def _legal_summary(game: Game, state: Any, player: int | None = None) -> str:
    """What the rules allow now: the given player's legal actions when that player must act (the others
    who must act are only named), else every acting player's."""
    acting = game.to_act(state)
    if not acting:
        if not game.is_terminal(state):
            chance = game.legal_actions(state)  # a game that lists its chance outcomes (a reveal)
            if chance:
                return f"legal now: only a chance line (player null): {_listed(game, state, list(chance))}"
            return "legal now: only a chance line (player null) giving the round's deal"
        return "the game is over: no action is legal"
    seats = (player,) if player in acting else acting
    parts = []
    for seat in seats:
        parts.append(f"player {seat}: {_listed(game, state, list(game.legal_actions(state, seat)))}")
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
                 variant: str, *, claimed: Any = None, claims: Mapping[str, Any] | None = None,
                 start: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The clauses behind a fact, the deciding one first (see :mod:`engine.conformance.attribution`;
    ``start``: ``new_game``'s arguments, for a claim before the first action of a set-up's start)."""
    return attribute(game, kit, fact, step, variant, claimed=claimed, claims=claims, start=start).clauses


def _compare_claims(kit: GameKit, state: Any, claims: Mapping[str, Any], index: int | None, *, line: int,
                    where: str, game: Game, step: tuple[Any, Any, Any] | None, variant: str,
                    version: int, start: Mapping[str, Any] | None = None) -> int:
    facts = kit.facts(state)
    for name in claims:
        if name not in facts and name != "legal":
            raise InputError(f"{where}: {json_path(['claims', name])}",
                             f"unknown fact (known: {', '.join((*kit.fact_names, 'legal'))})")
    # A claim spelled exactly as the rules' facts is valid and right: one comparison of the JSON texts
    # (which tells 1 from 1.0 and true; orjson writes them ten times faster than json) settles it.
    # Anything else is validated against the schema first, so a malformed claim is malformed input.
    if "legal" not in claims and _same_json(claims, {k: facts[k] for k in claims}):
        return len(claims)
    check_claims(game.name, claims, where, version)
    after = "before the first action" if index is None else f"after action {index}"
    found: list[Divergence] = []
    peer = {k: kit.normalise(k, v) for k, v in claims.items() if k != "legal"}
    for name, claimed in claims.items():
        if name == "legal":
            found += _compare_legal(game, kit, state, claimed, index, line=line, after=after, variant=variant)
            continue
        value = kit.normalise(name, claimed)
        if value != facts[name]:
            found.append(Divergence(
                kind="claim", index=index, line=line, fact=name,
                record=f"{name} = {_show(claimed)}", rules=f"{name} = {_show(facts[name])}",
                clauses=_clauses_for(game, kit, name, step, variant, claimed=claimed, claims=peer,
                                     start=start),
                reason=f"{after}, the rules give a different {name}",
            ))
    _stop_at_first(found)
    return len(claims)


def _stop_at_first(found: list[Divergence]) -> None:
    """Stop the record at the first difference found, the others recorded with it."""
    if found:
        raise _Stop(evolve(found[0], also=tuple(found[1:])))


def _compare_legal(game: Game, kit: GameKit, state: Any, claimed: Any, index: int | None, *, line: int,
                   after: str, variant: str) -> list[Divergence]:
    """A ``legal`` claim: each listed seat's legal set must equal the rules'; a difference lists every
    missing action with the clause that makes it legal and every extra one with the clause it breaks."""
    found: list[Divergence] = []
    for entry in claimed:
        seat = entry["player"]
        ours = {_canon(game.action_to_json(a)): a for a in game.legal_actions(state, seat)}
        theirs = {_canon(a): a for a in entry["actions"]}
        missing = [(game.action_to_json(a), granting(game, kit, state, a)) for t, a in ours.items()
                   if t not in theirs]
        extra = []
        for t, value in theirs.items():
            if t in ours:
                continue
            extra.append((value, *_why_illegal(game, kit, state, value)))
        if not missing and not extra:
            continue
        parts = [f"missing {_named(game, state, a, seat)} ({c})" for a, c in missing]
        parts += [f"extra {_named(game, state, a, seat)} ({f'{c}: ' if c else ''}{why})"
                  for a, c, why in extra]
        clauses = tuple(dict.fromkeys([c for _a, c in missing] + [c for _a, c, _w in extra if c]))
        found.append(Divergence(
            kind="claim", index=index, line=line, fact="legal",
            record=f"player {seat} may take {len(theirs)} action(s): " + "; ".join(parts),
            rules=f"player {seat} may take {len(ours)} action(s)" + (
                "" if ours else " (the seat need not act now)"),
            clauses=clauses,
            reason=f"{after}, player {seat}'s legal set differs: {len(missing)} missing, {len(extra)} extra",
            missing=tuple(missing), extra=tuple(extra),
            texts=(tuple(text_of_json(game, state, a, seat) for a, _c in missing),
                   tuple(text_of_json(game, state, a, seat) for a, _c, _w in extra)),
        ))
    return found


def _same_json(claimed: Any, facts: Any) -> bool:
    """The two values' JSON texts are equal; a claim orjson cannot write (an integer beyond 64 bits, a lone
    surrogate) is not the rules' fact, so it goes on to the schema and the comparison."""
    try:
        return orjson.dumps(claimed) == orjson.dumps(facts)
    except TypeError:
        return False


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _why_illegal(game: Game, kit: GameKit, state: Any, value: Any) -> tuple[str, str]:
    """``(clause, reason)`` for an action the rules refuse now: the clause as ``arbiter fuzz`` names it,
    from the refusal's derivation (:func:`~engine.conformance.attribution.refusing`); for a value that is
    no action of the game, the clause the engine refuses a non-action under (the kit's ``forms_clause``)."""
    try:
        action = game.action_from_json(value)
        game.apply(state, action)
    except RuleViolation as exc:
        return refusing(game, kit, state, action, exc.clause).clauses[0], exc.message
    except InputError as exc:
        return kit.forms_clause, f"not an action of this game: {exc.message}"
    return "", "the rules accept it"  # pragma: no cover - it was not in the legal set


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
    found: list[Divergence] = []
    for name in ("scores", "winners", "ranking", "tiebreak"):
        claimed = getattr(line, name)
        if claimed is None:
            continue
        checked += 1
        actual = tuple(getattr(truth, name))
        if tuple(claimed) != actual:
            found.append(Divergence(
                kind="result", index=None, line=line.line, fact=name,
                record=f"{name} = {_show(list(claimed))}", rules=f"{name} = {_show(list(actual))}",
                clauses=_clauses_for(game, kit, name, None, variant, claimed=list(claimed)),
                reason=f"the final {name} differ",
            ))
    _stop_at_first(found)
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
    trail = _Trail()
    try:
        lines = iter_record(source, name=label, validate_claims=False)
        header = next(lines)
        assert isinstance(header, Header)
        game_name = header.game
        version = header.version
        game, kit, state = _start(header, label)
        if header.claims:
            begun = None if header.position is not None else {
                "players": header.players, "variant": header.variant, "options": header.options,
                "setup": kit.setup_from_json(header.setup)}
            claims += _compare_claims(kit, state, header.claims, None, line=header.line,
                                      where=f"{label} line 1", game=game, step=None, variant=header.variant,
                                      version=version, start=begun)
        for line in lines:
            if isinstance(line, ActionLine):
                before = state
                where = f"{label} line {line.line}"
                trail.current = (before, None, line)
                try:
                    state = _step(game, kit, state, line, label)
                except _Stop:
                    if line.claims:  # a malformed line is malformed, whatever its action
                        check_claims(header.game, line.claims, where, version)
                    raise
                actions += 1
                if line.claims:
                    trail.current = (before, state, line)
                    step = (before, game.action_from_json(line.action), state)
                    claims += _compare_claims(kit, state, line.claims, line.index, line=line.line,
                                              where=where, game=game, step=step,
                                              variant=header.variant, version=version)
                trail.steps.append((before, state, line))  # it agreed: the evidence a diagnosis reads
            elif isinstance(line, ResultLine):
                trail.result(line)
                claims += _compare_result(game, kit, state, line, header.variant)
                finished = True
    except _Stop as stop:
        found = trail.diagnose(game_name, stop.divergence) if game_name is not None else ()
        return CheckReport(label, "divergence", game_name, actions, claims, finished,
                           time.perf_counter() - start, divergence=stop.divergence, diagnosis=found)
    except InputError as exc:
        return CheckReport(label, "malformed", game_name, actions, claims, finished,
                           time.perf_counter() - start, error=str(exc))
    except Exception as exc:  # an engine fault must not become a traceback for the user
        return CheckReport(label, "malformed", game_name, actions, claims, finished,
                           time.perf_counter() - start,
                           error=f"{label}: could not be replayed after {actions} actions "
                                 f"({type(exc).__name__}: {exc})")
    return CheckReport(label, "ok", game_name, actions, claims, finished, time.perf_counter() - start)


TRAIL = 400
"""How many of a record's last steps a diagnosis takes as the evidence the record agreed on."""


class _Trail:
    """The last steps of a record being checked, kept for a diagnosis (a bounded window: memory does not
    grow with the record): each accepted action and the claims that agreed after it, and the step at
    hand."""

    def __init__(self, keep: int = TRAIL) -> None:
        self.steps: deque[tuple[Any, Any, ActionLine]] = deque(maxlen=keep)
        """The last steps that agreed with the rules: ``(before, after, line)``."""
        self.current: tuple[Any, Any, ActionLine | ResultLine] | None = None
        """The step at hand: ``(before, after or None while the action is checked, line)``."""

    def result(self, line: ResultLine) -> None:
        """The record's result line, about the position the last step reached."""
        last = self.steps[-1] if self.steps else None
        self.current = (last[0], last[1], line) if last is not None else None

    def diagnose(self, name: str, divergence: Divergence) -> tuple[tuple[str, ...], ...]:
        """The diagnosis of ``divergence`` from the step at hand, the earlier steps as the agreed evidence;
        ``()`` when it cannot be stated as evidence (the set-up, the header's claims) or nothing explains
        it.  Advisory: a failure here never hides the divergence."""
        try:
            game = get_game(name)
            kit = get_kit(name)
            shown = self._shown(game, kit, divergence)
            if not shown:
                return ()
            agreed = [s for step in self.steps for s in _agreed(game, kit, step)]
            found = Diagnoser(name).diagnose(shown, agreed, divergence.kind)
        except Exception:  # naming a diagnosis is advisory, like naming clauses
            return ()
        return tuple(tuple(f.signature for f in fs) for fs in found)

    def _shown(self, game: Game, kit: GameKit, divergence: Divergence) -> list[Seen]:
        if self.current is None:
            return []
        before, after, line = self.current
        if isinstance(line, ResultLine):
            facts = {n: sorted(v) if n == "winners" else list(v)
                     for n in ("scores", "winners") if (v := getattr(line, n)) is not None}
            last = self.steps[-1] if self.steps else None
            if last is None or not facts:
                return []
            return [Seen("after", last[0], game.action_from_json(last[2].action), shown=facts)]
        action = game.action_from_json(line.action)
        if divergence.kind == "illegal":
            return [Seen("apply", before, action, shown=True)]
        if after is None or not line.claims:
            return []
        return _claimed(game, kit, before, action, after, line.claims)



def _claimed(  # noqa: PLR0917 (one step of a record)
    game: Game, kit: GameKit, before: Any, action: Any, after: Any, claims: Mapping[str, Any]
) -> list[Seen]:
    """A line's claims as evidence: its facts after the action, and each ``legal`` entry's set there."""
    out = []
    facts = {k: kit.normalise(k, v) for k, v in claims.items() if k != "legal"}
    if facts:
        out.append(Seen("after", before, action, shown=facts))
    for entry in claims.get("legal") or ():
        texts = frozenset(_canon(a) for a in entry["actions"])
        out.append(Seen("legal", after, None, entry["player"], texts))
    return out


def _agreed(game: Game, kit: GameKit, step: tuple[Any, Any, ActionLine]) -> list[Seen]:
    before, after, line = step
    action = game.action_from_json(line.action)
    return [Seen("apply", before, action, shown=True),
            *(_claimed(game, kit, before, action, after, line.claims) if line.claims else ())]


def _start(header: Header, label: str) -> tuple[Game, GameKit, Any]:
    where = f"{label} line {header.line}"
    game = get_game(header.game)
    kit = get_kit(header.game)
    if header.variant not in game.variants:
        raise InputError(f"{where}: variant",
                         f"unknown variant {show(header.variant)} (known: {', '.join(game.variants)})")
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
        state = game.new_game(header.players, seed=None, variant=header.variant, options=header.options,
                              setup=setup)
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
        state = load_position(header.game, header.position, access=NO_FILES)  # a record names no file
    except InputError as exc:
        raise InputError(f"{where}: position.{exc.field}", exc.message) from None
    held = {
        "variant": game.variant_of(state),
        "players": game.players_of(state),
        "options": game.options_of(state),
    }
    for key, value in (("variant", header.variant), ("players", header.players), ("options", header.options)):
        if held[key] != value:
            shown = _show(held[key])
            raise InputError(f"{where}: {key}", f"the header says {_show(value)}, the position {shown}")
    return state


def _who(line: ActionLine) -> str:
    return "chance" if line.player is None else f"player {line.player}"


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
            record=f"{_who(line)}: {_show(line.action)}", rules=exc.message, clauses=(exc.clause,),
            reason=exc.message,
        )) from None
    seat = kit.action_player(action)
    if seat != line.player:
        said = "a chance line (player null)" if line.player is None else f"the line says seat {line.player}"
        what = "a chance outcome (write player null)" if seat is None else f"seat {seat}'s"
        raise InputError(f"{where}: player", f"{said}, the action is {what}")
    try:
        return game.apply(state, action)
    except RuleViolation as exc:
        raise _Stop(Divergence(
            kind="illegal", index=line.index, line=line.line,
            record=f"{_who(line)}: {_named(game, state, line.action, line.player)}",
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


def check_paths(paths: Iterable[str], jobs: int = 1) -> Iterator[CheckReport]:
    """Check each record (``-`` reads standard input), in order; ``jobs > 1`` checks files in that many
    worker processes (reports still come in the order of ``paths``).

    >>> [r.status for r in check_paths(["/no/such.jsonl"], jobs=1)]
    ['malformed']
    """
    paths = list(paths)
    jobs = cap_jobs(jobs, len(paths)) if jobs > 1 else 1
    if jobs <= 1 or len(paths) < 2 or "-" in paths:
        for path in paths:
            yield check_record(sys.stdin, name="<stdin>") if path == "-" else check_record(path)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(check_record, paths, chunksize=max(1, len(paths) // (jobs * 8)))


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
        return [f"{head}  {_printable(error)}"]
    detail = f"{report.game or '-':<10}  {report.actions:>7} actions  {report.claims:>6} claims"
    if report.status == "ok":
        end = "finished" if report.finished else "unfinished"
        return [f"{head}  {detail}  {end:<10}  {report.actions_per_second:>9,.0f} actions/s"]
    d = report.divergence
    assert d is not None
    at = f"action {d.index}" if d.index is not None else ("set-up" if d.kind == "setup" else d.kind)
    first = lines(report.diagnosis[0], passages=True) if report.diagnosis else []
    diagnosis = [f"    {'diagnosis:' if i == 0 else ' ' * 10} {_printable(text)}"
                 for i, text in enumerate(first)]
    if len(report.diagnosis) > 1:
        others = "; ".join(" + ".join(fs) for fs in report.diagnosis[1:4])
        more = f" and {len(report.diagnosis) - 4} more" if len(report.diagnosis) > 4 else ""
        diagnosis.append(f"    {'or:':<10} {_printable(others)}{more} (one divergence: several readings)")
    return [
        f"{head}  {detail}  at {at} (line {d.line})",
        *diagnosis,
        f"    {'record:':<8} {_printable(d.record)}",
        f"    {'rules:':<8} {_printable(d.rules)}",
        f"    {'clause:':<8} {', '.join(d.clauses) or '-'}",
        f"    {'reason:':<8} {_printable(d.reason)}",
        *(
            f"    {'also:':<8} {_printable(o.record)} "
            f"(rules: {_printable(o.rules)}; {', '.join(o.clauses) or '-'})"
            for o in d.also
        ),
    ]


def _printable(text: str) -> str:
    """``text`` with every character a terminal would act on escaped (a line separator, a lone surrogate),
    uncut."""
    return one_line(text, limit=8 * len(text) + 8)


def format_summary(reports: list[CheckReport], seconds: float) -> str:
    """The closing line: counts by outcome and the overall validation speed."""
    counts = {s: sum(1 for r in reports if r.status == s) for s in EXIT_CODES}
    actions = sum(r.actions for r in reports)
    speed = actions / seconds if seconds > 0 else 0.0
    return (f"{len(reports)} record(s): {counts['ok']} OK, {counts['divergence']} divergence, "
            f"{counts['malformed']} malformed; {actions:,} actions validated in {seconds:.2f} s "
            f"({speed:,.0f} actions/s)")
