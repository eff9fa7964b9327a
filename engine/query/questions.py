"""Structured questions, answered without building a game: one registry, one parameter schema per question,
shared by the library (:func:`ask`), the command line (``arbiter ask KIND ...``) and the FAQ tests.

Every number an answer gives comes from the function the engine itself calls (6 nimmt!: ``bullheads`` and
the placement function; Saint Petersburg: ``cost_breakdown``, ``can_displace``, ``variety_bonus`` and the
card catalog); every step names the clause applied.  The game-specific questions live in
:mod:`engine.query.take6_questions` and :mod:`engine.query.petersburg_questions`; this module holds the
registry and the questions every game shares.

>>> answer = ask("search", {"text": ["how many cards are in the deck"], "game": "take6", "kind": ["clause"]})
>>> "T6-DECK-1" in [h["ref"] for h in answer.value]
True
>>> ask("search", {"txt": ["x"]})
Traceback (most recent call last):
...
engine.errors.InputError: txt: unknown parameter of 'search' (known: text, game, kind, limit)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from attrs import frozen

from engine.digits import number, read_int
from engine.errors import InputError
from engine.game import facet_module, game_names
from engine.jsonio import show
from engine.query import rulesref, search
from engine.query.model import Answer, Step

__all__ = ["QUESTIONS", "Param", "Question", "ask", "dispatch", "game_handler", "question", "register"]


def _int_list(name: str, value: Any) -> list[int]:
    """A list of integers from a JSON list or from text such as ``"3 12 30"`` / ``"3,12,30"``."""
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
        numbers = [number(p, signed=True) for p in parts]
        if not parts or None in numbers:
            raise InputError(name, "expected numbers (digits 0-9) separated by spaces or commas, got "
                             + show(value))
        return [n for n in numbers if n is not None]
    if isinstance(value, Sequence) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return list(value)
    raise InputError(name, f"expected a list of integers, got {value!r}")


@frozen
class Param:
    """One parameter of a question.

    ``type`` is ``int``, ``str``, ``bool`` or ``list`` (a list of integers, written ``"3 12 30"`` on the
    command line); ``many`` makes it a list (repeatable on the command line);
    a required parameter is positional on the command line, an optional one is ``--name``.  ``choices``
    restricts a string.
    """

    name: str
    type: type
    help: str
    required: bool = True
    many: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    metavar: str | None = None

    def check(self, question: str, value: Any) -> Any:
        """Validate one value (a list when ``many``); InputError names the parameter."""
        if self.many:
            if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
                value = [value]
            return [self._one(question, v) for v in value]
        return self._one(question, value)

    def _one(self, question: str, value: Any) -> Any:
        if self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                if isinstance(value, str):
                    return read_int(value.strip(), self.name, signed=True, what="an integer")
                raise InputError(self.name, f"expected an integer, got {show(value)}")
            return value
        if self.type is list:
            return _int_list(self.name, value)
        if self.type is bool:
            if not isinstance(value, bool):
                raise InputError(self.name, f"expected true or false, got {value!r}")
            return value
        if not isinstance(value, str):
            raise InputError(self.name, f"expected text, got {value!r}")
        if self.choices and value not in self.choices:
            raise InputError(self.name, f"expected one of {', '.join(self.choices)}, got {value!r}")
        return value


@frozen
class Question:
    """A question kind: name, game (``None`` for every game), help line, parameters, handler, examples."""

    name: str
    game: str | None
    help: str
    params: tuple[Param, ...]
    handler: Callable[..., Answer]
    examples: tuple[str, ...] = ()

    def bind(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Check ``params`` against the schema: unknown, missing or mistyped parameters raise InputError."""
        known = {p.name: p for p in self.params}
        for name in params:
            if name not in known:
                raise InputError(name, f"unknown parameter of {self.name!r} (known: {', '.join(known)})")
        out: dict[str, Any] = {}
        for p in self.params:
            value = params.get(p.name)
            if value is None or (p.many and value == []):
                if p.required:
                    raise InputError(p.name, f"missing (the {self.name!r} question needs it)")
                out[p.name] = list(p.default) if p.many and p.default is not None else p.default
                if p.many and out[p.name] is None:
                    out[p.name] = []
                continue
            out[p.name] = p.check(self.name, value)
        return out


QUESTIONS: dict[str, Question] = {}


def register(q: Question) -> Question:
    """Add a question kind to the registry (a name is registered once)."""
    if q.name in QUESTIONS:
        raise ValueError(f"question {q.name!r} registered twice")
    QUESTIONS[q.name] = q
    return q


def question(name: str) -> Question:
    """The question kind called ``name``; InputError naming ``KIND`` otherwise."""
    _load_game_questions()
    if name not in QUESTIONS:
        raise InputError("KIND", f"unknown question {name!r} (known: {', '.join(QUESTIONS)})")
    return QUESTIONS[name]


def ask(kind: str, params: Mapping[str, Any] | None = None) -> Answer:
    """Answer one structured question: ``kind`` names it, ``params`` are checked against its schema."""
    q = question(kind)
    if params is not None and not isinstance(params, Mapping):
        raise InputError("params", f"expected an object of parameters, got {type(params).__name__}")
    return q.handler(**q.bind(params or {}))


_LOADED: list[bool] = []


def _load_game_questions() -> None:
    """Import the per-game question modules once (each registers its questions when imported; a game
    whose engine is absent still registers them, and its handlers then fail with a one-line InputError)."""
    if _LOADED:
        return
    _LOADED.append(True)
    for game in game_names():  # (each game's questions module imports the shared standings question)
        facet_module(game, "questions")


def all_questions() -> dict[str, Question]:
    """Every registered question kind (generic and per game)."""
    _load_game_questions()
    return dict(QUESTIONS)


# --------------------------------------------------------------------------------------------------
# Questions every game shares

GAME_PARAM = Param("game", str, "restrict to one game", required=False, choices=game_names())


def _mentions(term: list[str], game: str | None) -> Answer:
    text = " ".join(term)
    cards, clauses = search.mentions(text, game=game)
    steps = [Step.of(c.id, f"{c.game} · {c.topic}") for c in clauses]
    if cards:
        names = "; ".join(f"{n}" for c in cards for _l, n in c.names)
        about = f"the card {cards[0].key} ({names})"
    else:
        about = repr(text)
    summary = f"{len(clauses)} clause(s)" + (": " + ", ".join(c.id for c in clauses) if clauses else "")
    return Answer(
        kind="mentions", game=game, question=f"Which rules mention {about}?", summary=summary,
        value=[c.id for c in clauses], steps=steps,
    )


register(Question(
    "mentions", None, "every rule that mentions a card (any of its names) or a term",
    (Param("term", str, "a card name or a word", many=True), GAME_PARAM),
    _mentions,
    ("arbiter ask mentions Warehouse", "arbiter ask mentions 55 --game take6"),
))


def _rule(clause_id: str) -> Answer:
    c = rulesref.find_clause(clause_id)
    notes = []
    if c.ruling:
        notes.append(f"Ruling: {c.ruling}")
        if c.rejects:
            notes.append(f"Rejected reading: {c.rejects}")
        if c.alternative:
            notes.append(f"Other reading: variant/option {c.alternative!r}.")
    return Answer(
        kind="rule", game=c.game, question=f"What does {c.id} say?", summary=c.text, value=c.id,
        steps=[Step.of(c.id, f"{c.game} · {c.topic}")], notes=notes,
    )


register(Question(
    "rule", None, "one clause: our wording, the seed passage, the ruling if any",
    (Param("clause_id", str, "a clause id such as T6-PLACE-2", metavar="ID"),),
    _rule,
    ("arbiter ask rule T6-PLACE-2",),
))


def _disputed(game: str | None) -> Answer:
    clauses = rulesref.disputed(game)
    steps = []
    for c in clauses:
        other = f" Selected by: {c.alternative}." if c.alternative else " No variant reads it otherwise."
        rejected = f" Rejected reading: {c.rejects}" if c.rejects else ""
        steps.append(Step.of(c.id, f"why: {c.ruling}{rejected}{other}"))
    return Answer(
        kind="disputed", game=game, question="Where do the seeds disagree or fall silent, and how does the "
        "engine rule?", summary=f"{len(clauses)} ruling(s): " + ", ".join(c.id for c in clauses),
        value=[c.id for c in clauses], steps=steps,
    )


register(Question(
    "disputed", None,
    "the rulings where the seeds disagree or are silent: the reading each rejects and the option for it",
    (GAME_PARAM,),
    _disputed,
    ("arbiter ask disputed --game petersburg",),
))


# --------------------------------------------------------------------------------------------------
# Questions every game answers its own way: set-up, end of game, variants

GameHandler = Callable[..., Answer]
GAME_HANDLERS: dict[tuple[str, str], GameHandler] = {}


def game_handler(kind: str, game: str) -> Callable[[GameHandler], GameHandler]:
    """Decorator: ``game``'s answer to the shared question ``kind`` (``setup``, ``end``, ``variants``)."""

    def wrap(fn: GameHandler) -> GameHandler:
        GAME_HANDLERS[(kind, game)] = fn
        return fn

    return wrap


def dispatch(kind: str, game: str, **params: Any) -> Answer:
    """``game``'s answer to the shared question ``kind``, from the handler the game registered
    (:func:`game_handler`); a game without one is a one-line InputError naming ``game``."""
    handler = GAME_HANDLERS.get((kind, game))
    if handler is None:
        raise InputError("game", f"the {kind!r} question is not available for {game}")
    return handler(**params)


GAME_REQUIRED = Param("game", str, "which game", choices=game_names())
VARIANT_PARAM = Param("variant", str, "variant (default: the standard game)", required=False)
OPTION_PARAM = Param("option", str, "a game option NAME=VALUE (repeatable)", required=False, many=True,
                     metavar="NAME=VALUE")


def _options(pairs: list[str]) -> dict[str, Any]:
    from engine.play import parse_options

    return parse_options(pairs)


register(Question(
    "setup", None, "the set-up for n players (cards, rows, money, start markers) in a variant",
    (GAME_REQUIRED, Param("players", int, "number of players"), VARIANT_PARAM, OPTION_PARAM),
    lambda game, players, variant, option: dispatch("setup", game, players=players, variant=variant,
                                                     options=_options(option)),
    ("arbiter ask setup take6 5 --variant tactics", "arbiter ask setup petersburg 3"),
))

register(Question(
    "end", None, "when the game ends, the final scoring and who wins",
    (GAME_REQUIRED, VARIANT_PARAM, OPTION_PARAM),
    lambda game, variant, option: dispatch("end", game, variant=variant, options=_options(option)),
    ("arbiter ask end take6", "arbiter ask end petersburg"),
))

register(Question(
    "variants", None, "the variants and options of a game, with the clauses each one changes",
    (GAME_REQUIRED,),
    lambda game: dispatch("variants", game),
    ("arbiter ask variants take6",),
))
