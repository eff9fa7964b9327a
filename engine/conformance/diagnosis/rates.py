"""How often a campaign's diagnosis names what is wrong with an implementation nobody hand-wrote:
``arbiter bench diagnosis`` (or ``python -m engine.conformance.diagnosis.rates``).

Three seeded draws, each run through real campaigns (:func:`~engine.conformance.campaign.runner.run_campaign`
with one job, no shrinking, a fresh diagnoser; every divergence diagnosed where its game was played, classes
by diagnosis):

* **one edit**: faults drawn from the whole fault space (:func:`~engine.conformance.diagnosis.space.
  fault_space`) of each game in turn; the reference under that fault (:mod:`engine.conformance.peers.edited`)
  plays a campaign of ``--games`` games of its game with positions and another without.  A campaign is a
  *hit* when it gives exactly one class, explained, whose diagnosis is the fault drawn (*exact*) or a set of
  faults that behaves identically on every position the campaign visited (*equivalent*: see below);
* **two edits**: two faults of one game with different targets, in one peer, with and without positions.
  A hit is one class per edit that *shows* (taking it away changes what the peer does on the positions the
  campaign visited: an edit the games never reach, or one the other edit masks, does not), each exact or
  equivalent to its edit (one showing: or to the pair);
* **code mutants**: mutants of the rule modules (:mod:`engine.mutation.code` on the interpreter files
  :data:`RULE_FILES`), each applied to a scratch copy of the engine and run as a subprocess peer
  (``python -m engine.conformance.peers.reference`` from that copy), in a campaign with positions.  A hit is
  one class that names a clause of the mutated line (:func:`line_clauses`: the clause ids its function
  writes, else its module's docstring): an explained class names the clauses of its faults
  (:func:`fault_clauses`: every clause the rows they edit cite; a reading's or a skipped step's own
  clause), an unexplained one its deciding clause (a step's clause, with the variants' clauses restating
  it: :func:`~engine.conformance.campaign.grouping.unexplained_class`).

Set apart, not counted: a campaign that finds no divergence (**silent**: the draw changes nothing the games
reached); tables that do not load, or a peer that refuses set-ups or does not start (**unplayable**: a
refused set-up carries no evidence to diagnose); a peer that crashes, hangs or answers garbage in play
(**crash**: no rule's step to name); a mutated line whose function and module name no clause (**no
clause**: nothing to judge its class by; its classes are printed).

*Behaving identically on every position the campaign visited*: the campaign's peer is an
:class:`~engine.conformance.peers.edited.EditedPeer` that also follows the reference (:class:`Witness`) and
writes down every comparison the campaign asks of it: each game's start, each legal set asked for, each
action asked to apply.  Two fault sets behave identically there when their rules predict the same at every
one of them (:func:`~engine.conformance.diagnosis.evidence.predict`): the same facts at each start, the same
legal set, the same acceptance or refusal of each action and the same facts after it.

Printed: per draw and mode, drawn / counted / hits / rate against the issue's target, exact and equivalent
hits, and what was set apart; the campaigns' CPU and wall-clock time; the **median diagnosis CPU time per
class** (a campaign's CPU in :meth:`~engine.conformance.diagnosis.search.Diagnoser.diagnose` over its
classes); then every miss with its classes, and every trial set apart with why.

>>> trial = one_edit("take6:edit:setup/standard/row_capacity=4", positions=False, games=4, seed=1)
>>> trial.outcome, [c.signature for c in trial.classes]
('exact', ['take6:edit:setup/standard/row_capacity=4'])
"""

from __future__ import annotations

import argparse
import functools
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from attrs import field, frozen

from engine import cliargs
from engine.conformance.campaign import batches
from engine.conformance.campaign.duel import FAILURE_KINDS
from engine.conformance.campaign.report import CampaignReport
from engine.conformance.campaign.runner import run_campaign
from engine.conformance.diagnosis.expected import fault_clauses, line_clauses
from engine.conformance.diagnosis.faults import Fault, World, parse
from engine.conformance.diagnosis.search import Diagnoser
from engine.conformance.diagnosis.space import fault_space
from engine.conformance.diagnosis.visits import VISITS, Behaviour, MakeWitness, Visits
from engine.conformance.peers.launch import PeerFactory, in_process, subprocess_peer
from engine.conformance.peers.protocol import PeerFailure
from engine.errors import ArbiterError, InputError
from engine.game import game_names
from engine.mutation.code import code_mutants
from engine.mutation.driver import CODE, NOT_RULES, ROOT
from engine.mutation.mutant import Mutant
from engine.spec import load_clauses

__all__ = [
    "DEFAULTS",
    "RULE_FILES",
    "TARGETS",
    "Found",
    "Trial",
    "draw_mutants",
    "draw_pairs",
    "draw_singles",
    "found_classes",
    "line_clauses",
    "main",
    "mutant",
    "one_edit",
    "run",
    "summary",
    "two_edits",
]

TARGETS = {"one edit": 0.95, "two edits": 0.85, "code mutants": 0.80}
"""The issue's targets: the share of counted draws the diagnosis must name right."""

DEFAULTS = {"faults": 40, "pairs": 16, "mutants": 60, "games": 8, "max_steps": 300}
"""The default draw: about ten to fifteen minutes on two cores."""

PRESENTATION = ("action_text.py", "codec.py", "narration.py", "notation.py", "observation.py", "position.py",
                "names.py", "__init__.py")
"""Files of the game packages that compute no step of a game: text and JSON forms, narration, what a seat
may see, the position builder and the name resolution (their mutants break the protocol, not a rule)."""

RULE_FILES = tuple(
    f"{folder}/{path.name}"
    for folder in CODE
    for path in sorted((ROOT / folder).glob("*.py"))
    if path.name not in (*NOT_RULES, *PRESENTATION)
)
"""The interpreter files whose code mutants the benchmark runs as peers."""

APART = ("silent", "unplayable", "crash", "no clause")
"""Outcomes set apart from the rates: nothing seen, tables that do not load or set-ups refused (a peer that
does not start), a peer failing in play (a crash, a hang, garbage: no rule's step to name), a mutated line
naming no clause."""


# ------------------------------------------------------------------------------------------ trials


@frozen
class Found:
    """One class of a campaign as the rates read it: its signature, how many divergences, its diagnosis
    (fault signatures; ``()``: unexplained), the kinds of its divergences and the clauses it names."""

    signature: str
    count: int
    faults: tuple[str, ...]
    kinds: tuple[str, ...]
    clauses: tuple[str, ...]

    def show(self) -> str:
        """``signature (N: kinds)``, marked when unexplained."""
        mark = "" if self.faults or ":unexplained:" in self.signature else "unexplained "
        return f"{mark}{self.signature} ({self.count}: {', '.join(self.kinds)})"


@frozen
class Trial:
    """One draw's campaign: the ``draw`` (``one edit``, ``two edits``, ``code mutants``), the ``game``, what
    was drawn (fault signatures, or the mutant's description), with or without ``positions``; its
    ``outcome`` (``exact``, ``equivalent``, ``named`` hits; ``miss``; ``silent``, ``unplayable``,
    ``no clause`` apart) and ``why``; the classes; the campaign's CPU and wall-clock seconds and the CPU its
    diagnosis took."""

    draw: str
    game: str
    drawn: tuple[str, ...]
    positions: bool
    outcome: str
    why: str = ""
    classes: tuple[Found, ...] = ()
    cpu: float = 0.0
    wall: float = 0.0
    diagnosis: float = 0.0
    expected: tuple[str, ...] = field(default=())
    """What a hit must name: the edits that show on their own, or the mutated line's clauses."""

    @property
    def counted(self) -> bool:
        """Whether the trial counts toward its rate (not silent, unplayable or unjudgeable)."""
        return self.outcome not in APART

    @property
    def hit(self) -> bool:
        """Whether the diagnosis named the draw."""
        return self.outcome in ("exact", "equivalent", "named")


_T = TypeVar("_T")


class _TimedDiagnoser(Diagnoser):
    """A diagnoser that adds up the CPU time of its outermost :meth:`diagnose`, :meth:`second_look`,
    :meth:`among` and :meth:`refuted` calls (a batch's end refutes other games' explanations with the
    last)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.cpu = 0.0
        self._depth = 0

    def _timed(self, call: Callable[[], _T]) -> _T:
        began = time.process_time()
        self._depth += 1
        try:
            return call()
        finally:
            self._depth -= 1
            if not self._depth:
                self.cpu += time.process_time() - began

    def diagnose(self, *args: Any, **kwargs: Any) -> tuple[tuple[Fault, ...], ...]:
        return self._timed(lambda: super(_TimedDiagnoser, self).diagnose(*args, **kwargs))

    def second_look(self, *args: Any, **kwargs: Any) -> tuple[tuple[Fault, ...], ...]:
        return self._timed(lambda: super(_TimedDiagnoser, self).second_look(*args, **kwargs))

    def among(self, *args: Any, **kwargs: Any) -> tuple[tuple[Fault, ...], ...]:
        return self._timed(lambda: super(_TimedDiagnoser, self).among(*args, **kwargs))

    def refuted(self, *args: Any, **kwargs: Any) -> bool:
        return self._timed(lambda: super(_TimedDiagnoser, self).refuted(*args, **kwargs))


def _campaign(factory: PeerFactory, game: str, *, positions: bool, games: int, seed: int, max_steps: int
              ) -> tuple[CampaignReport, float]:
    """One campaign of ``game`` against ``factory`` (one job, no shrinking) with a fresh diagnoser, as a
    fresh ``arbiter fuzz`` process has (the faults an earlier campaign found are not tried first); the
    report and the CPU seconds its diagnosis took."""
    timed = _TimedDiagnoser(game)
    batches.new_diagnoser = lambda _game: timed
    try:
        report = run_campaign(factory, games=games, jobs=1, seed=seed, game_names=[game], positions=positions,
                              max_steps=max_steps, shrink=False)
    finally:
        batches.new_diagnoser = Diagnoser
    return report, timed.cpu


def found_classes(report: CampaignReport) -> tuple[Found, ...]:
    """The report's classes as the rates read them: an explained class names its faults' clauses, an
    unexplained one its deciding clause (or candidates) and the variants' clauses restating each.

    >>> from engine.conformance.campaign.runner import run_campaign
    >>> from engine.conformance.peers.base import ReferencePeer
    >>> from engine.conformance.peers.launch import in_process
    >>> found_classes(run_campaign(in_process(ReferencePeer), games=1, jobs=1, seed=1, shrink=False))
    ()
    """
    out = []
    for c in report.classes:
        if c.faults:
            clauses = tuple(dict.fromkeys(x for f in c.faults for x in fault_clauses(parse(f))))
        else:
            parts = c.signature.split(":")
            named = parts[2].split("|") if len(parts) > 2 and parts[2] != "-" else []
            # a step's class stands for it in every variant: its clause and the variants' restating it
            clauses = tuple(x for n in named for x in (n, *load_clauses(parts[0]).restating(n)))
        out.append(Found(c.signature, c.count, tuple(c.faults), c.kinds, clauses))
    return tuple(out)


def _unplayable(game: str, faults: Sequence[Fault]) -> str:
    """Why the tables under ``faults`` do not load (``""``: they do)."""
    try:
        World(game, faults)
    except ArbiterError as exc:
        return exc.message if isinstance(exc, InputError) else str(exc)
    return ""


def _apart(found: Sequence[Found]) -> tuple[str, str]:
    """``(outcome, why)`` for a campaign set apart by what it found: nothing (``silent``), a peer that
    crashed or hung in play (``crash``), a set-up refused (``unplayable``); ``("", "")`` otherwise."""
    if not found:
        return "silent", "no divergence in the campaign"
    crashed = [c for c in found if set(c.kinds) & set(FAILURE_KINDS)]
    if crashed:
        return "crash", f"the peer fails in play: {crashed[0].signature} ({crashed[0].count})"
    refused = [c for c in found if "setup" in c.kinds]
    if refused:
        return "unplayable", f"the peer refuses set-ups: {refused[0].signature} ({refused[0].count})"
    return "", ""


def _edited_campaign(draw: str, game: str, faults: Sequence[Fault], *, positions: bool, games: int, seed: int,
                     max_steps: int) -> tuple[Trial, Behaviour | None, tuple[Found, ...]]:
    drawn = tuple(f.signature for f in faults)
    why = _unplayable(game, faults)
    if why:
        return Trial(draw, game, drawn, positions, "unplayable", why), None, ()
    token = f"{draw}:{seed}:{positions}:{'+'.join(drawn)}"
    VISITS.pop(token, None)
    began = time.process_time()
    try:
        report, diagnosis = _campaign(in_process(MakeWitness(drawn, token)), game, positions=positions,
                                      games=games, seed=seed, max_steps=max_steps)
    finally:
        visits = VISITS.pop(token, Visits())
    cpu = time.process_time() - began
    found = found_classes(report)
    base = Trial(draw, game, drawn, positions, "", classes=found, cpu=cpu, wall=report.seconds,
                 diagnosis=diagnosis)
    outcome, why = _apart(found)
    if outcome:
        return _with(base, outcome, why), None, found
    return base, Behaviour(game, visits), found


def _with(trial: Trial, outcome: str, why: str = "", expected: tuple[str, ...] = ()) -> Trial:
    return Trial(trial.draw, trial.game, trial.drawn, trial.positions, outcome, why, trial.classes, trial.cpu,
                 trial.wall, trial.diagnosis, expected)


def _match(behaviour: Behaviour, cls: Found, fault: Fault, also: Sequence[Fault] = ()) -> str:
    """``exact`` when the class's diagnosis is ``fault``, ``equivalent`` when it behaves as ``fault`` alone
    (or as the faults ``also``) on every visited comparison, else ``""``."""
    if cls.faults == (fault.signature,):
        return "exact"
    if cls.faults and (behaviour.same(cls.faults, [fault]) or (also and behaviour.same(cls.faults, also))):
        return "equivalent"
    return ""


def one_edit(signature: str, *, positions: bool, games: int = 8, seed: int = 0, max_steps: int = 300
             ) -> Trial:
    """A campaign against the reference under one fault (its signature): a hit is exactly one class,
    explained, whose diagnosis is the fault or behaves identically on every visited position."""
    fault = parse(signature)
    trial, behaviour, found = _edited_campaign("one edit", fault.game, [fault], positions=positions,
                                               games=games, seed=seed, max_steps=max_steps)
    if behaviour is None:
        return trial
    if len(found) != 1:
        return _with(trial, "miss", f"{len(found)} classes")
    if not found[0].faults:
        return _with(trial, "miss", "unexplained")
    how = _match(behaviour, found[0], fault)
    return _with(trial, how or "miss", "" if how else "another diagnosis, which behaves otherwise")


def two_edits(
    signatures: Sequence[str], *, positions: bool, games: int = 8, seed: int = 0, max_steps: int = 300
) -> Trial:
    """A campaign against the reference under two faults of one game: a hit is one class per fault that
    shows (taking it away changes what the peer does on the visited positions: not an edit the games never
    reach, nor one the other masks), each exact or equivalent to its fault (one showing: or to the pair)."""
    faults = [parse(s) for s in signatures]
    game = faults[0].game
    trial, behaviour, found = _edited_campaign("two edits", game, faults, positions=positions, games=games,
                                               seed=seed, max_steps=max_steps)
    if behaviour is None:
        return trial
    pair = behaviour.of(faults)
    showing = [f for f in faults if behaviour.of([g for g in faults if g != f]) != pair]
    expected = tuple(f.signature for f in showing)
    if not showing:
        return _with(trial, "miss", "neither edit changes what the other does alone, yet the pair shows",
                     expected)
    if len(found) != len(showing):
        return _with(trial, "miss", f"{len(found)} classes for {len(showing)} edits showing", expected)
    left = list(showing)
    how = "exact"
    for cls in found:
        also = faults if len(showing) == 1 else ()
        got = next(((f, m) for f in left if (m := _match(behaviour, cls, f, also))), None)
        if got is None:
            return _with(trial, "miss", f"no edit is diagnosed by {cls.signature}", expected)
        left.remove(got[0])
        how = "equivalent" if got[1] == "equivalent" else how
    return _with(trial, how, "", expected)


# ------------------------------------------------------------------------------------------ clauses


def mutant(m: Mutant, work: Path, *, games: int = 8, seed: int = 0, max_steps: int = 300,
           positions: bool = True, timeout: float = 5.0) -> Trial:
    """A campaign against the reference engine of scratch copy ``work`` with mutant ``m`` applied, as a
    subprocess peer: a hit is one class naming a clause of the mutated line (:func:`line_clauses`); a line
    naming none is ``no clause`` (set apart, its classes kept) once the campaign shows a rule divergence."""
    game = m.games()[0]
    source = (work / m.path).read_text(encoding="utf-8")  # the scratch copy's (the tree may change meanwhile)
    expected = line_clauses(m.path, source, m.line, game)
    drawn = (m.describe(),)
    target = work / m.path
    target.write_text(m.build(), encoding="utf-8")
    command = ("env", f"PYTHONPATH={work}", "PYTHONDONTWRITEBYTECODE=1", sys.executable, "-m",
               "engine.conformance.peers.reference")
    began = time.process_time()
    try:
        report, diagnosis = _campaign(subprocess_peer(command, timeout=timeout, cwd=str(work)), game,
                                      positions=positions, games=games, seed=seed, max_steps=max_steps)
    except PeerFailure as exc:
        return Trial("code mutants", game, drawn, positions, "unplayable", f"the peer does not start: {exc}",
                     expected=expected)
    except InputError as exc:  # the mutant's hello offers no game or variant of the draw's
        return Trial("code mutants", game, drawn, positions, "unplayable", f"the peer offers no game: {exc}",
                     expected=expected)
    finally:
        target.write_text(source, encoding="utf-8")
    found = found_classes(report)
    trial = Trial("code mutants", game, drawn, positions, "", "", found, time.process_time() - began,
                  report.seconds, diagnosis, expected)
    outcome, why = _apart(found)
    if outcome:
        return _with(trial, outcome, why, expected)
    if not expected:  # a rule divergence, but no clause to judge its class by
        shown = "one class" if len(found) == 1 else f"{len(found)} classes"
        return _with(trial, "no clause", f"the line's function and module name no clause ({shown})")
    if len(found) != 1:
        return _with(trial, "miss", f"{len(found)} classes", expected)
    if set(found[0].clauses) & set(expected):
        return _with(trial, "named", "", expected)
    return _with(trial, "miss", "its class names another clause", expected)


# ------------------------------------------------------------------------------------------ draws


def draw_singles(count: int, seed: int) -> list[Fault]:
    """``count`` faults drawn from the fault spaces of the games in turn (seeded)."""
    rng = random.Random(f"arbiter-rates:one:{seed}")
    names = game_names()
    return [rng.choice(fault_space(names[i % len(names)])) for i in range(count)]


def _distinct(a: Fault, b: Fault) -> bool:
    """Whether two faults change different values (no target of one is, or holds, a target of the other)."""
    return not any(x == y or x.startswith((f"{y}.", f"{y}/")) or y.startswith((f"{x}.", f"{x}/"))
                   for x in a.changes for y in b.changes)


def draw_pairs(count: int, seed: int) -> list[tuple[Fault, Fault]]:
    """``count`` pairs of faults of one game with different targets, the games in turn (seeded)."""
    rng = random.Random(f"arbiter-rates:two:{seed}")
    names = game_names()
    out = []
    for i in range(count):
        space = fault_space(names[i % len(names)])
        a = rng.choice(space)
        b = rng.choice(space)
        while not _distinct(a, b):
            b = rng.choice(space)
        out.append((a, b))
    return out


def draw_mutants(count: int, seed: int) -> list[Mutant]:
    """``count`` code mutants of :data:`RULE_FILES` (seeded), the games in turn."""
    rng = random.Random(f"arbiter-rates:mutants:{seed}")
    by_game: dict[str, list[Mutant]] = {}
    for rel in RULE_FILES:
        for m in code_mutants(rel, (ROOT / rel).read_text(encoding="utf-8")):
            by_game.setdefault(m.games()[0], []).append(m)
    names = [g for g in game_names() if by_game.get(g)]
    pools = {g: rng.sample(by_game[g], len(by_game[g])) for g in names}
    return [pools[names[i % len(names)]][i // len(names)] for i in range(count)]


def _scratch() -> Path:
    """A copy of the engine, its tables and seeds to mutate (what the reference peer needs to run)."""
    work = Path(tempfile.mkdtemp(prefix="arbiter-rates-"))
    for name in ("engine", "spec", "seeds"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return work


def run(*, faults: int, pairs: int, mutants: int, games: int, seed: int, max_steps: int,
        progress: Any = None) -> list[Trial]:
    """Every trial of a draw: ``faults`` single edits and ``pairs`` pairs, each with positions and without,
    and ``mutants`` code mutants with positions (``progress``: called with each trial as it ends)."""
    trials: list[Trial] = []

    def done(t: Trial) -> None:
        trials.append(t)
        if progress is not None:
            progress(t)

    for i, fault in enumerate(draw_singles(faults, seed)):
        for positions in (True, False):
            done(one_edit(fault.signature, positions=positions, games=games, seed=seed * 10_000 + i,
                          max_steps=max_steps))
    for i, (a, b) in enumerate(draw_pairs(pairs, seed)):
        for positions in (True, False):
            done(two_edits([a.signature, b.signature], positions=positions, games=games,
                           seed=seed * 10_000 + 5_000 + i, max_steps=max_steps))
    if mutants:
        work = _scratch()
        try:
            for i, m in enumerate(draw_mutants(mutants, seed)):
                done(mutant(m, work, games=games, seed=seed * 10_000 + 8_000 + i, max_steps=max_steps))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return trials


_TRIAL = re.compile(r"^  ([a-z ]+?) +code mutants, with: (\S+?):(\d+): (.*) -> \d+ classes? \(")
_HEADER = re.compile(r"^diagnosis rates: seed (\d+),")


def counted_before(path: str | Path) -> list[tuple[int, str, int, str]]:
    """The code mutants a saved report counted, in its order: ``(campaign seed, file, line, mutation)``.
    The report is :func:`report`'s output with its per-trial lines (both streams: ``2>&1``); each
    mutant's campaign seed is the one its draw gave it (the draw's seed, its place in the draw).

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "r.txt"
    >>> lines = ["diagnosis rates: seed 4, ...",
    ...          "  silent     code mutants, with: engine/a.py:3: x -> y -> 0 classes (1.0 s)",
    ...          "  miss       code mutants, with: engine/a.py:9: p -> q -> 2 classes (2.0 s)"]
    >>> _ = f.write_text("\\n".join(lines))
    >>> counted_before(f)
    [(48001, 'engine/a.py', 9, 'p -> q')]
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError("--again", f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError("--again", f"{path}: not a UTF-8 text report") from None
    seed: int | None = None
    i = 0
    out: list[tuple[int, str, int, str]] = []
    for line in text.splitlines():
        if (head := _HEADER.match(line)) is not None:
            seed, i = int(head[1]), 0
        elif (m := _TRIAL.match(line)) is not None and seed is not None:
            if m[1] in ("hit", "named", "miss"):
                out.append((seed * 10_000 + 8_000 + i, m[2], int(m[3]), m[4]))
            i += 1
    if not out:
        raise InputError("--again", f"{path}: no code mutant counted; give a report saved with its per-trial "
                                    "lines (both streams: 2>&1)")
    return out


def _listed(path: str | Path) -> list[tuple[str, int, str]]:
    """Every code mutant a saved report lists, counted or set apart: ``(file, line, mutation)``."""
    text = Path(path).read_text(encoding="utf-8")
    return [(m[2], int(m[3]), m[4].strip()) for line in text.splitlines() if (m := _TRIAL.match(line))]


def _line_then(report: str | Path, path: str, line: int) -> str | None:
    """The text of ``path``'s line ``line`` at the commit a saved report is named by (``410552f-seed1.txt``),
    stripped, from git; ``None`` when the name names no commit git has."""
    commit = Path(report).name.split("-")[0]
    lines = _file_then(commit, path) if re.fullmatch(r"[0-9a-f]{7,40}", commit) else None
    return lines[line - 1].strip() if lines is not None and 0 < line <= len(lines) else None


@functools.cache
def _file_then(commit: str, path: str) -> list[str] | None:
    try:
        shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{path}"], capture_output=True,
                               text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return shown.stdout.splitlines() if shown.returncode == 0 else None


def _line_now(path: str, line: int) -> str:
    lines = _file_now(path)
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


@functools.cache
def _file_now(path: str) -> list[str]:
    return (ROOT / path).read_text(encoding="utf-8").splitlines()


def _moved(listed: Sequence[tuple[str, int, str]], pool: Mapping[tuple[str, str], Sequence[Mutant]]
           ) -> Callable[[str, int], int]:
    """Where a line of a report's tree is in this one: a mutation found once in its file now is an anchor
    (its old and new line); a line moves as its file's nearest anchor did (lines added above it move it,
    so the same text written twice is told apart by where it went, not by where it was).

    >>> pool = {("a.py", "x -> y"): [Mutant("a.py", 15, "x", "y", str)]}
    >>> _moved([("a.py", 10, "x -> y")], pool)("a.py", 30)
    35
    """
    anchors: dict[str, list[tuple[int, int]]] = {}
    for path, line, text in listed:
        found = pool.get((path, text))
        if found is not None and len(found) == 1:
            anchors.setdefault(path, []).append((line, found[0].line))

    def where(path: str, line: int) -> int:
        near = min(anchors.get(path, ()), key=lambda a: abs(a[0] - line), default=None)
        return line if near is None else line + near[1] - near[0]

    return where


def run_again(paths: Sequence[str | Path], *, games: int, max_steps: int, progress: Any = None
              ) -> tuple[list[Trial], int]:
    """The code mutants saved reports counted, run again on this tree, each with its campaign seed: the
    same mutants before and after a change, whatever the rule modules' text now draws.  A mutant is found
    by its file and mutation; of that text written more than once, the one whose line reads as it did at
    the report's commit (where git has it), else the one nearest where its line moved (:func:`_moved`);
    returns the trials and how many are gone."""
    pool: dict[tuple[str, str], list[Mutant]] = {}
    for rel in RULE_FILES:
        for m in code_mutants(rel, (ROOT / rel).read_text(encoding="utf-8")):
            pool.setdefault((m.path, m.describe().split(":", 2)[2].strip()), []).append(m)
    moved = _moved([a for path in paths for a in _listed(path)], pool)
    counted_in = [(report, c) for report in paths for c in counted_before(report)]
    trials: list[Trial] = []
    gone = 0
    work = _scratch()
    try:
        for report, (seed, path, line, text) in counted_in:
            found = pool.get((path, text.strip()))
            if not found:
                gone += 1
                continue
            was = _line_then(report, path, line)  # the line's own text, where git has the report's commit
            same = [c for c in found if was is not None and _line_now(c.path, c.line) == was]
            m = min(same or found, key=lambda c: abs(c.line - moved(path, line)))
            trials.append(mutant(m, work, games=games, seed=seed, max_steps=max_steps))
            if progress is not None:
                progress(trials[-1])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return trials, gone


# ------------------------------------------------------------------------------------------ the figures


def _rows(trials: Sequence[Trial]) -> Iterator[tuple[str, bool, list[Trial]]]:
    for draw in TARGETS:
        for positions in (True, False):
            mine = [t for t in trials if t.draw == draw and t.positions == positions]
            if mine:
                yield draw, positions, mine


def summary(trials: Sequence[Trial]) -> list[str]:
    """The printed figures: a line per draw and mode (drawn, counted, hits, rate, target; exact and
    equivalent among the hits; silent, unplayable and unjudgeable apart), the campaigns' time, the median
    diagnosis CPU per class; then every miss with its classes, and what was set apart."""
    out = [f"{'draw':<13} {'positions':<9} {'drawn':>5} {'counted':>7} {'hits':>5} {'rate':>7} {'target':>6}"
           "  "
           f"{'exact':>5} {'equiv':>5}  " + " ".join(f"{o:>{max(6, len(o))}}" for o in APART)]
    for draw, positions, mine in _rows(trials):
        counted = [t for t in mine if t.counted]
        hits = sum(t.hit for t in counted)
        rate = f"{100 * hits / len(counted):.1f}%" if counted else "-"
        n = {o: sum(t.outcome == o for t in mine) for o in ("exact", "equivalent", "named", *APART)}
        out.append(f"{draw:<13} {'with' if positions else 'without':<9} {len(mine):>5} {len(counted):>7} "
                   f"{hits:>5} {rate:>7} {TARGETS[draw] * 100:>5.0f}%  {n['exact'] + n['named']:>5} "
                   f"{n['equivalent']:>5}  " + " ".join(f"{n[o]:>{max(6, len(o))}}" for o in APART))
    for draw, target in TARGETS.items():
        counted = [t for t in trials if t.draw == draw and t.counted]
        if counted and len({t.positions for t in trials if t.draw == draw}) > 1:
            hits = sum(t.hit for t in counted)
            out.append(f"{draw:<13} {'both':<9} {'':>5} {len(counted):>7} {hits:>5} "
                       f"{100 * hits / len(counted):>6.1f}% {target * 100:>5.0f}%")
    ran = [t for t in trials if t.classes or t.outcome == "silent"]
    per_class = sorted(t.diagnosis / len(t.classes) for t in ran if t.classes)
    if ran:
        out.append(f"campaigns: {len(ran)}, CPU {sum(t.cpu for t in ran):.0f} s (median "
                   f"{statistics.median(t.cpu for t in ran):.1f} s), wall clock "
                   f"{sum(t.wall for t in ran):.0f} s; "
                   f"diagnosis CPU {sum(t.diagnosis for t in ran):.0f} s of it")
    if per_class:
        out.append(f"diagnosis CPU per class: median {statistics.median(per_class) * 1000:.0f} ms (quartiles "
                   f"{_quartile(per_class, 1) * 1000:.0f}-{_quartile(per_class, 3) * 1000:.0f} ms, most "
                   f"{per_class[-1] * 1000:.0f} ms) over {len(per_class)} campaigns")
    out.extend(_mutant_lines([t for t in trials if t.draw == "code mutants"]))
    misses = [t for t in trials if t.outcome == "miss"]
    out.append(f"misses: {len(misses)}")
    for t in misses:
        out.extend(_described(t))
    apart = [t for t in trials if not t.counted]
    if apart:
        out.append(f"set apart: {len(apart)}")
        for t in apart:
            out.append(f"  {t.outcome}: {t.draw}, {'with' if t.positions else 'without'} positions: "
                       f"{' + '.join(t.drawn)}: {t.why}")
            if t.outcome == "no clause":
                out.extend(f"    class: {c.show()}" for c in t.classes)
    return out


def _mutant_lines(mutants: Sequence[Trial]) -> list[str]:
    """The code mutants' figures beside the rate: counting the peers that crash or refuse set-ups as misses,
    and how the mutants whose line names no clause came out."""
    if not mutants:
        return []
    failing = [t for t in mutants if t.counted or (t.outcome in ("crash", "unplayable") and t.classes)]
    hits = sum(t.hit for t in failing)
    out = []
    if failing:
        out.append(f"code mutants, a crash or a refused set-up counted as a miss: {hits}/{len(failing)} "
                   f"({100 * hits / len(failing):.1f}%)")
    counted = [t for t in mutants if t.counted and t.classes]
    if counted:  # beside the rate, not instead of it: residue classes of one defect are still misses
        largest = sum(bool(set(max(t.classes, key=lambda c: c.count).clauses) & set(t.expected))
                      for t in counted)
        out.append(f"code mutants whose largest class names the line's clause: {largest}/{len(counted)} "
                   f"({100 * largest / len(counted):.1f}%)")
    unjudged = [t for t in mutants if t.outcome == "no clause"]
    if unjudged:
        one = [t for t in unjudged if len(t.classes) == 1]
        explained = sum(bool(t.classes[0].faults) for t in one)
        out.append(f"code mutants whose line names no clause: {len(unjudged)} showed a rule divergence, "
                   f"{len(one)} as one class ({explained} of them explained)")
    return out


def _described(t: Trial) -> list[str]:
    lines = [f"  {t.draw}, {'with' if t.positions else 'without'} positions: {' + '.join(t.drawn)}: {t.why}"]
    if t.expected:
        lines.append(f"    expected: {', '.join(t.expected)}")
    lines.extend(f"    class: {c.show()}" + (f" [clauses {', '.join(c.clauses)}]" if t.draw == "code mutants"
                                               else "") for c in t.classes)
    return lines


def _quartile(ordered: Sequence[float], q: int) -> float:
    return ordered[min(len(ordered) - 1, len(ordered) * q // 4)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the draw (``arbiter bench diagnosis`` declares the same ones)."""
    parser.add_argument("--faults", type=cliargs.count("--faults", lo=0), default=DEFAULTS["faults"],
                        help=f"single edits drawn, the games in turn (default {DEFAULTS['faults']})")
    parser.add_argument("--pairs", type=cliargs.count("--pairs", lo=0), default=DEFAULTS["pairs"],
                        help=f"pairs of edits drawn (default {DEFAULTS['pairs']})")
    parser.add_argument("--mutants", type=cliargs.count("--mutants", lo=0), default=DEFAULTS["mutants"],
                        help=f"code mutants of the rule modules drawn (default {DEFAULTS['mutants']})")
    parser.add_argument("--games", type=cliargs.count("--games"), default=DEFAULTS["games"],
                        help=f"games per campaign (default {DEFAULTS['games']})")
    parser.add_argument("--max-steps", type=cliargs.count("--max-steps"), default=DEFAULTS["max_steps"],
                        help=f"actions per game at most (default {DEFAULTS['max_steps']})")
    parser.add_argument("--seed", type=cliargs.seed("--seed"), default=1, help="the draw's seed (default 1)")
    parser.add_argument("--again", metavar="REPORT", action="append", default=None,
                        help="run again the code mutants a saved report (both streams) counted, each with "
                        "its campaign seed, instead of a draw (repeatable)")


def report(*, faults: int, pairs: int, mutants: int, games: int, seed: int, max_steps: int,
           verbose: bool = True, again: Sequence[str] = ()) -> int:
    """Run the draw and print its figures; with ``again`` (saved reports), the code mutants they counted
    instead (:func:`run_again`)."""
    for path in again:  # a report that cannot be read is refused before anything runs
        counted_before(path)
    if again:
        print(f"diagnosis rates: the code mutants {', '.join(map(str, again))} counted, again on this tree; "
              f"{games} games per campaign, at most {max_steps} actions each", flush=True)
    else:
        print(f"diagnosis rates: seed {seed}, {faults} single edits and {pairs} pairs (each with and without "
              f"positions), {mutants} code mutants (with positions); {games} games per campaign, at most "
              f"{max_steps} actions each", flush=True)

    def tick(t: Trial) -> None:
        if verbose:
            where = "with" if t.positions else "without"
            print(f"  {t.outcome:<10} {t.draw}, {where}: {' + '.join(t.drawn)} -> "
                  f"{len(t.classes)} classes ({t.cpu:.1f} s)", file=sys.stderr, flush=True)

    began = time.monotonic()
    if again:
        trials, gone = run_again(again, games=games, max_steps=max_steps, progress=tick)
        print(f"{len(trials) + gone} counted before; {gone} no longer in the rule modules' text")
    else:
        trials = run(faults=faults, pairs=pairs, mutants=mutants, games=games, seed=seed,
                     max_steps=max_steps, progress=tick)
    print(*summary(trials), sep="\n")
    print(f"{len(trials)} trials in {time.monotonic() - began:.0f} s wall clock")
    return 0


def bench(args: argparse.Namespace) -> int:
    """``arbiter bench diagnosis``: :func:`report` with the bench's options (a draw's size left out: the
    default of :data:`DEFAULTS`)."""

    def given(name: str) -> int:
        value = getattr(args, name, None)
        return DEFAULTS[name] if value is None else int(value)

    return report(faults=given("faults"), pairs=given("pairs"), mutants=given("mutants"),
                  games=given("games"), seed=int(getattr(args, "seed", None) or 1),
                  max_steps=given("max_steps"),
                  verbose=not getattr(args, "quiet", False), again=getattr(args, "again", None) or ())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m engine.conformance.diagnosis.rates``: print the rates of a draw."""
    parser = argparse.ArgumentParser(prog="python -m engine.conformance.diagnosis.rates",
                                     description=(__doc__ or "").split("\n\n")[0])
    add_arguments(parser)
    parser.add_argument("--quiet", action="store_true", help="no line per trial on stderr")
    args = parser.parse_args(argv)
    try:
        return report(faults=args.faults, pairs=args.pairs, mutants=args.mutants, games=args.games,
                      seed=args.seed, max_steps=args.max_steps, verbose=not args.quiet,
                      again=args.again or ())
    except InputError as exc:  # a report that cannot be read: one line, exit 2
        parser.exit(2, f"{parser.prog}: error: {exc}\n")


if __name__ == "__main__":
    sys.exit(main())
