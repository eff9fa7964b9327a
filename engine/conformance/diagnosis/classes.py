"""Classes by diagnosis: all the divergences one set of faults explains are one class.

Each divergence comes with its explanations (every smallest set of faults under which the reference does
what the peer did there and wherever it agreed: ``Diagnoser.explain`` of
:mod:`engine.conformance.diagnosis.search`).
A class's diagnosis is the set that explains the most divergences; of sets explaining as many, the simplest
(fewer faults, a reading before an option, a skipped step, a missing row, a changed value, a swap). Chosen
greedily: the best set takes every divergence it explains, then the best set of what is left, until every
explained divergence has its class. Where two defects act in one step, the set of both explains it alone:
when each of them is a class of its own, the step joins the first one's class. A divergence nothing explains
keeps a class of its own, named as before (its signature's deciding clause) and marked *unexplained*.

>>> from engine.conformance.diagnosis.faults import parse
>>> a = (parse("petersburg:edit:phases/param/lower_row_discount/value=2"),)
>>> b = (parse("petersburg:edit:cards/Market/cost=4"),)
>>> classes = cover({"d1": (a, b), "d2": (a,), "d3": ()}, {"d3": "petersburg:claim:SP-COST-1:money"})
>>> [(c.signature, c.members) for c in classes]  # doctest: +NORMALIZE_WHITESPACE
[('petersburg:edit:phases/param/lower_row_discount/value=2', ('d1', 'd2')),
 ('petersburg:claim:SP-COST-1:money', ('d3',))]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

from attrs import frozen

from engine.conformance.diagnosis.faults import COLUMN_KINDS, Fault
from engine.conformance.diagnosis.search import simplicity

__all__ = ["DiagnosedClass", "cover", "signature_of"]

K = TypeVar("K", bound=Hashable)


def signature_of(faults: Sequence[Fault]) -> str:
    """A class signature naming a set of faults: their signatures joined by ``+`` (one fault: its own)."""
    return "+".join(f.signature for f in sorted(faults))


@frozen
class DiagnosedClass:
    """One class: its ``signature`` (the faults' signatures, or the unexplained divergence's own), its
    ``faults`` (``()``: unexplained) and the divergences (keys) it holds, in the order given."""

    signature: str
    faults: tuple[Fault, ...]
    members: tuple[Hashable, ...]

    @property
    def explained(self) -> bool:
        """Whether a diagnosis names the class."""
        return bool(self.faults)


def _joint(classes: list[DiagnosedClass], order: Sequence[Hashable],
           sets: Mapping[Any, set[tuple[Fault, ...]]]) -> list[DiagnosedClass]:
    """Two defects acting in one step: a class whose faults each change a value the diagnosis of a class of
    its own changes joins the class of its first fault's (the step shows both; it is no third defect); a
    class whose faults are all but one such is the class of that one (a defect seen only beside another:
    the Winter Palace's income beside a swap of the Catherine Palace's, seen once as both values at once).
    Where such a step's swap changes the value a class of its own edits, and explains every divergence of
    that class alone too, and no other class's diagnosis changes its other value, the swap is that class's
    diagnosis (a swap of two cards' VP seen as the one card's VP until a step of both defects scores the
    other card; ``sets``: each divergence's explaining sets).
    """
    single = {c.faults[0]: i for i, c in enumerate(classes) if len(c.faults) == 1}

    def owner(f: Fault) -> int | None:
        """The class of its own whose diagnosis changes a value ``f`` changes (``f`` itself first)."""
        if f in single:
            return single[f]
        return next((i for g, i in single.items() if f.changes & g.changes), None)

    out = list(classes)
    for i, c in enumerate(classes):
        if len(c.faults) < 2:
            continue
        others = [f for f in c.faults if owner(f) is None]
        if len(others) > 1:
            continue
        if others:  # the one fault not diagnosed alone: its own class, gathering every such step
            single[others[0]] = i
            out[i] = DiagnosedClass(signature_of(others), tuple(others), c.members)
            continue
        for f in c.faults:  # a swap seen through its one card, until a step of both defects shows both
            k = owner(f)
            assert k is not None
            mine = out[k]
            rest = f.changes - mine.faults[0].changes  # the other card's value: no other class's
            if f.kind == "swap" and mine.faults != (f,) and len(rest) == 1 and not any(
                    g.changes & rest for g, x in single.items() if x != k) and all(
                    (f,) in sets.get(m, ()) for m in mine.members):
                out[k] = DiagnosedClass(signature_of((f,)), (f,), mine.members)
                single = {g: x for g, x in single.items() if x != k} | {f: k}
        j = owner(c.faults[0])
        assert j is not None
        out[j] = _joined(out[j], c, order)
        out[i] = DiagnosedClass("", (), ())
    return _merged([c for c in out if c.signature], order)


def _joined(keep: DiagnosedClass, other: DiagnosedClass, order: Sequence[Hashable]) -> DiagnosedClass:
    """``keep`` holding ``other``'s divergences too (in ``order``)."""
    members = set(keep.members) | set(other.members)
    return DiagnosedClass(keep.signature, keep.faults, tuple(k for k in order if k in members))


def _absorbed(
    classes: list[DiagnosedClass], order: Sequence[Hashable], size: Callable[[DiagnosedClass], int],
    into_of: Callable[[DiagnosedClass, list[DiagnosedClass]], DiagnosedClass | None],
) -> list[DiagnosedClass]:
    """Classes joined into others until none joins: the smallest first, each into the class ``into_of``
    names among the others (``None``: it stays)."""
    out = list(classes)
    changed = True
    while changed:
        changed = False
        for c in sorted(out, key=size):  # the smallest first
            into = into_of(c, out)
            if into is not None:
                out = [_joined(into, c, order) if d is into else d for d in out if d is not c]
                changed = True
                break
    return out


def _same_values(classes: list[DiagnosedClass], order: Sequence[Hashable], weight: Mapping[Any, int]
                 ) -> list[DiagnosedClass]:
    """A class whose every fault changes a value that a larger class's diagnosis changes (another value of
    one card's cost beside the class of that card's cost; a pair of two such values) joins the largest
    such class that joins no larger one itself: a value is wrong once, and the larger class says how; the
    smaller saw it through the other defect acting in the same step.  (After :func:`_consolidated`:
    where one diagnosis explains all of another class's divergences, that decides first.)"""

    def size(c: DiagnosedClass) -> int:
        return sum(weight.get(k, 1) for k in c.members)

    def larger(f: Fault, c: DiagnosedClass, out: list[DiagnosedClass]) -> list[DiagnosedClass]:
        return [d for d in out if d is not c and len(d.faults) == 1 and size(d) > size(c)
                and f.changes & d.faults[0].changes]

    def into_of(c: DiagnosedClass, out: list[DiagnosedClass]) -> DiagnosedClass | None:
        owners = []
        for f in c.faults:
            # no class that itself joins a larger one takes it: a swap of two cards' costs joins the class
            # of one card's, and the class of the other card's cost it shares with the swap stays
            own = [d for d in larger(f, c, out) if not larger(d.faults[0], d, out)]
            if not own:
                return None
            owners.append(max(own, key=size))
        return max(owners, key=size) if owners else None

    return _absorbed(classes, order, size, into_of)


def _merged(classes: list[DiagnosedClass], order: Sequence[Hashable]) -> list[DiagnosedClass]:
    """Classes of one signature as one (the first's place)."""
    by: dict[str, list[Hashable]] = {}
    first: dict[str, DiagnosedClass] = {}
    for c in classes:
        first.setdefault(c.signature, c)
        by.setdefault(c.signature, []).extend(c.members)
    return [
        DiagnosedClass(sig, c.faults, tuple(k for k in order if k in set(by[sig])))
        for sig, c in first.items()
    ]


def _consolidated(
    classes: list[DiagnosedClass], sets: Mapping[K, set[tuple[Fault, ...]]], order: Sequence[Hashable],
    weight: Mapping[K, int],
) -> list[DiagnosedClass]:
    """A class whose every divergence another class's diagnosis explains too joins that class (the greedy
    choice broke a tie the wrong way: a swap of two cards' VP and an edit of one of them explain alike
    every step the other card does not score, until a step it does makes the swap a class of its own)."""

    def size(c: DiagnosedClass) -> int:
        return sum(weight.get(k, 1) for k in _keys(c, sets))

    def into_of(a: DiagnosedClass, out: list[DiagnosedClass]) -> DiagnosedClass | None:
        into = [b for b in out if b is not a and all(b.faults in sets.get(k, ()) for k in _keys(a, sets))]
        return min(into, key=lambda c: (-size(c), simplicity(c.faults))) if into else None

    return _absorbed(classes, order, size, into_of)


def _keys(c: DiagnosedClass, sets: Mapping[K, Any]) -> list[K]:
    """``c``'s members as keys of ``sets``."""
    return [k for k in sets if k in set(c.members)]


def _supported(
    classes: list[DiagnosedClass], signatures: Mapping[K, str], weight: Mapping[K, int],
    explanations: Mapping[K, Sequence[Sequence[Fault]]],
) -> set[K]:
    """The divergences of the diagnoses too weak to stand: a diagnosis explaining fewer divergences of each
    of its sorts (the game, the kind and what differs: ``claim`` of ``money``, a missing ``buy``) than
    remain unexplained of that sort accounts for a coincidence (an implementation whose defect no fault
    models, a price that happens to match one card's edited cost), not for the defect: its divergences join
    the unexplained ones of their signature, and count as unexplained for the others (a coincidence of a
    few divergences stands no better beside many explained only by coincidences of one or two).  Nor does
    one explaining fewer than the steps deciding its divergences leave unexplained, whatever their kind:
    one card's cost edited explains five purchases denied at exactly the seat's money where forty such
    denials of other cards, offered or refused, bought or played, stay unexplained (the affordability test
    one off for trading cards).  A column fault (a shift or misread of every row) is measured by the steps
    deciding its divergences alone: one that explains five scorings' money where a hundred scorings stay
    unexplained matched by coincidence the few it explains."""
    weak: set[K] = set()
    while True:  # a weak diagnosis's divergences are unexplained too: another may then be as weak
        unexplained: dict[str, int] = {}
        for k, sets in explanations.items():
            if not sets or k in weak:
                for sig in (_sort(signatures.get(k, str(k))), _step(signatures.get(k, str(k)))):
                    unexplained[sig] = unexplained.get(sig, 0) + weight.get(k, 1)
        more = set(weak)
        for c in classes:
            # a column fault changes every row: it must outnumber what its deciding steps leave unexplained;
            # any other, what its sorts leave or what its deciding steps leave
            column = any(f.kind in COLUMN_KINDS for f in c.faults)
            members: tuple[Any, ...] = c.members
            for sort in (_step,) if column else (_sort, _step):
                mine: dict[str, int] = {}
                for key in members:
                    sig = sort(signatures.get(key, str(key)))
                    mine[sig] = mine.get(sig, 0) + weight.get(key, 1)
                if all(n < unexplained.get(sig, 0) for sig, n in mine.items()):
                    more.update(members)
                    break
        if more == weak:
            return weak
        weak = more


def _step(signature: str) -> str:
    """A divergence signature's game and deciding step (``game:clause``), whatever its kind and detail."""
    parts = signature.split(":")
    return ":".join(["step", *parts[:1], *parts[2:3]])


def _sort(signature: str) -> str:
    """A divergence signature's game, kind and detail (``game:kind:clause:detail[:subject]``)."""
    parts = signature.split(":")
    return ":".join(parts[:2] + parts[3:4])


def cover(
    explanations: Mapping[K, Sequence[Sequence[Fault]]],
    unexplained: Mapping[K, str],
    weights: Mapping[K, int] | None = None,
) -> list[DiagnosedClass]:
    """The classes of divergences ``explanations`` maps (key -> their explaining sets; ``()`` none), explained
    classes first (the largest first), then one class per signature (``unexplained``: key -> the
    divergence's own signature, for every key) for the divergences nothing explains, or whose diagnosis
    explains fewer of each of its signatures than remain unexplained.  ``weights``: how many divergences a
    key stands for (default 1 each)."""
    each = {k: {tuple(sorted(fs)) for fs in sets} for k, sets in explanations.items()}
    left = {k: sets for k, sets in each.items() if sets}
    order = list(explanations)
    weight: Mapping[K, int] = weights or {}
    out: list[DiagnosedClass] = []
    while left:
        counts: dict[tuple[Fault, ...], int] = {}
        for k, sets in left.items():
            for fs in sets:
                counts[fs] = counts.get(fs, 0) + weight.get(k, 1)
        best = min(counts, key=lambda fs: (-counts[fs], simplicity(fs)))
        members = tuple(k for k in order if k in left and best in left[k])
        for k in members:
            del left[k]
        out.append(DiagnosedClass(signature_of(best), best, members))
    out = _joint(out, order, each)
    out = _consolidated(out, each, order, weight)
    out = _same_values(out, order, weight)
    weak = _supported(out, unexplained, weight, explanations)
    out = [c for c in out if not set(c.members) <= weak]
    grouped: dict[str, list[K]] = {}
    for k in order:
        if not explanations[k] or k in weak:
            grouped.setdefault(unexplained.get(k, str(k)), []).append(k)
    out.extend(DiagnosedClass(sig, (), tuple(keys)) for sig, keys in grouped.items())
    return out
