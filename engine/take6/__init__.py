"""6 nimmt! (Take 6!): the reference interpreter of the rules in ``spec/take6/``.

Public API (names kept stable for the conformance kit and the rules-query tool):

* ``GAME`` — the :class:`engine.game.Game` implementation (name ``take6``, title ``6 nimmt!``).
* ``State`` — the frozen state (a tuple with named properties); ``Select(player, card)``,
  ``TakeRow(player, row)``, ``Draft(player, card)`` (logic), ``Flip(player)`` (kids) — the actions, frozen,
  each naming its player.
* ``position(...)`` — the keyword-only, validated builder of any position (PositionError naming field and
  clause); ``to_notation(state)`` / ``from_notation(text)`` — the one-line notation (docs/positions.md).
* ``Deal(hands, rows)`` (kids: ``hands`` are face-down piles, top card first) and ``DraftStart(player)``
  (logic) — explicit set-ups, given to ``GAME.new_game(..., setup=(round1, round2, ...))``; rounds beyond
  the given ones are dealt by the seeded procedure ``deal_order`` from ``derived_seed(seed, round)``.
* ``bullheads(card)``; ``place(rows, card, variant)`` → ``Placement`` (candidates with differences, chosen
  row and side, 6th card or fits nowhere, clause ids) and ``locate``, the function the engine resolves with.
* ``rules_for(variant, players, options)`` → ``Rules``: every parameter of a game, read from the tables.

A whole turn, by hand (an explicit deal, so the example is fixed)::

>>> from engine.take6 import GAME, Deal, Select, TakeRow, bullheads, place
>>> deal = Deal(hands=((33, 5, 60, 61, 62, 63, 64, 65, 66, 67), (29, 1, 70, 71, 72, 73, 74, 75, 76, 77)),
...             rows=(30, 20, 10, 40))
>>> s = GAME.new_game(2, seed=0, setup=deal)
>>> GAME.to_act(s)
(0, 1)
>>> s = GAME.apply(s, Select(0, 33))
>>> s = GAME.apply(s, Select(1, 1))
>>> GAME.to_act(s), s.pending
((1,), ((1, 1), (33, 0)))
>>> s = GAME.apply(s, TakeRow(1, 2))
>>> s.rows
((30, 33), (20,), (1,), (40,))
>>> s.penalties, bullheads(10)
((0, 3), 3)
>>> place(s.rows, 34).row
0
"""

from engine.game import Facets
from engine.take6.deal import deal_order, derived_seed
from engine.take6.game import GAME, Take6
from engine.take6.model import Action, Deal, Draft, DraftStart, Flip, Select, Setup, State, TakeRow
from engine.take6.notation import from_notation, to_notation
from engine.take6.placement import Candidate, Placement, fast_end_row, locate, place
from engine.take6.position import position
from engine.take6.rules import BULLHEADS, OPTIONS, VARIANTS, Rules, bullheads, rules_for

FACETS = Facets(
    title="6 nimmt! (Take 6!)",
    default_players=(2, 4, 10),
    words=(
        "bullhead", "bullheads", "nimmt", "take6", "row", "rows", "66", "countdown", "tactics", "kids",
        "professional", "logic",
    ),
    kit="engine.conformance.kits.take6",
    fuzz_setups="engine.conformance.campaign.setups.take6",
    questions="engine.query.take6_questions",
    drawing="engine.take6.drawing",
)
"""What the layers built on the rules read of this game (:class:`engine.game.Facets`)."""

__all__ = [
    "BULLHEADS",
    "FACETS",
    "GAME",
    "OPTIONS",
    "VARIANTS",
    "Action",
    "Candidate",
    "Deal",
    "Draft",
    "DraftStart",
    "Flip",
    "Placement",
    "Rules",
    "Select",
    "Setup",
    "State",
    "Take6",
    "TakeRow",
    "bullheads",
    "deal_order",
    "derived_seed",
    "fast_end_row",
    "from_notation",
    "locate",
    "place",
    "position",
    "rules_for",
    "to_notation",
]
