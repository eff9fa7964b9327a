"""What a peer showed, and what the rules under a set of faults predict there.

A campaign (or ``arbiter check``) compares the peer with the reference at every step; each comparison is a
:class:`Seen`: the facts after a step (``after``: the claims, scores, who acts, whether the game is over,
the winners), a seat's legal set at a position (``legal``), the acceptance or refusal of an action
(``apply``).  A divergence is a ``Seen`` the reference does not predict; an agreed step one it does.
:func:`predict` answers the same question under a :class:`~engine.conformance.diagnosis.faults.World`: a
fault explains a divergence when its world predicts what the peer showed, and is refuted by an agreed step
when its world predicts something else there.

>>> from engine.game import get_game
>>> from engine.conformance.diagnosis.faults import parse, world
>>> from engine.petersburg import Buy
>>> g = get_game("petersburg")
>>> s = g.new_game(2, seed=1)
>>> seen = Seen("after", s, Buy(0, "Shepherd"), shown={"money": [20, 25]})
>>> matches(predict(None, "petersburg", seen), seen.shown), matches(
...     predict(world("petersburg", [parse("petersburg:edit:cards/Shepherd/cost=4")]), "petersburg", seen),
...     seen.shown)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

from engine.conformance.kits.base import get_kit
from engine.conformance.peers.protocol import canonical
from engine.errors import ArbiterError
from engine.game import get_game

__all__ = ["REFUSED", "Seen", "matches", "numbers", "predict"]

REFUSED = "refused"
"""What :func:`predict` gives for a step the rules refuse (an ``after`` seen the world cannot reach)."""


@frozen
class Seen:
    """One comparison of the peer with the rules: ``kind`` ``after`` (``state`` before ``action``, the
    facts after it), ``legal`` (``seat``'s legal set at ``state``, canonical action texts), ``apply``
    (``action`` at ``state`` accepted, ``True``, or refused) or ``start`` (``action`` the keyword arguments
    of ``new_game``, the facts of the first position); ``shown`` what the peer showed (for ``after`` and
    ``start`` only the facts it reported)."""

    kind: str
    state: Any = field(eq=False)
    action: Any = None
    seat: int | None = None
    shown: Any = field(default=None, eq=False)


def _facts(game: Any, kit: Any, state: Any, keys: Any) -> dict[str, Any]:
    facts = kit.facts(state)
    out: dict[str, Any] = {}
    over = game.is_terminal(state)
    for key in keys:
        if key == "over":
            out[key] = over
        elif key == "to_act":
            out[key] = sorted(game.to_act(state))
        elif key == "winners":
            out[key] = sorted(game.result(state).winners) if over else None
        else:
            out[key] = facts.get(key)
    return out


def predict(world: Any, name: str, seen: Seen) -> Any:
    """What the rules of game ``name`` (``world``: under its faults; ``None``: the reference) show where
    ``seen`` was taken, in ``seen.shown``'s form; :data:`REFUSED` for an ``after`` whose action they refuse.
    A world the position cannot be put under predicts ``None``."""
    kit = get_kit(name)
    game = world.game if world is not None else get_game(name)
    try:
        if seen.kind == "start":
            state = world.new_game(**seen.action) if world is not None else game.new_game(**seen.action)
            return _facts(game, kit, state, seen.shown)
        state = world.adopt(seen.state) if world is not None else seen.state
        if seen.kind == "legal":
            return frozenset(canonical(game.action_to_json(a)) for a in game.legal_actions(state, seen.seat))
        try:
            after = game.apply(state, seen.action)
        except ArbiterError:
            return False if seen.kind == "apply" else REFUSED
        if seen.kind == "apply":
            return True
        return _facts(game, kit, after, seen.shown)
    except (ArbiterError, IndexError, KeyError, ValueError, TypeError, ZeroDivisionError):
        return None  # the faults make the position unplayable: they predict nothing there


def matches(predicted: Any, shown: Any) -> bool:
    """Whether a prediction is what the peer showed."""
    if isinstance(shown, Mapping):
        return isinstance(predicted, Mapping) and all(predicted.get(k) == v for k, v in shown.items())
    return bool(predicted == shown)


def agreement(predicted: Any, shown: Any, reference: Any) -> int:
    """How much of the difference between the reference and the peer a prediction explains: for each fact
    the peer showed (each entry of a list of one entry per seat), +1 where the prediction meets the peer and
    the reference did not, -1 where it misses the peer and the reference met it (a legal set: per action);
    -1 for a prediction of nothing."""
    if predicted is None or predicted == REFUSED:
        return -1
    if isinstance(shown, Mapping) and isinstance(predicted, Mapping) and isinstance(reference, Mapping):
        return sum(_agree(predicted.get(k), v, reference.get(k)) for k, v in shown.items())
    if isinstance(shown, frozenset) and isinstance(predicted, frozenset) and isinstance(reference, frozenset):
        before = len(shown ^ reference)
        return before - len(shown ^ predicted)
    return 1 if predicted == shown != reference else (-1 if reference == shown != predicted else 0)


def _agree(predicted: Any, shown: Any, reference: Any) -> int:
    lists = (predicted, shown, reference)
    if all(isinstance(x, list) for x in lists) and len({len(x) for x in lists}) == 1:
        return sum(_agree(p, s, r) for p, s, r in zip(predicted, shown, reference, strict=True))
    ours, theirs = reference == shown, predicted == shown
    return int(theirs and not ours) - int(ours and not theirs)


def numbers(shown: Any, reference: Any) -> set[int]:
    """The differences between the numbers the peer showed and the reference's (element by element in lists
    of equal length, at any depth): the amounts an apparent value may be off by."""
    out: set[int] = set()

    def walk(a: Any, b: Any) -> None:
        if isinstance(a, bool) or isinstance(b, bool):
            return
        if isinstance(a, int) and isinstance(b, int):
            if a != b:
                out.add(a - b)
        elif isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
            for x, y in zip(a, b, strict=True):
                walk(x, y)
        elif isinstance(a, Mapping) and isinstance(b, Mapping):
            for k in a:
                if k in b:
                    walk(a[k], b[k])

    walk(shown, reference)
    return out
