"""The game's tracked thread messages: one per offer ("Shake!"), one per reaction window and per last call.

- Offer `kkk.offer`/<offer id>: who pays whom for which card (investor or clan, with family), at what price, and
  the state (open / shaken by one side / binding / void / withdrawn / replaced / reopened to a new Boss / paid /
  lapsed). The bot adds 🤝; both parties' 🤝 make it binding (`presentation.reaction_action`). Rendered from the
  events' own data, so a late delivery still shows each step in order.
- Window `kkk.window`/<window number>: a travel, recruitment or Boss card waiting for STOPs, or a last call with the
  distribution (payout, every agreement, what the Boss keeps), with its end time and buttons (Pass / STOP, or Let it
  go / Call off). The buttons carry the window number, so a click on a closed window is refused, never applied to a
  newer one. When the window closes its message is edited to say how, and loses its buttons.

Decisions: the window number is the engine's wait key ("window:N"/"call:N"); the engine's events do not carry it
(an engine gap, see `reading.closed_window`), so a message is posted only while its window is still open when the
events are delivered (else the narration line says it all), and the closing edit is made when no newer window has
opened since.
"""

from collections.abc import Sequence

from bot.games.kkk import reading
from bot.games.kkk.words import family, money
from bot.presentation import Button, Post, Table, timestamp
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
RESOLUTIONS = {"on_travel", "clan_travelled", "recruited", "boss_changed", "boss_stays", "stopped"}


def event_posts(table: Table, events: Sequence[Event]) -> list[Post]:
    view = reading.public(table)
    posts: dict[tuple[str, str], Post] = {}
    replaced_by = {e.data["replaces"]: e.data["offer"] for e in events if e.kind == "offer" and e.data.get("replaces")}
    opened_here = any(e.kind in ("pending", "last_call") for e in events)
    for e in events:
        if not e.public:
            continue
        if e.kind in OFFER_KINDS:
            post = offer_post(table, view, e, replaced_by)
            posts[post.ref] = post  # type: ignore[index]
        elif e.kind == "offers_ended":
            for post in ended_posts(table, events, e):
                posts[post.ref] = post  # type: ignore[index]
        elif e.kind in ("pending", "last_call"):
            post = window_post(table, view, e)
            if post is not None:
                posts[post.ref] = post  # type: ignore[index]
        elif e.kind in RESOLUTIONS or e.kind in ("deal_closed", "last_call_cancelled"):
            if opened_here:
                continue  # opened and closed within one action: no window message was posted
            post = closed_post(table, view, e)
            if post is not None:
                posts[post.ref] = post  # type: ignore[index]
    return list(posts.values())


# --- offers ---------------------------------------------------------------------------------------------


def _price(price: int, unit: str, value: int) -> str:
    if unit == "money":
        return money(value)
    return f"{price} dividend{'s' if price != 1 else ''} ({money(value)})"


def offer_head(view: PublicView, names: list[str], data: dict, *, paid: bool = False) -> str:  # type: ignore[type-arg]
    seller, boss, fam = int(data["seller"]), int(data["boss"]), data.get("family")
    price = _price(int(data["price"]), str(data["unit"]), int(data["value"]))
    if fam:
        card = data.get("card") or reading.card_kind(view, seller, str(fam))
        what = f"for {names[seller]}'s {family(str(fam))} {card}"
    else:
        what = "as a share of this deal (no card)"
    verb = "paid" if paid else "pays"
    who = f"**{names[boss]}** (the Boss) {verb} **{names[seller]}**"
    return f"{SHAKE} **Offer #{data['offer']}**: {who} **{price}** {what}."


def offer_post(table: Table, view: PublicView, e: Event, replaced_by: dict) -> Post:  # type: ignore[type-arg]
    d = e.data
    names = table.names
    seller, boss = int(d["seller"]), int(d["boss"])  # type: ignore[arg-type]
    status = str(d["status"])
    shaken = [int(s) for s in d.get("shaken") or []]  # type: ignore[union-attr]
    if status == "open" and int(d.get("reopened") or 0) > 0:  # type: ignore[arg-type]
        line = (
            f"↪️ Reopened to the new Boss **{names[boss]}**: **{names[boss]}** and **{names[seller]}**, react {SHAKE} "
            f"again to agree (if your {SHAKE} is still on, take it off and put it back)."
        )
    elif status == "open":
        line = f"Open — **{names[boss]}** and **{names[seller]}**: react {SHAKE} to agree."
    elif status == "shaken":
        who = shaken[0] if shaken else seller
        other = boss if who == seller else seller
        line = f"✋ **{names[who]}** has shaken — waiting for **{names[other]}**'s {SHAKE}."
    elif status == "binding":
        line = f"✅ **Binding**: {names[boss]} pays {names[seller]} {money(int(d['value']))} when the deal concludes."  # type: ignore[arg-type]
    elif status == "replaced":
        new = replaced_by.get(d["offer"])
        line = f"🔁 Replaced by offer #{new}." if new else f"🔁 {table.render(e.text)}"
    elif status == "void":
        line = f"❌ {table.render(e.text)}"
    elif status == "withdrawn":
        line = f"↩️ {table.render(e.text)}"
    else:
        line = table.render(e.text)
    return Post(content=f"{offer_head(view, names, d)}\n{line}", ref=(OFFER, str(d["offer"])), reactions=[SHAKE])


def ended_posts(table: Table, events: Sequence[Event], ended: Event) -> list[Post]:
    """The round is over: agreements paid at the conclusion, and offers that lapsed."""
    names = table.names
    view = reading.public(table)
    posts = []
    payments = {int(e.data["offer"]): e for e in events if e.kind == "paid"}  # type: ignore[arg-type]
    uses = next((e.data.get("uses") for e in events if e.kind == "deal_closed"), None) or []
    failed = any(e.kind == "deal_failed" for e in events)
    for offer_id in ended.data.get("paid") or []:  # type: ignore[union-attr]
        pay = payments.get(int(offer_id))  # type: ignore[arg-type]
        if pay is None:
            continue
        seller = int(pay.data["to_seat"])  # type: ignore[arg-type]
        own = [u for u in uses if isinstance(u, dict) and u.get("seat") == seller]
        data: dict = {  # type: ignore[type-arg]
            "offer": offer_id,
            "seller": seller,
            "boss": pay.data["from_seat"],
            "price": pay.data["amount"],
            "unit": "money",
            "value": pay.data["amount"],
            "family": own[0]["family"] if len(own) == 1 else None,
            "card": ("investor" if own[0]["card"] == "investor" else "clan card") if len(own) == 1 else None,
        }
        head = offer_head(view, names, data, paid=True)
        if len(own) != 1:
            head = head.replace(" as a share of this deal (no card)", "")
        posts.append(Post(content=f"{head}\n💸 Paid when the deal concluded.", ref=(OFFER, str(offer_id))))
    for offer_id in ended.data.get("dropped") or []:  # type: ignore[union-attr]
        why = "the deal failed" if failed else "the round is over and it was never agreed"
        posts.append(
            Post(
                content=f"{SHAKE} **Offer #{offer_id}** lapsed: {why}. Nothing was paid for it.",
                ref=(OFFER, str(offer_id)),
            )
        )
    return posts


# --- reaction windows and last calls ----------------------------------------------------------------------


def window_of_event(e: Event) -> int | None:
    value = e.data.get("window")
    return value if isinstance(value, int) else None


def window_post(table: Table, view: PublicView, e: Event) -> Post | None:
    wid = window_of_event(e)
    wid = reading.window_id(view) if wid is None else wid
    if wid is None or reading.window_id(view) != wid:
        return None  # already closed when delivered: the narration line says it all
    due = reading.reaction_deadline(table)
    when = f"by {timestamp(due, 't')} ({timestamp(due)})" if due else "until the reaction time is over"
    if e.kind == "pending":
        top = view.pending[-1] if view.pending else None
        if top is None or top.kind != e.data.get("effect") or top.by != e.data.get("by"):
            return None
        first = table.render(e.text.split(" Anyone may STOP", 1)[0])
        text = (
            f"{first}\n⏳ Anyone else may **STOP** it {when}; it also takes effect as soon as everyone else has passed."
        )
        buttons = [Button("Pass", f"pass:{wid}"), Button("STOP", f"stop:{wid}", "danger", "✋")]
        return Post(content=text, ref=(WINDOW, str(wid)), buttons=buttons)
    r = view.round
    if r is None or r.last_call is None:
        return None
    names = table.names
    uses = ", ".join(
        f"{family(u.family)} ({'own' if u.seat == r.boss else names[u.seat] + '’s'} {_card(u.card)})"
        for u in r.last_call
    )
    agreements = [
        f"• {names[r.boss]} pays {names[o.seller]} {money(o.value)} (#{o.id})"
        for o in r.offers
        if o.status == "binding"
    ]
    text = "\n".join(
        [
            f"📣 **Last call!** **{names[r.boss]}** closes the deal on space {r.space} with {uses}.",
            f"The bank pays **{money(r.payout)}**.",
            *(agreements or ["• No agreements to pay."]),
            f"**{names[r.boss]}** keeps **{money(r.boss_keeps)}**.",
            f"⏳ Let it go, or play a card to stop it, {when}. The Boss may call it off.",
        ]
    )
    buttons = [Button("Let it go", f"pass:{wid}", "success"), Button("Call off", f"cancel:{wid}")]
    return Post(content=text, ref=(WINDOW, str(wid)), buttons=buttons)


def closed_post(table: Table, view: PublicView, e: Event) -> Post | None:
    if e.kind == "stopped" and view.pending:
        return None  # a STOP on the newest of stacked Boss cards: a new window opens for the one below
    wid = window_of_event(e)
    wid = reading.closed_window(table, view) if wid is None else wid
    if wid is None:
        return None
    if e.kind == "deal_closed":
        text = "📣 The last call went through: the deal is concluded."
    elif e.kind == "last_call_cancelled":
        text = f"📣 Last call off: {table.render(e.text)}"
    elif e.kind == "stopped":
        text = table.render(e.text)
    else:
        text = f"🔔 Window closed: {table.render(e.text)}"
    return Post(content=text, ref=(WINDOW, str(wid)))


def _card(kind: str) -> str:
    return "clan card" if kind == "clan" else kind
