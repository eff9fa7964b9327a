"""``GAME``: 6 nimmt! behind the :class:`engine.game.Game` protocol.

The game object only dispatches: the deal is :mod:`engine.take6.deal`, the transitions and the checks of
the checked tier :mod:`engine.take6.transitions`, the position builder :mod:`engine.take6.position`, the
notation :mod:`engine.take6.notation`, JSON :mod:`engine.take6.codec`, what a player sees
:mod:`engine.take6.observation`, readable text :mod:`engine.take6.narration`.

>>> from engine.take6 import Deal, Select, TakeRow
>>> state = GAME.new_game(2, seed=1, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
...                                                    (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)),
...                                             rows=(30, 40, 50, 60)))
>>> state = GAME.apply(state, Select(0, 1))
>>> state = GAME.apply(state, Select(1, 11))
>>> state.phase, GAME.to_act(state), GAME.legal_actions(state, 0)[:2]
('choose', (0,), (TakeRow(player=0, row=0), TakeRow(player=0, row=1)))
>>> state = GAME.apply(state, TakeRow(0, 2))
>>> state.rows, state.penalties
(((30,), (40,), (1, 11), (60,)), (3, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any

from engine.derivation import Step, Trace, render
from engine.errors import IllegalAction, IllegalSetup, InputError, NotAnAction, RuleViolation
from engine.game import Result
from engine.spec import ClauseBook, Tables
from engine.take6 import action_text, codec, notation
from engine.take6.deal import check_setup, deal_order, deal_round, derived_seed, with_seed
from engine.take6.layout import (
    DRAFT,
    F_STOCK,
    FLIP,
    I_FIXED,
    I_HELD,
    I_PHASE,
    I_ROWS,
    I_RULES,
    I_SELECTED,
    I_SELECTS,
    I_TO_ACT,
    TAKES,
    ZEROS,
    new,
    replace,
)
from engine.take6.model import Action, Select, Setup, State, TakeRow
from engine.take6.narration import describe_state
from engine.take6.observation import observation
from engine.take6.rules import CLAUSES, GAME_INFO, OPTIONS, SHIPPED, VARIANTS, Book, build_book
from engine.take6.scoring import result_of
from engine.take6.transitions import check, granting_clause, step, take_row, turn_fast

__all__ = ["GAME", "Take6", "deal_order", "derived_seed"]


class Take6:
    """6 nimmt! as an :class:`engine.game.Game` (exported as ``GAME``).

    >>> GAME
    <Game take6: 6 nimmt!, 2–10 players, variants standard, tactics, logic, professional, kids, countdown>
    """

    name = GAME_INFO.name
    title = GAME_INFO.title
    min_players = GAME_INFO.min_players
    max_players = GAME_INFO.max_players
    max_game_length = GAME_INFO.max_game_length
    score_bounds = (GAME_INFO.score_min, GAME_INFO.score_max)
    variants: tuple[str, ...] = tuple(VARIANTS)
    options: tuple[str, ...] = tuple(OPTIONS)
    clauses: ClauseBook = CLAUSES

    def __init__(self, book: Book = SHIPPED) -> None:
        self.book = book
        """The rule tables this game plays by (:data:`~engine.take6.rules.SHIPPED` for ``GAME``)."""

    def edited(self, tables: Tables, *, checked: bool = True) -> Take6:
        """This game playing by ``tables`` (an edited copy of the shipped tables: a fault model, a test):
        new games, positions read from notation or JSON, and states given to :meth:`adopt` play by them.
        The shipped ``GAME`` is untouched.  Raises SpecError when the edited tables do not load
        (``checked=False``: without the transcription checks, see ``build_book``).

        >>> from engine.spec import Tables
        >>> t = Tables.shipped("take6")
        >>> doc = {"setup": [dict(row) for row in t.doc("setup.toml")["setup"]]}
        >>> doc["setup"][0]["hand_size"] = 8
        >>> len(GAME.edited(t.replace("setup.toml", doc, "hand 8")).new_game(2, seed=1).hands[0])
        8
        >>> len(GAME.new_game(2, seed=1).hands[0])
        10
        """
        return Take6(build_book(tables, checked=checked))

    def adopt(self, state: State, *, options: Mapping[str, Any] | None = None) -> State:
        """``state`` (a position of any book) playing by this game's tables from now on: the same cards,
        rows and totals, the rules resolved from :attr:`book` with ``options`` changed (those that apply
        to the state's variant)."""
        rules = state[I_RULES]
        if rules.book is self.book and not options:
            return state
        known = self.book.options
        applying = {k: v for k, v in (options or {}).items() if rules.variant in known[k].variants}
        changed = {**dict(rules.options), **applying}
        return replace(state, rules=self.book.rules_for(rules.variant, rules.players, changed))
    def __repr__(self) -> str:
        return (
            f"<Game {self.name}: {self.title}, {self.min_players}–{self.max_players} players, "
            f"variants {', '.join(self.variants)}>"
        )

    def new_game(
        self,
        players: int,
        *,
        seed: int | None = 0,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Any = None,
    ) -> State:
        """A new game of ``variant`` (default standard) for ``players`` seats.

        Round r is dealt by the seeded procedure of :func:`deal_order` from ``(seed, r)``, unless ``setup``
        gives explicit set-ups for the first rounds: a :class:`Deal` (or :class:`DraftStart` for logic), or a
        sequence of them, one per round.  ``seed=None``: rounds beyond the set-ups wait for their deal as a
        chance step (phase ``deal``).  Raises IllegalSetup naming the clause.

        >>> s = GAME.new_game(3, seed=5, variant="tactics")
        >>> sorted([c for h in s.hands for c in h] + [r[0] for r in s.rows]) == list(range(1, 35))
        True
        """
        return self._start(players, seed=seed, variant=variant, options=options, setup=setup)

    def _start(self, players: int, *, seed: int | None, variant: str | None,
               options: Mapping[str, Any] | None, setup: Any, trace: Trace | None = None) -> State:
        rules = self.book.rules_for(variant, players, options)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise IllegalSetup("T6-SETUP-4", f"seed must be a non-negative integer, got {seed!r}")
        deals = check_setup(rules, setup)
        return deal_round(rules, seed, 1, ZEROS[rules.players], deals, prev_start=0, trace=trace)

    def derive_start(
        self,
        players: int,
        *,
        seed: int | None = 0,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Any = None,
    ) -> tuple[Step, ...]:
        """The derivation of :meth:`new_game`'s start position: the first round's deal (T6-SETUP-4 or
        T6-SETUP-5) with its hands (T6-SETUP-2) and rows (T6-SETUP-3), or the logic draft's start, from
        the dealing code itself.

        >>> [(d.clause, d.says) for d in GAME.derive_start(2, seed=1)[0].steps]
        [('T6-SETUP-2', 'hands'), ('T6-SETUP-3', 'rows')]
        """
        trace = Trace()
        self._start(players, seed=seed, variant=variant, options=options, setup=setup, trace=trace)
        return tuple(trace.steps)

    to_act: Callable[[State], tuple[int, ...]] = staticmethod(itemgetter(I_TO_ACT))
    """The seats that must act now: every seat still to select, or the one choosing / drafting /
    flipping; ``()`` when the game is over or a round waits for its deal (phase ``deal``, a chance step).
    The state stores them: a C ``itemgetter`` reads the field."""

    def legal_actions(self, state: State, player: int | None = None) -> tuple[Action, ...]:
        """Every legal action of ``player`` now, in canonical order (ascending card or row); without a
        player, every acting seat's actions, seat after seat in ``to_act`` order."""
        if player in state[I_TO_ACT]:
            phase = state[I_PHASE]
            if phase == "select":
                return state[I_SELECTS][player]  # type: ignore[no-any-return]  # the prebuilt selections
            if phase == "choose":
                return TAKES[len(state[I_ROWS])][player]  # type: ignore[index]
            if phase == "draft":
                return tuple(map(DRAFT[player].__getitem__, state[I_FIXED][F_STOCK]))  # type: ignore[index]
            return FLIP[player]  # type: ignore[index]
        if player is None:
            return _every_seat(self, state)  # a helper: a comprehension here would make the locals cells
        return ()

    def apply(self, state: State, action: Action | Setup) -> State:
        """Checked tier: validate ``action`` (IllegalAction / NotYourTurn / GameOver naming the clause),
        then apply it.  The given state is never changed.  In phase ``deal`` the action is the round's
        deal (a :class:`Deal`, logic: a :class:`DraftStart`)."""
        if action.__class__ is Select and state[I_PHASE] == "select":
            # the common case, checked inline: the seat must select now and hold the card (T6-SELECT-1/2)
            p = action.player
            card = action.card
            if (
                p.__class__ is int
                and card.__class__ is int
                and p in state[I_TO_ACT]
                and card in state[I_HELD][p]
            ):
                return self.apply_unchecked(state, action)
        if isinstance(action, Mapping):
            raise NotAnAction(self.name, action)  # a JSON form is a type error, not a rules violation
        check(state, action)
        return step(state, action)

    def apply_unchecked(self, state: State, action: Action) -> State:
        """Unchecked tier: ``action`` must come from ``legal_actions`` of this very state."""
        t = action.__class__
        if t is Select:
            # the hot path of the selection, inlined: record the hidden selection
            p = action.player
            sel = list(state[I_SELECTED])
            sel[p] = action.card  # type: ignore[union-attr]
            acting = state[I_TO_ACT]
            rest = acting[1:] if acting[0] == p else tuple(q for q in acting if q != p)
            if rest:  # the hot path's positional form: the layout's last two fields (see layout.build)
                return new(State, state[:I_SELECTED] + (tuple(sel), rest))  # noqa: RUF005
            if state[I_RULES].placement == "ends":
                return turn_fast(state, tuple(sel))
        elif t is TakeRow:
            return take_row(state, action.player, action.row, None)  # type: ignore[union-attr]
        return step(state, action)

    def is_terminal(self, state: State) -> bool:
        """True once the game is over (T6-END-1, T6-KIDS-3)."""
        return state.phase == "over"

    def result(self, state: State) -> Result:
        """Scores are bullheads taken (every variant, countdown included: T6-COUNT-1); winners share ties
        (T6-END-3); the lowest wins (T6-END-2), in kids the highest (T6-KIDS-4)."""
        if state.phase != "over":
            raise IllegalAction("T6-END-1", "the game is not over")
        return result_of(state, state.rules)

    def observation(self, state: State, player: int) -> dict[str, Any]:
        """What ``player`` may see (see :func:`engine.take6.observation.observation`)."""
        return observation(state, player)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """Canonical JSON form of the whole state (``to_act`` is derived, so not stored)."""
        return codec.state_to_json(state)

    def state_from_json(self, data: Any) -> State:
        """Parse and validate a JSON state (InputError naming the field): types and ranges, then every rule
        of a position (:func:`engine.take6.position.position`)."""
        return self.adopt(codec.state_from_json(data))

    def action_to_json(self, action: Action | Setup) -> dict[str, Any]:
        """Canonical JSON form: ``{"type": ..., "player": ..., ...}``."""
        return codec.action_to_json(action)

    def action_from_json(self, data: Any) -> Action | Setup:
        """Parse and validate a JSON action (InputError naming the field).

        >>> GAME.action_from_json({"type": "select", "player": 1, "card": 33})
        Select(player=1, card=33)
        """
        return codec.action_from_json(data)

    def action_to_text(self, state: State, action: Action | Setup) -> str:
        """The action as short text relative to ``state``, as SAN is to a chess position: ``58`` (``P2 58``
        while several seats select), ``draft 58``, ``row 2``, ``flip``, ``deal HANDS|ROWCARDS``, ``start
        P1`` (:mod:`engine.take6.action_text`, docs/positions.md); :meth:`action_from_text` reads it back.

        >>> s = GAME.new_game(2, seed=1)
        >>> GAME.action_to_text(s, GAME.legal_actions(s, 1)[0])
        'P1 5'
        """
        return action_text.to_text(state, action, self.legal_actions(state))

    def action_to_words(self, state: State, action: Action | Setup) -> str:
        """The action in plain words, as the clause a question puts after "May" (``explain`` asks "May P2
        select 58 here?"); see :func:`engine.take6.action_text.to_words`."""
        return action_text.to_words(state, action)

    def action_from_text(self, state: State, text: str, *, checked: bool = True) -> Action | Setup:
        """The action ``text`` names in ``state`` (``58``, ``P2 58``, ``row 2``, ...): AmbiguousAction (an
        InputError) lists the readings of a text naming several legal actions, InputError names a malformed
        part, and IllegalAction is the engine's refusal of the action named (``checked=False``: that action
        is returned instead, to explain its refusal).  The state is not changed.

        >>> s = GAME.new_game(2, seed=1)
        >>> GAME.action_from_text(s, "P1 5")
        Select(player=1, card=5)
        >>> GAME.action_from_text(s, "P1 6")
        Traceback (most recent call last):
        ...
        engine.errors.IllegalAction: T6-SELECT-1: card 6 is not in P1's hand
        """
        return action_text.from_text(state, text, self.legal_actions(state), checked=checked)

    def to_notation(self, state: State) -> str:
        """The position as one notation line (see :mod:`engine.take6.notation`)."""
        return notation.to_notation(state)

    def from_notation(self, text: str) -> State:
        """Read a notation line (PositionError naming the token and, for a rule, the clause)."""
        return self.adopt(notation.from_notation(text))

    def variant_of(self, state: State) -> str:
        """The variant of a state.

        >>> GAME.variant_of(GAME.new_game(3, seed=1, variant="tactics"))
        'tactics'
        """
        return state.variant

    def options_of(self, state: State) -> dict[str, Any]:
        """The options of a state."""
        return dict(state.options)

    def players_of(self, state: State) -> int:
        """The number of seats."""
        return state.players

    def seed_of(self, state: State) -> int | None:
        """The seed later rounds are dealt from (``None``: each later deal is a chance step)."""
        return state.seed

    def with_seed(self, state: State, seed: int) -> State:
        """The same position, later rounds dealt from ``seed`` (see :func:`engine.take6.deal.with_seed`)."""
        return with_seed(state, seed)

    def narrate(self, before: State, action: Action | Setup, after: State) -> tuple[str, ...]:
        """Readable lines for one step: its derivation (:meth:`derive`) rendered, one line per noted step
        with its clause: the selection (hidden) or the reveal, where each card goes and why, rows taken with
        their bullheads, the low-card choice, round scores, the end, the result, the next deal."""
        return render(self.derive(before, action))

    def derive(self, before: State, action: Action | Setup) -> tuple[Step, ...]:
        """The derivation of one legal step, from re-running the transition with a trace: the steps it
        took, in order (see :mod:`engine.take6.transitions`).

        >>> from engine.take6 import Deal, Select
        >>> s = GAME.new_game(2, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
        ...                     (11, 12, 13, 14, 15, 16, 17, 18, 19, 55)), rows=(30, 40, 50, 60)))
        >>> [d.clause for d in GAME.derive(GAME.apply(s, Select(0, 10)), Select(1, 55))]
        ['T6-SELECT-2', 'T6-PLACE-3']
        """
        trace = Trace()
        step(before, action, trace)
        return tuple(trace.steps)

    def why(self, state: State, action: Any) -> Step:
        """Why ``action`` is legal or refused in ``state``, as a derivation: the root's clause is the one
        that grants the action (``says`` ``legal``) or refuses it (``refused``, its note the refusal);
        beneath it every check the action passed, from the checked tier's own code.

        >>> from engine.take6 import Select
        >>> s = GAME.new_game(2, seed=1)
        >>> GAME.why(s, Select(0, s.hands[0][0])).clause, GAME.why(s, Select(0, s.hands[1][0])).says
        ('T6-SELECT-1', 'refused')
        """
        trace = Trace()
        shown = {"action": self._shown(state, action)}
        try:
            check(state, action, trace)
        except RuleViolation as exc:
            return trace.root(exc.clause, "refused", shown, note=exc.message)
        return trace.root(granting_clause(state, action), "legal", shown)

    def _shown(self, state: State, action: Any) -> str:
        """An action as a derivation names it: its text, or its ``repr`` when it is no action of the game."""
        try:
            return self.action_to_text(state, action)
        except InputError:
            return repr(action)

    def explain_result(self, state: State) -> Step:
        """The derivation of a finished game's result: the winners' rule, each seat's place and total, a
        shared win (T6-END-2 / T6-KIDS-4, T6-END-3)."""
        if state.phase != "over":
            raise IllegalAction("T6-END-1", "the game is not over")
        trace = Trace()
        result_of(state, state.rules, trace)
        return trace.steps[0]

    def describe_state(self, state: State) -> tuple[str, ...]:
        """The public position: round, turn and phase, the rows with their bullheads, the totals, and the
        notation line."""
        return describe_state(state)


def _every_seat(game: Take6, state: State) -> tuple[Action, ...]:
    """The legal actions of every acting seat, seat after seat."""
    return tuple(a for p in state[I_TO_ACT] for a in game.legal_actions(state, p))


GAME = Take6()
