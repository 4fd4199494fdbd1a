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

from .i18n import _, kind_name, n_


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
    kinds = " · ".join(f"{palette[p.seat].tuber} {kind_name(p.tuber, p.tubers)}" for p in view.players)
    return _(
        "Tubers: %(kinds)s · pawns are circles (%(pawns)s), left of the tuber they stand on",
        kinds=kinds,
        pawns="".join(c.pawn for c in palette),
    )


def under_pawn(view: PublicView, player: PlayerView, names: Sequence[str]) -> str:
    """What the player's pawn stands on, in words."""
    palette = colours(view)
    square = player.pawn
    if square is None:
        return _("not placed yet")
    if square == view.barn:
        return _("in the barn (%(square)s)", square=square)
    owner = view.tubers.get(square)
    if owner is None:
        return _("on %(square)s", square=square)
    if owner == player.seat:
        return _("on %(square)s, on their own %(tuber)s", square=square, tuber=palette[owner].tuber)
    return _("on %(square)s, on %(who)s's %(tuber)s", square=square, who=names[owner], tuber=palette[owner].tuber)


def player_lines(view: PublicView, names: Sequence[str]) -> list[str]:
    """One line per seat: colour, name, fields held of those needed, supply, barn, where the pawn is."""
    palette = colours(view)
    lines = []
    for p in view.players:
        c = palette[p.seat]
        crown = " 🏆" if p.seat in view.winners else ""
        kind = kind_name(p.tuber, p.tubers)
        if p.left:
            said = n_(
                "~~%(who)s~~ (%(tubers)s) — left the game; their tubers stay: %(n)d field · %(barn)d in the barn",
                "~~%(who)s~~ (%(tubers)s) — left the game; their tubers stay: %(n)d fields · %(barn)d in the barn",
                p.fields,
                who=names[p.seat],
                tubers=kind,
                barn=p.in_barn,
            )
            lines.append(f"{c.pawn}{c.tuber} {said}")
            continue
        said = _(
            "**%(who)s**%(crown)s (%(tubers)s) — **%(fields)d/%(needed)d** fields · %(supply)d in supply · "
            "%(barn)d in the barn · pawn %(pawn)s",
            who=names[p.seat],
            crown=crown,
            tubers=kind,
            fields=p.fields,
            needed=view.win_fields,
            supply=p.supply,
            barn=p.in_barn,
            pawn=under_pawn(view, p, names),
        )
        lines.append(f"{c.pawn}{c.tuber} {said}")
    return lines


def barn_line(view: PublicView, names: Sequence[str]) -> str:
    palette = colours(view)
    pawns = [f"{palette[p.seat].pawn} {names[p.seat]}" for p in view.players if p.pawn == view.barn]
    tubers = [f"{palette[p.seat].tuber}×{p.in_barn}" for p in view.players if p.in_barn]
    inside = []
    if pawns:
        inside.append(_("pawns %(pawns)s", pawns=", ".join(pawns)))
    if tubers:
        inside.append(_("tubers %(tubers)s", tubers=" ".join(tubers)))
    contents = "; ".join(inside) if inside else _("empty")
    return f"{BARN} " + _("Barn (%(square)s): %(contents)s", square=view.barn, contents=contents)
