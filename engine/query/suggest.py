"""Which ``arbiter ask`` question answers a question typed in plain words, with a command to run.

The kinds come from the search's own ranking, not from word lists: the clauses ranked best for the question
(:func:`engine.query.ranking.rank_clauses`) point to the question kinds whose answers apply them (each kind's
examples are asked once, and the clauses of their answers noted).  A command is then built from the
question alone, and offered **ready to run** only when every argument it fills comes from the question:

* a number is a card only where the question uses it as one (``the 55``; not ``7 bullheads``, a count):
  numbers followed (or preceded) by a unit are that unit's (:func:`engine.query.ranking.numbers`):
  ``3 players``, ``VP 23 23``, ``roubles 30 19``, ``7 different aristocrats``;
* the variant or edition the question names is passed (``logic variant``, ``second edition``, or a card
  named as only the second edition names it);
* roles follow the question's grammar: the card after *own*/*owning*/*have*/*with* is owned, the other is
  bought; *X displace Y* makes X the trading card, *Y be displaced by X* too;
* the command is **run** before it is offered, and its answer must restate what the question gave (its cards
  and numbers); a command that fails or answers another question is not offered as ready — the kind's own
  example (which runs) is offered to adapt instead.

A question that names no game is answered for both games where the kind is shared (set-up, end, who wins,
variants); a kind of one game says so (``game`` and ``assumed``).

>>> [s.command for s in suggest("does owning a Lumberjack make a Gold Miner cheaper") if s.ready][:1]
['arbiter ask cost "Gold Miner" --owns Lumberjack']
>>> [s.command for s in suggest("is 55 worth 7 bullheads") if s.ready][:1]
['arbiter ask bullheads 55']
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence

from attrs import frozen

from engine.errors import InputError
from engine.game import facets, game_names, get_game
from engine.query.adapters import card_names, variant_card_names
from engine.query.cli import answer_for_command
from engine.query.model import Answer
from engine.query.questions import GAME_PARAM, Param, Question, all_questions, register
from engine.query.ranking import named_game, numbers, rank_clauses
from engine.query.search import HIT_KINDS, named_cards, search, words

__all__ = ["Parsed", "Suggestion", "parse", "suggest", "summary_of"]

LISTINGS = frozenset(("search", "mentions", "rule", "disputed"))
"""Kinds that list clauses rather than answer a case: never routed to by a clause (``rule`` is offered for
the best clause itself)."""

OWN_WORDS = frozenset(("own", "owning", "owns", "owned", "have", "having", "has", "with", "holding"))
DISPLACE_VERBS = frozenset(("displace", "displaces", "displacing", "displaced", "replace", "replaces",
                            "replaced", "cover", "covers", "covered", "overbuild", "overbuilt", "upgrade",
                            "upgrades"))
"""Verbs that make two named cards a trading card and its target (``X displace Y``)."""
PASSIVE = ("displaced", "replaced", "covered", "overbuilt")
VARIANT_NEXT = frozenset(("edition", "variant", "version", "rules", "game", "deck"))
_WORK = 4
"""At most this many kinds are tried for a question."""
_GIVEN = 0.3
"""What a kind gains when the question gives the arguments it needs (the best clause adds 1, the next 1/2,
...): enough to lift a kind the question's numbers and cards fit over one the ranking put just ahead."""


@frozen
class Suggestion:
    """An ``arbiter ask`` kind that answers a question: the command (ready when the question gave all it
    needs and the command ran and restated it, else the kind's example to adapt), the clauses that pointed
    to it, the game it answers for and whether that game was assumed (the question named none)."""

    kind: str
    command: str
    ready: bool
    because: tuple[str, ...]
    game: str | None = None
    assumed: bool = False

    def to_json(self) -> dict[str, object]:
        """JSON form."""
        return {"kind": self.kind, "command": self.command, "ready": self.ready,
                "because": list(self.because), "game": self.game, "assumed": self.assumed}


@frozen
class Parsed:
    """What a question gives: its words, the cards it names (position, key), its numbers (position, value,
    unit or ``None``), the game and variant it names, and whether the game was only assumed (from the words
    that point to one game, ``Facets.words``: *bullheads*, *roubles*)."""

    words: tuple[str, ...]
    cards: tuple[tuple[int, str], ...]
    numbers: tuple[tuple[int, int, str | None], ...]
    game: str | None
    variant: str | None
    assumed: bool = False

    def numbers_of(self, unit: str | None) -> list[int]:
        """The numbers counting ``unit`` (``None``: those with no unit)."""
        return [n for _i, n, u in self.numbers if u == unit]

    def card_numbers(self) -> list[int]:
        """The numbers the question uses as 6 nimmt! cards: no unit beside them, 1 to 104."""
        return [n for i, n, u in self.numbers if u is None and 1 <= n <= 104]


def parse(text: str, game: str | None = None) -> Parsed:
    """Read a question: cards, numbers with their units, the game and variant it names.

    >>> p = parse("who wins with VP 23 23 and roubles 30 19")
    >>> p.numbers_of("score"), p.numbers_of("money")
    ([23, 23], [30, 19])
    >>> parse("is 55 worth 7 bullheads").card_numbers()
    [55]
    >>> parse("a second edition question about the Observatory").variant
    'second'
    """
    ws = words(text)
    counts = numbers(ws)
    game = game or named_game(text)
    variant = None
    for g in ([game] if game else game_names()):
        for v in get_game(g).variants:
            at = [i for i, w in enumerate(ws) if w == v]
            followed = any(i + 1 < len(ws) and ws[i + 1] in VARIANT_NEXT for i in at)
            if followed or (at and v in facets(g).words):
                variant, game = v, g
    cards = named_cards(text, game)
    if cards and game is None:
        game = next(e.game for e in card_names() if e.key == cards[0][1])
    if cards and variant is None:
        variant = _edition_of_names(text, game)
    assumed = False
    if game is None:
        votes = {g: len(set(ws) & set(facets(g).words)) for g in game_names()}
        best = max(votes.values())
        if best and list(votes.values()).count(best) == 1:
            game, assumed = max(votes, key=lambda g: votes[g]), True
    return Parsed(ws, tuple(cards), tuple(counts), game, variant, assumed)


def _edition_of_names(text: str, game: str | None) -> str | None:
    """The variant whose own card names the question uses where the default variant's differ (``Mariinsky
    Theater`` is the second edition's name)."""
    if game is None:
        return None
    ws = words(text)
    variants = get_game(game).variants
    for v in variants[1:]:
        try:
            names = variant_card_names(game, v)
        except InputError:
            continue
        default = variant_card_names(game, variants[0])
        for name in names - default:
            nw = words(name)
            if any(tuple(ws[i:i + len(nw)]) == nw for i in range(len(ws) - len(nw) + 1)):
                return v
    return None


@functools.cache
def _kind_clauses() -> dict[str, tuple[frozenset[str], tuple[str, ...]]]:
    """Each answering kind: the clauses its examples' answers apply, and its examples."""
    out: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {}
    for q in all_questions().values():
        if q.name in LISTINGS:
            continue
        cited: set[str] = set()
        for example in q.examples:
            try:
                cited.update(answer_for_command(example).clauses)
            except InputError:
                continue
        out[q.name] = (frozenset(cited), q.examples)
    return out


def _game_of_kind(kind: str) -> str | None:
    return all_questions()[kind].game


def _q(name: str) -> str:
    return f'"{name}"' if " " in name or "'" in name or "&" in name else name


def _roles(p: Parsed) -> tuple[list[str], list[str]]:
    """(cards bought or asked about, cards owned): a card right after an owning word is owned."""
    bought: list[str] = []
    owned: list[str] = []
    for i, key in p.cards:
        before = p.words[max(0, i - 3):i]
        (owned if any(w in OWN_WORDS for w in before) else bought).append(key)
    return bought, owned


def _displace_roles(p: Parsed) -> list[str] | None:
    """[trading card, target] by the question's grammar (``X displace Y``; ``Y be displaced by X``)."""
    if len(p.cards) != 2:
        return None
    (i, first), (j, second) = p.cards
    between = p.words[i:j]
    if not any(w in DISPLACE_VERBS for w in between):
        return None
    if any(w in PASSIVE for w in between) and "by" in between:
        return [second, first]
    return [first, second]


def _variant_flag(p: Parsed, game: str) -> str:
    return f" --variant {p.variant}" if p.variant and p.game in (None, game) else ""


def _build(kind: str, game: str, p: Parsed) -> tuple[str, list[str]] | None:
    """The command answering ``kind`` for ``game`` from the question alone, and the tokens its answer must
    restate (cards and numbers); ``None`` when the question does not give what the kind needs."""
    variant = _variant_flag(p, game)
    if kind == "bullheads":
        cards = p.card_numbers()
        if not cards:
            return None
        return f"arbiter ask bullheads {' '.join(map(str, cards))}", [str(c) for c in cards]
    if kind == "standings":
        scores = p.numbers_of("score") or p.numbers_of(None)
        if len(scores) < 2:
            return None
        command = f"arbiter ask standings {game} --scores {' '.join(map(str, scores))}"
        if game == "petersburg":
            money = p.numbers_of("money")
            if len(money) != len(scores):
                return None
            command += f" --money {' '.join(map(str, money))}"
        return command + variant, [str(s) for s in scores]
    if kind == "setup":
        players = p.numbers_of("players")
        return (f"arbiter ask setup {game} {players[0]}{variant}", [str(players[0])]) if len(players) == 1 \
            else None
    if kind in ("end", "variants"):
        return f"arbiter ask {kind} {game}" + (variant if kind == "end" else ""), []
    if kind == "bonus":
        distinct = p.numbers_of("distinct")
        return (f"arbiter ask bonus {distinct[0]}", [str(distinct[0])]) if len(distinct) == 1 else None
    if kind == "pub":
        money = p.numbers_of("money")
        return (f"arbiter ask pub {money[0]} --owns Pub", [str(money[0])]) if len(money) == 1 else None
    bought, owned = _roles(p)
    if kind == "cost" and len(bought) == 1:
        owns = " --owns " + " ".join(_q(c) for c in owned) if owned else ""
        row = " --row lower" if "lower" in p.words else ""
        return f"arbiter ask cost {_q(bought[0])}{owns}{row}{variant}", [bought[0], *owned]
    if kind == "displace":
        roles = _displace_roles(p)
        if roles is None:
            return None
        return f"arbiter ask displace {_q(roles[0])} {_q(roles[1])}{variant}", roles
    if kind == "card" and len(p.cards) == 1:
        return f"arbiter ask card {_q(p.cards[0][1])}{variant}", [p.cards[0][1]]
    if kind == "handlimit" and p.cards:
        return "arbiter ask handlimit --owns " + " ".join(_q(k) for _i, k in p.cards) + variant, [
            k for _i, k in p.cards]
    return None


def _run(command: str) -> Answer | None:
    try:
        return answer_for_command(command)
    except InputError:
        return None


def _restates(answer: Answer, tokens: Sequence[str]) -> bool:
    """True when the answer's question or value names every card and number the command was given (a card
    under any of its names)."""
    said = " ".join(words(answer.question + " " + json.dumps(answer.value, ensure_ascii=False)))
    for token in tokens:
        names = [n for e in card_names() if e.key == token for _l, n in e.names] or [token]
        if not any(f" {' '.join(words(n))} " in f" {said} " for n in names):
            return False
    return True


@functools.cache
def _example(kind: str, game: str | None) -> str | None:
    """The kind's first example for ``game`` that runs."""
    for example in _kind_clauses()[kind][1]:
        if game is not None and _game_of_kind(kind) is None and f" {game}" not in example:
            continue
        if _run(example) is not None:
            return example
    return None


def _games(kind: str, p: Parsed) -> list[str]:
    """The games a kind is answered for: its own; else the question's; else both."""
    own = _game_of_kind(kind)
    if own is not None:
        return [own] if p.game in (None, own) else []
    return [p.game] if p.game else list(game_names())


def suggest(text: str, game: str | None = None, *, limit: int = 3) -> list[Suggestion]:
    """The ``ask`` kinds that answer a question typed as a player would, best first, each with a command
    (see the module docstring); the best clause's ``ask rule`` closes the list when there is room.

    >>> [s.command for s in suggest("who wins with VP 23 23 and roubles 30 19?")][:1]
    ['arbiter ask standings petersburg --scores 23 23 --money 30 19']
    """
    p = parse(text, game)
    extra = [n for _i, k in p.cards for e in card_names() if e.key == k for _l, n in e.names]
    ranked = rank_clauses(text, game=p.game, limit=5, extra=extra)
    scores: dict[str, float] = {}  # the best rank of a clause the kind applies (1, 1/2, ...)
    spread: dict[str, float] = {}  # on a tie: how many of the ranked clauses it applies
    why: dict[str, list[str]] = {}
    for r, (cid, _s) in enumerate(ranked):
        for kind, (cited, _examples) in _kind_clauses().items():
            if cid in cited:
                scores[kind] = max(scores.get(kind, 0.0), 1.0 / (1 + r))
                spread[kind] = spread.get(kind, 0.0) + 1.0 / (1 + r)
                why.setdefault(kind, []).append(cid)
    for kind in list(scores):  # a kind the question gives the arguments of goes first
        for g in _games(kind, p):
            built = _build(kind, g, p)
            if built is not None and built[1]:
                scores[kind] += _GIVEN
                break
    out: list[Suggestion] = []
    for kind in sorted(scores, key=lambda k: (-scores[k], -spread[k], k))[:_WORK]:
        for g in _games(kind, p):
            assumed = p.game is None or p.assumed
            built = _build(kind, g, p)
            answer = _run(built[0]) if built else None
            if built and answer is not None and _restates(answer, built[1]):
                out.append(Suggestion(kind, built[0], True, tuple(why[kind]), g, assumed))
                continue
            example = _example(kind, g)
            if example is not None:
                out.append(Suggestion(kind, example, False, tuple(why[kind]), g, assumed))
    if ranked and len(out) < limit:
        out.append(Suggestion("rule", f"arbiter ask rule {ranked[0][0]}", True, (ranked[0][0],)))
    return out[:limit] if p.game else out[:limit + 1]


def summary_of(tips: Sequence[Suggestion]) -> str:
    """The suggestion part of a search's one-line answer: the best kind's ready command (for each game when
    the question names none and the kind is shared), or its example to adapt.

    >>> tail = summary_of(suggest("how is a 3 player game set up"))
    >>> tail.startswith("; no game named:"), "ask setup take6 3; arbiter ask setup petersburg 3" in tail
    (True, True)
    """
    if not tips or tips[0].kind == "rule":
        return ""
    best = tips[0]
    same = [t for t in tips if t.kind == best.kind]
    if not best.ready:
        return f"; the '{best.kind}' question answers it (an example to adapt): {best.command}"
    ready = [t for t in same if t.ready]
    if len({t.game for t in ready}) > 1:
        return (f"; no game named: the '{best.kind}' question answers it for each game: "
                + "; ".join(t.command for t in ready))
    assumed = f" (assumed {best.game}: the question names no game)" if best.assumed and best.game else ""
    return f"; the '{best.kind}' question answers it: {best.command}{assumed}"


# --------------------------------------------------------------------------------------------------
# The search question (shared by every game; each game's questions module imports this one, as it does the
# standings question)

def _search(text: list[str], game: str | None, kind: list[str], limit: int | None) -> Answer:
    query = " ".join(text)
    named = game or named_game(query)
    hits = search(query, game=game, kinds=kind or HIT_KINDS, limit=limit or 10)
    rows = []
    for h in hits:
        ref = f"{h.ref} {h.where}".strip() if h.kind in ("seed", "faq") else h.ref
        rows.append([h.kind, ref, " ".join(h.text.split())])
    counts = {k: sum(1 for h in hits if h.kind == k) for k in HIT_KINDS}
    labels = {"card": "card(s)", "clause": "clause(s)", "seed": "seed passage(s)", "faq": "FAQ answer(s)"}
    found = [f"{n} {labels[k]}" for k, n in counts.items() if n]
    best = [h.ref if h.kind in ("card", "clause") else f"{h.kind} {h.ref}" for h in
            ([h for h in hits if h.kind == "clause"][:3] or hits[:3])]
    summary = (f"best: {', '.join(best)} ({', '.join(found)})" if hits else "nothing matches")
    scope = f"{named} only" if named else "both games (the question names none)"
    notes = [f"Searched {scope}: clauses ranked by their own text, the FAQ answers citing them and the seed "
             "passages they quote (BM25, every word weighed by how rare it is)."]
    tips = suggest(query, game)
    summary += summary_of(tips)
    for tip in tips:
        how = "ready to run" if tip.ready else "an example to adapt"
        where = f"; {tip.game}" + (", assumed" if tip.assumed else "") if tip.game else ""
        notes.append(f"ask {tip.kind} (from {', '.join(tip.because)}{where}): {tip.command}  [{how}]")
    return Answer(
        kind="search", game=named, question=f"Where do the rules, the seeds or the FAQ answer {query!r}?",
        summary=summary, value=[h.to_json() for h in hits], headers=("kind", "where", "text") if hits else (),
        rows=rows, notes=notes,
    )


register(Question(
    "search", None, "plain-language search over clauses, seed passages, the FAQ and card names (all "
    "languages); names the ask question that answers it, with a command it ran",
    (Param("text", str, "a question or words to look for", many=True),
     GAME_PARAM,
     Param("kind", str, "only these kinds (card, clause, seed, faq)", required=False, many=True,
           choices=HIT_KINDS),
     Param("limit", int, "at most this many hits per kind (default 10)", required=False)),
    _search,
    ("arbiter ask search Zar Peter", "arbiter ask search 6th card --game take6",
     "arbiter ask search can I pass again", "arbiter ask search who wins with 23 23 VP and 30 19 roubles"),
))
