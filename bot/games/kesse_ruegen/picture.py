"""Kesse Rügen's table as a picture, drawn from the public view only (see `bot.pictures`): no closed fist can show.

The board is drawn as in the text grid, row 1 at the bottom, with the squares' letters and numbers on all four
edges. Each tuber kind has a colour *and* a shape with its initial (carrot: orange triangle, sugar beet: cream
square, radish: vermilion disc, beet: purple diamond), so no one needs to tell colours apart. A pawn is a pawn
figure in its seat's colour with the seat number on it; standing on a tuber, it stands at the left of the square
and the tuber stays visible at the right. The barn is hatched, with the pawns and tuber counts inside it. Beside the
board, one line per seat: its token, fields held of those needed, supply and barn.
"""

from PIL import ImageDraw

from bot import drawing as d
from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.views import PublicView

KINDS: dict[str, tuple[d.Colour, str]] = {
    "carrot": (d.ORANGE, "triangle"),
    "sugar beet": ((245, 238, 210), "square"),
    "radish": (d.VERMILION, "circle"),
    "beet": (d.PURPLE, "diamond"),
}
"""By tuber kind (the names in `engine/kesse_ruegen/data/board.toml`): colour and shape."""
SPARE: tuple[tuple[d.Colour, str], ...] = ((d.SKY, "circle"), (d.YELLOW, "square"), (d.GREEN, "triangle"))

CELL = 128
EDGE = 44
TOP = 100
BOARD_X = EDGE
PANEL_X_GAP = 20
PANEL_W = 440
SOIL = (196, 170, 130)
BARN_FILL = (120, 96, 72)


def looks(view: PublicView) -> list[tuple[d.Colour, str]]:
    """Each seat's colour and shape: its kind's, or a spare one."""
    spare = iter(SPARE)
    return [KINDS.get(p.tuber) or next(spare, (d.GREY, "circle")) for p in view.players]


def draw_picture(view: PublicView) -> bytes:
    size = view.size
    board = CELL * size
    width = BOARD_X + board + EDGE + PANEL_X_GAP + PANEL_W
    height = max(TOP + board + EDGE + 10, TOP + 60 + 130 * len(view.players))
    image, draw = d.canvas(width, height)
    d.text(draw, (BOARD_X, 18), _headline(view), 30)
    style = looks(view)
    for row_index, row in enumerate(geometry.rows_top_down(size)):
        for col_index, square in enumerate(row):
            x0, y0 = BOARD_X + col_index * CELL, TOP + row_index * CELL
            _square(draw, view, square, (x0, y0), style)
    for i in range(size):  # the squares' names on the four edges
        letter, number = chr(ord("a") + i), str(size - i)
        cx, cy = BOARD_X + i * CELL + CELL / 2, TOP + i * CELL + CELL / 2
        d.text(draw, (cx, TOP - 4), letter, 26, anchor="md")
        d.text(draw, (cx, TOP + board + 6), letter, 26, anchor="ma")
        d.text(draw, (BOARD_X - 12, cy), number, 26, anchor="rm")
        d.text(draw, (BOARD_X + board + 12, cy), number, 26, anchor="lm")
    _panel(draw, view, style, BOARD_X + board + EDGE + PANEL_X_GAP, TOP)
    return d.png(image)


def _headline(view: PublicView) -> str:
    if view.phase == "over":
        return f"Seat {view.winner + 1} wins" if view.winner is not None else "Game over"
    if view.duel is not None:
        duel = view.duel
        return f"Duel: Seat {duel.challenger + 1} against Seat {duel.challenged + 1}"
    if view.phase == "place":
        return f"Seat {view.turn + 1} places a pawn"
    if view.phase == "act":
        actor = view.actor if view.actor is not None else view.turn
        return f"Seat {actor + 1} acts ({view.actions_left} of {view.actions_total} left)"
    return f"Seat {view.turn + 1} to challenge"


def _square(
    draw: ImageDraw.ImageDraw, view: PublicView, square: str, xy: tuple[int, int], style: list[tuple[d.Colour, str]]
) -> None:
    x0, y0 = xy
    box = (x0, y0, x0 + CELL, y0 + CELL)
    pawns = [p.seat for p in view.players if p.pawn == square]
    if square == view.barn:
        draw.rectangle(box, fill=BARN_FILL, outline=d.INK, width=2)
        for k in range(16, 2 * CELL, 16):  # hatched: the barn reads as a building without its colour
            start = (x0 + min(k, CELL), y0 + max(0, k - CELL))
            end = (x0 + max(0, k - CELL), y0 + min(k, CELL))
            draw.line((start, end), fill=(98, 78, 58), width=3)
        d.text(draw, (x0 + CELL / 2, y0 + 14), "BARN", 22, d.WHITE, "mt")
        for i, seat in enumerate(pawns):
            _pawn(draw, (x0 + 22 + i * 28, y0 + 56), 13, style[seat][0], str(seat + 1))
        counts = [p for p in view.players if p.in_barn]
        for i, p in enumerate(counts[:4]):  # two a row; four seats at most
            colour, shape = style[p.seat]
            cx, cy = x0 + 20 + (i % 2) * 58, y0 + 92 + (i // 2) * 26
            d.badge(draw, (cx, cy), 10, colour, "", shape)
            d.text(draw, (cx + 14, cy), f"x{p.in_barn}", 20, d.WHITE, "lm")
        return
    draw.rectangle(box, fill=SOIL, outline=d.INK, width=2)
    owner = view.tubers.get(square)
    if owner is not None:
        colour, shape = style[owner]
        centre = (x0 + CELL * 0.70, y0 + CELL * 0.62) if pawns else (x0 + CELL / 2, y0 + CELL / 2)
        radius = 24 if pawns else 34
        d.badge(draw, centre, radius, colour, view.players[owner].tuber[0].upper(), shape)
    for i, seat in enumerate(pawns):
        _pawn(draw, (x0 + CELL * 0.30 + i * 18, y0 + CELL * 0.5), 22, style[seat][0], str(seat + 1))


def _pawn(draw: ImageDraw.ImageDraw, foot: d.Point, r: float, colour: d.Colour, label: str) -> None:
    """A pawn figure centred at `foot`: head, shoulders and a broad base, outlined, with the seat number."""
    x, y = foot
    body = [
        (x - r * 0.55, y - r * 0.3),
        (x + r * 0.55, y - r * 0.3),
        (x + r * 1.0, y + r * 1.3),
        (x - r * 1.0, y + r * 1.3),
    ]
    draw.polygon(body, fill=colour)
    draw.line([*body, body[0]], fill=d.BLACK, width=3)
    draw.ellipse((x - r * 0.62, y - r * 1.5, x + r * 0.62, y - r * 0.26), fill=colour, outline=d.BLACK, width=3)
    d.text(draw, (x, y + r * 0.6), label, int(r * 1.05), d.ink_on(colour), "mm")


def _panel(draw: ImageDraw.ImageDraw, view: PublicView, style: list[tuple[d.Colour, str]], x: int, y: int) -> None:
    d.text(draw, (x, y), f"{view.win_fields} fields win", 26)
    y += 50
    for p in view.players:
        colour, shape = style[p.seat]
        _pawn(draw, (x + 20, y + 30), 20, colour, str(p.seat + 1))
        d.badge(draw, (x + 70, y + 30), 20, colour, p.tuber[0].upper(), shape)
        title = f"Seat {p.seat + 1} · {p.tubers}"
        if view.winner == p.seat:
            title += " · winner"
        if p.left:
            title += " · left"
        d.text(draw, (x + 104, y + 4), title, 26, d.GREY if p.left else d.INK)
        d.text(
            draw,
            (x + 104, y + 40),
            f"{p.fields}/{view.win_fields} fields · {p.supply} to plant · {p.in_barn} in barn",
            22,
        )
        duel = view.duel
        if duel is not None and p.seat in (duel.challenger, duel.challenged):
            guess = duel.challenger_guess if p.seat == duel.challenger else duel.challenged_guess
            said = "chosen" if p.seat in duel.chosen else "choosing"
            if guess is not None:
                said += f", guess {guess}"
            d.text(draw, (x + 104, y + 70), f"Duel: {said}", 22, d.BLUE)
        y += 120
