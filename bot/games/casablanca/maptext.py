"""The map as text, from the public view only: which agents are where, the suitcase, who has carried it, the agents
out of the game, and in the variant who owns which HQ and whose sheet lies face down."""

from collections.abc import Sequence

from engine.casablanca.views import PublicView

DOTS = {
    "green": "🟢",
    "purple": "🟣",
    "blue": "🔵",
    "white": "⚪",
    "red": "🔴",
    "brown": "🟤",
    "yellow": "🟡",
    "grey": "⚫",
}
SUITCASE = "💼"


def dot(colour: str) -> str:
    return DOTS.get(colour, "•")


def money(amount: int) -> str:
    return f"${amount:,}"


def place(building: str) -> str:
    """A building as a label: "house 7", "Hotel"."""
    return f"house {building}" if building.isdigit() else building


def in_words(building: str) -> str:
    """A building inside a sentence: "house 7", "the Hotel"."""
    if building.isdigit():
        return f"house {building}"
    return building if "'s " in building else f"the {building}"


def building_order(view: PublicView) -> list[str]:
    """HQs first (in the map's order), then the Bazaar, then the houses by number."""
    houses = sorted((b for b in view.streets if b.isdigit()), key=int)
    others = [b for b in view.streets if not b.isdigit() and b not in view.hqs and b != view.bazaar]
    return [*view.hqs, view.bazaar, *houses, *others]


def map_lines(view: PublicView, names: Sequence[str]) -> list[str]:
    """One line per building with an agent or the suitcase in it."""
    owners = {p.hq: p.seat for p in view.players if p.hq is not None}
    lines = []
    for building in building_order(view):
        agents = [a for a in view.agents if a.at == building]
        case_here = view.suitcase_at == building
        if not agents and not case_here:
            continue
        words = []
        for a in agents:
            word = f"{dot(a.colour)} {a.name}"
            if a.carries:
                word += f" {SUITCASE}"
            words.append(word)
        if case_here and view.carrier is None:
            words.append(f"{SUITCASE} suitcase")
        label = f"**{place(building)}**"
        if building in view.hqs:
            owner = owners.get(building)
            label += f" (HQ of {names[owner]})" if owner is not None else " (HQ)"
        lines.append(f"{label}: {', '.join(words)}")
    return lines


def suitcase_line(view: PublicView) -> str:
    carried = [a.name for a in view.agents if a.carried]
    if view.carrier is not None:
        where = f"{view.agents[view.carrier].name} carries it in {in_words(view.suitcase_at)}"
    else:
        where = f"it lies in {in_words(view.suitcase_at)}"
    count = len(carried)
    line = f"{SUITCASE} Suitcase: {where}. Carried so far by {count} agent{'s' if count != 1 else ''}"
    line += f" ({', '.join(carried)})." if carried else "."
    if not view.variant and count < 2:
        line += " The game can end only once two different agents have carried it."
    return line


def out_line(view: PublicView, names: Sequence[str]) -> str | None:
    if not view.hits:
        return None
    parts = []
    for h in view.hits:
        victim = view.agents[h.victim]
        sheet = ", ".join(f"{names[s]} {money(v)}" for s, v in enumerate(h.amounts) if s < len(names))
        parts.append(f"{dot(victim.colour)} {victim.name} (hit by {view.agents[h.hitter].name}; bribes lost: {sheet})")
    return "Out of the game: " + "; ".join(parts)


def player_lines(view: PublicView, names: Sequence[str]) -> list[str]:
    lines = []
    for p in view.players:
        name = f"~~{names[p.seat]}~~ (left)" if p.left else f"**{names[p.seat]}**"
        if view.variant:
            hq = f"HQ {p.hq}" if p.hq else "no HQ"
            down = " · sheet face down (loses the next turn)" if p.face_down else ""
            lines.append(f"{name} — {hq}{down}")
        else:
            lines.append(name)
    return lines
