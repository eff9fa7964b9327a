"""Attribution: the clauses a divergence names, the deciding one first — one mechanism for fuzz and check.

A divergence on a claimed fact after a step is attributed from the **reference derivation** of that step
(the kit's ``derive``: the engine's own steps, each a clause, its conclusion and the data it used).  The
deciding clause is the step whose conclusion the peer contradicts (the kit's ``contradicted`` reads the
peer's claimed facts against the reference's): the bullhead rule for a wrong score, the 6th-card rule for a
row taken too early, the low-card rule for a row choice the peer did not wait for.  Where several steps
explain the difference equally, the deciding entry is the **candidate set**, their clauses joined by
``|`` in sorted order (``T6-BULL-3|T6-BULL-5``).  The **subject** of the deciding steps (the card or effect
they name: ``55`` for the bullhead rule of card 55, ``x11`` for the multiples of 11) goes into the
divergence's signature.  The context follows: the derivation's other clauses that govern the fact.

A divergence on one action is attributed from the legality derivation (the kit's ``why``): a missing action
names the clause that grants it (a row choice in professional: T6-PRO-5), an extra one the clause that
refuses it.

A kit without derivations (``derive`` returns ``()``) is attributed by its ``deciding``, as before.  Only
clauses of the game that apply to the variant are named.  ``arbiter fuzz`` and ``arbiter check`` both call
:func:`attribute` / :func:`fact_clauses`, so the same divergence names the same clauses in both.

>>> from engine.game import get_game
>>> from engine.conformance.kits.base import get_kit
>>> fact_clauses(get_game("take6"), get_kit("take6"), "winners", None, "kids")
('T6-KIDS-4', 'T6-END-3')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from attrs import frozen

from engine.conformance.kits.base import GameKit, Trial
from engine.derivation import Step
from engine.game import Game

__all__ = [
    "Attribution", "action_clauses", "attribute", "fact_clauses", "granting", "refusing", "shared_grant",
]


@frozen
class Attribution:
    """The clauses a divergence names (the deciding entry first, possibly a ``|``-joined candidate set)
    and the subject of the deciding steps (``""`` for none), which the signature carries."""

    clauses: tuple[str, ...]
    subject: str = ""
    steps: tuple[Step, ...] = ()
    """The reference steps the peer contradicts (``()`` when the kit's ``deciding`` named the clause)."""


def _applies(game: Game, variant: str) -> Callable[[str], bool]:
    book = game.clauses

    def ok(clause: str) -> bool:
        return all(c in book and (not book[c].variants or variant in book[c].variants)
                   for c in clause.split("|"))

    return ok


def _deciding_steps(kit: GameKit, game: Game, fact: str, step: tuple[Any, Any, Any], *, claimed: Any,
                    claims: Mapping[str, Any] | None, trial: Callable[[Trial], Any] | None = None
                    ) -> tuple[tuple[Step, ...], tuple[Step, ...]]:
    """The reference derivation of ``step`` and the steps of it the peer contradicts; where the kit has
    rival explanations and ``trial`` can show the peer a position, the one its discriminating position
    confirms; where the step hides the cause (the kit's ``revealing``), the steps its probe shows."""
    derivation = tuple(kit.derive(game, step[0], step[1]))
    if not derivation:
        return (), ()
    theirs = {**(claims or {}), fact: claimed}
    ours = kit.facts(step[2])
    found = tuple(kit.contradicted(derivation, fact, ours, theirs))
    if trial is None:
        return derivation, found
    probe = kit.revealing(game, step[0], step[1], fact=fact, ours=ours, theirs=theirs)
    if probe is not None:
        shown = kit.revealed(game, probe, trial(probe))
        if shown:  # the peer's facts where the step's outcome shows name its cause
            return derivation, shown
    if found:
        rivals = kit.trials(game, step[0], step[1], fact=fact, ours=ours, theirs=theirs)
        confirmed = [t for t in rivals if trial(t) == t.expect]
        if len(confirmed) == 1:
            found = confirmed[0].steps
    return derivation, found


def attribute(
    game: Game,
    kit: GameKit,
    fact: str,
    step: tuple[Any, Any, Any] | None,
    variant: str,
    *,
    claimed: Any = None,
    claims: Mapping[str, Any] | None = None,
    trial: Callable[[Trial], Any] | None = None,
    start: Mapping[str, Any] | None = None,
) -> Attribution:
    """Attribute a divergent claim of ``fact`` (the peer's value ``claimed``; its other claims in the same
    position ``claims``) after ``step`` (``(before, action, after)``, or ``None`` for the start position
    and the final result): the deciding clause first, then context, and the deciding steps' subject.

    ``trial`` (a campaign whose peer takes positions) shows the peer a discriminating position of the kit
    (:class:`~engine.conformance.kits.base.Trial`) and returns its ``fact`` there: of rival explanations, the
    one whose prediction it meets decides (else the kit's simplest, as without positions).

    ``start`` (``new_game``'s keyword arguments, with ``step`` ``None``) says the position is a set-up's
    start: a fact differing there contradicts the outermost step of the set-up's derivation (the kit's
    ``derive_start``) that says that fact or holds it (the upper row's workers: SP-SETUP-4; 6 nimmt!'s
    rows: the round's deal, seeded T6-SETUP-4 or given T6-SETUP-5)."""
    ok = _applies(game, variant)
    derivation: tuple[Step, ...] = ()
    found: tuple[Step, ...] = ()
    first: tuple[str, ...] = ()
    if step is None and start is not None:
        try:
            held = (fact, kit.spells.get(fact, fact))  # the piles a deal holds are its hands in order
            saying = [s for root in kit.derive_start(game, start) for s in root.walk()
                      if s.says == fact or any(f in s.data for f in held)]
            found = tuple(saying[:1])  # the outermost: a deal holds its rows, laid by the step below it
        except Exception:  # naming clauses is advisory: never let it hide the divergence itself
            found = ()
    if step is not None:
        try:
            derivation, found = _deciding_steps(kit, game, fact, step, claimed=claimed, claims=claims,
                                                trial=trial)
        except Exception:  # naming clauses is advisory: never let it hide the divergence itself
            derivation, found = (), ()
    if found:
        names = sorted(dict.fromkeys(s.clause for s in found))
        first = ("|".join(names),)
    else:
        try:
            first = tuple(kit.deciding(game, fact, step, variant, claimed))
        except Exception:  # same as above
            first = ()
    subject = "|".join(sorted({str(s.data["subject"]) for s in found if "subject" in s.data}))
    general = tuple(c for c in kit.fact_clauses(fact) if ok(c))
    context: tuple[str, ...] = ()
    if step is not None:
        if derivation:
            tags: tuple[str, ...] = tuple(c for root in derivation for c in root.clauses())
        else:
            try:
                tags = kit.step_clauses(game, *step)
            except Exception:  # same as above
                tags = ()
        context = tuple(c for c in tags if c in general)
    if not first and not context:
        context = general
    return Attribution(tuple(dict.fromkeys(c for c in (*first, *context) if ok(c))), subject, found)


def fact_clauses(
    game: Game,
    kit: GameKit,
    fact: str,
    step: tuple[Any, Any, Any] | None,
    variant: str,
    *,
    claimed: Any = None,
    claims: Mapping[str, Any] | None = None,
) -> tuple[str, ...]:
    """The clauses of :func:`attribute`, deciding first."""
    return attribute(game, kit, fact, step, variant, claimed=claimed, claims=claims).clauses


def granting(game: Game, kit: GameKit, state: Any, action: Any) -> str:
    """The clause that grants ``action`` in ``state``: the root of the kit's legality derivation when it is
    legal there, else the clause that makes an action of its kind legal (``legal_clause``).  Where the
    kit finds a step of the grant at its bound (``denied``: a purchase priced at exactly the seat's money,
    SP-BUY-2), that step's clause: what a peer denying the action contradicts, whatever the action's kind;
    where the grant is a rule of its own (a wildcard's, SP-TRADE-4), a candidate set of both, which
    another denial of the campaign discriminates.

    >>> from engine.game import get_game
    >>> from engine.conformance.kits.base import get_kit
    >>> from engine.take6 import Select
    >>> g = get_game("take6")
    >>> s = g.new_game(2, seed=1)
    >>> granting(g, get_kit("take6"), s, Select(0, s.hands[0][0]))
    'T6-SELECT-1'
    """
    try:
        why = kit.why(game, state, action) if state is not None else None
    except Exception:  # advisory, as above
        why = None
    if why is not None and why.says == "legal":
        denied = getattr(kit, "denied", None)
        edge = tuple(denied(why)) if denied is not None else ()
        if not edge:
            return why.clause
        own = () if why.clause == kit.legal_clause(action) else (why.clause,)
        return "|".join(sorted({*(s.clause for s in edge), *own}))
    return kit.legal_clause(action)


def action_clauses(
    game: Game, kit: GameKit, action: Any, variant: str, *, violated: str | None = None, state: Any = None
) -> tuple[str, ...]:
    """The clauses behind a divergence on one action: the clause it breaks (``violated``, for an action
    the rules refuse), else the clause that grants it in ``state`` (:func:`granting`)."""
    ok = _applies(game, variant)
    if violated is not None:
        return (violated,)
    clause = granting(game, kit, state, action)
    return (clause,) if ok(clause) else ()


def shared_grant(game: Game, kit: GameKit, state: Any, actions: Sequence[Any]) -> Attribution | None:
    """The condition ``actions`` (legal in ``state``, of different kinds, all refused by the peer) rest on
    alike: the last of the steps their grant derivations open with in common (the clause and what it
    says, in order) — that the seat may act now (SP-TURN-2), not any one kind's own rule;
    ``None`` when they open with no common step or the kit has no derivation.

    >>> from engine.game import get_game
    >>> from engine.conformance.kits.base import get_kit
    >>> from engine.petersburg import Pass, position
    >>> g = get_game("petersburg")
    >>> s = position(players=2, upper=["Lumberjack"])
    >>> shared_grant(g, get_kit("petersburg"), s, [Pass(0), *g.legal_actions(s, 0)[1:2]]).clauses
    ('SP-TURN-2',)
    """
    opened: list[tuple[Step, ...]] = []
    for action in actions:
        try:
            why = kit.why(game, state, action)
        except Exception:  # advisory, as above
            return None
        if why is None or why.says != "legal":
            return None
        opened.append(why.steps)
    common = 0
    for column in zip(*opened, strict=False):
        if any((x.clause, x.says) != (column[0].clause, column[0].says) for x in column):
            break
        common += 1
    if not opened or not common:
        return None
    step = opened[0][common - 1]
    return Attribution((step.clause,), "", (step,))


def refusing(game: Game, kit: GameKit, state: Any, action: Any, violated: str, *, out_of_turn: bool = False
             ) -> Attribution:
    """The clauses behind an action the rules refuse (``violated``) that the peer offers or accepts: the
    steps of the kit's refusal derivation the peer's acceptance contradicts (the kit's ``refuted``: a
    buy too dear only because of the minimum names the minimum, one the peer prices lower the card's
    price), a candidate set when several, then ``violated``; without such steps ``violated`` alone.  A
    refusal ``out_of_turn`` (its seat may not act now: ``NotYourTurn``) under another rule than the turn's
    (a second selection, T6-SELECT-2) has the turn's step (the kit's ``turn_clause``) last, as context:
    the grant it fails is that step.

    >>> from engine.game import get_game
    >>> from engine.conformance.kits.base import get_kit
    >>> from engine.take6 import Select
    >>> g = get_game("take6")
    >>> refusing(g, get_kit("take6"), g.new_game(2, seed=1), Select(1, 0), "T6-SELECT-1").clauses
    ('T6-SELECT-1',)
    """
    refuted = getattr(kit, "refuted", None)
    found: tuple[Step, ...] = ()
    if refuted is not None and state is not None:
        try:
            why = kit.why(game, state, action)
            if why is not None and why.says == "refused":
                found = tuple(refuted(why))
        except Exception:  # advisory, as above
            found = ()
    turn = (kit.turn_clause,) if out_of_turn else ()
    if not found:
        return Attribution(tuple(dict.fromkeys((violated, *turn))))
    first = "|".join(sorted(dict.fromkeys(s.clause for s in found)))
    subject = "|".join(sorted({str(s.data["subject"]) for s in found if "subject" in s.data}))
    return Attribution(tuple(dict.fromkeys((first, violated, *turn))), subject, found)
