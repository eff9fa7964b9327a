"""Derivations: why the engine decided what it decided, as data.

A decision (an action is legal or refused, what a transition did, a score, a result) is a tree of
:class:`Step` values.  Each step names the clause it applies, a short machine-readable conclusion (``says``),
the facts it used or concluded (cards, rows, seats, amounts: JSON-ready values), a readable sentence for
people (``note``), and the sub-steps it rests on.  The engine produces a derivation from the very code that
decides, only when asked: a deciding function takes an optional :class:`Trace` and records into it when one
is given, so the hot path (no trace) pays one ``is not None`` test and nothing else.

Narration, ``explain``, ``ask``, the viewer, SVG captions, the assistant and the conformance kit's
attribution read these steps; none of them parses clause ids out of text or re-implements a rule.

A step whose clause is a **ruling** (the clause book gives it a ``ruling``: the seeds disagree or are
silent) carries it as data, :class:`Ruling` (``id``, the reading it ``rejects``, the ``option`` selecting
that other reading), looked up in the clause book once, here, when the step is made: deciding code never
repeats it.  Where a game's option selects the *other* reading, the code that reads the option says so
(``Trace.add(..., chosen="keep_roubles=false")``) and the step's ruling is marked ``chosen``.  Steps are
only made when a trace is asked for, so the lookup costs the hot path nothing.

>>> trace = Trace()
>>> with trace.step("SP-COST-1", "price", {"card": "Market"}, note="Market costs 5 roubles") as cost:
...     _ = trace.add("SP-COST-4", "discount", {"amount": 1}, note="1 rouble less for a Market owned")
>>> cost.data["card"], [s.clause for s in trace.steps[0].walk()]
('Market', ['SP-COST-1', 'SP-COST-4'])
>>> trace.steps[0].to_json()["steps"][0]["says"]
'discount'
>>> Step.from_json(trace.steps[0].to_json()) == trace.steps[0]
True
>>> Step("SP-END-6", "tiebreak").ruling.option
'keep_roubles=false'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from attrs import Factory, field, frozen

from engine.errors import InputError, SpecError
from engine.spec import game_of_clause, load_clauses

__all__ = ["Ruling", "Step", "Trace", "render", "ruling_of"]


def _freeze(data: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return dict(data) if data else {}


_OPTION = re.compile(r"^option ([a-z_][a-z0-9_]*)=([^\s:;,]+)")
"""A clause's ``alternative`` naming an option: ``option NAME=VALUE``, then ``: what it reads`` if given."""


@frozen
class Ruling:
    """A ruling a step rests on: the clause ``id``, the reading it does not apply (``rejects``), and the
    ``NAME=VALUE`` game option that selects that other reading (``None``: no option does; ``other`` then
    says what does, if anything).  ``chosen``: the step applies the option's reading (``option`` was set),
    not the engine's ruling, and ``rejects`` is the ruling's own wording.

    >>> r = ruling_of("SP-END-6")
    >>> r.id, r.option, r.chosen
    ('SP-END-6', 'keep_roubles=false', False)
    >>> ruling_of("SP-END-6", chosen="keep_roubles=false").rejects.startswith("Final scoring")
    True
    >>> ruling_of("T6-DECK-1") is None
    True
    """

    id: str
    rejects: str
    option: str | None = None
    chosen: bool = False
    other: str | None = None

    def mark(self, reading: str = "") -> str:
        """The marked line a text answer shows: the ruling, the reading applied (``reading``: the step's own
        words for it) and how to ask for the other one.

        >>> print(ruling_of("SP-END-6").mark("the roubles are kept"))
        ruling SP-END-6: the roubles are kept; the other reading: `--option keep_roubles=false`
        >>> print(ruling_of("SP-END-6", chosen="keep_roubles=false").mark())
        option keep_roubles=false: the other reading of ruling SP-END-6; the ruling's reading: without it
        >>> print(ruling_of("T6-END-3").mark())
        ruling T6-END-3; no option reads it otherwise
        """
        said = f": {reading}" if reading else ""
        if self.chosen:
            what = f"{reading} (the other reading of ruling {self.id})" if reading else (
                f"the other reading of ruling {self.id}")
            return f"option {self.option}: {what}; the ruling's reading: without it"
        if self.option:
            return f"ruling {self.id}{said}; the other reading: `--option {self.option}`"
        if self.other:
            return f"ruling {self.id}{said}; the other reading: {self.other}"
        return f"ruling {self.id}{said}; no option reads it otherwise"

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"id", "rejects", "option", "chosen"}`` (and ``other`` when given)."""
        out: dict[str, Any] = {"id": self.id, "rejects": self.rejects, "option": self.option,
                               "chosen": self.chosen}
        if self.other is not None:
            out["other"] = self.other
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "ruling") -> Ruling:
        """Read a ruling back from :meth:`to_json`; malformed input raises InputError naming the field."""
        if not isinstance(data, dict):
            raise InputError(where, "a ruling must be an object")
        unknown = set(data) - {"id", "rejects", "option", "chosen", "other"}
        if unknown:
            raise InputError(f"{where}.{sorted(unknown)[0]}", "unknown field")
        rid, rejects, option = data.get("id"), data.get("rejects"), data.get("option")
        chosen, other = data.get("chosen", False), data.get("other")
        if not isinstance(rid, str) or not rid:
            raise InputError(f"{where}.id", "a clause id is required")
        if not isinstance(rejects, str):
            raise InputError(f"{where}.rejects", "must be a string")
        if option is not None and not isinstance(option, str):
            raise InputError(f"{where}.option", "must be a string or null")
        if not isinstance(chosen, bool):
            raise InputError(f"{where}.chosen", "must be true or false")
        if other is not None and not isinstance(other, str):
            raise InputError(f"{where}.other", "must be a string or null")
        return cls(rid, rejects, option, chosen, other)


@functools.lru_cache(maxsize=1024)
def _book_ruling(clause: str) -> Ruling | None:
    game = game_of_clause(clause)
    if game is None:
        return None
    try:
        found = load_clauses(game).get(clause)
    except SpecError:
        return None
    if found is None or found.ruling is None:
        return None
    alt = found.alternative
    match = _OPTION.match(alt) if alt else None
    return Ruling(clause, found.rejects or "", match.group(1) + "=" + match.group(2) if match else None,
                  other=None if match else alt)


def ruling_of(clause: str, chosen: str | None = None) -> Ruling | None:
    """The ruling a step applying ``clause`` rests on, from the clause book (``None``: not a ruling).

    ``chosen`` is the ``NAME=VALUE`` option setting the step applies instead of the ruling (known only
    where the deciding code reads the option): the ruling is then marked ``chosen``, its ``rejects`` the
    ruling's own wording.  An option setting for a clause that is no ruling is still recorded.

    >>> ruling_of("T6-PRO-3").option, ruling_of("T6-PRO-3", chosen="professional_tie=start").chosen
    ('professional_tie=start', True)
    """
    book = _book_ruling(clause)
    if chosen is None:
        return book
    game = game_of_clause(clause)
    text = ""
    if game is not None:
        try:
            found = load_clauses(game).get(clause)
        except SpecError:
            found = None
        text = found.text if found is not None else ""
    return Ruling(clause, text, chosen, chosen=True)


def _book_default(step: Step) -> Ruling | None:
    return _book_ruling(step.clause)


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
    ruling: Ruling | None = field(default=Factory(_book_default, takes_self=True))
    """The ruling the step rests on: the clause book's (by default), or an option's reading (``chosen``)."""

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

    def rulings(self) -> tuple[Ruling, ...]:
        """Every ruling of the tree, depth first, each once.

        >>> [r.id for r in Step("A-1", "a", steps=(Step("SP-END-6", "b"),)).rulings()]
        ['SP-END-6']
        """
        return tuple(dict.fromkeys(s.ruling for s in self.walk() if s.ruling is not None))

    def to_json(self) -> dict[str, Any]:
        """Canonical JSON form (``steps``, ``note`` and ``ruling`` only when present; ``"ruling": null``
        only for a ruling's clause whose step was made without it)."""
        out: dict[str, Any] = {"clause": self.clause, "says": self.says, "data": dict(self.data)}
        if self.note:
            out["note"] = self.note
        if self.steps:
            out["steps"] = [s.to_json() for s in self.steps]
        if self.ruling is not None:
            out["ruling"] = self.ruling.to_json()
        elif _book_ruling(self.clause) is not None:
            out["ruling"] = None
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "step") -> Step:
        """Read a step back from :meth:`to_json`; malformed input raises InputError naming the field."""
        if not isinstance(data, dict):
            raise InputError(where, "a derivation step must be an object")
        unknown = set(data) - {"clause", "says", "data", "note", "steps", "ruling"}
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
        if "ruling" not in data:
            return cls(clause, says, facts, note, children)
        raw = data["ruling"]
        ruling = None if raw is None else Ruling.from_json(raw, f"{where}.ruling")
        return cls(clause, says, facts, note, children, ruling)


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

    def add(
        self, clause: str, says: str, data: Mapping[str, Any] | None = None, note: str = "",
        *, chosen: str | None = None,
    ) -> Step:
        """Record one leaf step and return it; ``chosen`` is the non-default option setting (``NAME=VALUE``)
        the step applies instead of the clause's ruling (see :func:`ruling_of`).

        >>> Trace().add("SP-END-6", "tiebreak", chosen="keep_roubles=false").ruling.chosen
        True
        """
        made = Step(clause, says, data or {}, note, (), ruling_of(clause, chosen))
        self._stack[-1].append(made)
        return made

    @contextmanager
    def step(
        self, clause: str, says: str, data: Mapping[str, Any] | None = None, note: str = "",
        *, chosen: str | None = None,
    ) -> Iterator[Step]:
        """Record a step whose children are the steps recorded inside the ``with`` block (``chosen`` as
        for :meth:`add`).

        The yielded value is a provisional step (its ``data`` may be read); the recorded one, with its
        children, replaces it when the block ends.
        """
        children: list[Step] = []
        provisional = Step(clause, says, data or {}, note, (), ruling_of(clause, chosen))
        self._stack.append(children)
        try:
            yield provisional
        finally:
            self._stack.pop()
            self._stack[-1].append(
                Step(
                    provisional.clause, provisional.says, provisional.data, provisional.note, tuple(children),
                    provisional.ruling,
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
