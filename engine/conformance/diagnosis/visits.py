"""What a campaign's peer was asked, and whether two sets of faults behave alike there: the check behind
*equivalent* diagnoses of :mod:`engine.conformance.diagnosis.rates`.

:class:`Witness` is the reference under a set of faults (an
:class:`~engine.conformance.peers.edited.EditedPeer`, answering exactly as it does) that also keeps the
reference's own position beside its edited one and writes down every comparison the campaign asks of it
(:class:`Visits`: each game's start, each legal set asked for, each action asked to apply), under a token, in
this process (a campaign of one job).  :class:`Behaviour` then predicts what the rules under any set of faults
show at every one of them (:func:`~engine.conformance.diagnosis.evidence.predict`): two sets behave
identically on the positions the campaign visited when the predictions are equal.

>>> from engine.conformance.campaign.runner import run_campaign
>>> from engine.conformance.peers.launch import in_process
>>> report = run_campaign(in_process(MakeWitness(("take6:edit:setup/standard/row_capacity=4",), "doc")),
...                       games=2, jobs=1, seed=1, game_names=["take6"], variants=["standard"], shrink=False)
>>> behaviour = Behaviour("take6", VISITS.pop("doc"))
>>> behaviour.same(["take6:edit:setup/standard/row_capacity=4"], []), len(behaviour.seens) > 10
(False, True)
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from engine.conformance.diagnosis.evidence import Seen, predict
from engine.conformance.diagnosis.faults import Fault, World, parse
from engine.conformance.kits.base import get_kit
from engine.conformance.peers.edited import EditedPeer
from engine.errors import ArbiterError
from engine.game import get_game
from engine.positions import load_position

__all__ = ["VISITS", "Behaviour", "MakeWitness", "Visits", "Witness"]


class Visits:
    """What a campaign's peer was asked, as comparisons of the reference's positions (:class:`Seen`, without
    what the peer showed): each game's start, each legal set asked for, each action asked to apply (its
    acceptance and the facts after it)."""

    def __init__(self) -> None:
        self.seens: list[Seen] = []
        self._legal: set[tuple[int, int]] = set()

    def start(self, game: str, start: Mapping[str, Any]) -> None:
        """A game started with ``new_game(**start)``."""
        self.seens.append(Seen("start", None, dict(start), shown=_keys(game)))

    def legal(self, state: Any, seat: int) -> None:
        """``seat``'s legal set asked for at ``state`` (once per position and seat)."""
        if (id(state), seat) not in self._legal:
            self._legal.add((id(state), seat))
            self.seens.append(Seen("legal", state, None, seat))

    def apply(self, game: str, state: Any, action: Any) -> None:
        """``action`` asked to apply at ``state``."""
        self.seens.append(Seen("after", state, action, shown=_keys(game)))


@functools.cache
def _keys(game: str) -> Mapping[str, None]:
    return dict.fromkeys(("over", "to_act", "winners", *get_kit(game).fact_names))


VISITS: dict[str, Visits] = {}
"""Token -> what the witness peers of one campaign were asked (the campaign runs in this process)."""


class Witness(EditedPeer):
    """The reference under ``edits`` (an :class:`EditedPeer`) that also keeps the reference's own position
    beside its edited one, and writes down each comparison the campaign asks of it there in the
    :class:`Visits` of ``token``.  It answers exactly as the edited peer does."""

    def __init__(self, edits: Sequence[str], token: str) -> None:
        super().__init__(edits)
        self.visits = VISITS.setdefault(token, Visits())
        self.reference: Any = None
        self.rules: Any = None

    def do_new(self, game: str, variant: str, players: int, options: Mapping[str, Any], setup: Any) -> None:
        super().do_new(game, variant, players, options, setup)
        start = {"players": players, "variant": variant, "options": dict(options),
                 "setup": get_kit(game).setup_from_json(setup)}
        self.visits.start(game, start)
        self.rules = get_game(game)
        self.reference = self.rules.new_game(**start)

    def do_position(self, game: str, notation: str, state: Mapping[str, Any]) -> None:
        super().do_position(game, notation, state)
        self.rules = get_game(game)
        self.reference = self.rules.state_from_json(dict(state)) if state else load_position(game, notation)

    def legal(self, player: int) -> list[Any]:
        if self.reference is not None:
            self.visits.legal(self.reference, player)
        return super().legal(player)

    def do_apply(self, player: int, action: Any) -> None:
        reference = self.rules
        if self.reference is not None and reference is not None:
            try:
                parsed = reference.action_from_json(action)
            except ArbiterError:
                parsed = None
            if parsed is not None:
                self.visits.apply(reference.name, self.reference, parsed)
                with contextlib.suppress(ArbiterError):  # a probe the reference refuses: the position stays
                    self.reference = reference.apply(self.reference, parsed)
        super().do_apply(player, action)


@frozen
class MakeWitness:
    """Makes a :class:`Witness` (picklable, like :class:`~engine.conformance.peers.edited.MakeEdited`)."""

    edits: tuple[str, ...]
    token: str

    def __call__(self) -> Witness:
        return Witness(self.edits, self.token)


class Behaviour:
    """What the rules under each fault set predict at every visited comparison, each world computed once."""

    def __init__(self, game: str, visits: Visits) -> None:
        self.game = game
        self.seens = tuple(visits.seens)
        self._cache: dict[tuple[str, ...], tuple[Any, ...] | None] = {}

    def of(self, faults: Sequence[Fault | str]) -> tuple[Any, ...] | None:
        """The predictions under ``faults`` (``None``: their rules cannot be built)."""
        fs = tuple(sorted({f if isinstance(f, Fault) else parse(f) for f in faults}))
        key = tuple(f.signature for f in fs)
        if key not in self._cache:
            try:
                world: World | None = World(self.game, fs) if fs else None
            except ArbiterError:
                self._cache[key] = None
                return None
            self._cache[key] = tuple(predict(world, self.game, s) for s in self.seens)
        return self._cache[key]

    def same(self, a: Sequence[Fault | str], b: Sequence[Fault | str]) -> bool:
        """Whether ``a`` and ``b`` behave identically on every visited comparison."""
        pa, pb = self.of(a), self.of(b)
        return pa is not None and pa == pb
