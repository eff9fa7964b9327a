"""Plain-text keyword search over the clauses, the card names (English, German, Russian, aliases) and the
seed passages, and the "every rule that mentions X" question.

Matching is forgiving in the ways the seeds need: case-insensitive; a query word matches any word it begins
(``smelt`` finds *Smelter*, ``ряд`` finds *ряда*); German umlauts and ``ß`` match the ``?`` that seed ``001``
lost them to (``Gebäude`` finds ``Geb?ude``); ``ё`` matches ``е``.  When the query names a card, its names in
every language join the search, so ``Zar Peter`` also finds the clauses about *Czar and Carpenter*.

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

from engine.errors import InputError
from engine.game import game_names
from engine.query.adapters import CardNames, card_names
from engine.spec import Clause, all_clauses, seed_document, seed_index

__all__ = [
    "Hit",
    "Passage",
    "cards_in",
    "find_cards",
    "mentions",
    "normalize",
    "passages",
    "search",
    "words",
]

_FOLD = str.maketrans({"ä": "?", "ö": "?", "ü": "?", "Ä": "?", "Ö": "?", "Ü": "?", "ß": "?", "ẞ": "?",
                       "ё": "е", "Ё": "е", "’": "'", "`": "'"})
_WORD = re.compile(r"[\w?']+")
STOP = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "card", "cards", "do", "does", "for", "from",
    "how", "i", "if", "in", "is", "it", "its", "me", "my", "of", "on", "or", "the", "to", "what", "when",
    "where", "which", "who", "why", "will", "with", "you", "your",
))


def normalize(text: str) -> str:
    """Case-fold and fold the letters the seeds lost or spell two ways (see the module docstring)."""
    return text.translate(_FOLD).casefold()


def words(text: str) -> tuple[str, ...]:
    """The normalized words of ``text`` (a ``?`` inside a word is a lost letter; at the edges, dropped)."""
    out = []
    for raw in _WORD.findall(normalize(text)):
        w = raw.strip("?'")
        if w:
            out.append(w)
    return tuple(out)


def _word_match(term: str, word: str) -> int:
    """2 for an exact match, 1 for a prefix match (terms of 3+ letters), 0 otherwise."""
    if word == term:
        return 2
    if len(term) >= 3 and not term.isdigit() and word.startswith(term):
        return 1
    return 0


def _phrase_in(phrase: tuple[str, ...], text_words: Sequence[str], *, prefix: bool = False) -> bool:
    """True when the words of ``phrase`` appear consecutively (with ``prefix``, each may begin a word)."""
    n = len(phrase)
    if not n:
        return False
    for i in range(len(text_words) - n + 1):
        window = text_words[i:i + n]
        if prefix:
            if all(_word_match(t, w) for t, w in zip(phrase, window, strict=True)):
                return True
        elif tuple(window) == phrase:
            return True
    return False


def _score(terms: Sequence[str], text_words: Sequence[str]) -> int:
    """Sum of each term's best match; 0 unless every term matches somewhere (all words must be present)."""
    total = 0
    for term in terms:
        best = max((_word_match(term, w) for w in text_words), default=0)
        if not best:
            return 0
        total += best
    return total


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


# --------------------------------------------------------------------------------------------------
# Hits


@frozen
class Hit:
    """One search result: what kind (``card``, ``clause`` or ``seed``), its reference, the text, a score."""

    kind: str
    ref: str
    game: str | None
    text: str
    score: int
    where: str = ""

    def to_json(self) -> dict[str, object]:
        """JSON form."""
        return {"kind": self.kind, "ref": self.ref, "game": self.game, "where": self.where,
                "text": self.text, "score": self.score}


_KIND_ORDER = {"card": 0, "clause": 1, "seed": 2}


def find_cards(text: str, game: str | None = None) -> list[CardNames]:
    """Cards one of whose names (any language, any alias) matches ``text`` — exactly first, then by words.

    >>> find_cards("no such card anywhere")
    []
    """
    query = words(text)
    if not query:
        return []
    exact: list[CardNames] = []
    partial: list[tuple[int, CardNames]] = []
    for entry in card_names(game):
        best = 0
        for _lang, name in entry.names:
            name_words = words(name)
            if name_words == query:
                best = 1000
                break
            best = max(best, _score(query, name_words))
        if best == 1000:
            exact.append(entry)
        elif best:
            partial.append((best, entry))
    partial.sort(key=lambda p: -p[0])
    return exact + [e for _s, e in partial]


def _clause_text(c: Clause) -> str:
    parts = [c.id, c.topic, c.text, c.ruling or "", c.alternative or "", *c.variants]
    parts.extend(q.quote for q in c.cites)
    return " ".join(parts)


def search(
    text: str,
    *,
    game: str | None = None,
    kinds: Iterable[str] = ("card", "clause", "seed"),
    limit: int = 20,
) -> list[Hit]:
    """Keyword search: every query word (stop words aside) must appear; a named card adds its other names.

    Results: cards first, then clauses, then seed passages, best score first within each kind.
    An empty query raises InputError naming ``TEXT``.
    """
    kinds = tuple(kinds)
    unknown = [k for k in kinds if k not in _KIND_ORDER]
    if unknown:
        raise InputError("--kind", f"unknown kind {unknown[0]!r} (known: {', '.join(_KIND_ORDER)})")
    all_words = words(text)
    terms = tuple(w for w in all_words if w not in STOP) or all_words
    if not terms:
        raise InputError("TEXT", "give at least one word to search for")
    cards = find_cards(text, game)
    aliases = [words(name) for entry in cards[:3] for _lang, name in entry.names]
    hits: list[Hit] = []
    if "card" in kinds:
        for entry in cards:
            names = "; ".join(f"{lang}: {name}" for lang, name in entry.names)
            hits.append(Hit("card", entry.key, entry.game, names, 100))
    if "clause" in kinds:
        for c in all_clauses(game_names()).values():
            if game is not None and c.game != game:
                continue
            cw = words(_clause_text(c))
            score = _score(terms, cw)
            if any(_phrase_in(a, cw) for a in aliases):
                score += 10
            if score:
                hits.append(Hit("clause", c.id, c.game, c.text, score))
    if "seed" in kinds:
        for key, seed in seed_index().items():
            if game is not None and game not in seed.games:
                continue
            only = seed.games[0] if len(seed.games) == 1 else None
            for p in passages(key):
                pw = words(p.text)
                score = _score(terms, pw)
                if any(_phrase_in(a, pw) for a in aliases):
                    score += 10
                if score:
                    hits.append(Hit("seed", key, only, p.text, score, p.where))
    hits.sort(key=lambda h: (_KIND_ORDER[h.kind], -h.score))
    out: list[Hit] = []
    per_kind: dict[str, int] = {}
    for h in hits:
        per_kind[h.kind] = per_kind.get(h.kind, 0) + 1
        if per_kind[h.kind] <= limit:
            out.append(h)
    return out


@functools.cache
def _name_index(game: str | None) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Every card name (as words) with its card key, longest first (so "Warehouse Manager" beats
    "Warehouse")."""
    pairs = {(words(name), entry.key) for entry in card_names(game) for _lang, name in entry.names}
    return tuple(sorted((p for p in pairs if p[0]), key=lambda p: (-len(p[0]), p[1])))


def cards_in(text_words: Sequence[str], game: str | None = None) -> set[str]:
    """The cards named in a text (longest names first; a name inside a longer card name does not count)."""
    covered = [False] * len(text_words)
    found: set[str] = set()
    for name, key in _name_index(game):
        n = len(name)
        for i in range(len(text_words) - n + 1):
            if tuple(text_words[i:i + n]) == name and not any(covered[i:i + n]):
                found.add(key)
                for j in range(i, i + n):
                    covered[j] = True
    return found


def mentions(term: str, *, game: str | None = None) -> tuple[list[CardNames], list[Clause]]:
    """Every clause that mentions ``term`` — or, when ``term`` names a card, the card under any of its
    names (not merely inside a longer card name) or a clause its catalog row cites.  Returns the matched
    cards and the clauses, in clause-book order."""
    phrase = words(term)
    phrase = tuple(w for w in phrase if w not in STOP) or phrase
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
