"""The clause citations of the rule tables: every row's ``clause`` is read by what cites it (a derivation,
a refusal, an answer), and each test pins which clause a row must cite.  The whole-set mutation run found
these citations unread or unchecked (a row citing another clause changed nothing any test saw)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.errors import PositionError, RuleViolation

ROOT = Path(__file__).resolve().parent.parent
LISTINGS = {"worker": "SP-CARD-1", "building": "SP-CARD-2", "aristocrat": "SP-CARD-3", "trading": "SP-CARD-4"}
"""The clause that lists each Saint Petersburg stack's cards."""


def _table(path: str) -> dict[str, Any]:
    return tomllib.loads((ROOT / "spec" / path).read_text(encoding="utf-8"))


def _clause_texts(game: str) -> dict[str, tuple[str, str]]:
    """Clause id -> (topic, text), from the game's clause book as written."""
    return {c["id"]: (c["topic"], c["text"]) for c in _table(f"{game}/clauses.toml")["clause"]}


def _ask(kind: str, **params: Any) -> Any:
    from engine.query import ask

    return ask(kind, params)


# --------------------------------------------------------------------------------------------------
# 6 nimmt!


def test_each_take6_variant_cites_the_clauses_of_its_own_rules() -> None:
    """T6-VAR-1, T6-TACT-1, T6-COUNT-1: the variants answer lists each variant's clauses from
    variants.toml; the standard game cites the variants clause (it changes nothing), and a clause of a
    variant's topic (tactics, logic, professional, kids, countdown) is cited only by that variant, or by a
    variant that plays the tactics deck (the logic variant's deck)."""
    answer = _ask("variants", game="take6")
    cited = {row[0]: row[3].split(", ") for row in answer.rows}
    assert cited["standard"] == ["T6-VAR-1"]
    assert cited["tactics"] == ["T6-TACT-1"]
    topics = {cid: topic for cid, (topic, _text) in _clause_texts("take6").items()}
    variants = {v["name"]: v for v in _table("take6/variants.toml")["variant"]}
    for name, clauses in cited.items():
        for cid in clauses:
            topic = topics[cid]
            if topic in variants and topic != name:
                assert topic == "tactics" and variants[name]["deck"] == "tactics", (name, cid, topic)


@pytest.mark.parametrize(("variant", "clause"), [("standard", "T6-DECK-1"), ("tactics", "T6-TACT-1"),
                                                 ("logic", "T6-TACT-1")])
def test_the_deck_a_take6_setup_deals_cites_its_deck_rows_clause(variant: str, clause: str) -> None:
    """T6-DECK-1 (104 cards) and T6-TACT-1 (cards 1 to 10n+4): the set-up answer's deck step and a
    position's card outside the deck cite the clause of the variant's row of deck.toml."""
    from engine.take6.position import position

    answer = _ask("setup", game="take6", players=3, variant=variant)
    deck = next(s for s in answer.steps if s.detail.startswith("deck:"))
    assert deck.clause == clause
    with pytest.raises(PositionError) as err:
        position(players=3, variant=variant, rows=[[1], [2], [3], [4]], hands=[[105], [6], [7]])
    assert err.value.clause == clause


# --------------------------------------------------------------------------------------------------
# Saint Petersburg: the card rows and the editions


def _names(text: str, name: str, others: list[str]) -> bool:
    """Whether ``text`` names the card ``name`` itself (not as part of a longer card name: the Builder is
    not the Ship Builder, the Czar not the Czar and Carpenter)."""
    for other in sorted(others, key=len, reverse=True):
        if name != other and name.lower() in other.lower():
            text = re.sub(re.escape(other), "", text, flags=re.IGNORECASE)
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, flags=re.IGNORECASE) is not None


def test_every_card_row_cites_its_stack_listing_or_the_rule_that_makes_it_special() -> None:
    """SP-CARD-1..4: a plain card of cards.toml cites the clause listing its stack; a card with an effect or
    with more than one symbol (the Czar and Carpenter's five, SP-TRADE-4) cites the rule of what makes it
    special, a clause naming the card that is not a stack listing.  The engine's card carries the row's
    clause, and the card answer opens with it."""
    from engine.petersburg.ruleset import ruleset

    rows = _table("petersburg/cards.toml")["card"]
    names = [r["name"] for r in rows]
    texts = _clause_texts("petersburg")
    rs = ruleset()
    for row in rows:
        card = rs.cards[rs.kind[row["name"]]]
        assert card.clause == row["clause"]
        special = row.get("effect") is not None or len(row.get("symbols", [])) > 1
        if special:
            assert row["clause"] not in LISTINGS.values(), row["name"]
            assert _names(texts[row["clause"]][1], row["name"], names), (row["name"], row["clause"])
        else:
            assert row["clause"] == LISTINGS[row["stack"]], (row["name"], row["clause"])
    assert _ask("card", name="Czar and Carpenter").steps[0].clause == "SP-TRADE-4"
    assert _ask("card", name="Builder").steps[0].clause == "SP-CARD-4"


def test_a_second_edition_card_cites_its_own_rule_and_the_clause_of_its_change() -> None:
    """SP-EDITION-1, SP-MARI-2, SP-OBS-1: in the second edition a card keeps its own rule (the Observatory
    is still SP-OBS-1, though it costs 7) and its answer adds the delta row's clause, which names the card
    by one of its names; a delta giving a new effect (the Mariinsky Theater's 1 VP per red card) makes that
    row's clause, an effects clause, the card's rule, and the first edition's rule no longer applies."""
    from engine.petersburg.ruleset import ruleset

    texts = _clause_texts("petersburg")
    second = ruleset("second")
    for delta in _table("petersburg/editions.toml")["delta"]:
        card = next(c for c in second.cards if c.key == delta["card"])
        assert card.edition_clause == delta["clause"]
        text = texts[delta["clause"]][1]
        assert _names(text, delta["card"], [delta["card"]]) or _names(text, card.name, [card.name]), delta
        if "effect" in delta:
            assert texts[delta["clause"]][0] == "effects" and card.clause == delta["clause"], delta
        else:
            assert card.clause == ruleset("first").cards[card.index].clause, delta
    obs = [s.clause for s in _ask("card", name="Observatory", variant="second").steps]
    assert obs[:2] == ["SP-OBS-1", "SP-EDITION-1"]
    mari = [s.clause for s in _ask("card", name="Mariinsky Theater", variant="second").steps]
    assert mari[0] == "SP-MARI-2" and "SP-MARI-1" not in mari
    assert _ask("card", name="Mariinskij Theater").steps[0].clause == "SP-MARI-1"


def test_each_edition_lists_the_clauses_it_plays_by() -> None:
    """SP-VARIANT-1, SP-EDITION-1, SP-MARI-2: the first edition is the catalog (SP-VARIANT-1 alone); the
    second adds the clauses of its delta rows, once each; the variants answer shows the same list."""
    from engine.petersburg.catalog import edition_clauses

    assert edition_clauses("first") == ("SP-VARIANT-1",)
    assert edition_clauses("second") == ("SP-VARIANT-1", "SP-EDITION-1", "SP-MARI-2")
    rows = {row[0]: row[2] for row in _ask("variants", game="petersburg").rows}
    assert rows == {"first": "SP-VARIANT-1", "second": "SP-VARIANT-1, SP-EDITION-1, SP-MARI-2"}
    with pytest.raises(Exception, match="unknown edition"):
        edition_clauses("third")


# --------------------------------------------------------------------------------------------------
# Saint Petersburg: the parameters and the set-ups


def test_the_cost_derivation_cites_the_parameters_clauses() -> None:
    """SP-COST-2 (1 less per identical card owned), SP-COST-3 (1 less from the lower row), SP-COST-6 (never
    below 1): the derivation of a buy cites the clause of each parameter's row of phases.toml, and so does
    the cost answer."""
    from engine.petersburg import GAME, Buy, cost_breakdown
    from engine.petersburg.position import position

    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack"], lower=["Lumberjack"],
                 areas=[["Lumberjack", "Lumberjack", "Lumberjack"], []], money=[25, 25])
    why = GAME.why(s, Buy(0, "Lumberjack", "lower"))
    clauses = [step.clause for step in why.walk()]
    assert {"SP-COST-2", "SP-COST-3", "SP-COST-6"} <= set(clauses)
    b = cost_breakdown(s, 0, "Lumberjack", source="lower")
    assert [r.clause for r in b.reductions] == ["SP-COST-2", "SP-COST-3"]
    assert b.raw < b.minimum == 1 == b.cost
    steps = [step.clause for step in _ask("cost", card="Lumberjack", row="lower",
                                          owns=["Lumberjack", "Lumberjack", "Lumberjack"]).steps]
    assert steps[-1] == "SP-COST-6"


def test_a_full_hand_and_the_refill_cite_the_parameters_clauses() -> None:
    """SP-HAND-2 (a hand holds 3 cards) and SP-REFILL-1 (the rows hold 8 cards): a take with a full hand is
    refused under SP-HAND-2, a position with a fourth card in hand too, and the refill after the aristocrat
    phase is derived under SP-REFILL-1."""
    from engine.petersburg import GAME, Pass, Take
    from engine.petersburg.position import position

    s = position(players=2, phase="worker", turn=0, upper=["Lumberjack"],
                 hands=[["Shepherd", "Shepherd", "Shepherd"], []])
    with pytest.raises(RuleViolation) as err:
        GAME.apply(s, Take(0, "Lumberjack", "upper"))
    assert err.value.clause == "SP-HAND-2"
    assert GAME.why(s, Take(0, "Lumberjack", "upper")).clause == "SP-HAND-2"
    with pytest.raises(PositionError) as bad:
        position(players=2, hands=[["Shepherd"] * 5, []])
    assert bad.value.clause == "SP-HAND-2"
    with pytest.raises(PositionError) as over:
        position(players=2, upper=["Lumberjack"] * 5, lower=["Shepherd"] * 4)
    assert over.value.clause == "SP-REFILL-1"
    state = position(players=2, phase="aristocrat", turn=0, passes=1, upper=[], lower=[])
    clauses = [step.clause for d in GAME.derive(state, Pass(0)) for step in d.walk()]
    assert "SP-REFILL-1" in clauses


@pytest.mark.parametrize(("players", "markers", "clause"), [(1, [0, 0, 0, 1], "SP-SOLO-1"),
                                                            (2, [0, 0, 0, 1], "SP-SETUP-3"),
                                                            (3, [0, 0, 0, 1], "SP-SETUP-3"),
                                                            (4, [0, 0, 1, 2], "SP-SETUP-3")])
def test_start_player_markers_are_refused_under_the_set_up_rows_clause(players: int, markers: list[int],
                                                                      clause: str) -> None:
    """SP-SOLO-1 (the single player holds all four markers) and SP-SETUP-3 (the markers dealt by player
    count): markers a position or an explicit set-up gives that do not match setup.toml's row for the
    player count are refused under that row's clause."""
    from engine.petersburg.position import position
    from engine.petersburg.setup import seeded_setup

    with pytest.raises(PositionError) as err:
        position(players=players, markers=markers)
    assert err.value.clause == clause
    if players > 1:
        from engine.errors import IllegalSetup
        from engine.petersburg import GAME

        setup = seeded_setup(players, seed=1)
        with pytest.raises(IllegalSetup) as bad:
            GAME.new_game(players, setup=type(setup)(stacks=setup.stacks, markers=tuple(markers)))
        assert bad.value.clause == clause
