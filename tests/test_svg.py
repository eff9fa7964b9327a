"""SVG pictures of positions (``engine.svg``, ``arbiter show``): well-formed XML holding the position's facts,
deterministic, and with a viewer, nothing that seat may not see."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.game import get_game
from engine.svg import board_svg, game_of, petersburg_svg, repr_svg, take6_svg

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"


def _play(game: str, players: int, seed: int, until: Any) -> Any:
    g = get_game(game)
    state = g.new_game(players, seed=seed)
    while not until(state):
        p = g.to_act(state)[0]
        actions = g.legal_actions(state, p)
        state = g.apply(state, actions[len(actions) // 2])
    return state


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text")]


def _data(svg: str, cls: str, attr: str) -> list[str]:
    root = ET.fromstring(svg)
    return [el.get(attr, "") for el in root.iter(f"{NS}g") if cls in (el.get("class") or "").split()]


def _cards_in_groups(svg: str, cls: str) -> list[int]:
    root = ET.fromstring(svg)
    found: list[int] = []
    for group in root.iter(f"{NS}g"):
        if group.get("class") == cls:
            found.extend(
                int(c.get("data-card", "0")) for c in group.iter(f"{NS}g") if c.get("class") == "card"
            )
    return found


def test_take6_table_shows_rows_totals_and_penalties() -> None:
    """Every row card appears with its bullheads (T6-BULL-1), each row's total, and each player's bullheads
    taken (T6-PILE-1); the document parses as SVG."""
    from engine.take6 import bullheads

    state = _play("take6", 3, 2, lambda s: s.round == 1 and len(s.hands[0]) <= 6)
    svg = take6_svg(state)
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    texts = _texts(svg)
    for i, row in enumerate(state.rows):
        total = sum(bullheads(c) for c in row)
        assert f"Row {i}" in texts
        assert any(t.startswith(f"{total} bullhead") for t in texts)
    assert _cards_in_groups(svg, "row") == [c for r in state.rows for c in r]
    heads = {
        int(c): int(h)
        for c, h in zip(_data(svg, "card", "data-card"), _data(svg, "card", "data-bullheads"), strict=True)
    }
    assert all(heads[c] == bullheads(c) for c in heads)
    for taken in state.penalties:
        assert f"{taken} bullhead{'s' if taken != 1 else ''} taken" in texts


def test_take6_choose_phase_shows_the_pending_card_and_the_row_choice() -> None:
    """In the choose phase the waiting cards are drawn lowest first and the chooser is told each row's cost
    (T6-PLACE-3)."""
    state = _play("take6", 3, 1, lambda s: s.phase == "choose")
    svg = take6_svg(state)
    card, player = state.pending[0]
    texts = _texts(svg)
    assert (
        f"P{player} chooses a row for {card}: it fits no row (T6-PLACE-3); the card starts the row taken."
        in texts
    )
    assert [c for c, _ in state.pending] == [
        int(c) for c in _data(svg, "card", "data-card")[-len(state.pending) :]
    ]
    assert sum(1 for t in texts if t.startswith(f"P{player} takes ")) == len(state.rows)


def test_take6_viewer_sees_only_its_hand_and_selection() -> None:
    """With a viewer the picture holds the viewer's hand and selection, never another's (T6-SELECT-2)."""
    g = get_game("take6")
    state = g.new_game(3, seed=6)
    state = g.apply(state, g.legal_actions(state, 1)[0])  # P1 selects, face down
    secret = state.selected[1]
    svg = take6_svg(state, viewer=0)
    shown = {int(c) for c in _data(svg, "card", "data-card")}
    table = {c for r in state.rows for c in r}
    assert shown == table | set(state.hands[0])
    assert secret not in shown and f"selected {secret}" not in _texts(svg)
    assert "selected (face down)" in _texts(svg)
    full = take6_svg(state, hand=1)
    assert f"selected {secret}" in _texts(full)
    assert set(state.hands[1]) <= {int(c) for c in _data(full, "card", "data-card")}


def test_take6_hand_of_another_seat_is_refused_for_a_viewer() -> None:
    """Asking a viewer's picture for another seat's hand is an InputError naming ``hand``."""
    from engine.errors import InputError

    state = get_game("take6").new_game(2, seed=1)
    with pytest.raises(InputError, match=r"^hand: "):
        take6_svg(state, viewer=0, hand=1)
    with pytest.raises(InputError, match=r"^viewer: "):
        take6_svg(state, viewer=5)


def test_petersburg_board_shows_rows_costs_areas_and_markers() -> None:
    """Each row card is drawn with the effective cost the engine charges (cost_breakdown: SP-COST-1..7, the
    lower row's discount SP-COST-3), each area card by colour, VP, money, phase and start markers
    (SP-PHASE-2) and the stacks left."""
    from engine.petersburg import cost_breakdown, ruleset

    state = _play("petersburg", 3, 1, lambda s: sum(len(a) for a in s.areas) >= 9 and len(s.lower) > 0)
    g = get_game("petersburg")
    full = g.state_to_json(state)
    svg = petersburg_svg(state, costs_for=1)
    trading = {c.name for c in ruleset(full["variant"], full["options"]).cards if c.trading}
    ET.fromstring(svg)
    texts = _texts(svg)
    root = ET.fromstring(svg)
    for group in root.iter(f"{NS}g"):
        if group.get("class") != "sp-card":
            continue
        name, source = group.get("data-card", ""), group.get("data-source", "")
        inner = ["".join(t.itertext()) for t in group.iter(f"{NS}text")]
        cost = [t for t in inner if t.startswith("P1 pays ")]
        if name not in trading:
            assert cost == [f"P1 pays {cost_breakdown(state, 1, name, source=source).cost}"], name
    shown = _data(svg, "sp-card", "data-card")
    assert shown == full["upper"] + full["lower"]
    for p in range(3):
        assert f"{full['vp'][p]} VP" in texts and f"{full['money'][p]} roubles" in texts
        for name in full["areas"][p]:
            assert any(t.startswith(name) for t in texts)
    for phase, seat in full["markers"].items():
        assert phase in texts and f"start: P{seat}" in texts
        assert f"stack {len(full['stacks'][phase])}" in texts
    assert _data(svg, "current", "data-phase") == [full["phase"]]


def test_petersburg_viewer_hides_other_money_and_hands() -> None:
    """With a viewer only that seat's roubles and hand are drawn (SP-SETUP-5); others' hand sizes stay."""
    state = _play("petersburg", 3, 1, lambda s: all(len(h) > 0 for h in s.hands[:2]))
    g = get_game("petersburg")
    full = g.state_to_json(state)
    svg = petersburg_svg(state, viewer=0)
    texts = _texts(svg)
    assert sum(1 for t in texts if t.endswith(" roubles")) == 1
    assert f"{full['money'][0]} roubles" in texts
    hand_lines = [t for t in texts if t.startswith("hand: ")]
    assert hand_lines == ["hand: " + ", ".join(full["hands"][0])]
    for p in range(3):
        size = len(full["hands"][p])
        assert f"{size} card{'s' if size != 1 else ''} in hand" in texts


def test_pictures_are_deterministic_and_dispatch_by_game() -> None:
    """The same position gives the same bytes; ``repr_svg`` finds the game of a state."""
    for game in ("take6", "petersburg"):
        a = get_game(game).new_game(4, seed=9)
        b = get_game(game).new_game(4, seed=9)
        assert repr_svg(a) == repr_svg(b) == board_svg(game, a)
        assert game_of(a) == game


def test_show_writes_an_svg_file(tmp_path: Path) -> None:
    """``arbiter show GAME --position @FILE -o FILE.svg`` writes the picture; ``--record`` replays one."""
    out = tmp_path / "board.svg"
    state = ROOT / "docs" / "examples" / "petersburg-gold-smelter.json"
    assert main(["show", "petersburg", "--position", f"@{state}", "--viewer", "0", "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert "Gold Smelter" in _data(svg, "sp-card", "data-card")
    assert "P0 pays 2" in _texts(svg)
    out2 = tmp_path / "table.svg"
    record = ROOT / "docs" / "examples" / "take6-record.jsonl"
    assert main(["show", "take6", "--record", str(record), "--upto", "3", "-o", str(out2)]) == 0
    ET.fromstring(out2.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["show", "take6", "--position", '{"game": "take6"}'], "position: variant"),
        (["show", "take6", "--position", "@/no/such.json"], "cannot read"),
        (["show", "take6"], "--position/--record"),
        (["show", "petersburg", "--position", "@docs/examples/petersburg-state.json", "--hand", "0"], "hand"),
        (["show", "take6", "--record", "docs/examples/take6-record.jsonl", "--viewer", "7"], "viewer"),
    ],
)
def test_show_bad_input_is_one_line_and_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad input to ``arbiter show`` is one error line naming the field, exit code 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("arbiter: error: ") and named in err and err.count("\n") == 1


def test_position_loader_reads_inline_json_and_files(tmp_path: Path) -> None:
    """``load_position`` reads the JSON state inline or from @FILE, through engine.jsonio's limits."""
    from engine.errors import InputError
    from engine.positions import load_position_arg as load_position

    g = get_game("take6")
    state = g.new_game(2, seed=3)
    text = json.dumps(g.state_to_json(state))
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    assert load_position("take6", text) == load_position("take6", f"@{path}") == state
    with pytest.raises(InputError, match="duplicate key"):
        load_position("take6", '{"game": "take6", "game": "take6"}')


@pytest.mark.parametrize(
    ("game", "variant"),
    [("take6", v) for v in ("standard", "tactics", "logic", "professional", "kids", "countdown")]
    + [("petersburg", v) for v in ("first", "second")],
)
def test_every_variant_draws_for_every_viewer(game: str, variant: str) -> None:
    """Every variant's positions draw as well-formed SVG, for the whole table and for each seat, through
    the first steps of a game (the picture never fails where the engine does not)."""
    g = get_game(game)
    state = g.new_game(3, seed=2, variant=variant)
    for _ in range(25):
        if g.is_terminal(state):
            break
        for viewer in (None, 0, 1, 2):
            ET.fromstring(board_svg(game, state, viewer=viewer))
        p = g.to_act(state)[0]
        state = g.apply(state, g.legal_actions(state, p)[0])
