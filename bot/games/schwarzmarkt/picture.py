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

from .i18n import _, n_, p_
from .look import in_force_names
from .words import event_name, good_name

LOOKS: dict[str, tuple[d.Colour, str]] = {
    "potatoes": (d.ORANGE, "circle"),
    "flour": ((245, 238, 210), "square"),
    "coffee": (d.BLUE, "triangle"),
    "butter": (d.YELLOW, "diamond"),
    "sugar": (d.SKY, "hexagon"),
}
"""Per good: colour, shape (its letter is `letter(good)`, in the language being spoken)."""


def letter(good: str) -> str:
    """The initial on a good's token (a language may need two letters where initials clash)."""
    match good:
        case "potatoes":
            return p_("initial of potatoes", "P")
        case "flour":
            return p_("initial of flour", "F")
        case "coffee":
            return p_("initial of coffee", "C")
        case "butter":
            return p_("initial of butter", "B")
        case "sugar":
            return p_("initial of sugar", "S")
    return good[:1].upper()


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
        return n_(
            "Game over: %(names)s wins with luxury %(best)d",
            "Game over: %(names)s win with luxury %(best)d",
            len(won),
            names=", ".join(won),
            best=best,
        )
    where = _("Round %(round)d · price %(price)d", round=view.game_round, price=view.price)
    if view.phase == "play":
        return _("%(where)s · %(who)s plays a black-market card", where=where, who=who[view.starter])
    if view.phase == "event" and view.event is not None:
        return _(
            "%(where)s · %(event)s: %(who)s chooses",
            where=where,
            event=event_name(view.event.kind),
            who=who[view.event.chooser],
        )
    if view.last_call:
        return _("%(where)s · %(who)s trades · last call", where=where, who=who[view.turn])
    return _("%(where)s · %(who)s trades", where=where, who=who[view.turn])


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
        d.text(draw, ((x0 + x1) / 2, bottom - 22), _("die %(n)d", n=view.dice[i]), d.MIN_SIZE, DIE_GREY, "mm")
        if here:  # the marker: an arrow pointing down at its space
            cx = (x0 + x1) / 2
            draw.polygon([(cx - 18, y + 4), (cx + 18, y + 4), (cx, y + 34)], fill=d.BLACK)
        if space == view.end_space:
            _flag(draw, (x1 - 30, bottom + 6))
            d.text(draw, ((x0 + x1) / 2, bottom + 48), _("END"), d.MIN_SIZE, anchor="mm")
        elif limit and space == view.limit_space:
            draw.rectangle((x1 - 6, top - 8, x1, bottom + 8), fill=d.VERMILION)
            d.text(draw, ((x0 + x1) / 2, bottom + 48), _("LIMIT"), d.MIN_SIZE, anchor="mm")
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
        d.text(draw, (LEFT + 20, y + 20), _("No offer on the table"), 30)
        _legend(draw, y + 140)
        return box_bottom
    wanted = sum(offer.still.values())
    total = sum(offer.wants.values())
    if wanted:
        head = n_(
            "Offer: still wants %(wanted)d of %(n)d card",
            "Offer: still wants %(wanted)d of %(n)d cards",
            total,
            wanted=wanted,
        )
    else:
        head = _("Offer: complete")
    d.text(draw, (LEFT + 20, y + 16), head, 30)
    x = LEFT + 44
    for good in GOODS:
        wants = offer.wants.get(good, 0)
        if not wants:
            continue
        still = offer.still.get(good, 0)
        colour, shape = LOOKS[good]
        initial = letter(good)
        start = x - 24  # the first token's left edge: its label starts there, and the next good after both
        for k in range(wants):
            delivered = k < wants - still
            d.badge(draw, (x, y + 92), 24, FADED if delivered else colour, initial, shape)
            if delivered:
                d.tick(draw, (x + 4, y + 92), 12, d.BLUE)
            x += 60
        if still:
            label = _("%(n)d more %(good)s", n=still, good=good_name(good))
        else:
            label = _("%(good)s: done", good=good_name(good))
        d.text(draw, (start, y + 124), label, d.MIN_SIZE)
        x = max(x, start + d.width(label, d.MIN_SIZE) + 24 + 24) + 20
    _legend(draw, y + 178)
    return box_bottom


def _legend(draw: ImageDraw.ImageDraw, y: int) -> None:
    x = LEFT + 36
    for good in GOODS:
        colour, shape = LOOKS[good]
        d.badge(draw, (x, y + 2), 11, colour, "", shape)
        words = f"{letter(good)} {good_name(good)}"
        d.text(draw, (x + 18, y + 2), words, d.MIN_SIZE, anchor="lm")
        x += 44 + d.width(words, d.MIN_SIZE) + 16
    d.text(draw, (WIDTH - LEFT - 20, y + 2), _("ticked: delivered"), d.MIN_SIZE, d.GREY, "rm")


def _players(draw: ImageDraw.ImageDraw, view: PublicView, who: Sequence[str], y: int) -> None:
    if view.in_force:
        force = _("In force: %(events)s", events=", ".join(in_force_names(view)))
        d.text(draw, (LEFT, y), d.fit(force, 24, WIDTH - 2 * LEFT), 24)
    y += 40
    for seat in range(view.seats):
        gone = seat in view.left
        turn = view.phase == "trade" and seat == view.turn
        if turn:
            draw.polygon([(LEFT, y + 4), (LEFT + 16, y + 14), (LEFT, y + 24)], fill=d.BLACK)
        name = _("%(who)s (left)", who=who[seat]) if gone else who[seat]
        goods = n_("%(n)d goods", "%(n)d goods", view.hand_sizes[seat])
        black = n_("%(n)d black-market card", "%(n)d black-market cards", view.black_market_sizes[seat])
        words = _("%(who)s: luxury %(n)d", who=name, n=view.luxury[seat]) + f" · {goods} · {black}"
        d.text(draw, (LEFT + 26, y), words, 26, d.GREY if gone else d.INK)
        y += 44
