"""The wording lint: a clause's wording says no more than its quotes, unless it is marked as a ruling.

The test suite runs :func:`check_wording` over every clause book (``tests/test_lint.py``);
:mod:`engine.spec` loads the books, this module only reads them and ``spec/wording.toml``.

>>> from engine.spec import all_clauses
>>> check_wording(all_clauses().values())
[]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping

from attrs import frozen

from engine.errors import SpecError
from engine.spec import Clause, clause_games, read_toml, seed_index, spec_dir

__all__ = ["WordingAllowance", "check_wording", "lint_words", "stem", "unquoted_words", "wording_allowance"]

# Wording lint: a clause's wording says no more than its quotes, unless it is marked as a ruling
#
# The words of a clause's ``text`` are compared with the words of its quotes after a simple folding:
# lowercase, punctuation dropped, German umlauts folded as seed 001 lost them, a crude English suffix
# strip (``places``/``placed``/``place`` -> ``plac``).  A text word is carried when a quote has it, or a
# synonym of it (``rouble``/``ruble``), or -- for a quote in German or Russian -- a word the translation
# allowance of ``spec/wording.toml`` maps to it.  Stop words and numbers written as digits the quotes
# also give count as carried.  What remains is what the wording adds; a clause that adds anything must
# be a ruling (``ruling = ...``), which ``arbiter rules --disputed`` lists.


@frozen
class WordingAllowance:
    """The folding data of the wording lint (``spec/wording.toml``): stop words, English synonym groups,
    and per-language translation prefixes (a seed word beginning with the key carries the English words)."""

    stop: frozenset[str]
    synonyms: Mapping[str, frozenset[str]]
    translations: Mapping[str, tuple[tuple[tuple[str, ...], frozenset[str]], ...]]


CLAUSE_ID_IN_TEXT = re.compile(r"\b(?:T6|SP)-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+\b")
_SUFFIXES = ("ing", "ies", "ied", "es", "ed", "s", "e", "'s")
_FOLD_LINT = str.maketrans({"ä": "?", "ö": "?", "ü": "?", "ß": "?", "ё": "е", "’": "'"})


def lint_words(text: str) -> tuple[str, ...]:
    """The folded words of ``text``: lowercase, umlauts as seed 001 spells them, possessives dropped.

    >>> lint_words("Czar's Gebäude, 10n+4!")
    ('czar', 'geb?ude', '10n', '4')
    """
    out = []
    for raw in re.findall(r"[\w?']+", text.lower().translate(_FOLD_LINT)):
        w = raw.strip("?'")
        if w.endswith("'s"):
            w = w[:-2]
        if w:
            out.append(w)
    return tuple(out)


def stem(word: str) -> str:
    """A crude English stem: one common suffix stripped while 3 letters remain (``takes``/``take`` ->
    ``tak``, ``buying`` -> ``buy``); other scripts and numbers unchanged.

    >>> [stem(w) for w in ("takes", "take", "placed", "buying", "roubles", "55")]
    ['tak', 'tak', 'plac', 'buy', 'roubl', '55']
    """
    if not word.isascii() or not word.isalpha():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


@functools.cache
def wording_allowance() -> WordingAllowance:
    """The lint's folding data, read and checked from ``spec/wording.toml``."""
    doc = read_toml(spec_dir() / "wording.toml")
    for name in doc:
        if name not in ("stop", "synonyms", "translations"):
            raise SpecError(
                f"wording.toml: unknown top-level key {name!r} (known: stop, synonyms, translations)"
            )
    stop = doc.get("stop", {}).get("words", [])
    groups = doc.get("synonyms", {}).get("groups", [])
    if not isinstance(stop, list) or not all(isinstance(w, str) for w in stop):
        raise SpecError("wording.toml [stop] words: expected a list of words")
    synonyms: dict[str, set[str]] = {}
    for i, group in enumerate(groups, start=1):
        if not isinstance(group, list) or not all(isinstance(w, str) for w in group):
            raise SpecError(f"wording.toml [synonyms] group {i}: expected a list of words")
        stems = {stem(w) for g in group for w in lint_words(g)}
        for s in stems:
            synonyms.setdefault(s, set()).update(stems)
    translations: dict[str, tuple[tuple[tuple[str, ...], frozenset[str]], ...]] = {}
    for lang, table in doc.get("translations", {}).items():
        if not isinstance(table, dict):
            raise SpecError(f"wording.toml [translations.{lang}]: expected a table")
        pairs: list[tuple[tuple[str, ...], frozenset[str]]] = []
        for key, english in table.items():
            if not isinstance(english, list) or not all(isinstance(w, str) for w in english):
                raise SpecError(f"wording.toml [translations.{lang}] {key!r}: expected a list of words")
            folded = lint_words(key)
            carried = frozenset(stem(w) for e in english for w in lint_words(e))
            pairs.append((folded or (key,), carried))
        translations[lang] = tuple(pairs)
    return WordingAllowance(
        frozenset(stem(w) for s in stop for w in lint_words(s)),
        {k: frozenset(v) for k, v in synonyms.items()},
        translations,
    )


@functools.cache
def _identifiers(game: str) -> frozenset[str]:
    """Words of the names the game's tables define (cards in English, variants, options, editions): a
    wording may name them without quoting them (a name is not a rule)."""
    folder = spec_dir(game)
    found: set[str] = set()
    sources = (("names.toml", "name", ("card", "en")), ("variants.toml", "variant", ("name",)),
               ("options.toml", "option", ("name",)), ("game.toml", "variant", ("name",)),
               ("game.toml", "option", ("name",)), ("editions.toml", "delta", ("name",)))
    for filename, array, keys in sources:
        path = folder / filename
        if not path.is_file():
            continue
        for row in read_toml(path).get(array, []):
            if not isinstance(row, dict):
                continue
            for key in keys:
                values = row.get(key)
                for value in values if isinstance(values, list) else [values]:
                    if isinstance(value, str):
                        found.update(stem(w) for w in lint_words(value))
    return frozenset(found)


def unquoted_words(clause: Clause) -> tuple[str, ...]:
    """The words of ``clause.text`` that none of its quotes carries (see the section comment), in order.

    >>> from engine.spec import parse_clauses
    >>> book = parse_clauses("take6", {"clause": [{"id": "T6-DEMO-1", "topic": "demo",
    ...     "text": "The deck has 104 cards, kept face down.",
    ...     "cites": [{"seed": "000", "where": "x", "quote": "Everyone starts a round with 10 cards"}]}]})
    >>> unquoted_words(book["T6-DEMO-1"])
    ('deck', '104', 'kept', 'face', 'down')
    """
    allow = wording_allowance()
    seeds = seed_index()
    quoted: set[str] = set()
    foreign: list[tuple[str, tuple[str, ...]]] = []
    for cite in clause.cites:
        ws = lint_words(cite.quote)
        quoted.update(stem(w) for w in ws)
        lang = seeds[cite.seed].language if cite.seed in seeds else "en"
        if lang in allow.translations:
            foreign.append((lang, ws))
    carried = set(quoted)
    for s in quoted:
        carried |= allow.synonyms.get(s, frozenset())
    for lang, ws in foreign:
        for key, english in allow.translations[lang]:
            n = len(key)
            if any(all(w.startswith(k) for w, k in zip(ws[i:i + n], key, strict=True))
                   for i in range(len(ws) - n + 1)):
                carried |= english
                for e in english:
                    carried |= allow.synonyms.get(e, frozenset())
    out: list[str] = []
    names = _identifiers(clause.game) if clause.game in clause_games() else frozenset()
    for w in lint_words(CLAUSE_ID_IN_TEXT.sub(" ", clause.text)):
        s = stem(w)
        if s in allow.stop or s in carried or s in names or "_" in w or w in out:
            continue
        out.append(w)
    return tuple(out)


def check_wording(book: Iterable[Clause]) -> list[str]:
    """One line per clause whose wording adds words its quotes do not carry and that is not a ruling.

    >>> from engine.spec import parse_clauses
    >>> doc = {"clause": [{"id": "SP-DEMO-1", "topic": "demo", "text": "1 VP for each full 10 roubles "
    ...        "(the roubles are kept).", "cites": [{"seed": "003", "where": "Money",
    ...        "quote": "Money: For each full 10 rubles you have left, you earn 1 point."}]}]}
    >>> check_wording(parse_clauses("petersburg", doc).values())
    ["SP-DEMO-1: the wording adds 'kept' to its quotes; reword it to them or mark it as a ruling"]
    """
    out = []
    for c in book:
        extra = unquoted_words(c)
        if extra and not c.disputed:
            words = ", ".join(repr(w) for w in extra)
            out.append(
                f"{c.id}: the wording adds {words} to its quotes; reword it to them or mark it as a ruling"
            )
    return out
