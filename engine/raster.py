"""Raster images of the SVG pictures: PNG bytes and RGB arrays (the optional ``raster`` extra).

The pictures of :mod:`engine.svg` are vector drawings; clients that cannot show SVG (a multimodal model, a
PettingZoo ``rgb_array`` render) get them rasterized by resvg (the ``resvg-py`` wheel, which carries the
renderer inside) and, for arrays, decoded by Pillow.  Text is drawn with the DejaVu fonts
(``fonts-dejavu-core``), which the pictures name first; they are loaded from the usual font folders
only, so a picture renders the same on every machine that has them.

>>> from engine.game import get_game
>>> from engine.svg import board_svg
>>> svg = board_svg("take6", get_game("take6").new_game(2, seed=1))
>>> svg_to_png(svg)[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
>>> image = svg_to_rgb_array(svg, scale=0.5)
>>> image.dtype.name, image.shape[2], 100 < image.shape[1] < 1000
('uint8', 3, True)
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["FONT_DIRS", "svg_to_png", "svg_to_rgb_array"]

FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
)
"""Where the DejaVu fonts are looked for (Debian's ``fonts-dejavu-core`` installs the first)."""


@cache
def _fonts() -> tuple[str, ...]:
    found = tuple(d for d in FONT_DIRS if any(Path(d).glob("DejaVuSans*.ttf")))
    if not found:
        raise RuntimeError(
            "no DejaVu fonts found (looked in " + ", ".join(FONT_DIRS) + "): the pictures' text needs them; "
            "install them, e.g. apt-get install fonts-dejavu-core"
        )
    return found


def _render(svg: str, scale: float, background: str | None) -> bytes:
    if not isinstance(svg, str) or not svg.lstrip().startswith("<"):
        raise ValueError("svg: expected SVG markup (a string starting with '<')")
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not 0 < scale <= 16:
        raise ValueError(f"scale: expected a number in (0, 16], got {scale!r}")
    try:
        import resvg_py
    except ImportError:  # pragma: no cover - the extra is missing
        raise ImportError(
            "raster images need the raster extra: pip install 'arbiter-rules[raster]'"
        ) from None
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        zoom=float(scale),
        background=background,
        skip_system_fonts=True,
        font_dirs=list(_fonts()),
    )
    return bytes(png)


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """The picture ``svg`` as PNG bytes, ``scale`` times its drawn size (transparent where the drawing
    paints nothing).  Bad markup or a scale outside (0, 16] raise ValueError naming the argument.

    >>> svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>', scale=0)
    Traceback (most recent call last):
    ...
    ValueError: scale: expected a number in (0, 16], got 0
    """
    return _render(svg, scale, None)


def svg_to_rgb_array(svg: str, *, scale: float = 1.0) -> Any:
    """The picture ``svg`` as a numpy array of shape (height, width, 3), dtype uint8, on white.

    >>> svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="2" height="2"/>'
    >>> svg += "</svg>"
    >>> svg_to_rgb_array(svg)[:, :, 0].tolist()
    [[0, 0, 255, 255], [0, 0, 255, 255]]
    """
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(_render(svg, scale, "#ffffff"))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)
