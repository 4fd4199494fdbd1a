"""Autocomplete for the `/kkk` options, from the player's own view: their hand, the table and the open offers.

Pure functions of a `PlayerView` (what that player may know), so suggestions never show anyone else's cards: the
list of families for `/kkk clan` comes from the player's own hand (every family held, since a clan card of any family
may be played; those the deal can use first), the targets of `/kkk travel` from the cards on the table and the travel
cards the player holds, and so on. Each returns (name, value) pairs, at most 25. Suggestions are a help, not a rule:
the engine still decides when the command arrives.
"""

from collections import Counter
from itertools import combinations, product

from bot.games.kkk import picks
from bot.games.kkk.i18n import _
from bot.games.kkk.words import Unreadable, card, family, money, parse_card
from engine.kkk.cards import FAMILIES, FAMILY_NAMES, JOKER
from engine.kkk.state import Use
from engine.kkk.views import PlayerView, PublicView, RequirementView, SourceView

Choice = tuple[str, str | int]
LIMIT = 25


def _match(current: str, *texts: str) -> bool:
    c = current.strip().lower()
    return not c or any(c in t.lower() for t in texts)


def _space_families(view: PublicView) -> tuple[str, ...]:
    if view.round is None:
        return FAMILIES
    space = view.spaces[view.round.space - 1]
    return (*space.required, *space.group)


def serves(view: PublicView, seat: int, fam: str) -> str | None:
    """Which card of `fam` the seat has on the table this round ("investor", "clan card", in the language being
    spoken), if any."""
    if view.round is None:
        return None
    if any(i.family == fam and i.owner == seat and not i.on_travel for i in view.investors):
        return _("investor")
    if fam in view.round.clans[seat]:
        return _("clan card")
    return None


def places(view: PublicView, current: str) -> list[Choice]:
    out: list[Choice] = []
    for s in view.spaces:
        if s.tile is not None:
            continue
        need = ", ".join(FAMILY_NAMES[f] for f in s.required)
        if s.group:
            block = _("%(k)d of %(group)s", k=s.group_k, group="/".join(FAMILY_NAMES[f] for f in s.group))
            need = f"{need} + {block}" if need else block
        name = f"{s.number}: {need} — " + _("%(n)d dividends", n=s.dividends)
        if _match(current, name):
            out.append((name[:100], s.number))
    return out[:LIMIT]


def clans(view: PlayerView, current: str) -> list[Choice]:
    """Every clan family in the player's hand (any may be played), the useful ones first: families the deal needs
    and the Boss has no card for yet, then the rest the deal uses, then those it doesn't (said so)."""
    held = Counter(c[5:] for c in view.hand if c.startswith("clan:"))
    usable = _space_families(view)
    uncovered = {q.family for q in view.round.requirements if not q.sources} if view.round is not None else set()

    def rank(f: str) -> int:
        return 0 if f in uncovered else 1 if f in usable else 2

    out: list[Choice] = []
    for f in sorted((f for f in FAMILIES if held[f]), key=rank):
        if _match(current, FAMILY_NAMES[f], f):
            name = _("%(family)s (you hold %(n)d)", family=FAMILY_NAMES[f], n=held[f])
            if rank(f) == 2:
                name += " — " + _("not needed for this deal")
            out.append((name, f))
    return out


def offer_families(view: PlayerView, current: str, to: int | None, names: list[str]) -> list[Choice]:
    """The families the deal can use that the offer could be about. For the Boss, one suggestion per player who has
    such a card on the table, its value carrying that player (`picks`), so no `to:` is needed."""
    r = view.round
    if r is None:
        return []
    out: list[Choice] = []
    for f in _space_families(view):
        if not _match(current, FAMILY_NAMES[f], f):
            continue
        if view.you != r.boss:
            kind = serves(view, view.you, f)
            if kind:
                out.append((FAMILY_NAMES[f] + " — " + _("your %(card)s", card=kind), f))
            continue
        sellers = [to] if to is not None else [s for s in range(view.seats) if s != view.you]
        for s in sellers:
            kind = serves(view, s, f) if s is not None and s != view.you else None
            if kind:
                label = FAMILY_NAMES[f] + " — " + _("%(who)s's %(card)s", who=names[s], card=kind)
                out.append((label[:100], picks.encode(picks.Pick(f, s))))
    return out[:LIMIT]


def offers(
    view: PlayerView, current: str, names: list[str], *, to_shake: bool, to_unshake: bool = False
) -> list[Choice]:
    """Offers the player is party to that are not yet binding (to withdraw, to shake on, or to take a shake back)."""
    r = view.round
    if r is None:
        return []
    out: list[Choice] = []
    for o in r.offers:
        if o.status not in ("open", "shaken") or view.you not in (o.seller, o.boss):
            continue
        if to_shake and view.you in o.shaken:
            continue
        if to_unshake and (view.you not in o.shaken or (o.by_offer and o.proposer == view.you)):
            continue  # a proposer's own 🤝 is the offer itself: they withdraw it instead
        status = _("open") if o.status == "open" else _("shaken")
        name = f"#{o.id}: " + _offer_words(o.family, names[o.seller], money(o.value)) + f" ({status})"
        if _match(current, name):
            out.append((name[:100], o.id))
    return out[:LIMIT]


def counters(view: PlayerView, current: str, names: list[str]) -> list[Choice]:
    """Agreements (and offers not yet binding) the player is party to, for a counter-offer that replaces one."""
    r = view.round
    if r is None:
        return []
    out: list[Choice] = []
    for o in sorted(r.offers, key=lambda o: (o.status != "binding", o.id)):
        if o.status not in ("open", "shaken", "binding") or view.you not in (o.seller, o.boss):
            continue
        state = _("agreement") if o.status == "binding" else _("offer, not yet binding")
        name = f"#{o.id}: " + _offer_words(o.family, names[o.seller], money(o.value)) + f" ({state})"
        if _match(current, name):
            out.append((name[:100], o.id))
    return out[:LIMIT]


def _offer_words(fam: str | None, seller: str, price: str) -> str:
    if fam:
        return _("%(family)s from %(who)s for %(price)s", family=family(fam), who=seller, price=price)
    return _("a share for %(who)s for %(price)s", who=seller, price=price)


def travels(view: PlayerView, current: str, target: int | None, names: list[str]) -> list[Choice]:
    """One suggestion per card a travel card of the player's could be played on (the target's only, if given), its
    value carrying the target, the card and the joker (`picks`), so picking it needs no other option."""
    r = view.round
    if r is None:
        return []
    out: list[Choice] = []
    for f in FAMILIES:
        own = f"travel:{f}" in view.hand
        if not (own or JOKER in view.hand) or not _match(current, FAMILY_NAMES[f], f):
            continue
        via = _("your %(family)s travel card", family=FAMILY_NAMES[f]) if own else _("your travel joker")
        for spot in picks.travel_spots(view, f, target):
            kind = _("investor") if spot.card == "investor" else _("clan card")
            if spot.seat is None:
                where = _("the investor beside the board")
            elif target is None:
                where = _("%(who)s's %(card)s", who=names[spot.seat], card=kind)
            else:
                where = kind
            value = picks.encode(picks.Pick(f, spot.seat, spot.card if spot.seat is not None else None, not own))
            label = FAMILY_NAMES[f] + " — " + _("%(where)s (with %(via)s)", where=where, via=via)
            out.append((label[:100], value))
    return out[:LIMIT]


def recruits(view: PlayerView, current: str, names: list[str]) -> list[Choice]:
    beside = [i for i in view.investors if i.owner is None]
    targets = beside or [i for i in view.investors if i.owner != view.you]
    out: list[Choice] = []
    for i in targets:
        where = _("beside the board") if i.owner is None else _("%(who)s's investor", who=names[i.owner])
        if _match(current, FAMILY_NAMES[i.family], i.family):
            out.append(((FAMILY_NAMES[i.family] + " — " + where)[:100], i.family))
    return out


def discards(view: PlayerView, current: str) -> list[Choice]:
    """Build the list card by card: "STOP, 2× recruitment" — each suggestion adds one card from the hand."""
    need = len(view.hand) - 12
    if need <= 0:
        return [(_("You hold 12 cards or fewer: nothing to discard."), "")]
    parts = [p.strip() for p in current.split(",")]
    done, partial = parts[:-1], parts[-1]
    chosen: list[str] = []
    for p in done:
        try:
            chosen.append(parse_card(p))
        except Unreadable:
            continue
    left = Counter(view.hand) - Counter(chosen)
    if len(chosen) >= need:
        text = ", ".join(card(c) for c in chosen)
        return [((text + " — " + _("discard these %(n)d", n=need))[:100], text[:100])]
    out: list[Choice] = []
    for code in sorted(left, key=lambda c: card(c)):
        if not _match(partial, card(code), code):
            continue
        text = ", ".join(card(c) for c in [*chosen, code])
        count = _("%(k)d of %(n)d", k=len(chosen) + 1, n=need)
        out.append((f"{text} ({count})"[:100], text[:100]))
    return out[:LIMIT]


# --- the Boss's own assignment ------------------------------------------------------------------------------


def encode(uses: list[Use] | tuple[Use, ...]) -> str:
    return ";".join(f"{u.family}{u.seat}{'i' if u.card == 'investor' else 'c'}" for u in uses)


def decode(text: str) -> tuple[Use, ...]:
    uses = []
    for part in text.split(";"):
        part = part.strip()
        seat = part[1:-1]
        readable = seat.isdecimal() and len(seat) <= 2
        if len(part) < 3 or part[0] not in FAMILIES or not readable or part[-1] not in "ic":
            raise Unreadable(_("Pick an assignment from the suggestions (or leave `use:` out for the bot's choice)."))
        uses.append(Use(family=part[0], seat=int(seat), card="investor" if part[-1] == "i" else "clan"))  # type: ignore[arg-type]
    return tuple(uses)


def _label(src: SourceView, boss: int, names: list[str]) -> str:
    if src.seat == boss and src.offer is None:
        return _("own inv.") if src.card == "investor" else _("own clan")
    return names[src.seat] + " " + (_("inv.") if src.card == "investor" else _("clan"))


def assignments(view: PublicView, current: str, names: list[str]) -> list[Choice]:
    """Valid assignments of the cards at the Boss's disposal, the bot's own first."""
    r = view.round
    if r is None:
        return []
    required = [q for q in r.requirements if q.block == "required"]
    group = [q for q in r.requirements if q.block == "group" and q.sources]
    if any(not q.sources for q in required) or len(group) < r.group_k:
        return []
    options: list[list[tuple[RequirementView, SourceView]]] = []
    picks = [required + list(g) for g in combinations(group, r.group_k)]
    for reqs in picks:
        for combo in product(*[[(q, s) for q in [q] for s in q.sources] for q in reqs]):
            options.append(list(combo))
            if len(options) >= 200:
                break
    best = [(q, q.assigned) for q in r.requirements if q.assigned is not None]
    out: list[Choice] = []
    seen: set[str] = set()
    for combo in [best, *options]:
        uses = [Use(family=q.family, seat=s.seat, card=s.card) for q, s in combo if s is not None]  # type: ignore[arg-type]
        value = encode(uses)
        if value in seen:
            continue
        seen.add(value)
        name = " · ".join(f"{q.family}: {_label(s, r.boss, names)}" for q, s in combo if s is not None)
        if combo is best:
            name = _("Bot's choice — %(uses)s", uses=name)
        if _match(current, name, value):
            out.append((name[:100], value))
        if len(out) >= LIMIT:
            break
    return out
