"""engine.raster: PNG bytes and RGB arrays of the SVG pictures, text included (the DejaVu fonts)."""

from __future__ import annotations

import inspect

import pytest
from extras import need

need("resvg_py")
need("PIL")

from engine import raster  # noqa: E402
from engine.game import get_game  # noqa: E402
from engine.svg import board_svg  # noqa: E402

TEXT = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30">'
    '<rect width="120" height="30" fill="#fff"/>'
    '<text x="4" y="22" font-family="DejaVu Sans" font-size="20">Row 0</text></svg>'
)


def test_the_api_other_modules_code_against() -> None:
    """``svg_to_png(svg, *, scale=1.0) -> bytes`` and ``svg_to_rgb_array(svg, *, scale=1.0)``."""
    for f in (raster.svg_to_png, raster.svg_to_rgb_array):
        params = inspect.signature(f).parameters
        assert list(params) == ["svg", "scale"] and params["scale"].kind is inspect.Parameter.KEYWORD_ONLY
        assert params["scale"].default == 1.0


def test_png_of_a_picture_and_its_scale() -> None:
    """A board picture becomes a PNG; ``scale=2`` doubles both sides."""
    svg = board_svg("petersburg", get_game("petersburg").new_game(2, seed=1))
    png = raster.svg_to_png(svg)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    one, two = raster.svg_to_rgb_array(svg), raster.svg_to_rgb_array(svg, scale=2.0)
    assert two.shape == (one.shape[0] * 2, one.shape[1] * 2, 3)


def test_text_is_drawn() -> None:
    """Text renders (a font is found): the word leaves dark pixels, the blank picture none."""
    blank = TEXT.replace("Row 0", "")
    assert (raster.svg_to_rgb_array(blank) < 128).sum() == 0
    assert (raster.svg_to_rgb_array(TEXT) < 128).sum() > 50


@pytest.mark.parametrize(
    ("svg", "scale", "field"), [("not svg", 1.0, "svg"), (TEXT, 0.0, "scale"), (TEXT, True, "scale")]
)
def test_bad_input_names_the_argument(svg: str, scale: float, field: str) -> None:
    """Bad markup or a bad scale raise ValueError naming the argument."""
    with pytest.raises(ValueError, match=f"^{field}: "):
        raster.svg_to_png(svg, scale=scale)
