"""What the games' pictures share: Pillow's bundled font, a colour-blind-safe palette, shapes, and PNG encoding.

The font is Pillow's own (`ImageFont.load_default(size=…)`, Pillow ≥ 10.1), never a system font the host may lack.
The palette is Okabe & Ito's ("Color Universal Design"), told apart by the common forms of colour blindness; the
pictures still never rely on colour alone: every colour comes with a letter or a shape.

Every word on a picture goes through `text` (nothing calls `ImageDraw.text` itself), at `MIN_SIZE` or more: a
1200 px picture is shown about 400 px wide on a phone, a third of its size, and smaller text can't be read there.
`recording()` lets a test see every text drawn. People's names go through `name`: only what the font can draw,
shortened to fit.
"""

import io
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.i18n.platform import _

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
MIN_SIZE = 22
"""The smallest font size (px) on a 1200 px wide picture; a narrower picture may scale it down in proportion."""
FULL_WIDTH = 1200
NAME_CHARACTERS = 12
"""A name longer than this is cut, with an ellipsis: long enough to tell "Christopher" from "Christine"."""
ELLIPSIS = "…"


@dataclass(frozen=True)
class Drawn:
    """One text as drawn, for tests (see `recording`)."""

    words: str
    size: int
    box: tuple[float, float, float, float]
    image: tuple[int, int]
    """The width and height of the picture it was drawn on."""


_recorders = threading.local()


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
    """The one way words get onto a picture."""
    draw.text(xy, words, font=font(size), fill=fill, anchor=anchor)
    recorded: list[Drawn] | None = getattr(_recorders, "texts", None)
    if recorded is not None:
        box = draw.textbbox(xy, words, font=font(size), anchor=anchor)
        recorded.append(Drawn(words, size, box, draw.im.size))


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Every text drawn in this thread while inside, in order (for tests: the pictures' legibility)."""
    previous = getattr(_recorders, "texts", None)
    _recorders.texts = texts = []
    try:
        yield texts
    finally:
        _recorders.texts = previous


@lru_cache(maxsize=4096)
def drawable(character: str) -> bool:
    """Whether the bundled font has a glyph for `character` (it has Latin letters and common punctuation, no accents,
    no emoji): a missing one would be drawn as an empty box, which looks like a bug."""
    if character.isspace():
        return True
    probe = font(30)
    mask = probe.getmask(character)
    return (mask.size, bytes(mask)) != _MISSING


_MISSING = (lambda m: (m.size, bytes(m)))(font(30).getmask("\uffff"))
"""What the font draws for a character it lacks (U+FFFF is no character at all)."""


def plain(words: str) -> str:
    """`words` as the font can draw them: accents taken off ("Café" → "Cafe"), other missing characters (emoji,
    other scripts) left out, runs of spaces made one."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", words) if not unicodedata.combining(c))
    return " ".join("".join(c for c in bare if drawable(c)).split())


def fit(words: str, size: int, room: float) -> str:
    """`words`, cut with an ellipsis so that they are at most `room` px wide at `size`."""
    if width(words, size) <= room:
        return words
    cut = words
    while cut and width(cut.rstrip() + ELLIPSIS, size) > room:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS if cut.strip() else ELLIPSIS


def name(raw: str, seat: int) -> str:
    """A player's name for a picture: drawable (see `plain`), at most `NAME_CHARACTERS` long, or "Seat 2" if nothing
    of it can be drawn (a name in another script). The layout fits it to its room with `fit` where room is short."""
    words = plain(raw)
    if not words:
        return _("Seat %(n)d", n=seat + 1)
    if len(words) > NAME_CHARACTERS:
        words = words[: NAME_CHARACTERS - 1].rstrip() + ELLIPSIS
    return words


def names(raw: Sequence[str]) -> list[str]:
    """Every seat's name for a picture (see `name`)."""
    return [name(n, seat) for seat, n in enumerate(raw)]


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
        text(draw, (x, y), letter, max(MIN_SIZE, int(r * 1.2)), ink_on(colour), "mm")  # never unreadable


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
