"""The peer protocol: a line-oriented JSON dialogue between ``arbiter fuzz`` and another implementation.

In the manner of UCI for chess engines, the harness writes one JSON object per line on the peer's stdin
and reads exactly one JSON object per line from its stdout for every request (except ``quit``).  Every
reply is validated here before the harness looks at it: a reply that is not JSON, not an object, lacks a
field or has one of the wrong type is a :class:`ProtocolError` naming the field — reported as *garbage*,
never trusted.  The full specification with a transcript is in ``docs/fuzzing.md``.

Requests (harness → peer), field ``cmd`` first::

    {"cmd": "hello", "protocol": 1}
    {"cmd": "new", "game": "take6", "variant": "standard", "players": 3, "options": {}, "setup": {...}}
    {"cmd": "state"}
    {"cmd": "legal", "player": 0}
    {"cmd": "apply", "player": 0, "action": {...}}
    {"cmd": "position", "game": "take6", "position": "<notation line>", "state": {...}}   # capability
    {"cmd": "quit"}

Replies (peer → harness)::

    {"ok": true, "protocol": 1, "name": "my-engine 1.2", "games": {"take6": ["standard", "tactics"]},
     "capabilities": ["position"]}                                 # capabilities: optional
    {"ok": true}                                                   # new, apply, position
    {"ok": true, "to_act": [1, 2], "terminal": false, "scores": [0, 0, 0], "claims": {...}}
    {"ok": true, "to_act": [], "terminal": true, "scores": [66, 12, 30], "winners": [1]}
    {"ok": true, "actions": [{...}, {...}]}                        # legal
    {"ok": false, "error": "illegal", "message": "card 7 is not in your hand"}

A peer declaring the ``position`` capability in its ``hello`` reply accepts ``position``: forget the game
and go on from the position given in the project's notation (``position``) and as the reference's JSON
state (``state``; either is enough, both say the same).  A campaign then puts the peer back on the
reference's position after every divergence and plays on (see :mod:`engine.conformance.campaign.positions`).

Actions and set-ups travel in the reference engine's canonical JSON forms; two actions are the same when
their canonical texts (sorted keys, no spaces) are equal.

>>> encode(legal_request(2))
'{"cmd":"legal","player":2}'
>>> parse_reply('{"ok": true, "actions": [{"card": 7, "player": 0}]}', "legal").actions
('{"card":7,"player":0}',)
>>> parse_reply('{"ok": true, "to_act": [0], "terminal": "no", "scores": [0, 0]}', "state")
Traceback (most recent call last):
...
engine.conformance.peers.protocol.ProtocolError: reply to 'state': terminal: expected true or false, got 'no'
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Protocol

from attrs import field, frozen

from engine.errors import InputError
from engine.jsonio import loads

__all__ = [
    "CAPABILITIES",
    "ERROR_KINDS",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "REQUESTS",
    "Ack",
    "Hello",
    "InProcessTransport",
    "LegalReport",
    "PeerCrashed",
    "PeerFailure",
    "PeerTimeout",
    "ProtocolError",
    "Refusal",
    "Reply",
    "StateReport",
    "SubprocessTransport",
    "Transport",
    "apply_request",
    "canonical",
    "encode",
    "hello_request",
    "legal_request",
    "new_request",
    "parse_reply",
    "parse_request",
    "position_request",
    "quit_request",
    "state_request",
]

PROTOCOL_VERSION = 1
"""The version a peer announces in its ``hello`` reply; the harness refuses any other."""

MAX_LINE = 1 << 20
"""Longest reply line accepted (bytes); a longer one is garbage."""

REQUESTS: tuple[str, ...] = ("hello", "new", "state", "legal", "apply", "position", "quit")
"""Every request the harness may send, in the order a game uses them (``position`` only to a peer
declaring the capability)."""

CAPABILITIES: tuple[str, ...] = ("position",)
"""Optional requests a peer may declare in its ``hello`` reply (``capabilities``)."""

ERROR_KINDS: tuple[str, ...] = ("illegal", "unsupported", "bad-request")
"""Values of ``error`` in a refusal: the action breaks a rule; the peer lacks the game/variant/option; the
request itself is malformed."""


# --------------------------------------------------------------------------------------------------------
# Errors of the peer (seen from the harness)


class PeerFailure(Exception):
    """The peer did not answer properly: base of garbage, crash and timeout.  ``kind`` names which."""

    kind = "failure"


class ProtocolError(PeerFailure, InputError):
    """A reply is not a valid message of the protocol (``kind`` ``garbage``); names the field.

    >>> str(ProtocolError("reply to 'legal'", "not JSON: 'hello'"))
    "reply to 'legal': not JSON: 'hello'"
    """

    kind = "garbage"


class PeerCrashed(PeerFailure):
    """The peer process ended (or raised, in process) before answering; the message holds its exit code
    and the tail of its stderr."""

    kind = "crash"


class PeerTimeout(PeerFailure):
    """The peer did not answer one request within the per-message timeout."""

    kind = "timeout"


# --------------------------------------------------------------------------------------------------------
# Requests


def canonical(data: Any) -> str:
    """The canonical text of a JSON value: sorted keys, no spaces, UTF-8 kept; equal values, equal texts.

    >>> canonical({"row": 2, "player": 1})
    '{"player":1,"row":2}'
    """
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def encode(message: Mapping[str, Any]) -> str:
    """One message as one line of text (no newline): ``cmd`` first, then the other fields sorted."""
    head = {"cmd": message["cmd"]} if "cmd" in message else {}
    rest = {k: message[k] for k in sorted(message) if k != "cmd"}
    return json.dumps({**head, **rest}, separators=(",", ":"), ensure_ascii=False)


def hello_request() -> dict[str, Any]:
    """``hello``: the first request to a freshly started peer; the reply names what it supports."""
    return {"cmd": "hello", "protocol": PROTOCOL_VERSION}


def new_request(
    game: str, variant: str, players: int, setup: Any, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``new``: forget any previous game and start this one from the explicit set-up (no shuffling)."""
    return {
        "cmd": "new",
        "game": game,
        "variant": variant,
        "players": players,
        "options": dict(options or {}),
        "setup": setup,
    }


def state_request() -> dict[str, Any]:
    """``state``: who must act, whether the game is over, the scores (and the winners once it is over)."""
    return {"cmd": "state"}


def legal_request(player: int) -> dict[str, Any]:
    """``legal``: every legal action of ``player`` now (an empty list when the player need not act)."""
    return {"cmd": "legal", "player": player}


def apply_request(player: int, action: Any) -> dict[str, Any]:
    """``apply``: ``player`` takes ``action`` (the reference's JSON form); the peer accepts or refuses."""
    return {"cmd": "apply", "player": player, "action": action}


def position_request(game: str, notation: str, state: Any) -> dict[str, Any]:
    """``position`` (a capability): forget any game and go on from this position, given in the project's
    notation and as the reference's JSON state."""
    return {"cmd": "position", "game": game, "position": notation, "state": state}


def quit_request() -> dict[str, Any]:
    """``quit``: the peer exits; no reply."""
    return {"cmd": "quit"}


def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(where, f"expected an integer, got {_show(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise InputError(where, f"expected an integer from {low} to {high}, got {value}")
    return value


def _show(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_request(line: str) -> dict[str, Any]:
    """Parse and validate one request line (the peer side); raises InputError naming the field.

    >>> parse_request('{"cmd": "legal", "player": 1}')
    {'cmd': 'legal', 'player': 1}
    >>> parse_request('{"cmd": "legal"}')
    Traceback (most recent call last):
    ...
    engine.errors.InputError: request 'legal': player: missing
    """
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InputError("request", f"not JSON ({exc.__class__.__name__}): {_show(line)}") from None
    if not isinstance(data, dict):
        raise InputError("request", f"expected a JSON object, got {_show(data)}")
    cmd = data.get("cmd")
    if cmd not in REQUESTS:
        raise InputError("request.cmd", f"expected one of {', '.join(REQUESTS)}, got {_show(cmd)}")
    where = f"request {cmd!r}"
    required: dict[str, tuple[str, ...]] = {
        "hello": ("protocol",),
        "new": ("game", "variant", "players", "options", "setup"),
        "legal": ("player",),
        "apply": ("player", "action"),
        "position": ("game", "position", "state"),
    }
    for name in required.get(cmd, ()):
        if name not in data:
            raise InputError(f"{where}: {name}", "missing")
    if cmd in ("legal", "apply"):
        _int(data["player"], f"{where}: player", 0)
    if cmd == "position":
        for name in ("game", "position"):
            if not isinstance(data[name], str):
                raise InputError(f"{where}: {name}", f"expected a string, got {_show(data[name])}")
        if not isinstance(data["state"], dict):
            raise InputError(f"{where}: state", f"expected an object, got {_show(data['state'])}")
    if cmd == "new":
        _int(data["players"], f"{where}: players", 1)
        for name in ("game", "variant"):
            if not isinstance(data[name], str):
                raise InputError(f"{where}: {name}", f"expected a string, got {_show(data[name])}")
        if not isinstance(data["options"], dict):
            raise InputError(f"{where}: options", f"expected an object, got {_show(data['options'])}")
    return data


# --------------------------------------------------------------------------------------------------------
# Replies


@frozen
class Hello:
    """Reply to ``hello``: the peer's name and the variants it supports, per game."""

    name: str
    games: Mapping[str, tuple[str, ...]]
    players: Mapping[tuple[str, str], tuple[int, int]] = field(factory=dict, eq=False)
    """``(game, variant)`` → the ``(fewest, most)`` players the peer plays it with, where it says so."""
    capabilities: tuple[str, ...] = field(default=(), eq=False)
    """The optional requests the peer declares (:data:`CAPABILITIES`), e.g. ``("position",)``."""


@frozen
class Ack:
    """``{"ok": true}``: the request (``new`` or ``apply``) was accepted."""


@frozen
class Refusal:
    """``{"ok": false, ...}``: the peer refused; ``error`` is one of :data:`ERROR_KINDS`."""

    error: str
    message: str


@frozen
class StateReport:
    """Reply to ``state``.  ``winners`` is ``None`` while the game runs; ``claims`` holds the optional
    facts the peer asserts (names and forms of the record vocabulary, see
    :mod:`engine.conformance.kits.base`)."""

    to_act: tuple[int, ...]
    terminal: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...] | None = None
    claims: Mapping[str, Any] | None = field(default=None, eq=False)


@frozen
class LegalReport:
    """Reply to ``legal``: the actions' canonical texts (for comparing) and the JSON values (for replay)."""

    actions: tuple[str, ...]
    values: tuple[Any, ...] = field(eq=False, default=())


Reply = Hello | Ack | Refusal | StateReport | LegalReport


def _seats(value: Any, where: str, players: int | None) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise InputError(where, f"expected a list of seats, got {_show(value)}")
    high = None if players is None else players - 1
    seats = tuple(_int(v, f"{where}[{i}]", 0, high) for i, v in enumerate(value))
    if len(set(seats)) != len(seats):
        raise InputError(where, f"a seat is listed twice: {list(seats)}")
    return seats


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(where, f"expected true or false, got {_show(value)}")
    return value


def parse_reply(line: str | bytes, request: str, players: int | None = None) -> Reply:
    """Parse and validate the peer's reply to a ``request`` (its ``cmd``); raises ProtocolError.

    ``players`` (when known) bounds the seat numbers and the length of ``scores``.

    >>> parse_reply('{"ok": true, "to_act": [1], "terminal": false, "scores": [3, 0]}', "state", 2)
    StateReport(to_act=(1,), terminal=False, scores=(3, 0), winners=None, claims=None)
    >>> parse_reply('{"ok": false, "error": "illegal", "message": "no"}', "apply")
    Refusal(error='illegal', message='no')
    >>> parse_reply('{"ok": true, "to_act": [2], "terminal": false, "scores": [3, 0]}', "state", 2)
    Traceback (most recent call last):
    ...
    engine.conformance.peers.protocol.ProtocolError: reply to 'state': to_act[0]: expected an integer ...
    """
    where = f"reply to {request!r}"
    try:
        return _parse_reply(line, request, players)
    except ProtocolError:
        raise
    except InputError as exc:
        raise ProtocolError(f"{where}: {exc.field}", exc.message) from None


def _parse_reply(line: str | bytes, request: str, players: int | None) -> Reply:
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("line", f"not UTF-8: {_show(line)}") from None
    text = line.strip()
    if not text:
        raise InputError("line", "empty line")
    try:
        data = loads(text, source="line")
    except InputError as exc:
        raise InputError("line", f"{exc.message}: {_show(text)}") from None
    if not isinstance(data, dict):
        raise InputError("line", f"expected a JSON object, got {_show(data)}")
    if "ok" not in data:
        raise InputError("ok", "missing")
    if not _bool(data["ok"], "ok"):
        error = data.get("error")
        if error not in ERROR_KINDS:
            raise InputError("error", f"expected one of {', '.join(ERROR_KINDS)}, got {_show(error)}")
        message = data.get("message", "")
        if not isinstance(message, str):
            raise InputError("message", f"expected a string, got {_show(message)}")
        return Refusal(error, message)
    if request == "hello":
        return _parse_hello(data)
    if request == "state":
        return _parse_state(data, players)
    if request == "legal":
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise InputError("actions", f"expected a list, got {_show(actions)}")
        for i, action in enumerate(actions):
            if not isinstance(action, dict):
                raise InputError(f"actions[{i}]", f"expected an object, got {_show(action)}")
        texts = tuple(canonical(a) for a in actions)
        if len(set(texts)) != len(texts):
            dup = next(t for t in texts if texts.count(t) > 1)
            raise InputError("actions", f"an action is listed twice: {dup}")
        return LegalReport(texts, tuple(actions))
    return Ack()


def _parse_hello(data: Mapping[str, Any]) -> Hello:
    version = _int(data.get("protocol"), "protocol")
    if version != PROTOCOL_VERSION:
        raise InputError("protocol", f"this harness speaks version {PROTOCOL_VERSION}, the peer {version}")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise InputError("name", f"expected a string, got {_show(name)}")
    games = data.get("games")
    if not isinstance(games, dict) or not games:
        raise InputError("games", f"expected a non-empty object game -> [variants], got {_show(games)}")
    out: dict[str, tuple[str, ...]] = {}
    ranges: dict[tuple[str, str], tuple[int, int]] = {}
    for game, variants in games.items():
        if not isinstance(variants, list):
            raise InputError(f"games.{game}", f"expected a list of variants, got {_show(variants)}")
        names: list[str] = []
        for i, entry in enumerate(variants):
            where = f"games.{game}[{i}]"
            if isinstance(entry, str):
                names.append(entry)
                continue
            if not isinstance(entry, dict) or not isinstance(entry.get("variant"), str):
                raise InputError(where, f"expected a variant name or {{\"variant\": NAME, \"players\": "
                                 f"[FEWEST, MOST]}}, got {_show(entry)}")
            extra = sorted(set(entry) - {"variant", "players"})
            if extra:
                raise InputError(f"{where}.{extra[0]}", "unknown field (known: variant, players)")
            names.append(entry["variant"])
            if "players" in entry:
                span = entry["players"]
                if not isinstance(span, list) or len(span) != 2:
                    raise InputError(f"{where}.players", f"expected [FEWEST, MOST], got {_show(span)}")
                lo, hi = (_int(v, f"{where}.players[{j}]", 1, 100) for j, v in enumerate(span))
                if lo > hi:
                    raise InputError(f"{where}.players", f"fewest {lo} is more than most {hi}")
                ranges[(game, entry["variant"])] = (lo, hi)
        out[game] = tuple(names)
    declared = data.get("capabilities", [])
    if not isinstance(declared, list):
        raise InputError("capabilities", f"expected a list of names, got {_show(declared)}")
    for i, cap in enumerate(declared):
        if cap not in CAPABILITIES:
            known = ", ".join(CAPABILITIES)
            raise InputError(f"capabilities[{i}]", f"expected one of {known}, got {_show(cap)}")
    return Hello(name, out, ranges, tuple(declared))


def _parse_state(data: Mapping[str, Any], players: int | None) -> StateReport:
    for name in ("to_act", "terminal", "scores"):
        if name not in data:
            raise InputError(name, "missing")
    to_act = _seats(data["to_act"], "to_act", players)
    terminal = _bool(data["terminal"], "terminal")
    scores_raw = data["scores"]
    if not isinstance(scores_raw, list):
        raise InputError("scores", f"expected a list of integers, got {_show(scores_raw)}")
    scores = tuple(_int(v, f"scores[{i}]") for i, v in enumerate(scores_raw))
    if players is not None and len(scores) != players:
        raise InputError("scores", f"expected {players} scores (one per seat), got {len(scores)}")
    winners: tuple[int, ...] | None = None
    if terminal:
        if "winners" not in data:
            raise InputError("winners", "missing (required once the game is over)")
        winners = _seats(data["winners"], "winners", players)
    claims = data.get("claims")
    if claims is not None and not isinstance(claims, dict):
        raise InputError("claims", f"expected an object fact -> value, got {_show(claims)}")
    return StateReport(to_act, terminal, scores, winners, claims)


# --------------------------------------------------------------------------------------------------------
# Transports (harness side): send one request, get one validated reply


class Transport(Protocol):
    """A connection to one running peer."""

    def request(self, message: Mapping[str, Any], players: int | None = None) -> Reply:
        """Send one request and return the validated reply; raises a PeerFailure."""
        ...

    def close(self) -> None:
        """Stop the peer (sending ``quit`` first when it is still alive)."""
        ...


EXIT_POLL = 0.1
"""Seconds between two looks, while a reply is awaited, at whether the peer process has exited (a process
it started may hold its output open, so the end of the output does not tell)."""


class SubprocessTransport:
    """A peer running as a child process, spoken to over its stdin/stdout with a per-message timeout.

    The command is split like a shell would (``shlex``) but run without a shell.  The peer's stderr goes
    to a temporary file whose tail is quoted when it crashes.  The first reply may take ``startup`` seconds
    (at least ``timeout``): starting an interpreter is not answering a message.

    The peer runs in a session (and process group) of its own, and :meth:`close` stops the whole group: a
    process the peer started does not outlive its game.  A peer that exits without replying is a crash
    at once, even while a process it started still holds its output open.  (A process that leaves the
    group on purpose, a daemon starting a session of its own, is out of reach.)
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = 5.0, cwd: str | None = None,
                 startup: float = 10.0) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise InputError("--peer", "empty command")
        self.argv = argv
        self.timeout = timeout
        self._first_timeout: float | None = max(timeout, startup)
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the peer; closed in close()
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=cwd,
                bufsize=0,
                start_new_session=True,
            )
        except OSError as exc:
            self._stderr.close()
            raise InputError("--peer", f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._stdin: IO[bytes] = self._proc.stdin
        self._stdout: IO[bytes] = self._proc.stdout
        os.set_blocking(self._stdout.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._buffer = b""
        self._closed = False

    def request(self, message: Mapping[str, Any], players: int | None = None) -> Reply:
        cmd = str(message["cmd"])
        self._send(message)
        return parse_reply(self._read_line(cmd), cmd, players)

    def _send(self, message: Mapping[str, Any]) -> None:
        data = (encode(message) + "\n").encode("utf-8")
        try:
            self._stdin.write(data)
            self._stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise PeerCrashed(self._crash_text(f"while sending {message['cmd']!r}")) from None

    def _read_line(self, cmd: str) -> bytes:
        timeout, self._first_timeout = self._first_timeout or self.timeout, None
        deadline = time.monotonic() + timeout
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line, self._buffer = self._buffer[:newline], self._buffer[newline + 1 :]
                return line
            if len(self._buffer) > MAX_LINE:
                raise ProtocolError(f"reply to {cmd!r}", f"line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise PeerTimeout(f"no reply to {cmd!r} within {timeout:g} s")
            ready = self._selector.select(min(left, EXIT_POLL))
            exited = not ready and self._proc.poll() is not None
            try:
                chunk = os.read(self._stdout.fileno(), 65536)
            except BlockingIOError:
                if not exited:
                    continue
                # the peer is gone and its output is still open: a process it started holds it
                partial = f" after a partial line {_show(self._buffer)}" if self._buffer else ""
                raise PeerCrashed(self._crash_text(
                    f"before replying to {cmd!r}{partial} (a process it started still holds its output)"
                )) from None
            if not chunk:
                partial = f" after a partial line {_show(self._buffer)}" if self._buffer else ""
                raise PeerCrashed(self._crash_text(f"before replying to {cmd!r}{partial}"))
            self._buffer += chunk

    def _crash_text(self, when: str) -> str:
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        status = "closed its output" if code is None else f"exited with code {code}"
        return f"peer {status} {when}{self._stderr_tail()}"

    def _stderr_tail(self, lines: int = 3) -> str:
        try:
            self._stderr.seek(0)
            text = self._stderr.read()[-4000:].decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        tail = [ln for ln in text.splitlines() if ln.strip()][-lines:]
        return ("; stderr: " + " | ".join(t.strip() for t in tail)) if tail else ""

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                self._stdin.write((encode(quit_request()) + "\n").encode())
                self._stdin.flush()
            with contextlib.suppress(OSError, ValueError):
                self._stdin.close()
            try:
                self._proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._stop_group()
        for stream in (self._stdin, self._stdout):
            with contextlib.suppress(OSError, ValueError):
                stream.close()
        self._selector.close()
        self._stderr.close()

    def _stop_group(self) -> None:
        """Kill what is left of the peer's process group (the processes it started).  The group's id is the
        peer's pid, which the system does not give out again while a process of the group lives."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)

    def __enter__(self) -> SubprocessTransport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcessTransport:
    """A peer living in this process: ``handle`` maps one request line to one reply line.

    Messages still travel as text and every reply is validated exactly as from a subprocess, so an
    in-process peer is a faithful, fast stand-in for tests.  An exception raised by ``handle`` counts as
    a crash (no per-message timeout: a hanging in-process peer hangs the harness).
    """

    def __init__(self, handle: Callable[[str], str | None]) -> None:
        self._handle = handle
        self._dead: str | None = None

    def request(self, message: Mapping[str, Any], players: int | None = None) -> Reply:
        cmd = str(message["cmd"])
        if self._dead is not None:
            raise PeerCrashed(self._dead)
        try:
            line = self._handle(encode(message))
        except (Exception, SystemExit) as exc:  # the peer's own failure, whatever it is, is a crash
            self._dead = f"peer crashed before replying to {cmd!r}: {exc.__class__.__name__}: {exc}"
            raise PeerCrashed(self._dead) from None
        if line is None:
            self._dead = f"peer closed its output before replying to {cmd!r}"
            raise PeerCrashed(self._dead)
        if "\n" in line.rstrip("\n"):
            raise ProtocolError(f"reply to {cmd!r}", f"more than one line: {_show(line)}")
        return parse_reply(line, cmd, players)

    def close(self) -> None:
        if self._dead is None:
            with contextlib.suppress(Exception):
                self._handle(encode(quit_request()))
        self._dead = "closed"
