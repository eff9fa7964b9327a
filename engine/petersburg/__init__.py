"""Saint Petersburg: the rules of ``spec/petersburg/`` interpreted behind the engine's Game protocol.

Public API (names are stable; the conformance kit and the rules-query tool use them):

* ``GAME`` - the :class:`engine.game.Game` object: ``new_game(players, seed=, variant=, options=, setup=)``,
  ``to_act``, ``legal_actions``, ``apply`` (checked), ``apply_unchecked``, ``is_terminal``, ``result``,
  ``observation``, ``state_to_json`` / ``state_from_json``, ``action_to_json`` / ``action_from_json``,
  ``narrate``, ``describe_state``.  Variants: ``first`` (default), ``second``.  Options:
  ``trading_discount`` (default true, SP-COST-5).
* ``State`` - the immutable state (see :mod:`engine.petersburg.model` for its fields); ``state.phase`` names
  the phase (``worker`` ... ``pub``, ``observatory`` ... ``over``), ``state.box`` the cards out of the game,
  ``state.cards(place, seat)`` any place's cards by name.
* ``position(...)`` - the keyword-only, validated builder of any position (PositionError naming field and
  clause); ``to_notation(state)`` / ``from_notation(text)`` - the one-line notation (docs/positions.md).
* Actions (frozen, evaluable repr, each names its ``player``): ``Buy(player, card, source, displace)``,
  ``Take(player, card, source)``, ``Play(player, card, displace)``, ``Pass(player)``,
  ``Observe(player, stack)``, ``Discard(player, card)``, ``PubBuy(player, vp)``;
  the chance step ``Reveal(card)`` (a card drawn from a stack of unknown order; no ``player``).
* ``Setup(stacks=..., markers=...)`` - an explicit set-up; ``Setup.seeded(players, seed=)`` the seeded one.
* ``cost_breakdown(state, player, card, *, source, displace=None) -> CostBreakdown`` - the derivation of
  what the engine charges, from ``fast_cost(rules, area, kind, src, target)``, the one cost computation.
* ``can_displace(trading_card, target) -> (ok, clause_id, reason)``; ``displacement_targets(state, player,
  trading_card)``; ``variety_bonus(n)``; ``hand_limit(rules, area)``; ``pub_capacity(rules, area, money)``;
  ``to_act(state)``; ``final_breakdown(state, seat)``; ``standings(state)``.
* Catalog: ``CARDS`` (first edition), ``catalog(edition)``, ``edition_clauses(edition)``, ``Card``, the
  tables ``PHASES``, ``STACKS``, ``SETUPS``, ``FINAL``, ``VARIANTS``, ``OPTIONS``, ``PARAMS`` and
  ``PARAM_CLAUSES``; ``card_names()`` (en/de/ru names), ``resolve_card(name)``,
  ``ruleset(variant, options)``; effect registry ``HANDLERS``.

>>> from engine.petersburg import GAME, cost_breakdown
>>> state = GAME.new_game(4, seed=7)
>>> len(state.upper), state.money
(8, (25, 25, 25, 25))
>>> cost_breakdown(state, 0, "Market", source="upper").cost
5
"""

from engine.game import Facets
from engine.petersburg.catalog import (
    CARDS,
    FINAL,
    OPTIONS,
    PARAM_CLAUSES,
    PARAMS,
    PHASES,
    SETUPS,
    STACKS,
    VARIANTS,
    Card,
    catalog,
    edition_clauses,
    variety_bonus,
)
from engine.petersburg.costs import cost_breakdown, fast_cost
from engine.petersburg.displacement import can_displace, displacement_targets
from engine.petersburg.effects import HANDLERS
from engine.petersburg.game import GAME, PetersburgGame
from engine.petersburg.legal import hand_limit, pub_capacity, reveals, to_act
from engine.petersburg.model import (
    Action,
    Buy,
    CostBreakdown,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Reduction,
    Reveal,
    State,
    Take,
)
from engine.petersburg.names import Names, card_names, resolve_card
from engine.petersburg.notation import from_notation, to_notation
from engine.petersburg.position import position
from engine.petersburg.ruleset import Ruleset, ruleset
from engine.petersburg.scoring import final_breakdown, standings
from engine.petersburg.setup import Setup, seeded_setup

FACETS = Facets(
    title="Saint Petersburg",
    default_players=(2, 4),
    words=(
        "rouble", "roubles", "ruble", "rubles", "money", "vp", "petersburg", "edition", "worker", "building",
        "aristocrat", "aristocrats", "trading", "pub",
    ),
    kit="engine.conformance.kits.petersburg",
    fuzz_setups="engine.conformance.campaign.setups.petersburg",
    questions="engine.query.petersburg_questions",
    drawing="engine.petersburg.drawing",
)
"""What the layers built on the rules read of this game (:class:`engine.game.Facets`)."""

__all__ = [
    "CARDS",
    "FACETS",
    "FINAL",
    "GAME",
    "HANDLERS",
    "OPTIONS",
    "PARAMS",
    "PARAM_CLAUSES",
    "PHASES",
    "SETUPS",
    "STACKS",
    "VARIANTS",
    "Action",
    "Buy",
    "Card",
    "CostBreakdown",
    "Discard",
    "Names",
    "Observe",
    "Pass",
    "PetersburgGame",
    "Play",
    "PubBuy",
    "Reduction",
    "Reveal",
    "Ruleset",
    "Setup",
    "State",
    "Take",
    "can_displace",
    "card_names",
    "catalog",
    "cost_breakdown",
    "displacement_targets",
    "edition_clauses",
    "fast_cost",
    "final_breakdown",
    "from_notation",
    "hand_limit",
    "position",
    "pub_capacity",
    "resolve_card",
    "reveals",
    "ruleset",
    "seeded_setup",
    "standings",
    "to_act",
    "to_notation",
    "variety_bonus",
]
