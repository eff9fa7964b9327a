"""Pictures as PNG: :func:`svg_to_png` renders an SVG picture (:mod:`engine.svg`) with resvg, through the
``resvg-py`` wheel (the renderer is inside it; no system library), for clients that cannot show SVG.

>>> from engine.game import get_game
>>> from engine.svg import repr_svg
>>> svg_to_png(repr_svg(get_game("take6").new_game(2, seed=1)))[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

from engine.errors import InputError

__all__ = ["svg_to_png"]


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """The PNG image of ``svg`` at ``scale`` times its size (InputError naming ``scale`` outside 0.1..8)."""
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not 0.1 <= scale <= 8:
        raise InputError("scale", f"expected a number from 0.1 to 8, got {scale!r}")
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=float(scale)))
