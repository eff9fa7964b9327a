"""Counterexamples from a diagnosis: the smallest position and one action on which the rules under a set of
faults and the true rules differ, written as a record and as a test vector, verified both ways.

Once a class is diagnosed (its faults: :mod:`engine.conformance.diagnosis.search`), no peer is needed to
make its counterexample smaller: the reference and the rules under the faults (their
:class:`~engine.conformance.diagnosis.faults.World`) are both in this process, and whether they differ on a
position and an action is a question each answers at once (:func:`~engine.conformance.diagnosis.evidence.
predict`), deterministically.  :func:`counterexample` starts from a position and an action where they
differ (a divergence's origin: :func:`start_of`) and shrinks greedily with the candidates the origin
shrinker uses (:func:`~engine.conformance.campaign.smaller.smaller_origins`: the later rounds' deals and
their seed left out, a seat fewer, a card fewer in every hand, half a list, one card; each a valid position
keeping what the action needs), keeping every candidate on which the two still differ, in what a vector
can show: the facts of the position (``given``), the acceptance of the action, the facts after it or the
winners of the game it ends.

The counterexample is returned as

* a **record** (:meth:`Divergence.to_record <engine.conformance.campaign.divergence.Divergence.to_record>`
  of the divergence a campaign would find on the rules under the faults there: the header ``position``,
  the action, and what those rules claim — the facts after the action, or the legal set without an
  action they refuse), on which ``arbiter check`` reports the divergence;
* a **test vector** in the format of ``arbiter vectors``
  (:func:`~engine.conformance.vectors.suite.position_case`: the position, no prelude, the one action, the
  reference's facts or its refusal) citing the faults' clauses, which the reference passes and the rules
  under the faults fail (:func:`~engine.conformance.vectors.suite.run_case` with ``under``).

Both are checked before the counterexample is returned; one that does not verify both ways is not
returned: :class:`NoCounterexample` says why.

>>> from engine.conformance.diagnosis.faults import parse
>>> from engine.game import get_game
>>> from engine.petersburg import Buy
>>> g = get_game("petersburg")
>>> start = Seen("after", g.new_game(4, seed=2), Buy(0, "Lumberjack", "upper"))
>>> faults = [parse("petersburg:edit:cards/Lumberjack/cost=4")]
>>> cx = counterexample("petersburg", faults, start)
>>> cx.kind, cx.differs, cx.start_size > cx.size
('claim', ('money',), True)
>>> cx.vector["clauses"], cx.vector["expect"]["facts"]["money"][0] - cx.vector["given"]["money"][0]
(['SP-CARD-1'], -3)
"""

from __future__ import annotations

import io
import time
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from engine.conformance.campaign.divergence import Divergence, Origin
from engine.conformance.campaign.setups.base import GameSetup
from engine.conformance.campaign.smaller import position_size, smaller_origins
from engine.conformance.diagnosis.evidence import REFUSED, Seen, predict
from engine.conformance.diagnosis.faults import Fault, World
from engine.conformance.kits.base import get_kit
from engine.conformance.peers.protocol import canonical
from engine.conformance.records.check import check_record
from engine.conformance.records.format import Record, write_record
from engine.conformance.vectors.suite import position_case, run_case, vector_problem
from engine.errors import ArbiterError, RuleViolation
from engine.game import Game, get_game

__all__ = [
    "MAX_TRIES",
    "Counterexample",
    "Difference",
    "NoCounterexample",
    "Oracle",
    "counterexample",
    "start_of",
]

MAX_TRIES = 4000
"""The most candidate positions one counterexample tries."""

MAX_ACTIONS = 400
"""The most actions tried at the start position for one on which the rules differ."""

_UNPLAYABLE = (ArbiterError, IndexError, KeyError, ValueError, TypeError, ZeroDivisionError)
"""What the rules under faults may raise on a position they cannot play (they then show nothing there)."""


class NoCounterexample(ArbiterError):
    """No verified counterexample: ``reason`` says why (nothing differs at the start, no action a vector
    can show differs, or the record or the vector did not verify)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@frozen
class Counterexample:
    """A verified counterexample of ``faults``: the reference position (``notation``, its JSON ``state``)
    and the one ``action`` (``(seat, action JSON)``); ``kind`` what differs there — ``position`` (the
    position's facts), ``claim`` (the facts after the action), ``winners`` (the winners of the game it
    ends), ``accepted-illegal`` (the faulty rules accept an action the rules refuse) or ``refused-legal``
    (the other way) — and ``differs`` the facts that differ; ``divergence`` the divergence a campaign would
    find on the faulty rules there (its ``origin`` this position and action), ``record`` its record,
    ``vector`` the test vector; ``size`` and ``start_size`` the ``(seats, cards in play)`` of the position
    and of the start; ``tries`` the candidate positions tried and ``seconds`` the CPU time taken."""

    game: str
    faults: tuple[Fault, ...]
    notation: str
    state: Mapping[str, Any]
    action: tuple[int, Any]
    kind: str
    differs: tuple[str, ...]
    divergence: Divergence
    record: Record
    vector: dict[str, Any]
    size: tuple[int, int]
    start_size: tuple[int, int]
    tries: int
    seconds: float

    @property
    def origin(self) -> Origin:
        """The position and the action, as a divergence carries them."""
        return Origin(self.notation, self.state, self.action)


@frozen
class Difference:
    """What differs at one position and action: the ``kind`` (as :class:`Counterexample` names it), the
    facts that differ, and the facts of the reference (``ours``) and of the faulty rules (``theirs``) there:
    before the action for ``position``, after it otherwise (``None``: the side refuses it)."""

    kind: str
    differs: tuple[str, ...]
    ours: Mapping[str, Any] | None
    theirs: Mapping[str, Any] | None


class Oracle:
    """Whether the reference and the rules of ``world`` (a game ``name`` under faults) differ on a position
    and an action, in what a vector shows."""

    def __init__(self, name: str, world: World) -> None:
        self.name = name
        self.world = world
        self.game: Game = get_game(name)
        self.kit: Any = get_kit(name)
        self.keys = {k: None for k in (*self.kit.fact_names, "winners")}

    def difference(self, state: Any, action: Any) -> Difference | None:
        """What a vector of ``state`` and ``action`` shows differ, ``None`` for nothing (or for a position the
        faulty rules cannot play: they show nothing there)."""
        try:
            theirs_before = self.kit.facts(self.world.adopt(state))
        except _UNPLAYABLE:
            return None
        ours_before = self.kit.facts(state)
        given = tuple(k for k in self.kit.fact_names if ours_before.get(k) != theirs_before.get(k))
        seen = Seen("after", state, action, shown=self.keys)
        ours, theirs = predict(None, self.name, seen), predict(self.world, self.name, seen)
        if theirs is None:
            return None
        if given:
            return Difference("position", given, ours_before, theirs_before)
        if (ours == REFUSED) != (theirs == REFUSED):
            kind = "accepted-illegal" if ours == REFUSED else "refused-legal"
            return Difference(kind, (), None if ours == REFUSED else ours,
                               None if theirs == REFUSED else theirs)
        if ours == REFUSED:
            return None
        differs = tuple(k for k in self.keys if ours.get(k) != theirs.get(k))
        if not differs:
            return None
        kind = "winners" if differs == ("winners",) else "claim"
        return Difference(kind, tuple(k for k in differs if k != "winners") or differs, ours, theirs)


def start_of(div: Divergence) -> Seen | None:
    """Where a campaign's divergence starts a counterexample: its origin's position and action (with
    positions), else the position its game reached and the action it diverged on (the record up to it);
    the kind of difference its kind is (a legal set, the acceptance of the action, the facts after it).
    ``None`` when the game cannot be replayed to it on the reference."""
    game = get_game(div.setup.game)
    origin = div.origin
    try:
        if origin is not None:
            state = game.state_from_json(dict(origin.state))
            step = origin.action
        else:
            state, step = _replayed(game, div)
        action = game.action_from_json(step[1]) if step is not None else None
    except (ArbiterError, ValueError, KeyError, TypeError, IndexError):
        return None
    if div.kind in ("legal-extra", "legal-missing"):
        seat = step[0] if step is not None else (div.peer_legal or (None,))[0]
        return Seen("legal", state, action, seat)
    if div.kind in ("refused-legal", "accepted-illegal"):
        return Seen("apply", state, action)
    return Seen("after", state, action)


def _replayed(game: Game, div: Divergence) -> tuple[Any, tuple[int, Any] | None]:
    """The reference position a divergence without an origin shows from, and its action: the game replayed
    up to the action it diverged on (the trigger; else the last action, whose facts differ)."""
    s = div.setup
    if div.start is not None:
        state = game.from_notation(div.start)
    else:
        kit: Any = get_kit(s.game)
        state = game.new_game(s.players, variant=s.variant, options=dict(s.options),
                              setup=kit.setup_from_json(s.setup))
    steps = list(div.actions)
    step = div.trigger
    if step is None and steps:
        step = steps.pop()
    for _seat, value in steps:
        state = game.apply(state, game.action_from_json(value))
    return state, step


def _first(oracle: Oracle, start: Seen) -> tuple[Any, Any, Difference]:
    """The start position and the first action on which the rules differ: ``start``'s action, then the
    actions one side's legal set has and the other's lacks, then every legal action of the seats to act."""
    game, kit = oracle.game, oracle.kit
    state = start.state
    if start.kind == "start":
        state = game.new_game(**dict(start.action or {}))
    actions: list[Any] = [start.action] if start.kind != "start" and start.action is not None else []
    seats = [start.seat] if start.seat is not None else list(game.to_act(state))
    try:
        theirs_state = oracle.world.adopt(state)
    except _UNPLAYABLE:
        raise NoCounterexample("the faulty rules cannot play the start position") from None
    legal_differ = False
    for seat in seats:
        ours = {canonical(game.action_to_json(a)): a for a in game.legal_actions(state, seat)}
        try:
            theirs = {canonical(game.action_to_json(a)): a
                      for a in oracle.world.game.legal_actions(theirs_state, seat)}
        except _UNPLAYABLE:
            theirs = {}
        differing = sorted(set(ours) ^ set(theirs))
        legal_differ = legal_differ or bool(differing)
        actions += [ours.get(t, theirs.get(t)) for t in differing]
    for seat in seats:
        actions += list(game.legal_actions(state, seat))
    for action in actions[:MAX_ACTIONS]:
        if kit.action_player(action) is None:
            continue  # a chance step: no seat to write it for
        found = oracle.difference(state, action)
        if found is not None:
            return state, action, found
    if legal_differ:
        raise NoCounterexample("the legal sets differ but no action does otherwise: a vector cannot show it")
    raise NoCounterexample("the faulty rules do as the rules do at the start position")


def counterexample(
    game: str, faults: Sequence[Fault], start: Seen, *, max_tries: int = MAX_TRIES,
    seconds: float | None = None,
) -> Counterexample:
    """The smallest position (fewest seats, then fewest cards in play) found greedily from ``start`` on which
    the rules of ``game`` under ``faults`` and the true rules differ, with one action, verified both ways
    (see the module docstring).  ``start``: a :class:`Seen` of kind ``after`` or ``apply`` (a position and an
    action), ``legal`` (a position and a seat: an action one legal set has and the other lacks) or
    ``start`` (``new_game``'s keyword arguments); at most ``max_tries`` candidates and ``seconds`` of CPU
    time.  Raises :class:`NoCounterexample` saying why there is none (InputError for faults that cannot
    be applied)."""
    began = time.process_time()
    world = World(game, faults)
    oracle = Oracle(game, world)
    g = oracle.game
    state, action, found = _first(oracle, start)
    seat = oracle.kit.action_player(action)
    best = Origin(g.to_notation(state), g.state_to_json(state), (seat, g.action_to_json(action)))
    start_size = size = position_size(game, best.state)
    visited = {best.notation}
    tries = 0
    improved = True
    while improved and tries < max_tries:
        improved = False
        for candidate in smaller_origins(g, best):
            if tries >= max_tries or (seconds is not None and time.process_time() - began > seconds):
                break
            if candidate.notation in visited or candidate.action is None:
                continue
            visited.add(candidate.notation)
            smaller = position_size(game, candidate.state)
            if smaller > size:
                continue
            tries += 1
            action = g.action_from_json(candidate.action[1])
            there = oracle.difference(g.from_notation(candidate.notation), action)
            if there is not None:
                best, size, found, improved = candidate, smaller, there, True
                break
    assert best.action is not None
    div = _divergence(oracle, best, found)
    record = div.to_record()
    vector = _vector(oracle, best, div)
    _verify(oracle, record, vector)
    return Counterexample(game, world.faults, best.notation, best.state, best.action, found.kind,
                          found.differs, div, record, vector, size, start_size, tries,
                          time.process_time() - began)


def _clauses(faults: Sequence[Fault]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f.clause for f in faults if f.clause))


def _divergence(oracle: Oracle, at: Origin, found: Difference) -> Divergence:
    """The divergence a campaign would find on the faulty rules at ``at`` (its record claims what they
    show)."""
    g, world = oracle.game, oracle.world
    json_state = at.state
    setup = GameSetup(oracle.name, str(json_state["variant"]), int(json_state["players"]), None,
                      dict(json_state.get("options") or {}))
    assert at.action is not None
    seat, value = at.action
    state = g.from_notation(at.notation)
    try:
        text = g.action_to_text(state, g.action_from_json(value))
    except ArbiterError:  # pragma: no cover - every action of a position has its text
        text = canonical(value)
    clauses = _clauses(world.faults)
    peer = f"the rules under {', '.join(f.signature for f in world.faults)}"
    common: dict[str, Any] = {"clauses": clauses, "peer_name": peer, "origin": at, "start": at.notation}
    if found.kind in ("position", "claim"):
        theirs = dict(found.theirs or {})
        theirs.pop("winners", None)
        claims = {**{k: theirs.get(k) for k in found.differs}, **theirs}
        fact = found.differs[0]
        ours = (found.ours or {}).get(fact)
        where = "at the position" if found.kind == "position" else f"after {text}"
        message = f"{where} {peer} make {fact} = {_short(theirs.get(fact))}; the rules say {_short(ours)}"
        actions = () if found.kind == "position" else ((seat, value),)
        return Divergence("claim", message, setup, actions, peer_claims=claims, **common)
    if found.kind == "winners":
        theirs = dict(found.theirs or {})
        message = (f"after {text} {peer} make the winners {theirs.get('winners')}; the rules say "
                   f"{(found.ours or {}).get('winners')}")
        result = (tuple(theirs.get("scores") or ()), tuple(theirs.get("winners") or ()))
        return Divergence("winners", message, setup, ((seat, value),), peer_result=result, **common)
    if found.kind == "accepted-illegal":
        why = _refusal(g, state, value)
        message = f"{peer} accept {text}, which the rules refuse ({why})"
        return Divergence("accepted-illegal", message, setup, (), trigger=(seat, value), **common)
    why = _refusal(world.game, world.adopt(state), value)
    try:
        offered = world.game.legal_actions(world.adopt(state), seat)
    except _UNPLAYABLE:
        offered = ()
    legal = tuple(v for v in (g.action_to_json(a) for a in offered) if canonical(v) != canonical(value))
    message = f"{peer} refuse {text} ({why}), which the rules accept"
    return Divergence("refused-legal", message, setup, (), trigger=(seat, value), peer_legal=(seat, legal),
                      **common)


def _refusal(game: Game, state: Any, value: Any) -> str:
    try:
        game.apply(state, game.action_from_json(value))
    except RuleViolation as exc:
        return str(exc)
    except _UNPLAYABLE as exc:
        return f"cannot play it: {exc}"
    return "accepted"  # pragma: no cover - called on a refused action only


def _short(value: Any, limit: int = 80) -> str:
    text = canonical(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _vector(oracle: Oracle, at: Origin, div: Divergence) -> dict[str, Any]:
    clauses = div.clauses or ("-",)
    described = "; ".join(f.describe() for f in oracle.world.faults)
    case = position_case(oracle.name, at.notation, at.action, clauses=clauses,
                         description=f"{described}: {div.message}"[:300],
                         case_id=f"{oracle.name}/{clauses[0]}/counterexample/1")
    return case.to_json()


def _verify(oracle: Oracle, record: Record, vector: dict[str, Any]) -> None:
    """The vector is valid, the reference passes it and the faulty rules fail it; ``arbiter check`` reports a
    divergence on the record.  Raises NoCounterexample naming the first that does not hold."""
    problem = vector_problem(vector)
    if problem is not None:
        raise NoCounterexample(f"the vector is not valid: {problem[0]}: {problem[1]}")
    ours = run_case(vector)
    if not ours.passed:
        raise NoCounterexample(f"the reference fails the vector: {ours.message}")
    try:
        theirs = run_case(vector, under=oracle.world)
    except _UNPLAYABLE:
        theirs = None  # the faulty rules cannot even run it: they fail it
    if theirs is not None and theirs.passed:
        raise NoCounterexample("the faulty rules pass the vector")
    text = io.StringIO()
    write_record(text, record)
    checked = check_record(io.StringIO(text.getvalue()), name="counterexample.jsonl")
    if checked.status != "divergence":
        raise NoCounterexample(f"arbiter check finds no divergence on the record ({checked.status}"
                               f"{': ' + checked.error if checked.error else ''})")
