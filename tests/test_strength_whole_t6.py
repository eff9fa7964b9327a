"""6 nimmt! rules the second pass of the whole-set mutation run found unpinned: the position builder's phase
shapes, the notation's extra tokens, the rules value's player count, a draft's next drafter with three
players, and the checks the rule tables get when the module loads (a subprocess imports the rules with one
table edited in memory: those checks run once, at import).  Each test says which rule it pins."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.errors import IllegalSetup, InputError, PositionError
from engine.take6 import GAME as T6
from engine.take6.model import Select
from engine.take6.position import position
from engine.take6.rules import rules_for

ROOT = Path(__file__).resolve().parent.parent
_ROWS = [[30], [40], [50], [60]]
_FULL = [list(range(1, 11)), list(range(11, 21))]


@pytest.mark.parametrize(
    ("fields", "field", "clause"),
    [
        # round 2: an earlier round took at most the deck's 171 bullheads
        (dict(round=2, rows=_ROWS, hands=_FULL, totals=[172, 0]), "totals[0]", "T6-ROUND-2"),
        # reaching the threshold of 66 exactly ends the game
        (dict(round=2, rows=_ROWS, hands=_FULL, totals=[66, 0]), "totals", "T6-END-1"),
        # hands of a selection differ: the seat that holds more is named, even when seat 0 holds none
        (dict(rows=_ROWS, hands=[[], [1]]), "hands[1]", "T6-SELECT-1"),
        # a row choice: every revealed card has left its hand, so the hands are equal and not full
        (dict(rows=[[30], [40], [50], [60]], hands=[list(range(1, 10)), list(range(11, 19))],
              pending=[[10, 0], [20, 1]], phase="choose"), "hands[1]", "T6-SELECT-2"),
        (dict(rows=[[30], [40], [50], [60]], hands=[list(range(1, 11)), list(range(11, 21))],
              pending=[[21, 0], [22, 1]], phase="choose"), "hands", "T6-SELECT-2"),
        # a logic draft with every hand full is complete: the rows are laid
        (dict(variant="logic", hands=_FULL, phase="draft"), "hands", "T6-LOGIC-2"),
        # a round awaiting its deal has neither a seed nor explicit deals
        (dict(hands=[[], []], phase="deal", seed=3), "phase", "T6-SETUP-4"),
        # an unknown variant is a bad variant, not a bad option
        (dict(variant="nope", rows=_ROWS, hands=_FULL), "variant", "T6-VAR-1"),
        # kids: a card waits for a row only once it is flipped, and only the card just flipped
        (dict(variant="kids", rows=[[40], [50], [60], [70], [80]], phase="choose", pending=[[1, 0]],
              hands=[list(range(2, 17)), list(range(17, 32))]), "pending", "T6-KIDS-2"),
        (dict(variant="kids", rows=[[40], [50], [60], [70], [80]], phase="choose",
              pending=[[1, 0], [2, 1]], hands=[list(range(3, 17)), list(range(17, 31))]), "pending",
         "T6-KIDS-2"),
    ],
)
def test_a_position_of_the_wrong_shape_for_its_phase_names_the_field_and_the_rule(
    fields: dict[str, Any], field: str, clause: str
) -> None:
    """T6-ROUND-2, T6-END-1, T6-SELECT-1, T6-SELECT-2, T6-LOGIC-2, T6-SETUP-4, T6-VAR-1, T6-KIDS-2: the
    position builder refuses a position no game reaches, naming the field and the rule it breaks."""
    with pytest.raises(PositionError) as err:
        position(players=2, **fields)
    assert (err.value.field, err.value.clause) == (field, clause), str(err.value)


def test_positions_every_game_reaches_are_accepted() -> None:
    """T6-LOGIC-3, T6-KIDS-2, T6-END-1: round 1 of a rotating logic game awaits its draft start like any
    logic game (the rotation starts in round 2); a kids card just flipped by seat 0 waits for its row; a
    total one below the threshold leaves the game going."""
    first = position(players=2, variant="logic", options={"logic_start": "rotate"}, hands=[[], []],
                     phase="deal")
    assert first.phase == "deal" and first.round == 1
    kids = position(players=2, variant="kids", rows=[[40], [50], [60], [70], [80]], phase="choose",
                    pending=[[1, 0]], hands=[list(range(2, 16)), list(range(16, 31))])
    assert kids.phase == "choose" and kids.chooser == 0
    going = position(players=2, round=2, rows=_ROWS, hands=_FULL, totals=[65, 0])
    assert going.phase == "select" and going.penalties == (65, 0)


@pytest.mark.parametrize("token", ["foo=1", "seed"])
def test_a_notation_extra_token_must_be_a_known_key_with_a_value(token: str) -> None:
    """T6-SETUP-4: after the eight fields a line holds only ``seed=``, ``start=`` or ``deals=`` tokens; an
    unknown key, or a key without ``=``, is refused naming the token."""
    line = T6.to_notation(T6.new_game(2, seed=1))
    with pytest.raises(InputError) as err:
        T6.from_notation(f"{line} {token}")
    assert err.value.field.startswith("extra (token 10")
    assert "expected seed=, start= or deals=" in str(err.value)


@pytest.mark.parametrize("players", ["3", True, 3.0])
def test_a_player_count_that_is_not_an_integer_is_refused(players: Any) -> None:
    """T6-SETUP-1: the player count of a rules value is an integer (a string, a bool or a float is refused
    naming the rule, not failing on a comparison)."""
    with pytest.raises(IllegalSetup) as err:
        rules_for("standard", players)
    assert err.value.clause == "T6-SETUP-1" and "must be an integer" in str(err.value)


def test_a_draft_derivation_names_the_next_drafter_of_three() -> None:
    """T6-LOGIC-1: drafting goes clockwise from the start player; with three players the derivation's next
    drafter is the seat after the one who drafted, the seat the game then waits for."""
    state = T6.new_game(3, variant="logic", seed=5)
    for _ in range(4):
        act = T6.legal_actions(state)[0]
        nxt = [s.data for st in T6.derive(state, act) for s in st.walk() if s.says == "next"]
        state = T6.apply(state, act)
        assert nxt == [{"phase": "draft", "to_act": list(T6.to_act(state))}]


def test_a_professional_card_placed_without_a_trace_matches_its_derivation() -> None:
    """T6-PRO-1: the professional game places a card before a row start on the fast path (no trace) as the
    traced transition does: the same state either way."""
    state = position(players=2, variant="professional", rows=_ROWS, hands=[[25, *range(1, 10)],
                                                                          [65, *range(11, 20)]])
    after = T6.apply(state, Select(1, 65))
    assert T6.apply(after, Select(0, 25)).rows == ((25, 30), (40,), (50,), (60, 65))


# ------------------------------------------------------------------------------- the tables, at import

_IMPORT = """
import copy, json, sys
import engine.spec as spec
real = spec.read_toml
filename, edit = sys.argv[1], sys.argv[2]
def patched(path):
    doc = real(path)
    if path.parent.name == "take6" and path.name == filename:
        doc = copy.deepcopy(doc)
        exec(edit, {"doc": doc})
    return doc
spec.read_toml = patched
try:
    import engine.take6.rules
except Exception as exc:
    print(json.dumps([type(exc).__name__, str(exc)]))
else:
    print(json.dumps(["loaded", ""]))
"""


def _import_with(filename: str, edit: str) -> tuple[str, str]:
    """Import the 6 nimmt! rules in a fresh interpreter with ``spec/take6/<filename>`` edited by ``edit``
    (Python run on the parsed table ``doc``); returns (exception name or ``loaded``, message)."""
    out = subprocess.run([sys.executable, "-c", _IMPORT, filename, edit], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, check=True)
    kind, message = json.loads(out.stdout.strip().splitlines()[-1])
    return kind, message


@pytest.mark.parametrize(
    ("filename", "edit", "says"),
    [
        ("deck.toml", "doc['deck'][1]['clause'] = 'XX-NOPE-1'", "names unknown clause 'XX-NOPE-1'"),
        ("end.toml", "doc['end'][0]['clauses'] = ['XX-NOPE-1']", "names unknown clause 'XX-NOPE-1'"),
        ("deck.toml", "del doc['deck'][1]['extra']", "give either 'high' or both 'per_player' and 'extra'"),
        ("deck.toml", "doc['deck'][0]['bullhead_total'] = 170", "bullhead_total 170 but the rules give 171"),
        ("options.toml", "doc['option'][0]['values'] = []", "must be a non-empty list of strings"),
        ("options.toml", "doc['option'][0]['values'] = ['random', 1]", "must be a non-empty list of strings"),
        ("setup.toml", "doc['setup'][0]['hand_size'] = 11", "cannot set up 10 players"),
    ],
)
def test_the_rule_tables_are_checked_when_the_rules_load(filename: str, edit: str, says: str) -> None:
    """T6-DECK-1, T6-TACT-1, T6-END-1, T6-VAR-1, T6-SETUP-1: the checks run once, as the rules module
    loads: a deck or end row citing an unknown clause, a tactics deck without its ``extra``, a bullhead
    total the rules do not give, an option without string values, a set-up that cannot deal its largest
    player count (11 cards to 10 players and 4 rows need 114 of the 104 cards) are each refused."""
    kind, message = _import_with(filename, edit)
    assert kind == "SpecError" and says in message, (kind, message)


def test_a_one_card_hand_is_a_hand() -> None:
    """T6-SETUP-2: a set-up may deal hands of a single card (the table's bound is an empty hand, not a
    short one); the unedited tables load too."""
    assert _import_with("setup.toml", "doc['setup'][0]['hand_size'] = 1") == ("loaded", "")
    assert _import_with("setup.toml", "pass") == ("loaded", "")
