"""Counterexamples from one position: replay a divergence on a peer with the ``position`` capability, shrink
the position by removing cards and seats while the class holds, and export it as a test vector.

A peer declaring ``position`` in its ``hello`` is put back on the reference's position after every
divergence (:func:`~engine.conformance.campaign.duel.play_game` with ``found``), so each divergence
carries its :class:`~engine.conformance.campaign.divergence.Origin`: the reference position it shows from
and the one action.
:func:`shrink_origin` then tries smaller positions — a seat fewer, a card fewer in a hand, a row, a stack, a
pile, half of a list at once — each built and validated by the game's position builder (the JSON state read
through ``state_from_json``, then written and read again as a notation line, so the vector's position is
exactly the one tried), and keeps every one on which the peer still shows a divergence of the same
signature.  :func:`origin_vector` writes the result in the format of ``arbiter vectors``: a ``position``,
no prelude, the one action and the reference's facts (or its refusal).

>>> from engine.conformance.peers.launch import in_process
>>> from engine.conformance.peers.take6_fewest_heads import FewestHeadsPeer
>>> from engine.conformance.campaign.divergence import Origin
>>> from engine.conformance.campaign.setups.base import GameSetup
>>> from engine.game import get_game
>>> g = get_game("take6")
>>> s = g.from_notation("standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0")
>>> origin = Origin(g.to_notation(s), g.state_to_json(s), (0, {"type": "select", "player": 0, "card": 5}))
>>> replay_origin(in_process(FewestHeadsPeer)(), GameSetup("take6", "standard", 2, None), origin) is None
True
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

from attrs import evolve

from engine.conformance.campaign.divergence import Divergence, DivergenceFound, Origin
from engine.conformance.campaign.duel import Duel
from engine.conformance.campaign.setups.base import GameSetup, SetupMaker
from engine.conformance.campaign.setups.generated import setup_maker
from engine.conformance.kits.base import get_kit
from engine.conformance.peers.launch import PeerFactory
from engine.conformance.peers.protocol import Hello, PeerFailure, Transport, hello_request
from engine.conformance.vectors.suite import Case, Kind, run_case, vector_problem
from engine.errors import InputError, RuleViolation
from engine.game import Game, get_game

__all__ = ["origin_size", "origin_vector", "replay_origin", "shrink_origin"]

MAX_TRIES = 2000
"""The most candidate positions one shrink tries (the time box usually ends it first)."""


def replay_origin(
    transport: Transport, setup: GameSetup, origin: Origin, peer_name: str = "", kind: str = "legal-",
    *, trials: bool = True
) -> Divergence | None:
    """Put the peer on ``origin``'s position, compare it (for a ``kind`` the position itself shows: a legal
    set, or no action), apply the action, compare again; the divergence seen, or ``None``.  ``setup`` gives
    the game (its set-up is not used); ``trials``: whether attribution may show the peer discriminating
    positions (:func:`~engine.conformance.attribution.attribute`)."""
    game = get_game(setup.game)
    state = game.state_from_json(dict(origin.state))
    at = evolve(
        setup,
        players=int(origin.state["players"]),
        variant=str(origin.state["variant"]),
        options=dict(origin.state.get("options") or {}),
    )
    g = Duel(at, transport, peer_name, state=state)
    g.positions, g.trials = True, trials
    try:
        hello = g.ask(hello_request())
        if not isinstance(hello, Hello) or "position" not in hello.capabilities:
            return None
        g.resync()
        compare_first = kind.startswith("legal-") or origin.action is None
        if (compare_first and g.compare()) or origin.action is None:
            return None
        seat, value = origin.action
        g.apply_given(seat, value)
        g.compare()
    except DivergenceFound as exc:
        return exc.divergence
    return None


def origin_size(game: str, origin: Origin) -> tuple[int, int]:
    """What shrinking makes smaller: ``(seats, cards)`` — the cards in play, every element of every list of
    the position's JSON state but the game's spare list (the stock, the discard pile)."""
    spare = setup_maker(game).spare
    return int(origin.state["players"]), _elements({k: v for k, v in origin.state.items() if k != spare})


def _elements(value: Any) -> int:
    if isinstance(value, list):
        return sum(_elements(v) if isinstance(v, list | dict) else 1 for v in value)
    if isinstance(value, dict):
        return sum(_elements(v) for v in value.values())
    return 0


def shrink_origin(factory: PeerFactory, first: Divergence, seconds: float) -> Divergence:
    """The divergence of ``first``'s signature on the smallest position found within ``seconds`` (wall
    clock): greedy, every candidate a seat or cards fewer, kept when the peer still shows the class with
    no discriminating position needed (so the counterexample's record names the class in ``arbiter check``
    too, which has no peer to show one).
    ``first`` itself when it has no origin or nothing smaller holds."""
    if first.origin is None:
        return first
    deadline = time.monotonic() + seconds
    game = get_game(first.setup.game)
    best = first
    transport = factory()
    tries = 0
    try:
        again = replay_origin(transport, first.setup, first.origin, first.peer_name, first.kind)
        if again is None or again.signature != first.signature:
            return first  # the peer does not show it again from the position alone (state it kept)
        best = evolve(again, origin=first.origin)
        improved = True
        while improved and time.monotonic() < deadline and tries < MAX_TRIES:
            improved = False
            assert best.origin is not None
            for candidate in _candidates(game, best.origin):
                if time.monotonic() >= deadline or tries >= MAX_TRIES:
                    break
                tries += 1
                try:  # without trials: a smaller position keeps the class alone, as `arbiter check` sees it
                    div = replay_origin(transport, first.setup, candidate, first.peer_name, first.kind,
                                        trials=False)
                except PeerFailure:
                    div = None
                if div is not None and div.kind in ("crash", "timeout", "garbage"):
                    transport.close()
                    transport = factory()
                    continue
                if div is not None and div.signature == first.signature and div.origin is not None:
                    best = evolve(div, origin=candidate)
                    improved = True
                    break
    finally:
        transport.close()
    return best


def _candidates(game: Game, origin: Origin) -> Iterator[Origin]:
    """Smaller positions than ``origin``'s, each valid (built through the game's position builder and its
    notation), the action kept (its seat renumbered when a seat before it goes)."""
    seen: set[str] = {origin.notation}
    shrinker = _Shrinker(setup_maker(game.name), origin.state)
    for state, action in shrinker.smaller(origin.action):
        try:
            built = game.state_from_json(state)
            notation = game.to_notation(built)
            again = game.from_notation(notation)
            if action is not None:
                game.action_from_json(action[1])
        except (InputError, RuleViolation, ValueError, KeyError, TypeError, IndexError):
            continue
        if notation in seen:
            continue
        seen.add(notation)
        yield Origin(notation, game.state_to_json(again), action)


class _Shrinker:
    """Raw smaller JSON states (unvalidated) of one position, following the game's hints (``SetupMaker``)."""

    def __init__(self, maker: SetupMaker, state: Mapping[str, Any]) -> None:
        self.maker = maker
        self.state = dict(state)
        self.players = int(state["players"])

    def smaller(self, action: tuple[int, Any] | None) -> Iterator[tuple[dict[str, Any], Any]]:
        """A seat fewer; then a card fewer in every hand at once; then halves of lists; then single cards."""
        seat = action[0] if action is not None else None
        for key, value in self.state.items():
            if (isinstance(value, list) and value and not self.is_per_seat_lists(value)
                    and all(isinstance(v, dict) for v in value)):
                yield {**self.state, key: []}, action  # e.g. the later rounds' deals
        for p in reversed(range(self.players)):
            if p != seat:
                yield self.without_seat(p), _renumbered(action, p)
        per_seat = [(k, v) for k, v in self.state.items() if self.is_per_seat_lists(v)]
        for key, lists in per_seat:
            for i in range(max((len(x) for x in lists), default=0)):
                gone = [x[i] for x in lists if i < len(x)]
                new = [x[:i] + x[i + 1 :] for x in lists]
                yield self.spared(_replaced(self.state, (key,), new), gone), action
        for path, items in _lists(self.state):
            if path[:1] == (self.maker.spare,):
                continue
            if len(items) >= 4:
                half = len(items) // 2
                yield self.spared(_replaced(self.state, path, items[:half]), items[half:]), action
                yield self.spared(_replaced(self.state, path, items[half:]), items[:half]), action
        for path, items in _lists(self.state):
            if path[:1] == (self.maker.spare,):
                continue
            for i in range(len(items)):
                yield self.spared(_replaced(self.state, path, items[:i] + items[i + 1 :]), [items[i]]), action

    def is_per_seat_lists(self, value: Any) -> bool:
        return (isinstance(value, list) and len(value) == self.players
                and all(isinstance(x, list) for x in value) and any(value))

    def spared(self, state: dict[str, Any], cards: list[Any]) -> dict[str, Any]:
        """``state`` with ``cards`` moved to the spare list (where the game keeps the cards out of play)."""
        spare = self.maker.spare
        cards = [c for c in cards if c is not None and not isinstance(c, list | dict)]
        if spare is None or not cards or not isinstance(state.get(spare), list):
            return state
        out = dict(state)
        pool = [*state[spare], *cards]
        out[spare] = sorted(pool) if all(isinstance(c, int) for c in pool) else pool
        return out

    def without_seat(self, seat: int) -> dict[str, Any]:
        """The state without seat ``seat``: every list of one entry per seat loses that entry (its cards go
        to the spare list), and the seat fields are renumbered."""
        players = self.players
        gone: list[Any] = []

        def drop(value: Any, key: str) -> Any:
            if isinstance(value, list) and len(value) == players:
                entry = value[seat]
                if isinstance(entry, list):
                    gone.extend(_plain(entry))
                elif key in self.maker.seat_cards:
                    gone.append(entry)
                return [v for i, v in enumerate(value) if i != seat]
            return value

        def renumber(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: renumber(v) for k, v in value.items()}
            if isinstance(value, int) and not isinstance(value, bool):
                return value - 1 if value > seat else (0 if value == seat else value)
            return value

        out = {k: drop(v, k) for k, v in self.state.items()}
        for key in self.maker.seat_pairs:
            pairs = out.get(key)
            if isinstance(pairs, list):
                gone.extend(card for card, owner in pairs if owner == seat)
                out[key] = [[card, owner - (owner > seat)] for card, owner in pairs if owner != seat]
        for key in self.maker.seat_fields:
            if key in out:
                out[key] = renumber(out[key])
        out["players"] = players - 1
        return self.spared(out, gone)


def _plain(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [x for v in value for x in _plain(v)]
    return [value]


def _lists(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], list[Any]]]:
    """Every list of plain values (cards, seats) in the JSON state, with its path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _lists(item, (*path, key))
    elif isinstance(value, list):
        if value and all(not isinstance(v, list | dict) for v in value):
            yield path, value
        else:
            for i, item in enumerate(value):
                yield from _lists(item, (*path, i))


def _replaced(state: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(state, dict):
        return {k: (_replaced(v, rest, new) if k == head else v) for k, v in state.items()}
    return [(_replaced(v, rest, new) if i == head else v) for i, v in enumerate(state)]


def _renumbered(action: tuple[int, Any] | None, gone: int) -> tuple[int, Any] | None:
    if action is None or action[0] < gone:
        return action
    seat, value = action
    moved = dict(value) if isinstance(value, dict) else value
    if isinstance(moved, dict) and moved.get("player") == seat:
        moved["player"] = seat - 1
    return seat - 1, moved


def origin_vector(div: Divergence, number: int = 1) -> dict[str, Any] | None:
    """The counterexample of ``div`` (its origin) as one test vector (``vector.schema.json``), checked on the
    reference; ``None`` without an origin or a deciding clause.  A class named by a candidate set
    (``SP-COST-3|SP-COST-4``) gives a vector citing every clause of the set."""
    origin = div.origin
    if origin is None or not div.clauses:
        return None
    game = get_game(div.setup.game)
    kit = get_kit(div.setup.game)
    state = game.from_notation(origin.notation)
    given = kit.facts(state)
    json_state = game.state_to_json(state)
    setup = {
        "variant": json_state["variant"],
        "players": json_state["players"],
        "options": dict(json_state.get("options", {})),
        "setup": None,
        "position": origin.notation,
    }
    actions: tuple[dict[str, Any], ...] = ()
    expect: dict[str, Any] = {"facts": given}
    kind: Kind = "accept"
    if origin.action is not None:
        seat, value = origin.action
        actions = ({"player": seat, "action": value},)
        try:
            after = game.apply(state, game.action_from_json(value))
        except RuleViolation as exc:
            kind = "reject"
            expect = {"reject": {"index": 0, "clause": exc.clause}, "facts": given}
        else:
            expect = {"facts": kit.facts(after)}
            if game.is_terminal(after):
                expect["result"] = {"winners": sorted(game.result(after).winners)}
    candidates = tuple(div.clauses[0].split("|"))  # a candidate set names each clause that explains it
    case = Case(
        f"{div.setup.game}/{candidates[0]}/counterexample/{number}",
        div.setup.game,
        candidates,
        kind,
        f"{div.signature}: {div.message}"[:300],
        "generated",
        setup,
        (),
        actions,
        expect,
        given,
    )
    data = case.to_json()
    if vector_problem(data) is not None or not run_case(data).passed:
        return None
    return data
