"""Counterexamples from one position: replay a divergence on a peer with the ``position`` capability, shrink
the position by removing cards and seats while the class holds, and export it as a test vector.

A peer declaring ``position`` in its ``hello`` is put back on the reference's position after every
divergence (:func:`~engine.conformance.campaign.duel.play_game` with ``found``), so each divergence
carries its :class:`~engine.conformance.campaign.divergence.Origin`: the reference position it shows from
and the one action.
:func:`shrink_origin` then tries smaller positions
(:func:`~engine.conformance.campaign.smaller.smaller_origins`: the later rounds' deals left out with their
seed, a seat fewer, a card fewer in a hand, a row, a stack, a pile, half of a list at once, every one valid
and keeping what the action needs) and keeps every one on which the peer still shows a divergence of the
same signature.  :func:`origin_vector` writes the result in the format of ``arbiter vectors``
(:func:`~engine.conformance.vectors.suite.position_case`): a ``position``, no prelude, the one action and
the reference's facts (or its refusal).

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
from typing import Any

from attrs import evolve

from engine.conformance.campaign.divergence import Divergence, DivergenceFound, Origin
from engine.conformance.campaign.duel import Duel
from engine.conformance.campaign.setups.base import GameSetup
from engine.conformance.campaign.smaller import position_size, smaller_origins
from engine.conformance.peers.launch import PeerFactory
from engine.conformance.peers.protocol import Hello, PeerFailure, Transport, hello_request
from engine.conformance.vectors.suite import position_case, run_case, vector_problem
from engine.game import get_game

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
    the position's JSON state but the game's spare list (the stock, the discard pile) and its later rounds'
    deals (:func:`~engine.conformance.campaign.smaller.position_size`)."""
    return position_size(game, origin.state)


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
            for candidate in smaller_origins(game, best.origin):
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


def origin_vector(div: Divergence, number: int = 1) -> dict[str, Any] | None:
    """The counterexample of ``div`` (its origin) as one test vector (``vector.schema.json``), checked on the
    reference; ``None`` without an origin or a deciding clause.  A class named by a candidate set
    (``SP-COST-3|SP-COST-4``) gives a vector citing every clause of the set."""
    origin = div.origin
    if origin is None or not div.clauses:
        return None
    candidates = tuple(div.clauses[0].split("|"))  # a candidate set names each clause that explains it
    case = position_case(
        div.setup.game,
        origin.notation,
        origin.action,
        clauses=candidates,
        description=f"{div.signature}: {div.message}"[:300],
        case_id=f"{div.setup.game}/{candidates[0]}/counterexample/{number}",
    )
    data = case.to_json()
    if vector_problem(data) is not None or not run_case(data).passed:
        return None
    return data
