"""Explain an action: is it legal in this state, and why — the chain of clauses applied.

The verdict comes from the engine's own checked tier (:meth:`Game.apply`): an action is legal exactly when
``apply`` accepts it, and an illegal action is refused with the clause id the engine names.  Each game adds
its own derivation through a registered explainer (a Saint Petersburg cost broken down by
``cost_breakdown``; a 6 nimmt! card's row found by the engine's placement function), and, for an illegal
action, what would make it legal.

A state comes from the game's JSON form (:func:`state_from_file`), or from a game record replayed on the
reference engine up to a given number of actions (:func:`state_from_record`).

>>> from engine.game import get_game
>>> game = get_game("take6")
>>> state = game.new_game(2, seed=1)
>>> card = game.legal_actions(state, 0)[0]
>>> explain("take6", state, game.action_to_json(card)).value["legal"]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from attrs import field, frozen

from engine import jsonio
from engine.action_input import read_action
from engine.errors import InputError, RuleViolation
from engine.game import Game, facet_module, game_names, get_game
from engine.query.model import Answer, Step

__all__ = [
    "EXPLAINERS", "Explanation", "explain", "register_explainer", "state_from_file", "state_from_record",
    "state_from_vector",
]


@frozen
class Explanation:
    """What a game's explainer adds: the derivation steps, a table, notes, and extra machine fields."""

    steps: tuple[Step, ...] = ()
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    notes: tuple[str, ...] = ()
    value: dict[str, Any] = field(factory=dict)


# (game, state, action, refusal or None) -> Explanation
Explainer = Callable[[Game, Any, Any, RuleViolation | None], Explanation]
EXPLAINERS: dict[str, Explainer] = {}


def register_explainer(game: str) -> Callable[[Explainer], Explainer]:
    """Decorator: register the explainer of ``game``'s actions."""

    def wrap(fn: Explainer) -> Explainer:
        EXPLAINERS[game] = fn
        return fn

    return wrap


def _load_explainers() -> None:
    for game in game_names():
        facet_module(game, "questions")


# --------------------------------------------------------------------------------------------------
# States


def state_from_file(game: str, data: Any) -> Any:
    """A state from the game's JSON form (``GAME.state_from_json``); InputError names the bad field."""
    g = get_game(game)
    try:
        return g.state_from_json(data)
    except InputError as exc:
        raise InputError(f"--state: {exc.field}", exc.message) from None


def _record_lines(source: Path | IO[str], name: str | None) -> Iterator[Any]:
    from engine.conformance.records.format import iter_record

    yield from iter_record(source, name=name)


def state_from_record(
    game: str, path: Path | IO[str], *, upto: int | None = None, name: str | None = None
) -> Any:
    """The state after replaying the first ``upto`` actions (all when ``None``) of a game record: a path,
    or a text stream already open (named ``name`` in errors).

    The record's header must name ``game``; its explicit set-up is dealt, then each action is applied
    through the checked tier.  InputError names the file and line of any problem.
    """
    from engine.conformance.kits.base import get_kit

    if upto is not None and upto < 0:
        raise InputError("--upto", f"expected a number of actions >= 0, got {upto}")
    if isinstance(path, Path) and not path.is_file():
        raise InputError("--record", f"no such file: {path}")
    label = name or (path.name if isinstance(path, Path) else "<stream>")
    g = get_game(game)
    state: Any = None
    done = 0
    for line in _record_lines(path, None if isinstance(path, Path) and name is None else label):
        where = f"{label} line {line.line}"
        if line.type == "header":
            if line.game != game:
                raise InputError(f"{where}: game", f"the record is a {line.game} game, not {game}")
            kit = get_kit(game)
            setup = kit.setup_from_json(line.setup)
            try:
                state = g.new_game(line.players, variant=line.variant, options=line.options, setup=setup)
            except RuleViolation as exc:
                raise InputError(f"{where}: setup", str(exc)) from None
            continue
        if line.type != "action" or (upto is not None and done >= upto):
            break
        try:
            state = g.apply(state, g.action_from_json(line.action))
        except (RuleViolation, InputError) as exc:
            raise InputError(f"{where}: action", f"cannot replay action {line.index}: {exc}") from None
        done += 1
    if state is None:
        raise InputError("--record", f"{label} holds no header line")
    if upto is not None and done < upto:
        raise InputError("--upto", f"the record holds only {done} actions, not {upto}")
    return state


def state_from_vector(game: str, case_id: str, path: Path | None = None) -> Any:
    """The tested position of a conformance vector: its explicit set-up and prelude, replayed.

    With ``path`` the case is read from an exported vector file (``arbiter vectors export``); without, it
    is one of the kit's hand-picked cases.  InputError names ``--case`` when the id is not found.
    """
    import importlib

    vectors = importlib.import_module("engine.conformance.vectors.suite")
    kits = importlib.import_module("engine.conformance.kits.base")
    if path is not None:
        if not path.is_file():
            raise InputError("--vector", f"no such file: {path}")
        found = [c for c in vectors.read_vectors(path) if c.get("id") == case_id]
        data = found[0] if found else None
    else:
        match = [c for c in vectors.hand_picked_cases(game) if c.id == case_id]
        data = match[0].to_json() if match else None
    if data is None:
        raise InputError("--case", f"no vector {case_id!r}" + (f" in {path}" if path else " among the "
                         f"hand-picked {game} cases"))
    if data.get("game") != game:
        raise InputError("--case", f"vector {case_id!r} is a {data.get('game')} case, not {game}")
    g = get_game(game)
    try:
        return vectors.start_position(g, kits.get_kit(game), data["setup"], data.get("prelude", ()))
    except (RuleViolation, KeyError) as exc:
        raise InputError("--case", f"vector {case_id!r} does not set up: {exc}") from None


# --------------------------------------------------------------------------------------------------
# The explanation


def _action_player(action: Any) -> int | None:
    player = getattr(action, "player", None)
    return player if isinstance(player, int) else None


def explain(game: str, state: Any, action_given: Any) -> Answer:
    """Is the action legal in ``state``, and why.  ``action_given`` is the game's JSON form of an action, or
    its text relative to ``state`` (``buy Market lower``, ``P2 58``: docs/positions.md, "Actions as text";
    a string starting with ``{`` is JSON).

    ``value`` holds ``legal`` (bool), ``clause`` (the refusing clause, when illegal), ``player``,
    ``action`` (the action's text) and the game's own fields (the cost, the row ...).  A malformed or
    ambiguous action raises InputError naming ``--action``.

    >>> from engine.game import get_game
    >>> s = get_game("petersburg").new_game(2, seed=1)
    >>> explain("petersburg", s, "buy Shepherd").question
    'May P0 buy the Shepherd from the upper row here, and what happens?'
    """
    _load_explainers()
    g = get_game(game)
    try:
        action = read_action(g, state, action_given, checked=False)
    except InputError as exc:
        where = "--action" if exc.field == "action" else f"--action: {exc.field}"
        raise InputError(where, exc.message) from None
    except RuleViolation as exc:
        return _refused_outright(g, state, action_given, exc)
    seat, seats = _action_player(action), getattr(state, "players", None)
    if seat is not None and isinstance(seats, int) and not 0 <= seat < seats:
        raise InputError("--action: player", f"expected a seat 0..{seats - 1}, got {jsonio.show(seat)}")
    refusal: RuleViolation | None = None
    after: Any = None
    try:
        after = g.apply(state, action)
    except RuleViolation as exc:
        refusal = exc
    explainer = EXPLAINERS.get(game)
    extra = explainer(g, state, action, refusal) if explainer else Explanation()
    player = _action_player(action)
    value: dict[str, Any] = {"legal": refusal is None, "player": player,
                             "clause": refusal.clause if refusal else None,
                             "action": g.action_to_text(state, action), **extra.value}
    steps = list(extra.steps)
    notes = list(extra.notes)
    if refusal is not None:
        steps.insert(0, Step.of(refusal.clause, f"refused: {refusal.message}"))
        summary = f"illegal — {refusal.clause}: {refusal.message}"
        if not any(n.startswith("To make it legal") for n in notes):
            notes.append(_legal_hint(g, state, player))
    else:
        summary = "legal" + (f" — {extra.value['summary']}" if "summary" in extra.value else "")
        notes.extend(f"then: {line}" for line in g.narrate(state, action, after))
    value.pop("summary", None)
    return Answer(
        kind="explain", game=game, question=f"May {g.action_to_words(state, action)} here, and what happens?",
        summary=summary, value=value, steps=steps, headers=extra.headers, rows=extra.rows, notes=notes,
    )


def _refused_outright(g: Game, state: Any, given: Any, exc: RuleViolation) -> Answer:
    """The answer for an action refused before it is one (a deal of the wrong shape): there is no action
    to name by its text, so the question quotes what was given."""
    shown = jsonio.show(given) if isinstance(given, str) else _show(given)
    return Answer(
        kind="explain", game=g.name, question=f"May this action be played: {shown}?",
        summary=f"illegal — {exc.clause}: {exc.message}",
        value={"legal": False, "player": None, "clause": exc.clause},
        steps=[Step.of(exc.clause, f"refused: {exc.message}")],
        notes=[_legal_hint(g, state, None)],
    )


def _show(data: Any) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def _legal_hint(g: Game, state: Any, player: int | None, limit: int = 8) -> str:
    """What would be legal instead: who must act now, and that player's legal actions."""
    if g.is_terminal(state):
        return "To make it legal: nothing — the game is over."
    acting = g.to_act(state)
    if player is None or player not in acting:
        return f"To make it legal: it must be the turn of one of seats {list(acting)} (they must act now)."
    actions = g.legal_actions(state, player)
    shown = "; ".join(g.action_to_text(state, a) for a in actions[:limit])
    more = f" … and {len(actions) - limit} more" if len(actions) > limit else ""
    return f"To make it legal: choose one of P{player}'s {len(actions)} legal actions: {shown}{more}."
