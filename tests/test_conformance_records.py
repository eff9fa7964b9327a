"""Game records (engine.conformance.records.format): format, schemas, streaming reader, writer,
``play --record``.

The record format is the interchange contract of the conformance kit: these tests check that every game the
engine plays can be written, read back unchanged, validated by the shipped JSON Schemas, and replayed from its
explicit set-up alone (no seed), and that malformed input is refused with the file, line and field.
"""

from __future__ import annotations

import copy
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.conformance.kits.base import get_kit
from engine.conformance.records.fastschema import compile_schema
from engine.conformance.records.format import (
    ActionLine,
    Header,
    Record,
    RecordWriter,
    ResultLine,
    fast_check,
    iter_record,
    read_record,
    record_game,
    schema,
    validator,
    write_record,
)
from engine.errors import InputError
from engine.game import get_game

DATA = Path(__file__).parent / "data" / "records"


def random_record(name: str, players: int, seed: int, variant: str | None = None) -> Record:
    game = get_game(name)
    state = game.new_game(players, seed=seed, variant=variant)
    rng = random.Random(seed)
    actions = []
    while not game.is_terminal(state):
        legal = game.legal_actions(state, game.to_act(state)[0])
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        state = game.apply(state, action)
    return record_game(name, players=players, seed=seed, variant=variant, actions=actions, claims=True)


def configs() -> Iterator[tuple[str, str, int]]:
    for name in ("take6", "petersburg"):
        game = get_game(name)
        for variant in game.variants:
            yield name, variant, max(game.min_players, 2)
    yield "petersburg", "first", 1
    yield "take6", "standard", 5


@pytest.mark.parametrize(("name", "variant", "players"), list(configs()))
def test_record_round_trips_and_replays_from_explicit_setup(name: str, variant: str, players: int) -> None:
    """Property: a record written and read back is unchanged; every line passes the schemas; and replaying the
    actions from the header's explicit set-up alone (T6-SETUP-5 / SP-SETUP-6, no seed) reaches the same
    facts after every action as the seeded game did (the claims)."""
    record = random_record(name, players, seed=5, variant=variant)
    buf = io.StringIO()
    write_record(buf, record)
    text = buf.getvalue()
    for raw in text.splitlines():
        assert validator("record").is_valid(json.loads(raw))
    again = read_record(io.StringIO(text))
    assert again == record
    game = get_game(name)
    kit = get_kit(name)
    header = again.header
    state = game.new_game(
        header.players,
        variant=header.variant,
        options=header.options,
        setup=kit.setup_from_json(header.setup),
        seed=987654,
    )
    assert kit.facts(state) == header.claims
    for line in again.actions:
        state = game.apply(state, game.action_from_json(line.action))
        assert kit.facts(state) == line.claims
    assert game.is_terminal(state)
    assert again.result == ResultLine.from_result(game.result(state))


def test_play_record_option_writes_a_valid_record(tmp_path: Path) -> None:
    """``arbiter play --record FILE`` writes the game it printed as a record that validates and checks OK."""
    for name in ("take6", "petersburg"):
        path = tmp_path / f"{name}.jsonl"
        assert main(["play", name, "--players", "3", "--seed", "4", "--quiet", "--record", str(path)]) == 0
        record = read_record(path)
        assert record.header.game == name and record.header.seed == 4
        assert record.result is not None
        assert main(["check", str(path)]) == 0


def test_play_record_to_an_unwritable_path_is_an_input_error(tmp_path: Path) -> None:
    """A record path that cannot be written is bad input (exit 2, no traceback)."""
    target = tmp_path / "missing-dir" / "x.jsonl"
    assert main(["play", "take6", "--players", "2", "--quiet", "--record", str(target)]) == 2


BROKEN = {
    "bad-json.jsonl": "line 4: not JSON",
    "bad-header-missing-players.jsonl": "line 1: players: required field missing",
    "bad-index-gap.jsonl": "line 5: index: expected 3, got 7",
    "bad-unknown-claim.jsonl": "line 3: claims.bullheads: unknown field",
    "bad-card-type.jsonl": "line 3: action.card: 'fifty' is not of type 'integer'",
    "bad-version.jsonl": "line 1: version:",
    "bad-two-headers.jsonl": "line 2: type: a second header line",
}


@pytest.mark.parametrize("filename", sorted(BROKEN))
def test_malformed_records_name_file_line_and_field(filename: str) -> None:
    """Malformed input is refused before anything else, naming the file, the line and the field."""
    path = DATA / filename
    with pytest.raises(InputError) as info:
        list(iter_record(path))
    message = str(info.value)
    assert message.startswith(str(path)), message
    assert BROKEN[filename] in message, message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "empty record: no header line"),
        ('{"type": "action", "index": 0, "player": 0, "action": {}}', "the first line must be the header"),
        ("[1, 2]", "expected a JSON object, got list"),
        ('{"type": "move"}', "type: expected 'header', 'action' or 'result'"),
    ],
)
def test_structure_errors(text: str, expected: str) -> None:
    """The structure is checked line by line: a header first, known line types, objects only."""
    with pytest.raises(InputError, match=expected):
        list(iter_record(io.StringIO(text), name="r.jsonl"))


def test_nothing_may_follow_the_result_and_result_has_a_score_per_seat() -> None:
    """The result line is last and carries one score per seat."""
    lines = (DATA / "good-take6-unfinished.jsonl").read_text().splitlines()
    header = lines[0]
    result = json.dumps({"type": "result", "scores": [1], "winners": [0]})
    with pytest.raises(InputError, match="line 2: scores: expected 2 entries"):
        list(iter_record(io.StringIO(header + "\n" + result + "\n"), name="r"))
    ok = json.dumps({"type": "result", "scores": [1, 2], "winners": [0]})
    with pytest.raises(InputError, match="line 3: type: nothing may follow the result line"):
        list(iter_record(io.StringIO("\n".join([header, ok, lines[1]])), name="r"))


def test_reader_streams_line_by_line() -> None:
    """Large files stream: the reader yields the header before it reads the second line."""

    class OneLineOnly(io.StringIO):
        reads = 0

        def __next__(self) -> str:  # type: ignore[override]
            OneLineOnly.reads += 1
            if OneLineOnly.reads > 1:
                raise AssertionError("read past the first line")
            return super().__next__()

    text = (DATA / "good-take6-standard-2p.jsonl").read_text()
    lines = iter_record(OneLineOnly(text), name="big")
    assert isinstance(next(lines), Header)


def test_writer_counts_indexes_and_wants_the_header_first() -> None:
    """The writer numbers actions 0, 1, 2 ... and refuses an action before the header."""
    out = io.StringIO()
    writer = RecordWriter(out)
    with pytest.raises(InputError):
        writer.action(0, {"type": "flip", "player": 0})
    writer.header(Header(game="take6", variant="kids", options={}, players=2, setup=[]))
    writer.action(0, {"type": "flip", "player": 0})
    writer.action(1, {"type": "flip", "player": 1})
    lines = list(iter_record(io.StringIO(out.getvalue()), name="w"))
    assert [line.index for line in lines if isinstance(line, ActionLine)] == [0, 1]


def _paths(node: Any, path: list[Any]) -> Iterator[list[Any]]:
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, [*path, k])
    elif isinstance(node, list):
        for i, v in enumerate(node[:4]):
            yield from _paths(v, [*path, i])


def _mutations(value: Any, rng: random.Random) -> Iterator[Any]:
    """Small random corruptions of a JSON value (type swaps, integral floats, deletions, extra keys)."""
    replacements: list[Any] = [None, True, -1, 0, 105, "x", [], {}, [1.5], ["a"], 2.0, 0.0, [1.0]]
    for _ in range(12):
        doc = copy.deepcopy(value)
        paths = list(_paths(doc, []))
        path = paths[rng.randrange(len(paths))]
        if not path:
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        choice = rng.randrange(4)
        target = parent[path[-1]]
        if choice == 3 and isinstance(target, int) and not isinstance(target, bool):
            parent[path[-1]] = float(target)  # 3 -> 3.0: the same number, not an integer literal
        elif choice == 0:
            parent[path[-1]] = replacements[rng.randrange(len(replacements))]
        elif choice == 1 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent["extra"] = 1
        yield doc


def test_fast_checker_agrees_with_jsonschema() -> None:
    """The fast yes/no checker the reader uses agrees with jsonschema on valid lines and on mutated ones."""
    rng = random.Random(3)
    docs: list[tuple[str, str, Any]] = []
    for filename in ("good-take6-standard-2p.jsonl", "good-petersburg-first-2p.jsonl"):
        raws = (DATA / filename).read_text().splitlines()
        for raw in raws[:12] + raws[-2:]:
            data = json.loads(raw)
            game = "take6" if "take6" in filename else "petersburg"
            docs.append(("record", data["type"], data))
            if data["type"] == "action":
                docs.append((game, "action", data["action"]))
                docs.append((game, "claims", data.get("claims", {})))
            if data["type"] == "header":
                docs.append((game, "setup", data["setup"]))
    checked = 0
    for name, definition, data in docs:
        for doc in [data, *_mutations(data, rng)]:
            assert fast_check(name, definition)(doc) == validator(name, definition).is_valid(doc), (name, doc)
            checked += 1
    assert checked > 300
    # the whole-schema checker as well
    assert compile_schema(schema("record"))(
        json.loads((DATA / "good-take6-unfinished.jsonl").read_text().splitlines()[0])
    )
