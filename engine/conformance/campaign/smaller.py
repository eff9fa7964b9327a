"""Smaller positions than a counterexample's: the candidates both shrinkers try, and what they make smaller.

A divergence shown from one position and one action (an
:class:`~engine.conformance.campaign.divergence.Origin`) is made smaller by trying smaller positions: the
later rounds' deals left out, a seat fewer, a card fewer in every hand at once, half of a list, one card
of a row, a stack, a pile.  :func:`smaller_origins` lists them, each built and validated by the game's
position builder (the JSON state read through ``state_from_json``, then written and read again as a
notation line, so a vector's position is exactly the one tried), following the game's hints on its set-up
maker (:class:`~engine.conformance.campaign.setups.base.SetupMaker`: where a card taken out goes, which
fields name seats, which list holds the later rounds' deals and which field seeds them).

Every candidate keeps what the action needs: the reference's verdict on the action is the same there as
at the origin (accepted, or refused by the same clause), so a card the action plays or buys is never taken
out; and a candidate leaving out the later rounds' deals leaves out the seed too (a round it does not deal
then waits for its deal, as in a record), so no vector expects a deal only this engine's seeded shuffle
makes.  :func:`position_size` is what the shrinkers make smaller: the seats, and the cards in play (every
element of every list of the JSON state but the spare list and the later rounds' deals).

The origin shrinker (:func:`engine.conformance.campaign.positions.shrink_origin`) replays each candidate on
the peer; the diagnosis's counterexamples
(:func:`engine.conformance.diagnosis.counterexample.counterexample`) ask the reference and the edited rules.

>>> from engine.game import get_game
>>> g = get_game("take6")
>>> s = g.from_notation("standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0")
>>> origin = Origin(g.to_notation(s), g.state_to_json(s), (0, {"type": "select", "player": 0, "card": 5}))
>>> position_size("take6", origin.state)
(2, 17)
>>> [o.notation.split()[4] for o in smaller_origins(g, origin)][:3]  # the hands: card 5 stays
['5.60/7.70', '5.8/7.9', '5.8.60/7.9.70']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine.conformance.campaign.divergence import Origin
from engine.conformance.campaign.setups.base import SetupMaker
from engine.conformance.campaign.setups.generated import setup_maker
from engine.errors import InputError, RuleViolation
from engine.game import Game

__all__ = ["position_size", "smaller_origins", "verdict"]


def position_size(game: str, state: Mapping[str, Any]) -> tuple[int, int]:
    """``(seats, cards)`` of a position's JSON ``state``: the cards in play are every element of every list
    but the game's spare list (the stock, the discard pile) and its later rounds' deals."""
    maker = setup_maker(game)
    left_out = {maker.spare, maker.deals}
    return int(state["players"]), _elements({k: v for k, v in state.items() if k not in left_out})


def _elements(value: Any) -> int:
    if isinstance(value, list):
        return sum(_elements(v) if isinstance(v, list | dict) else 1 for v in value)
    if isinstance(value, dict):
        return sum(_elements(v) for v in value.values())
    return 0


def verdict(game: Game, state: Any, action: Any) -> str:
    """The reference's verdict on ``action`` (a value) at ``state``: ``"accepted"`` or the refusing clause."""
    try:
        game.apply(state, action)
    except RuleViolation as exc:
        return exc.clause
    return "accepted"


def smaller_origins(game: Game, origin: Origin) -> Iterator[Origin]:
    """Smaller positions than ``origin``'s (see the module docstring), each valid, the action kept (its seat
    renumbered when a seat before it goes) with the reference's verdict on it unchanged."""
    seen: set[str] = {origin.notation}
    shrinker = _Shrinker(setup_maker(game.name), origin.state)
    wanted = None
    if origin.action is not None:
        try:
            start = game.from_notation(origin.notation)
            wanted = verdict(game, start, game.action_from_json(origin.action[1]))
        except (InputError, ValueError, KeyError, TypeError, IndexError):
            return
    for state, action in shrinker.smaller(origin.action):
        try:
            built = game.state_from_json(state)
            notation = game.to_notation(built)
            again = game.from_notation(notation)
            if action is not None and verdict(game, again, game.action_from_json(action[1])) != wanted:
                continue  # the action no longer does what it did: a card it needs went
        except (InputError, RuleViolation, ValueError, KeyError, TypeError, IndexError):
            continue
        if notation in seen:
            continue
        seen.add(notation)
        yield Origin(notation, game.state_to_json(again), action)


class _Shrinker:
    """Raw smaller JSON states (unvalidated) of one position, following the game's hints (``SetupMaker``)."""

    def __init__(self, maker: SetupMaker, state: Mapping[str, Any]) -> None:
        self.maker = maker
        self.state = dict(state)
        self.players = int(state["players"])

    def smaller(self, action: tuple[int, Any] | None) -> Iterator[tuple[dict[str, Any], Any]]:
        """The later deals (and their seed) left out; a seat fewer; then a card fewer in every hand at once;
        then halves of lists; then single cards."""
        seat = action[0] if action is not None else None
        yield from ((s, action) for s in self.without_later_deals())
        for p in reversed(range(self.players)):
            if p != seat:
                fewer, moved = self.without_seat(p), _renumbered(action, p)
                yield fewer, moved
                yield from ((s, moved) for s in self.maker.reseated(fewer))
        per_seat = [(k, v) for k, v in self.state.items() if self.is_per_seat_lists(v)]
        for key, lists in per_seat:
            for i in range(max((len(x) for x in lists), default=0)):
                gone = [x[i] for x in lists if i < len(x)]
                new = [x[:i] + x[i + 1 :] for x in lists]
                yield self.spared(_replaced(self.state, (key,), new), gone), action
        for path, items in _lists(self.state):
            if path[:1] == (self.maker.spare,):
                continue
            if len(items) >= 4:
                half = len(items) // 2
                yield self.spared(_replaced(self.state, path, items[:half]), items[half:]), action
                yield self.spared(_replaced(self.state, path, items[half:]), items[:half]), action
        for path, items in _lists(self.state):
            if path[:1] == (self.maker.spare,):
                continue
            for i in range(len(items)):
                yield self.spared(_replaced(self.state, path, items[:i] + items[i + 1 :]), [items[i]]), action

    def without_later_deals(self) -> Iterator[dict[str, Any]]:
        """The state with its lists of objects (the later rounds' deals) emptied, the seed that would deal
        those rounds instead left out with them; a seed with no deal left, left out alone."""
        seed = self.maker.seed
        unseeded = {seed: None} if seed is not None and self.state.get(seed) is not None else {}
        emptied = False
        for key, value in self.state.items():
            if (isinstance(value, list) and value and not self.is_per_seat_lists(value)
                    and all(isinstance(v, dict) for v in value)):
                emptied = True
                yield {**self.state, key: [], **(unseeded if key == self.maker.deals else {})}
        deals = self.state.get(self.maker.deals) if self.maker.deals is not None else None
        if unseeded and not emptied and not deals:
            yield {**self.state, **unseeded}

    def is_per_seat_lists(self, value: Any) -> bool:
        return (isinstance(value, list) and len(value) == self.players
                and all(isinstance(x, list) for x in value) and any(value))

    def spared(self, state: dict[str, Any], cards: list[Any]) -> dict[str, Any]:
        """``state`` with ``cards`` moved to the spare list (where the game keeps the cards out of play)."""
        spare = self.maker.spare
        cards = [c for c in cards if c is not None and not isinstance(c, list | dict)]
        if spare is None or not cards or not isinstance(state.get(spare, []), list):
            return state
        out = dict(state)
        pool = [*state.get(spare, []), *cards]
        out[spare] = sorted(pool) if all(isinstance(c, int) for c in pool) else pool
        return out

    def without_seat(self, seat: int) -> dict[str, Any]:
        """The state without seat ``seat``: every list of one entry per seat loses that entry (its cards go
        to the spare list), and the seat fields are renumbered."""
        players = self.players
        gone: list[Any] = []

        whole = {*self.maker.shared, *self.maker.seat_pairs, *self.maker.seat_fields}

        def drop(value: Any, key: str) -> Any:
            if isinstance(value, list) and len(value) == players and key not in whole:
                entry = value[seat]
                if isinstance(entry, list):
                    gone.extend(_plain(entry))
                elif key in self.maker.seat_cards:
                    gone.append(entry)
                return [v for i, v in enumerate(value) if i != seat]
            return value

        def renumber(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: renumber(v) for k, v in value.items()}
            if isinstance(value, list):  # seats in order (a queue): the seat leaves it
                return [renumber(v) for v in value if v != seat]
            if isinstance(value, int) and not isinstance(value, bool):
                return value - 1 if value > seat else (0 if value == seat else value)
            return value

        out = {k: drop(v, k) for k, v in self.state.items()}
        for key in self.maker.seat_pairs:
            pairs = out.get(key)
            if isinstance(pairs, list):
                gone.extend(card for card, owner in pairs if owner == seat)
                out[key] = [[card, owner - (owner > seat)] for card, owner in pairs if owner != seat]
        for key in self.maker.seat_fields:
            if key in out:
                out[key] = renumber(out[key])
        out["players"] = players - 1
        return self.spared(out, gone)


def _plain(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [x for v in value for x in _plain(v)]
    return [value]


def _lists(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], list[Any]]]:
    """Every list of plain values (cards, seats) in the JSON state, with its path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _lists(item, (*path, key))
    elif isinstance(value, list):
        if value and all(not isinstance(v, list | dict) for v in value):
            yield path, value
        else:
            for i, item in enumerate(value):
                yield from _lists(item, (*path, i))


def _replaced(state: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(state, dict):
        return {k: (_replaced(v, rest, new) if k == head else v) for k, v in state.items()}
    return [(_replaced(v, rest, new) if i == head else v) for i, v in enumerate(state)]


def _renumbered(action: tuple[int, Any] | None, gone: int) -> tuple[int, Any] | None:
    if action is None or action[0] < gone:
        return action
    seat, value = action
    moved = dict(value) if isinstance(value, dict) else value
    if isinstance(moved, dict) and moved.get("player") == seat:
        moved["player"] = seat - 1
    return seat - 1, moved
