"""Schwarzmarkt's table as a picture, drawn from the public view only (see `bot.pictures`): no hand can show.

The price track runs left to right, 14 spaces with their prices; the marker is a black arrow over a framed space,
the round's end a flag with "END" under its space (and Limit's space, while Limit is in force, a bar). Below: the
offer, one token per wanted card — each of the five goods with its own colour, shape and initial — the cards
already delivered faded and ticked, so what it still wants is what stands out. Then the events in force and one
line per player, named as in the text status (made drawable and short by `bot.drawing.names`): luxury, cards in hand.
"""

from collections.abc import Sequence

from PIL import ImageDraw

from bot import drawing as d
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.views import PublicView
from engine.schwarzmarkt.words import EVENT_NAMES

LOOKS: dict[str, tuple[d.Colour, str, str]] = {
    "potatoes": (d.ORANGE, "circle", "P"),
    "flour": ((245, 238, 210), "square", "F"),
    "coffee": (d.BLUE, "triangle", "C"),
    "butter": (d.YELLOW, "diamond", "B"),
    "sugar": (d.SKY, "hexagon", "S"),
}
"""Per good: colour, shape, letter."""
FADED = (215, 212, 205)
DIE_GREY = (90, 90, 90)
"""The dice under the prices: quieter than the price, still dark enough to read on the faded spaces."""
WIDTH = 1180
LEFT = 20


def draw_picture(view: PublicView, names: Sequence[str]) -> bytes:
    who = d.names(names)
    seats = view.seats
    height = 572 + 44 * seats
    image, draw = d.canvas(WIDTH, height)
    d.text(draw, (LEFT, 18), d.fit(_headline(view, who), 30, WIDTH - 2 * LEFT), 30)
    y = _track(draw, view, 78)
    y = _offer(draw, view, y + 16)
    _players(draw, view, who, y + 12)
    return d.png(image)


def _headline(view: PublicView, who: Sequence[str]) -> str:
    if view.phase == "over":
        playing = [s for s in range(view.seats) if s not in view.left] or list(range(view.seats))
        best = max(view.luxury[s] for s in playing)
        won = [who[s] for s in playing if view.luxury[s] == best]
        return f"Game over: {' and '.join(won)} win{'s' if len(won) == 1 else ''} with luxury {best}"
    where = f"Round {view.game_round} · price {view.price}"
    if view.phase == "play":
        return f"{where} · {who[view.starter]} plays a black-market card"
    if view.phase == "event" and view.event is not None:
        return f"{where} · {EVENT_NAMES[view.event.kind]}: {who[view.event.chooser]} chooses"
    last = " · last call" if view.last_call else ""
    return f"{where} · {who[view.turn]} trades{last}"


def _track(draw: ImageDraw.ImageDraw, view: PublicView, y: int) -> int:
    count = len(view.prices)
    cell = (WIDTH - 2 * LEFT) / count
    top = y + 40
    bottom = top + 98
    limit = "limit" in view.in_force
    for i, price in enumerate(view.prices):
        space = i + 1
        x0, x1 = LEFT + i * cell, LEFT + (i + 1) * cell
        here = space == view.marker
        past = space < view.marker
        fill = d.YELLOW if here else FADED if past else d.WHITE
        draw.rectangle((x0 + 3, top, x1 - 3, bottom), fill=fill, outline=d.INK, width=6 if here else 2)
        d.text(draw, ((x0 + x1) / 2, top + 36), str(price), 34, anchor="mm")
        d.text(draw, ((x0 + x1) / 2, bottom - 22), f"die {view.dice[i]}", d.MIN_SIZE, DIE_GREY, "mm")
        if here:  # the marker: an arrow pointing down at its space
            cx = (x0 + x1) / 2
            draw.polygon([(cx - 18, y + 4), (cx + 18, y + 4), (cx, y + 34)], fill=d.BLACK)
        if space == view.end_space:
            _flag(draw, (x1 - 30, bottom + 6))
            d.text(draw, ((x0 + x1) / 2, bottom + 48), "END", d.MIN_SIZE, anchor="mm")
        elif limit and space == view.limit_space:
            draw.rectangle((x1 - 6, top - 8, x1, bottom + 8), fill=d.VERMILION)
            d.text(draw, ((x0 + x1) / 2, bottom + 48), "LIMIT", d.MIN_SIZE, anchor="mm")
    return bottom + 64


def _flag(draw: ImageDraw.ImageDraw, foot: d.Point) -> None:
    x, y = foot
    draw.line((x, y, x, y + 30), fill=d.BLACK, width=3)
    draw.polygon([(x, y), (x + 24, y + 7), (x, y + 14)], fill=d.VERMILION, outline=d.BLACK)


def _offer(draw: ImageDraw.ImageDraw, view: PublicView, y: int) -> int:
    offer = view.offer
    box_bottom = y + 206
    draw.rounded_rectangle((LEFT, y, WIDTH - LEFT, box_bottom), radius=12, fill=d.WHITE, outline=d.INK, width=2)
    if offer is None:
        d.text(draw, (LEFT + 20, y + 20), "No offer on the table", 30)
        _legend(draw, y + 140)
        return box_bottom
    wanted = sum(offer.still.values())
    total = sum(offer.wants.values())
    head = f"Offer: still wants {wanted} of {total} cards" if wanted else "Offer: complete"
    d.text(draw, (LEFT + 20, y + 16), head, 30)
    x = LEFT + 44
    for good in GOODS:
        wants = offer.wants.get(good, 0)
        if not wants:
            continue
        still = offer.still.get(good, 0)
        colour, shape, letter = LOOKS[good]
        start = x - 24  # the first token's left edge: its label starts there, and the next good after both
        for k in range(wants):
            delivered = k < wants - still
            d.badge(draw, (x, y + 92), 24, FADED if delivered else colour, letter, shape)
            if delivered:
                d.tick(draw, (x + 4, y + 92), 12, d.BLUE)
            x += 60
        label = f"{still} more {good}" if still else f"{good}: done"
        d.text(draw, (start, y + 124), label, d.MIN_SIZE)
        x = max(x, start + d.width(label, d.MIN_SIZE) + 24 + 24) + 20
    _legend(draw, y + 178)
    return box_bottom


def _legend(draw: ImageDraw.ImageDraw, y: int) -> None:
    x = LEFT + 36
    for good in GOODS:
        colour, shape, letter = LOOKS[good]
        d.badge(draw, (x, y + 2), 11, colour, "", shape)
        d.text(draw, (x + 18, y + 2), f"{letter} {good}", d.MIN_SIZE, anchor="lm")
        x += 44 + d.width(f"{letter} {good}", d.MIN_SIZE) + 16
    d.text(draw, (WIDTH - LEFT - 20, y + 2), "ticked: delivered", d.MIN_SIZE, d.GREY, "rm")


def _players(draw: ImageDraw.ImageDraw, view: PublicView, who: Sequence[str], y: int) -> None:
    if view.in_force:
        names = [
            EVENT_NAMES[k] + (" (used)" if k == "spoiled_goods" and view.spoiled_paid else "") for k in view.in_force
        ]
        d.text(draw, (LEFT, y), d.fit("In force: " + ", ".join(names), 24, WIDTH - 2 * LEFT), 24)
    y += 40
    for seat in range(view.seats):
        gone = seat in view.left
        mark = " (left)" if gone else ""
        turn = view.phase == "trade" and seat == view.turn
        if turn:
            draw.polygon([(LEFT, y + 4), (LEFT + 16, y + 14), (LEFT, y + 24)], fill=d.BLACK)
        words = (
            f"{who[seat]}{mark}: luxury {view.luxury[seat]} · {view.hand_sizes[seat]} goods · "
            f"{view.black_market_sizes[seat]} black-market cards"
        )
        d.text(draw, (LEFT + 26, y), words, 26, d.GREY if gone else d.INK)
        y += 44
