"""The game's tracked thread messages: one per offer ("Shake!"), one per reaction window and per last call.

- Offer `kkk.offer`/<key>: who pays whom for which card (investor or clan, with family), at what price, and the
  state (waiting for the other party's 🤝 / binding / void / withdrawn / replaced / paid / lapsed). The bot adds 🤝.
  Making an offer is its proposer's 🤝, so a new offer's message names (and mentions, in the new message only) the
  other party, whose 🤝 makes it binding (`presentation.controls.reaction_action`); an agreement reopened to a new Boss
  waits for both. A counter-offer says which agreement it replaces if it binds; the replaced agreement's message
  says which one took its place. Rendered from the events' own data (the engine's
  events carry an offer's terms to the end, `offers_ended` included), so a late delivery still shows each step.
- Window `kkk.window`/<window number>: a travel, recruitment or Boss card waiting for STOPs, or a last call with the
  distribution (payout, what the Boss keeps and the end time first, then every agreement — as many as fit, then
  "… and N more"), with buttons (Pass / STOP, or Let it go / Call off). The buttons carry the window number, so a
  click on a closed window is refused, never applied to a newer one. The engine's window events name their window
  (`data["window"]`): when the window closes (its effect resolves, a STOP, a call cancelled or concluded) or an
  answering Boss card restarts it under a new number, its message is edited to say so and loses its buttons. A
  travel still pending when the Boss fails the deal is discarded with the round (`pending_discarded`): that closes
  its window too.

A window's message closed or moved on is `settled` (its last look: window numbers never repeat, and its buttons are
gone): the platform then retires its reference, so a long game does not pile them up. An offer's message keeps its
reference after it settles: a 🤝 added there later is still answered (taken off, the refusal told), which needs it.

Reopened agreements get a fresh message. When the Boss changes, an agreement becomes an open offer to the new Boss
and both parties must shake again. Its old message still carries the old 🤝 reactions (the parties would have to
take theirs off and put them back, and the bot may not be allowed to clear them), so instead each incarnation of
an offer has its own message: the key is the offer id, then ".n" after its n-th reopening ("3", "3.1", …; the
events' `reopened` count says which). The old message is edited to point to the new one below, which starts with
only the bot's 🤝; a 🤝 added to the old message is stray (`presentation.controls.reaction_allowed`).

One message instead of two: a new offer message or window announcement that is all its action says (the action's
only narrated event) is marked `replaces_narration`, so the platform posts it as the command's reply instead of a
narration line plus a separate message (the awaited players' mentions are added below it by the platform).

A window opened and closed by one action (everyone else passes automatically) gets no message (the narration says
it all); a window message is posted only while its window is still open when the events are delivered.
"""

from collections.abc import Sequence

from pydantic import JsonValue

from bot.games.kkk import narration, reading, telling
from bot.games.kkk.i18n import _, n_
from bot.games.kkk.words import family, money
from bot.presentation import Aside, Button, Post, Table, moment
from engine.events import Event
from engine.kkk.views import PublicView

OFFER = "kkk.offer"
WINDOW = "kkk.window"
SHAKE = "🤝"
OFFER_KINDS = {
    "offer",
    "shaken",
    "unshaken",
    "agreement",
    "withdrawn",
    "offer_replaced",
    "offer_void",
    "offer_reopened",
}
OPENING = ("pending", "last_call")
CLOSING = {"on_travel", "clan_travelled", "recruited", "boss_changed", "boss_stays", "stopped"}
CLOSING |= {"deal_closed", "last_call_cancelled", "pending_discarded"}
LAST_CALL_BUDGET = 1500
"""Characters for a last call's own text: the rest of Discord's 2000 is for the lines the platform adds below it (who
is awaited, with mentions). Its list of agreements is cut to fit ("… and N more"), after the payout, what the Boss
keeps and the deadline, which always show."""
NARRATING = {"offer", *OPENING}
"""Events whose own message can stand in for the action's narration when it is all the action says."""

Data = dict[str, JsonValue]


# --- message keys ---------------------------------------------------------------------------------------------


def offer_key(offer_id: int, reopened: int = 0) -> str:
    """The key of an offer's message: the id, then ".n" for the message of its n-th reopening."""
    return str(offer_id) if reopened == 0 else f"{offer_id}.{reopened}"


def parse_offer_key(key: str) -> tuple[int, int] | None:
    """(offer id, reopening) from a message key; None if it isn't one."""
    head, _sep, tail = key.partition(".")
    if not head.isdigit() or (tail and not tail.isdigit()):
        return None
    return int(head), int(tail or 0)


def _int(value: JsonValue, default: int = 0) -> int:
    return value if isinstance(value, int) else default


def _ref_of(data: Data) -> tuple[str, str]:
    return OFFER, offer_key(_int(data["offer"]), _int(data.get("reopened")))


# --- all of an action's posts ----------------------------------------------------------------------------------


def event_posts(table: Table, events: Sequence[Event]) -> list[Post]:
    view = reading.public(table)
    posts: dict[tuple[str, str], Post] = {}
    replaced_by = {e.data["replaces"]: e.data["offer"] for e in events if e.kind == "offer" and e.data.get("replaces")}
    opened_here = {window_of_event(e) for e in events if e.kind in OPENING}
    # An `Aside` (e.g. "the last call is off" when a card interrupts it) is said elsewhere — here, by the edit of
    # the last call's message — so it doesn't keep a window's message from standing in for the narration.
    narrated = [
        e for e in events if e.public and (line := narration.event_line(table, e)) and not isinstance(line, Aside)
    ]
    sole = narrated[0] if len(narrated) == 1 and narrated[0].kind in NARRATING else None

    def add(post: Post | None, source: Event | None = None) -> None:
        if post is None or post.ref is None:
            return
        post.replaces_narration = source is not None and source is sole
        posts[post.ref] = post

    for e in events:
        if not e.public:
            continue
        if e.kind == "offer_reopened":
            add(moved_post(table, view, e))
            add(offer_post(table, view, e, replaced_by))
        elif e.kind in OFFER_KINDS:
            shown = e
            if e.kind == "offer_void" and e.data.get("family") and "card" not in e.data:
                shown = e.model_copy(update={"data": {**e.data, "card": lost_card(view, events, e.data)}})
            add(offer_post(table, view, shown, replaced_by), e)
        elif e.kind == "offers_ended":
            for post in ended_posts(table, events, e):
                add(post)
        elif e.kind in OPENING:
            previous = e.data.get("previous_window")
            if isinstance(previous, int) and previous not in opened_here:
                add(superseded_post(table, e, previous))
            add(window_post(table, view, e), e)
        elif e.kind in CLOSING:
            if window_of_event(e) in opened_here:
                continue  # opened and closed within one action: no window message was posted
            add(closed_post(table, e))
    return list(posts.values())


# --- offers ---------------------------------------------------------------------------------------------


def lost_card(view: PublicView, events: Sequence[Event], data: Data) -> str:
    """The card a void offer was about. Still on the table (the Boss changed): as the table shows it. Gone, which
    the view can't tell apart (it would call it an investor): named from the action's events — a clan card sent on
    travel, an investor recruited away or on travel — or "card" when they don't say (in the language spoken)."""
    seller, fam = data.get("seller"), data.get("family")
    if isinstance(seller, int) and isinstance(fam, str):
        investor = any(i.family == fam and i.owner == seller and not i.on_travel for i in view.investors)
        clan = view.round is not None and seller < len(view.round.clans) and fam in view.round.clans[seller]
        if investor or clan:
            return reading.card_kind(view, seller, fam)
    for e in events:
        if e.data.get("family") != fam:
            continue
        if e.kind == "clan_travelled" and e.data.get("seat") == seller:
            return _("clan card")
        if (e.kind == "recruited" and e.data.get("previous") == seller) or e.kind == "on_travel":
            return _("investor")
    return _("card")


def offer_head(view: PublicView, names: list[str], data: Data, *, verb: str = "pays", boss: int | None = None) -> str:
    """The offer's first line; `verb` "pays", "paid" or "would" (would have paid)."""
    seller, fam = _int(data["seller"]), data.get("family")
    boss = _int(data["boss"]) if boss is None else boss
    values = {"offer": _int(data["offer"]), "boss": f"**{names[boss]}**", "seller": f"**{names[seller]}**"}
    values["owner"] = names[seller]
    values["price"] = f"**{telling.price(data)}**"
    if fam:
        card = data.get("card") or reading.card_kind(view, seller, str(fam))
        values |= {"family": family(str(fam)), "card": str(card)}
        if verb == "paid":
            text = _(
                "**Offer #%(offer)d**: %(boss)s (the Boss) "
                "paid %(seller)s %(price)s for %(owner)s's %(family)s %(card)s.",
                **values,
            )
        elif verb == "would":
            text = _(
                "**Offer #%(offer)d**: %(boss)s (the Boss) "
                "would have paid %(seller)s %(price)s for %(owner)s's %(family)s %(card)s.",
                **values,
            )
        else:
            text = _(
                "**Offer #%(offer)d**: %(boss)s (the Boss) "
                "pays %(seller)s %(price)s for %(owner)s's %(family)s %(card)s.",
                **values,
            )
    elif verb == "paid":
        text = _(
            "**Offer #%(offer)d**: %(boss)s (the Boss) paid %(seller)s %(price)s as a share of this deal (no card).",
            **values,
        )
    elif verb == "would":
        text = _(
            "**Offer #%(offer)d**: %(boss)s (the Boss) "
            "would have paid %(seller)s %(price)s as a share of this deal (no card).",
            **values,
        )
    else:
        text = _(
            "**Offer #%(offer)d**: %(boss)s (the Boss) pays %(seller)s %(price)s as a share of this deal (no card).",
            **values,
        )
    return f"{SHAKE} {text}"


def offer_post(table: Table, view: PublicView, e: Event, replaced_by: dict) -> Post:  # type: ignore[type-arg]
    d = e.data
    names = table.names
    seller, boss = _int(d["seller"]), _int(d["boss"])
    status = str(d["status"])
    shaken = [_int(s) for s in d.get("shaken") or []]  # type: ignore[union-attr]
    if status == "open" and _int(d.get("reopened")) > 0:
        # Nobody made this offer to the new Boss, so neither party's old 🤝 carries over (the rules' ruling).
        line = "↪️ " + _(
            "Reopened to the new Boss %(boss)s: it no longer binds. Both of you, %(boss)s and %(seller)s, react 🤝 "
            "here to agree again — the old 🤝 don't count.",
            boss=f"**{names[boss]}**",
            seller=f"**{names[seller]}**",
        )
    elif status == "open":
        line = _(
            "Open — %(boss)s and %(seller)s: react 🤝 to agree.",
            boss=f"**{names[boss]}**",
            seller=f"**{names[seller]}**",
        )
    elif status == "shaken":
        who = shaken[0] if shaken else seller
        other = boss if who == seller else seller
        if d.get("by_offer") and who == d.get("proposer"):
            # The one thing the offer waits for: the other party's 🤝 (mentioned, so they hear of it).
            line = "⏳ " + _(
                "Waiting for %(other)s's 🤝 to make it binding — making the offer was %(who)s's own 🤝 (they may "
                "withdraw it until then).",
                other=table.mention(other),
                who=f"**{names[who]}**",
            )
        else:
            line = "✋ " + _(
                "%(who)s has shaken — waiting for %(other)s's 🤝.", who=f"**{names[who]}**", other=f"**{names[other]}**"
            )
    elif status == "binding":
        line = "✅ " + _(
            "**Binding**: %(boss)s pays %(seller)s %(amount)s when the deal concludes.",
            boss=names[boss],
            seller=names[seller],
            amount=money(_int(d["value"])),
        )
    elif status == "replaced":
        new = d.get("replaced_by") or replaced_by.get(d["offer"])
        line = "🔁 " + (_("Replaced by offer #%(new)d.", new=_int(new)) if new else _("Replaced."))
    elif status == "void":
        line = "❌ " + telling.void_line(d, telling.plain(names))
    elif status == "withdrawn":
        line = "↩️ " + (telling.sentence(e, telling.plain(names)) or "")
    else:
        line = telling.sentence(e, telling.plain(names)) or ""
    lines = [offer_head(view, names, d), line]
    counters = d.get("counters")
    if counters and status in ("open", "shaken"):
        lines.append(
            "🔁 "
            + _(
                "Counter-offer: if agreed, it **replaces agreement #%(old)d** (which stands until then).",
                old=_int(counters),
            )
        )
    elif status == "binding" and e.kind == "agreement" and e.data.get("counters"):
        lines.append("🔁 " + _("It replaces agreement #%(old)d.", old=_int(counters)))
    return Post(content="\n".join(lines), ref=_ref_of(d), reactions=[SHAKE])


def moved_post(table: Table, view: PublicView, e: Event) -> Post | None:
    """The old message of an agreement that reopened: it no longer counts, and says where to shake now."""
    d = e.data
    reopened = _int(d.get("reopened"))
    if reopened < 1:
        return None
    names = table.names
    old_boss = _int(d.get("previous_boss"), _int(d["boss"]))
    head = offer_head(view, names, d, boss=old_boss)
    line = "↪️ " + _(
        "The Boss changed: this agreement reopened as an offer to %(boss)s — its new message is below; 🤝 there to "
        "agree again. Reactions here no longer count.",
        boss=f"**{names[_int(d['boss'])]}**",
    )
    return Post(content=f"{head}\n{line}", ref=(OFFER, offer_key(_int(d["offer"]), reopened - 1)))


def ended_posts(table: Table, events: Sequence[Event], ended: Event) -> list[Post]:
    """The round is over: agreements paid at the conclusion, and offers that lapsed — each with its terms."""
    names = table.names
    view = reading.public(table)
    uses = next((e.data.get("uses") for e in events if e.kind == "deal_closed"), None) or []
    failed = any(e.kind == "deal_failed" for e in events)
    posts = []
    for terms in ended.data.get("offers") or []:  # type: ignore[union-attr]
        if not isinstance(terms, dict):
            continue
        data: Data = dict(terms)
        seller = _int(data["seller"])
        fam = data.get("family")
        used = [u for u in uses if isinstance(u, dict) and u.get("seat") == seller and u.get("family") == fam]
        if fam:
            data["card"] = (_("clan card") if used[0].get("card") == "clan" else _("investor")) if used else _("card")
        if data.get("ended") == "paid":
            text = f"{offer_head(view, names, data, verb='paid')}\n💸 " + _("Paid when the deal concluded.")
        elif failed:
            text = f"{offer_head(view, names, data, verb='would')}\n🕳️ " + _(
                "Lapsed: the deal failed. Nothing was paid."
            )
        else:
            text = f"{offer_head(view, names, data, verb='would')}\n🕳️ " + _(
                "Lapsed: the round ended before it was agreed. Nothing was paid."
            )
        posts.append(Post(content=text, ref=_ref_of(data)))
    return posts


# --- reaction windows and last calls ----------------------------------------------------------------------


def window_ref(window: int) -> tuple[str, str]:
    return WINDOW, str(window)


def window_of_event(e: Event) -> int | None:
    value = e.data.get("window")
    return value if isinstance(value, int) else None


def window_post(table: Table, view: PublicView, e: Event) -> Post | None:
    wid = window_of_event(e)
    if wid is None or reading.window_id(view) != wid:
        return None  # already closed when delivered: the narration line says it all
    due = reading.reaction_deadline(table)
    if e.kind == "pending":
        first = telling.pending_line(e.data, telling.plain(table.names))
        if due:
            tail = _(
                "Anyone else may **STOP** it by %(when)s; it also takes effect as soon as everyone else has passed.",
                when=moment(due),
            )
        else:
            tail = _(
                "Anyone else may **STOP** it until the reaction time is over; it also takes effect as soon as "
                "everyone else has passed."
            )
        text = f"{first}\n⏳ {tail}"
        buttons = [Button(_("Pass"), f"pass:{wid}"), Button(_("STOP"), f"stop:{wid}", "danger", "✋")]
        return Post(content=text, ref=window_ref(wid), buttons=buttons)
    r = view.round
    if r is None or r.last_call is None:
        return None
    names = table.names
    uses = telling.uses_text([u.model_dump() for u in r.last_call], r.boss, telling.plain(names))
    agreements = [
        "• "
        + _(
            "%(boss)s pays %(seller)s %(amount)s (#%(offer)d)",
            boss=names[r.boss],
            seller=names[o.seller],
            amount=money(o.value),
            offer=o.id,
        )
        for o in r.offers
        if o.status == "binding"
    ]
    boss = f"**{names[r.boss]}**"
    if due:
        let_go = _("Let it go, or play a card to stop it, by %(when)s. The Boss may call it off.", when=moment(due))
    else:
        let_go = _("Let it go, or play a card to stop it, until the reaction time is over. The Boss may call it off.")
    head = [
        "📣 "
        + _(
            "**Last call!** %(boss)s closes the deal on space %(space)d with %(uses)s.",
            boss=boss,
            space=r.space,
            uses=uses,
        ),
        _(
            "The bank pays **%(payout)s**. %(boss)s keeps **%(keeps)s**.",
            payout=money(r.payout),
            boss=boss,
            keeps=money(r.boss_keeps),
        ),
        f"⏳ {let_go}",
    ]
    if agreements:
        head.append(n_("**%(n)d agreement** to pay:", "**%(n)d agreements** to pay:", len(agreements)))
        lines = [*head, *capped(agreements, LAST_CALL_BUDGET - len("\n".join(head)))]
    else:
        lines = [*head, "• " + _("No agreements to pay.")]
    text = "\n".join(lines)
    buttons = [Button(_("Let it go"), f"pass:{wid}", "success"), Button(_("Call off"), f"cancel:{wid}")]
    return Post(content=text, ref=window_ref(wid), buttons=buttons)


def capped(lines: list[str], budget: int) -> list[str]:
    """As many of `lines` as fit in `budget` characters (with their line breaks), then "… and N more"."""
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        rest = len(lines) - i - 1
        tail = len("\n" + _more(rest)) if rest else 0
        if used + 1 + len(line) + tail > budget:
            return [*out, _more(len(lines) - i)]
        out.append(line)
        used += 1 + len(line)
    return out


def superseded_post(table: Table, e: Event, previous: int) -> Post:
    """The message of a window that an answering Boss card restarted under a new number: its buttons go."""
    answer = telling.pending_line(e.data, telling.plain(table.names))
    return Post(
        content=f"⏭️ {answer} " + _("The window moves to the message below."), ref=window_ref(previous), settled=True
    )


def closed_post(table: Table, e: Event) -> Post | None:
    wid = window_of_event(e)
    if wid is None:
        return None
    said = telling.sentence(e, telling.plain(table.names)) or ""
    if e.kind == "deal_closed":
        text = "📣 " + _("The last call went through: the deal is concluded.")
    elif e.kind == "last_call_cancelled":
        text = "📣 " + _("Last call off: %(why)s", why=said)
    elif e.kind == "stopped":
        text = said
    else:
        text = "🔔 " + _("Window closed: %(why)s", why=said)
    return Post(content=text, ref=window_ref(wid), settled=True)


def _more(n: int) -> str:
    return n_("… and %(n)d more", "… and %(n)d more", n)
