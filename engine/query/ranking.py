"""BM25 ranking of the rule texts: the clauses, the seed passages and the FAQ, in SQLite's full-text index.

The ranking is SQLite's FTS5 (in Python's standard library: no dependency): its ``bm25`` scores every
document for the words of a question, with the Porter stemmer (``players`` finds *player*, ``displaced``
*displace*) over Unicode words, so a word common to every text (``the``, ``can``) weighs almost nothing and
no hand-kept stop list is needed: "how many players can play" finds the player-count rules.  Text is folded
as the rest of the search folds it (:func:`engine.query.search.normalize`: case, German umlauts as the ``?``
seed 001 lost them to, ``ё``); a word in another script also matches as a prefix (``ряд`` finds *ряда*).

Three kinds of document, each pointing to the clauses it concerns:

* a **clause** — its id, topic and wording (weighted most), its quotes, its ruling and rejected reading;
* a **seed** passage — one line of a seed document, with the clauses that quote it;
* a **faq** answer of ``docs/faq.md`` — the question, the answer's prose, and the clauses its block applies.

:func:`rank_clauses` fuses the three rankings into one of clauses (reciprocal-rank fusion: a clause ranks
high when its own text, an FAQ answer citing it or a seed passage it quotes ranks high), the ranking
``arbiter bench search`` measures.

>>> [d.ref for d in rank("what is the 55 worth", kinds=("clause",), game="take6")][:1]
['T6-BULL-1']
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterable, Sequence

from attrs import frozen

from engine import digits
from engine.game import facets, game_names
from engine.query.faqdoc import read_faq
from engine.spec import all_clauses, data_root, seed_document, seed_index

__all__ = [
    "KINDS", "UNITS", "Doc", "Passage", "fold", "named_game", "numbers", "passages", "query_words", "rank",
    "rank_clauses",
]

KINDS = ("clause", "seed", "faq")
_FOLD = str.maketrans({"ä": "?", "ö": "?", "ü": "?", "Ä": "?", "Ö": "?", "Ü": "?", "ß": "?", "ẞ": "?",
                       "ё": "е", "Ё": "е", "’": "'", "`": "'"})
_WORD = re.compile(r"[\w?]+")
_WEIGHTS = (2.0, 1.0, 0.5)
"""bm25 column weights: ``head`` (a clause's id, topic and wording; a FAQ question; a passage's section),
``body`` (a clause's quotes; a FAQ answer's prose; a passage's line), ``more`` (a ruling and the reading it
rejects)."""
_FUSION_K = 3
"""Reciprocal-rank fusion: a document at rank r adds ``weight / (K + r)``, shared among the clauses it points
to; a clause's own text weighs most, an FAQ answer citing it half, a seed passage it quotes a quarter.  The
three numbers lie inside the plateau of a small grid over the question set of ``arbiter bench search``
(K 1..10, FAQ 0..1, seed 0..0.5), measured on each half of the set apart; they are not its best point."""
_FUSION_WEIGHT = {"clause": 1.0, "faq": 0.5, "seed": 0.25}


def fold(text: str) -> str:
    """The folded form both the index and a question are matched in.

    >>> fold("Gebäude, ЁЛКА")
    'geb?ude, елка'
    """
    return text.translate(_FOLD).casefold()


@frozen
class Doc:
    """One ranked document: its kind, reference (clause id, seed key, FAQ line), game (``None``: several),
    display text, location, and the clauses it points to."""

    kind: str
    ref: str
    game: str | None
    text: str
    where: str = ""
    clauses: tuple[str, ...] = ()
    score: float = 0.0


def named_game(text: str) -> str | None:
    """The game a question names by its name: a word of the game's title or registry name that is also one
    of the words pointing to it (``Facets.words``: *nimmt*, *take6*, *petersburg*); ``None`` when it names
    none, or both.

    >>> named_game("how many players can play 6 nimmt"), named_game("who wins"), named_game("Petersburg")
    ('take6', None, 'petersburg')
    """
    words = set(query_words(text))
    named = []
    for g in game_names():
        f = facets(g)
        names = set(query_words(f"{f.title} {g}")) & set(f.words)
        if words & names:
            named.append(g)
    return named[0] if len(named) == 1 else None


# --------------------------------------------------------------------------------------------------
# Seed passages


@frozen
class Passage:
    """A line of a seed document with where it is: seed key, line number, the heading above it."""

    seed: str
    line: int
    section: str
    text: str

    @property
    def where(self) -> str:
        """``line N (Section)``: the location shown next to a quote."""
        return f"line {self.line}" + (f" ({self.section})" if self.section else "")


_NOT_HEADING_START = tuple("-*•#|0123456789")


def _is_heading(line: str) -> bool:
    text = line.strip()
    if text.startswith("="):
        return True
    if not text or len(text) > 48 or text.startswith(_NOT_HEADING_START):
        return False
    return not text.endswith((".", ",", ";", ":", "!", "?", ")", "|")) and len(text.split()) <= 6


@functools.cache
def passages(seed: str) -> tuple[Passage, ...]:
    """The non-empty lines of a seed document as passages, each with its line number and section heading."""
    out: list[Passage] = []
    section = ""
    for number, raw in enumerate(seed_document(seed).splitlines(), start=1):
        text = raw.strip()
        if not text:
            continue
        if _is_heading(text):
            section = text.strip("= ").strip()
        out.append(Passage(seed, number, section, text))
    return tuple(out)


def _faq_docs() -> list[tuple[Doc, str, str, str]]:
    path = data_root() / "docs" / "faq.md"
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[tuple[Doc, str, str, str]] = []
    games = {"6 nimmt!": "take6", "Saint Petersburg": "petersburg"}
    for entry in read_faq(path):
        if not entry.question.startswith("Q: "):
            continue
        head = next((i for i in range(entry.line - 1, -1, -1) if lines[i].startswith("### ")), None)
        if head is None:
            continue
        prose = " ".join(ln for ln in lines[head + 1:entry.line - 2] if not ln.startswith("```"))
        question = entry.question.removeprefix("Q: ")
        doc = Doc("faq", f"faq line {entry.line}", games.get(entry.section), question, entry.section,
                  entry.clauses)
        out.append((doc, question, prose, " ".join(entry.clauses)))
    return out


def _documents() -> list[tuple[Doc, str, str, str]]:
    """Every document with its three indexed fields (head, body, more)."""
    docs: list[tuple[Doc, str, str, str]] = []
    book = all_clauses(game_names())
    quoted: dict[tuple[str, str], list[str]] = {}
    for c in book.values():
        head = f"{c.id} {c.topic} {c.text} {' '.join(c.variants)}"
        body = " ".join(q.quote for q in c.cites)
        more = " ".join(x for x in (c.ruling, c.rejects, c.alternative) if x)
        docs.append((Doc("clause", c.id, c.game, c.text, c.topic, (c.id,)), head, body, more))
        for q in c.cites:
            quoted.setdefault((q.seed, " ".join(q.quote.split())), []).append(c.id)
    for key, seed in seed_index().items():
        only = seed.games[0] if len(seed.games) == 1 else None
        for p in passages(key):
            line = " ".join(p.text.split())
            cites = tuple(dict.fromkeys(cid for (s, quote), ids in quoted.items()
                                        if s == key and quote in line for cid in ids))
            docs.append((Doc("seed", key, only, p.text, p.where, cites), p.section, p.text, ""))
    docs.extend(_faq_docs())
    return docs


class _Index:
    """The full-text index of every document, built once in memory."""

    def __init__(self) -> None:
        self.docs: list[Doc] = []
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute("CREATE VIRTUAL TABLE t USING fts5(head, body, more, "
                        "tokenize = \"porter unicode61 remove_diacritics 0 tokenchars '?'\")")
        rows = []
        for i, (doc, head, body, more) in enumerate(_documents()):
            self.docs.append(doc)
            rows.append((i, fold(head), fold(body), fold(more)))
        self.db.executemany("INSERT INTO t(rowid, head, body, more) VALUES (?, ?, ?, ?)", rows)

    def search(self, query: str, limit: int) -> list[tuple[Doc, float]]:
        sql = "SELECT rowid, bm25(t, ?, ?, ?) AS s FROM t WHERE t MATCH ? ORDER BY s LIMIT ?"
        found = self.db.execute(sql, (*_WEIGHTS, query, limit)).fetchall()
        return [(self.docs[i], -s) for i, s in found]


@functools.cache
def _index() -> _Index:
    return _Index()


def match_expression(words: Iterable[str]) -> str:
    """The FTS5 query of a question's words: any of them (each quoted; a word in another script, or with a
    lost letter, also as a prefix).

    >>> match_expression(["players", "ряд", "55"])
    '"players" OR "ряд"* OR "55"'
    """
    terms: list[str] = []
    for w in dict.fromkeys(words):
        quoted = '"' + w.replace('"', "") + '"'
        prefix = len(w) >= 3 and not w.isascii() and digits.number(w) is None
        terms.append(quoted + "*" if prefix else quoted)
    return " OR ".join(terms)


def query_words(text: str) -> tuple[str, ...]:
    """The folded words of a question (a ``?`` inside a word is a lost letter; at its edges, punctuation).

    >>> query_words("How many players? Gebäude!")
    ('how', 'many', 'players', 'geb?ude')
    """
    out = []
    for raw in _WORD.findall(fold(text)):
        w = raw.strip("?")
        if w:
            out.append(w)
    return tuple(out)


UNITS: dict[str, frozenset[str]] = {
    "players": frozenset(("player", "players", "people", "persons")),
    "score": frozenset(("bullhead", "bullheads", "heads", "point", "points", "vp")),
    "money": frozenset(("rouble", "roubles", "ruble", "rubles", "r", "money")),
    "distinct": frozenset(("different", "distinct", "aristocrat", "aristocrats", "nobles")),
}
"""What a number of a question counts, by the word beside it (after its run of numbers, else before)."""


def _count(word: str) -> int | None:
    """A word that is a number a question may give (ASCII digits, at most 4: a card, a score), else
    ``None`` (a superscript or another script's digits are words, not numbers)."""
    return digits.number(word, max_digits=4)


def _runs(ws: Sequence[str]) -> list[list[int]]:
    """Positions of runs of numbers (``23 23``, ``40 12 and 70``), in order."""
    runs: list[list[int]] = []
    i = 0
    while i < len(ws):
        if _count(ws[i]) is None:
            i += 1
            continue
        run = [i]
        j = i + 1
        while j < len(ws) and (_count(ws[j]) is not None
                               or (ws[j] == "and" and j + 1 < len(ws) and _count(ws[j + 1]) is not None)):
            if _count(ws[j]) is not None:
                run.append(j)
            j += 1
        runs.append(run)
        i = j
    return runs


def numbers(ws: Sequence[str]) -> list[tuple[int, int, str | None]]:
    """The numbers of a question's words: ``(position, value, unit)``, the unit (a key of :data:`UNITS`)
    from the word after the run of numbers, else the word before it (``None``: no unit, e.g. a card); the
    ``6`` of *6 nimmt* is the game's name, not a number.

    >>> numbers(query_words("VP 23 23 and roubles 30 19, is 55 worth 7 bullheads in 6 nimmt"))
    [(1, 23, 'score'), (2, 23, 'score'), (5, 30, 'money'), (6, 19, 'money'), (8, 55, None), (10, 7, 'score')]
    """
    def unit(word: str | None) -> str | None:
        return next((u for u, words in UNITS.items() if word in words), None)

    out: list[tuple[int, int, str | None]] = []
    for run in _runs(ws):
        after = ws[run[-1] + 1] if run[-1] + 1 < len(ws) else None
        before = ws[run[0] - 1] if run[0] > 0 else None
        counted = run
        if after == "nimmt" and ws[run[-1]] == "6":
            counted, after = run[:-1], "6"
        found = unit(after) or unit(before)
        out.extend((i, digits.number(ws[i], max_digits=4) or 0, found) for i in counted)
    return out


def rank(text: str, *, kinds: Sequence[str] = KINDS, game: str | None = None, limit: int = 20,
         extra: Iterable[str] = ()) -> list[Doc]:
    """The documents of ``kinds`` best matching ``text`` (and the ``extra`` words, e.g. a named card's other
    names), best first, at most ``limit`` of each kind; ``game`` keeps that game's documents and those of no
    single game.  A question without a word matches nothing."""
    asked = query_words(text)
    counted = {i for i, _n, unit in numbers(asked) if unit is not None}  # a count, not a word of a rule
    words = [w for i, w in enumerate(asked) if i not in counted]
    words += [w for e in extra for w in query_words(e)]
    if not words:
        return []
    index = _index()
    per: dict[str, list[Doc]] = {k: [] for k in kinds}
    for doc, score in index.search(match_expression(words), 10 * limit * len(kinds) + 200):
        if doc.kind not in per or (game is not None and doc.game not in (None, game)):
            continue
        if len(per[doc.kind]) < limit:
            per[doc.kind].append(Doc(doc.kind, doc.ref, doc.game, doc.text, doc.where, doc.clauses, score))
    return [d for k in kinds for d in per[k]]


def rank_clauses(text: str, *, game: str | None = None, limit: int = 10,
                 extra: Iterable[str] = ()) -> list[tuple[str, float]]:
    """Clause ids ranked for a question: the clauses' own ranking fused with the clauses the best FAQ
    answers and seed passages point to (reciprocal-rank fusion), best first.

    >>> rank_clauses("can I buy on credit", game="petersburg")[0][0]
    'SP-BUY-2'
    """
    game = game or named_game(text)
    docs = rank(text, game=game, limit=30, extra=extra)
    fused: dict[str, float] = {}
    for kind in KINDS:
        for r, doc in enumerate((d for d in docs if d.kind == kind), start=1):
            share = _FUSION_WEIGHT[kind] / max(1, len(doc.clauses))
            for cid in doc.clauses:
                fused[cid] = fused.get(cid, 0.0) + share / (_FUSION_K + r)
    book = all_clauses(game_names())
    ranked = sorted(((cid, s) for cid, s in fused.items()
                     if cid in book and (game is None or book[cid].game == game)),
                    key=lambda p: (-p[1], p[0]))
    return ranked[:limit]

