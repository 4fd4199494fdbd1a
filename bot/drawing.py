"""What the games' pictures share: Pillow's bundled font, a colour-blind-safe palette, shapes, and PNG encoding.

The font is Pillow's own (`ImageFont.load_default(size=…)`, Pillow ≥ 10.1), never a system font the host may lack.
The palette is Okabe & Ito's ("Color Universal Design"), told apart by the common forms of colour blindness; the
pictures still never rely on colour alone: every colour comes with a letter or a shape.
"""

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
ORANGE = (230, 159, 0)
SKY = (86, 180, 233)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILION = (213, 94, 0)
PURPLE = (204, 121, 167)
PAPER = (250, 247, 240)
GREY = (120, 120, 120)
LIGHT = (222, 218, 210)
INK = (34, 34, 34)

Colour = tuple[int, int, int]
_HEXAGON = ((1.0, 0.0), (0.5, 0.866), (-0.5, 0.866), (-1.0, 0.0), (-0.5, -0.866), (0.5, -0.866))
Point = tuple[float, float]


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), PAPER)
    return image, ImageDraw.Draw(image)


def png(image: Image.Image) -> bytes:
    """PNG bytes; no metadata, so the same picture always gives the same bytes. Quantised to a palette: the
    pictures are flat colours, and a paletted PNG is several times smaller (and quicker to compress)."""
    out = io.BytesIO()
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        out, "PNG", compress_level=6
    )
    return out.getvalue()


def text(draw: ImageDraw.ImageDraw, xy: Point, words: str, size: int, fill: Colour = INK, anchor: str = "la") -> None:
    draw.text(xy, words, font=font(size), fill=fill, anchor=anchor)


def width(words: str, size: int) -> float:
    return font(size).getlength(words)


def ink_on(colour: Colour) -> Colour:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return BLACK if 0.299 * r + 0.587 * g + 0.114 * b > 110 else WHITE


def badge(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, colour: Colour, letter: str, shape: str = "circle"
) -> None:
    """A coloured token with a letter on it: a circle, square, triangle, diamond or hexagon, outlined in black."""
    x, y = centre
    r = radius
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=BLACK, width=2)
    elif shape == "square":
        draw.rounded_rectangle((x - r, y - r, x + r, y + r), radius=r / 4, fill=colour, outline=BLACK, width=2)
    elif shape == "triangle":
        draw.polygon([(x, y - r * 1.15), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)], fill=colour)
        draw.line(
            [(x, y - r * 1.15), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8), (x, y - r * 1.15)], BLACK, 2
        )
        y += r * 0.2
    elif shape == "diamond":
        points = [(x, y - r * 1.2), (x + r * 1.2, y), (x, y + r * 1.2), (x - r * 1.2, y)]
        draw.polygon(points, fill=colour)
        draw.line([*points, points[0]], BLACK, 2)
    elif shape == "hexagon":
        points = [(x + r * 1.1 * c, y + r * 1.1 * s) for c, s in _HEXAGON]
        draw.polygon(points, fill=colour)
        draw.line([*points, points[0]], BLACK, 2)
    if letter:
        text(draw, (x, y), letter, int(r * 1.2), ink_on(colour), "mm")


def tick(draw: ImageDraw.ImageDraw, centre: Point, size: float, colour: Colour = BLACK) -> None:
    """A check mark (drawn: the bundled font has no ✓)."""
    x, y = centre
    s = size
    draw.line([(x - s, y), (x - s / 3, y + s * 0.7), (x + s, y - s * 0.8)], fill=colour, width=max(3, int(s / 3)))


def cross(draw: ImageDraw.ImageDraw, centre: Point, size: float, colour: Colour = BLACK) -> None:
    x, y = centre
    w = max(2, int(size / 4))
    draw.line([(x - size, y - size), (x + size, y + size)], fill=colour, width=w)
    draw.line([(x - size, y + size), (x + size, y - size)], fill=colour, width=w)
