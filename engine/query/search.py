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

from engine import digits
from engine.errors import InputError
from engine.game import facets, game_names
from engine.query.adapters import CardNames, card_names
from engine.spec import Clause, all_clauses, seed_document, seed_index, stem, wording_allowance

__all__ = [
    "Hit",
    "Passage",
    "cards_in",
    "find_cards",
    "mentions",
    "normalize",
    "passages",
    "query_terms",
    "search",
    "suggest",
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
FILLER = frozenset((
    "allowed", "am", "any", "anyone", "anything", "about", "after", "also", "ask", "could", "did",
    "doesn't", "dont", "don't", "ever", "get", "happens", "has", "have", "he", "her", "him", "his", "just",
    "know", "let", "many", "may", "mean", "means", "much", "must", "need", "no", "not", "one", "our",
    "please", "player", "players", "really", "rule", "rules", "say", "says", "she", "should", "so", "some",
    "someone", "still", "than", "that", "their", "them", "then", "there", "they", "this", "those", "us",
    "way", "we", "were", "would", "yes",
))
"""Words a player types around a question ("can I pass again?") that name no rule: dropped from the
query (a query made only of them keeps them)."""


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
    """2 for an exact match, 1 for a prefix match (terms of 3+ letters) or the same English word in another
    form or a synonym (``bought`` for ``buy``, the groups of ``spec/wording.toml``), 0 otherwise."""
    if word == term:
        return 2
    if len(term) >= 3 and not term.isdigit() and (word.startswith(term) or _stem(word) in _variants(term)):
        return 1
    return 0


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return stem(word)


@functools.cache
def _variants(term: str) -> frozenset[str]:
    """The stems a query word stands for: its own and its synonyms' (the wording lint's groups)."""
    own = stem(term)
    return frozenset({own} | set(wording_allowance().synonyms.get(own, frozenset())))


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
    matched, total = _match(terms, text_words)
    return total if matched == len(terms) else 0


def _match(terms: Sequence[str], text_words: Sequence[str], main: Sequence[str] = ()) -> tuple[int, int]:
    """How many of the terms match somewhere, and the sum of their best matches (2 exact, 1 prefix or
    another form); a match in ``main`` (a clause's own wording) counts double."""
    matched = total = 0
    for term in terms:
        best = max((_word_match(term, w) for w in text_words), default=0)
        if best:
            matched += 1
            total += max(best, 2 * max((_word_match(term, w) for w in main), default=0))
    return matched, total


def query_terms(text: str) -> tuple[str, ...]:
    """The words of a question that can match a rule: stop and filler words dropped (all of them kept when
    nothing else is left).

    >>> query_terms("Can I pass again, after passing?")
    ('pass', 'again', 'passing')
    """
    all_words = words(text)
    kept = tuple(dict.fromkeys(w for w in all_words if w not in STOP and w not in FILLER))
    return kept or tuple(dict.fromkeys(w for w in all_words if w not in STOP)) or all_words


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
    matched: int = 0

    def to_json(self) -> dict[str, object]:
        """JSON form."""
        return {"kind": self.kind, "ref": self.ref, "game": self.game, "where": self.where,
                "text": self.text, "score": self.score, "matched": self.matched}


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
    """Plain-language search: the words of a question (stop and filler words dropped) are looked up, and a
    clause or passage is a hit when any of them appears; a named card adds its other names.

    Results: cards first, then clauses, then seed passages; within each kind, the most words matched first,
    then the best score (``Hit.matched`` counts the words).  An empty query raises InputError naming
    ``TEXT``.
    """
    kinds = tuple(kinds)
    unknown = [k for k in kinds if k not in _KIND_ORDER]
    if unknown:
        raise InputError("--kind", f"unknown kind {unknown[0]!r} (known: {', '.join(_KIND_ORDER)})")
    terms = query_terms(text)
    if not terms:
        raise InputError("TEXT", "give at least one word to search for")
    cards = find_cards(text, game)
    aliases = [words(name) for entry in cards[:3] for _lang, name in entry.names]
    hits: list[Hit] = []
    if "card" in kinds:
        for entry in cards:
            names = "; ".join(f"{lang}: {name}" for lang, name in entry.names)
            hits.append(Hit("card", entry.key, entry.game, names, 100, matched=len(terms)))
    if "clause" in kinds:
        for c in all_clauses(game_names()).values():
            if game is not None and c.game != game:
                continue
            cw = words(_clause_text(c))
            matched, score = _match(terms, cw, words(f"{c.id} {c.topic} {c.text}"))
            if any(_phrase_in(a, cw) for a in aliases):
                score += 10
                matched = max(matched, 1)
            if matched:
                hits.append(Hit("clause", c.id, c.game, c.text, score, matched=matched))
    if "seed" in kinds:
        for key, seed in seed_index().items():
            if game is not None and game not in seed.games:
                continue
            only = seed.games[0] if len(seed.games) == 1 else None
            for p in passages(key):
                pw = words(p.text)
                matched, score = _match(terms, pw)
                if any(_phrase_in(a, pw) for a in aliases):
                    score += 10
                    matched = max(matched, 1)
                if matched:
                    hits.append(Hit("seed", key, only, p.text, score, p.where, matched))
    hits.sort(key=lambda h: (_KIND_ORDER[h.kind], -h.matched, -h.score))
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


# --------------------------------------------------------------------------------------------------
# Which question answers it: the ``ask`` kind and a ready command


@frozen
class Suggestion:
    """An ``arbiter ask`` kind that answers a question, with a command to run (ready when the question gave
    what it needs, else the kind's example to adapt) and the words that pointed to it."""

    kind: str
    command: str
    ready: bool
    because: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        """JSON form."""
        return {"kind": self.kind, "command": self.command, "ready": self.ready,
                "because": list(self.because)}


# kind -> (the game it belongs to or None, words that point to it); checked in this order on a tie
ROUTES: tuple[tuple[str, str | None, frozenset[str]], ...] = (
    ("standings", None, frozenset(("win", "wins", "winner", "winners", "won", "tie", "tied", "ties",
                                   "tiebreak", "standings", "ranking", "rank", "beats", "ahead"))),
    ("bullheads", "take6", frozenset(("bullhead", "bullheads", "worth", "heads"))),
    ("row", "take6", frozenset(("row", "rows", "goes", "go", "placed", "sixth", "6th", "lower", "lowest"))),
    ("turn", "take6", frozenset(("turn", "revealed", "together", "simultaneously"))),
    ("displace", "petersburg", frozenset(("displace", "displaces", "replace", "replaces", "upgrade",
                                          "overbuild", "cover"))),
    ("cost", "petersburg", frozenset(("cost", "costs", "price", "pay", "pays", "cheaper", "discount",
                                      "expensive"))),
    ("bonus", "petersburg", frozenset(("bonus", "different", "variety", "distinct"))),
    ("handlimit", "petersburg", frozenset(("limit", "hold", "warehouse"))),
    ("pub", "petersburg", frozenset(("pub", "schenke"))),
    ("final", "petersburg", frozenset(("final", "scoring", "leftover", "left"))),
    ("setup", None, frozenset(("setup", "set", "deal", "dealt", "start", "starting", "begin", "prepare"))),
    ("end", None, frozenset(("end", "ends", "over", "last", "finish"))),
    ("variants", None, frozenset(("variant", "variants", "option", "options", "edition", "editions"))),
    ("disputed", None, frozenset(("disputed", "ruling", "rulings", "disagree", "silent", "unclear"))),
    ("card", "petersburg", frozenset(("card", "effect", "does", "income", "worth"))),
)
_NEEDS_CARD = {"cost": 1, "displace": 2, "card": 1}


def _q(name: str) -> str:
    return f'"{name}"' if " " in name or "'" in name else name


def suggest(text: str, game: str | None = None) -> list[Suggestion]:
    """The ``ask`` kinds that answer a question typed as a player would, best first, each with a command.

    >>> [s.command for s in suggest("who wins with VP 23 23 and roubles 30 19?")][:1]
    ['arbiter ask standings petersburg --scores 23 23 --money 30 19']
    >>> suggest("how many bullheads is the 55 worth")[0].command
    'arbiter ask bullheads 55'
    """
    ws = words(text)
    wset = set(ws)
    numbers = [n for i, w in enumerate(ws) if (n := digits.number(w, max_digits=4)) is not None
               and not (w == "6" and ws[i + 1:i + 2] == ("nimmt",))]
    cards = [k for k in _ordered_cards(ws, game)]
    if game is None:
        votes = {g: len(wset & frozenset(facets(g).words)) for g in game_names()}
        if cards:
            votes["petersburg"] += 2
        best = max(votes.values())
        game = next((g for g, v in votes.items() if v == best), None) if best else None
    out: list[tuple[int, int, Suggestion]] = []
    for order, (kind, kind_game, triggers) in enumerate(ROUTES):
        hit = tuple(w for w in dict.fromkeys(ws) if w in triggers)
        need = _NEEDS_CARD.get(kind, 0)
        if kind_game is not None and game is not None and kind_game != game:
            continue
        if need and len(cards) < need:
            continue
        if not hit and not (kind == "card" and cards):
            continue
        command, ready = _command(kind, game, numbers, cards, wset)
        weight = len(hit) + (2 if need and len(cards) >= need else 0) + (1 if ready else 0)
        out.append((weight, -order, Suggestion(kind, command, ready, hit or tuple(cards[:1]))))
    out.sort(key=lambda t: (-t[0], -t[1]))
    return [s for _w, _o, s in out[:3]]


def _ordered_cards(ws: Sequence[str], game: str | None) -> list[str]:
    """The cards a question names, in the order it names them."""
    found: list[tuple[int, str]] = []
    covered = [False] * len(ws)
    for name, key in _name_index(game):
        n = len(name)
        for i in range(len(ws) - n + 1):
            if tuple(ws[i:i + n]) == name and not any(covered[i:i + n]):
                found.append((i, key))
                for j in range(i, i + n):
                    covered[j] = True
    return [k for _i, k in sorted(found)]


_TEMPLATES = {
    "row": "arbiter ask row 33 --rows '12 14 19' 30 '29 41 52 60 71' 88",
    "turn": "arbiter ask turn --rows 20 30 40 50 --cards 3 7 45",
    "final": "arbiter ask final --owns Author Administrator --money 27 --hand Market",
    "pub": "arbiter ask pub 9 --owns Pub",
    "bonus": "arbiter ask bonus 7",
    "bullheads": "arbiter ask bullheads 55",
}


_READY = {"displace": "arbiter ask displace {c0} {c1}", "card": "arbiter ask card {c0}",
          "end": "arbiter ask end {g}", "variants": "arbiter ask variants {g}"}


def _command(kind: str, game: str | None, numbers: list[int], cards: list[str],
             wset: set[str]) -> tuple[str, bool]:
    g = game or "petersburg"
    if kind == "standings":
        if g == "petersburg" and numbers and len(numbers) % 2 == 0:
            half = len(numbers) // 2
            scores, money = numbers[:half], numbers[half:]
            return (f"arbiter ask standings petersburg --scores {' '.join(map(str, scores))} "
                    f"--money {' '.join(map(str, money))}", True)
        if g == "take6" and numbers:
            return f"arbiter ask standings take6 --scores {' '.join(map(str, numbers))}", True
        return ("arbiter ask standings petersburg --scores 23 23 --money 30 19" if g == "petersburg"
                else "arbiter ask standings take6 --scores 40 12 70", False)
    if kind == "bullheads" and numbers:
        return "arbiter ask bullheads " + " ".join(map(str, numbers)), True
    if kind == "bonus" and numbers:
        return f"arbiter ask bonus {numbers[0]}", True
    if kind == "pub" and numbers:
        return f"arbiter ask pub {numbers[0]} --owns Pub", True
    if kind == "cost":
        owns = " --owns " + " ".join(_q(c) for c in cards[1:]) if len(cards) > 1 else ""
        row = " --row lower" if "lower" in wset else ""
        return f"arbiter ask cost {_q(cards[0])}{owns}{row}", True
    if kind in _READY:
        quoted = [_q(c) for c in cards] + ["", ""]
        return _READY[kind].format(g=g, c0=quoted[0], c1=quoted[1]), True
    if kind == "handlimit":
        owns = " --owns " + " ".join(_q(c) for c in cards) if cards else ""
        return f"arbiter ask handlimit{owns}", True
    if kind == "setup":
        n = next((x for x in numbers if 1 <= x <= 10), None)
        if n is not None:
            return f"arbiter ask setup {g} {n}", True
        return f"arbiter ask setup {g} 4", False
    if kind == "disputed":
        return "arbiter ask disputed" + (f" --game {game}" if game else ""), True
    return _TEMPLATES.get(kind, f"arbiter ask {kind} --help"), False
