"""A flat observation vector described field by field: names, offsets, sizes, bounds and meanings.

Each game's codec declares its :class:`Layout`; the environments fill vectors of ``layout.size`` float32
values, the observation space's bounds come from the same declaration, :meth:`Layout.views` cuts a vector
into its named pieces (OpenSpiel's ``make_observation(game).dict``), and :meth:`Layout.table` prints the
field table that ``docs/environments.md`` shows (a test checks the two agree).

>>> import numpy as np
>>> layout = Layout((Slot("hand", 3, 0, 1, "1 if the card is in my hand"),
...                  Slot("grid", 4, -5, 5, "a 2 x 2 grid", shape=(2, 2))))
>>> layout.size, layout.offset("grid"), layout.where("grid")
(7, 3, slice(3, 7, None))
>>> print(layout.table())
| field | offset | size | range | meaning |
|---|---:|---:|---|---|
| `hand` | 0 | 3 | 0..1 | 1 if the card is in my hand |
| `grid` | 3 | 4 (2 x 2) | -5..5 | a 2 x 2 grid |
>>> vector = np.arange(7, dtype=np.float32)
>>> views = layout.views(vector)
>>> views["grid"].tolist(), np.shares_memory(views["grid"], vector)
([[3.0, 4.0], [5.0, 6.0]], True)
"""

from __future__ import annotations

from typing import Any

from attrs import field, frozen

__all__ = ["Layout", "Slot"]


@frozen
class Slot:
    """One field of an observation vector: ``size`` consecutive values in ``low..high``; ``shape`` (default
    ``(size,)``) is how the field reads as an array, row-major (``(n, D)`` for one row per seat)."""

    name: str
    size: int
    low: float
    high: float
    doc: str
    shape: tuple[int, ...] = field(default=())

    def __attrs_post_init__(self) -> None:
        count = 1
        for extent in self.shape:
            count *= extent
        if self.shape and count != self.size:
            raise ValueError(f"field {self.name!r}: shape {self.shape} does not hold {self.size} values")

    @property
    def dims(self) -> tuple[int, ...]:
        """The field's shape as an array."""
        return self.shape or (self.size,)


class Layout:
    """Consecutive :class:`Slot` fields; ``offset(name)`` is where a field starts."""

    def __init__(self, slots: tuple[Slot, ...]) -> None:
        self.slots = tuple(s for s in slots if s.size > 0)
        self._offsets: dict[str, int] = {}
        at = 0
        for s in self.slots:
            if s.name in self._offsets:
                raise ValueError(f"field {s.name!r} is declared twice")
            self._offsets[s.name] = at
            at += s.size
        self.size = at

    def offset(self, name: str) -> int:
        """The index of the field's first value."""
        return self._offsets[name]

    def where(self, name: str) -> slice:
        """The field's values as a slice of the vector."""
        start = self._offsets[name]
        return slice(start, start + self.slot(name).size)

    def slot(self, name: str) -> Slot:
        """The field's declaration."""
        return next(s for s in self.slots if s.name == name)

    def names(self) -> tuple[str, ...]:
        """The field names, in vector order."""
        return tuple(s.name for s in self.slots)

    def views(self, vector: Any) -> dict[str, Any]:
        """Each field of ``vector`` (a 1-D array of ``size`` values, or longer: the rest is not cut) as a
        view of its values in the field's shape, in vector order (no copy: writing a view writes
        ``vector``)."""
        return {s.name: vector[self.where(s.name)].reshape(s.dims) for s in self.slots}

    def bounds(self) -> tuple[list[float], list[float]]:
        """Per-value lower and upper bounds (for the observation space)."""
        low: list[float] = []
        high: list[float] = []
        for s in self.slots:
            low.extend([s.low] * s.size)
            high.extend([s.high] * s.size)
        return low, high

    def table(self) -> str:
        """The field table in Markdown."""
        lines = ["| field | offset | size | range | meaning |", "|---|---:|---:|---|---|"]
        for s in self.slots:
            size = f"{s.size} ({' x '.join(map(str, s.shape))})" if len(s.shape) > 1 else str(s.size)
            lines.append(
                f"| `{s.name}` | {self._offsets[s.name]} | {size} | {_num(s.low)}..{_num(s.high)} | {s.doc} |"
            )
        return "\n".join(lines)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
