"""``arbiter bench search``: how well the plain-language search finds the clause that answers a question.

The question set (``tests/data/search-questions.toml``: questions as players type them, written from the
seeds and the FAQ, each with the clause that answers it) is ranked by
:func:`engine.query.ranking.rank_clauses` over both games, the game unnamed unless the question names it, as
``arbiter ask search`` ranks; the figures are recall@1, @3 and @5 (the share of questions whose answering
clause is among the first k) and the mean reciprocal rank, then the speed (median CPU time of a pass over the
whole set, with the spread) and the questions missed at 3.

>>> qs = load_questions(default_questions())
>>> len(qs) >= 60 and all(q.clauses for q in qs)
True
>>> 0.9 <= measure(qs).recall(3) <= 1.0
True
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen

from engine.errors import InputError, SpecError
from engine.measure import cpu_runs
from engine.query.ranking import rank_clauses
from engine.spec import all_clauses, data_root, read_toml

__all__ = ["Question", "Result", "default_questions", "load_questions", "measure", "run"]


@frozen
class Question:
    """A question of the set: its text, the clauses that answer it (any one is right), where it is from."""

    text: str
    clauses: tuple[str, ...]
    source: str


@frozen
class Result:
    """The rank of the first answering clause of each question (``None``: not among the first 10)."""

    questions: tuple[Question, ...]
    ranks: tuple[int | None, ...]
    top: tuple[tuple[str, ...], ...]

    def recall(self, k: int) -> float:
        """The share of questions answered within the first ``k`` clauses."""
        return sum(1 for r in self.ranks if r is not None and r <= k) / len(self.ranks)

    def mrr(self) -> float:
        """The mean reciprocal rank (0 for a question not answered in the first 10)."""
        return sum(1 / r for r in self.ranks if r is not None) / len(self.ranks)


def default_questions() -> Path:
    """The repository's question set (``tests/data/search-questions.toml``)."""
    return data_root() / "tests" / "data" / "search-questions.toml"


def load_questions(path: Path) -> tuple[Question, ...]:
    """Read and check a question set: each ``[[question]]`` has ``text``, ``clauses`` (known clause ids) and
    ``source``; InputError names the file and the question."""
    if not path.is_file():
        raise InputError("--questions", f"no question set at {path} (give --questions FILE)")
    try:
        doc = read_toml(path)
    except SpecError as exc:
        raise InputError("--questions", str(exc)) from None
    known = all_clauses()
    out: list[Question] = []
    for i, row in enumerate(doc.get("question", []), start=1):
        where = f"{path.name} question {i}"
        if not isinstance(row, dict) or set(row) != {"text", "clauses", "source"}:
            raise InputError(where, "expected the fields text, clauses and source")
        text, clauses, source = row["text"], row["clauses"], row["source"]
        if not isinstance(text, str) or not text.strip() or not isinstance(source, str):
            raise InputError(where, "text and source are non-empty strings")
        if not isinstance(clauses, list) or not clauses or not all(c in known for c in clauses):
            raise InputError(f"{where}: clauses", f"expected known clause ids, got {clauses!r}")
        out.append(Question(text, tuple(clauses), source))
    if not out:
        raise InputError("--questions", f"{path} holds no [[question]]")
    return tuple(out)


def measure(questions: Sequence[Question]) -> Result:
    """Rank every question's clauses (both games; a game only when the question names it)."""
    ranks: list[int | None] = []
    tops: list[tuple[str, ...]] = []
    for q in questions:
        ranked = [cid for cid, _score in rank_clauses(q.text, limit=10)]
        ranks.append(next((i for i, cid in enumerate(ranked, start=1) if cid in q.clauses), None))
        tops.append(tuple(ranked[:3]))
    return Result(tuple(questions), tuple(ranks), tuple(tops))


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter bench search``."""
    path = Path(args.questions) if args.questions else default_questions()
    questions = load_questions(path)
    result = measure(questions)
    n = len(questions)
    print(f"Plain-language search: {n} questions ({path.name}), clauses of both games ranked "
          "(arbiter ask search's ranking)")
    print(f"  recall@1 {100 * result.recall(1):5.1f} %   recall@3 {100 * result.recall(3):5.1f} %   "
          f"recall@5 {100 * result.recall(5):5.1f} %   MRR {result.mrr():.3f}")
    book = all_clauses()
    for game in sorted({book[q.clauses[0]].game for q in questions}):
        mine = [r for q, r in zip(questions, result.ranks, strict=True) if book[q.clauses[0]].game == game]
        hit = sum(1 for r in mine if r is not None and r <= 3)
        print(f"  {game}: {hit}/{len(mine)} answered within the first 3")
    runs = cpu_runs(lambda: len(measure(questions).ranks), args.repeat)
    print(f"  speed: {args.repeat} passes over the set; median CPU/pass {runs.text()}, "
          f"{n / runs.median if runs.median else 0:,.0f} questions/s per core")
    missed = [(q, top) for q, r, top in zip(questions, result.ranks, result.top, strict=True)
              if r is None or r > 3]
    if missed:
        print("  missed at 3:")
        for q, top in missed:
            print(f"    {q.text!r}: wants {'/'.join(q.clauses)}, got {', '.join(top)}")
    return 0
