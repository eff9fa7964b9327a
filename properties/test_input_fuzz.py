"""The input fuzz harness: every entry point and file format fed mutated input, in-process.

Every command runs through :func:`engine.cli.main` (no subprocess) on inputs made from valid ones by
Hypothesis: JSON trees with values swapped for other types, fields dropped or added; texts with bytes
spliced in (a 5,000-digit integer, 1,000 open brackets, an invalid UTF-8 byte, a byte-order mark, a control
character, ``NaN``, a duplicate key), cut short or repeated; command lines drawn from every flag of every
command with hostile values.  The invariant checked on every input (:func:`run_cli`):

* the exit code is 0, 1 or 2 and no exception escapes (no traceback);
* a refusal (exit 2) is exactly one line ``arbiter: error: ...`` on stderr, at most a few hundred characters,
  with no raw control character (or, from ``check``, its ``MALFORMED`` report line on stdout);
* the call takes less than :data:`MAX_SECONDS` and the process stays under :data:`MAX_RSS_MB` of memory.

The library entry points (``state_from_json``, ``action_from_json``, the peer-reply parser) are fuzzed
directly: they return a value or raise the engine's :class:`~engine.errors.InputError`, never a
``TypeError``, ``KeyError`` or ``RecursionError``.

Budget: :data:`BUDGET` examples per target — small in the default ``ci`` profile, 13,000 per target under
``HYPOTHESIS_PROFILE=deep`` (more than 100,000 inputs in all)::

    HYPOTHESIS_PROFILE=deep python -m pytest properties/test_input_fuzz.py
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import random
import re
import resource
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.conformance import protocol
from engine.conformance.records import dumps_line, record_game, write_record
from engine.conformance.vectors import hand_picked_cases
from engine.conformance.vectors_perft import shipped_perft
from engine.errors import InputError, RuleViolation
from engine.game import get_game
from engine.query.questions import all_questions

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
BUDGET = int(os.environ.get("ARBITER_FUZZ_EXAMPLES", "0")) or {"deep": 13_000, "dev": 100}.get(PROFILE, 15)
"""Examples per fuzz target: 15 in ``ci``, 100 in ``dev``, 13,000 in ``deep`` (``ARBITER_FUZZ_EXAMPLES``
overrides)."""

FUZZ = settings(max_examples=BUDGET, deadline=None)

MAX_SECONDS = 20.0
"""The longest one command may take on any fuzzed input (the slowest valid input here takes ~0.1 s)."""

MAX_RSS_MB = 1500
"""The most memory the test process may reach (a leak or an unbounded read would pass it)."""

MAX_ERROR_LINE = 600

WORK = Path(tempfile.mkdtemp(prefix="arbiter-fuzz-"))

# --------------------------------------------------------------------------------------------------
# The invariant


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """Run ``arbiter ARGV`` in-process and check the invariant; returns (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    here = os.getcwd()
    os.chdir(WORK)  # a relative output path drawn by the fuzzer (play --record 3) lands in the scratch folder
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
            code = exc.code if isinstance(exc.code, int) else 2
        finally:
            os.chdir(here)
    elapsed = time.perf_counter() - start
    stderr = err.getvalue()
    shown = " ".join(a[:80] for a in argv)[:400]
    assert code in (0, 1, 2), f"exit {code} for {shown}"
    assert "Traceback" not in stderr, f"traceback for {shown}: {stderr[-2000:]}"
    if code == 2 and (stderr or not out.getvalue()):  # `check` reports a malformed record on stdout
        lines = stderr.splitlines()
        assert len(lines) == 1, f"{len(lines)} error lines for {shown}: {stderr[:1000]!r}"
        assert lines[0].startswith("arbiter: error: "), lines[0][:200]
        assert len(lines[0]) <= MAX_ERROR_LINE, f"a {len(lines[0])}-character error line for {shown}"
        assert all(c.isprintable() for c in lines[0]), f"raw control character in {lines[0][:200]!r}"
    assert elapsed < MAX_SECONDS, f"{elapsed:.1f} s for {shown}"
    assert _rss_mb() < MAX_RSS_MB, f"memory reached {_rss_mb():.0f} MB after {shown}"
    return code, out.getvalue(), stderr


# --------------------------------------------------------------------------------------------------
# Valid inputs to start from


def _positions(name: str) -> list[Any]:
    """States of a few seeded random games at several points, every variant."""
    g = get_game(name)
    out = []
    for i, variant in enumerate(g.variants):
        for players in (g.min_players + 1, min(g.max_players, 4)):
            state = g.new_game(players, seed=i, variant=variant)
            rng = random.Random(i)
            for step in range(rng.randint(0, 60)):
                if g.is_terminal(state):
                    break
                seat = g.to_act(state)[0]
                state = g.apply(state, rng.choice(g.legal_actions(state, seat)))
                if step % 9 == 0:
                    out.append(state)
            out.append(state)
    return out


GAMES = ("take6", "petersburg")
POSITIONS = {name: _positions(name) for name in GAMES}


def _actions(name: str) -> list[Any]:
    g = get_game(name)
    out: list[Any] = []
    for state in POSITIONS[name]:
        if not g.is_terminal(state):
            for seat in g.to_act(state):
                out.extend(g.action_to_json(a) for a in g.legal_actions(state, seat)[:3])
    return out


ACTIONS = {name: _actions(name) for name in GAMES}
STATES = {name: [get_game(name).state_to_json(s) for s in POSITIONS[name]] for name in GAMES}


def _record_text(name: str, seed: int, steps: int) -> str:
    g = get_game(name)
    state = g.new_game(3, seed=seed)
    rng = random.Random(seed)
    actions = []
    for _ in range(steps):
        if g.is_terminal(state):
            break
        action = rng.choice(g.legal_actions(state, g.to_act(state)[0]))
        actions.append(action)
        state = g.apply(state, action)
    buffer = io.StringIO()
    write_record(buffer, record_game(name, players=3, seed=seed, actions=actions, claims=seed % 2 == 0))
    return buffer.getvalue()


RECORDS = {name: [_record_text(name, seed, steps) for seed, steps in ((1, 8), (2, 40))] for name in GAMES}
VECTORS = {name: [dumps_line(c.to_json()) for c in hand_picked_cases(name)[:4]] for name in GAMES}
PERFT = [dumps_line({**p, "counts": p["counts"][:2]}) for p in shipped_perft()[::3]]

# --------------------------------------------------------------------------------------------------
# Mutations

NAMES = [
    "take6",
    "petersburg",
    "standard",
    "kids",
    "tactics",
    "first",
    "second",
    "select",
    "take_row",
    "buy",
    "pass",
    "Market",
    "upper",
    "player",
    "card",
    "type",
    "variant",
    "players",
    "setup",
    "header",
    "action",
]
ATOMS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(),
    st.sampled_from([2.0, 0.0, -1.5, 1e300]),
    st.text(max_size=6),
    st.sampled_from(NAMES),
    st.just("x" * 2000),
    st.just("\x1b[2J\n\r\x00"),
)
VALUES = st.recursive(
    ATOMS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
    max_leaves=6,
)

HUGE_INT = b"1" * 5000
SPLICES = [
    HUGE_INT,
    b"9" * 4400,
    b"[" * 1000,
    b'{"a":' * 800,
    b"\xff",
    b"\xc3(",
    b"\xef\xbb\xbf",
    b"\x00",
    b"\x1b[2J",
    b"NaN",
    b"-Infinity",
    b"1e999",
    b"2.0",
    b"-0",
    b"0.0",
    b"null",
    b"true",
    b"[]",
    b"{}",
    b'"a":1,"a":2',
    b"\n",
    b"\r\n",
    b'"\\ud800"',
    b"," * 3,
    b'"' + b"x" * 5000 + b'"',
]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


@st.composite
def mutated_tree(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with up to three of: a value replaced (any JSON type), a field dropped, a field added."""
    value = copy.deepcopy(base)
    for _ in range(draw(st.integers(0, 3))):
        paths = list(_paths(value))
        path = draw(st.sampled_from(paths))
        if not path:
            if draw(st.integers(0, 9)) == 0:
                value = draw(VALUES)
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        op = draw(st.sampled_from(("replace", "replace", "drop", "add")))
        if op == "drop" and isinstance(parent, dict):
            del parent[path[-1]]
        elif op == "drop" and isinstance(parent, list):
            parent.pop(path[-1])
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(NAMES))] = draw(VALUES)
        else:
            parent[path[-1]] = draw(VALUES)
    return value


_TOKEN = re.compile(rb'-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|[\[\]{},:]')


@st.composite
def mutated_bytes(draw: st.DrawFn, base: bytes, splices: list[bytes] = SPLICES) -> bytes:
    """``base`` with up to three byte-level edits: a token replaced by a splice, a splice inserted, a span
    deleted, the text cut short or its lines repeated."""
    data = base
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(("token", "token", "insert", "delete", "cut", "repeat")))
        if op == "token":
            tokens = list(_TOKEN.finditer(data))
            if tokens:
                m = draw(st.sampled_from(tokens))
                data = data[: m.start()] + draw(st.sampled_from(splices)) + data[m.end() :]
        elif op == "insert":
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.sampled_from(splices)) + data[at:]
        elif op == "delete" and data:
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + data[at + draw(st.integers(1, 20)) :]
        elif op == "cut":
            data = data[: draw(st.integers(0, len(data)))]
        elif op == "repeat":
            data = data + data[: draw(st.integers(0, len(data)))]
    return data


@st.composite
def mutated_json(draw: st.DrawFn, bases: list[Any]) -> bytes:
    """A valid JSON value, mutated as a tree and then as text."""
    tree = draw(mutated_tree(draw(st.sampled_from(bases))))
    return draw(mutated_bytes(json.dumps(tree).encode()))


@st.composite
def mutated_lines(draw: st.DrawFn, texts: list[str], splices: list[bytes] = SPLICES) -> bytes:
    """A JSON Lines file: one line's tree mutated (or none), then byte-level edits of the whole text."""
    text: str = draw(st.sampled_from(texts))
    lines = text.splitlines()
    edit_one: bool = draw(st.booleans())
    if lines and edit_one:
        at = draw(st.integers(0, len(lines) - 1))
        lines[at] = json.dumps(draw(mutated_tree(json.loads(lines[at]))))
    return draw(mutated_bytes("\n".join(lines).encode() + b"\n", splices))


def _file(data: bytes, name: str) -> str:
    path = WORK / name
    path.write_bytes(data)
    return str(path)


def _arg(data: bytes) -> str:
    """Bytes as a command-line argument (what the OS hands Python: undecodable bytes as surrogates)."""
    return data.decode("utf-8", "surrogateescape").replace("\x00", "")


# --------------------------------------------------------------------------------------------------
# Library entry points: InputError or a value, never another exception


@FUZZ
@given(game=st.sampled_from(GAMES), data=st.data())
def test_state_from_json_refuses_with_input_error(game: str, data: st.DataObject) -> None:
    """A mutated JSON state either parses (and round-trips) or is refused with an InputError."""
    g = get_game(game)
    value = data.draw(mutated_tree(data.draw(st.sampled_from(STATES[game]))))
    try:
        state = g.state_from_json(value)
    except InputError:
        return
    assert g.state_from_json(g.state_to_json(state)) == state


@FUZZ
@given(game=st.sampled_from(GAMES), data=st.data())
def test_action_from_json_refuses_with_input_error(game: str, data: st.DataObject) -> None:
    """A mutated JSON action parses or raises InputError; applied, it is accepted or refused with a rule
    error naming a clause, and the state it was applied to is unchanged."""
    g = get_game(game)
    state = data.draw(st.sampled_from(POSITIONS[game]))
    before = g.state_to_json(state)
    value = data.draw(mutated_tree(data.draw(st.sampled_from(ACTIONS[game]))))
    try:
        action = g.action_from_json(value)
        g.apply(state, action)
    except RuleViolation as exc:
        assert exc.clause
    except InputError:
        pass
    assert g.state_to_json(state) == before


REPLIES = {
    "hello": {"ok": True, "protocol": 1, "name": "peer", "games": {"take6": ["standard"]}},
    "new": {"ok": True},
    "apply": {"ok": False, "error": "illegal", "message": "no"},
    "state": {"ok": True, "to_act": [0, 1], "terminal": False, "scores": [0, 3], "claims": {"round": 1}},
    "legal": {"ok": True, "actions": [{"type": "select", "player": 0, "card": 7}]},
}


@FUZZ
@given(request=st.sampled_from(sorted(REPLIES)), players=st.sampled_from([None, 2]), data=st.data())
def test_peer_replies_are_parsed_or_refused_as_garbage(
    request: str, players: int | None, data: st.DataObject
) -> None:
    """A mutated peer reply is parsed into a reply or refused with a ProtocolError (reported as garbage)."""
    tree = data.draw(mutated_tree(REPLIES[request]))
    line = data.draw(mutated_bytes(json.dumps(tree).encode(), SPLICES))
    with contextlib.suppress(protocol.ProtocolError):
        protocol.parse_reply(line, request, players)


# --------------------------------------------------------------------------------------------------
# Commands and file formats through engine.cli.main


@FUZZ
@given(game=st.sampled_from(GAMES), inline=st.booleans(), data=st.data())
def test_explain_state_and_action(game: str, inline: bool, data: st.DataObject) -> None:
    """``arbiter explain GAME --state S --action A``: mutated states and actions, inline or @file."""
    state = data.draw(mutated_json(STATES[game]))
    action = data.draw(mutated_json(ACTIONS[game]))
    if inline:
        argv = ["explain", game, "--state", _arg(state), "--action", _arg(action)]
    else:
        argv = [
            "explain",
            game,
            "--state",
            "@" + _file(state, "state.json"),
            "--action",
            "@" + _file(action, "action.json"),
        ]
    run_cli(argv)


NOTATIONS = {name: [get_game(name).to_notation(s) for s in POSITIONS[name]] for name in GAMES}


@st.composite
def mutated_notation(draw: st.DrawFn, lines: list[str]) -> str:
    """A notation line with tokens dropped, repeated, swapped or replaced, then mutated as bytes."""
    tokens = draw(st.sampled_from(lines)).split(" ")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(tokens) - 1))
        how = draw(st.sampled_from(("drop", "repeat", "swap", "replace")))
        if how == "drop" and len(tokens) > 1:
            del tokens[i]
        elif how == "repeat":
            tokens.insert(i, tokens[i])
        elif how == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:
            tokens[i] = draw(st.sampled_from(("-", "0", "-1", "9" * 40, "a.b/c", "*", "x:y", "999", "")))
    text = " ".join(tokens).encode()
    if draw(st.booleans()):
        text = draw(mutated_bytes(text))
    return text.decode("utf-8", "replace")


@FUZZ
@given(game=st.sampled_from(GAMES), command=st.sampled_from(("explain", "play", "show")), data=st.data())
def test_positions_in_notation(game: str, command: str, data: st.DataObject) -> None:
    """``explain --position``, ``play --from`` and ``show --position``: mutated notation lines (tokens
    dropped, repeated, swapped, replaced; bytes spliced in), inline or @file."""
    line = data.draw(mutated_notation(NOTATIONS[game]))
    arg = line if data.draw(st.booleans()) else "@" + _file(line.encode("utf-8", "replace"), "position.txt")
    if command == "explain":
        action = json.dumps(data.draw(st.sampled_from(ACTIONS[game])))
        argv = ["explain", game, "--position", arg, "--action", action]
    elif command == "play":
        argv = ["play", game, "--from", arg, "--seed", "1", "--quiet"]
    else:
        argv = ["show", game, "--position", arg, "-o", str(WORK / "position.svg")]
    run_cli(argv)


@FUZZ
@given(game=st.sampled_from(GAMES), data=st.data())
def test_explain_record(game: str, data: st.DataObject) -> None:
    """``arbiter explain GAME --record R [--upto N] --action A`` on mutated records."""
    record = _file(data.draw(mutated_lines(RECORDS[game], SPLICES)), "explain.jsonl")
    argv = [
        "explain",
        game,
        "--record",
        record,
        "--action",
        json.dumps(data.draw(st.sampled_from(ACTIONS[game]))),
    ]
    if data.draw(st.booleans()):
        argv += ["--upto", str(data.draw(st.integers(-2, 50)))]
    run_cli(argv)


@FUZZ
@given(game=st.sampled_from(GAMES), data=st.data())
def test_check_records(game: str, data: st.DataObject) -> None:
    """``arbiter check R``: mutated records are OK (0), divergent (1) or malformed (2)."""
    run_cli(["check", _file(data.draw(mutated_lines(RECORDS[game], SPLICES)), "check.jsonl")])


@FUZZ
@given(game=st.sampled_from(GAMES), which=st.sampled_from(("cases", "perft")), data=st.data())
def test_vectors_run(game: str, which: str, data: st.DataObject) -> None:
    """``arbiter vectors run DIR``: a mutated vectors file or a mutated perft file."""
    folder = WORK / "vectors"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.jsonl"):
        old.unlink()
    cases = "\n".join(VECTORS[game]).encode() + b"\n"
    perft = "\n".join(PERFT).encode() + b"\n"
    if which == "cases":
        cases = data.draw(mutated_lines(VECTORS[game]))
    else:
        perft = data.draw(mutated_lines(PERFT))
    (folder / f"{game}.jsonl").write_bytes(cases)
    (folder / "perft.jsonl").write_bytes(perft)
    run_cli(["vectors", "run", str(folder)])


HOSTILE = st.one_of(
    st.sampled_from(
        [
            "",
            "-1",
            "0",
            "1",
            "2",
            "3",
            "11",
            "nan",
            "inf",
            "-inf",
            "1e9",
            "0.001",
            "9" * 5000,
            "9" * 200,
            "[" * 1000,
            '{"a": 1, "a": 2}',
            "\x1b[2J",
            "x" * 3000,
            "@/nonexistent",
            "/nonexistent",
            "/dev/null",
            "standard",
            "kids",
            "second",
            "first",
            "Market",
            "T6-PLACE-2",
            "SP-COST-4",
            "--help",
            "-",
            "=",
            "a=1",
            "trading_discount=false",
            "kids_piles=" + "9" * 5000,
            "x=" + "[" * 1000,
            "x=\udcff",
        ]
    ),
    st.text(max_size=8),
)


def _flags(command: str) -> list[tuple[str, int]]:
    """Every option string of a sub-command with its argument count (0 for a switch)."""
    from engine.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    words = command.split()
    p: Any = sub.choices[words[0]]  # type: ignore[index]
    for word in words[1:]:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction) and word in a.choices]
        if subs:
            p = subs[0].choices[word]
    out = []
    for action in p._actions:
        for flag in action.option_strings:
            if flag not in ("-h", "--help"):
                out.append((flag, 0 if action.nargs == 0 else 1))
    return out


COMMANDS = {
    "play take6": ["--seed", "0"],
    "play petersburg": [],
    "rules": [],
    "ask": [],
    "vectors perft": ["--game", "take6"],
    "bench take6": ["--seconds", "0.001", "--players", "2"],
}
FLAGS = {command: _flags(command) for command in COMMANDS}
QUESTIONS = sorted(all_questions())


@FUZZ
@given(command=st.sampled_from(sorted(COMMANDS)), data=st.data())
def test_command_line_arguments(command: str, data: st.DataObject) -> None:
    """Every flag of ``play``, ``rules``, ``ask``, ``vectors perft`` and ``bench`` with hostile values."""
    argv = command.split()
    if command == "ask":
        argv.append(data.draw(st.sampled_from(QUESTIONS)))
        flags = _flags(f"ask {argv[-1]}")
    else:
        flags = FLAGS[command]
    for _ in range(data.draw(st.integers(0, 2))):
        argv.append(data.draw(HOSTILE))
    for flag, nargs in data.draw(st.lists(st.sampled_from(flags), max_size=3)) if flags else []:
        if command.startswith("bench") and flag == "--seconds":
            continue
        if flag == "--write" or flag.endswith("-docs"):
            argv += [flag, str(WORK / "out" / "x")]
            continue
        argv += [flag, data.draw(HOSTILE)] if nargs else [flag]
    argv += COMMANDS[command]
    run_cli(argv)


@FUZZ
@given(value=st.sampled_from(["nan", "inf", "-1", "0", "1e9", "-inf", "3601"]))
def test_bench_refuses_an_unbounded_duration_before_running(value: str) -> None:
    """``arbiter bench --seconds`` outside (0, 3600] is refused before any game is played."""
    assert run_cli(["bench", "take6", "--players", "2", "--seconds", value])[0] == 2


def test_the_invariant_catches_a_traceback_and_a_multi_line_error(monkeypatch: Any) -> None:
    """The harness's invariant fails on an escaping exception and on a refusal of more than one line."""
    import engine.cli_play

    def crash(_args: Any) -> int:
        raise TypeError("boom")

    monkeypatch.setattr(engine.cli_play, "run", crash)
    try:
        run_cli(["play", "take6"])
    except TypeError:
        pass
    else:  # pragma: no cover - the harness would be broken
        raise AssertionError("an escaping exception went unnoticed")

    def two_lines(_args: Any) -> int:
        raise InputError("--x", "line one\nline two")

    monkeypatch.setattr(engine.cli_play, "run", two_lines)
    assert run_cli(["play", "take6"])[0] == 2  # main escapes the newline: still one line


def test_the_harness_writes_only_in_its_scratch_folder() -> None:
    """A fuzzed output path (``play --record 3``) is relative to the harness's scratch folder, never the
    folder the tests run from."""
    before = set(os.listdir("."))
    assert run_cli(["play", "take6", "--players", "2", "--quiet", "--record", "fuzz-record.jsonl"])[0] == 0
    assert (WORK / "fuzz-record.jsonl").is_file()
    assert set(os.listdir(".")) == before
