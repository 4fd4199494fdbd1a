"""The map as text, from the public view only: which agents are where, the suitcase, who has carried it, the agents
out of the game, and in the variant who owns which HQ and whose sheet lies face down.

Also the words for the map's things: a building as a label (`place`) and inside a sentence (`in_words`), an agent's
colour (`colour_word`) and money (`money`). The map's buildings are data (a server's own map may name others): the
default map's are translated (the glossary's terms), any other name is shown as it is."""

from collections.abc import Sequence

from engine.casablanca.state import Announcement
from engine.casablanca.views import PublicView

from .i18n import N_, _, n_

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

COLOURS = {
    "green": N_("green"),
    "purple": N_("purple"),
    "blue": N_("blue"),
    "white": N_("white"),
    "red": N_("red"),
    "brown": N_("brown"),
    "yellow": N_("yellow"),
    "grey": N_("grey"),
}
"""The agents' colours (commands name agents by them; `colour_key` reads a translated one back)."""

LABELS = {
    "Police Station": N_("Police Station"),
    "Airport": N_("Airport"),
    "Hotel": N_("Hotel"),
    "Rick's Café": N_("Rick's Café"),
    "Bazaar": N_("Bazaar"),
}
"""The default map's buildings as labels."""
IN_SENTENCE = {
    "Police Station": N_("the Police Station"),
    "Airport": N_("the Airport"),
    "Hotel": N_("the Hotel"),
    "Rick's Café": N_("Rick's Café"),
    "Bazaar": N_("the Bazaar"),
}
"""The default map's buildings inside a sentence ("moves to the Hotel")."""


def dot(colour: str) -> str:
    return DOTS.get(colour, "•")


def money(amount: int) -> str:
    return f"${amount:,}"


def colour_word(colour: str) -> str:
    """An agent's colour in the language being spoken (a colour the game doesn't know: as it is)."""
    return _(COLOURS[colour]) if colour in COLOURS else colour


def colour_key(word: str) -> str:
    """The colour a player typed in the language being spoken, as the engine reads it ("paars" → "purple")."""
    folded = word.strip().casefold()
    for key, colour in COLOURS.items():
        if folded == _(colour).casefold():
            return key
    return word


def place(building: str) -> str:
    """A building as a label: "house 7", "Hotel"."""
    if building.isdigit():
        return _("house %(number)s", number=building)
    return _(LABELS[building]) if building in LABELS else building


def in_words(building: str) -> str:
    """A building inside a sentence: "house 7", "the Hotel"."""
    if building.isdigit():
        return _("house %(number)s", number=building)
    return _(IN_SENTENCE[building]) if building in IN_SENTENCE else building


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
            words.append(f"{SUITCASE} " + _("suitcase"))
        label = f"**{place(building)}**"
        if building in view.hqs:
            owner = owners.get(building)
            label += " " + (_("(HQ of %(player)s)", player=names[owner]) if owner is not None else _("(HQ)"))
        lines.append(f"{label}: {', '.join(words)}")
    return lines


def suitcase_line(view: PublicView) -> str:
    carried = [a.name for a in view.agents if a.carried]
    count = len(carried)
    where = in_words(view.suitcase_at)
    if view.carrier is not None:
        line = _(
            "%(agent)s carries the suitcase in %(building)s.", agent=view.agents[view.carrier].name, building=where
        )
    else:
        line = _("The suitcase lies in %(building)s.", building=where)
    line = f"{SUITCASE} {line} "
    if carried:
        line += n_(
            "Carried so far by %(n)d agent (%(agents)s).",
            "Carried so far by %(n)d agents (%(agents)s).",
            count,
            agents=", ".join(carried),
        )
    else:
        line += _("Nobody has carried it yet.")
    if not view.variant and count < 2:
        line += " " + _("The game can end only once two different agents have carried it.")
    return line


def out_line(view: PublicView, names: Sequence[str]) -> str | None:
    if not view.hits:
        return None
    parts = []
    for h in view.hits:
        victim = view.agents[h.victim]
        sheet = ", ".join(f"{names[s]} {money(v)}" for s, v in enumerate(h.amounts) if s < len(names))
        said = _(
            "%(victim)s (hit by %(hitter)s; bribes lost: %(sheet)s)",
            victim=victim.name,
            hitter=view.agents[h.hitter].name,
            sheet=sheet,
        )
        parts.append(f"{dot(victim.colour)} {said}")
    return _("Out of the game: %(agents)s", agents="; ".join(parts))


def player_lines(view: PublicView, names: Sequence[str]) -> list[str]:
    lines = []
    for p in view.players:
        name = f"~~{names[p.seat]}~~ " + _("(left)") if p.left else f"**{names[p.seat]}**"
        if view.variant:
            hq = _("HQ %(building)s", building=place(p.hq)) if p.hq else _("no HQ")
            down = " · " + _("sheet face down (loses the next turn)") if p.face_down else ""
            lines.append(f"{name} — {hq}{down}")
        else:
            lines.append(name)
    return lines


def said(view: PublicView, ann: Announcement) -> str:
    """An announcement in words, the same for everyone: "Rudy Red moves from the Airport to house 2"."""
    agent = view.agents[ann.agent].name
    source = in_words(ann.source)
    if ann.kind == "hit":
        victim = view.agents[ann.victim].name if ann.victim is not None else "?"
        return _("%(agent)s hits %(victim)s in %(building)s", agent=agent, victim=victim, building=source)
    to = in_words(ann.to or "?")
    if ann.suitcase:
        return _(
            "%(agent)s moves from %(source)s to %(to)s, taking the suitcase along", agent=agent, source=source, to=to
        )
    if ann.behind:
        return _(
            "%(agent)s moves from %(source)s to %(to)s, leaving the suitcase behind", agent=agent, source=source, to=to
        )
    return _("%(agent)s moves from %(source)s to %(to)s", agent=agent, source=source, to=to)


def building_key(word: str) -> str:
    """The building a player typed in the language being spoken, as the engine reads it ("Politiebureau" → "Police
    Station"); anything else (a house number, an English name) as it is."""
    folded = word.strip().casefold()
    for key in LABELS:
        if folded in (_(LABELS[key]).casefold(), _(IN_SENTENCE[key]).casefold()):
            return key
    return word
