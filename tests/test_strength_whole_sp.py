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
