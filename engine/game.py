"""The shape every game of the engine has, and the registry that finds them by name.

A game is a module-level object implementing :class:`Game`: metadata as data, then pure functions from a
state (a frozen value) and an action (a frozen value naming its player) to a new state.  Chance is explicit:
a game is created from a seed or from an explicit set-up, and every later step is deterministic.  Any
position can also be built (``take6.position``, ``petersburg.position``), written and read as one line
(``to_notation`` / ``from_notation``), or loaded by :func:`engine.positions.load_position`.

Two tiers apply an action (as ``push_san`` and ``push`` do in python-chess):

* :meth:`Game.apply` checks the action against the rules and raises an
  :class:`~engine.errors.IllegalAction` naming the clause id; the old state is untouched (it is immutable).
* :meth:`Game.apply_unchecked` trusts that the action came from :meth:`Game.legal_actions` of that very
  state, and applies it with the same transition code without re-validating it.  For playouts.

>>> game = get_game("take6")
>>> state = game.new_game(4, seed=1)
>>> game.to_act(state)
(0, 1, 2, 3)
>>> state = game.apply(state, game.legal_actions(state, 0)[0])
>>> game.to_act(state)
(1, 2, 3)

An action can also be written and read as short text relative to a state, as SAN is in chess
(``action_to_text`` / ``action_from_text``; docs/positions.md, "Actions as text"):

>>> card = state.hands[1][0]
>>> game.action_to_text(state, game.legal_actions(state, 1)[0]) == f"P1 {card}"
True
>>> state = game.apply(state, game.action_from_text(state, f"P1 {card}"))
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Literal, Protocol, runtime_checkable

from attrs import frozen

from engine.errors import InputError
from engine.jsonio import show
from engine.spec import ClauseBook

__all__ = [
    "GAME_PACKAGES",
    "Facets",
    "Game",
    "Result",
    "facet_module",
    "facets",
    "game_names",
    "game_of",
    "game_package",
    "get_game",
]


@frozen
class Result:
    """The outcome of a finished game.

    ``scores`` are the game's own numbers, one per seat (6 nimmt!: bullheads taken; Saint Petersburg: VP).
    ``winners`` are the seats that share first place; ``ranking`` lists seats best first, ties broken by
    seat; ``tiebreak`` holds the numbers used to break ties (Saint Petersburg: roubles), else ``()``.

    >>> Result(scores=(12, 70), winners=(0,), ranking=(0, 1)).winners
    (0,)
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    tiebreak: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Canonical JSON form."""
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "tiebreak": list(self.tiebreak),
        }


@runtime_checkable
class Game(Protocol):
    """What every game module exports as ``GAME``.  States and actions are frozen values."""

    name: str
    """Registry name: ``take6`` or ``petersburg``."""
    title: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]
    """Named variants (the first is the default)."""
    clauses: ClauseBook

    def new_game(
        self,
        players: int,
        *,
        seed: int | None = 0,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Any = None,
    ) -> Any:
        """A new game; ``setup`` (game-specific) replaces the seeded shuffle with explicit deals/orders.
        ``seed=None``: no shuffle at all; what the set-up leaves open comes as chance steps (6 nimmt!: a
        later round's deal, phase ``deal``), and a game without chance steps needs a whole set-up."""
        ...

    def variant_of(self, state: Any) -> str:
        """The variant a state is played under."""
        ...

    def options_of(self, state: Any) -> dict[str, Any]:
        """The options a state is played under, every option of the game with its value."""
        ...

    def players_of(self, state: Any) -> int:
        """The number of seats of a state."""
        ...

    def seed_of(self, state: Any) -> int | None:
        """The seed later chance events are derived from; ``None`` when they come as chance steps."""
        ...

    def with_seed(self, state: Any, seed: int) -> Any:
        """The same position, with later chance events derived from ``seed`` (a game whose every chance
        outcome is part of its state returns it unchanged)."""
        ...

    def to_act(self, state: Any) -> tuple[int, ...]:
        """The seats that must act now (several at once for simultaneous selection); ``()`` when over."""
        ...

    def legal_actions(self, state: Any, player: int | None = None) -> tuple[Any, ...]:
        """Every legal action of ``player`` now, in a canonical order; ``()`` if the player need not act.
        Without a player: every acting seat's actions, seat after seat in ``to_act`` order."""
        ...

    def apply(self, state: Any, action: Any) -> Any:
        """Checked tier: validate then transition; raises IllegalAction (with a clause id)."""
        ...

    def apply_unchecked(self, state: Any, action: Any) -> Any:
        """Unchecked tier: the action must come from ``legal_actions`` of this state."""
        ...

    def is_terminal(self, state: Any) -> bool:
        """True when the game is over."""
        ...

    def result(self, state: Any) -> Result:
        """The outcome of a terminal state (raises IllegalAction otherwise)."""
        ...

    def observation(self, state: Any, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data: never other players' hidden information."""
        ...

    def state_to_json(self, state: Any) -> dict[str, Any]:
        """Canonical JSON form of the whole state (round-trips exactly through ``state_from_json``)."""
        ...

    def state_from_json(self, data: Any) -> Any:
        """Parse and validate a JSON state; raises InputError naming the field."""
        ...

    def to_notation(self, state: Any) -> str:
        """The position as one notation line (docs/positions.md); ``from_notation`` reads it back exactly."""
        ...

    def from_notation(self, text: str) -> Any:
        """Read a notation line; InputError (PositionError for a broken rule) names the offending token."""
        ...

    def action_to_json(self, action: Any) -> dict[str, Any]:
        """Canonical JSON form of an action."""
        ...

    def action_from_json(self, data: Any) -> Any:
        """Parse and validate a JSON action; raises InputError naming the field."""
        ...

    def action_to_text(self, state: Any, action: Any) -> str:
        """The action as short text relative to ``state``, as SAN is to a chess position (``58``, ``P2
        58``, ``row 2``, ``buy Market lower``, ``pass``: docs/positions.md, "Actions as text"): the
        shortest text that ``action_from_text`` reads back as the action."""
        ...

    def action_from_text(self, state: Any, text: str, *, checked: bool = True) -> Any:
        """The action ``text`` names in ``state``; the state is not changed.  AmbiguousAction (an
        InputError) lists the readings of a text naming several legal actions; InputError names the
        malformed part; IllegalAction (with its clause) is the engine's refusal of the action named, or
        with ``checked=False`` that action is returned, to explain its refusal."""
        ...

    def action_to_words(self, state: Any, action: Any) -> str:
        """The action in plain words, as the clause a question puts after "May": ``P0 buy the Market from
        the lower row``, ``P2 select 58``."""
        ...

    def narrate(self, before: Any, action: Any, after: Any) -> tuple[str, ...]:
        """Readable log lines for one step: the action (with its cost or placement) and everything the
        transition did as a consequence (rows taken, scorings, refills, a new round, the end)."""
        ...

    def describe_state(self, state: Any) -> tuple[str, ...]:
        """A few readable lines showing the public position (rows, scores, whose turn), the last of them
        the position's notation line."""
        ...


GAME_PACKAGES: tuple[str, ...] = (
    "engine.take6",
    "engine.petersburg",
)
"""The one registration of the engine's games: their packages, in the order games are listed everywhere.
A game's registry name is the last part of its package name; each package exports ``GAME`` (a
:class:`Game`) and ``FACETS`` (its :class:`Facets`).  Nothing else in the engine names the games one by one:
adding a game is writing its package and adding its line here (docs/architecture.md, "Adding a game")."""

FacetName = Literal["kit", "fuzz_setups", "questions", "drawing"]


@frozen
class Facets:
    """What a game package declares about itself for the layers built on the rules.

    ``title`` is the long title used in references (``GAME.title`` is the short one); ``default_players``
    are the player counts ``arbiter bench`` measures; ``words`` point to the game in a typed question.
    The module fields name modules of higher layers, imported only when asked for (:func:`facet_module`),
    so a game package never imports the layers built on it and ``import engine`` loads none of them:
    ``kit`` exports ``KIT`` (the conformance kit), ``fuzz_setups`` exports ``SETUPS`` (the set-ups a
    fuzzing campaign draws), ``questions`` registers the game's ``ask`` questions and explainer when
    imported, ``drawing`` exports ``draw`` (the game's picture).  A game's clause-id prefix is data: the
    ``prefix`` key of its ``spec/<game>/clauses.toml`` (:func:`engine.spec.clause_prefix`).

    >>> facets("petersburg").title, facets("take6").default_players
    ('Saint Petersburg', (2, 4, 10))
    """

    title: str
    default_players: tuple[int, ...]
    words: tuple[str, ...]
    """Words that point to this game in a player's question (``ask search`` suggests its questions)."""
    kit: str
    fuzz_setups: str
    questions: str
    drawing: str


def game_names() -> tuple[str, ...]:
    """Names of the games the engine knows, in registry order (imports no game).

    >>> game_names()
    ('take6', 'petersburg')
    """
    return tuple(package.rsplit(".", 1)[-1] for package in GAME_PACKAGES)


def game_package(name: str) -> ModuleType:
    """The package of game ``name`` (which exports ``GAME`` and ``FACETS``); an unknown name raises
    InputError.

    >>> game_package("petersburg").__name__
    'engine.petersburg'
    """
    for package in GAME_PACKAGES:
        if package.rsplit(".", 1)[-1] == name:
            return importlib.import_module(package)
    raise InputError("game", f"unknown game {show(name)} (known: {', '.join(game_names())})")


def game_of(state: Any) -> str:
    """The name of the game a state (or action) belongs to, from the package that defines its type;
    InputError for anything else.

    >>> game_of(get_game("petersburg").new_game(2))
    'petersburg'
    """
    module = type(state).__module__
    for package in GAME_PACKAGES:
        if module == package or module.startswith(package + "."):
            return package.rsplit(".", 1)[-1]
    raise InputError("state", f"not a state of a known game: {type(state).__name__}")


def get_game(name: str) -> Game:
    """The game called ``name``; an unknown name raises InputError.

    >>> get_game("take6").name
    'take6'
    """
    game: Game = game_package(name).GAME
    return game


def facets(name: str) -> Facets:
    """The facets game ``name`` declares (its package's ``FACETS``); an unknown name raises InputError.

    >>> facets("take6").kit
    'engine.conformance.kits.take6'
    """
    declared: Facets = game_package(name).FACETS
    return declared


def facet_module(name: str, facet: FacetName) -> ModuleType:
    """Import the module game ``name`` names for ``facet`` (``kit``, ``fuzz_setups``, ``questions``,
    ``drawing``).

    >>> facet_module("petersburg", "kit").KIT.name
    'petersburg'
    """
    path: str = getattr(facets(name), facet)
    return importlib.import_module(path)
