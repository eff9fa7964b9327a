"""The differences one comparison of a campaign finds, and the one a divergence is named after.

A :class:`~engine.conformance.campaign.duel.Duel` compares the peer with the reference after each step and
collects every difference (:class:`Pending`: a fact, who acts, the scores, a legal action, each with the
clauses attribution names); the divergence it raises is named after :func:`leading` and records the
others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from engine.conformance.attribution import Attribution
from engine.conformance.diagnosis.evidence import Seen
from engine.derivation import Step

__all__ = ["Pending", "leading", "named_clauses"]


@frozen
class Pending:
    """A difference found while comparing, before the divergence is built."""

    kind: str
    about: str
    message: str
    clauses: tuple[str, ...] | Attribution
    claims: Mapping[str, Any] | None = None
    trigger: tuple[int, Any] | None = None
    result: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    legal: tuple[int, tuple[Any, ...]] | None = None
    seen: tuple[Seen, ...] = ()
    """What the peer showed there (the evidence the diagnosis explains)."""


_CONSEQUENCE = {"scores": 0, "claim": 1, "to_act": 2, "terminal": 3, "winners": 4}
"""How far down the chain of consequences a difference is (the lowest explains the others)."""


def leading(found: Sequence[Pending], order: Sequence[Step] = ()) -> Pending:
    """The difference a divergence is named after: the one whose deciding steps come first in the step's
    derivation (``order``: a card placed in another row comes before the 6th card that row then takes, so
    a score that follows from it is named by the placement; a difference traced to no step, named by its
    fact's topic alone, comes after every traced one: scores a phase ended early would have scored follow
    from the phase's end, not from the pass that did not end it); of the differences the same deciding steps
    explain, the very fact those steps conclude (a row choice not awaited concludes who must act: the
    peer's game ending there, or its scores, are consequences of that one step, not differences of their
    own), else the one first in the chain of consequences (a row taken early changes the scores, which end
    the game)."""
    traced = [p for p in found if isinstance(p.clauses, Attribution) and p.clauses.steps]
    if not traced:
        return found[0]
    first = traced[0]  # a difference traced to the steps it contradicts before one named by its topic
    steps = first.clauses.steps if isinstance(first.clauses, Attribution) else ()
    if order:
        def rank(p: Pending) -> int:
            mine = p.clauses.steps if isinstance(p.clauses, Attribution) else ()
            return min((i for i, s in enumerate(order) if s in mine), default=len(order))

        first = min(traced, key=rank)  # the first of equals: the order found
        steps = first.clauses.steps if isinstance(first.clauses, Attribution) else ()
    same = [p for p in found if isinstance(p.clauses, Attribution) and p.clauses.steps == steps]
    for p in same:
        if p.about in steps[0].data:
            return p
    # else the score, a claim, who acts, then the result: whether the game is over and who won follow
    # from the scores, who acts from whether it is over
    return min(same, key=lambda p: _CONSEQUENCE.get(p.kind, 1), default=first)


def named_clauses(clauses: Sequence[str] | Attribution) -> tuple[str, ...]:
    """The clauses a difference names (an attribution's, or the plain tuple)."""
    return clauses.clauses if isinstance(clauses, Attribution) else tuple(clauses)
