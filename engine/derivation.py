"""Derivations: why the engine decided what it decided, as data.

A decision (an action is legal or refused, what a transition did, a score, a result) is a tree of
:class:`Step` values.  Each step names the clause it applies, a short machine-readable conclusion (``says``),
the facts it used or concluded (cards, rows, seats, amounts: JSON-ready values), a readable sentence for
people (``note``), and the sub-steps it rests on.  The engine produces a derivation from the very code that
decides, only when asked: a deciding function takes an optional :class:`Trace` and records into it when one
is given, so the hot path (no trace) pays one ``is not None`` test and nothing else.

Narration, ``explain``, ``ask``, the viewer, SVG captions, the assistant and the conformance kit's
attribution read these steps; none of them parses clause ids out of text or re-implements a rule.

>>> trace = Trace()
>>> with trace.step("SP-COST-1", "price", {"card": "Market"}, note="Market costs 5 roubles") as cost:
...     _ = trace.add("SP-COST-4", "discount", {"amount": 1}, note="1 rouble less for a Market owned")
>>> cost.data["card"], [s.clause for s in trace.steps[0].walk()]
('Market', ['SP-COST-1', 'SP-COST-4'])
>>> trace.steps[0].to_json()["steps"][0]["says"]
'discount'
>>> Step.from_json(trace.steps[0].to_json()) == trace.steps[0]
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from attrs import field, frozen

from engine.errors import InputError

__all__ = ["Step", "Trace", "render"]


def _freeze(data: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return dict(data) if data else {}


@frozen
class Step:
    """One step of a derivation: ``clause`` concluded ``says`` from ``data``, resting on ``steps``.

    ``says`` is a short fixed word a program can compare (``legal``, ``refused``, ``discount``,
    ``row-taken``, ``bullheads``, ...); ``note`` is the readable sentence; ``data`` holds JSON-ready facts.

    >>> Step("T6-PLACE-1", "row", {"card": 23, "row": 0}).data["row"]
    0
    """

    clause: str
    says: str
    data: Mapping[str, Any] = field(factory=dict, converter=_freeze)
    note: str = ""
    steps: tuple[Step, ...] = ()

    def walk(self) -> Iterator[Step]:
        """This step and every step below it, depth first, in order.

        >>> [s.says for s in Step("A-1", "a", steps=(Step("B-1", "b"),)).walk()]
        ['a', 'b']
        """
        yield self
        for child in self.steps:
            yield from child.walk()

    def clauses(self) -> tuple[str, ...]:
        """Every clause id of the tree, depth first, each once.

        >>> Step("A-1", "a", steps=(Step("B-1", "b"), Step("A-1", "c"))).clauses()
        ('A-1', 'B-1')
        """
        return tuple(dict.fromkeys(s.clause for s in self.walk()))

    def find(self, clause: str | None = None, says: str | None = None) -> tuple[Step, ...]:
        """The steps of the tree with this clause and/or conclusion, depth first.

        >>> len(Step("A-1", "a", steps=(Step("B-1", "b"),)).find(clause="B-1"))
        1
        """
        return tuple(
            s
            for s in self.walk()
            if (clause is None or s.clause == clause) and (says is None or s.says == says)
        )

    def to_json(self) -> dict[str, Any]:
        """Canonical JSON form (``steps`` and ``note`` only when present)."""
        out: dict[str, Any] = {"clause": self.clause, "says": self.says, "data": dict(self.data)}
        if self.note:
            out["note"] = self.note
        if self.steps:
            out["steps"] = [s.to_json() for s in self.steps]
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "step") -> Step:
        """Read a step back from :meth:`to_json`; malformed input raises InputError naming the field."""
        if not isinstance(data, dict):
            raise InputError(where, "a derivation step must be an object")
        unknown = set(data) - {"clause", "says", "data", "note", "steps"}
        if unknown:
            raise InputError(f"{where}.{sorted(unknown)[0]}", "unknown field")
        clause, says, facts = data.get("clause"), data.get("says"), data.get("data", {})
        note, steps = data.get("note", ""), data.get("steps", [])
        if not isinstance(clause, str) or not clause:
            raise InputError(f"{where}.clause", "a clause id is required")
        if not isinstance(says, str) or not says:
            raise InputError(f"{where}.says", "a conclusion is required")
        if not isinstance(facts, dict):
            raise InputError(f"{where}.data", "must be an object")
        if not isinstance(note, str):
            raise InputError(f"{where}.note", "must be a string")
        if not isinstance(steps, list):
            raise InputError(f"{where}.steps", "must be a list")
        children = tuple(cls.from_json(s, f"{where}.steps[{i}]") for i, s in enumerate(steps))
        return cls(clause, says, facts, note, children)


class Trace:
    """Collects the steps of a derivation while the deciding code runs.

    ``add`` records a leaf; ``step`` is a context manager whose body's steps become its children.  A
    deciding function takes ``trace: Trace | None = None`` and records only when it is given one.

    >>> t = Trace()
    >>> _ = t.add("T6-SCORE-1", "bullheads", {"card": 55, "heads": 7})
    >>> t.steps[0].data["heads"]
    7
    """

    __slots__ = ("_stack", "steps")

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self._stack: list[list[Step]] = [self.steps]

    def add(self, clause: str, says: str, data: Mapping[str, Any] | None = None, note: str = "") -> Step:
        """Record one leaf step and return it."""
        made = Step(clause, says, data or {}, note)
        self._stack[-1].append(made)
        return made

    @contextmanager
    def step(
        self, clause: str, says: str, data: Mapping[str, Any] | None = None, note: str = ""
    ) -> Iterator[Step]:
        """Record a step whose children are the steps recorded inside the ``with`` block.

        The yielded value is a provisional step (its ``data`` may be read); the recorded one, with its
        children, replaces it when the block ends.
        """
        children: list[Step] = []
        provisional = Step(clause, says, data or {}, note)
        self._stack.append(children)
        try:
            yield provisional
        finally:
            self._stack.pop()
            self._stack[-1].append(
                Step(
                    provisional.clause, provisional.says, provisional.data, provisional.note, tuple(children)
                )
            )

    def root(self, clause: str, says: str, data: Mapping[str, Any] | None = None, note: str = "") -> Step:
        """All recorded steps under one root step."""
        return Step(clause, says, data or {}, note, tuple(self.steps))


def render(steps: Step | tuple[Step, ...] | list[Step], indent: str = "  ") -> tuple[str, ...]:
    """Readable lines, one per step with a note, indented by depth, each ending with its clause id.

    >>> render(Step("A-1", "a", note="first", steps=(Step("B-1", "b", note="because"),)))
    ('first [A-1]', '  because [B-1]')
    """
    roots = (steps,) if isinstance(steps, Step) else tuple(steps)
    out: list[str] = []

    def visit(step: Step, depth: int) -> None:
        if step.note:
            out.append(f"{indent * depth}{step.note} [{step.clause}]")
        for child in step.steps:
            visit(child, depth + 1 if step.note else depth)

    for root in roots:
        visit(root, 0)
    return tuple(out)
