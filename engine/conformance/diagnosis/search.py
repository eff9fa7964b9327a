"""Diagnosis of one divergence: the smallest sets of faults under which the reference behaves exactly as the
peer did there, and as it did everywhere the peer agreed with the reference.

For a divergence (what the peer showed where the reference predicted otherwise, :class:`Seen`) the
candidates are the faults touching the tables and clauses the reference derivation of that step read
(:func:`engine.conformance.diagnosis.space.candidates`, with the apparent values the peer's numbers
suggest).  Each candidate replays the step under its :class:`~engine.conformance.diagnosis.faults.World`;
it *explains* the divergence when its prediction is what the peer showed.  A candidate that also changes a
step the peer agreed on is *refuted*: the peer did not behave like that.  When no single fault explains
the divergence unrefuted, pairs of the candidates that explain most of it are tried, and each defect
found before beside every candidate that explains some of it.  The answer is every explaining set of the
smallest size (``()`` when nothing explains it); the campaign's classes pick, among them, the one that
explains the most divergences (:mod:`engine.conformance.diagnosis.classes`).

>>> from engine.conformance.diagnosis.faults import parse, world
>>> from engine.game import get_game
>>> from engine.petersburg import Buy
>>> g = get_game("petersburg")
>>> s = g.from_notation("first 2 worker 0 0 0/1/0/1 Market,Pub Lumberjack - - 25:0:-:-:- 25:0:-:-:-")
>>> peer = world("petersburg", [parse("petersburg:edit:phases/param/lower_row_discount/value=2")])
>>> buy = Buy(0, "Lumberjack", "lower")
>>> seen = Seen("after", s, buy, shown={"money": predict(peer, "petersburg", Seen("after", s, buy,
...     shown={"money": 0}))["money"]})
>>> found = [fs[0].signature for fs in Diagnoser("petersburg").explain(seen, ())]
>>> found[0], "petersburg:edit:cards/Lumberjack/cost=0" in found  # one buy: two readings, the rule first
('petersburg:edit:phases/param/lower_row_discount/value=2', True)
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.conformance.diagnosis.evidence import REFUSED, Seen, agreement, matches, numbers, predict
from engine.conformance.diagnosis.faults import COLUMN_KINDS, Fault, World
from engine.conformance.diagnosis.space import candidates
from engine.conformance.peers.protocol import canonical
from engine.derivation import Step
from engine.errors import ArbiterError
from engine.game import get_game

__all__ = ["PAIR_POOL", "Diagnoser"]

PAIR_POOL = 12
"""How many of the best partial explanations are paired when no single fault explains a divergence."""

WORLDS = 4096
"""How many worlds a diagnoser keeps built (most recently used first)."""

KNOWN = 256
"""How many single faults found so far a diagnoser tries first on the next divergence."""

KNOWN_PAIRS = 45
"""How many pairs of the single faults found so far (the most used first) are tried on a divergence none of
them explains alone (two defects acting in one step: their effects add up there, or cancel where the peer
agreed): :meth:`Diagnoser.known_pairs`."""

KNOWN_READINGS = 4
"""How many defects found before (one fault each) the search pairs with every fault that explains a
divergence in part (a defect found before, acting beside a value seen wrong only with it):
:meth:`Diagnoser.explain`."""

AMONG = 24
"""How many of the diagnoses its batch found a divergence nothing else explained is tried against
(:meth:`Diagnoser.among`)."""

SEARCHES = 3
"""How many full searches a diagnoser makes for divergences of one signature (``game:kind:clause:...``)
that the faults found so far do not explain: a defect no fault models, seen a hundred times, costs three."""

_KIND_ORDER = {
    "reading": 0, "option": 1, "skip": 2, "negate": 2, "bound": 2, "drop": 3, "edit": 4, "swap": 5,
    "shift": 6, "misread": 7,
}
"""Of faults explaining equally, the one a report names first: a reading before an option, a skipped step,
a missing row or effect, a changed value, a swap, a column shifted or misread (a change of every row, named
only where one row's change does not explain as much)."""


def simplicity(faults: Sequence[Fault]) -> tuple[Any, ...]:
    """A sort key: fewer faults first, then by kind (:data:`_KIND_ORDER`), then by signature."""
    return (len(faults), sorted(_KIND_ORDER.get(f.kind, 9) for f in faults), [f.signature for f in faults])


class Diagnoser:
    """Diagnoses the divergences of one game (``name``), keeping the worlds it builds."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.game = get_game(name)
        self._worlds: OrderedDict[tuple[Fault, ...], World | None] = OrderedDict()
        self.replays = 0
        """Steps replayed under a fault (a figure for reports)."""
        self.known: OrderedDict[tuple[Fault, ...], None] = OrderedDict()
        """Single faults that explained an earlier divergence, most recent last."""
        self.read_clauses: set[str] = set()
        """The clauses the derivations of the divergence being diagnosed read (:meth:`ranked` prefers the
        faults of rows that cite one: the deciding step's own rule before a card the step also names)."""
        self.searches: dict[str, int] = {}
        """Full searches made per divergence signature."""
        self.second_searches: dict[str, int] = {}
        """Full searches made per divergence signature by :meth:`second_look` (a budget of their own)."""
        self.met: dict[Fault, list[int]] = {}
        """Which divergences (numbered as diagnosed) each single fault found so far explained
        (:meth:`known_pairs` pairs the most used)."""
        self.diagnosed = 0
        """Divergences diagnosed so far (their numbers in :attr:`met`)."""
        self._refuted: dict[tuple[tuple[Fault, ...], int], bool] = {}
        """``refuted`` answers for the agreed list :attr:`_against` (by its length)."""
        self._against: Sequence[Seen] = ()

    def forget(self) -> None:
        """Forget the faults found so far and the searches made (keep the worlds built: they depend on the
        faults alone).  A campaign calls it at each batch's start, so a divergence's diagnosis depends only
        on its batch's games, never on which batches the same process diagnosed before: the classes are the
        same with any number of jobs."""
        self.known.clear()
        self.met.clear()
        self.searches.clear()
        self.second_searches.clear()

    # -- worlds -------------------------------------------------------------------------------------------

    def world(self, faults: Iterable[Fault]) -> World | None:
        """The world of ``faults``; ``None`` when they cannot be applied together."""
        key = tuple(sorted(set(faults)))
        if key in self._worlds:
            self._worlds.move_to_end(key)
            return self._worlds[key]
        try:
            made: World | None = World(self.name, key)
        except ArbiterError:
            made = None
        self._worlds[key] = made
        if len(self._worlds) > WORLDS:
            self._worlds.popitem(last=False)
        return made

    def predict(self, faults: Sequence[Fault], seen: Seen) -> Any:
        """What the world of ``faults`` shows at ``seen`` (``None``: it cannot be built or played there)."""
        w = self.world(faults)
        if w is None:
            return None
        self.replays += 1
        return predict(w, self.name, seen)

    # -- candidates ---------------------------------------------------------------------------------------

    def read(self, seen: Seen) -> tuple[set[str], set[str]]:
        """The clauses and names (cards, subjects, parameters) the reference derivation at ``seen`` read:
        the step's derivation and why its action is legal or refused; for a legal set, why each action
        that differs is legal or refused."""
        steps: list[Step] = []
        actions: list[Any] = []
        game: Any = self.game
        if seen.kind in ("after", "apply") and seen.action is not None:
            actions.append(seen.action)
        if seen.kind == "legal":
            ours = {canonical(game.action_to_json(a)): a for a in game.legal_actions(seen.state, seen.seat)}
            shown = seen.shown if isinstance(seen.shown, frozenset) else frozenset()
            for text in sorted(set(ours) ^ shown)[:24]:
                try:
                    actions.append(ours[text] if text in ours else game.action_from_json(json.loads(text)))
                except (ArbiterError, ValueError):
                    continue
        advisory = (ArbiterError, AttributeError, IndexError, KeyError, ValueError, TypeError)
        for action in actions:  # naming what was read is advisory: a failure reads nothing
            with contextlib.suppress(*advisory):
                steps.append(game.why(seen.state, action))
            if seen.kind == "after":
                with contextlib.suppress(*advisory):
                    steps.extend(game.derive(seen.state, action))
        clauses: set[str] = set()
        names: set[str] = set()
        for root in steps:
            for step in root.walk():
                clauses.add(step.clause)
                _strings(step.data, names)
        for action in actions:
            with contextlib.suppress(ArbiterError):
                _strings(game.action_to_json(action), names)
        # every step reads its variant's row (how cards are placed, which deck, which set-up); a start, the
        # rows of its variant and player count (the set-up's money, hands, rows)
        if seen.state is not None:
            with contextlib.suppress(*advisory):
                names.add(game.variant_of(seen.state))
        elif isinstance(seen.action, Mapping):
            _strings([seen.action.get("variant") or game.variants[0], seen.action.get("players")], names)
        return clauses, names

    def candidates(self, seen: Seen, reference: Any) -> list[Fault]:
        """The faults that could explain ``seen`` (:func:`engine.conformance.diagnosis.space.candidates`)."""
        clauses, names = self.read(seen)
        self.read_clauses |= clauses
        return candidates(self.name, clauses, names, numbers(seen.shown, reference))

    # -- explaining ----------------------------------------------------------------------------------------

    def refuted(self, faults: Sequence[Fault], agreed: Sequence[Seen]) -> bool:
        """Whether a step the peer agreed on goes otherwise under ``faults`` (the most recent steps first;
        remembered while the same agreed list is diagnosed against)."""
        if agreed is not self._against or len(self._refuted) > WORLDS:
            self._refuted.clear()  # another game's evidence: start afresh
            self._against = agreed
        key = (tuple(faults), len(agreed))
        found = self._refuted.get(key)
        if found is None:
            found = self._refuted[key] = any(
                not matches(self.predict(faults, s), s.shown) for s in reversed(agreed)
            )
        return found

    def _evidence(self, seen: Seen | Sequence[Seen]) -> tuple[tuple[Seen, ...], list[Any]]:
        """The comparisons taken at one divergence (one, or several), and the reference's prediction at
        each."""
        seens = (seen,) if isinstance(seen, Seen) else tuple(seen)
        return seens, [predict(None, self.name, s) for s in seens]

    def explain(self, seen: Seen | Sequence[Seen], agreed: Sequence[Seen]) -> tuple[tuple[Fault, ...], ...]:
        """Every smallest set of faults (one or two) under which the reference shows what the peer showed at
        ``seen`` (one comparison, or several taken at one divergence) and at every ``agreed`` step, simplest
        first; ``()`` when none does."""
        seens, references = self._evidence(seen)
        self.read_clauses = set()
        pool: list[Fault] = []
        seen_faults: set[Fault] = set()
        for s, ref in zip(seens, references, strict=True):
            for f in self.candidates(s, ref):
                if f not in seen_faults:
                    seen_faults.add(f)
                    pool.append(f)
        scored: list[tuple[int, Fault]] = []
        singles: list[tuple[Fault, ...]] = []
        useful: set[tuple[str, str]] = set()  # (address, value) of the edits that explain some of it
        for f in sorted(pool, key=lambda f: f.kind == "swap"):  # edits first: they decide which swaps to try
            if f.kind == "swap" and not _swap_useful(f, useful):
                continue  # a swap acts here as one of its two edits: worth trying only where that one helps
            score, ok = self._score((f,), seens, references)
            if ok:
                singles.append((f,))
            elif score > 0:
                scored.append((score, f))
            if f.kind == "edit" and (ok or score > 0):
                useful.add((f.target, _text(f.value)))
        found = [fs for fs in singles if not self.refuted(fs, agreed)]
        if found:
            return self.ranked(found)
        partial = [f for _score, f in sorted(scored, key=lambda sf: (-sf[0], simplicity((sf[1],))))]
        pool2 = [fs[0] for fs in singles] + partial
        pairs: list[tuple[Fault, ...]] = []
        head = pool2[:PAIR_POOL]
        # a defect found before acting here too (or keeping an agreed step as it was) beside any of them
        tried = [*itertools.combinations(head, 2), *(
            (a, b) for a in self._defects() for b in pool2 if a != b and (a not in head or b not in head))]
        for a, b in tried:
            if _clash(a, b):
                continue
            _score, ok = self._score((a, b), seens, references)
            if ok and not self.refuted((a, b), agreed):
                pairs.append(tuple(sorted((a, b))))
        return self.ranked(set(pairs))

    def ranked(self, sets: Iterable[tuple[Fault, ...]]) -> tuple[tuple[Fault, ...], ...]:
        """Explaining sets in the order a report names them: fewer faults first; then those whose rows cite
        a clause the derivation read (the step's own rule: the lower-row discount before the price of the
        card bought there); then by :func:`simplicity`."""
        read = self.read_clauses
        return tuple(sorted(set(sets), key=lambda fs: (
            len(fs), -sum(f.clause in read for f in fs), simplicity(fs))))

    def diagnose(
        self, seen: Seen | Sequence[Seen], agreed: Sequence[Seen], signature: str = "",
        searches: dict[str, int] | None = None,
    ) -> tuple[tuple[Fault, ...], ...]:
        """:meth:`explain`, trying first the single faults that explained earlier divergences: where some of
        them explain this one too (unrefuted), they are its diagnosis and the search is spared (one defect
        seen many times costs one search); else the search, whose single answers are remembered.  At most
        :data:`SEARCHES` searches are made for divergences of one ``signature`` (the divergence's own),
        counted in ``searches`` (default: :attr:`searches`).
        Where no fault found before explains it alone, pairs of them (:meth:`known_pairs`) come before
        what the search finds: two defects already diagnosed, acting in one step, are likelier than
        a value seen wrong only there or two values that happen to add up there."""
        self.diagnosed += 1
        seens, references = self._evidence(seen)
        hits = [
            fs for fs in self.known if self._score(fs, seens, references)[1] and not self.refuted(fs, agreed)
        ]
        if hits:
            for fs in hits:
                self.known.move_to_end(fs)
                self.met.setdefault(fs[0], []).append(self.diagnosed)
            self.read_clauses = {c for s in seens for c in self.read(s)[0]}
            return self.ranked(hits)
        found: tuple[tuple[Fault, ...], ...] = ()
        budget = self.searches if searches is None else searches
        if budget.get(signature, 0) < SEARCHES:
            budget[signature] = budget.get(signature, 0) + 1
            found = self.explain(seens, agreed)
            pairs = self.known_pairs(seens, references, agreed) if found else []
            if pairs:  # two defects diagnosed before, acting in one step, before a value seen only here
                self.read_clauses = {c for s in seens for c in self.read(s)[0]}
                return self.ranked(pairs)
            for fs in found:
                if len(fs) == 1:
                    self.known[fs] = None
                    self.known.move_to_end(fs)
                    self.met.setdefault(fs[0], []).append(self.diagnosed)
            while len(self.known) > KNOWN:
                self.met.pop(self.known.popitem(last=False)[0][0], None)
        if not found or len(found[0]) > 1:
            pairs = self.known_pairs(seens, references, agreed)
            if pairs:
                self.read_clauses = {c for s in seens for c in self.read(s)[0]}
                return self.ranked(pairs)
        return found

    def second_look(
        self, seen: Seen | Sequence[Seen], agreed: Sequence[Seen], found: Sequence[tuple[Fault, ...]],
        signature: str = "",
    ) -> tuple[tuple[Fault, ...], ...]:
        """A divergence looked at again once every divergence of its batch is diagnosed (``found``: what
        explained it when its game ended): one nothing explained is diagnosed again (:meth:`diagnose`,
        now knowing the faults found after it, with a budget of searches of its own); one whose every
        explanation holds a fault that explains no other divergence (a value seen wrong only there, alone or
        beside another) is explained by two faults each found elsewhere, acting in one step, where a pair of
        them does (two defects already diagnosed are likelier than a value wrong only there); one explained
        only by pairs, some of two faults found elsewhere, keeps those."""
        if not found:
            return self.diagnose(seen, agreed, signature, self.second_searches)
        alone = {f for fs in found for f in fs if self._elsewhere(f, fs) <= 0}
        if not all(alone & set(fs) for fs in found):
            if min(map(len, found)) > 1:  # of pairs, those of two defects diagnosed elsewhere
                return self.ranked(fs for fs in found if not alone & set(fs))
            return tuple(found)  # a single fault: the classes weigh what each explains
        seens, references = self._evidence(seen)
        pairs = [fs for fs in self.known_pairs(seens, references, agreed) if not alone & set(fs)]
        return self.ranked(pairs) if pairs else tuple(found)

    def among(
        self, seen: Seen | Sequence[Seen], agreed: Sequence[Seen], sets: Sequence[tuple[Fault, ...]]
    ) -> tuple[tuple[Fault, ...], ...]:
        """Those of ``sets`` (what explained other divergences: the likeliest first) that explain ``seen``,
        refuted by no ``agreed`` step, at most :data:`AMONG` tried: a divergence no search explained
        (its signature's searches spent) is tried against the diagnoses the others found."""
        seens, references = self._evidence(seen)
        return self.ranked(fs for fs in sets[:AMONG]
                           if self._score(fs, seens, references)[1] and not self.refuted(fs, agreed))

    def _elsewhere(self, fault: Fault, found: tuple[Fault, ...]) -> int:
        """How many other divergences ``fault`` explained alone (``found``: the explanation holding it here;
        a single one counted itself in :attr:`met`, a pair did not)."""
        return len(self.met.get(fault, ())) - (len(found) == 1)

    def _most_used(self) -> list[Fault]:
        """The single faults found so far that explained a divergence, those that explained the most first
        (the most recent first among those explaining as many)."""
        singles = [fs[0] for fs in reversed(self.known) if len(fs) == 1 and self.met.get(fs[0])]
        return sorted(singles, key=lambda f: -len(self.met[f]))

    def _defects(self) -> list[Fault]:
        """One single fault found so far per defect, at most :data:`KNOWN_READINGS`: the one that explained
        the most divergences, then the next that explained none of the same, and so on."""
        singles = self._most_used()
        out: list[Fault] = []
        seen: set[int] = set()
        for f in singles:
            if len(out) == KNOWN_READINGS:
                break
            if not seen & set(self.met[f]):
                out.append(f)
                seen.update(self.met[f])
        return out

    def known_pairs(
        self, seens: Sequence[Seen], references: Sequence[Any], agreed: Sequence[Seen]
    ) -> list[tuple[Fault, ...]]:
        """The pairs of single faults found so far that explain ``seens``, refuted by no ``agreed`` step.
        Two faults that explained a divergence alike are readings of one defect, never a pair: paired are
        faults that explained no divergence in common, those that explained the most first (the most
        recent first among those explaining as many), as long as :data:`KNOWN_PAIRS` pairs are tried."""
        singles = self._most_used()
        met = [set(self.met[f]) for f in singles]
        n = len(singles)
        out: list[tuple[Fault, ...]] = []
        tried = 0
        for rank in range(1, 2 * n - 2):  # the pairs by the sum of their ranks: the likeliest first
            for i in range(max(0, rank - n + 1), (rank + 1) // 2):
                a, b = singles[i], singles[rank - i]
                if met[i] & met[rank - i] or _clash(a, b):
                    continue
                if tried == KNOWN_PAIRS:
                    return out
                tried += 1
                pair = tuple(sorted((a, b)))
                if self._score(pair, seens, references)[1] and not self.refuted(pair, agreed):
                    out.append(pair)
        return out

    def _score(
        self, faults: Sequence[Fault], seens: Sequence[Seen], references: Sequence[Any]
    ) -> tuple[int, bool]:
        total, ok = 0, True
        for s, ref in zip(seens, references, strict=True):
            got = self.predict(faults, s)
            if got is None or got == REFUSED:
                return -1, False
            if not matches(got, s.shown):
                ok = False
            total += agreement(got, s.shown, ref)
        return total, ok


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _swap_useful(swap: Fault, useful: set[tuple[str, str]]) -> bool:
    """Whether an edit of either value ``swap`` exchanges helps explain the divergence (the swap acts on the
    step as one of its halves, a row given the other's value: an edit among the candidates)."""
    return any(target in (swap.target, str(swap.value)) for target, _value in useful)


def _clash(a: Fault, b: Fault) -> bool:
    """Two faults of one value (or one option) cannot stand together."""
    if a.target == b.target or a.target.startswith(f"{b.target}.") or b.target.startswith(f"{a.target}."):
        return True
    if a.kind in COLUMN_KINDS or b.kind in COLUMN_KINDS:
        return bool(a.changes & b.changes)  # a column and one of its rows
    return a.kind == "swap" and b.kind == "swap" and bool({a.target, a.value} & {b.target, b.value})


def _strings(data: Any, out: set[str]) -> None:
    """Every string of ``data``, and every small count in it as text (a row keyed by a number: the variety
    bonus of 4 different aristocrats, the set-up of 3 players)."""
    if isinstance(data, str):
        out.add(data)
    elif isinstance(data, int) and not isinstance(data, bool) and 0 <= data <= 20:
        out.add(str(data))
    elif isinstance(data, Mapping):
        for v in data.values():
            _strings(v, out)
    elif isinstance(data, list | tuple):
        for v in data:
            _strings(v, out)
