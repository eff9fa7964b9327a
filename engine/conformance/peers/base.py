"""The server side of the peer protocol, and the reference engine behind it.

:class:`ReferencePeer` answers every request from this engine (``engine.game`` and the conformance kits).
A deliberately wrong peer subclasses it and overrides one hook (:meth:`ReferencePeer.after_apply`,
:meth:`ReferencePeer.do_apply`, :meth:`ReferencePeer.respond` ...) — one defect per peer.  Every peer built on
it declares the ``position`` capability: :meth:`ReferencePeer.do_position` sets the peer on a given position
(its JSON state, the notation line when the state is left out), and its hooks go on from there.

>>> peer = ReferencePeer()
>>> import json
>>> json.loads(peer.handle_line('{"cmd": "state"}'))["error"]
'bad-request'
>>> json.loads(peer.handle_line('{"cmd": "hello", "protocol": 1}'))["capabilities"]
['position']
>>> line = ('{"cmd": "position", "game": "take6", "state": {},'
...         ' "position": "standard 5 select 3/22/40/90 5/7 - - 60/12"}')
>>> peer.handle_line(line), peer.state.round
('{"ok":true}', 5)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import IO, Any

from engine.conformance.peers.protocol import PROTOCOL_VERSION, canonical, parse_request
from engine.errors import ArbiterError, InputError, RuleViolation
from engine.game import Game, game_names, get_game

__all__ = ["ReferencePeer", "serve"]


class ReferencePeer:
    """The reference engine speaking the peer protocol (one game at a time)."""

    name = "arbiter-rules reference"
    capabilities: tuple[str, ...] = ("position",)
    """The optional requests this peer answers (declared in ``hello``)."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.kit: Any = None
        self.state: Any = None
        self.players = 0
        self.applied = 0
        """Actions accepted since ``new``."""

    # -- the loop --------------------------------------------------------------------------------------

    def handle_line(self, line: str) -> str | None:
        """Answer one request line with one reply line (``None`` after ``quit``)."""
        try:
            request = parse_request(line)
        except InputError as exc:
            return self.refuse("bad-request", str(exc))
        if request["cmd"] == "quit":
            return None
        try:
            return self.respond(request)
        except RuleViolation as exc:
            return self.refuse("illegal", str(exc))
        except ArbiterError as exc:
            return self.refuse("bad-request", str(exc))

    def respond(self, request: Mapping[str, Any]) -> str:
        """The reply line to a valid request other than ``quit``."""
        cmd = request["cmd"]
        if cmd == "hello":
            return self.reply({"protocol": PROTOCOL_VERSION, "name": self.name, "games": self.supported(),
                               "capabilities": list(self.capabilities)})
        if cmd == "new":
            self.do_new(request["game"], request["variant"], request["players"], request["options"],
                        request["setup"])
            return self.reply({})
        if cmd == "position" and "position" in self.capabilities:
            self.do_position(request["game"], request["position"], request["state"])
            return self.reply({})
        if cmd == "position":
            return self.refuse("unsupported", "this peer does not declare the 'position' capability")
        if self.game is None:
            return self.refuse("bad-request", f"{cmd!r} before any 'new'")
        if cmd == "state":
            return self.reply(self.report())
        if cmd == "legal":
            return self.reply({"actions": self.legal(request["player"])})
        self.do_apply(request["player"], request["action"])
        self.applied += 1
        self.after_apply()
        return self.reply({})

    @staticmethod
    def reply(fields: Mapping[str, Any]) -> str:
        """An ``ok`` reply line."""
        return json.dumps({"ok": True, **fields}, separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def refuse(error: str, message: str) -> str:
        """A refusal line (``error`` one of illegal / unsupported / bad-request)."""
        return json.dumps({"ok": False, "error": error, "message": message}, separators=(",", ":"),
                          ensure_ascii=False)

    # -- the game --------------------------------------------------------------------------------------

    def supported(self) -> dict[str, list[str]]:
        """Game name → variants this peer plays (the reference: every game whose package is present)."""
        out: dict[str, list[str]] = {}
        for name in game_names():
            try:
                out[name] = list(get_game(name).variants)
            except (ImportError, AttributeError):  # a game package not (yet) present
                continue
        return out

    def do_new(self, game: str, variant: str, players: int, options: Mapping[str, Any], setup: Any) -> None:
        """Start a game from the explicit set-up."""
        from engine.conformance.kits.base import get_kit

        self.kit = get_kit(game)
        self.game, self.state = self.started(game, variant, players, options, self.kit.setup_from_json(setup))
        self.players = players
        self.applied = 0

    def started(
        self, game: str, variant: str, players: int, options: Mapping[str, Any], setup: Any
    ) -> tuple[Game, Any]:
        """The game a new game is played by and its start from the explicit ``setup`` (the reference's)."""
        g = get_game(game)
        return g, g.new_game(players, variant=variant, options=dict(options), setup=setup)

    def do_position(self, game: str, notation: str, state: Mapping[str, Any]) -> None:
        """Go on from a position: the JSON ``state`` (the reference's own form), else the ``notation`` line
        (an empty state object); both are validated by the game's position builder."""
        from engine.conformance.kits.base import get_kit
        from engine.positions import load_position

        if game not in game_names():
            raise InputError("game", f"unknown game {game!r}")
        g = get_game(game)
        self.state = g.state_from_json(dict(state)) if state else load_position(game, notation)
        self.game = g
        self.kit = get_kit(game)
        self.players = int(g.state_to_json(self.state)["players"])
        self.applied = 0

    def report(self) -> dict[str, Any]:
        """The fields of the ``state`` reply: to_act, terminal, scores, winners (when over), claims."""
        assert self.game is not None
        facts = self.kit.facts(self.state)
        terminal = self.game.is_terminal(self.state)
        out: dict[str, Any] = {
            "to_act": list(self.game.to_act(self.state)),
            "terminal": terminal,
            "scores": list(facts["scores"]),
            "claims": facts,
        }
        if terminal:
            out["winners"] = list(self.game.result(self.state).winners)
        return out

    def legal(self, player: int) -> list[Any]:
        """The JSON forms of ``player``'s legal actions."""
        assert self.game is not None
        if not 0 <= player < self.players:
            raise InputError("player", f"no seat {player} in a {self.players}-player game")
        return [self.game.action_to_json(a) for a in self.game.legal_actions(self.state, player)]

    def do_apply(self, player: int, action: Any) -> None:
        """Apply ``action`` (JSON) for ``player`` with the checked tier; raises RuleViolation."""
        assert self.game is not None
        parsed = self.game.action_from_json(action)
        named = self.kit.action_player(parsed)
        if named != player:
            raise InputError("player", f"the action names seat {named}, not {player}")
        self.state = self.game.apply(self.state, parsed)

    def after_apply(self) -> None:
        """Called after every accepted action (a hook for wrong peers)."""

    def scores(self) -> tuple[int, ...]:
        """The reference scores of the current state."""
        return tuple(self.kit.facts(self.state)["scores"])

    def legal_texts(self, player: int) -> set[str]:
        """Canonical texts of ``player``'s legal actions (for wrong peers comparing actions)."""
        return {canonical(a) for a in self.legal(player)}


def serve(peer: ReferencePeer, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Run the request loop until ``quit`` or end of input; returns the exit code (0)."""
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    for line in source:
        if not line.strip():
            continue
        reply = peer.handle_line(line)
        if reply is None:
            break
        sink.write(reply + "\n")
        sink.flush()
    return 0
