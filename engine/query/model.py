"""The values a query returns: an :class:`Answer` made of :class:`Step` s, each naming the clause it applies.

An answer is data first (``to_json``) and text second (:mod:`engine.query.render`).  Every step that rests on
a rule carries the clause id, our one-sentence wording of it and the seed passage it cites, looked up in the
same clause books the engine loads — so an answer shows exactly the rules the engine applied.  A step
applying a ruling (or an option's other reading of one) carries it (:class:`engine.derivation.Ruling`, from
the same clause book), and the answer lists every ruling it rests on (``Answer.rulings``).

>>> answer = Answer(kind="demo", game=None, question="What is 2 + 2?", summary="4", value=4)
>>> answer.to_json()["value"]
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs
from attrs import field, frozen

from engine.derivation import Ruling, ruling_of
from engine.game import game_names
from engine.spec import Citation, Clause, all_clauses

__all__ = ["Answer", "Step", "cite_json", "clause_index"]


def clause_index() -> Mapping[str, Clause]:
    """Every clause of every game, by id (the loader's own cached books)."""
    return all_clauses(game_names())


def cite_json(cite: Citation) -> dict[str, str]:
    """A citation as JSON: seed key, location and the verbatim quote.

    >>> cite_json(Citation("004", "Резюме", "В игре 104 карты"))["seed"]
    '004'
    """
    return {"seed": cite.seed, "where": cite.where, "quote": cite.quote}


@frozen
class Step:
    """One link of a chain of reasoning: the clause applied (if any), what it does here, a running value.

    ``rule`` is our wording of the clause and ``cite`` its first seed passage; both are filled by
    :meth:`of` from the clause book.  A step without a clause is a plain fact of the case (e.g. "player 0
    has 7 roubles").

    >>> Step(None, "player 0 has 7 roubles", 7).to_json()["clause"] is None
    True
    """

    clause: str | None
    detail: str
    value: Any = None
    rule: str = ""
    cite: Citation | None = None
    ruling: Ruling | None = None

    @classmethod
    def of(cls, clause: str | None, detail: str, value: Any = None, *, chosen: str | None = None) -> Step:
        """A step applying ``clause`` (looked up for its wording, first citation and ruling).

        ``chosen``: the non-default option setting (``NAME=VALUE``) the step applies instead of the
        clause's ruling (:func:`engine.derivation.ruling_of`).  An id the clause books do not hold is kept
        as given, with no wording: an answer never fails because a clause moved, and the traceability tests
        report the dangling id.

        >>> Step.of("SP-END-6", "the roubles are kept").ruling.option
        'keep_roubles=false'
        """
        if clause is None:
            return cls(None, detail, value)
        ruling = ruling_of(clause, chosen)
        known = clause_index().get(clause)
        if known is None:
            return cls(clause, detail, value, ruling=ruling)
        return cls(clause, detail, value, known.text, known.cites[0] if known.cites else None, ruling)

    @classmethod
    def from_derivation(cls, step: Any, detail: str | None = None, value: Any = None) -> Step:
        """The answer step of an engine derivation step (:class:`engine.derivation.Step`): its clause, its
        note (or ``detail``) and the ruling it carries (an option's other reading included).

        >>> from engine.derivation import Step as D
        >>> Step.from_derivation(D("SP-END-6", "tiebreak", note="kept")).ruling.id
        'SP-END-6'
        """
        made = cls.of(step.clause, step.note if detail is None else detail, value)
        return made if made.ruling == step.ruling else attrs.evolve(made, ruling=step.ruling)

    def to_json(self) -> dict[str, Any]:
        """JSON form: clause id, detail, value, wording, citation, and the ruling (``null``: none)."""
        return {
            "clause": self.clause,
            "detail": self.detail,
            "value": self.value,
            "rule": self.rule or None,
            "cite": cite_json(self.cite) if self.cite is not None else None,
            "ruling": self.ruling.to_json() if self.ruling is not None else None,
        }


def _tuple_of_steps(items: Iterable[Step]) -> tuple[Step, ...]:
    return tuple(items)


def _tuple_of_rows(items: Iterable[Iterable[Any]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(x) for x in row) for row in items)


def _tuple_of_str(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(items)


@frozen
class Answer:
    """The answer to one question.

    * ``kind`` — the question kind (``cost``, ``row``, ``rule`` ...); ``game`` — the game it concerns.
    * ``question`` — the question restated in words; ``summary`` — the answer in one line.
    * ``value`` — the machine answer (JSON-ready), what the FAQ tests compare.
    * ``steps`` — the chain of clauses applied, in order.
    * ``headers``/``rows`` — an optional table (e.g. the candidate rows of a 6 nimmt! placement).
    * ``notes`` — further lines (what would make an illegal action legal, variant remarks).
    """

    kind: str
    game: str | None
    question: str
    summary: str
    value: Any
    steps: tuple[Step, ...] = field(default=(), converter=_tuple_of_steps)
    headers: tuple[str, ...] = field(default=(), converter=_tuple_of_str)
    rows: tuple[tuple[str, ...], ...] = field(default=(), converter=_tuple_of_rows)
    notes: tuple[str, ...] = field(default=(), converter=_tuple_of_str)

    @property
    def clauses(self) -> tuple[str, ...]:
        """The clause ids the answer applies, in order, without repeats."""
        seen: dict[str, None] = {}
        for step in self.steps:
            if step.clause is not None:
                seen.setdefault(step.clause, None)
        return tuple(seen)

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        """The rulings the answer rests on (each step's, in order, each once).

        >>> Answer("demo", None, "?", "!", None, steps=[Step.of("T6-END-3", "ties share")]).rulings[0].id
        'T6-END-3'
        """
        return tuple(dict.fromkeys(s.ruling for s in self.steps if s.ruling is not None))

    def to_json(self) -> dict[str, Any]:
        """Canonical JSON form."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "game": self.game,
            "question": self.question,
            "summary": self.summary,
            "value": self.value,
            "clauses": list(self.clauses),
            "rulings": [r.to_json() for r in self.rulings],
            "steps": [s.to_json() for s in self.steps],
        }
        if self.headers:
            out["table"] = {"headers": list(self.headers), "rows": [list(r) for r in self.rows]}
        if self.notes:
            out["notes"] = list(self.notes)
        return out
