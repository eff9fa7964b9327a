"""How a campaign groups what its batches found into classes, sets waived ones aside, and counts them as it
goes.

Classes are by diagnosis: every divergence one set of faults explains is one class
(:func:`~engine.conformance.diagnosis.classes.cover`), the largest first; the divergences nothing explains
are grouped by their game and deciding clause (:func:`unexplained_class`: ``petersburg:unexplained:SP-BUY-1``,
whatever their kind, the fact that differs or the card involved: one defect seen in several ways is one
class), a candidate-set clause another position discriminated joining that class.  The peer's own failures
(a crash, a timeout, garbage) and refused set-ups keep their own signatures.  **Waivers** set known,
accepted differences aside: a TOML file of signatures (shell-style patterns; a diagnosis's signature, an
unexplained class's or a divergence's own) with a reason each::

    [[waiver]]
    signature = "petersburg:legal-extra:SP-PUB-2:pub"
    reason = "our Pub asks even when 0 VP is the only choice"

>>> Waiver("take6:edit:*", "known").matches("take6:edit:setup/standard/row_capacity=4")
True
"""

from __future__ import annotations

import fnmatch
import functools
import time
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from attrs import frozen

from engine.conformance.campaign.batches import BatchResult, class_key
from engine.conformance.campaign.divergence import Divergence
from engine.conformance.campaign.duel import FAILURE_KINDS
from engine.conformance.campaign.report import DivergenceClass
from engine.conformance.diagnosis.classes import cover
from engine.conformance.diagnosis.faults import parse
from engine.conformance.kits.base import get_kit
from engine.errors import InputError
from engine.spec import clause_games, load_clauses

__all__ = ["CampaignProgress", "Waiver", "group", "load_waivers", "unexplained_class", "waiver_for"]

APART_KINDS = (*FAILURE_KINDS, "setup")
"""Kinds whose divergences keep their own signature when unexplained: the peer's failures and refused
set-ups show no rule's step."""

@frozen
class Waiver:
    """A signature pattern (``fnmatch``: ``*`` and ``?``) set aside, with the reason."""

    signature: str
    reason: str

    def matches(self, signature: str) -> bool:
        """Whether the waiver covers ``signature``."""
        return fnmatch.fnmatchcase(signature, self.signature)


def load_waivers(path: str | Path) -> tuple[Waiver, ...]:
    """Read a waiver file: ``[[waiver]]`` tables with ``signature`` and ``reason`` (both non-empty strings).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "w.toml"
    >>> _ = p.write_text('[[waiver]]\\nsignature = "take6:to_act:*"\\nreason = "known"\\n')
    >>> load_waivers(p)
    (Waiver(signature='take6:to_act:*', reason='known'),)
    """
    where = f"--waive {path}"
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(where, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(where, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(where, f"not TOML: {exc}") from None
    extra = sorted(set(data) - {"waiver"})
    if extra:
        raise InputError(f"{where}: {extra[0]}", "unknown table (known: waiver)")
    entries = data.get("waiver", [])
    if not isinstance(entries, list):
        raise InputError(f"{where}: waiver", "expected [[waiver]] tables")
    out: list[Waiver] = []
    for i, entry in enumerate(entries):
        at = f"{where}: waiver[{i}]"
        if not isinstance(entry, dict):
            raise InputError(at, "expected a table")
        for key in entry:
            if key not in ("signature", "reason"):
                raise InputError(f"{at}.{key}", "unknown field (known: signature, reason)")
        for key in ("signature", "reason"):
            value = entry.get(key)
            if not isinstance(value, str) or not value.strip():
                raise InputError(f"{at}.{key}", "required: a non-empty string")
        out.append(Waiver(entry["signature"], entry["reason"]))
    return tuple(out)


def waiver_for(signature: str, waivers: Sequence[Waiver]) -> Waiver | None:
    return next((w for w in waivers if w.matches(signature)), None)


DENIAL_KINDS = ("legal-missing", "refused-legal")
"""The kinds of divergence where the peer denies an action the rules grant."""


def _discriminated(sig: str, signatures: Iterable[str]) -> str:
    """The class a candidate-set signature belongs to: where the deciding entry names several clauses
    that explain a difference equally (``SP-COST-3|SP-COST-4``, subjects ``Gold Smelter|lower row``) and
    another divergence of the campaign, of the same kind and detail, was decided by fewer of them with its
    subjects among them (a position that discriminates them), the smallest such signature; else ``sig``.
    Of a denial (an action missing or refused), any other denial discriminates it, whatever its action.
    With none of the same kind and detail, one of another kind does: the difference the same step
    explains may show as another fact (a low card not waited for: who acts, or only the phase).

    >>> _discriminated("sp:money:A-1|B-1:-:x|y", ["sp:money:B-1:-:y", "sp:money:A-1|B-1:-:x|y"])
    'sp:money:B-1:-:y'
    >>> _discriminated("sp:refused-legal:T-2|T-3:pass", ["sp:legal-missing:T-2:buy"])
    'sp:legal-missing:T-2:buy'
    >>> _discriminated("t:claim:P-1|P-3:phase", ["t:to_act:P-3:-", "t:claim:P-1|P-3:phase"])
    't:to_act:P-3:-'
    """
    parts = sig.split(":")
    if len(parts) < 4 or "|" not in parts[2]:
        return sig
    candidates = set(parts[2].split("|"))
    subjects = set(parts[4].split("|")) if len(parts) > 4 else set()
    for alike in (True, False):  # of the same kind and detail first, then of any
        best, size = sig, len(candidates)
        for other in signatures:
            o = other.split(":")
            if other == sig or len(o) < 4 or o[0] != parts[0]:
                continue
            # a denial (an action missing or refused) asks whether a step of its grant holds, whatever the
            # action: any other denial decided by fewer of the steps discriminates it
            denials = parts[1] in DENIAL_KINDS and o[1] in DENIAL_KINDS
            if alike and not denials and (o[1] != parts[1] or o[3] != parts[3]):
                continue
            mine = set(o[2].split("|"))
            if mine < candidates and len(mine) < size and (len(o) < 5 or set(o[4].split("|")) <= subjects):
                best, size = other, len(mine)
        if best != sig:
            return best
    return sig


def _shared_denials(classes: Mapping[str, str]) -> dict[str, str]:
    """Denials left as candidate sets (no denial of the campaign decided by fewer of their steps) that
    share a step: the smallest explanation of them all is that step, so each joins the class of the step
    most of the distinct sets name (the first in order on a tie); a step no other set names leaves its
    set as it is.  ``classes`` maps signatures to their classes; the result, the ones that change.

    >>> _shared_denials({"t:refused-legal:A-1|P-3:x": "t:unexplained:A-1|P-3",
    ...                  "t:refused-legal:A-1|S-1:y": "t:unexplained:A-1|S-1"})
    {'t:refused-legal:A-1|P-3:x': 't:unexplained:A-1', 't:refused-legal:A-1|S-1:y': 't:unexplained:A-1'}
    """
    sets = {sig: cls for sig, cls in classes.items()
            if sig.split(":")[1:2] and sig.split(":")[1] in DENIAL_KINDS and "|" in cls.split(":")[-1]}
    counts = Counter(c for cls in set(sets.values()) for c in cls.split(":")[-1].split("|"))
    out: dict[str, str] = {}
    for sig, cls in sets.items():
        game, _kind, steps = cls.split(":", 2)
        names = steps.split("|")
        best = max(names, key=lambda c: (counts[c], -names.index(c)))
        if counts[best] > 1:
            out[sig] = f"{game}:unexplained:{best}"
    return out


def _out_of_turn(named: Iterable[tuple[str, tuple[str, ...]]], classes: Mapping[str, str]) -> dict[str, str]:
    """Actions the peer accepts or offers that the rules refuse because their seat may not act now, under
    another rule than the turn's (a second selection: T6-SELECT-2; :func:`refusing` puts the turn's step
    last, as context): where the campaign holds a class of the turn's step itself (the peer refused the
    seat that acts, or accepted another seat's action), they join it, one turn test letting seats act out
    of turn; else they keep their rule.  ``named``: each divergence's signature and clauses; ``classes``
    maps the unexplained signatures to their classes; the result, the ones that change.

    >>> sig = "take6:accepted-illegal:T6-SELECT-2:select"
    >>> _out_of_turn([(sig, ("T6-SELECT-2", "T6-ACT-1"))],
    ...              {sig: "take6:unexplained:T6-SELECT-2", "x": "take6:unexplained:T6-ACT-1"})
    {'take6:accepted-illegal:T6-SELECT-2:select': 'take6:unexplained:T6-ACT-1'}
    >>> _out_of_turn([(sig, ("T6-SELECT-2", "T6-ACT-1"))], {sig: "take6:unexplained:T6-SELECT-2"})
    {}
    """
    present = set(classes.values())
    out: dict[str, str] = {}
    for sig, clauses in named:
        parts = sig.split(":")
        if len(parts) < 3 or parts[1] not in ("accepted-illegal", "legal-extra") or sig not in classes \
                or len(clauses) < 2:
            continue
        turn = _turn_clause(parts[0])
        joined = f"{parts[0]}:unexplained:{turn}"
        if clauses[-1] == turn and turn not in clauses[0].split("|") and joined in present:
            out[sig] = joined
    return out


@functools.cache
def _turn_clause(game: str) -> str | None:
    """The clause of ``game``'s step that a seat may act now (its kit's ``turn_clause``; ``None`` for a
    name no game has)."""
    try:
        return get_kit(game).turn_clause
    except InputError:
        return None


def unexplained_class(signature: str) -> str:
    """The class of a divergence nothing explains: its game and deciding clause (or candidate set), whatever
    its kind, detail and subject (``game:unexplained:clause``); a variant's clause that restates a step
    of every variant (its ``restates``: T6-PRO-5, a card fitting no row where the professional rows fit)
    is that step's clause, so one slip in the step is one class whatever variant it shows in; a failure
    of the peer or a refused set-up keeps its signature.

    >>> unexplained_class("petersburg:legal-missing:SP-BUY-1:buy")
    'petersburg:unexplained:SP-BUY-1'
    >>> unexplained_class("take6:winners:T6-KIDS-4:-")
    'take6:unexplained:T6-END-2'
    >>> unexplained_class("take6:crash:-:apply")
    'take6:crash:-:apply'
    """
    parts = signature.split(":")
    if len(parts) < 3 or parts[1] in APART_KINDS:
        return signature
    return f"{parts[0]}:unexplained:{_step_clauses(parts[0], parts[2])}"


@functools.cache
def _step_clauses(game: str, deciding: str) -> str:
    """``deciding`` (a clause or ``|``-joined candidates), each variant's clause as the step it restates."""
    if game not in clause_games():
        return deciding
    book = load_clauses(game)
    return "|".join(dict.fromkeys(book.step_clause(c) for c in deciding.split("|")))


def group(results: Mapping[int, BatchResult], waivers: Sequence[Waiver]) -> tuple[DivergenceClass, ...]:
    """Group every divergence into classes: by diagnosis, every divergence one set of faults explains in one
    class (:func:`~engine.conformance.diagnosis.classes.cover`), the largest first; the divergences nothing
    explains by signature (a candidate set another position discriminated joins that class).  A class's
    first occurrence is its lowest ``(batch, ordinal)``."""
    entries: dict[tuple[int, int, str], tuple[Divergence, int]] = {}
    for b in sorted(results):
        for ordinal, div in results[b].found:
            key = class_key(div)
            entries[(b, ordinal, key)] = (div, results[b].counts.get(key, 1))
    explained = {
        k: tuple(tuple(parse(s) for s in fs) for fs in d.explanations) for k, (d, _n) in entries.items()
    }
    unexplained = {k: d.signature for k, (d, _n) in entries.items()}
    weights = {k: n for k, (_d, n) in entries.items()}
    found = cover(explained, unexplained, weights)
    merged: dict[str, str] = {}
    plain = [c.signature for c in found if not c.explained]
    for sig in plain:  # a candidate set another position discriminated: one class (_discriminated)
        # a signature a waiver names keeps its class (waived); the others: one class per deciding clause
        merged[sig] = sig if waiver_for(sig, waivers) else unexplained_class(_discriminated(sig, plain))
    merged.update(_shared_denials(merged))
    merged.update(_out_of_turn([(d.signature, d.clauses) for d, _n in entries.values()], merged))
    grouped: dict[str, list[tuple[int, int, str]]] = {}
    faults: dict[str, tuple[str, ...]] = {}
    for c in found:
        sig = merged.get(c.signature, c.signature)
        grouped.setdefault(sig, []).extend(c.members)  # type: ignore[arg-type]
        faults[sig] = tuple(f.signature for f in c.faults)
    out = []
    for sig, members in grouped.items():
        own = [k for k in members  # not a candidate set merged in
               if sig in (entries[k][0].signature, unexplained_class(entries[k][0].signature))]
        first = min(own or members)
        count = sum(weights[k] for k in members)
        div = entries[first][0]
        waiver = waiver_for(sig, waivers) or (waiver_for(div.signature, waivers) if faults[sig] else None)
        kinds = tuple(dict.fromkeys(entries[k][0].kind for k in sorted(members)))
        out.append(DivergenceClass(sig, count, div, waived=waiver.reason if waiver else None, batch=first[0],
                                   faults=faults[sig], kinds=kinds))
    out.sort(key=lambda c: (not c.faults, -c.count, c.batch, min(k[1] for k in grouped[c.signature])))
    return tuple(out)


class CampaignProgress:
    """Live counters of a running campaign (what the progress display shows).  Its classes are grouped as
    the report groups them (:func:`group`), so the last progress line and the summary agree."""

    def __init__(self, games: int | None, seconds: float | None, started: float) -> None:
        self.target_games = games
        self.target_seconds = seconds
        self.started = started
        self.games = self.steps = self.probes = 0
        self.results: dict[int, BatchResult] = {}
        self.waivers: Sequence[Waiver] = ()
        self.classes: tuple[DivergenceClass, ...] = ()
        """The classes so far, grouped and waived as in the report."""
        self.shrinking = self.shrunk = 0

    def add(self, result: BatchResult, waivers: Sequence[Waiver]) -> None:
        """Count a finished batch; the classes so far are those the summary would report now."""
        self.games += result.games
        self.steps += result.steps
        self.probes += result.probes
        self.results[result.batch] = result
        self.waivers = waivers
        self.classes = group(self.results, waivers)

    @property
    def open_classes(self) -> int:
        """Classes found so far that no waiver covers (the summary's count of classes)."""
        return sum(1 for c in self.classes if c.waived is None)

    @property
    def waived(self) -> int:
        """Classes found so far that a waiver covers."""
        return len(self.classes) - self.open_classes

    @property
    def elapsed(self) -> float:
        """Seconds since the start."""
        return time.monotonic() - self.started

    def line(self) -> str:
        """One plain progress line."""
        rate = self.games / self.elapsed if self.elapsed > 0 else 0.0
        head = f"{self.games}" + (f"/{self.target_games}" if self.target_games else "")
        shrink = f", shrinking {self.shrunk}/{self.shrinking}" if self.shrinking else ""
        return (
            f"campaign: {head} games, {self.steps} actions, {rate:.1f} games/s, "
            f"{self.open_classes} classes, {self.waived} waived, {self.elapsed:.0f} s{shrink}"
        )
