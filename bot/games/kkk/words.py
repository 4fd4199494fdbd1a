"""The words of Kohle, Kies & Knete in Discord: families, cards, money, and reading what a player types.

Cards leave the engine as short codes (`engine.kkk.cards`: `clan:H`, `travel:*`, `recruit`, `boss`, `stop`). Players
never see codes: they read "Heiermann clan", "travel joker", "STOP", and may type any of those (or the codes) in
`/kkk discard`. Families are typed as a letter or (part of) a name.
"""

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from bot.games.kkk.i18n import _, n_, p_
from bot.i18n import current
from engine.kkk.cards import BOSS, FAMILIES, FAMILY_NAMES, JOKER, RECRUIT, STOP

CARD_TYPES = ("clan", "travel", "recruit", "boss", "stop")


class Unreadable(ValueError):
    """Something typed that names no family or card; the message says what would work."""


def money(amount: int) -> str:
    # TRANSLATORS: money in millions of dollars, as on the game's bank notes.
    return _("$%(amount)dM", amount=amount)


def family(letter: str | None) -> str:
    return FAMILY_NAMES[letter] if letter else _("no card")


def families(letters: Iterable[str], sep: str = "/") -> str:
    return sep.join(FAMILY_NAMES[f] for f in letters)


def parse_family(text: str) -> str:
    """A family letter from "H", "heiermann" or "Heier"; `Unreadable` otherwise."""
    t = text.strip().lower()
    if len(t) == 1 and t.upper() in FAMILIES:
        return t.upper()
    found = [f for f, name in FAMILY_NAMES.items() if name.lower().startswith(t)] if t else []
    if len(found) == 1:
        return found[0]
    known = ", ".join(FAMILY_NAMES.values())
    raise Unreadable(_("I don't know the family “%(text)s”: pick one of %(known)s.", text=text, known=known))


def card(code: str) -> str:
    """A card's short name: "Heiermann clan", "Liebgeld travel", "travel joker", "recruitment", "Boss", "STOP"."""
    if code.startswith("clan:"):
        return _("%(family)s clan", family=FAMILY_NAMES[code[5:]])
    if code == JOKER:
        return _("travel joker")
    if code.startswith("travel:"):
        return _("%(family)s travel", family=FAMILY_NAMES[code[7:]])
    return {RECRUIT: _("recruitment"), BOSS: p_("card", "Boss"), STOP: p_("card", "STOP")}[code]


def card_with_article(code: str) -> str:
    """A card in a sentence: "a Heiermann clan card", "a travel joker", "a STOP card"."""
    if code.startswith("clan:"):
        return _("a %(family)s clan card", family=FAMILY_NAMES[code[5:]])
    if code == JOKER:
        return _("a travel joker")
    if code.startswith("travel:"):
        return _("a %(family)s travel card", family=FAMILY_NAMES[code[7:]])
    return {RECRUIT: _("a recruitment card"), BOSS: _("a Boss card"), STOP: _("a STOP card")}[code]


def cards(codes: Iterable[str]) -> str:
    """ "STOP, 2× recruitment, Heiermann clan" (in a stable order)."""
    counts = Counter(codes)
    return ", ".join(f"{n}× {card(c)}" if n > 1 else card(c) for c, n in sorted(counts.items(), key=_order))


def and_list(items: list[str]) -> str:
    """ "A", "A and B", "A, B and C" in the language being spoken."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s and %(last)s", items=", ".join(items[:-1]), last=items[-1])


def or_list(items: list[str]) -> str:
    """ "A", "A or B", "A, B or C" in the language being spoken."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s or %(last)s", items=", ".join(items[:-1]), last=items[-1])


def _order(item: tuple[str, int]) -> tuple[int, str]:
    code = item[0]
    kind = code.split(":", 1)[0]
    return (CARD_TYPES.index(kind) if kind in CARD_TYPES else 9, code)


def hand_block(codes: list[str]) -> str:
    """A hand grouped by type, one line per type (the DM's hand field)."""
    return _hand_block(tuple(codes), current())


@lru_cache(maxsize=4096)
def _hand_block(codes: tuple[str, ...], language: str) -> str:
    """`hand_block`, kept per hand and language: every move renders every seat's hand (for the DM's digest), mostly
    unchanged."""
    counts = Counter(codes)
    if not counts:
        return _("No influence cards.")

    def per_family(prefix: str) -> list[str]:
        out = []
        for f in FAMILIES:
            n = counts.get(f"{prefix}:{f}", 0)
            if n:
                out.append(f"{FAMILY_NAMES[f]} ×{n}" if n > 1 else FAMILY_NAMES[f])
        return out

    lines = []
    clans = per_family("clan")
    if clans:
        lines.append(_("**Clan:** %(cards)s", cards=", ".join(clans)))
    travels = per_family("travel")
    if counts.get(JOKER):
        joker = _("joker")
        travels.append(f"{joker} ×{counts[JOKER]}" if counts[JOKER] > 1 else joker)
    if travels:
        lines.append(_("**Travel:** %(cards)s", cards=", ".join(travels)))
    singles = [(RECRUIT, _("Recruitment")), (BOSS, p_("hand", "Boss")), (STOP, p_("hand", "STOP"))]
    rest = [f"**{label}:** {counts[code]}" for code, label in singles if counts.get(code)]
    if rest:
        lines.append(" · ".join(rest))
    return "\n".join(lines)


# --- reading a list of cards ------------------------------------------------------------------------


MAX_COUNT_DIGITS = 2
"""A count typed before a card has at most this many digits: no hand comes near 100 cards."""


def parse_cards(text: str, most: int | None = None) -> list[str]:
    """Card codes from "STOP, 2x recruitment, Heiermann clan" (names or codes, with counts); `Unreadable` if a
    part names no card, or if the counts ask for more than `most` cards (the hand's size) in all."""
    out: list[str] = []
    for part in _split(text):
        count, name = _count(part)
        if count == 0:
            raise Unreadable(
                _("“%(part)s” discards no card: leave it out, or count 1 or more (e.g. “2× STOP”).", part=part)
            )
        if most is not None and len(out) + count > most:
            raise Unreadable(
                n_(
                    "You hold %(n)d card, so “%(text)s” asks for more than you have: write how many of each card "
                    "to discard, e.g. “2× STOP, Heiermann clan” (pick them from the suggestions).",
                    "You hold %(n)d cards, so “%(text)s” asks for more than you have: write how many of each card "
                    "to discard, e.g. “2× STOP, Heiermann clan” (pick them from the suggestions).",
                    most,
                    text=text.strip()[:100],
                )
            )
        out += [parse_card(name)] * count
    if not out:
        raise Unreadable(_("Name the cards to discard, e.g. “STOP, Heiermann clan” (pick them from the suggestions)."))
    return out


def _split(text: str) -> list[str]:
    for sep in (";", "+"):
        text = text.replace(sep, ",")
    return [p.strip() for p in text.split(",") if p.strip()]


def _count(part: str) -> tuple[int, str]:
    words = part.replace("×", " × ").split()
    if len(words) >= 2 and words[0].isdecimal():
        n, rest = _number(words[0], part), words[1:]
        if rest and rest[0].lower() in ("×", "x"):
            rest = rest[1:]
        return n, " ".join(rest)
    first = words[0].lower() if words else ""
    if len(first) >= 2 and first[-1] in "x×" and first[:-1].isdecimal():
        return _number(first[:-1], part), " ".join(words[1:])
    return 1, part


def _number(digits: str, part: str) -> int:
    # Read only short counts: a long one is a typo, and `[card] * 10**20` would never finish (or overflow).
    if len(digits.lstrip("0")) > MAX_COUNT_DIGITS:
        raise Unreadable(
            _(
                "“%(part)s” is far more cards than anyone holds: write how many of that card, e.g. “2× STOP”.",
                part=part[:60],
            )
        )
    return int(digits)


_PLAIN = {
    "recruit": RECRUIT,
    "recruitment": RECRUIT,
    "recruitment card": RECRUIT,
    "boss": BOSS,
    "boss card": BOSS,
    "stop": STOP,
    "stop card": STOP,
    "joker": JOKER,
    "travel joker": JOKER,
    "joker travel": JOKER,
    "travel:*": JOKER,
    # the Dutch and German names the bot shows (and players type) in those languages
    "ronsel": RECRUIT,
    "ronselkaart": RECRUIT,
    "anwerbe": RECRUIT,
    "anwerbekarte": RECRUIT,
    "baas": BOSS,
    "baaskaart": BOSS,
    "bosskarte": BOSS,
    "stopkaart": STOP,
    "stop-karte": STOP,
    "reisjoker": JOKER,
    "reisejoker": JOKER,
}
KINDS = {"clan": "clan", "clankaart": "clan", "clankarte": "clan", "travel": "travel", "reis": "travel"}
KINDS |= {"reiskaart": "travel", "reise": "travel", "reisekarte": "travel"}
"""The words for a clan or travel card, in every language the bot speaks ("Heiermann-clan", "Liebgeld-Reise")."""


ALL_CARDS = (*(f"clan:{f}" for f in FAMILIES), *(f"travel:{f}" for f in FAMILIES), JOKER, RECRUIT, BOSS, STOP)
"""Every kind of card, by code."""


def parse_card(text: str) -> str:
    """One card code from a name or a code."""
    t = " ".join(text.strip().lower().split())
    if t in _PLAIN:
        return _PLAIN[t]
    if t.endswith(" card"):
        t = t[: -len(" card")]
    for kind in ("clan", "travel"):
        if t.startswith(f"{kind}:") and len(t) == len(kind) + 2:
            return f"{kind}:{parse_family(t[-1])}"
    shown = {" ".join(card(code).lower().split()): code for code in ALL_CARDS}  # as the bot writes it, here
    if t in shown:
        return shown[t]
    words = t.replace("-", " ").split()
    if len(words) == 2:
        for i in (0, 1):
            kind = KINDS.get(words[i])
            if kind is not None:
                try:
                    return f"{kind}:{parse_family(words[1 - i])}"
                except Unreadable:
                    break
    raise Unreadable(
        _(
            "I can't read “%(text)s” as a card. Write it like “Heiermann clan”, “Liebgeld travel”, “travel joker”, "
            "“recruitment”, “Boss” or “STOP”.",
            text=text.strip(),
        )
    )
