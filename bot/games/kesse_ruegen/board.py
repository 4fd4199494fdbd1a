"""The Kesse Rügen board as emoji: a 5×5 grid for the status message and the action prompt, and one line per player.

Only the engine's public view is drawn, so nothing here can show a closed fist.

Each seat has a colour that matches its tuber kind (carrots orange, sugar beets white, radishes red, beets purple).
Its pawn is a circle of that colour; its tubers have a shape of their own as well as the colour — 🔶 carrot,
⬜ sugar beet, 🔺 radish, 💜 beet — so the kinds are told apart without telling colours apart (the picture, see
`picture`, gives each kind a shape and its initial too). Every square is two emoji wide: the pawn standing there
(or soil) and the tuber lying there (or soil), so a pawn never hides the tuber under it ("🟠🔺": the carrot
player's pawn on a radish). Empty soil is 🟫🟫, the barn 🛖🛖 (the barn line lists the pawns and tubers inside it).
Rows are numbered with keycaps (5 at the top, as in `engine.kesse_ruegen.geometry`), squares split by zero-width
spaces, columns lettered with regional indicator letters (also split by them so "🇨🇩" never turns into a flag).
The last line is the legend.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.views import PlayerView, PublicView


@dataclass(frozen=True)
class Colour:
    pawn: str
    tuber: str


KIND_COLOURS: dict[str, Colour] = {
    "carrot": Colour("🟠", "🔶"),
    "sugar beet": Colour("⚪", "⬜"),
    "radish": Colour("🔴", "🔺"),
    "beet": Colour("🟣", "💜"),
}
"""By tuber kind (the names in `engine/kesse_ruegen/data/board.toml`): the pawn a circle, the tubers a shape each."""

SPARE_COLOURS: tuple[Colour, ...] = (
    Colour("🔵", "🔷"),
    Colour("🟡", "🟨"),
    Colour("🟢", "💚"),
    Colour("⚫", "⬛"),
)
"""For tuber kinds a changed data file may bring that have no colour of their own."""

FIELD = "🟫"
BARN = "🛖"
CORNER = "⬛"
ZWSP = "\u200b"
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣")


def colours(view: PublicView) -> list[Colour]:
    """Each seat's colour: its kind's, or a spare one no other seat uses."""
    taken = {KIND_COLOURS[p.tuber].pawn for p in view.players if p.tuber in KIND_COLOURS}
    spare = iter(c for c in SPARE_COLOURS if c.pawn not in taken)
    out = []
    for p in view.players:
        out.append(KIND_COLOURS.get(p.tuber) or next(spare, Colour("⚫", "⬛")))
    return out


def _column_letter(col: int) -> str:
    return chr(ord("🇦") + col)


def grid(view: PublicView) -> str:
    """The board as lines of emoji, top row first, with row numbers, column letters and the legend. Each square is
    two emoji: its pawn (or soil), then its tuber (or soil)."""
    palette = colours(view)
    pawns = {p.pawn: p.seat for p in view.players if p.pawn is not None and p.pawn != view.barn}
    lines = []
    for row in geometry.rows_top_down(view.size):
        _, number = geometry.coords(row[0])
        cells = [KEYCAPS[number]]
        for square in row:
            if square == view.barn:
                cells.append(BARN * 2)
                continue
            pawn = palette[pawns[square]].pawn if square in pawns else FIELD
            tuber = palette[view.tubers[square]].tuber if square in view.tubers else FIELD
            cells.append(pawn + tuber)
        lines.append(ZWSP.join(cells))  # the zero-width spaces keep squares apart for a reader (and tests)
    lines.append(ZWSP.join([CORNER, *(_column_letter(c) + ZWSP + CORNER for c in range(view.size))]))
    lines.append(legend(view))
    return "\n".join(lines)


def legend(view: PublicView) -> str:
    """What the shapes mean: each seat's tuber kind (its shape) and pawn (a circle of the same colour)."""
    palette = colours(view)
    kinds = " · ".join(f"{palette[p.seat].tuber} {p.tubers}" for p in view.players)
    return f"Tubers: {kinds} · pawns are circles ({''.join(c.pawn for c in palette)}), left of the tuber they stand on"


def under_pawn(view: PublicView, player: PlayerView, names: Sequence[str]) -> str:
    """What the player's pawn stands on, in words."""
    palette = colours(view)
    square = player.pawn
    if square is None:
        return "not placed yet"
    if square == view.barn:
        return f"in the barn ({square})"
    owner = view.tubers.get(square)
    if owner is None:
        return f"on {square}"
    if owner == player.seat:
        return f"on {square}, on their own {palette[owner].tuber}"
    return f"on {square}, on {names[owner]}'s {palette[owner].tuber}"


def player_lines(view: PublicView, names: Sequence[str]) -> list[str]:
    """One line per seat: colour, name, fields held of those needed, supply, barn, where the pawn is."""
    palette = colours(view)
    lines = []
    for p in view.players:
        c = palette[p.seat]
        crown = " 🏆" if p.seat in view.winners else ""
        if p.left:
            lines.append(
                f"{c.pawn}{c.tuber} ~~{names[p.seat]}~~ ({p.tubers}) — left the game; their tubers stay: "
                f"{p.fields} fields · {p.in_barn} in the barn"
            )
            continue
        lines.append(
            f"{c.pawn}{c.tuber} **{names[p.seat]}**{crown} ({p.tubers}) — **{p.fields}/{view.win_fields}** fields · "
            f"{p.supply} in supply · {p.in_barn} in the barn · pawn {under_pawn(view, p, names)}"
        )
    return lines


def barn_line(view: PublicView, names: Sequence[str]) -> str:
    palette = colours(view)
    pawns = [f"{palette[p.seat].pawn} {names[p.seat]}" for p in view.players if p.pawn == view.barn]
    tubers = [f"{palette[p.seat].tuber}×{p.in_barn}" for p in view.players if p.in_barn]
    inside = []
    if pawns:
        inside.append("pawns " + ", ".join(pawns))
    if tubers:
        inside.append("tubers " + " ".join(tubers))
    return f"{BARN} Barn ({view.barn}): " + ("; ".join(inside) if inside else "empty")
