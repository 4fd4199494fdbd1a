"""Kesse Rügen's table as a picture, drawn from the public view only (see `bot.pictures`): no closed fist can show.

The board is drawn as in the text grid, row 1 at the bottom, with the squares' letters and numbers on all four
edges. Each tuber kind has a colour *and* a shape with its initial (carrot: orange triangle, sugar beet: cream
square, radish: vermilion disc, beet: purple diamond), so no one needs to tell colours apart. A pawn is a pawn
figure in its seat's colour with the seat number on it; standing on a tuber, it stands at the left of the square
and the tuber stays visible at the right. The barn is hatched, with the pawns inside it. Beside the board, per seat:
its pawn and token, its player's name (as in the text status, made drawable and short by `bot.drawing.names`), fields
held of those needed, supply and tubers in the barn.
"""

from collections.abc import Sequence

from PIL import ImageDraw

from bot import drawing as d
from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.views import PublicView

from .i18n import _, and_list, kind_name, n_
from .i18n import initial as kind_initial

KINDS: dict[str, tuple[d.Colour, str]] = {
    "carrot": (d.ORANGE, "triangle"),
    "sugar beet": ((245, 238, 210), "square"),
    "radish": (d.VERMILION, "circle"),
    "beet": (d.PURPLE, "diamond"),
}
"""By tuber kind (the names in `engine/kesse_ruegen/data/board.toml`): colour and shape."""
SPARE: tuple[tuple[d.Colour, str], ...] = ((d.SKY, "circle"), (d.YELLOW, "square"), (d.GREEN, "triangle"))

CELL = 120
EDGE = 44
TOP = 100
BOARD_X = EDGE
PANEL_X_GAP = 20
PANEL_W = 492
TEXT_X = 104
"""Where the panel's words start, right of a seat's pawn and token."""
PAWN = 21
"""A pawn's size: its number is then drawn at the least legible size."""
SOIL = (196, 170, 130)
BARN_FILL = (120, 96, 72)


def looks(view: PublicView) -> list[tuple[d.Colour, str]]:
    """Each seat's colour and shape: its kind's, or a spare one."""
    spare = iter(SPARE)
    return [KINDS.get(p.tuber) or next(spare, (d.GREY, "circle")) for p in view.players]


def draw_picture(view: PublicView, names: Sequence[str]) -> bytes:
    who = d.names(names)
    size = view.size
    board = CELL * size
    width = BOARD_X + board + EDGE + PANEL_X_GAP + PANEL_W
    height = max(TOP + board + EDGE + 10, TOP + 60 + 130 * len(view.players))
    image, draw = d.canvas(width, height)
    d.text(draw, (BOARD_X, 18), d.fit(_headline(view, who), 30, width - 2 * BOARD_X), 30)
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
    _panel(draw, view, who, style, BOARD_X + board + EDGE + PANEL_X_GAP, TOP)
    return d.png(image)


def _headline(view: PublicView, who: Sequence[str]) -> str:
    if view.phase == "over":
        won = [who[s] for s in view.winners] or ([who[view.winner]] if view.winner is not None else [])
        if not won:
            return _("Game over")
        if len(won) == 1:
            return _("Game over: %(who)s wins", who=won[0])
        return _("Game over: %(who)s win", who=and_list(won))
    if view.duel is not None:
        duel = view.duel
        return _(
            "Duel: %(challenger)s against %(challenged)s",
            challenger=who[duel.challenger],
            challenged=who[duel.challenged],
        )
    if view.phase == "place":
        return _("%(who)s places a pawn", who=who[view.turn])
    if view.phase == "act":
        actor = view.actor if view.actor is not None else view.turn
        return _(
            "%(who)s acts (%(left)d of %(total)d left)",
            who=who[actor],
            left=view.actions_left,
            total=view.actions_total,
        )
    return _("%(who)s to challenge", who=who[view.turn])


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
        d.text(draw, (x0 + CELL / 2, y0 + 10), _("BARN"), d.MIN_SIZE, d.WHITE, "mt")
        # The pawns in a row, overlapping when there are many but never over a neighbour's number; the tubers in
        # the barn are counted in the panel (a count here would be too small to read).
        step = min(PAWN * 2 + 2, (CELL - PAWN * 2 - 8) / max(len(pawns) - 1, 1))
        for i, seat in enumerate(pawns):
            _pawn(draw, (x0 + PAWN + 4 + i * step, y0 + CELL * 0.62), PAWN, style[seat][0], str(seat + 1))
        return
    draw.rectangle(box, fill=SOIL, outline=d.INK, width=2)
    owner = view.tubers.get(square)
    if owner is not None:
        colour, shape = style[owner]
        centre = (x0 + CELL * 0.70, y0 + CELL * 0.62) if pawns else (x0 + CELL / 2, y0 + CELL / 2)
        radius = 24 if pawns else 34
        d.badge(draw, centre, radius, colour, initial(view, owner), shape)
    for i, seat in enumerate(pawns):
        _pawn(draw, (x0 + CELL * 0.30 + i * 18, y0 + CELL * 0.5), PAWN, style[seat][0], str(seat + 1))


def initial(view: PublicView, seat: int) -> str:
    """The letter on a seat's tuber token: its kind's initial in the language spoken (W for wortel, M for Möhre)."""
    return kind_initial(view.players[seat].tuber)


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
    d.text(draw, (x, y + r * 0.6), label, max(d.MIN_SIZE, int(r * 1.05)), d.ink_on(colour), "mm")


def _panel(
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    who: Sequence[str],
    style: list[tuple[d.Colour, str]],
    x: int,
    y: int,
) -> None:
    d.text(draw, (x, y), n_("%(n)d field wins", "%(n)d fields win", view.win_fields), 26)
    y += 50
    room = PANEL_W - TEXT_X - 8
    for p in view.players:
        colour, shape = style[p.seat]
        _pawn(draw, (x + 20, y + 30), PAWN, colour, str(p.seat + 1))
        d.badge(draw, (x + 70, y + 30), 20, colour, initial(view, p.seat), shape)
        if p.seat == view.winner or p.seat in view.winners:
            remark = " · " + _("winner")
        else:
            remark = " · " + _("left the game") if p.left else ""
        remark += f" · {kind_name(p.tuber, p.tubers)}"
        title = d.fit(who[p.seat], 26, room - d.width(remark, 26)) + remark
        d.text(draw, (x + TEXT_X, y + 4), title, 26, d.GREY if p.left else d.INK)
        d.text(
            draw,
            (x + TEXT_X, y + 38),
            d.fit(
                _(
                    "%(fields)d/%(needed)d fields · %(supply)d to plant · %(barn)d in barn",
                    fields=p.fields,
                    needed=view.win_fields,
                    supply=p.supply,
                    barn=p.in_barn,
                ),
                24,
                room,
            ),
            24,
        )
        duel = view.duel
        if duel is not None and p.seat in (duel.challenger, duel.challenged):
            guess = duel.challenger_guess if p.seat == duel.challenger else duel.challenged_guess
            closed = p.seat in duel.chosen
            if guess is not None:
                said = _("Duel: chosen, guess %(guess)d", guess=guess)
            else:
                said = _("Duel: chosen") if closed else _("Duel: choosing")
            d.text(draw, (x + TEXT_X, y + 70), said, 24, d.BLUE)
        y += 120
