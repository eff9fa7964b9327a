"""The one registration of the games (engine.game.GAME_PACKAGES) and the facets the other layers read:
every registered package exports what the registry promises, and no other module lists the games."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

from engine.game import GAME_PACKAGES, Facets, facet_module, facets, game_names, game_of, get_game
from engine.spec import clause_games, clause_prefix

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def test_every_registered_package_exports_its_game_and_facets() -> None:
    """Each package of GAME_PACKAGES exports GAME (named as its registry name) and a Facets value."""
    assert game_names() == tuple(p.rsplit(".", 1)[-1] for p in GAME_PACKAGES)
    for name in game_names():
        assert get_game(name).name == name
        assert isinstance(facets(name), Facets)


def test_every_facet_module_exports_what_the_layers_read() -> None:
    """The kit exports KIT for the game, the fuzzing module SETUPS, the drawing draw(), and importing the
    questions module registers the game's explainer."""
    from engine.query.explain import EXPLAINERS

    for name in game_names():
        assert facet_module(name, "kit").KIT.name == name
        assert hasattr(facet_module(name, "fuzz_setups").SETUPS, "draw")
        assert callable(facet_module(name, "drawing").draw)
        facet_module(name, "questions")
        assert name in EXPLAINERS


def test_a_state_knows_its_game_and_the_protocol_gives_its_parameters() -> None:
    """game_of finds a state's game from its package; variant, options, players and seed come from the
    Game protocol (no getattr, no JSON round trip)."""
    for name in game_names():
        game = get_game(name)
        players = max(2, game.min_players)
        state = game.new_game(players, seed=3, variant=game.variants[-1])
        assert game_of(state) == name
        assert game.variant_of(state) == game.variants[-1]
        assert game.players_of(state) == players
        assert set(game.options_of(state)) == set(game.state_to_json(state)["options"])
        assert game.seed_of(game.with_seed(state, 5)) in (5, None)


def test_clause_prefixes_are_data_of_the_clause_tables() -> None:
    """Every registered game has a clause table, and its prefix is read from it."""
    assert set(game_names()) <= set(clause_games())
    assert {clause_prefix(g) for g in game_names()} == {"T6", "SP"}


def _lists_every_game(tree: ast.AST) -> list[int]:
    names = set(game_names())
    lines = []
    exports = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)
    }
    for node in ast.walk(tree):
        if id(node) in exports:
            continue
        items: list[ast.expr | None] = []
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        found = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
        if names <= found and isinstance(node, ast.expr):
            lines.append(node.lineno)
    return lines


def test_no_module_lists_the_games_one_by_one() -> None:
    """Outside engine/game.py no engine module holds a tuple, list, set or dict naming every game: the
    other layers read the registry (DEVELOPERS.md: a game is registered in one place)."""
    offenders = {}
    for path in ENGINE.rglob("*.py"):
        lines = _lists_every_game(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            offenders[str(path.relative_to(ENGINE))] = lines
    assert offenders == {}


def test_the_listing_check_finds_a_list_of_games() -> None:
    """The check above can fail: a dict keyed by both games is found."""
    assert _lists_every_game(ast.parse('X = {"take6": 1, "petersburg": 2}')) == [1]


def test_import_engine_loads_no_layer_above_the_rules() -> None:
    """`import engine` loads neither the pictures nor any facet module of a higher layer."""
    code = (
        "import sys, engine; bad = [m for m in sys.modules if m.startswith(('engine.svg', "
        "'engine.conformance', 'engine.query', 'engine.assistant', 'engine.envs')) "
        "or m.endswith('.drawing')]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_new_package_in_the_registry_is_all_a_game_needs() -> None:
    """Registering a package is what makes a game known: get_game finds exactly the listed packages."""
    for package in GAME_PACKAGES:
        module = importlib.import_module(package)
        assert get_game(package.rsplit(".", 1)[-1]) is module.GAME
