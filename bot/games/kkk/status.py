"""The table's one status message, rendered from the public view only.

It shows the 16 spaces with the dollar marker and the placed tiles, the next tile's dividend value, whose turn it is,
the Boss, the space's requirements and what covers each of them (own investor, clan card, binding agreement), cards
on the table, investors on travel, the pending effect and its deadline, hand sizes and pile sizes; at the end, the
standings with everyone's money. Its buttons cover the common moves of the moment (Open / Roll / Draw, Pass / STOP,
Close / Fail, Let it go / Call off); the engine refuses anyone they are not for, with the reason.
"""

from bot.games.kkk import reading, telling
from bot.games.kkk.i18n import N_, _, n_
from bot.games.kkk.words import and_list, families, family, money
from bot.presentation import Button, Post, Table, moment, timestamp, waiting_lines
from engine.game import Result
from engine.kkk.views import PublicView, RequirementView, SourceView

COLOUR = 0xB7791F
LEGEND = "H Heiermann · K Knetowitz · L Liebgeld · P Piepenbrok · R Raffzahn · T Talerfeld"


def status_post(table: Table) -> Post:
    """The live status: what a player needs at a glance, on one phone screen beside its picture (≤ 15 lines): one
    line each for whose turn it is, the board, the deal, the cards on the table, the offers, the window and the
    hands, and one per requirement of the space. The full board list, the investors and every offer are in
    `details_post` (the Details button) and the picture."""
    view = reading.public(table)
    names = table.names
    post = Post(
        title=table.title,
        colour=COLOUR,
        footer=_("Game #%(game)d · kkk · /kkk commands in this thread", game=table.record.id),
    )
    result = table.result
    if result is not None or table.record.status in ("finished", "abandoned"):
        standings = result or table.game.standings(table.state)  # type: ignore[arg-type]
        post.description = "\n".join([*_over(table, view, standings, finished=result is not None), board_line(view)])
        post.buttons = [details_button()]
        return post
    lines: list[str] = []
    if table.record.status == "paused":
        lines.append("⏸️ " + _("**Paused by a moderator** — deadlines are on hold."))
    # The headline says whose turn it is; a turn's deadline joins it rather than a second line naming them again.
    turn = [w for w in table.waits if w.kind == "turn"]
    due = table.deadline(table.waits.index(turn[0]), turn[0]) if turn and table.record.status != "paused" else None
    lines.append(_headline(view, names) + (f" — {moment(due)}" if due is not None else ""))
    # A window's deadline is on its own "Closes" line (`_round`'s tail).
    waiting = waiting_lines(table, " — ", untimed=("reaction",))
    lines += [line for line, w in zip(waiting, table.waits, strict=True) if w.kind != "turn"]
    lines.append(f"{board_line(view)} · {_next_deal(view)}")
    if view.round is not None:
        lines += [_round(view, names, compact=True), _requirements(view, names)]
        table_lines = _on_table(view, names).replace("\n", " · ")
        if table_lines:
            lines.append(table_lines)
        offers = _offers_summary(view, names)
        if offers:
            lines.append(offers)
    if view.pending or (view.round is not None and view.round.last_call is not None):
        lines.append(_window(table, view, names, compact=True))
    lines.append(_("Players: %(players)s", players=_hands(view, names).replace("\n", " · ")))
    post.description = "\n".join(lines)
    post.buttons = [*buttons(view), details_button()]
    return post


def details_button() -> Button:
    """The platform's Details button (`Presentation.status_details`): the full table, privately."""
    return Button(_("Details"), "details", "secondary", "📋")


def details_post(table: Table) -> Post:
    """Everything the table shows, in full: the 16 spaces with their requirements, the next deal, the deal with
    every requirement and offer, cards on the table, the window, every investor's owner, hands and piles."""
    view = reading.public(table)
    names = table.names
    post = Post(
        title=_("%(title)s — the whole table", title=table.title),
        colour=COLOUR,
        footer=_("Game #%(game)d · kkk", game=table.record.id),
    )
    post.fields = [(_(BOARD), board(view)), (_("Next deal"), _next_deal(view))]
    if view.round is not None:
        post.fields.append((_("The deal"), _round(view, names)))
        post.fields.append((_("What the space needs"), _requirements(view, names)))
        table_lines = _on_table(view, names)
        if table_lines:
            post.fields.append((_(ON_TABLE), table_lines))
        offers = _offers(view, names)
        if offers:
            post.fields.append((_(OFFERS), offers))
    if view.pending or (view.round is not None and view.round.last_call is not None):
        post.fields.append((_("Reaction window"), _window(table, view, names)))
    post.fields.append((_(INVESTORS), _investors(view, names)))
    post.fields.append((_("Players"), _players(view, names)))
    return fit(post)


BOARD = N_("Board")
ON_TABLE = N_("On the table")
OFFERS = N_("Offers")
INVESTORS = N_("Investors")


def board_line(view: PublicView) -> str:
    """The board in one line: where the dollar marker is and which spaces are done (the Details list all 16)."""
    if view.marker is not None:
        marker = "💲 " + _("Marker on space %(space)d", space=view.marker)
    else:
        marker = "💲 " + _("The marker isn't placed yet")
    done = [_("%(space)d (deal %(deal)d)", space=s.number, deal=s.tile) for s in view.spaces if s.tile is not None]
    if done:
        return f"{marker} · " + _("deals done on %(spaces)s", spaces=", ".join(done))
    return f"{marker} · " + _("no deal done yet")


def _offers_summary(view: PublicView, names: list[str]) -> str:
    """The offers in one line: each has its own message (with 🤝) and the Details list them."""
    r = view.round
    assert r is not None
    binding = [o for o in r.offers if o.status == "binding"]
    open_ = [o for o in r.offers if o.status in ("open", "shaken")]
    if not binding and not open_:
        return ""
    parts = []
    if binding:
        parts.append(
            "✅ " + _("%(n)d binding (%(amount)s)", n=len(binding), amount=money(sum(o.value for o in binding)))
        )
    if open_:
        waiting = sorted({names[s] for o in open_ for s in o.awaited})
        parts.append("⏳ " + _("%(n)d waiting for %(who)s's 🤝", n=len(open_), who=and_list(waiting)))
    return "🤝 " + _("Offers: %(offers)s", offers=" · ".join(parts))


def _hands(view: PublicView, names: list[str]) -> str:
    if view.hand_sizes is not None:
        seats = " · ".join(
            n_("%(who)s %(n)d card", "%(who)s %(n)d cards", n, who=names[s]) for s, n in enumerate(view.hand_sizes)
        )
    else:
        seats = " · ".join(names)
    return f"{seats}\n" + _(
        "Draw pile %(draw)d · discard pile %(discard)d", draw=view.draw_pile, discard=view.discard_pile
    )


EMBED_BUDGET = 5800
"""Discord refuses an embed over 6000 characters (and a refused status edit would hold up the table's messages)."""
DROPPABLE = (OFFERS, ON_TABLE, INVESTORS)


def embed_size(post: Post) -> int:
    fields = sum(len(name) + min(len(value), 1024) for name, value in post.fields[:25])
    return len(post.title or "") + min(len(post.description or ""), 4000) + len(post.footer or "") + fields


def fit(post: Post) -> Post:
    """Drop the least needed fields (each offer has its own message anyway) until the embed fits."""
    for name in DROPPABLE:
        if embed_size(post) <= EMBED_BUDGET:
            break
        post.fields = [f for f in post.fields if f[0] != _(name)]
    return post


def _headline(view: PublicView, names: list[str]) -> str:
    if _discarding(view):
        assert view.wait is not None
        who = f"**{names[view.wait.seats[0]]}**"
        return "✋ " + _(
            "%(who)s holds more than 12 cards: discard (`/kkk discard`) or play a recruitment triple first.", who=who
        )
    if view.phase == "place_marker":
        return "🎬 " + _(
            "%(placer)s places the dollar marker (`/kkk place`); %(starter)s starts.",
            placer=f"**{names[view.placer]}**",
            starter=f"**{names[view.turn]}**",
        )
    if view.phase == "turn":
        return "🎲 " + _(
            "%(who)s's turn: open the deal on space %(space)d (`/kkk open`) or roll (`/kkk roll`).",
            who=f"**{names[view.turn]}**",
            space=view.marker or 0,
        )
    if view.phase == "rolled":
        return "🎲 " + _(
            "%(who)s rolled %(face)d: open the deal on space %(space)d (`/kkk open`) or draw 3 cards (`/kkk draw`).",
            who=f"**{names[view.turn]}**",
            face=view.last_roll or 0,
            space=view.marker or 0,
        )
    assert view.round is not None
    return "🤝 " + _(
        "Deal on space %(space)d — the Boss is %(boss)s (and has the turn).",
        space=view.round.space,
        boss=f"**{names[view.round.boss]}**",
    )


def board(view: PublicView) -> str:
    """The 16 spaces, one a line: `$` marks the marker, done spaces show their tile."""
    lines = []
    for s in view.spaces:
        mark = "$" if view.marker == s.number else " "
        if s.tile is not None:
            lines.append(f"{mark}{s.number:>2}  " + _("[deal %(deal)d done]", deal=s.tile))
            continue
        need = " ".join(s.required)
        if s.group:
            block = "+" + _("%(k)d of %(group)s", k=s.group_k, group="/".join(s.group))
            need = f"{need} {block}" if need else block
        lines.append(f"{mark}{s.number:>2}  {need:<18} " + _("%(n)d div", n=s.dividends))
    return "```\n" + "\n".join(lines) + "\n```\n" + LEGEND + " · " + _("`$` dollar marker")


def _next_deal(view: PublicView) -> str:
    if view.tile is None:
        return _("All %(n)d deals are done.", n=view.deals)
    tile = view.tile
    text = _("Deal %(deal)d of 15: one dividend is worth **%(value)s**.", deal=tile.number, value=money(tile.value))
    if len(tile.end_faces) == 6:
        text += " " + _("After it, the game ends.")
    elif tile.end_faces:
        faces = ", ".join(map(str, tile.end_faces))
        text += " " + _("After it, the game ends on a die roll of %(faces)s.", faces=faces)
    return text


def _round(view: PublicView, names: list[str], *, compact: bool = False) -> str:
    """The deal's space, Boss, payout and promises; `compact` leaves out the space's families (the requirements
    below list each)."""
    r = view.round
    assert r is not None
    space = view.spaces[r.space - 1]
    need = families(space.required, ", ")
    if space.group:
        block = _("%(k)d of %(group)s", k=space.group_k, group=families(space.group))
        need = f"{need} + {block}" if need else block
    lines = [] if compact else [_("Space %(space)d: %(needs)s.", space=r.space, needs=need)]
    payout = _(
        "Boss %(boss)s · %(n)d dividends × %(value)s = **%(payout)s**",
        boss=f"**{names[r.boss]}**",
        n=r.dividends,
        value=money(r.dividend_value),
        payout=money(r.payout),
    )
    promised = _(
        "Promised %(promised)s · the Boss keeps %(keeps)s", promised=money(r.promised), keeps=money(r.boss_keeps)
    )
    lines += [f"{payout} · {promised}"] if compact else [payout, promised]
    if r.can_close:
        lines.append("✅ " + _("Covered: %(boss)s can close the deal (`/kkk close`).", boss=f"**{names[r.boss]}**"))
    return "\n".join(lines)


def _source(src: SourceView, boss: int, names: list[str]) -> str:
    if src.offer is None and src.seat == boss:
        return _("own investor") if src.card == "investor" else _("own clan card")
    if src.card == "investor":
        return _("%(who)s's investor (agreement #%(offer)d)", who=names[src.seat], offer=src.offer or 0)
    return _("%(who)s's clan card (agreement #%(offer)d)", who=names[src.seat], offer=src.offer or 0)


def _requirements(view: PublicView, names: list[str]) -> str:
    r = view.round
    assert r is not None
    lines = []
    group_head = False
    for req in r.requirements:
        if req.block == "group" and not group_head:
            group = [q.family for q in r.requirements if q.block == "group"]
            lines.append("*" + _("%(k)d of %(group)s", k=r.group_k, group=families(group)) + ":*")
            group_head = True
        lines.append(_requirement(req, r.boss, names))
    return "\n".join(lines)


def _requirement(req: RequirementView, boss: int, names: list[str]) -> str:
    name = family(req.family)
    if req.assigned is not None:
        return f"✅ {name} — {_source(req.assigned, boss, names)}"
    if req.sources:
        return f"➕ {name} — " + _("also at hand: %(source)s", source=_source(req.sources[0], boss, names))
    return f"❌ {name} — " + _("not covered")


def _on_table(view: PublicView, names: list[str]) -> str:
    r = view.round
    assert r is not None
    lines = [
        "🃏 "
        + n_(
            "%(who)s: %(families)s clan card",
            "%(who)s: %(families)s clan cards",
            len(fams),
            who=f"**{names[s]}**",
            families=", ".join(family(f) for f in fams),
        )
        for s, fams in enumerate(r.clans)
        if fams
    ]
    for fam in r.travel:
        lines.append("✈️ " + _("The %(family)s investor is on travel.", family=family(fam)))
    if r.always_pass:
        who = ", ".join(names[s] for s in r.always_pass)
        lines.append("💤 " + _("Passing on everything this round: %(who)s", who=who))
    return "\n".join(lines)


def _offers(view: PublicView, names: list[str]) -> str:
    r = view.round
    assert r is not None
    lines = []
    for o in r.offers:
        if o.status not in ("open", "shaken", "binding"):
            continue
        if o.family:
            what = _("%(family)s from %(who)s", family=family(o.family), who=names[o.seller])
        else:
            what = _("a share for %(who)s", who=names[o.seller])
        price = money(o.value) if o.unit == "money" else _("%(n)d div. (%(value)s)", n=o.price, value=money(o.value))
        if o.status == "binding":
            state = "✅ " + _("binding")
        else:
            state = _("waits for %(who)s's 🤝", who=and_list([names[s] for s in o.awaited]))
            if o.counters is not None:
                state += " " + _("(would replace #%(offer)d)", offer=o.counters)
        lines.append(f"#{o.id} " + _("%(what)s for %(price)s", what=what, price=price) + f" — {state}")
    return "\n".join(lines[-12:])


def _window(table: Table, view: PublicView, names: list[str], *, compact: bool = False) -> str:
    """The pending effects (`compact`: only when more than one — the wait's line names the one on top), a last
    call, when the window closes and who has passed."""
    lines = []
    for e in view.pending if not compact or len(view.pending) > 1 else []:
        lines.append(f"⏳ {describe_effect(e.kind, e.by, e.family, e.target, e.on, names)}")
    if view.round is not None and view.round.last_call is not None:
        r = view.round
        lines.append(
            "📣 "
            + _(
                "Last call by %(boss)s: pays %(promised)s, keeps %(keeps)s.",
                boss=f"**{names[r.boss]}**",
                promised=money(r.promised),
                keeps=money(r.boss_keeps),
            )
        )
    due = reading.reaction_deadline(table)
    tail = []
    if due is not None:
        # The window's one deadline line in the status (its "⏳" line leaves it here): how far off, and when.
        when = f"{timestamp(due)} ({timestamp(due, 'f')})"
        if compact:
            tail.append(_("Closes %(when)s.", when=when))
        else:
            tail.append(_("Closes %(when)s or when everyone else has passed.", when=when))
    if view.passed:
        tail.append(_("Passed: %(who)s", who=", ".join(names[s] for s in view.passed)))
    if compact:  # one line: the status fits one phone screen
        return "\n".join([*lines[:-1], " ".join(lines[-1:] + tail)]) if lines else " ".join(tail)
    return "\n".join(lines + tail)


def describe_effect(kind: str, by: int, fam: str | None, target: int | None, on: str | None, names: list[str]) -> str:
    return telling.effect(kind, by, fam, target, on, telling.bold(names))


def _investors(view: PublicView, names: list[str]) -> str:
    parts = []
    for inv in view.investors:
        owner = names[inv.owner] if inv.owner is not None else _("beside the board")
        parts.append(f"{family(inv.family)}: {owner}{' ✈️' if inv.on_travel else ''}")
    return " · ".join(parts)


def _players(view: PublicView, names: list[str]) -> str:
    if view.hand_sizes is not None:
        seats = " · ".join(
            n_("%(who)s %(n)d card", "%(who)s %(n)d cards", n, who=names[s]) for s, n in enumerate(view.hand_sizes)
        )
    else:
        seats = " · ".join(names)
    piles = _("Draw pile %(draw)d · discard pile %(discard)d", draw=view.draw_pile, discard=view.discard_pile)
    if view.last_roll is not None and view.phase in ("rolled",):
        piles += " · " + _("last roll %(face)d", face=view.last_roll)
    return f"{seats}\n{piles}\n" + _("Money stays private until the end (your own: `/game hand`).")


def _over(table: Table, view: PublicView, standings: Result, *, finished: bool) -> list[str]:
    names = table.names
    lines = ["🏁 " + _("**Game over.**") if finished else "🛑 " + _("**Game ended by a moderator.** Standings so far:")]
    if view.end_reason:
        lines.append("_" + telling.end_reason(view.end_reason, view.deals, view.end_roll) + "_")
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    for s in standings.standings:
        lines.append(f"{medals.get(s.rank, f'{s.rank}.')} **{names[s.seat]}** — {money(s.score)}")
    winners = standings.winners
    if finished and len(winners) > 1:
        lines.append(_("Equal money shares the win: %(who)s.", who=and_list([names[w] for w in winners])))
    return lines


def buttons(view: PublicView) -> list[Button]:
    """The moves of the moment; keys with a window number go stale (and are refused) once that window closes."""
    out = [Button(_("My hand"), "hand", "primary", "🂠")]
    wid = reading.window_id(view)
    if wid is not None:
        if view.pending:
            out += [Button(_("Pass"), f"pass:{wid}", "secondary"), Button(_("STOP"), f"stop:{wid}", "danger", "✋")]
        else:
            out += [
                Button(_("Let it go"), f"pass:{wid}", "success"),
                Button(_("Call off"), f"cancel:{wid}", "secondary"),
            ]
        return out
    if _discarding(view):
        return out
    if view.phase == "turn":
        out += [Button(_("Open the deal"), "open", "success"), Button(_("Roll"), "roll", "secondary", "🎲")]
    elif view.phase == "rolled":
        out += [Button(_("Open the deal"), "open", "success"), Button(_("Draw 3"), "draw", "secondary")]
    elif view.phase == "round" and view.round is not None:
        if view.round.can_close:
            out.append(Button(_("Close the deal"), "close", "success"))
        out.append(Button(_("Fail"), "fail", "danger"))
    return out


def _discarding(view: PublicView) -> bool:
    return view.wait is not None and view.wait.key.startswith("discard:")
