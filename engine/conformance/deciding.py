"""The clauses a divergence names: the deciding one first, then the context — one function for fuzz and check.

A divergence on a claimed fact after a step names first the clause whose outcome differs (each kit's
``deciding``: the placement rule of a card waiting for a row choice, the cost reduction or minimum whose
amount explains a money difference, the end rule of the variant for winners ...), then the clauses the step
exercised that govern that fact (the kit's ``step_clauses`` narrowed to the fact's topics).  Only clauses of
the game that apply to the variant are named.  ``arbiter fuzz`` and ``arbiter check`` both call
:func:`fact_clauses`, so the same divergence names the same clauses in both.

>>> from engine.game import get_game
>>> from engine.conformance.kits import get_kit
>>> fact_clauses(get_game("take6"), get_kit("take6"), "winners", None, "kids")
('T6-KIDS-4', 'T6-END-3')
"""

from __future__ import annotations

from typing import Any

from engine.conformance.kits import GameKit
from engine.game import Game

__all__ = ["action_clauses", "fact_clauses"]


def _applies(game: Game, variant: str) -> Any:
    book = game.clauses
    return lambda c: c in book and (not book[c].variants or variant in book[c].variants)


def fact_clauses(
    game: Game,
    kit: GameKit,
    fact: str,
    step: tuple[Any, Any, Any] | None,
    variant: str,
    *,
    claimed: Any = None,
) -> tuple[str, ...]:
    """The clauses behind a divergent claim of ``fact`` after ``step`` (``(before, action, after)``, or
    ``None`` for the start position and the final result): the deciding ones first, then context."""
    ok = _applies(game, variant)
    try:
        first = tuple(kit.deciding(game, fact, step, variant, claimed))
    except Exception:  # naming clauses is advisory: never let it hide the divergence itself
        first = ()
    general = tuple(c for c in kit.fact_clauses(fact) if ok(c))
    context: tuple[str, ...] = ()
    if step is not None:
        try:
            tags = kit.step_clauses(game, *step)
        except Exception:  # same as above
            tags = ()
        context = tuple(c for c in tags if c in general)
    if not first and not context:
        context = general
    return tuple(dict.fromkeys(c for c in (*first, *context) if ok(c)))


def action_clauses(
    game: Game, kit: GameKit, action: Any, variant: str, *, violated: str | None = None
) -> tuple[str, ...]:
    """The clauses behind a divergence on one action: the clause it breaks (``violated``, for an action
    the rules refuse), else the clause that makes an action of its kind legal."""
    ok = _applies(game, variant)
    if violated is not None:
        return (violated,)
    clause = kit.legal_clause(action)
    return (clause,) if ok(clause) else ()
