"""Saint Petersburg rules and tables the whole-set mutation run found unpinned (the 6 nimmt! ones and the
first Saint Petersburg ones are in ``test_strength_whole.py``): each test kills mutants that survived the
tests selected for them, and says which rule it pins."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SP_GAME = "petersburg"

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


_SP_LINE = [
    "first", "1", "worker", "0", "0", "0/0/1/1", "Lumberjack", "Market", "-", "Author", "25:0:-:-:-",
    "25:0:-:-:-",
]


def test_a_bad_petersburg_notation_token_is_named_by_its_number() -> None:
    """docs/positions.md: a malformed token of a Saint Petersburg position line is refused naming its field
    and its number, counted from 1 as the user reads the line (the phase's detail at token 3, the stacks at
    token 9, a card code where it stands)."""
    import pytest

    from engine.errors import InputError
    from engine.petersburg import GAME

    cases = [
        (1, "x", "round (token 2 'x'): expected a number"),
        (2, "pub:x", "phase (token 3 'pub:x'): expected a number"),
        (2, "building:3", "phase (token 3 'building:3'): only pub:SEATS"),
        (2, "observatory:Nobody", "phase (token 3 'observatory:Nobody'): no Saint Petersburg card"),
        (3, "x", "turn (token 4 'x'): expected a number"),
        (4, "x", "passes (token 5 'x'): expected a number"),
        (5, "0/0/1/x", "markers (token 6 '0/0/1/x'): expected a number"),
        (6, "Nobody", "upper (token 7 'Nobody'): no Saint Petersburg card"),
        (7, "Nobody", "lower (token 8 'Nobody'): no Saint Petersburg card"),
        (8, "x/x", "stacks (token 9 'x/x'): expected 4 stacks"),
        (9, "Nobody", "discard (token 10 'Nobody'): no Saint Petersburg card"),
    ]
    for index, value, message in cases:
        tokens = list(_SP_LINE)
        tokens[index] = value
        with pytest.raises(InputError) as err:
            GAME.from_notation(" ".join(tokens))
        assert str(err.value).startswith(message), str(err.value)


def test_interned_actions_of_different_kinds_never_share_a_key() -> None:
    """SP-TURN-1, SP-OBS-4, SP-PUB-1: the legal actions are interned per seat by key; after seat 0 has been
    offered the discard of a drawn Lumberjack (kind 0) and a Pub purchase of 0 VP, its pass is still a
    pass (the key spaces of passes, discards and Pub purchases do not overlap)."""
    from engine.petersburg import GAME, Discard, Observe, Pass, PubBuy
    from engine.petersburg.testing import arrange

    state = arrange(GAME.new_game(2, seed=1), turn=0, upper=[], lower=[], phase="building",
                    areas={0: ["Observatory", "Pub"]},
                    stacks={"worker": ["Lumberjack", "Lumberjack", "Gold Miner"]}, money={0: 20})
    drawn = GAME.apply(state, Observe(0, "worker"))
    assert Discard(0, "Lumberjack") in GAME.legal_actions(drawn, 0)
    later = GAME.apply(GAME.apply(drawn, Discard(0, "Lumberjack")), Pass(1))
    assert GAME.legal_actions(later, 0)[0] == Pass(0)
    pub = GAME.apply(later, Pass(0))
    while not pub.pub_queue:
        pub = GAME.apply(pub, GAME.legal_actions(pub)[0])
    assert PubBuy(0, 0) in GAME.legal_actions(pub, 0)
    after = GAME.apply(pub, PubBuy(0, 0))
    while after.turn != 0 or after.pub_queue:
        after = GAME.apply(after, GAME.legal_actions(after)[0])
    assert Pass(0) in GAME.legal_actions(after, 0)
    assert all(type(a) is not PubBuy for a in GAME.legal_actions(after, 0))


def _loaders() -> list[tuple[str, str, str, object]]:
    import importlib

    catalog = importlib.import_module("engine.petersburg.catalog")  # the package has a function of that name
    rules = importlib.import_module("engine.take6.rules")

    return [
        ("take6", "game.toml", "game", rules._load_game_info),
        ("take6", "bullheads.toml", "rule", lambda t: rules._load_bullheads(t, 1, 104, None)),
        ("take6", "variants.toml", "variant", rules._load_variants),
        ("take6", "options.toml", "option", lambda t: rules._load_options(t, rules.VARIANTS)),
        ("take6", "setup.toml", "setup", rules._load_setups),
        ("petersburg", "cards.toml", "card", catalog._base_rows),
        ("petersburg", "editions.toml", "edition", catalog._editions),
        ("petersburg", "editions.toml", "delta", catalog._editions),
        ("petersburg", "phases.toml", "stack", catalog._phase_tables),
        ("petersburg", "phases.toml", "phase", catalog._phase_tables),
        ("petersburg", "phases.toml", "param", catalog._phase_tables),
        ("petersburg", "setup.toml", "setup", catalog._setups),
        ("petersburg", "scoring.toml", "variety", catalog._final),
        ("petersburg", "scoring.toml", "final", catalog._final),
        ("petersburg", "game.toml", "game", catalog._game_tables),
        ("petersburg", "game.toml", "variant", catalog._game_tables),
        ("petersburg", "game.toml", "option", catalog._game_tables),
        ("petersburg", "pairings.toml", "colour_rule", catalog.build_book),
        ("petersburg", "pairings.toml", "pairing", catalog.build_book),
    ]


def _cite_nothing(rows: list[dict[str, Any]]) -> None:
    """Make the first row that cites a clause cite one that does not exist."""
    row = next(r for r in rows if "clause" in r or "clauses" in r)
    if "clause" in row:
        row["clause"] = "XX-NOPE-1"
    else:
        row["clauses"] = ["XX-NOPE-1"]


def test_every_table_refuses_a_row_citing_an_unknown_clause() -> None:
    """Every rule table's clause fields are checked against the clause list: a row of any table whose
    ``clause`` (or ``clauses``) names no clause is refused at load, naming the field."""
    import pytest

    from engine.errors import SpecError

    for game, filename, array, loader in _loaders():
        with pytest.raises(SpecError, match="names unknown clause 'XX-NOPE-1'"):
            _load_edited(game, filename, array, loader, _cite_nothing)


def _load_edited(game: str, filename: str, array: str, loader: Any, edit: Any) -> None:
    """Run a table loader on tables whose ``spec/<game>/<filename>`` ``[[array]]`` rows ``edit`` changed
    (a :class:`~engine.spec.Tables` copy: the file and the shipped rules are untouched)."""
    import copy

    from engine.spec import Tables

    shipped = Tables.shipped(game)
    doc = copy.deepcopy(dict(shipped.doc(filename)))
    edit(doc[array])
    loader(shipped.replace(filename, doc, f"{filename}: edited"))


def test_the_petersburg_tables_accept_zero_where_zero_is_a_value() -> None:
    """SP-CARD-1, SP-SETUP-1, SP-EDITION-1: a card may cost, pay and score 0 (the bound of those fields is 0,
    not 1), an edition's delta may set a cost of 0, and a set-up may give 0 roubles or lay 0 first workers;
    -1 is refused naming the field."""
    import importlib

    import pytest

    from engine.errors import SpecError

    catalog = importlib.import_module("engine.petersburg.catalog")
    cases = [("cards.toml", "card", catalog._base_rows, f) for f in ("cost", "roubles", "vp")]
    cases += [("setup.toml", "setup", catalog._setups, f) for f in ("money", "first_workers")]
    cases += [("editions.toml", "delta", catalog._editions, "cost")]  # an edition may make a card free
    for filename, array, loader, field in cases:
        _load_edited(SP_GAME, filename, array, loader, lambda rows, f=field: rows[0].update({f: 0}))
        with pytest.raises(SpecError, match=f"field '{field}': must be >= 0"):
            _load_edited(SP_GAME, filename, array, loader, lambda rows, f=field: rows[0].update({f: -1}))


def test_reducers_take_off_their_colour_including_trading_cards_unless_the_option_says_not() -> None:
    """SP-COST-4, SP-COST-5: a reducer (the Carpenter Workshop) takes a rouble off the cards of its colour,
    trading cards too by default; with ``trading_discount=false`` only off the plain cards; never off
    another colour."""
    from engine.petersburg.ruleset import ruleset

    for options, trading in ((None, True), ({"trading_discount": False}, False)):
        rs = ruleset(None, options)
        workshop = rs.kind["Carpenter Workshop"]
        reduced = {
            rs.names[k] for k in range(len(rs.names)) if any(r == workshop for r, _ in rs.reducers_for[k])
        }
        assert "Market" in reduced and ("Bank" in reduced) is trading
        assert all(rs.colour[rs.kind[name]] == rs.colour[rs.kind["Market"]] for name in reduced)
        assert "Lumberjack" not in reduced and "Author" not in reduced


def test_pub_decisions_go_round_from_the_marker_and_say_what_was_paid() -> None:
    """SP-PUB-2, SP-PUB-1: with four players and the building marker at seat 1, the Pub owners at seats 0
    and 2 decide in seat order from the marker: seat 2, then seat 0; a purchase of 2 VP is derived with the
    4 roubles it cost."""
    from engine.petersburg import GAME, Pass, PubBuy
    from engine.petersburg.testing import arrange

    state = arrange(GAME.new_game(4, seed=1), turn=1, phase="building", upper=[], lower=[],
                    areas={0: ["Pub"], 2: ["Pub"]}, money={0: 8, 1: 8, 2: 8, 3: 8}, markers=(0, 1, 2, 3))
    while not state.pub_queue:
        state = GAME.apply(state, Pass(state.turn))
    assert state.pub_queue == (2, 0)
    steps = [s for st in GAME.derive(state, PubBuy(2, 2)) for s in st.walk()]
    assert [s.data for s in steps if s.says == "pub-bought"] == [{"seat": 2, "vp": 2, "paid": 4}]


def test_a_discarded_draw_passes_the_turn_to_the_next_seat() -> None:
    """SP-OBS-6, SP-TURN-2: with three players, seat 0's discard of its Observatory draw ends its turn: seat
    1 acts next."""
    from engine.petersburg import GAME, Discard, Observe
    from engine.petersburg.testing import arrange

    state = arrange(GAME.new_game(3, seed=1), turn=0, upper=[], lower=[], phase="building",
                    areas={0: ["Observatory"]}, stacks={"worker": ["Lumberjack", "Lumberjack", "Gold Miner"]},
                    money={0: 20})
    after = GAME.apply(GAME.apply(state, Observe(0, "worker")), Discard(0, "Lumberjack"))
    assert after.turn == 1 and after.drawn == -1 and after.discard[-1] == state.rules.kind["Lumberjack"]


def test_each_seed_describes_the_games_whose_clauses_quote_it() -> None:
    """spec/seeds.toml: a seed's ``games`` are exactly the games whose clauses cite it (what a search of the
    seeds filters by), so a seed said to describe a game none of whose rules quote it is a wrong entry."""
    from collections import defaultdict

    import engine.spec

    quoted: dict[str, set[str]] = defaultdict(set)
    for clause in engine.spec.all_clauses().values():
        for citation in clause.cites:
            quoted[citation.seed].add(clause.game)
    for key, seed in engine.spec.seed_index().items():
        assert set(seed.games) == quoted[key], key


def test_the_special_cards_do_what_the_card_facts_say() -> None:
    """SP-POTJ-1, SP-PUB-1, SP-WAREHOUSE-1, SP-OBS-1, SP-COST-4, SP-MARI-1, SP-TAX-1 (../shared/reference card
    facts): Potjomkin's Village is worth 6 when covered; a Pub sells VP at 2 R each, up to 5; the Warehouse
    holds 4 cards; the Observatory is used in the building phase; the Carpenter Workshop takes 1 R off blue
    cards and the Gold Smelter off red ones; the Mariinskij Theater pays 1 R per red card and the Tax Man 1 R
    per green card, neither any VP."""
    from engine.petersburg.legal import hand_limit, pub_capacity
    from engine.petersburg.ruleset import ruleset

    rs = ruleset()
    kind = rs.kind
    assert rs.dval[kind["Potjomkin's Village"]] == 6
    assert (rs.pub_rate[kind["Pub"]], rs.pub_max[kind["Pub"]]) == (2, 5)
    assert pub_capacity(rs, (kind["Pub"],), 30) == 5 and pub_capacity(rs, (kind["Pub"],), 9) == 4
    assert hand_limit(rs, (kind["Warehouse"],)) == 4 and hand_limit(rs, ()) == 3
    assert rs.obs_phase[kind["Observatory"]] == 1  # the building phase
    samples = (("green", "Lumberjack"), ("blue", "Market"), ("red", "Author"))
    colour = {c: rs.colour[kind[n]] for c, n in samples}
    for reducer, col in (("Carpenter Workshop", "blue"), ("Gold Smelter", "red")):
        reduced = {rs.colour[k] for k in range(len(rs.names)) if (kind[reducer], 1) in rs.reducers_for[k]}
        assert reduced == {colour[col]}, reducer
    assert rs.per_card[kind["Mariinskij Theater"]] == (colour["red"], 1, 0)
    assert rs.per_card[kind["Tax Man"]] == (colour["green"], 1, 0)


def test_the_final_scoring_rows_cite_the_clauses_the_scoring_derives_from() -> None:
    """SP-END-4..7: the rows of spec/petersburg/scoring.toml cite the clauses the final scoring's
    derivation names: the variety bonus SP-END-4 (its last row, the cap, SP-END-5), the roubles SP-END-6,
    the hand SP-END-7."""
    doc = tomllib.loads((ROOT / "spec/petersburg/scoring.toml").read_text(encoding="utf-8"))
    variety = [r["clause"] for r in doc["variety"]]
    assert variety == ["SP-END-4"] * (len(variety) - 1) + ["SP-END-5"]
    assert {r["name"]: r["clause"] for r in doc["final"]} == {
        "roubles_per_vp": "SP-END-6", "vp_per_hand_card": "SP-END-7", "variety_colour": "SP-END-4"
    }


def _delta(**fields: Any) -> Any:
    def edit(rows: list[dict[str, Any]]) -> None:
        rows[0].clear()
        rows[0].update(fields)

    return edit


def test_the_edition_set_up_and_variety_tables_check_their_rows() -> None:
    """SP-EDITION-1, SP-SETUP-3, SP-END-4: a delta row must change something (it is named by its row
    number, counted from 1) and a delta's effect is checked as editions.toml's; a set-up's markers give
    each seat at least one, one entry per seat; the variety rows are numbered 0 to their count - 1."""
    import importlib

    import pytest

    from engine.errors import SpecError

    catalog = importlib.import_module("engine.petersburg.catalog")
    with pytest.raises(SpecError, match=r"\[\[delta\]\] row 1: changes nothing"):
        _load_edited(SP_GAME, "editions.toml", "delta", catalog._editions,
                     _delta(edition="second", card="Observatory", clause="SP-EDITION-1"))
    with pytest.raises(SpecError, match=r"petersburg/editions\.toml"):
        _load_edited(SP_GAME, "editions.toml", "delta", catalog.build_book,
                     _delta(edition="second", card="Observatory", effect={"kind": "nope"},
                            clause="SP-EDITION-1"))
    for markers in ([4], [0, 4]):
        with pytest.raises(SpecError, match="field 'markers' must give each seat >= 1 marker"):
            _load_edited(SP_GAME, "setup.toml", "setup", catalog._setups,
                         lambda rows, m=markers: rows[1].update({"markers": m}))
    with pytest.raises(SpecError, match=r"rows must be 0\.\.10"):
        _load_edited(SP_GAME, "scoring.toml", "variety", catalog._final,
                     lambda rows: rows[-1].update({"distinct": len(rows)}))
