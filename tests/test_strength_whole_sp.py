"""Saint Petersburg rules and tables the whole-set mutation run found unpinned (the 6 nimmt! ones and the
first Saint Petersburg ones are in ``test_strength_whole.py``): each test kills mutants that survived the
tests selected for them, and says which rule it pins."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CATALOGUE = {
    "worker": "SP-CARD-1", "building": "SP-CARD-2", "aristocrat": "SP-CARD-3", "trading": "SP-CARD-4"
}
"""The clause that lists each stack's cards."""


def test_every_card_row_cites_its_stack_or_a_clause_that_names_it() -> None:
    """SP-CARD-1..4: a card of spec/petersburg/cards.toml cites the clause that lists its stack, or a
    clause whose wording names the card (the Observatory's, the Pub's, the Czar and Carpenter's): a card
    citing another stack's list or another card's rule is a mis-citation."""
    cards = tomllib.loads((ROOT / "spec/petersburg/cards.toml").read_text(encoding="utf-8"))["card"]
    clauses = {
        c["id"]: c["text"]
        for c in tomllib.loads((ROOT / "spec/petersburg/clauses.toml").read_text(encoding="utf-8"))["clause"]
    }
    from engine.petersburg.ruleset import ruleset

    rs = ruleset()
    for row in cards:
        cited = rs.cards[rs.kind[row["name"]]].clause
        assert cited == row["clause"]
        assert cited == CATALOGUE[row["stack"]] or row["name"].lower() in clauses[cited].lower(), (
            row["name"], cited
        )


def test_a_petersburg_position_names_a_seat_beyond_the_table_and_its_clause() -> None:
    """SP-SETUP-3, SP-PHASE-2, SP-PHASE-3, SP-PUB-2, SP-VARIANT-1, SP-SETUP-2: a 2-player position whose
    marker holder, seat to act, pass count or Pub seat is 2, whose variant is not one, or whose VP are
    negative is refused naming the field and the rule; by default it is round 1, not the last round."""
    import pytest

    from engine.errors import PositionError
    from engine.petersburg.position import position

    start = position(players=2)
    assert (start.round, start.last_round, start.phase) == (1, False, "worker")
    cases = [
        (dict(markers=[0, 1, 0, 2]), "markers[3]", "SP-SETUP-3"),
        (dict(turn=2), "turn", "SP-PHASE-2"),
        (dict(passes=2), "passes", "SP-PHASE-3"),
        (dict(phase="pub", areas=[["Pub"], []], pub_queue=[2]), "pub_queue[0]", "SP-PUB-2"),
        (dict(variant=3), "variant", "SP-VARIANT-1"),
        (dict(variant="third"), "variant", "SP-VARIANT-1"),
        (dict(vp=[-1, 0]), "vp[0]", "SP-SETUP-2"),
    ]
    for fields, field, clause in cases:
        with pytest.raises(PositionError) as err:
            position(players=2, **fields)  # type: ignore[arg-type]
        assert (err.value.field, err.value.clause) == (field, clause), str(err.value)
    assert position(players=2, phase="pub", areas=[[], ["Pub"]], pub_queue=[1]).pub_queue == (1,)
