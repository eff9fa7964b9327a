"""The Saint Petersburg table loaders refuse malformed tables: each check is run on a table edited in memory
(a :class:`~engine.spec.Tables` copy: the file on disk and the shipped rules are untouched) and must raise a
SpecError naming the table."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from typing import Any

import pytest

from engine.errors import SpecError
from engine.spec import Tables

Edit = Callable[[dict[str, Any]], None]
catalog = importlib.import_module("engine.petersburg.catalog")


def loads_with(filename: str, edit: Edit, loader: Callable[[Tables], Any]) -> Any:
    """Run ``loader`` on tables whose ``spec/petersburg/<filename>`` ``edit`` changed; its result."""
    shipped = Tables.shipped("petersburg")
    doc = copy.deepcopy(dict(shipped.doc(filename)))
    edit(doc)
    return loader(shipped.replace(filename, doc, f"{filename}: edited"))


LOADERS: dict[str, Callable[[Tables], Any]] = {
    "_phase_tables": catalog._phase_tables,
    "_setups": catalog._setups,
    "pairings": catalog.build_book,
}


def _set(section: str, index: int, key: str, value: Any) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        doc[section][index][key] = value

    return edit


CASES: dict[str, tuple[str, Edit, str, str]] = {
    "a stack citing no clause": (
        "phases.toml",
        _set("stack", 0, "clause", "SP-NOPE"),
        "_phase_tables",
        "clause",
    ),
    "a set-up citing no clause": ("setup.toml", _set("setup", 1, "clause", "SP-NOPE"), "_setups", "clause"),
    "round_end on the wrong phase": (
        "phases.toml",
        _set("phase", 0, "round_end", True),
        "_phase_tables",
        "round_end on the last",
    ),
    "a pairing on a card that is not a trading card (its row named, counting from 1)": (
        "pairings.toml",
        _set("pairing", 0, "trading", "Lumberjack"),
        "pairings",
        r"\[\[pairing\]\] row 1 \(trading='Lumberjack'\): field 'trading' must name a trading card",
    ),
    "phases out of order": (
        "phases.toml",
        lambda d: d["phase"].reverse(),
        "_phase_tables",
        "expected phases",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_tables_are_refused(case: str) -> None:
    """SP-SETUP-1 / SP-PHASE-1 / SP-TRADE-3: the phase order with the round's end after the trading phase,
    the pairings' trading cards and every row's clause reference are checked when the tables load — a
    malformed table is a SpecError, never a silently different game."""
    filename, edit, loader, message = CASES[case]
    with pytest.raises(SpecError, match=message):
        loads_with(filename, edit, LOADERS[loader])


def test_the_unedited_tables_load() -> None:
    """The same loaders accept the shipped tables (so the refusals above are about the edits)."""
    for loader in ("_phase_tables", "_setups", "pairings"):
        assert LOADERS[loader](Tables.shipped("petersburg"))


def _cards_up_to(n: int) -> Edit:
    """The cards table grown to ``n`` rows by copies of its first row under new names."""

    def edit(doc: dict[str, Any]) -> None:
        first = doc["card"][0]
        doc["card"].extend({**first, "name": f"Extra {i}"} for i in range(n - len(doc["card"])))

    return edit


def test_a_catalog_beyond_the_action_keys_is_refused_at_its_first_row_beyond() -> None:
    """SP-CARD-5: the interpreter keys a buy or a play by its card's kind and the displaced kind + 1 in
    KIND_BITS bits each, so a catalog holds at most MAX_KINDS (63) kinds: the cards table refuses its 64th
    row by name, and accepts exactly 63."""
    bits, most = catalog.KIND_BITS, catalog.MAX_KINDS
    assert most == (1 << bits) - 1 == 63
    with pytest.raises(SpecError, match=r"row 'Extra 14': card kind 63 is one too"):
        loads_with("cards.toml", _cards_up_to(most + 1), catalog._base_rows)
    assert len(loads_with("cards.toml", _cards_up_to(most), catalog._base_rows)) == most


def test_the_action_keys_never_collide_within_the_bound() -> None:
    """SP-TURN-1: every buy and play the bound allows (any kind, any source, any displaced kind or none) has
    its own key, below the key spaces of the other actions; and legal_actions interns each legal buy and
    play under exactly that key."""
    from engine.petersburg import GAME, Buy, Play
    from engine.petersburg.costs import HAND, SRC
    from engine.petersburg.legal import action_key

    most = catalog.MAX_KINDS
    keys = {action_key(k, src, t) for k in range(most) for src in range(4) for t in range(-1, most)}
    assert len(keys) == most * 4 * (most + 1)
    assert max(keys) < 1 << 20
    s = GAME.new_game(2, seed=3)
    for _ in range(60):  # a game's first turns, buying whenever it can
        p = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, p)
        rs = s.rules
        for a in legal:
            if isinstance(a, Buy | Play):
                src = HAND if isinstance(a, Play) else SRC[a.source]
                k = rs.kind[a.card]  # without a displaced card, the key's default (none)
                key = action_key(k, src) if a.displace is None else action_key(k, src, rs.kind[a.displace])
                assert rs.cache[p][key] is a
        buys = [a for a in legal if isinstance(a, Buy)]
        s = GAME.apply(s, buys[0] if buys else legal[0])
