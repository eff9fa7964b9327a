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
import atexit
import contextlib
import copy
import html.parser
import io
import json
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from engine import outputs
from engine.cli import main
from engine.conformance.peers import protocol
from engine.conformance.peers.fork import running
from engine.conformance.records.format import dumps_line, record_game, write_record
from engine.conformance.vectors.perft import shipped_perft
from engine.conformance.vectors.suite import hand_picked_cases
from engine.errors import InputError, RuleViolation
from engine.game import get_game
from engine.query.questions import all_questions
from engine.svg import board_svg

PROFILE: str = getattr(  # the profile loaded: conftest.py's (HYPOTHESIS_PROFILE), or --hypothesis-profile
    settings, "get_current_profile_name", lambda: os.environ.get("HYPOTHESIS_PROFILE", "ci")
)()
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
atexit.register(shutil.rmtree, WORK, ignore_errors=True)  # the scratch folder goes with the test process

# --------------------------------------------------------------------------------------------------
# The invariant


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _Blocked(BaseException):
    """Raised by the interval timer when one command takes longer than :data:`MAX_SECONDS` (a read blocked on
    a named pipe, a loop without end): the call fails instead of hanging the run."""


def _blocked(_signum: int, _frame: Any) -> None:
    raise _Blocked(f"no answer within {MAX_SECONDS} s")


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """Run ``arbiter ARGV`` in-process and check the invariant; returns (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    here = os.getcwd()
    os.chdir(WORK)  # a relative output path drawn by the fuzzer (play --record 3) lands in the scratch folder
    previous = signal.signal(signal.SIGALRM, _blocked)
    signal.setitimer(signal.ITIMER_REAL, MAX_SECONDS)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
            code = exc.code if isinstance(exc.code, int) else 2
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
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
    assert all(c.isprintable() or c == "\n" for c in out.getvalue()), f"raw control character out of {shown}"
    assert "could not be replayed" not in out.getvalue(), f"an engine fault reported as input for {shown}"
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
UNICODE_DIGITS = ["¹", "²³", "⁵⁵", "₇", "①", "٣", "５", "𝟠", "߂"]
"""Digits ``str.isdigit`` is true of that ``int`` refuses (superscript, subscript, circled), or reads although
they are not ASCII (Arabic-Indic, full-width, mathematical, N'Ko): a number in text is ASCII digits only
(round three, class 1)."""

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
    st.sampled_from([10**30, -(10**30), 2**63, 2**63 - 1, -(2**63), 10**40, "\ud800", "a\u2028b", "\u2029"]),
    st.sampled_from(UNICODE_DIGITS),
)
def _nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3)


VALUES = st.recursive(ATOMS, _nested, max_leaves=6)  # a named function: Hypothesis reads that it recurses

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
    b"1" + b"0" * 30,
    b"9223372036854775808",
    b'"\\u2028"',
    b'"\\ud800"',
    *(d.encode() for d in UNICODE_DIGITS),
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
        op = draw(st.sampled_from(("replace", "replace", "drop", "add", "duplicate")))
        if op == "duplicate" and isinstance(parent, list) and parent:
            parent.insert(draw(st.integers(0, len(parent))), copy.deepcopy(draw(st.sampled_from(parent))))
        elif op == "duplicate":  # a value copied from elsewhere in the tree: a card in two places
            source = draw(st.sampled_from(list(_paths(value))))
            item = value
            for key in source:
                item = item[key]
            parent[path[-1]] = copy.deepcopy(item)
        elif op == "drop" and isinstance(parent, dict):
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
    assert g.from_notation(g.to_notation(state)) == state  # JSON and notation accept the same positions
    g.describe_state(state)
    board_svg(game, state)


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


EXTREMES = [10**30, -(10**30), 2**63, 2**63 - 1, -(2**63), 10**40, 10**15, 171, 172, 66, 999_999_999]


@FUZZ
@given(game=st.sampled_from(GAMES), data=st.data())
def test_json_states_with_duplicates_and_extremes(game: str, data: st.DataObject) -> None:
    """A JSON state with one entry of a list repeated (a card twice in the stock, a hand, a row), a value
    copied into another list (a card in two places) or a number set to an extreme (10^30 bullheads, money
    beyond 64 bits) is refused with an InputError, or it is a position the game holds: it round-trips
    through JSON and through the notation, and is described and drawn."""
    g = get_game(game)
    pools = [x for x in STATES[game] if x.get("stock")] or STATES[game]  # a logic draft: the face-up pool
    value = copy.deepcopy(data.draw(st.sampled_from(data.draw(st.sampled_from([STATES[game], pools])))))
    paths = [p for p in _paths(value) if p]
    lists = [p for p in paths if isinstance(_at(value, p), list) and _at(value, p)]
    numbers = [p for p in paths if isinstance(_at(value, p), int) and not isinstance(_at(value, p), bool)]
    op = data.draw(st.sampled_from(("within", "across", "extreme")))
    if op == "extreme" and numbers:
        path = data.draw(st.sampled_from(numbers))
        _at(value, path[:-1])[path[-1]] = data.draw(st.sampled_from(EXTREMES))
    elif lists:
        target = _at(value, data.draw(st.sampled_from(lists)))
        source = target if op == "within" else _at(value, data.draw(st.sampled_from(lists)))
        entry = copy.deepcopy(data.draw(st.sampled_from(source)))
        target.insert(data.draw(st.integers(0, len(target))), entry)
    try:
        state = g.state_from_json(value)
    except InputError:
        return
    assert g.state_from_json(g.state_to_json(state)) == state
    assert g.from_notation(g.to_notation(state)) == state
    g.describe_state(state)
    board_svg(game, state)


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


@FUZZ
@given(game=st.sampled_from(GAMES), data=st.data())
def test_action_from_text_refuses_with_input_error(game: str, data: st.DataObject) -> None:
    """A legal action's text, mutated as bytes, read against a real position: an action, InputError (an
    ambiguous text too) or the engine's IllegalAction naming a clause; the state is unchanged."""
    g = get_game(game)
    state = data.draw(st.sampled_from(POSITIONS[game]))
    before = g.state_to_json(state)
    legal = g.legal_actions(state)
    base = g.action_to_text(state, data.draw(st.sampled_from(legal))).encode() if legal else b"pass"
    text = data.draw(mutated_bytes(base, [*SPLICES, b" over ", b" lower", b"P9 ", b"\xd0\xa0"]))
    try:
        g.action_from_text(state, text.decode("utf-8", "replace"))
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
def other_digits(draw: st.DrawFn, text: str) -> str:
    """``text`` with one of its numbers written with another script's digits (round three, class 1)."""
    numbers = [m.span() for m in re.finditer(r"[0-9]+", text)]
    if not numbers:
        return text
    start, end = draw(st.sampled_from(numbers))
    return text[:start] + draw(st.sampled_from(UNICODE_DIGITS)) + text[end:]


@st.composite
def mutated_notation(draw: st.DrawFn, lines: list[str]) -> str:
    """A notation line with tokens dropped, repeated, swapped or replaced, then mutated as bytes."""
    tokens = draw(st.sampled_from(lines)).split(" ")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(tokens) - 1))
        how = draw(st.sampled_from(("drop", "repeat", "swap", "replace", "digit")))
        if how == "digit":
            tokens[i] = draw(other_digits(tokens[i]))
        elif how == "drop" and len(tokens) > 1:
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


LEAF_EXTREMES = [10**30, 2**64, -(2**63) - 1, "\ud800", "a\u2028b", "\u2029", "\x1b[2J", "\u0085"]


@FUZZ
@given(game=st.sampled_from(GAMES), data=st.data())
def test_check_claims_with_extreme_values(game: str, data: st.DataObject) -> None:
    """``arbiter check`` of a record whose claims (header or action line) hold an integer beyond 64 bits, a
    lone surrogate or a line separator: a divergence or a malformed line, reported on one escaped line, never
    an engine fault."""
    lines = RECORDS[game][1].splitlines()
    claimed = [i for i, line in enumerate(lines) if '"claims"' in line]
    at = data.draw(st.sampled_from(claimed))
    row = json.loads(lines[at])
    leaves = [p for p in _paths(row["claims"]) if p and not isinstance(_at(row["claims"], p), dict | list)]
    path = data.draw(st.sampled_from(leaves))
    _at(row["claims"], path[:-1])[path[-1]] = data.draw(st.sampled_from(LEAF_EXTREMES))
    lines[at] = json.dumps(row)
    text = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    run_cli(["check", *(["--json"] if data.draw(st.booleans()) else []), _file(text, "claims.jsonl")])


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
    st.sampled_from(UNICODE_DIGITS),
    st.sampled_from(["3=¹", "¹=0", "⁵⁵ 22 40 90", "5,⁵", "1_0", "+5", "-²"]),
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


EXAMPLES = [shlex.split(e)[1:] for q in all_questions().values() for e in q.examples if re.search("[0-9]", e)]
EXAMPLES += [["play", "take6", "--players", "3", "--seed", "12", "--quiet"], ["show", "take6", "--position",
             NOTATIONS["take6"][1]], ["play", "petersburg", "--players", "2", "--seed", "3", "--quiet"]]
"""Documented commands holding a number: every ``ask`` example, and a few of the other commands."""


@FUZZ
@given(data=st.data())
def test_examples_with_numbers_in_other_digits(data: st.DataObject) -> None:
    """A documented command with some of its numbers written in another script's digits (superscript,
    subscript, circled, Arabic-Indic, full-width): answered, or refused naming the field, never a
    traceback (round three, class 1)."""
    argv = list(data.draw(st.sampled_from(EXAMPLES)))
    numbered = [i for i, a in enumerate(argv) if re.search("[0-9]", a)]
    for i in data.draw(st.lists(st.sampled_from(numbered), min_size=1, max_size=len(numbered), unique=True)):
        argv[i] = data.draw(other_digits(argv[i]))
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


# --------------------------------------------------------------------------------------------------
# Files named in arguments: only regular files, and an error quotes none of their content

SECRET = "sk-live-FUZZSECRET"
"""Spliced into files given with ``@FILE``: no error line may quote it."""
SECRET_SPLICES = [*SPLICES, SECRET.encode(), f'"{SECRET}"'.encode(), f'"{SECRET}": 1,'.encode()]

SPECIAL = WORK / "special"
SPECIAL.mkdir(exist_ok=True)
if not (SPECIAL / "pipe").exists():
    os.mkfifo(SPECIAL / "pipe")
NOT_REGULAR = [str(SPECIAL / "pipe"), "/dev/zero", "/dev/tty", str(SPECIAL), "/proc/self/fd/0"]
"""A named pipe with no writer (reading it would wait forever), devices, a folder, standard input again."""


@FUZZ
@given(
    game=st.sampled_from(GAMES),
    flag=st.sampled_from(("explain --position", "explain --state", "explain --action", "show --position",
                          "play --from", "ask --position")),
    data=st.data(),
)
def test_an_error_about_an_argument_file_quotes_none_of_it(game: str, flag: str, data: st.DataObject) -> None:
    """``@FILE`` arguments with a secret spliced into a mutated state, notation line or action: a refusal
    names the argument and the field but never quotes the file (not the first token, a key or a value)."""
    if flag.endswith("--action"):
        base = json.dumps(data.draw(st.sampled_from(ACTIONS[game]))).encode()
    elif data.draw(st.booleans()) or flag.endswith("--state"):
        base = json.dumps(data.draw(mutated_tree(data.draw(st.sampled_from(STATES[game]))))).encode()
    else:
        base = data.draw(st.sampled_from(NOTATIONS[game])).encode()
    content = data.draw(mutated_bytes(base, SECRET_SPLICES))
    if SECRET.encode() not in content:
        content = SECRET.encode() + b" " + content
    path = "@" + _file(content, "secret.txt")
    position = json.dumps(STATES[game][0])
    command, option = flag.split()
    if command == "explain":
        args = {"--position": position, "--action": json.dumps(ACTIONS[game][0]), option: path}
        argv = ["explain", game, *(x for kv in args.items() for x in kv)]
    elif command == "show":
        argv = ["show", game, "--position", path, "-o", str(WORK / "secret.svg")]
    elif command == "play":
        argv = ["play", game, "--from", path, "--quiet"]
    else:
        question = "row" if game == "take6" else "cost"
        argv = ["ask", question, *(["7"] if game == "take6" else ["Market"]), "--position", path]
    err = run_cli(argv)[2]
    assert "FUZZSECRET" not in err, err


@FUZZ
@given(
    target=st.sampled_from(NOT_REGULAR),
    how=st.sampled_from(("explain --position", "explain --action", "show --position", "play --from",
                         "check", "view")),
)
def test_argument_files_must_be_regular_files(target: str, how: str) -> None:
    """A named pipe, a device or a folder given as a file is refused at once with one line, exit 2 (the timer
    of :func:`run_cli` fails a call that waits on a pipe)."""
    game = "take6"
    at = "@" + target
    argv = {
        "explain --position": ["explain", game, "--position", at, "--action", "{}"],
        "explain --action": ["explain", game, "--position", NOTATIONS[game][0], "--action", at],
        "show --position": ["show", game, "--position", at],
        "play --from": ["play", game, "--from", at, "--quiet"],
        "check": ["check", target],
        "view": ["view", target, "-o", str(WORK / "special.html")],
    }[how]
    code, _out, _err = run_cli(argv)
    assert code == 2


# --------------------------------------------------------------------------------------------------
# The assistant over a real MCP session


class McpSession:
    """One ``arbiter mcp --root ROOT`` server over stdio, driven by the MCP SDK's client from a thread of its
    own, so a test calls a tool synchronously (:meth:`call`), with a time limit per call."""

    def __init__(self, root: Path, flags: tuple[str, ...] = ()) -> None:
        import asyncio
        import sys
        import threading

        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.failed: BaseException | None = None
        self.session: Any = None
        self.stop: Any = None
        self.root = root
        self.command = [sys.executable, "-m", "engine", "mcp", "--root", str(root), *flags]
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(120) or self.session is None:
            raise RuntimeError(f"the MCP server did not start: {self.failed!r}")

    def _run(self) -> None:
        import asyncio

        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        import asyncio

        from mcp.client.session import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client

        params = StdioServerParameters(command=self.command[0], args=self.command[1:], cwd=str(WORK))
        self.stop = asyncio.Event()
        try:
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                self.session = session
                self.ready.set()
                await self.stop.wait()
        except BaseException as exc:  # reported by __init__ or the next call
            self.failed = exc
            self.ready.set()

    def call(self, name: str, arguments: Any, timeout: float = MAX_SECONDS) -> Any:
        """The tool's result; an MCP protocol error is returned as the exception."""
        import asyncio

        from mcp.shared.exceptions import MCPError

        future = asyncio.run_coroutine_threadsafe(self.session.call_tool(name, arguments), self.loop)
        try:
            return future.result(timeout)
        except MCPError as exc:
            return exc

    def close(self) -> None:
        if self.stop is not None:
            self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)


MCP_ROOT = WORK / "mcp-root"
"""The folder the fuzzed server may read: a good position and record, a file holding the secret, a named pipe
and a link leading out of it.  A file outside it holds the secret too."""


def _mcp_root() -> Path:
    MCP_ROOT.mkdir(exist_ok=True)
    (MCP_ROOT / "state.json").write_text(json.dumps(STATES["petersburg"][0]), encoding="utf-8")
    (MCP_ROOT / "game.jsonl").write_text(RECORDS["take6"][0], encoding="utf-8")
    (MCP_ROOT / "secret.json").write_text(json.dumps({"game": "take6", SECRET: SECRET}), encoding="utf-8")
    (WORK / "outside.txt").write_text(f"{SECRET} 1 2 3\n", encoding="utf-8")
    (WORK / "outside.json").write_text(json.dumps(STATES["petersburg"][0]), encoding="utf-8")
    if not (MCP_ROOT / "pipe").exists():
        os.mkfifo(MCP_ROOT / "pipe")
    if not (MCP_ROOT / "out").is_symlink():
        (MCP_ROOT / "out").symlink_to(WORK / "outside.txt")
    return MCP_ROOT


FILE_ARGUMENTS = [
    "state.json", "game.jsonl", "secret.json", "pipe", "out", "../outside.txt", str(WORK / "outside.txt"),
    "../outside.json", str(WORK / "outside.json"), str(MCP_ROOT / "state.json"),
    "/etc/passwd", "/proc/self/environ", "/dev/zero", "-", "", ".", "..", "/", "\x00", "a" * 5000,
]
MCP_CALLS: dict[str, dict[str, Any]] = {
    "legal_actions": {"game": "petersburg", "position": "@state.json"},
    "explain_action": {
        "game": "petersburg", "position": "@state.json", "action": {"type": "pass", "player": 0}
    },
    "card_cost": {"position": "@state.json", "player": 0, "card": "Market"},
    "render_position": {"game": "petersburg", "position": "@state.json"},
    "check_record": {"path": "game.jsonl"},
    "record_position": {"game": "take6", "path": "game.jsonl", "upto": 3},
    "ask_row": {"card": 72, "rows": [[12, 14, 19], [30], [29, 41, 52, 60, 71], [88]]},
    "ask_cost": {"card": "Market", "owns": ["Market"]},
    "get_rule": {"clause_id": "T6-PLACE-2"},
}


@pytest.fixture(scope="module")
def mcp_session() -> Iterator[McpSession]:
    pytest.importorskip("mcp")
    session = McpSession(_mcp_root())
    yield session
    session.close()


@st.composite
def mcp_arguments(draw: st.DrawFn, tool: str) -> tuple[Any, str | None]:
    """A tool's good arguments, mutated as a tree, with its file argument pointed anywhere (also returned)."""
    args = draw(mutated_tree(MCP_CALLS[tool]))
    if not isinstance(args, dict):  # the client sends objects only
        args = {"arguments": args}
    where = None
    key = "path" if "path" in MCP_CALLS[tool] else "position"
    how = draw(st.sampled_from(("as drawn", "file", "notation"))) if key in MCP_CALLS[tool] else "as drawn"
    if how == "file":
        where = draw(st.sampled_from(FILE_ARGUMENTS))
        args[key] = where if key == "path" else "@" + where
    elif how == "notation" and key == "position":  # a notation line, a number in other digits or mutated
        lines = NOTATIONS[MCP_CALLS[tool].get("game", "petersburg")]
        line = draw(st.sampled_from(lines))
        args[key] = draw(other_digits(line) if draw(st.booleans()) else mutated_notation(lines))
    return args, where


def _readable_under_root(where: str) -> bool:
    """Whether the server may read ``where``: a regular file whose real path lies under its root."""
    try:
        real = (MCP_ROOT / where).resolve()
        return real.is_relative_to(MCP_ROOT.resolve()) and real.is_file()
    except (OSError, ValueError):
        return False


def _answer_text(result: Any) -> str:
    if isinstance(result, Exception):
        return str(result)
    parts = [
        getattr(c, "text", "") or getattr(getattr(c, "resource", None), "text", "") for c in result.content
    ]
    return "\n".join(parts) + json.dumps(result.structured_content, default=str)


@FUZZ
@given(tool=st.sampled_from(sorted(MCP_CALLS)), data=st.data())
def test_mcp_tools_over_stdio(mcp_session: McpSession, tool: str, data: st.DataObject) -> None:
    """Every tool over a real stdio session, with mutated arguments and file arguments pointing inside and
    outside the server's root, at a pipe, a device or a link out: each call is answered in time (a result,
    an error result naming the field, or a protocol error), no answer holds the secret of a file the
    server read or refused, and the server still answers afterwards."""
    args, where = data.draw(mcp_arguments(tool))
    try:  # the SDK's client cannot send a lone surrogate (it writes UTF-8): see the raw-line test below
        json.dumps(args, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        assume(False)
    result = mcp_session.call(tool, args)
    assert "FUZZSECRET" not in _answer_text(result), (tool, args)
    assert "internal: " not in _answer_text(result), f"{tool} {args}: {_answer_text(result)[:300]}"
    if where is not None and not _readable_under_root(where):
        refused = isinstance(result, Exception) or result.is_error
        assert refused, f"{tool} read {where!r}: {_answer_text(result)[:300]}"
    alive = mcp_session.call("ask_bullheads", {"cards": [55]})
    assert not isinstance(alive, Exception) and alive.structured_content["value"] == 7


def test_mcp_server_answers_raw_lines_with_lone_surrogates() -> None:
    """JSON-RPC lines written straight to ``arbiter mcp``'s standard input, some with a lone surrogate escaped
    in the arguments (which the SDK's client cannot send, and its server's parser refuses as it refuses
    invalid JSON, without an answer): every other request is answered and the server stays up."""
    pytest.importorskip("mcp")
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
         "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ask_mentions",
         "arguments": {"term": ["\ud800"]}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask_card",
         "arguments": {"name": "x\u2028y"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "legal_actions",
         "arguments": {"game": "take6", "position": "@\ud800"}}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "ask_bullheads",
         "arguments": {"cards": [55]}}},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)  # ASCII: the surrogates as escapes
    proc = subprocess.Popen([sys.executable, "-m", "engine", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=WORK)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(text.encode("ascii"))
    proc.stdin.flush()
    answered: dict[int, Any] = {}
    deadline = time.monotonic() + 120
    while not {3, 5} <= set(answered) and time.monotonic() < deadline:  # calls run at once: any order
        raw = proc.stdout.readline()
        if not raw:
            break
        reply = json.loads(raw)
        if "id" in reply:
            answered[reply["id"]] = reply
    proc.stdin.close()
    proc.wait(60)
    errors = proc.stderr.read().decode("utf-8", "replace")[-2000:] if proc.stderr is not None else ""
    assert sorted(answered) == [1, 3, 5], errors
    assert answered[3]["result"]["isError"] and "\u2028" not in answered[3]["result"]["content"][0]["text"]
    assert answered[5]["result"]["structuredContent"]["value"] == 7


def test_mcp_tools_say_they_only_read(mcp_session: McpSession) -> None:
    """The tool annotations stay true: every tool reads (only under the root), changes nothing, and answers
    the same way each time."""
    import asyncio

    tools = asyncio.run_coroutine_threadsafe(mcp_session.session.list_tools(), mcp_session.loop).result(60)
    for tool in tools.tools:
        hints = tool.annotations
        assert hints.read_only_hint and not hints.destructive_hint and hints.idempotent_hint, tool.name
    twice = [mcp_session.call("legal_actions", MCP_CALLS["legal_actions"]) for _ in range(2)]
    assert twice[0].structured_content == twice[1].structured_content


# --------------------------------------------------------------------------------------------------
# Files the commands write, into folders holding other files

OWN = WORK / "own"
"""A folder of someone's files, some named as the commands would name their output."""
OUTSIDE = WORK / "outside"
"""Where the links in that folder lead: files and a folder no command may write."""
OWN_NAMES = ["README.md", "take6.md", "petersburg.md", "disputed.md", "notes.txt", "game.html", "game.jsonl",
             "report.md", "report.json", "out.svg", "record.jsonl", "page.html", "perft.jsonl",
             "manifest.json", ".arbiter-write-test", "01-mine.first.jsonl", "01-mine.vector.json"]
_VIEW_OLD = "<!-- Written by arbiter view: a generated page, replaced when the record is viewed again. -->"
FORGERIES = [
    "someone's own {name}\n",
    "<p>my notes</p>\n" + _VIEW_OLD + "\n",
    "<!DOCTYPE html>\n" + _VIEW_OLD + "\n<p>a page of an earlier version</p>\n",
    "<!DOCTYPE html>\n<!-- Written by arbiter view: a generated page, replaced when the record is viewed "
    "again (arbiter seal view " + "0" * 64 + ") -->\n<p>mine</p>\n",
    "<!-- Written by arbiter show. -->\n<svg/>\n",
    "# Conformance campaign: my plans\n",
    '{"format": "arbiter-campaign-report", "mine": true}\n',
    '{"id": "take6/mine", "game": "take6", "counts": [1]}\nmy notes\n',
    '{"id":"take6/mine","clauses":[],"kind":"mine"}\n',
    '{"type":"header","format":"arbiter-record","source":{"implementation":"arbiter-rules"}}\n',
    '{"format": "arbiter-vectors", "files": ["take6.jsonl"], "schemas": ["schemas/record.schema.json"]}\n',
    "<!-- Written by `arbiter rules --write-docs docs/rules` from spec/; edit spec/, not this page. -->\n"
    "mine\n",
]
"""What someone's file may hold: plain notes, or text that quotes a command's marker, has the shape of its
output, or carries a seal that does not match (round three, class 5)."""


def _sealed_then_edited(data: st.DataObject) -> str:
    """A file a command wrote and its owner then edited: its seal no longer matches."""
    kind = data.draw(st.sampled_from([outputs.VIEW_PAGE, outputs.SVG_PICTURE, outputs.CAMPAIGN_MD,
                                      outputs.RULES_DOCS, outputs.CAMPAIGN_JSON, outputs.PERFT_FILE,
                                      outputs.VECTOR_CASE]))
    json_kinds = (outputs.CAMPAIGN_JSON, outputs.PERFT_FILE, outputs.VECTOR_CASE)
    text = '{"id":"take6/x","game":"take6","counts":[1]}\n' if kind in json_kinds else "<p>generated</p>\n"
    return kind.mark(text) + "my own line\n"


def _entries(root: Path) -> dict[str, tuple[str, bytes | str]]:
    """Every entry under ``root``: a link with where it leads, a file with its bytes, a folder."""
    out: dict[str, tuple[str, bytes | str]] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            out[name] = ("link", os.readlink(path))
        elif path.is_file():
            out[name] = ("file", path.read_bytes())
        else:
            out[name] = ("folder", "")
    return out


def _fill_own(data: st.DataObject) -> None:
    """Someone's folder: each name absent, a file of theirs (plain, forged, or sealed then edited) or a link
    leading out of the folder (to a file, or, for ``schemas``, a folder), and a ``schemas/`` of their own."""
    for root in (OWN, OUTSIDE):
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir()
    (OUTSIDE / "elsewhere").mkdir()
    for name in data.draw(st.lists(st.sampled_from(OWN_NAMES), unique=True)):
        how = data.draw(st.sampled_from(("plain", "forged", "edited", "link")))
        if how == "link":
            (OUTSIDE / f"victim-{name}").write_text(f"someone's {name}, elsewhere\n", encoding="utf-8")
            (OWN / name).symlink_to(OUTSIDE / f"victim-{name}")
        elif how == "edited":
            (OWN / name).write_text(_sealed_then_edited(data), encoding="utf-8")
        else:
            text = FORGERIES[0] if how == "plain" else data.draw(st.sampled_from(FORGERIES))
            (OWN / name).write_text(text.replace("{name}", name), encoding="utf-8")
    if data.draw(st.booleans()):
        (OWN / "schemas").symlink_to(OUTSIDE / "elsewhere")
    else:
        (OWN / "schemas").mkdir()
        (OWN / "schemas" / "record.schema.json").write_text('{"mine": true}\n', encoding="utf-8")


@settings(FUZZ, phases=[p for p in Phase if p is not Phase.explain])  # line tracing makes an export slow
@given(
    command=st.sampled_from(("view", "view -o", "view --force", "write-docs", "play --record", "show -o",
                             "fuzz --out", "fuzz --report", "fuzz --out DIR", "vectors export",
                             "vectors perft --write")),
    data=st.data(),
)
def test_commands_destroy_no_file_they_did_not_write(command: str, data: st.DataObject) -> None:
    """``view`` (its input named ``.html``, or ``-o`` at a file of someone's), ``rules --write-docs``,
    ``play --record``, ``show -o``, ``fuzz --out`` (a file, or a campaign's folder), ``--report``, ``vectors
    export`` and ``vectors perft --write`` pointed into a folder of someone's files: plain, forging a
    command's marker or shape, sealed and edited since, or links leading out of the folder (also in place of
    ``schemas/``).  Every file there and everywhere the links lead is left byte for byte, every link as it
    was, except the one file named with ``--force`` (never the input); what the command writes is new."""
    _fill_own(data)
    record = OWN / "game.html"  # a record whose name ends in .html: view's default output is itself
    lines = RECORDS["take6"][0].splitlines()
    header = {**json.loads(lines[0]), "source": {"implementation": "someone's", "version": "1"}}
    if record.is_symlink():
        record.unlink()
    record.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    before = {**_entries(OWN), **{f"outside/{k}": v for k, v in _entries(OUTSIDE).items()}}
    name = data.draw(st.sampled_from(OWN_NAMES))
    target = str(OWN / name)
    peer = f"{sys.executable} -m engine.conformance.peers.reference"
    argv = {
        "view": ["view", str(record)],
        "view -o": ["view", str(record), "-o", target],
        "view --force": ["view", str(record), "-o", target, "--force"],
        "write-docs": ["rules", "--write-docs", str(OWN)],
        "play --record": ["play", "take6", "--players", "2", "--quiet", "--record", target],
        "show -o": ["show", "take6", "--position", json.dumps(STATES["take6"][0]), "-o", target],
        "fuzz --out": ["fuzz", "--peer", peer, "--examples", "1", "--out", target],
        "fuzz --report": ["fuzz", "--peer", peer, "--games", "1", "--jobs", "1", "--report", target],
        "fuzz --out DIR": ["fuzz", "--peer", peer, "--games", "1", "--jobs", "1", "--out", str(OWN),
                           "--quiet"],
        "vectors export": ["vectors", "export", str(OWN), "--game", "take6", "--per-clause", "1"],
        "vectors perft --write": ["vectors", "perft", "--game", "take6", "--write", target],
    }[command]
    if argv[0] == "fuzz":  # the fuzzer runs Hypothesis itself: in a process of its own
        proc = subprocess.run([sys.executable, "-m", "engine", *argv], capture_output=True, text=True,
                              timeout=300, cwd=WORK)
        assert proc.returncode in (0, 1, 2) and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    else:
        run_cli(argv)
    forced = name if command == "view --force" and name != "game.html" else None
    after = {**_entries(OWN), **{f"outside/{k}": v for k, v in _entries(OUTSIDE).items()}}
    for entry, was in before.items():
        if entry != forced:
            assert after.get(entry) == was, f"{command} changed {entry}"
    added = sorted(e for e in after if e.startswith("outside/") and e not in before)
    assert not added, f"{command} wrote {added} through a link"


STREAMS = ["/dev/stdout", "/dev/null", "/dev/stderr"]
OUTPUT_NAMES = st.one_of(
    st.sampled_from(STREAMS),
    st.text(st.characters(codec="utf-8", exclude_characters="/\x00"), min_size=1, max_size=12),
    st.sampled_from(["a\nb.svg", "\x1b[2J.svg", "x\u2028y.svg", "²³.svg", "\t", " "]),
)


@FUZZ
@given(name=OUTPUT_NAMES, command=st.sampled_from(("show", "view")))
def test_output_names_and_streams(name: str, command: str) -> None:
    """``show -o`` and ``view -o`` with any file name (a newline, an escape, another script's digits) or a
    stream the user names (``/dev/stdout``, ``/dev/stderr``, ``/dev/null``): the file or the stream is
    written, and the line saying so is one line with the name escaped (round three, class 10)."""
    folder = WORK / "names"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    if command == "view" and name in STREAMS:
        name = "page.html"
    target = name if name in STREAMS else str(folder / name)
    if command == "show":
        argv = ["show", "take6", "--position", json.dumps(STATES["take6"][0]), "-o", target]
    else:
        record = _file(RECORDS["take6"][0].encode(), "game.jsonl")
        argv = ["view", record, "-o", target]
    code, out, err = run_cli(argv)
    if name in (".", ".."):
        assert code == 2
        return
    assert code == 0, err
    if name != "/dev/stderr":
        assert err.count("\n") == 1 and err.startswith("wrote "), repr(err[:300])
    if name == "/dev/stdout":
        assert "<svg" in out
    elif name not in STREAMS:
        assert (folder / name).read_text(encoding="utf-8").startswith("<!")


# --------------------------------------------------------------------------------------------------
# The viewer's page, read as a browser reads it


class _Scripts(html.parser.HTMLParser):
    """The script elements of a page, as an HTML parser splits them (text up to the first ``</script``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._open: dict[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._open, self._text = dict(attrs), []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._open is not None:
            self.scripts.append((self._open, "".join(self._text)))
            self._open = None


def page_scripts(page: str) -> list[tuple[dict[str, str | None], str]]:
    """The page's script blocks; a block holding ``<!--`` or ``<script`` is refused, since a browser reading
    it enters the script's escaped states, where ``</script>`` no longer ends it."""
    parser = _Scripts()
    parser.feed(page)
    parser.close()
    for _attrs, text in parser.scripts:
        lowered = text.lower()
        assert "<!--" not in lowered and "<script" not in lowered, "a block a browser reads differently"
    return parser.scripts


HOSTILE_TEXT = ["<!--<script>", "</script><script>alert(1)</script>", "</SCRIPT", "<!--", "-->", "\u2028",
                "\ud800", "<img src=x onerror=alert(1)>", "]]>", "&lt;", "\x00"]


@FUZZ
@given(data=st.data())
def test_the_viewers_page_parses_as_one_document(data: st.DataObject) -> None:
    """``arbiter view`` of records whose comments and claims hold hostile text: the page parses into exactly
    its two script blocks, the data block is the JSON the replay holds, and no block holds a sequence that
    would change how a browser ends it."""
    lines = data.draw(st.sampled_from(RECORDS["take6"])).splitlines()
    header = json.loads(lines[0])
    header["comment"] = "".join(data.draw(st.lists(st.sampled_from(HOSTILE_TEXT), min_size=1, max_size=3)))
    record = _file(("\n".join([json.dumps(header), *lines[1:]]) + "\n").encode("utf-8", "surrogatepass"),
                   "hostile.jsonl")
    page = WORK / "hostile.html"
    code, _out, _err = run_cli(["view", record, "-o", str(page), "--force"])
    if code != 0:
        return
    scripts = page_scripts(page.read_text(encoding="utf-8"))
    assert len(scripts) == 2
    data_blocks = [text for attrs, text in scripts if attrs.get("id") == "replay-data"]
    assert len(data_blocks) == 1 and "steps" in json.loads(data_blocks[0])


# --------------------------------------------------------------------------------------------------
# Numbers on the command line, and the work they start

NUMBER_FLAGS = {
    command: [flag for flag, nargs in _flags(command) if nargs and flag in NUMERIC]
    for command, NUMERIC in (
        ("fuzz", {"--players", "--examples", "--games", "--time", "--jobs", "--shrink-time", "--max-steps",
                  "--seed", "--timeout"}),
        ("check", {"--jobs"}),
        ("bench take6", {"--players", "--seconds", "--repeat", "--games"}),
        ("play take6", {"--players", "--seed"}),
        ("show take6", {"--upto", "--viewer", "--hand", "--costs-for"}),
        ("view", {"--viewer"}),
        ("explain take6", {"--upto"}),
        ("vectors export", {"--per-clause"}),
    )
}
ABSURD = ["nan", "NaN", "inf", "-inf", "1e308", "1e999", "-1e308", "9" * 40, "1e20", "-5", "0x10", "1_0", " "]


@FUZZ
@given(command=st.sampled_from(sorted(NUMBER_FLAGS)), data=st.data())
def test_numeric_flags_refuse_absurd_values(command: str, data: st.DataObject) -> None:
    """Every numeric flag of every command refuses NaN, infinities and values beyond any use (one line, exit
    2), before the command runs (the parser alone is asked: an accepted ``--time inf`` would never end)."""
    from engine.cli import build_parser

    flag = data.draw(st.sampled_from(NUMBER_FLAGS[command]))
    value = data.draw(st.sampled_from(ABSURD))
    if value == "-5" and flag in ("--seed",):
        value = "-1"
    words = command.split()
    argv = [*words, *(["x"] if words[0] in ("check", "view") else []),
            *(["--peer", "p"] if words[0] == "fuzz" else []), *(["d"] if command == "vectors export" else []),
            f"{flag}={value}"]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stop:
        build_parser().parse_args(argv)
    assert stop.value.code == 2 and err.getvalue().count("\n") == 1, (argv, err.getvalue())


@FUZZ
@given(files=st.integers(1, 4), jobs=st.integers(1, 10_000))
def test_check_starts_no_more_workers_than_files_and_cores(files: int, jobs: int) -> None:
    """``check --jobs N`` on F files starts at most min(N, F, cores) worker processes (and says so when it
    starts fewer than asked)."""
    import concurrent.futures

    from engine.cliargs import available_cores

    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def counting(max_workers: int) -> Any:
        started.append(max_workers)
        return real(max_workers=max_workers)

    paths = [_file(RECORDS["take6"][0].encode(), f"jobs-{i}.jsonl") for i in range(files)]
    concurrent.futures.ProcessPoolExecutor = counting  # type: ignore[misc, assignment]
    try:
        code, _out, err = run_cli(["check", "--jobs", str(min(jobs, 256)), *paths])
    finally:
        concurrent.futures.ProcessPoolExecutor = real  # type: ignore[misc]
    assert code == 0
    assert all(n <= min(jobs, files, available_cores()) for n in started), started
    if min(jobs, 256) > min(files, available_cores()) and files > 1:
        assert "capped to" in err


# --------------------------------------------------------------------------------------------------
# The assistant with links inside its root, and under concurrent load (round three: classes 2, 3 and 9)
#
# Two servers of their own: one whose root holds links (a folder flipped to and fro between a real folder
# and a link out of the root, by a thread, while the fuzzer reads through it; a hard link to an outside
# file; links that stay inside), one with a single heavy worker that takes batches of concurrent calls,
# drawings at scale 8 among them, some cancelled, some over the size bounds.  Inside the root every
# position and record is of a 3-player game; outside, of 7: an answer about 7 players read outside.

LINK_ROOT = WORK / "mcp-links"
LINK_OUTSIDE = WORK / "mcp-links-outside"


def _game_files(folder: Path, players: int) -> None:
    game = get_game("take6")
    folder.mkdir(parents=True, exist_ok=True)
    state = game.state_to_json(game.new_game(players, seed=players))
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    buffer = io.StringIO()
    write_record(buffer, record_game("take6", players=players, seed=players, actions=[]))
    (folder / "game.jsonl").write_text(buffer.getvalue(), encoding="utf-8")


def _link_root() -> Path:
    """The root: ``real/`` (3 players), ``.flip-dir/`` (3 players, the flipper's folder), ``.flip-link``
    (a link to the outside folder), links inside and out, a hard link to an outside file, a bad record."""
    _game_files(LINK_OUTSIDE, 7)
    _game_files(LINK_ROOT / "real", 3)
    _game_files(LINK_ROOT / ".flip-dir", 3)
    (LINK_ROOT / ".flip-link").symlink_to(LINK_OUTSIDE, target_is_directory=True)
    (LINK_ROOT / "alias.json").symlink_to("real/state.json")
    (LINK_ROOT / "dir").symlink_to(LINK_ROOT / "real", target_is_directory=True)
    (LINK_ROOT / "out.json").symlink_to(LINK_OUTSIDE / "state.json")
    (LINK_ROOT / "up").symlink_to("..", target_is_directory=True)
    os.link(LINK_OUTSIDE / "state.json", LINK_ROOT / "hard.json")
    (LINK_ROOT / "bad.jsonl").write_text('{"type": "header", "game": "take6"}\n', encoding="utf-8")
    return LINK_ROOT


class _Flipper:
    """A thread turning ``flip`` into the real folder, then into the link out, and back, without pause."""

    def __init__(self, root: Path) -> None:
        import threading

        self.root = root
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        flip, folder, link = self.root / "flip", self.root / ".flip-dir", self.root / ".flip-link"
        while not self.stop.is_set():
            for parked in (folder, link):
                with contextlib.suppress(OSError):
                    parked.rename(flip)  # flip is the folder, then the link
                    time.sleep(0.0005)
                    flip.rename(parked)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)


LINK_NAMES = [
    "real/state.json", "alias.json", "dir/state.json", "flip/state.json", "flip/game.jsonl", "out.json",
    "hard.json", "up/mcp-links-outside/state.json", "real/../flip/state.json", "bad.jsonl",
    "real/game.jsonl", "dir/game.jsonl", str(LINK_ROOT / "flip" / "state.json"),
]


@pytest.fixture(scope="module")
def mcp_link_session() -> Iterator[McpSession]:
    pytest.importorskip("mcp")
    session = McpSession(_link_root())
    flipper = _Flipper(LINK_ROOT)
    yield session
    flipper.close()
    session.close()


def _seats(result: Any) -> int | None:
    """How many players the answer's game has (None for a refusal)."""
    if isinstance(result, Exception) or result.is_error:
        return None
    data = result.structured_content
    return len(data["actions"]) if "actions" in data else data.get("players")


@FUZZ
@given(names=st.lists(st.sampled_from(LINK_NAMES), min_size=1, max_size=8), as_record=st.booleans())
def test_mcp_reads_nothing_outside_through_links(
    mcp_link_session: McpSession, names: list[str], as_record: bool
) -> None:
    """Reading through links inside the root while a folder on the path flips between a real folder and a
    link out of the root: every answer is about an inside game (3 players) or a refusal, never an outside
    one (7 players: a link followed out, a folder swapped during the open, a hard link); no error names the
    server's own path to the root unless the client gave it."""
    for name in names:
        if as_record or name.endswith(".jsonl"):
            result = mcp_link_session.call("record_position", {"game": "take6", "path": name})
        else:
            result = mcp_link_session.call("legal_actions", {"game": "take6", "position": f"@{name}"})
        assert _seats(result) in (None, 3), f"{name} read a game of {_seats(result)} players outside the root"
        if not name.startswith("/"):
            assert str(LINK_ROOT) not in _answer_text(result), (name, _answer_text(result)[:300])


class LoadSession(McpSession):
    """An ``arbiter mcp --workers 1`` session that sends batches of calls at once (:meth:`batch`)."""

    def batch(self, heavy: list[dict[str, Any]], cancel: list[bool], light: list[tuple[str, dict[str, Any]]],
              timeout: float) -> tuple[list[str], list[Any], list[Any], int]:
        """Send the heavy calls, cancel those ``cancel`` marks once they reached the server, then send the
        light ones: the order answers came in (``heavy<i>``/``light<i>``), the light and heavy results, and
        the most worker processes the server had at once meanwhile."""
        import asyncio

        server = _server_pid()

        async def run() -> tuple[list[str], list[Any], list[Any], int]:
            order: list[str] = []
            most = 0

            async def count() -> None:
                nonlocal most
                while True:
                    most = max(most, len(_children(server)))
                    await asyncio.sleep(0.02)

            counter = asyncio.create_task(count())

            async def one(label: str, name: str, args: dict[str, Any]) -> Any:
                result = await self.session.call_tool(name, args)
                order.append(label)
                return result

            tasks = [asyncio.create_task(one(f"heavy{i}", "render_position", a)) for i, a in enumerate(heavy)]
            await asyncio.sleep(0.3)
            for task, stop in zip(tasks, cancel, strict=True):
                if stop:
                    task.cancel()
            lights = await asyncio.gather(*(one(f"light{i}", n, a) for i, (n, a) in enumerate(light)))
            heavies = await asyncio.gather(*tasks, return_exceptions=True)
            counter.cancel()
            return order, list(lights), list(heavies), most

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)


@pytest.fixture(scope="module")
def mcp_load_session() -> Iterator[LoadSession]:
    pytest.importorskip("mcp")
    session = LoadSession(_mcp_root(), flags=("--workers", "1"))
    yield session
    session.close()


BIG_POSITION = get_game("petersburg").state_to_json(get_game("petersburg").new_game(4, seed=5))
"""A 4-player Saint Petersburg position: drawn at scale 8, seconds of work."""

LOOKUPS: list[tuple[str, dict[str, Any], Any]] = [
    ("get_rule", {"clause_id": "T6-PLACE-2"}, "T6-PLACE-2"),
    ("ask_bullheads", {"cards": [55]}, 7),
    ("ask_bonus", {"distinct": 7}, 28),
    ("search_rules", {"text": "Zar Peter"}, "Czar and Carpenter"),
]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError), open(
                f"/proc/{entry}/stat", encoding="ascii", errors="replace"
            ) as fh:
                if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
    return out


def _tree_cpu(pid: int) -> float:
    """CPU seconds used so far by ``pid`` and its children (from /proc)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _server_pid() -> int:
    """The most recent ``arbiter mcp`` server this process started."""
    mine = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    command = fh.read()
                if int(fields[1]) == os.getpid() and b"mcp" in command and b"--workers" in command:
                    mine.append(int(entry))
    return max(mine)


@settings(max_examples=max(3, BUDGET // 5), deadline=None)
@given(
    scales=st.lists(st.sampled_from([1, 4, 8]), min_size=1, max_size=3),
    data=st.data(),
    oversized=st.sampled_from([0, 1001, 150_000]),
)
def test_mcp_under_concurrent_load(
    mcp_load_session: LoadSession, scales: list[int], data: st.DataObject, oversized: int
) -> None:
    """Drawings of a 4-player Saint Petersburg position (scale 1, 4 or 8) sent at once to a server with one
    heavy worker, some cancelled as soon as they reached it, then lookups (and perhaps a call over the size
    bounds): every lookup gets its right answer before the last drawing at scale 8 is answered (a slow
    call delays no other), every call not cancelled is answered, a call over the bounds is refused naming
    its argument, the server never has more worker processes than its lanes hold (a cancelled call's worker
    is stopped before another starts), and once all is answered the server and its workers are idle."""
    cancel = data.draw(st.lists(st.booleans(), min_size=len(scales), max_size=len(scales)))
    lookups = data.draw(st.lists(st.sampled_from(LOOKUPS), min_size=1, max_size=5))
    light = [(name, args) for name, args, _ in lookups]
    if oversized:
        light.append(("ask_row", {"card": 5, "rows": list(range(1, oversized + 1))}))
    heavy = [{"game": "petersburg", "position": BIG_POSITION, "scale": s} for s in scales]
    from engine.assistant.pool import LOOKUP_WORKERS

    order, lights, heavies, most = mcp_load_session.batch(heavy, cancel, light, timeout=60 + 30 * len(heavy))
    assert most <= LOOKUP_WORKERS + 1, f"{most} worker processes at once (a cancelled call's worker left?)"
    for (name, _args, expected), result in zip(lookups, lights, strict=False):
        assert not result.is_error, (name, _answer_text(result)[:300])
        assert expected == result.structured_content["value"] or expected in _answer_text(result), name
    if oversized:
        refusal = lights[-1]
        assert refusal.is_error, _answer_text(refusal)
        assert refusal.structured_content["error"]["field"] == "rows", _answer_text(refusal)
    for i, (stopped, result) in enumerate(zip(cancel, heavies, strict=True)):
        assert stopped or not isinstance(result, BaseException), (i, result)
    kept = [i for i, stop in enumerate(cancel) if not stop]
    slow = [f"heavy{i}" for i in kept if scales[i] == 8]
    if slow:
        last = max(order.index(label) for label in slow)
        assert all(order.index(f"light{i}") < last for i in range(len(light))), order
    server = _server_pid()
    before = _tree_cpu(server)
    time.sleep(1.0)
    assert _tree_cpu(server) - before < 0.5, "the server kept working after every call was answered"


# RL environments: actions of every Python type (PettingZoo AEC and Parallel, OpenSpiel chance and
# decision nodes).  Each example plays a short random game in which some actions are hostile values; a
# hostile value is either refused, with the environment's own refusal and the state untouched, or taken as
# the legal action it stands for.  Needs the pettingzoo and openspiel extras (skipped without them).

RL_GAMES = ("take6", "petersburg")


def _rl_value(data: st.DataObject) -> Any:
    """An action of any Python type: integers in and out of range, huge, bools, floats (NaN, infinities),
    numeric and other strings, None, lists, bytes, numpy integers and floats, 0-d and 1-d arrays."""
    import math

    import numpy as np

    others = st.one_of(
        st.integers(min_value=2**62, max_value=2**80),
        st.integers(min_value=-(2**80), max_value=-(2**62)),
        st.booleans(),
        st.floats(),
        st.integers(0, 1100).map(lambda i: i + 0.5),
        st.integers(0, 300).map(str),
        st.text(max_size=4),
        st.none(),
        st.lists(st.integers(0, 300), max_size=3),
        st.integers(0, 300).flatmap(
            lambda i: st.sampled_from(
                [np.int64(i), np.int32(i), np.uint16(i), np.float64(i), np.float32(i), np.array(i),
                 np.array([i])]
            )
        ),
        st.sampled_from([math.inf, -math.inf, math.nan, 10**30, b"4", object(), {0: 1}, (1,)]),
    )
    return data.draw(
        st.one_of(st.integers(-5, 1100), others),  # half of them integers in or near every range of outcomes
        label="action",
    )


def _rl_index(value: Any) -> int | None:
    """The index ``value`` is in a ``Discrete`` space (an int that is not a bool, a numpy integer, a 0-d
    integer array), or None."""
    import numpy as np

    if type(value) is int or isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer):
        return int(value)
    return None


def _rl_pick(data: st.DataObject, mask: Any) -> int:
    legal = [int(i) for i in mask.nonzero()[0]]
    return legal[data.draw(st.integers(0, len(legal) - 1), label="legal pick")]


@FUZZ
@given(game=st.sampled_from(RL_GAMES), how=st.sampled_from(("raw_env", "env", "env strict")), data=st.data())
def test_rl_aec_actions_of_every_type(game: str, how: str, data: st.DataObject) -> None:
    """The AEC environments (``raw_env()``, ``env()`` and ``env(strict=True)``) given actions of every type:
    a value that is not an index of the space is refused (IllegalEnvAction, or PettingZoo's
    AssertOutOfBoundsWrapper's AssertionError in ``env()``) with the state, the agent to act and the
    terminations untouched; an index outside the mask is refused the same way, except that ``env()`` ends
    the game (the classic convention) and says why in the infos; a legal index is played."""
    pytest.importorskip("pettingzoo")
    import importlib

    from engine.envs.aec import IllegalEnvAction

    module = importlib.import_module(f"engine.envs.{game}_v0")
    if how == "raw_env":
        env = module.raw_env(players=2)
    else:
        env = module.env(players=2, **({"strict": True} if how == "env strict" else {}))
    env.reset(seed=data.draw(st.integers(0, 50), label="seed"))
    for _ in range(data.draw(st.integers(1, 40), label="steps")):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            return
        mask = obs["action_mask"]
        value = _rl_value(data) if data.draw(st.booleans(), label="hostile") else _rl_pick(data, mask)
        before, agent = env.engine_state, env.agent_selection
        index = _rl_index(value)
        try:
            env.step(value)
        except (IllegalEnvAction, AssertionError) as refusal:
            if isinstance(refusal, AssertionError):
                assert how != "raw_env" and str(refusal) == "action is not in action space", repr(refusal)
            assert env.engine_state is before and env.agent_selection == agent, f"{value!r} changed the state"
            assert not any(env.terminations.values()), f"{value!r} refused but the game ended"
            assert index is None or not 0 <= index < len(mask) or not mask[index] or how != "env", repr(value)
            continue
        assert index is not None and 0 <= index < len(mask), f"{value!r} ({type(value).__name__}) was taken"
        if not mask[index]:  # env(): the classic ending
            assert how == "env" and all(env.terminations.values()), f"illegal {index} was taken"
            assert env.infos[agent]["illegal_move"]["action"] == index
            return


@FUZZ
@given(game=st.sampled_from(RL_GAMES), data=st.data())
def test_rl_parallel_actions_of_every_type(game: str, data: st.DataObject) -> None:
    """The Parallel environments given one agent's action of every type: it is refused with
    IllegalEnvAction (the AEC environment's refusal) before any seat acts, the state and the step count
    untouched, or it is an index in the agent's mask and the step is played."""
    pytest.importorskip("pettingzoo")
    import importlib

    from engine.envs.aec import IllegalEnvAction

    par = importlib.import_module(f"engine.envs.{game}_v0").parallel_env(players=2)
    observations, _ = par.reset(seed=data.draw(st.integers(0, 50), label="seed"))
    for _ in range(data.draw(st.integers(1, 30), label="steps")):
        if not par.agents:
            return
        actions = {a: _rl_pick(data, o["action_mask"]) for a, o in observations.items()}
        agent = data.draw(st.sampled_from(sorted(actions)), label="agent")
        if data.draw(st.booleans(), label="hostile"):
            actions[agent] = _rl_value(data)
        before, steps, mask = par.engine_state, par.steps, observations[agent]["action_mask"]
        try:
            observations, *_ = par.step(actions)
        except IllegalEnvAction:
            assert par.engine_state is before and par.steps == steps, f"{actions[agent]!r} changed the state"
            continue
        index = _rl_index(actions[agent]) if actions[agent] is not None else par.wait
        assert index is not None, f"{actions[agent]!r} ({type(actions[agent]).__name__}) was taken"
        assert 0 <= index < len(mask) and mask[index], f"{actions[agent]!r} outside the mask was taken"


@FUZZ
@given(game=st.sampled_from(RL_GAMES), data=st.data())
def test_rl_openspiel_actions_of_every_type(game: str, data: st.DataObject) -> None:
    """OpenSpiel states given chance outcomes and actions of every type (6 nimmt!'s joint actions with one
    hostile entry, and ``apply_action`` at a decision node): each is refused (ValueError naming what was
    expected, or pybind's TypeError for a value it cannot pass as an integer) with the state exactly as it
    was (its serialization: history and attributes), or the action applied is a legal one."""
    pyspiel = pytest.importorskip("pyspiel")
    import engine.envs.openspiel  # noqa: F401  (registers the games)

    name = f"python_{game}"
    spiel = pyspiel.load_game(name, {"players": data.draw(st.sampled_from([2, 3]), label="players")})
    state = spiel.new_initial_state()
    rng = random.Random(data.draw(st.integers(0, 2**16), label="seed"))
    n = spiel.num_players()
    for _ in range(data.draw(st.integers(1, 120), label="steps")):
        if state.is_terminal():
            return
        if state.is_chance_node():
            legal = [[a for a, _p in state.chance_outcomes()]]
        elif state.is_simultaneous_node():
            legal = [state.legal_actions(p) for p in range(n)]
        else:
            legal = [state.legal_actions()]
        joint = [rng.choice(options) for options in legal]
        hostile = data.draw(st.booleans(), label="hostile")
        if hostile:
            joint[data.draw(st.integers(0, len(joint) - 1), label="who")] = _rl_value(data)
        single = len(joint) == 1 or (hostile and data.draw(st.booleans(), label="apply_action at a joint"))
        before, length = pyspiel.serialize_game_and_state(spiel, state), len(state.history())
        try:
            if single:
                state.apply_action(joint[0])
            else:
                state.apply_actions(joint)
        except (ValueError, TypeError, pyspiel.SpielError):
            assert pyspiel.serialize_game_and_state(spiel, state) == before, f"{joint!r} changed the state"
            continue
        applied = state.history()[length:]
        assert len(applied) == len(legal), f"{joint!r} applied {applied!r}"
        assert all(a in options for a, options in zip(applied, legal, strict=True)), (
            f"{joint!r} applied {applied!r}, legal {legal!r}"
        )


# Forking peers: processes a peer starts end with it, and an exit is a crash


PEER_BUDGET = int(os.environ.get("ARBITER_FUZZ_EXAMPLES", "0")) or {"deep": 300, "dev": 30}.get(PROFILE, 6)
"""Examples of the forking-peer target: each starts peer processes (a second or more), so fewer than
:data:`BUDGET`."""

_FORKS = iter(range(1 << 30))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the hostile peer forks")
@settings(max_examples=PEER_BUDGET, deadline=None, suppress_health_check=[HealthCheck.nested_given])
@given(
    at=st.sampled_from([r for r in protocol.REQUESTS if r != "quit"]),
    children=st.integers(1, 3),
    then=st.sampled_from(("serve", "exit", "hang", "garbage")),
    campaign=st.booleans(),
    fresh=st.booleans(),
)
def test_forking_peers_leave_no_process_behind(at: str, children: int, then: str, campaign: bool,
                                                fresh: bool) -> None:
    """A generated hostile peer (``engine.conformance.peers.fork``: it forks children holding its output at
    one request, then serves, exits, hangs or answers garbage) run by ``arbiter fuzz``, a campaign or not:
    the invariant holds, no child it forked is running once the command returns, and a peer that exits is
    never reported as not answering in time."""
    pids = WORK / f"fork-{next(_FORKS)}.pids"
    peer = (f"{sys.executable} -m engine.conformance.peers.fork --at {at} --children {children} "
            f"--then {then} --pids {pids}")
    argv = ["fuzz", "--peer", peer, "--game", "take6", "--players", "2", "--seed", "1", "--timeout", "1",
            "--max-steps", "12", "--no-shrink", "--quiet"]
    argv += (["--games", "2", "--jobs", "1", *(["--fresh"] if fresh else [])] if campaign
             else ["--examples", "2", *(["--reuse"] if not fresh else [])])
    forked: list[int] = []
    try:
        _code, out, err = run_cli(argv)
        forked = [int(p) for p in pids.read_text(encoding="utf-8").split()] if pids.exists() else []
        deadline = time.monotonic() + 5
        while any(running(p) for p in forked) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [p for p in forked if running(p)], f"forked processes outlive {' '.join(argv[:3])}"
        if then != "hang":
            assert "no reply to" not in out + err, (out + err)[-600:]
    finally:
        for pid in forked:  # a failing example stops what it left, so the next one starts clean
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
