"""6 nimmt! rules for table values other than the shipped ones, and inputs that tell apart code changes once
thought to change nothing.

A rule is data: a diagnosis builds the rules from edited tables (any value of ``spec/take6/`` may change: a
hand size, a set-up's player range, a variant's placement), so what the code does with a value must be right
for every value the tables accept.  Each test with edited tables runs its scenario on the shipped tables in
this process and on the edited tables in a fresh interpreter (:func:`edited_tables.under_edited`), and says
which rule it checks.  The first tests need no edit: the subject a bullhead rule is cited with, and the error
a JSON state's out-of-range seat gets.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from edited_tables import under_edited

from engine.derivation import Trace
from engine.errors import InputError, PositionError
from engine.take6 import GAME
from engine.take6.codec import state_from_json, state_to_json
from engine.take6.position import position
from engine.take6.rules import VARIANTS
from engine.take6.transitions import record_take

GAME_NAME = "take6"


def _shipped(scenario: Any, *args: Any) -> Any:
    """The scenario on the shipped tables, in this process, as JSON (as :func:`_edited` returns it)."""
    return json.loads(json.dumps(scenario(*args)))


def _edited(edits: dict[str, str], scenario: Any, *args: Any) -> Any:
    return under_edited(__file__, scenario, *args, game=GAME_NAME, edits=edits)


def _row(filename: str, array: str, name: str, change: str) -> dict[str, str]:
    """An edit of ``filename``: ``change`` (Python on the row ``row``) applied to the ``[[array]]`` row
    named ``name``."""
    return {filename: f"row = next(r for r in doc[{array!r}] if r['name'] == {name!r})\n{change}"}


# --------------------------------------------------------------------------------------------------
# the shipped tables


def test_each_card_taken_is_cited_with_the_subject_of_the_rule_that_decides_it() -> None:
    """T6-BULL-1..5: a taken card's bullheads are cited with the subject of the first bullhead rule that
    matches it: card 55 the rule for exactly 55 (``55``, not the multiples of 55), 11 the multiples of 11
    (``x11``), then ``x10``, ``x5`` and ``other``."""
    trace = Trace()
    record_take(trace, 0, (55, 11, 10, 5, 3))
    cited = [(s.clause, s.data["card"], s.data["subject"], s.data["heads"]) for s in trace.steps[0].steps]
    assert cited == [("T6-BULL-1", 55, "55", 7), ("T6-BULL-2", 11, "x11", 5), ("T6-BULL-3", 10, "x10", 3),
                     ("T6-BULL-4", 5, "x5", 2), ("T6-BULL-5", 3, "other", 1)]


@pytest.mark.parametrize("field", ["start", "pending"])
@pytest.mark.parametrize("seat", [3, 4])
def test_a_json_states_seat_out_of_range_is_a_malformed_field(field: str, seat: int) -> None:
    """T6-ACT-1, T6-LOGIC-1: a JSON state's seat outside 0..n-1 (a pending card's owner, the draft's start
    player) is refused by the codec as a malformed field, an InputError naming the field and its range,
    before any position is built from it (so not a PositionError naming a rule), as every other field's
    range is."""
    data = state_to_json(GAME.new_game(3, seed=1))
    name = "start"
    if field == "start":
        data["start"] = seat
    else:
        data["pending"] = [[7, seat]]
        name = "pending[0][1]"
    with pytest.raises(InputError) as err:
        state_from_json(data)
    assert not isinstance(err.value, PositionError)
    assert (err.value.field, str(err.value)) == (name, f"{name}: expected an integer from 0 to 2, got {seat}")


# --------------------------------------------------------------------------------------------------
# edited tables: the deal's hands (T6-SETUP-2)


def first_round(players: int, variant: str) -> list[Any]:
    """A seeded game of ``variant`` for ``players``, each seat to act taking its first legal action: the
    hand size dealt, the first seat's first choices, and the actions of the first round by kind."""
    s = GAME.new_game(players, variant=variant, seed=1)
    dealt = len(s.hands[0])
    first = [repr(a) for a in GAME.legal_actions(s, s.to_act[0])]
    kinds: dict[str, int] = {}
    while s.round == 1 and not GAME.is_terminal(s):
        action = GAME.legal_actions(s, s.to_act[0])[0]
        kinds[type(action).__name__] = kinds.get(type(action).__name__, 0) + 1
        s = GAME.apply(s, action)
    return [dealt, first, kinds]


def first_rounds(players: int) -> dict[str, list[Any]]:
    """:func:`first_round` of every variant."""
    return {variant: first_round(players, variant) for variant in VARIANTS}


def test_a_hand_of_one_card_is_dealt_and_played() -> None:
    """T6-SETUP-2: a set-up may deal hands of a single card (edited hand_size = 1): each seat's one choice
    is its card, and playing it ends the round; two cards (edited) and the shipped ten give as many choices
    and turns."""
    for size in (10, 1, 2):
        edits = _row("setup.toml", "setup", "standard", f"row['hand_size'] = {size}")
        dealt, first, kinds = _edited(edits, first_round, 2, "standard") if size != 10 else _shipped(
            first_round, 2, "standard")
        assert (dealt, len(first), kinds["Select"]) == (size, size, 2 * size), (size, kinds)


def test_the_rules_load_when_every_set_up_is_for_nine_or_more_players() -> None:
    """T6-SETUP-1, T6-SETUP-2, T6-KIDS-5: the largest hand the engine prepares for is found over every
    player count the set-ups allow; with both set-ups edited to 9 or 10 players it is the kids game's 11
    cards for 9 players, and every variant deals and plays its first round as shipped."""
    edits = {"setup.toml": "for row in doc['setup']:\n    row['min_players'] = 9"}
    shipped = _shipped(first_rounds, 9)
    assert _edited(edits, first_rounds, 9) == shipped
    assert shipped["kids"][0] == 11


# --------------------------------------------------------------------------------------------------
# edited tables: the kids' flips in the professional placement (T6-KIDS-2, T6-PRO-1)


def kids_flip(card: int) -> list[Any]:
    """The kids game: seat 0 flips ``card``, below every row; the phase and the rows after it."""
    s = position(players=2, variant="kids", rows=[[30], [40], [50], [60], [70]], hands=[[card, 90], [91, 92]])
    after = GAME.apply(s, GAME.legal_actions(s, 0)[0])
    return [after.phase, [list(r) for r in after.rows]]


def test_a_flipped_card_is_placed_by_the_variants_placement() -> None:
    """T6-KIDS-2, T6-PLACE-3, T6-PRO-1: a flipped card below every row end fits no row in the kids game
    (its player chooses a row to take); with the kids variant's placement edited to the professional one,
    it goes before the row start it is closest to."""
    assert _shipped(kids_flip, 25) == ["choose", [[30], [40], [50], [60], [70]]]
    edits = _row("variants.toml", "variant", "kids", "row['placement'] = 'ends_and_starts'")
    assert _edited(edits, kids_flip, 25) == ["flip", [[25, 30], [40], [50], [60], [70]]]
