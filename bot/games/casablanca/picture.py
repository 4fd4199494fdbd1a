"""Casablanca's table as a picture, drawn from the public view only (see `bot.pictures`): no bribe can show.

Left, the map: the four HQs in the corners (framed thick; in the variant with their owner's name, whose sheet lying
face down the panel tells), the Bazaar in the middle, the numbered houses, and the streets as grey lines. Each
agent is a disc of its colour with its initial (two letters when initials clash: "Be" and "Br"), standing in its
building; the suitcase is a black case lying in a building, or hung on the disc of the agent carrying it. The
announcement under way is a blue arrow along its street (a move) or a red ring round the victim (a hit), with its
agent ringed blue. Right: every agent with where it is, whether it has carried the suitcase, or that it is out of the
game (crossed); the suitcase and its count of carriers; the announcement in words; in the variant, the players' HQs.

Players are named by their display names, as in the text status (made drawable and short by `bot.drawing.names`).
A map that replaces the default one (other building names) is drawn on a ring instead of the default's square.
"""

import math
from collections.abc import Sequence

from PIL import ImageDraw

from bot import drawing as d
from bot.games.casablanca.i18n import _, and_list, n_
from bot.games.casablanca.maptext import in_words, place, said
from engine.casablanca.views import AgentView, PublicView

WIDTH, HEIGHT = 1200, 880
TOP = 64
MAP_LEFT, MAP_RIGHT = 20, 800
PANEL = 830
BROWN = (150, 100, 50)
AGENT_COLOURS: dict[str, d.Colour] = {
    "green": d.GREEN,
    "purple": d.PURPLE,
    "blue": d.BLUE,
    "white": d.WHITE,
    "red": d.VERMILION,
    "brown": BROWN,
    "yellow": d.YELLOW,
    "grey": d.GREY,
    "gray": d.GREY,
    "orange": d.ORANGE,
    "black": d.INK,
}
HQ_SIZE = (172, 124)
HOUSE_SIZE = (132, 100)
BAZAAR_SIZE = (150, 112)
UNIT_X = (MAP_RIGHT - MAP_LEFT - HQ_SIZE[0]) / 4
UNIT_Y = 164
POSITIONS: dict[str, tuple[float, float]] = {
    "Rick's Café": (0, 0),
    "10": (1.4, 0),
    "11": (2.6, 0),
    "Hotel": (4, 0),
    "8": (0, 1.4),
    "12": (2, 1),
    "1": (4, 1.4),
    "9": (1, 2),
    "Bazaar": (2, 2),
    "3": (3, 2),
    "5": (0, 2.6),
    "4": (2, 3),
    "2": (4, 2.6),
    "Police Station": (0, 4),
    "7": (1.4, 4),
    "6": (2.6, 4),
    "Airport": (4, 4),
}
"""The default map (docs/rules/casablanca.md): HQs in the corners, two houses on each side, four round the Bazaar."""

Box = tuple[float, float, float, float]


def draw_picture(view: PublicView, names: Sequence[str]) -> bytes:
    who = d.names(names)
    image, draw = d.canvas(WIDTH, HEIGHT)
    write(draw, (MAP_LEFT, 18), d.fit(_headline(view, who), 30, WIDTH - 2 * MAP_LEFT), 30)
    centres = _centres(view)
    letters = initials(view.agents)
    _streets(draw, view, centres)
    owners = {p.hq: p for p in view.players if p.hq is not None}
    spots: dict[int, d.Point] = {}
    for building, centre in centres.items():
        spots.update(_building(draw, view, who, building, centre, owners, letters))
    _announcement_marks(draw, view, spots, centres)
    _panel(draw, view, who, letters)
    return d.png(image)


def plain(words: str) -> str:
    """`words` as the bundled font can draw them: it has no "é" ("Rick's Café" is drawn "Rick's Cafe")."""
    return d.plain(words)


def write(
    draw: ImageDraw.ImageDraw, xy: d.Point, words: str, size: int, fill: d.Colour = d.INK, anchor: str = "la"
) -> None:
    d.text(draw, xy, plain(words), size, fill, anchor)


def initials(agents: tuple[AgentView, ...]) -> list[str]:
    """Each agent's letter: the initial of its name, or more of its first name while that is shared ("Be", "Br")."""
    names = [a.name or a.colour for a in agents]
    out = []
    for name in names:
        for length in range(1, 4):
            mine = name[:length]
            if sum(1 for other in names if other[:length] == mine) == 1:
                break
        out.append(mine.capitalize())
    return out


def _headline(view: PublicView, who: Sequence[str]) -> str:
    seat = who[view.turn]
    match view.phase:
        case "over":
            won = and_list([who[s] for s in view.winners])
            if not won:
                return _("Game over")
            return n_("Game over: %(players)s wins", "Game over: %(players)s win", len(view.winners), players=won)
        case "hq":
            return _("%(player)s chooses an HQ", player=seat)
        case "objections" if view.announcement is not None and view.announcement.kind == "hit":
            return _("%(player)s announced a hit: objections open", player=seat)
        case "objections":
            return _("%(player)s announced a move: objections open", player=seat)
        case "contest" if view.objectors:
            return _("%(objector)s objects to %(player)s's announcement", objector=who[view.objectors[0]], player=seat)
    if view.variant and view.players[view.turn].face_down:
        return _("%(player)s's turn: turning their sheet face up", player=seat)
    if view.first_turn:
        return _("%(player)s's first turn: a bribe of three agents", player=seat)
    if view.objected:
        return _("%(player)s's turn (stopped: another try)", player=seat)
    return _("%(player)s's turn", player=seat)


# --- the map --------------------------------------------------------------------------------------------------


def _centres(view: PublicView) -> dict[str, d.Point]:
    buildings = list(view.streets)
    if all(b in POSITIONS for b in buildings):
        return {b: (MAP_LEFT + HQ_SIZE[0] / 2 + x * UNIT_X, TOP + 80 + y * UNIT_Y) for b, (x, y) in _known(buildings)}
    # Another map: the buildings on a ring, the Bazaar in the middle.
    cx, cy = (MAP_LEFT + MAP_RIGHT) / 2, TOP + 80 + 2 * UNIT_Y
    ring = [b for b in buildings if b != view.bazaar]
    radius = 2 * UNIT_Y
    out: dict[str, d.Point] = {view.bazaar: (cx, cy)} if view.bazaar in view.streets else {}
    for i, b in enumerate(ring):
        angle = 2 * math.pi * i / max(len(ring), 1) - math.pi / 2
        out[b] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
    return out


def _known(buildings: list[str]) -> list[tuple[str, tuple[float, float]]]:
    return [(b, POSITIONS[b]) for b in buildings]


def _streets(draw: ImageDraw.ImageDraw, view: PublicView, centres: dict[str, d.Point]) -> None:
    for a, nexts in view.streets.items():
        for b in nexts:
            if a < b and a in centres and b in centres:
                draw.line((*centres[a], *centres[b]), fill=(185, 180, 170), width=10)


def _arrow(draw: ImageDraw.ImageDraw, view: PublicView, source: str, to: str, centres: dict[str, d.Point]) -> None:
    """A blue arrow from the edge of `source`'s box to the edge of `to`'s, over the buildings."""
    (x0, y0), (x1, y1) = centres[source], centres[to]
    dx, dy = x1 - x0, y1 - y0

    def edge(building: str) -> float:  # the fraction of the way where the line leaves the building's box
        w, h = _size(view, building)
        return min(w / 2 / abs(dx) if dx else math.inf, h / 2 / abs(dy) if dy else math.inf)

    a, b = edge(source), 1 - edge(to)
    start, tip = (x0 + dx * a, y0 + dy * a), (x0 + dx * b, y0 + dy * b)
    angle = math.atan2(dy, dx)
    size = 30
    back = (tip[0] - size * math.cos(angle), tip[1] - size * math.sin(angle))
    draw.line((*start, *back), fill=d.BLUE, width=10)
    left = (tip[0] - size * math.cos(angle - 0.55), tip[1] - size * math.sin(angle - 0.55))
    right = (tip[0] - size * math.cos(angle + 0.55), tip[1] - size * math.sin(angle + 0.55))
    draw.polygon([tip, left, right], fill=d.BLUE, outline=d.BLACK)


def _size(view: PublicView, building: str) -> tuple[int, int]:
    if building in view.hqs:
        return HQ_SIZE
    if building == view.bazaar:
        return BAZAAR_SIZE
    return HOUSE_SIZE


def _building(
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    who: Sequence[str],
    building: str,
    centre: d.Point,
    owners: dict[str, object],
    letters: list[str],
) -> dict[int, d.Point]:
    """Draw one building and what stands in it; the centres of its agents' discs, by agent."""
    w, h = _size(view, building)
    cx, cy = centre
    box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    hq = building in view.hqs
    fill = (238, 232, 214) if hq else (246, 222, 160) if building == view.bazaar else d.WHITE
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=d.INK, width=5 if hq else 2)
    label = place(building)
    label = label[:1].upper() + label[1:]  # "House 7"
    write(draw, (cx, box[1] + 6), label, 22, anchor="ma")
    top = box[1] + 32
    if hq and view.variant:
        owner = owners.get(building)  # its sheet face down or not: said in the panel, where there is room
        words = _("no owner") if owner is None else who[owner.seat]  # type: ignore[attr-defined]
        write(draw, (cx, top), d.fit(words, d.MIN_SIZE, w - 12), d.MIN_SIZE, d.BLUE if owner else d.GREY, "ma")
        top += 26
    agents = [a for a in view.agents if a.at == building]
    lying = view.suitcase_at == building and view.carrier is None
    count = len(agents) + (1 if lying else 0)
    if not count:
        return {}
    area = (box[0] + 6, top, box[2] - 6, box[3] - 4)
    slots = _slots(area, count)
    radius = min(19.0, slots[1])  # 19: a letter of the least legible size fits on the disc
    spots: dict[int, d.Point] = {}
    for i, agent in enumerate(agents):
        spot = slots[0][i]
        _agent(draw, spot, radius, agent, letters[agent.index])
        spots[agent.index] = spot
    if lying:
        suitcase(draw, slots[0][-1], radius * 1.6)
    return spots


def _slots(area: Box, count: int) -> tuple[list[d.Point], float]:
    """`count` spots in rows inside `area`, as large as they fit; and the radius they allow."""
    x0, y0, x1, y1 = area
    best = (0.0, 1)
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        r = min((x1 - x0) / cols, (y1 - y0) / rows) / 2 - 1
        if r > best[0]:
            best = (r, cols)
    r, cols = best
    rows = math.ceil(count / cols)
    spots = []
    for i in range(count):
        row, col = divmod(i, cols)
        in_row = min(cols, count - row * cols)
        x = (x0 + x1) / 2 + (col - (in_row - 1) / 2) * 2 * (r + 1)
        y = (y0 + y1) / 2 + (row - (rows - 1) / 2) * 2 * (r + 1)
        spots.append((x, y))
    return spots, r


def _agent(draw: ImageDraw.ImageDraw, spot: d.Point, radius: float, agent: AgentView, letter: str) -> None:
    d.badge(draw, spot, radius, AGENT_COLOURS.get(agent.colour, d.LIGHT), plain(letter))
    if agent.carries:
        x, y = spot
        suitcase(draw, (x + radius * 2.1, y + radius * 0.3), radius * 1.4)


def suitcase(draw: ImageDraw.ImageDraw, centre: d.Point, size: float) -> None:
    """A black case with a handle, `size` wide."""
    x, y = centre
    w, h = size / 2, size * 0.34
    draw.rounded_rectangle(
        (x - w * 0.45, y - h - size * 0.2, x + w * 0.45, y - h + 2), radius=3, outline=d.BLACK, width=3
    )
    draw.rounded_rectangle((x - w, y - h, x + w, y + h), radius=4, fill=d.INK, outline=d.WHITE, width=2)


def _announcement_marks(
    draw: ImageDraw.ImageDraw, view: PublicView, spots: dict[int, d.Point], centres: dict[str, d.Point]
) -> None:
    ann = view.announcement
    if ann is None:
        return
    if ann.kind == "move" and ann.to in centres and ann.source in centres and ann.to != ann.source:
        _arrow(draw, view, ann.source, ann.to, centres)
    rings = [(ann.agent, d.BLUE)]
    if ann.kind == "hit" and ann.victim is not None:
        rings.append((ann.victim, d.VERMILION))
    for agent, colour in rings:
        if agent in spots:
            x, y = spots[agent]
            draw.ellipse((x - 24, y - 24, x + 24, y + 24), outline=colour, width=5)


# --- the side panel -------------------------------------------------------------------------------------------


def _panel(draw: ImageDraw.ImageDraw, view: PublicView, who: Sequence[str], letters: list[str]) -> None:
    x, right = PANEL, WIDTH - 16
    y = TOP - 2
    for agent in view.agents:
        centre = (x + 18, y + 18)
        out = agent.at is None  # faded and crossed out, the letter still readable between the strokes
        colour = d.LIGHT if out else AGENT_COLOURS.get(agent.colour, d.LIGHT)
        d.badge(draw, centre, 19, colour, plain(letters[agent.index]))
        if out:
            draw.line((x, y, x + 36, y + 36), fill=d.VERMILION, width=3)
            draw.line((x, y + 36, x + 36, y), fill=d.VERMILION, width=3)
        write(draw, (x + 46, y - 4), agent.name, d.MIN_SIZE)
        spot = d.fit(_where(view, agent), d.MIN_SIZE, right - x - 46)
        write(draw, (x + 46, y + 21), spot, d.MIN_SIZE, d.VERMILION if agent.at is None else d.GREY)
        if agent.carries:
            suitcase(draw, (right - 20, y + 12), 30)
        y += 52
    y += 6
    draw.line((x, y, right, y), fill=d.GREY, width=2)
    y += 12
    suitcase(draw, (x + 18, y + 16), 32)
    where = in_words(view.suitcase_at)
    if view.carrier is not None:
        case_words = _("Suitcase carried in %(building)s", building=where)
    else:
        case_words = _("Suitcase lies in %(building)s", building=where)
    y = _lines(draw, (x + 46, y), case_words, d.MIN_SIZE, right)
    if not view.variant and view.carriers < 2 and view.phase != "over":
        carried = n_("Carried by %(n)d agent (2 to win)", "Carried by %(n)d agents (2 to win)", view.carriers)
    else:
        carried = n_("Carried by %(n)d agent", "Carried by %(n)d agents", view.carriers)
    y = _lines(draw, (x + 46, y), carried, d.MIN_SIZE, right, d.GREY)
    ann = view.announcement
    if ann is not None:
        y += 8
        draw.line((x, y, right, y), fill=d.GREY, width=2)
        y += 10
        heading = _("%(player)s announces:", player=who[ann.seat])
        write(draw, (x, y), d.fit(heading, d.MIN_SIZE, right - x), d.MIN_SIZE, d.BLUE)
        y = _lines(draw, (x, y + 28), said(view, ann), d.MIN_SIZE, right)
    if view.variant or any(p.left for p in view.players):
        y += 8
        draw.line((x, y, right, y), fill=d.GREY, width=2)
        y += 10
        for p in view.players:
            words = who[p.seat]
            if view.variant:
                words += ": " + (place(p.hq) if p.hq else _("no HQ"))
                if p.face_down:
                    words += " · " + _("face down")
            if p.left:
                words += " · " + _("left")
            y = _lines(draw, (x, y), words, d.MIN_SIZE, right, d.GREY if p.left else d.INK)


def _where(view: PublicView, agent: AgentView) -> str:
    if agent.at is None:
        hit = next((h for h in view.hits if h.victim == agent.index), None)
        return _("OUT: hit in %(building)s", building=in_words(hit.where)) if hit is not None else _("OUT of the game")
    words = place(agent.at)
    if agent.carries:
        words += " · " + _("carries it")
    elif agent.carried:
        words += " · " + _("has carried it")
    return words


def _lines(
    draw: ImageDraw.ImageDraw, xy: d.Point, words: str, size: int, right: float, fill: d.Colour = d.INK
) -> float:
    """Write `words` wrapped before `right`; the y under them."""
    x, y = xy
    line = ""
    for word in words.split():
        attempt = f"{line} {word}".strip()
        if line and x + d.width(attempt, size) > right:
            write(draw, (x, y), line, size, fill)
            y += size + 5
            line = word
        else:
            line = attempt
    if line:
        write(draw, (x, y), line, size, fill)
        y += size + 5
    return y
