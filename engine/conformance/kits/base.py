"""Per-game conformance adapters: what records and vectors need beyond the ``Game`` protocol.

A kit knows, for one game:

* the JSON form of the game's explicit set-up (``setup_to_json`` / ``setup_from_json``);
* how to recover, from the states of a seeded game, the explicit set-up that reproduces it
  (``explicit_setup``: every round's deal for 6 nimmt!, the stack orders and markers for Saint Petersburg);
* the chance steps: which actions are chance outcomes, named by no seat (``action_player`` gives ``None``;
  6 nimmt!: a round's deal), and the outcome that deals a given position (``chance_outcome``), written as a
  record's chance lines;
* the **facts** of a state that a record may claim and a vector may expect (``facts``): a JSON object in a
  fixed, documented vocabulary (``to_act``, ``scores``, ``rows``, ``hands`` ...), normalised so that two
  implementations agree on the spelling (hands sorted, seats in seat order);
* which clauses govern each fact (``fact_clauses``), named in a divergence report;
* the **reference derivation** of a step (``derive``: the engine's own steps, each a clause, what it
  concluded and the data it used) and of an action's legality (``why``), and which steps of a derivation
  the peer's claims contradict (``contradicted``): :mod:`engine.conformance.attribution` names a divergence
  after those steps.  A kit without derivations returns ``()`` / ``None`` and is attributed by its
  ``deciding`` as before.

>>> get_kit("take6").name
'take6'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from attrs import frozen

from engine.conformance.diagnosis.plan import FaultPlan
from engine.derivation import Step
from engine.game import facet_module
from engine.spec import load_clauses

__all__ = ["EVERY_FACT", "GameKit", "KitBase", "Trial", "get_kit"]

EVERY_FACT = "*"
"""A :class:`Trial`'s ``fact`` that reads every fact the peer claims there (a mapping), not one."""


@frozen
class Trial:
    """A discriminating position for one of several explanations of a difference: put the peer on ``state``,
    apply ``action``; if the explanation ``steps`` holds (and no other), the peer's ``fact`` then is
    ``expect`` (counted from ``state``).  A probe that shows a step's hidden outcome (:meth:`GameKit.
    revealing`) reads :data:`EVERY_FACT` and expects nothing (``None``)."""

    steps: tuple[Step, ...]
    state: Any
    action: Any
    fact: str
    expect: Any


class GameKit(Protocol):
    """The conformance adapter of one game (see the module docstring)."""

    name: str
    fact_names: tuple[str, ...]
    """Every fact name, in the order reports show them."""
    forms_clause: str
    """The clause the engine refuses a value that is no action of the game under (the game's own
    ``NOT_AN_ACTION``, which its ``check`` raises): an action a peer offers that does not parse as one is
    named by it."""
    spells: Mapping[str, str]
    """Facts that state another fact's content in their own order (``piles``: the ``hands``)."""
    turn_clause: str
    """The clause of the step every action's grant passes, that its seat may act now (the game's own
    ``MAY_ACT``, which its ``check`` refuses another seat's action under): a seat denied every action of
    its one kind is named by it or the kind's own rule (:func:`~engine.conformance.campaign.denials.
    unresolved`)."""

    def action_player(self, action: Any) -> int | None:
        """The seat that takes ``action``; ``None`` for a chance step (6 nimmt!: a round's deal)."""
        ...

    def chance_outcome(self, state: Any) -> Any:
        """The chance step that leads to ``state``, a position just dealt (6 nimmt!: its round's ``Deal`` or
        ``DraftStart``); ``None`` for a game without chance steps."""
        ...

    def setup_to_json(self, setup: Any) -> Any:
        """JSON form of an explicit set-up."""
        ...

    def setup_from_json(self, data: Any) -> Any:
        """Parse an explicit set-up; raises InputError naming the field."""
        ...

    def explicit_setup(self, states: Sequence[Any]) -> Any:
        """The explicit set-up reproducing the game whose successive states are ``states``."""
        ...

    def facts(self, state: Any) -> dict[str, Any]:
        """Every claimable fact of ``state`` (JSON values)."""
        ...

    def normalise(self, fact: str, value: Any) -> Any:
        """A claimed value in the canonical spelling of ``facts`` (e.g. a hand sorted)."""
        ...

    def fact_clauses(self, fact: str) -> tuple[str, ...]:
        """The clause ids that decide the value of ``fact``."""
        ...

    game_over_clause: str
    """The clause refusing any action once the game has ended."""

    def deciding(self, game: Any, fact: str, step: tuple[Any, Any, Any] | None, variant: str,
                 claimed: Any = None) -> tuple[str, ...]:
        """The clauses a claim of ``fact`` after ``step`` depends on, the deciding one first."""
        ...

    def legal_clause(self, action: Any) -> str:
        """The clause that makes an action of this kind legal."""
        ...

    def card_names(self, variant: str) -> list[dict[str, Any]]:
        """Every card of ``variant``: ``name`` (as the JSON forms spell it), ``aliases`` and game details."""
        ...

    def step_clauses(self, game: Any, before: Any, action: Any, after: Any) -> tuple[str, ...]:
        """The clauses a legal step exercises (tags of generated accept vectors)."""
        ...

    def illegal_candidates(self, game: Any, state: Any, rng: random.Random) -> Iterable[tuple[Any, str]]:
        """Illegal actions worth trying at ``state`` (JSON form, one-line description), for reject vectors."""
        ...

    def derive(self, game: Any, before: Any, action: Any) -> tuple[Step, ...]:
        """The reference derivation of the legal step ``action`` from ``before`` (``()``: none yet)."""
        ...

    def derive_start(self, game: Any, start: Mapping[str, Any]) -> tuple[Step, ...]:
        """The engine's own derivation of a set-up's start position (``start``: ``new_game``'s keyword
        arguments): a step per fact the set-up decides, saying that fact."""
        ...

    def why(self, game: Any, state: Any, action: Any) -> Step | None:
        """Why ``action`` is legal or refused in ``state``: a step whose clause grants (``says`` ``legal``)
        or refuses (``refused``) it, the checks beneath it (``None``: no derivation yet)."""
        ...

    def contradicted(self, derivation: tuple[Step, ...], fact: str, ours: Mapping[str, Any],
                     theirs: Mapping[str, Any]) -> tuple[Step, ...]:
        """The steps of ``derivation`` whose conclusion the peer's facts ``theirs`` contradict, where the
        reference's facts after the step are ``ours`` and ``fact`` is the one found to differ: the first
        cause's steps, several when they explain the difference equally (``()``: none found)."""
        ...

    def trials(self, game: Any, before: Any, action: Any, *, fact: str, ours: Mapping[str, Any],
               theirs: Mapping[str, Any]) -> tuple[Trial, ...]:
        """Where :meth:`contradicted` has several rival explanations of the difference, one discriminating
        position per explanation (``()``: none, or no rivals)."""
        ...

    def revealing(self, game: Any, before: Any, action: Any, *, fact: str, ours: Mapping[str, Any],
                  theirs: Mapping[str, Any]) -> Trial | None:
        """Where the step's outcome hides the cause of a difference in ``fact`` (6 nimmt!: a round's last
        turn, whose rows are dealt again before the peer shows them), a position like ``before`` where it
        shows, read as :data:`EVERY_FACT` (``None``: the step hides nothing, or no such position)."""
        ...

    def revealed(self, game: Any, probe: Trial, shown: Any) -> tuple[Step, ...]:
        """The steps of ``probe``'s own derivation the peer's facts there (``shown``, a mapping; ``None``
        when it refused) contradict, as :meth:`contradicted` names them; ``()``: none beyond the
        difference the probe was made for."""
        ...


class KitBase:
    """What every kit shares: the game's clause book, its clauses by topic, and the seat of an action
    (every action names its player).  ``fact_topics`` maps a fact to the clause topics that decide it."""

    name: str
    fact_topics: Mapping[str, Sequence[str]] = {}
    faults: FaultPlan = FaultPlan(())
    """The game's fault-model space (:mod:`engine.conformance.diagnosis`): none unless the kit declares it."""

    def __init__(self) -> None:
        self._book = load_clauses(self.name)
        self._by_topic: dict[str, list[str]] = {}
        for clause in self._book.values():
            self._by_topic.setdefault(clause.topic, []).append(clause.id)

    def action_player(self, action: Any) -> int | None:
        """The seat of an action."""
        player: int = action.player
        return player

    def chance_outcome(self, state: Any) -> Any:
        """No chance steps (a game that has them says so)."""
        return None

    spells: Mapping[str, str] = {}
    """Facts that state another fact's content in its own order (6 nimmt!'s ``piles``: the hands, top card
    first): a step holding the other fact holds this one (a set-up's deal holds the piles it deals)."""

    unordered: tuple[str, ...] = ()
    """The facts that are lists of per-seat lists in no order (hands, areas): :meth:`normalise` sorts them."""

    def normalise(self, fact: str, value: Any) -> Any:
        """Claims spell the :attr:`unordered` facts in any order; the facts sort them."""
        if fact in self.unordered and isinstance(value, list) and all(isinstance(h, list) for h in value):
            try:
                return [sorted(h) for h in value]
            except TypeError:
                return value
        return value

    def fact_clauses(self, fact: str) -> tuple[str, ...]:
        """The clauses of the topics that decide ``fact``."""
        return tuple(c for topic in self.fact_topics.get(fact, ()) for c in self._by_topic.get(topic, ()))

    def derive(self, game: Any, before: Any, action: Any) -> tuple[Step, ...]:
        """The engine's own derivation of the step (``GAME.derive``); ``()`` for a game without derivations
        (attribution then falls back to ``deciding``)."""
        derive = getattr(game, "derive", None)
        return tuple(derive(before, action)) if derive is not None else ()

    def derive_start(self, game: Any, start: Mapping[str, Any]) -> tuple[Step, ...]:
        """``GAME.derive_start(**start)`` (the set-up's own derivation); ``()`` for a game without one."""
        derive = getattr(game, "derive_start", None)
        return tuple(derive(**start)) if derive is not None else ()

    def why(self, game: Any, state: Any, action: Any) -> Step | None:
        """The checked tier's derivation of an action's legality (``GAME.why``); ``None`` for a game without
        one (a missing action then names ``legal_clause``)."""
        why = getattr(game, "why", None)
        root: Step | None = why(state, action) if why is not None else None
        return root

    def contradicted(self, derivation: tuple[Step, ...], fact: str, ours: Mapping[str, Any],
                     theirs: Mapping[str, Any]) -> tuple[Step, ...]:
        """Nothing to contradict without derivations."""
        return ()

    def trials(self, game: Any, before: Any, action: Any, *, fact: str, ours: Mapping[str, Any],
               theirs: Mapping[str, Any]) -> tuple[Trial, ...]:
        """No discriminating positions (a game that has them says so)."""
        return ()

    def revealing(self, game: Any, before: Any, action: Any, *, fact: str, ours: Mapping[str, Any],
                  theirs: Mapping[str, Any]) -> Trial | None:
        """No step hides its outcome (a game whose steps do says so)."""
        return None

    def revealed(self, game: Any, probe: Trial, shown: Any) -> tuple[Step, ...]:
        """Nothing to read without a probe."""
        return ()

    def refuted(self, why: Step) -> tuple[Step, ...]:
        """The steps of a refusal derivation a peer accepting the action contradicts (``()``: the refusing
        clause alone names it; see :func:`engine.conformance.attribution.refusing`)."""
        return ()

    def denied(self, why: Step) -> tuple[Step, ...]:
        """The steps of a grant derivation a peer denying the action contradicts at their bound (``()``: the
        granting clause names it; see :func:`engine.conformance.attribution.granting`)."""
        return ()


def get_kit(name: str) -> GameKit:
    """The conformance kit of game ``name`` (the ``kit`` facet of its registration, engine.game);
    an unknown game raises InputError."""
    kit: GameKit = facet_module(name, "kit").KIT
    return kit
