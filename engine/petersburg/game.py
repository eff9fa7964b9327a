"""``GAME``: Saint Petersburg behind the :class:`engine.game.Game` protocol.

The game object only dispatches: set-up is :mod:`engine.petersburg.setup`, legal actions
:mod:`engine.petersburg.legal`, checks :mod:`engine.petersburg.checks`, transitions and the phase flow
:mod:`engine.petersburg.transitions`, scores :mod:`engine.petersburg.scoring`, the position builder
:mod:`engine.petersburg.position`, the
notation :mod:`engine.petersburg.notation`, JSON :mod:`engine.petersburg.codec`, what a player sees
:mod:`engine.petersburg.observation`, readable text :mod:`engine.petersburg.narration`.

>>> from engine.petersburg import GAME, Buy
>>> s = GAME.new_game(2, seed=1)
>>> GAME.to_act(s)
(0,)
>>> a = next(a for a in GAME.legal_actions(s, 0) if isinstance(a, Buy))
>>> GAME.narrate(s, a, GAME.apply(s, a))[0]
'P0 buys Shepherd from the upper row for 5 R (20 R left) [SP-BUY-1]'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.derivation import Step, Trace
from engine.errors import IllegalAction, IllegalSetup, InputError, NotAnAction, RuleViolation
from engine.game import Result
from engine.petersburg import action_text, codec, narration, notation
from engine.petersburg.catalog import GAME_META, SHIPPED, VARIANTS, Book, build_book
from engine.petersburg.checks import check, granting_clause
from engine.petersburg.legal import legal_actions, reveals, to_act
from engine.petersburg.model import State
from engine.petersburg.observation import observation
from engine.petersburg.ruleset import ruleset
from engine.petersburg.scoring import standings, tiebreak_money
from engine.petersburg.setup import initial_state, seeded_setup, setup_spec
from engine.petersburg.transitions import TRANSITIONS, transition
from engine.spec import ClauseBook, Tables, load_clauses

__all__ = ["GAME", "PetersburgGame"]


class PetersburgGame:
    """Saint Petersburg (1-4 players, first and second edition).  Use the module-level ``GAME``.

    >>> GAME
    <Game petersburg: Saint Petersburg, 1–4 players, variants first, second>
    """

    name = "petersburg"
    title = "Saint Petersburg"

    def __init__(self, book: Book = SHIPPED) -> None:
        self.book = book
        """The rule tables this game plays by (:data:`~engine.petersburg.catalog.SHIPPED` for ``GAME``)."""
        self.min_players: int = GAME_META["min_players"]
        self.max_players: int = GAME_META["max_players"]
        self.variants: tuple[str, ...] = tuple(VARIANTS)
        self.clauses: ClauseBook = load_clauses("petersburg")

    def edited(self, tables: Tables, *, checked: bool = True) -> PetersburgGame:
        """This game playing by ``tables`` (an edited copy of the shipped tables: a fault model, a test):
        new games, positions read from notation or JSON, and states given to :meth:`adopt` play by them.
        The shipped ``GAME`` is untouched.  Raises SpecError when the edited tables do not load
        (``checked=False``: without the transcription checks, see ``build_book``).

        >>> import copy
        >>> from engine.spec import Tables
        >>> t = Tables.shipped("petersburg")
        >>> doc = copy.deepcopy(dict(t.doc("phases.toml")))
        >>> next(p for p in doc["param"] if p["name"] == "lower_row_discount")["value"] = 2
        >>> edited = GAME.edited(t.replace("phases.toml", doc, "lower 2"))
        >>> from engine.petersburg import cost_breakdown
        >>> s = GAME.new_game(2, seed=1)
        >>> [cost_breakdown(g.adopt(s), 0, "Lumberjack", source="lower").cost for g in (GAME, edited)]
        [2, 1]
        """
        return PetersburgGame(build_book(tables, checked=checked))

    def adopt(
        self,
        state: State,
        *,
        options: Mapping[str, Any] | None = None,
        skips: frozenset[str] = frozenset(),
        negated: frozenset[str] = frozenset(),
        bounds: frozenset[tuple[str, int]] = frozenset(),
    ) -> State:
        """``state`` (a position of any book) playing by this game's tables from now on: the same cards,
        money and scores, the ruleset compiled from :attr:`book`, with ``options`` changed, the steps
        ``skips`` names left out (:data:`~engine.petersburg.ruleset.SKIPPABLE`) and those ``negated`` names
        applied with the opposite sign (:data:`~engine.petersburg.ruleset.NEGATABLE`) and the bounds
        ``bounds`` names moved (:data:`~engine.petersburg.ruleset.BOUNDED`): a fault model's."""
        rs = state.rules
        same = skips == rs.skips and negated == rs.negated and bounds == rs.bounds
        if rs.book is self.book and not options and same:
            return state
        changed = {**dict(rs.options), **(options or {})}
        rules = ruleset(rs.variant, changed, self.book, skips, negated=negated, bounds=bounds)
        return state._replace(rules=rules)
    def __repr__(self) -> str:
        return (
            f"<Game {self.name}: {self.title}, {self.min_players}–{self.max_players} players, "
            f"variants {', '.join(self.variants)}>"
        )

    # ------------------------------------------------------------------------------------------- protocol
    def new_game(
        self,
        players: int,
        *,
        seed: int | None = 0,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Any = None,
    ) -> State:
        """A new game at the start of the first worker phase (IllegalSetup on bad players/variant/setup).
        ``seed=None`` needs an explicit ``setup`` (every stack's order is given; a game whose stacks' order
        is unknown starts from a :func:`~engine.petersburg.position.position` with ``unknown`` stacks and
        takes a ``Reveal`` chance step at each draw from them)."""
        return self._start(players, seed=seed, variant=variant, options=options, setup=setup)

    def _start(self, players: int, *, seed: int | None, variant: str | None,
               options: Mapping[str, Any] | None, setup: Any, trace: Trace | None = None) -> State:
        rs = ruleset(variant, options, self.book)
        setup_spec(players, self.book)
        if setup is None:
            if seed is None:
                raise IllegalSetup("SP-SETUP-7", "without a seed give the set-up (every stack's order)")
            setup = seeded_setup(players, seed=seed, variant=rs.variant, book=self.book)
        return initial_state(players, rs, setup, trace)

    def derive_start(
        self,
        players: int,
        *,
        seed: int | None = 0,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Any = None,
    ) -> tuple[Step, ...]:
        """The derivation of :meth:`new_game`'s start position: one step per fact the set-up decides, saying
        that fact (the stacks, the upper row, money, scores, markers), from the set-up's own code.

        >>> [(d.clause, d.says) for d in GAME.derive_start(2, seed=1)][:2]
        [('SP-SETUP-1', 'stacks'), ('SP-SETUP-4', 'upper')]
        """
        trace = Trace()
        self._start(players, seed=seed, variant=variant, options=options, setup=setup, trace=trace)
        return tuple(trace.steps)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seat that must act (``()`` when over)."""
        return to_act(state)

    def legal_actions(self, state: State, player: int | None = None) -> tuple[Any, ...]:
        """Every legal action of ``player``, pass first (``()`` if the player need not act); without a
        player, those of the seat that must act, or in phase ``reveal`` the legal chance outcomes (one
        ``Reveal`` per distinct unknown card of the stack drawn from, SP-REVEAL-1)."""
        if player is None:
            acting = to_act(state)
            return legal_actions(state, acting[0]) if acting else reveals(state)
        return legal_actions(state, player)

    def apply(self, state: State, action: Any) -> State:
        """Checked tier: raises IllegalAction / NotYourTurn / GameOver naming the clause (NotAnAction, a
        TypeError, for an action's JSON form: ``action_from_json`` reads it)."""
        if isinstance(action, Mapping):
            raise NotAnAction(self.name, action)
        return transition(state, check(state, action))

    def apply_unchecked(self, state: State, action: Any) -> State:
        """Unchecked tier: ``action`` must come from ``legal_actions`` of this very state."""
        return TRANSITIONS[type(action)](state, action)

    def is_terminal(self, state: State) -> bool:
        """True once the final scoring is done."""
        return bool(state.over)

    def result(self, state: State) -> Result:
        """VP per seat; ties broken by roubles (SP-END-8), still tied -> shared (SP-END-9)."""
        if not state.over:
            raise IllegalAction("SP-END-1", "the game is not over")
        ranking, winners = standings(state)
        tiebreak = tuple(tiebreak_money(state, p) for p in range(state.players))
        return Result(scores=state.vp, winners=winners, ranking=ranking, tiebreak=tiebreak)

    # ------------------------------------------------------------------------------------------- derivations
    def derive(self, before: State, action: Any) -> tuple[Step, ...]:
        """The derivation of one legal step, from re-running the transition with a trace: each payment
        with its cost (every reduction and the minimum), income per seat and card, Pub purchases, refills,
        phase and round changes, the final scoring and the result (see :mod:`engine.petersburg.transitions`).

        >>> from engine.petersburg import Buy
        >>> s = GAME.new_game(2, seed=1)
        >>> [d.clause for d in GAME.derive(s, Buy(0, "Shepherd"))]
        ['SP-BUY-1', 'SP-PHASE-2']
        """
        trace = Trace()
        transition(before, action, trace)
        return tuple(trace.steps)

    def why(self, state: State, action: Any) -> Step:
        """Why ``action`` is legal or refused in ``state``, as a derivation: the root's clause grants the
        action (``says`` ``legal``: SP-BUY-1, SP-HAND-4, ..., SP-TRADE-4 for a wildcard displacement,
        SP-POTJ-1 for Potjomkin's Village's credit; the action named in its canonical form, whichever
        edition's name or alias named its cards) or refuses it (``refused``, its note the refusal);
        beneath it every check passed, from the checked tier's own code: phase, turn, source or hand,
        displacement, the cost with each reduction and the minimum, and when the card scores.

        >>> from engine.petersburg import Buy, Discard
        >>> s = GAME.new_game(2, seed=1)
        >>> GAME.why(s, Buy(0, "Shepherd")).clause, GAME.why(s, Discard(0, "Shepherd")).clause
        ('SP-BUY-1', 'SP-TURN-1')
        """
        trace = Trace()
        try:
            canon = check(state, action, trace)
        except RuleViolation as exc:
            shown = self._shown(state, action)
            return trace.root(exc.clause, "refused", {"action": shown}, note=exc.message)
        # a legal action is explained in its canonical form: the same whichever edition's name or alias
        # named its cards
        shown = self._shown(state, canon)
        granted = granting_clause(state, canon)
        return trace.root(granted, "legal", {"action": shown}, note=f"{shown} is legal")

    def _shown(self, state: State, action: Any) -> str:
        """An action as a derivation names it: its text, or its ``repr`` when it is no action of the game."""
        try:
            return self.action_to_text(state, action)
        except InputError:
            return repr(action)

    def explain_result(self, state: State) -> Step:
        """The derivation of a finished game's result: each seat's place, VP and tie-break roubles (with
        the ``keep_roubles`` option), the tie-break (SP-END-8) and a shared win (SP-END-9)."""
        if not state.over:
            raise IllegalAction("SP-END-1", "the game is not over")
        trace = Trace()
        standings(state, trace)
        return trace.steps[0]

    # ------------------------------------------------------------------------------------------- views
    def observation(self, state: State, player: int) -> dict[str, Any]:
        """What ``player`` sees: own money and hand; others' hand sizes only (SP-SETUP-5)."""
        return observation(state, player)

    def describe_state(self, state: State) -> tuple[str, ...]:
        """Readable public position: round, phase, rows, stacks, each seat's VP, hand size and area, and the
        notation line."""
        return narration.describe_state(state)

    def narrate(self, before: State, action: Any, after: State) -> tuple[str, ...]:
        """Log lines of one step: the action with its cost, then scorings, Pub purchases, refills, round
        ends, the final scoring breakdown and the standings."""
        return narration.narrate(before, action, after)

    # ------------------------------------------------------------------------------------------- codecs
    def state_to_json(self, state: State) -> dict[str, Any]:
        """Canonical JSON of the whole state (cards by the edition's names; stacks top card first)."""
        return codec.state_to_json(state)

    def state_from_json(self, data: Any) -> State:
        """Parse and validate a JSON state; InputError names the offending field."""
        return self.adopt(codec.state_from_json(data))

    def action_to_json(self, action: Any) -> dict[str, Any]:
        """Canonical JSON of an action: ``{"type": ..., "player": ..., <fields>}``."""
        return codec.action_to_json(action)

    def action_from_json(self, data: Any) -> Any:
        """Parse and validate a JSON action (cards by name: any edition's name or a known alias)."""
        return codec.action_from_json(data)

    def action_to_text(self, state: State, action: Any) -> str:
        """The action as short text relative to ``state``, as SAN is to a chess position: ``pass``, ``buy
        Market``, ``buy Market lower`` (when both rows hold one), ``hand Lumberjack``, ``play Warehouse``,
        ``buy Gold Smelter over Gold Miner``, ``observe building``, ``discard``, ``pub 3``, ``reveal
        Market`` (:mod:`engine.petersburg.action_text`, docs/positions.md); :meth:`action_from_text` reads
        it back.

        >>> s = GAME.new_game(2, seed=1)
        >>> [GAME.action_to_text(s, a) for a in GAME.legal_actions(s)[:3]]
        ['pass', 'buy Shepherd', 'hand Shepherd']
        """
        return action_text.to_text(state, action, self.legal_actions(state))

    def action_to_words(self, state: State, action: Any) -> str:
        """The action in plain words, as the clause a question puts after "May" (``explain`` asks "May P2
        select 58 here?"); see :func:`engine.petersburg.action_text.to_words`."""
        return action_text.to_words(state, action)

    def action_from_text(self, state: State, text: str, *, checked: bool = True) -> Any:
        """The action ``text`` names in ``state`` (card names in any edition or language, any case):
        AmbiguousAction (an InputError) lists the readings of a text naming several legal actions,
        InputError names a malformed part, and IllegalAction is the engine's refusal of the action named
        (``checked=False``: that action is returned instead, to explain its refusal).  The state is not
        changed.

        >>> s = GAME.new_game(2, seed=1)
        >>> GAME.action_from_text(s, "buy schäfer")
        Buy(player=0, card='Shepherd', source='upper', displace=None)
        >>> GAME.action_from_text(s, "buy Bank")
        Traceback (most recent call last):
        ...
        engine.errors.IllegalAction: SP-BUY-3: there is no Bank in the upper row
        """
        return action_text.from_text(state, text, self.legal_actions(state), checked=checked)

    def variant_of(self, state: State) -> str:
        """The variant (edition) of a state.

        >>> GAME.variant_of(GAME.new_game(2, seed=1, variant="second"))
        'second'
        """
        return state.rules.variant

    def options_of(self, state: State) -> dict[str, Any]:
        """The options of a state."""
        return dict(state.rules.options)

    def players_of(self, state: State) -> int:
        """The number of seats."""
        return state.players

    def seed_of(self, state: State) -> int | None:
        """Always ``None``: every chance outcome (the stacks' order, the start markers) is part of the
        state, or a ``Reveal`` chance step for a stack of unknown order."""
        return None

    def with_seed(self, state: State, seed: int) -> State:
        """The state unchanged: no later chance event is derived from a seed (see :meth:`seed_of`)."""
        return state

    def to_notation(self, state: State) -> str:
        """The position as one notation line (see :mod:`engine.petersburg.notation`)."""
        return notation.to_notation(state)

    def from_notation(self, text: str) -> State:
        """Read a notation line (InputError / PositionError naming the token and, for a rule, the clause)."""
        return self.adopt(notation.from_notation(text))


GAME = PetersburgGame()
"""The Saint Petersburg game object (implements :class:`engine.game.Game`)."""
