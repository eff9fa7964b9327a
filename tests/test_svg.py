"""SVG pictures of positions (``engine.svg``, ``arbiter show``): well-formed XML holding the position's facts,
deterministic, and with a viewer, nothing that seat may not see."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.game import get_game
from engine.petersburg.drawing import petersburg_svg
from engine.svg import board_svg, game_of, repr_svg
from engine.take6.drawing import take6_svg

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
    assert "6th" in texts and "takes" in texts  # the dashed slot of the card that takes a row (T6-PLACE-2)


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
        money = full["money"][p]
        assert f"{full['vp'][p]} VP" in texts and f"{money} rouble{'s' if money != 1 else ''}" in texts
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
    assert sum(1 for t in texts if t.endswith((" roubles", " rouble"))) == 1
    money = full["money"][0]
    assert f"{money} rouble{'s' if money != 1 else ''}" in texts
    root = ET.fromstring(svg)
    hand_lines = [
        "".join(t.itertext()) for t in root.iter(f"{NS}text") if "hand" in (t.get("class") or "").split()
    ]
    assert " ".join(hand_lines) == "hand: " + ", ".join(full["hands"][0])
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


# --------------------------------------------------------------------------------------------------
# Text fits: every text measured (DejaVu Sans metrics, engine.svg.text_width) against its card, its
# panel, the picture, and every other text.

ASCENT, DESCENT = 0.76, 0.24  # of the font size, above and below the baseline (DejaVu Sans' glyph ink)


Box = tuple[float, float, float, float]


def _boxes(svg: str) -> list[tuple[str, Box, Box]]:
    """(text, its box, the box of the card or panel it is drawn on, or the picture's) for every text."""
    from engine.svg import text_width

    root = ET.fromstring(svg)
    picture = (0.0, 0.0, float(root.get("width", 0)), float(root.get("height", 0)))
    out = []

    def walk(node: ET.Element, frame: Box, dx: float = 0.0, dy: float = 0.0) -> None:
        cls = (node.get("class") or "").split()
        moved = re.fullmatch(r"translate\((-?[\d.]+),(-?[\d.]+)\)", node.get("transform", "translate(0,0)"))
        assert moved is not None, node.get("transform")  # a group is only ever moved
        dx, dy = dx + float(moved.group(1)), dy + float(moved.group(2))
        if node.tag == f"{NS}g" and {"card", "sp-card", "player", "result"} & set(cls):
            first = next(iter(node), None)
            if first is not None and first.tag == f"{NS}rect":  # the card's face, the panel's frame
                x, y, w, h = (float(first.get(k, 0)) for k in ("x", "y", "width", "height"))
                frame = (dx + x, dy + y, dx + x + w, dy + y + h)
        for child in node:
            if child.tag == f"{NS}text":
                text = "".join(child.itertext())
                size = float(child.get("font-size", 12))
                w = text_width(text, size, child.get("font-weight", "normal"))
                x, y = dx + float(child.get("x", 0)), dy + float(child.get("y", 0))
                left = {"start": x, "middle": x - w / 2, "end": x - w}[child.get("text-anchor", "start")]
                box = (left, y - ASCENT * size, left + w, y + DESCENT * size)
                seat_label = "seat" in (child.get("class") or "").split()
                out.append((text, box, picture if seat_label else frame))
            else:
                walk(child, frame, dx, dy)

    walk(root, picture)
    return out


def _sample_pictures() -> list[str]:
    """Pictures of many positions: every variant, 2 to 10 players (6 nimmt!) and 2 to 4 (Saint
    Petersburg), each after a spread of steps of a random game, for the table and for seat 0."""
    import random

    out = []
    for game, variants, counts in (
        ("take6", ("standard", "tactics", "logic", "professional", "kids", "countdown"), (2, 5, 10)),
        ("petersburg", ("first", "second"), (2, 4)),
    ):
        g = get_game(game)
        for variant in variants:
            for players in counts:
                if game == "take6" and variant == "professional" and players > 6:
                    continue
                try:
                    state = g.new_game(players, seed=players, variant=variant)
                except Exception:  # a player count the variant refuses (T6-SETUP-1)
                    continue
                rng = random.Random(players)
                for step in range(400):
                    if step % 23 == 0 or g.state_to_json(state)["phase"] == "choose":
                        for viewer in (None, 0):
                            out.append(board_svg(game, state, viewer=viewer))
                    if g.is_terminal(state):
                        break
                    p = g.to_act(state)[0]
                    state = g.apply(state, rng.choice(g.legal_actions(state, p)))
                out.append(board_svg(game, state))
    return out


@pytest.fixture(scope="module")
def pictures() -> list[str]:
    return _sample_pictures()


def test_every_text_fits_its_card_panel_and_picture(pictures: list[str]) -> None:
    """Each text, measured with the font's advance widths, lies inside the card or panel it is drawn on
    (2 px from its edges) and inside the picture: no card name touches its card's edges (Customs House)."""
    bad = set()
    for svg in pictures:
        for text, (x0, y0, x1, y1), (fx0, fy0, fx1, fy1) in _boxes(svg):
            if x0 < fx0 + 2 or x1 > fx1 - 2 or y0 < fy0 or y1 > fy1:
                bad.add((text, round(x1 - x0), round(fx1 - fx0)))
    assert not bad, sorted(bad)[:10]


def test_no_two_texts_overlap(pictures: list[str]) -> None:
    """No two texts of a picture overlap: the seat labels under the revealed cards clear the choose
    phase's caption, the title clears who is to act."""
    bad = set()
    for svg in pictures:
        boxes = _boxes(svg)
        for i, (ta, a, _) in enumerate(boxes):
            for tb, b, _ in boxes[i + 1 :]:
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    bad.add((ta, tb))
    assert not bad, sorted(bad)[:10]


def test_small_print_is_readable(pictures: list[str]) -> None:
    """Text is at least 8 px, and the label of the slot that takes a row at least 12 px (T6-PLACE-2)."""
    for svg in pictures[:40]:
        root = ET.fromstring(svg)
        for t in root.iter(f"{NS}text"):
            assert float(t.get("font-size", 12)) >= 6.5, "".join(t.itertext())
        for slot in root.iter(f"{NS}g"):
            if "taker" in (slot.get("class") or "").split():
                assert min(float(t.get("font-size", 0)) for t in slot.iter(f"{NS}text")) >= 12


def test_counts_agree_with_their_nouns(pictures: list[str]) -> None:
    """``1 rouble``, ``1 card``, ``1 bullhead``: never a plural noun after 1."""
    import re

    for svg in pictures:
        for text in _texts(svg):
            assert not re.search(r"(?<![\d.])1 (roubles|cards|bullheads|players)\b", text), text


def test_text_width_is_the_fonts() -> None:
    """The width table is DejaVu Sans' own (checked against the font file when fontTools and the font are
    installed), so a measured text is as wide as the rendered one."""
    from engine.svg import text_width

    assert text_width("Customs House", 11, "bold") > text_width("Customs House", 11)
    font = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
    try:
        from fontTools.ttLib import TTFont
    except ImportError:
        pytest.skip("fontTools is not installed")
    if not font.exists():
        pytest.skip("DejaVu Sans is not installed")
    tt = TTFont(str(font))
    cmap, hmtx, upm = tt.getBestCmap(), tt["hmtx"], tt["head"].unitsPerEm
    for word in ("Customs House", "Czar and Carpenter", "P0 pays 12", "Mistress of Ceremonies"):
        real = sum(hmtx[cmap[ord(c)]][0] for c in word) * 11 / upm
        assert abs(text_width(word, 11, "bold") - real) < 0.05 * len(word)


def test_import_engine_loads_no_picture_code() -> None:
    """``import engine`` loads neither engine.svg nor any game's drawing; a state's ``_repr_svg_``
    (defined on the state classes) loads them on first use."""
    import subprocess
    import sys

    check = (
        "import engine, sys; "
        "assert 'engine.svg' not in sys.modules and not any('drawing' in m for m in sys.modules); "
        "from engine.game import get_game; get_game('take6'); get_game('petersburg'); "
        "assert 'engine.svg' not in sys.modules and not any('drawing' in m for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", check], check=True, cwd=ROOT)
    from engine.petersburg.model import State as PetersburgState
    from engine.take6.model import State as Take6State

    assert "_repr_svg_" in vars(Take6State) and "_repr_svg_" in vars(PetersburgState)
    for game in ("take6", "petersburg"):
        state = get_game(game).new_game(3, seed=5)
        assert state._repr_svg_() == repr_svg(state)


def test_repr_is_one_short_line_showing_the_board() -> None:
    """``repr(state)`` is one line of under 200 characters naming the rows (T6-SETUP-3) or the card rows
    (SP-SETUP-3), not a dump of every field."""
    t6 = get_game("take6").new_game(4, seed=2)
    line = repr(t6)
    assert "\n" not in line and len(line) < 200
    assert all(" ".join(map(str, row)) in line for row in t6.rows)
    sp = get_game("petersburg").new_game(4, seed=2)
    line = repr(sp)
    assert "\n" not in line and len(line) < 250 and ", ".join(sp.cards("upper")) in line


# --------------------------------------------------------------------------------------------------
# A finished game: the winners and the tie-break, no prices.


def _finished_positions(game: str, count: int) -> list[Any]:
    """Finished positions of random games (2 to 4 players), each with random scores edited into its JSON
    state from a small set, so that ties on the score (and, in Saint Petersburg, on roubles too) are
    common; the engine's builder checks each edited position."""
    import random

    g = get_game(game)
    rng = random.Random(game)
    out = []
    for k in range(count):
        players = rng.choice((2, 3, 4))
        state = g.new_game(players, seed=k)
        while not g.is_terminal(state):
            state = g.apply(state, rng.choice(g.legal_actions(state, g.to_act(state)[0])))
        out.append(state)
        data = g.state_to_json(state)
        if game == "petersburg":
            data["vp"] = [rng.choice((18, 22)) for _ in range(players)]
            data["money"] = [rng.choice((3, 12)) for _ in range(players)]
        else:
            from engine.take6.rules import bullheads

            low = max(sum(bullheads(c) for c in pile) for pile in data["piles"])
            high = max(low + 5, 66)  # someone reached the end (T6-END-1)
            data["penalties"] = [rng.choice((low, high)) for _ in range(players - 1)] + [high]
            rng.shuffle(data["penalties"])
        out.append(g.state_from_json(data))
    return out


@pytest.mark.parametrize("game", ["take6", "petersburg"])
def test_a_finished_game_marks_its_winners_and_tie_break_without_prices(game: str) -> None:
    """The picture of a finished game names the engine's winners in its title line and result box and marks
    each winner's line or panel, nobody else's; a tie is explained: Saint Petersburg's by the roubles of
    every seat tied on VP (SP-END-8) and a win still shared (SP-END-9), 6 nimmt!'s shared place (T6-END-3);
    no price is printed (nothing is left to buy), for the whole table and for every seat, with every text
    inside its box."""
    from engine.svg import game_over

    g = get_game(game)
    ties = shared = 0
    for state in _finished_positions(game, 12):
        result = g.result(state)
        winners, scores = list(result.winners), list(result.scores)
        for viewer in (None, *range(len(scores))):
            svg = board_svg(game, state, viewer=viewer)
            texts = _texts(svg)
            assert game_over(winners) in texts
            assert not any("pays" in t or "costs for" in t for t in texts)
            root = ET.fromstring(svg)
            marked = [
                int(group.get("data-player", "-1"))
                for group in root.iter(f"{NS}g")
                if group.get("class") == "player"
                and any(t.get("class") == "winner" for t in group.iter(f"{NS}text"))
            ]
            assert marked == winners
            box = next(grp for grp in root.iter(f"{NS}g") if grp.get("class") == "result")
            said = " ".join("".join(t.itertext()) for t in box.iter(f"{NS}text"))
            assert said.startswith("Winner: " if len(winners) == 1 else "Winners: ")
            assert all(f"P{p}" in said.split("[")[0] for p in winners)
            if game == "petersburg":
                tied = [p for p in range(len(scores)) if scores.count(scores[p]) > 1]
                assert ("the roubles decide [SP-END-8]" in said) == bool(tied)
                for p in tied:
                    assert f"P{p} {result.tiebreak[p]} R" in said
                assert ("ahead on roubles" in said) == (scores.count(scores[winners[0]]) > len(winners))
                ties += bool(tied)
            assert ("SP-END-9" in said or "T6-END-3" in said) == (len(winners) > 1)
            shared += len(winners) > 1
            for text, (x0, y0, x1, y1), (fx0, fy0, fx1, fy1) in _boxes(svg):
                assert fx0 + 2 <= x0 and x1 <= fx1 - 2 and fy0 <= y0 and y1 <= fy1, text
    assert shared and (ties or game == "take6")  # the edits made ties


def test_show_draws_a_finished_position_with_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``arbiter show`` of a finished position: the winner marked, the rule that decided it (T6-END-2,
    SP-END-8), and no price even when ``--costs-for`` asks for one."""
    assert main(["show", "take6", "--position", "standard 2 over 1/2/3/4 -/- - -/- 66/40"]) == 0
    svg = capsys.readouterr().out
    assert "game over · winner P1" in _texts(svg) and "[T6-END-2]" in svg
    state = next(s for s in _finished_positions("petersburg", 1) if True)
    path = tmp_path / "over.json"
    path.write_text(json.dumps(get_game("petersburg").state_to_json(state)), encoding="utf-8")
    out = tmp_path / "over.svg"
    assert main(["show", "petersburg", "--position", f"@{path}", "--costs-for", "1", "-o", str(out)]) == 0
    texts = _texts(out.read_text(encoding="utf-8"))
    assert any(t.startswith("game over · winner") for t in texts) and any("[SP-END-8]" in t for t in texts)
    assert not any("pays" in t or "costs for" in t for t in texts)
