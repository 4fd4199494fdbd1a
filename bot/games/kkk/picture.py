"""Kohle, Kies & Knete's table as a picture, drawn from the public view only (see `bot.pictures`).

The 16 deal spaces run clockwise round the edge of a 5×5 grid, space 1 at the top left. Each shows its number, its
dividends, and its required families as coloured discs with the family's initial (a "k of group" block as squares
under "k of"); a concluded space shows its deal tile instead. The dollar marker is a thick frame with a "$" token.
The middle tells the next deal's dividend value and, during a round, the Boss, the payout, and each requirement
ticked once covered (the same ticks on the space itself).

Players are named by their display names (made drawable and short by `bot.drawing.names`), as in the text status.
"""

from collections.abc import Sequence

from PIL import ImageDraw

from bot import drawing as d
from bot.games.kkk.i18n import _, n_
from bot.games.kkk.words import and_list, money
from engine.kkk.cards import FAMILIES, FAMILY_NAMES
from engine.kkk.views import PublicView, RoundView, SpaceView

FAMILY_COLOURS: dict[str, d.Colour] = {
    "H": d.ORANGE,
    "K": d.SKY,
    "L": d.GREEN,
    "P": d.YELLOW,
    "R": d.VERMILION,
    "T": d.PURPLE,
}
CELL_W, CELL_H = 230, 160
LEFT, TOP = 20, 64
WIDTH = LEFT * 2 + CELL_W * 5
HEIGHT = TOP + CELL_H * 5 + 84
DISC = 19


def ring_cell(number: int) -> tuple[int, int]:
    """(column, row) of space `number` (1–16) on the 5×5 ring, clockwise from the top left."""
    i = number - 1
    if i < 5:
        return i, 0
    if i < 9:
        return 4, i - 4
    if i < 13:
        return 12 - i, 4
    return 0, 16 - i


def draw_picture(view: PublicView, names: Sequence[str]) -> bytes:
    who = d.names(names)
    image, draw = d.canvas(WIDTH, HEIGHT)
    d.text(draw, (LEFT, 18), d.fit(_headline(view, who), 30, WIDTH - 2 * LEFT), 30)
    ticks = _ticks(view.round)
    for space in view.spaces:
        col, row = ring_cell(space.number)
        box = (LEFT + col * CELL_W, TOP + row * CELL_H, LEFT + (col + 1) * CELL_W, TOP + (row + 1) * CELL_H)
        in_round = view.round is not None and view.round.space == space.number
        _space(draw, box, space, marker=view.marker == space.number, ticks=ticks if in_round else None)
    _middle(draw, view, who, (LEFT + CELL_W + 14, TOP + CELL_H + 10, LEFT + 4 * CELL_W - 14, TOP + 4 * CELL_H - 10))
    _legend(draw, HEIGHT - 82)
    return d.png(image)


def _headline(view: PublicView, who: Sequence[str]) -> str:
    if view.phase == "over":
        if not view.money:
            return _("Game over")
        best = max(view.money)
        winners = [who[s] for s, m in enumerate(view.money) if m == best]
        return n_("Game over: %(who)s wins", "Game over: %(who)s win", len(winners), who=and_list(winners))
    if view.round is not None:
        return _("Deal on space %(space)d · Boss: %(boss)s", space=view.round.space, boss=who[view.round.boss])
    if view.phase == "place_marker":
        return _("%(who)s places the dollar marker", who=who[view.placer])
    return _("%(who)s's turn · dollar marker on space %(space)d", who=who[view.turn], space=view.marker or 0)


def _ticks(r: RoundView | None) -> dict[tuple[str, str], bool]:
    """(block, family) → covered, for the space of the round."""
    if r is None:
        return {}
    return {(q.block, q.family): q.assigned is not None for q in r.requirements}


def _space(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    space: SpaceView,
    *,
    marker: bool,
    ticks: dict[tuple[str, str], bool] | None,
) -> None:
    x0, y0, x1, y1 = box
    done = space.tile is not None
    fill = d.LIGHT if done else d.WHITE
    draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), fill=fill, outline=d.INK, width=8 if marker else 2)
    if ticks is not None:  # the space of the deal under way: a blue inner frame
        draw.rectangle((x0 + 10, y0 + 10, x1 - 10, y1 - 10), outline=d.BLUE, width=4)
    d.text(draw, (x0 + 16, y0 + 14), str(space.number), 30)
    d.text(draw, (x1 - 16, y0 + 18), _("%(n)d div", n=space.dividends), 22, anchor="ra")
    if marker:
        d.badge(draw, (x0 + 84, y0 + 32), 19, d.YELLOW, "$")
    if done:
        tx, ty = (x0 + x1) / 2, (y0 + y1) / 2 + 12
        draw.rounded_rectangle((tx - 62, ty - 30, tx + 62, ty + 30), radius=8, fill=d.INK)
        d.text(draw, (tx, ty), _("Deal %(deal)d", deal=space.tile or 0), 24, d.WHITE, "mm")
        return
    y = y0 + 76
    room = x1 - x0 - 32
    step = min(DISC * 2 + 8, room / max(len(space.required), 1))
    x = x0 + 16 + DISC
    for family in space.required:
        _family(draw, (x, y), family, "circle", None if ticks is None else ticks.get(("required", family)))
        x += step
    if space.group:
        y += DISC * 2 + 12
        label = _("%(k)d of", k=space.group_k)
        d.text(draw, (x0 + 16, y), label, 22, anchor="lm")
        start = x0 + 24 + d.width(label, 22)
        step = min(DISC * 2 + 6, (x1 - 16 - start) / len(space.group))
        x = start + DISC
        for family in space.group:
            _family(draw, (x, y), family, "square", None if ticks is None else ticks.get(("group", family)))
            x += step


def _family(draw: ImageDraw.ImageDraw, centre: d.Point, family: str, shape: str, covered: bool | None) -> None:
    d.badge(draw, centre, DISC, FAMILY_COLOURS.get(family, d.GREY), family, shape)
    if covered:
        cx, cy = centre
        draw.ellipse((cx + 8, cy - DISC - 14, cx + 34, cy - DISC + 12), fill=d.WHITE, outline=d.BLACK, width=2)
        d.tick(draw, (cx + 21, cy - DISC - 1), 7)


def _shape(block: str) -> str:
    return "circle" if block == "required" else "square"


def _middle(draw: ImageDraw.ImageDraw, view: PublicView, who: Sequence[str], box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, _bottom = box
    lines: list[tuple[str, int]] = []
    if view.phase == "over" and view.money is not None:
        lines.append((_("Final money"), 28))
        ranked = sorted(range(len(view.money)), key=lambda s: -view.money[s])  # type: ignore[index]
        lines += [(f"{who[s]}: {money(view.money[s])}", 26) for s in ranked]
    elif view.tile is not None:
        lines.append((_("Next: deal %(deal)d of 15", deal=view.tile.number), 30))
        lines.append((_("1 dividend = %(value)s", value=money(view.tile.value)), 30))
    else:
        lines.append((_("All %(n)d deals done", n=view.deals), 28))
    y = y0
    for words, size in lines:
        d.text(draw, (x0, y), words, size)
        y += size + 10
    r = view.round
    if r is None:
        return
    y += 8
    draw.line((x0, y, x1, y), fill=d.GREY, width=2)
    y += 14
    d.text(draw, (x0, y), _("Boss: %(boss)s", boss=who[r.boss]), 30)
    y += 40
    d.text(
        draw,
        (x0, y),
        _(
            "Payout %(payout)s  (%(n)d x %(value)s)",
            payout=money(r.payout),
            n=r.dividends,
            value=money(r.dividend_value),
        ),
        28,
    )
    y += 36
    d.text(
        draw,
        (x0, y),
        _("Promised %(promised)s · Boss keeps %(keeps)s", promised=money(r.promised), keeps=money(r.boss_keeps)),
        26,
    )
    y += 48
    # One line per requirement, two columns: the family's token, its name, and covered (tick) or not yet (cross).
    rows = (len(r.requirements) + 1) // 2
    column = (x1 - x0) / 2
    for i, q in enumerate(r.requirements):
        x = x0 + (i // rows) * column + DISC
        cy = y + (i % rows) * (DISC * 2 + 10) + DISC
        d.badge(draw, (x, cy), DISC, FAMILY_COLOURS.get(q.family, d.GREY), q.family, _shape(q.block))
        covered = q.assigned is not None
        (d.tick if covered else d.cross)(draw, (x + DISC + 22, cy), 11 if covered else 8, d.BLUE if covered else d.GREY)
        d.text(draw, (x + DISC + 44, cy), FAMILY_NAMES.get(q.family, q.family), 24, anchor="lm")
    y += rows * (DISC * 2 + 10) + 8
    if r.can_close:
        d.text(draw, (x0, y), _("Covered: the Boss can close the deal"), 26, d.BLUE)


def _legend(draw: ImageDraw.ImageDraw, y: int) -> None:
    x = LEFT + 4 + DISC
    for family in FAMILIES:
        d.badge(draw, (x, y + 16), DISC, FAMILY_COLOURS[family], family)
        d.text(draw, (x + DISC + 6, y + 16), FAMILY_NAMES[family], d.MIN_SIZE, anchor="lm")
        x += DISC * 2 + 6 + d.width(FAMILY_NAMES[family], d.MIN_SIZE) + 22
    d.text(
        draw,
        (LEFT + 4, y + 46),
        _("Disc: a required family · square: k of a group · tick: covered in the deal"),
        d.MIN_SIZE,
        d.GREY,
    )
