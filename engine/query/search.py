"""Plain-language search over the clauses, the seed passages, the FAQ and the card names (English, German,
Russian, aliases), and the "every rule that mentions X" question.

The texts are ranked by BM25 in SQLite's full-text index (:mod:`engine.query.ranking`): every word of the
question counts, weighed by how rare it is, so no word list decides what a question means.  Matching is
forgiving in the ways the seeds need: case-insensitive, English word forms (``players`` / *player*), a word
in another script as a prefix (``ряд`` finds *ряда*); German umlauts and ``ß`` match the ``?`` that seed
``001`` lost them to (``Gebäude`` finds ``Geb?ude``); ``ё`` matches ``е``.  Card names are matched with
rapidfuzz, so a close spelling names the card (``Lumberjak``); a named card brings in its names in every
language, so ``Zar Peter`` also finds the clauses about *Czar and Carpenter*.

>>> normalize("Überbaukarten, Gebäude; ЁЛКА")
'?berbaukarten, geb?ude; елка'
>>> words("Schlu?wertung für 10")
('schlu?wertung', 'f?r', '10')
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from attrs import frozen
from rapidfuzz import fuzz

from engine.errors import InputError
from engine.game import game_names
from engine.query.adapters import CardNames, card_names
from engine.query.ranking import KINDS, Passage, fold, named_game, passages, query_words, rank, rank_clauses
from engine.spec import Clause, all_clauses

__all__ = [
    "Hit",
    "Passage",
    "cards_in",
    "find_cards",
    "mentions",
    "named_cards",
    "normalize",
    "passages",
    "query_terms",
    "search",
    "words",
]

_WORD = re.compile(r"[\w?']+")


def normalize(text: str) -> str:
    """Case-fold and fold the letters the seeds lost or spell two ways (see the module docstring)."""
    return fold(text)


def words(text: str) -> tuple[str, ...]:
    """The normalized words of ``text`` (a ``?`` inside a word is a lost letter; at the edges, dropped)."""
    out = []
    for raw in _WORD.findall(normalize(text)):
        w = raw.strip("?'")
        if w:
            out.append(w)
    return tuple(out)


def _phrase_in(phrase: tuple[str, ...], text_words: Sequence[str], *, prefix: bool = False) -> bool:
    """True when the words of ``phrase`` appear consecutively (with ``prefix``, each may begin a word)."""
    n = len(phrase)
    if not n:
        return False
    for i in range(len(text_words) - n + 1):
        window = text_words[i:i + n]
        if prefix:
            if all(w == t or (len(t) >= 3 and w.startswith(t)) for t, w in zip(phrase, window, strict=True)):
                return True
        elif tuple(window) == phrase:
            return True
    return False


def query_terms(text: str) -> tuple[str, ...]:
    """The words of a question the search looks for: every word, each once (the ranking weighs them; no
    word is dropped, so "players", "cards", "after" and "not" count).

    >>> query_terms("How many players? Players!")
    ('how', 'many', 'players')
    """
    return tuple(dict.fromkeys(query_words(text)))


# --------------------------------------------------------------------------------------------------
# Hits


@frozen
class Hit:
    """One search result: what kind (``card``, ``clause``, ``seed`` or ``faq``), its reference, the game,
    the text, its score (higher is better), where (a passage's line, an FAQ answer's section) and the
    clauses it points to."""

    kind: str
    ref: str
    game: str | None
    text: str
    score: float
    where: str = ""
    clauses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """JSON form."""
        return {"kind": self.kind, "ref": self.ref, "game": self.game, "where": self.where,
                "text": self.text, "score": round(self.score, 4), "clauses": list(self.clauses)}


HIT_KINDS = ("card", "clause", "seed", "faq")
_FUZZY = 88
"""rapidfuzz's score (0..100) a card name must reach against the question's words to count as named."""


def find_cards(text: str, game: str | None = None) -> list[CardNames]:
    """Cards one of whose names (any language, any alias) is ``text`` exactly, else the cards ``text``
    names (:func:`named_cards`: a name's words, or a close spelling of them), in the order it names them.

    >>> [c.key for c in find_cards("Lumberjak")], find_cards("no such card anywhere")
    (['Lumberjack'], [])
    """
    query = words(text)
    if not query:
        return []
    entries = card_names(game)
    exact = [e for e in entries if any(words(n) == query for _l, n in e.names)]
    if exact:
        return exact
    by_key = {e.key: e for e in entries}
    return [by_key[key] for key in dict.fromkeys(k for _i, k in named_cards(text, game)) if key in by_key]


def named_cards(text: str, game: str | None = None) -> list[tuple[int, str]]:
    """The cards a question names, as ``(position of its first word, card key)`` in the question's order:
    a name's words in sequence, or a close spelling of them (rapidfuzz), longest names first and a name
    inside a longer one not counted twice.

    >>> named_cards("does owning a Lumberjack make a Gold Miner cheaper")
    [(3, 'Lumberjack'), (6, 'Gold Miner')]
    """
    ws = words(text)
    covered = [False] * len(ws)
    found: list[tuple[int, str]] = []
    for name, key in _name_index(game):
        n = len(name)
        target = " ".join(name)
        for i in range(len(ws) - n + 1):
            if any(covered[i:i + n]):
                continue
            window = ws[i:i + n]
            close = len(target) >= 5 and fuzz.ratio(" ".join(window), target) >= _FUZZY
            if tuple(window) == name or close:
                found.append((i, key))
                for j in range(i, i + n):
                    covered[j] = True
    return sorted(found)


def search(
    text: str,
    *,
    game: str | None = None,
    kinds: Iterable[str] = HIT_KINDS,
    limit: int = 20,
) -> list[Hit]:
    """Plain-language search: the cards the question names (any language, a close spelling), then the
    clauses ranked for it (their own text, the FAQ answers citing them and the seed passages they quote:
    :func:`engine.query.ranking.rank_clauses`), the seed passages and the FAQ answers (BM25, SQLite FTS5),
    at most ``limit`` of each kind.  A named card adds its other names to the words looked for.  A question
    that names a game (or ``game``) keeps that game's texts.  An empty query raises InputError naming
    ``TEXT``.

    >>> [h.ref for h in search("can I pass again", kinds=["clause"], limit=1)]
    ['SP-PHASE-4']
    """
    kinds = tuple(kinds)
    unknown = [k for k in kinds if k not in HIT_KINDS]
    if unknown:
        raise InputError("--kind", f"unknown kind {unknown[0]!r} (known: {', '.join(HIT_KINDS)})")
    if not query_terms(text):
        raise InputError("TEXT", "give at least one word to search for")
    game = game or named_game(text)
    cards = find_cards(text, game)
    extra = [name for entry in cards[:3] for _lang, name in entry.names]
    hits: list[Hit] = []
    if "card" in kinds:
        for entry in cards[:limit]:
            names = "; ".join(f"{lang}: {name}" for lang, name in entry.names)
            hits.append(Hit("card", entry.key, entry.game, names, 100.0, clauses=entry.clauses))
    if "clause" in kinds:
        book = all_clauses(game_names())
        for cid, score in rank_clauses(text, game=game, limit=limit, extra=extra):
            c = book[cid]
            hits.append(Hit("clause", cid, c.game, c.text, score, c.topic, (cid,)))
    others = tuple(k for k in kinds if k in KINDS and k != "clause")
    if others:
        for d in rank(text, kinds=others, game=game, limit=limit, extra=extra):
            hits.append(Hit(d.kind, d.ref, d.game, d.text, d.score, d.where, d.clauses))
    return hits


@functools.cache
def _name_index(game: str | None) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Every card name (as words) with its card key, longest first (so "Warehouse Manager" beats
    "Warehouse")."""
    pairs = {(words(name), entry.key) for entry in card_names(game) for _lang, name in entry.names}
    return tuple(sorted((p for p in pairs if p[0]), key=lambda p: (-len(p[0]), p[1])))


@functools.cache
def _names_by_first_word(game: str | None) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """The name index by each name's first word (longest names first within a word)."""
    out: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for name, key in _name_index(game):
        out.setdefault(name[0], []).append((name, key))
    return {w: tuple(v) for w, v in out.items()}


def cards_in(text_words: Sequence[str], game: str | None = None) -> set[str]:
    """The cards named in a text (longest names first; a name inside a longer card name does not count).

    >>> sorted(cards_in(("the", "warehouse", "manager", "and", "a", "warehouse")))
    ['Warehouse', 'Warehouse Manager']
    """
    index = _names_by_first_word(game)
    matches = [(len(name), i, key) for i, w in enumerate(text_words) for name, key in index.get(w, ())
               if tuple(text_words[i:i + len(name)]) == name]
    covered = [False] * len(text_words)
    found: set[str] = set()
    for n, i, key in sorted(matches, key=lambda m: (-m[0], m[1])):
        if not any(covered[i:i + n]):
            found.add(key)
            for j in range(i, i + n):
                covered[j] = True
    return found


def _clause_text(c: Clause) -> str:
    parts = [c.id, c.topic, c.text, c.ruling or "", c.alternative or "", *c.variants]
    parts.extend(q.quote for q in c.cites)
    return " ".join(parts)


def mentions(term: str, *, game: str | None = None) -> tuple[list[CardNames], list[Clause]]:
    """Every clause that mentions ``term`` — or, when ``term`` names a card, the card under any of its
    names (not merely inside a longer card name) or a clause its catalog row cites.  Returns the matched
    cards and the clauses, in clause-book order."""
    phrase = words(term)
    if not phrase:
        raise InputError("TERM", "give a card name or a word")
    cards = find_cards(term, game)
    exact = [c for c in cards if any(words(n) == words(term) for _l, n in c.names)]
    chosen = exact[:1]
    pointed = {cid for c in chosen for cid in c.clauses}
    keys = {c.key for c in chosen}
    out: list[Clause] = []
    for c in all_clauses(game_names()).values():
        if game is not None and c.game != game:
            continue
        cw = words(_clause_text(c))
        if chosen:
            hit = c.id in pointed or bool(keys & cards_in(cw, game))
        else:
            hit = _phrase_in(phrase, cw, prefix=True)
        if hit:
            out.append(c)
    return chosen, out
