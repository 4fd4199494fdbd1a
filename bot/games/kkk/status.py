"""The table's one status message, rendered from the public view only.

It shows the 16 spaces with the dollar marker and the placed tiles, the next tile's dividend value, whose turn it is,
the Boss, the space's requirements and what covers each of them (own investor, clan card, binding agreement), cards
on the table, investors on travel, the pending effect and its deadline, hand sizes and pile sizes; at the end, the
standings with everyone's money. Its buttons cover the common moves of the moment (Open / Roll / Draw, Pass / STOP,
Close / Fail, Let it go / Call off); the engine refuses anyone they are not for, with the reason.
"""

from bot.games.kkk import reading
from bot.games.kkk.words import families, family, money
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
        title=table.title, colour=COLOUR, footer=f"Game #{table.record.id} · kkk · /kkk commands in this thread"
    )
    result = table.result
    if result is not None or table.record.status in ("finished", "abandoned"):
        standings = result or table.game.standings(table.state)  # type: ignore[arg-type]
        post.description = "\n".join([*_over(table, view, standings, finished=result is not None), board_line(view)])
        post.buttons = [DETAILS]
        return post
    lines: list[str] = []
    if table.record.status == "paused":
        lines.append("⏸️ **Paused by a moderator** — deadlines are on hold.")
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
    lines.append("Players: " + _hands(view, names).replace("\n", " · "))
    post.description = "\n".join(lines)
    post.buttons = [*buttons(view), DETAILS]
    return post


DETAILS = Button("Details", "details", "secondary", "📋")
"""The platform's Details button (`Presentation.status_details`): the full table, privately."""


def details_post(table: Table) -> Post:
    """Everything the table shows, in full: the 16 spaces with their requirements, the next deal, the deal with
    every requirement and offer, cards on the table, the window, every investor's owner, hands and piles."""
    view = reading.public(table)
    names = table.names
    post = Post(title=f"{table.title} — the whole table", colour=COLOUR, footer=f"Game #{table.record.id} · kkk")
    post.fields = [("Board", board(view)), ("Next deal", _next_deal(view))]
    if view.round is not None:
        post.fields.append(("The deal", _round(view, names)))
        post.fields.append(("What the space needs", _requirements(view, names)))
        table_lines = _on_table(view, names)
        if table_lines:
            post.fields.append(("On the table", table_lines))
        offers = _offers(view, names)
        if offers:
            post.fields.append(("Offers", offers))
    if view.pending or (view.round is not None and view.round.last_call is not None):
        post.fields.append(("Reaction window", _window(table, view, names)))
    post.fields.append(("Investors", _investors(view, names)))
    post.fields.append(("Players", _players(view, names)))
    return fit(post)


def board_line(view: PublicView) -> str:
    """The board in one line: where the dollar marker is and which spaces are done (the Details list all 16)."""
    marker = f"💲 Marker on space {view.marker}" if view.marker is not None else "💲 The marker isn't placed yet"
    done = [f"{s.number} (deal {s.tile})" for s in view.spaces if s.tile is not None]
    return f"{marker} · deals done on {', '.join(done)}" if done else f"{marker} · no deal done yet"


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
        parts.append(f"✅ {len(binding)} binding ({money(sum(o.value for o in binding))})")
    if open_:
        waiting = sorted({names[s] for o in open_ for s in o.awaited})
        parts.append(f"⏳ {len(open_)} waiting for {', '.join(waiting)}'s 🤝")
    return "🤝 Offers: " + " · ".join(parts)


def _hands(view: PublicView, names: list[str]) -> str:
    if view.hand_sizes is not None:
        seats = " · ".join(f"{names[s]} {n} card{'s' if n != 1 else ''}" for s, n in enumerate(view.hand_sizes))
    else:
        seats = " · ".join(names)
    return f"{seats}\nDraw pile {view.draw_pile} · discard pile {view.discard_pile}"


EMBED_BUDGET = 5800
"""Discord refuses an embed over 6000 characters (and a refused status edit would hold up the table's messages)."""
DROPPABLE = ("Offers", "On the table", "Investors")


def embed_size(post: Post) -> int:
    fields = sum(len(name) + min(len(value), 1024) for name, value in post.fields[:25])
    return len(post.title or "") + min(len(post.description or ""), 4000) + len(post.footer or "") + fields


def fit(post: Post) -> Post:
    """Drop the least needed fields (each offer has its own message anyway) until the embed fits."""
    for name in DROPPABLE:
        if embed_size(post) <= EMBED_BUDGET:
            break
        post.fields = [f for f in post.fields if f[0] != name]
    return post


def _headline(view: PublicView, names: list[str]) -> str:
    if _discarding(view):
        assert view.wait is not None
        who = names[view.wait.seats[0]]
        return f"✋ **{who}** holds more than 12 cards: discard (`/kkk discard`) or play a recruitment triple first."
    if view.phase == "place_marker":
        return f"🎬 **{names[view.placer]}** places the dollar marker (`/kkk place`); **{names[view.turn]}** starts."
    if view.phase == "turn":
        return (
            f"🎲 **{names[view.turn]}**'s turn: open the deal on space {view.marker} (`/kkk open`) or roll "
            "(`/kkk roll`)."
        )
    if view.phase == "rolled":
        return (
            f"🎲 **{names[view.turn]}** rolled {view.last_roll}: open the deal on space {view.marker} (`/kkk open`) "
            "or draw 3 cards (`/kkk draw`)."
        )
    assert view.round is not None
    return f"🤝 Deal on space {view.round.space} — the Boss is **{names[view.round.boss]}** (and has the turn)."


def board(view: PublicView) -> str:
    """The 16 spaces, one a line: `$` marks the marker, done spaces show their tile."""
    lines = []
    for s in view.spaces:
        mark = "$" if view.marker == s.number else " "
        if s.tile is not None:
            lines.append(f"{mark}{s.number:>2}  [deal {s.tile} done]")
            continue
        need = " ".join(s.required)
        if s.group:
            block = f"+{s.group_k} of {'/'.join(s.group)}"
            need = f"{need} {block}" if need else block
        lines.append(f"{mark}{s.number:>2}  {need:<18} {s.dividends} div")
    return "```\n" + "\n".join(lines) + "\n```\n" + LEGEND + " · `$` dollar marker"


def _next_deal(view: PublicView) -> str:
    if view.tile is None:
        return f"All {view.deals} deals are done."
    tile = view.tile
    text = f"Deal {tile.number} of 15: one dividend is worth **{money(tile.value)}**."
    if tile.end_faces:
        faces = "always" if len(tile.end_faces) == 6 else "on a die roll of " + ", ".join(map(str, tile.end_faces))
        text += f" After it, the game ends {faces}."
    return text


def _round(view: PublicView, names: list[str], *, compact: bool = False) -> str:
    """The deal's space, Boss, payout and promises; `compact` leaves out the space's families (the requirements
    below list each)."""
    r = view.round
    assert r is not None
    space = view.spaces[r.space - 1]
    need = families(space.required, ", ")
    if space.group:
        block = f"{space.group_k} of {families(space.group)}"
        need = f"{need} + {block}" if need else block
    lines = [] if compact else [f"Space {r.space}: {need}."]
    payout = f"Boss **{names[r.boss]}** · {r.dividends} dividends × {money(r.dividend_value)} = **{money(r.payout)}**"
    promised = f"Promised {money(r.promised)} · the Boss keeps {money(r.boss_keeps)}"
    lines += [f"{payout} · {promised}"] if compact else [payout, promised]
    if r.can_close:
        lines.append(f"✅ Covered: **{names[r.boss]}** can close the deal (`/kkk close`).")
    return "\n".join(lines)


def _source(src: SourceView, boss: int, names: list[str]) -> str:
    card = "investor" if src.card == "investor" else "clan card"
    if src.offer is None and src.seat == boss:
        return f"own {card}"
    return f"{names[src.seat]}'s {card} (agreement #{src.offer})"


def _requirements(view: PublicView, names: list[str]) -> str:
    r = view.round
    assert r is not None
    lines = []
    group_head = False
    for req in r.requirements:
        if req.block == "group" and not group_head:
            group = [q.family for q in r.requirements if q.block == "group"]
            lines.append(f"*{r.group_k} of {families(group)}:*")
            group_head = True
        lines.append(_requirement(req, r.boss, names))
    return "\n".join(lines)


def _requirement(req: RequirementView, boss: int, names: list[str]) -> str:
    name = family(req.family)
    if req.assigned is not None:
        return f"✅ {name} — {_source(req.assigned, boss, names)}"
    if req.sources:
        return f"➕ {name} — also at hand: {_source(req.sources[0], boss, names)}"
    return f"❌ {name} — not covered"


def _on_table(view: PublicView, names: list[str]) -> str:
    r = view.round
    assert r is not None
    lines = [
        f"🃏 **{names[s]}**: {', '.join(family(f) for f in fams)} clan card{'s' if len(fams) > 1 else ''}"
        for s, fams in enumerate(r.clans)
        if fams
    ]
    for fam in r.travel:
        lines.append(f"✈️ The {family(fam)} investor is on travel.")
    if r.always_pass:
        lines.append(f"💤 Passing on everything this round: {', '.join(names[s] for s in r.always_pass)}")
    return "\n".join(lines)


def _offers(view: PublicView, names: list[str]) -> str:
    r = view.round
    assert r is not None
    lines = []
    for o in r.offers:
        if o.status not in ("open", "shaken", "binding"):
            continue
        what = f"{family(o.family)} from {names[o.seller]}" if o.family else f"a share for {names[o.seller]}"
        price = money(o.value) if o.unit == "money" else f"{o.price} div. ({money(o.value)})"
        if o.status == "binding":
            state = "✅ binding"
        else:
            state = f"waits for {' and '.join(names[s] for s in o.awaited)}'s 🤝"
            if o.counters is not None:
                state += f" (would replace #{o.counters})"
        lines.append(f"#{o.id} {what} for {price} — {state}")
    return "\n".join(lines[-12:])


def _window(table: Table, view: PublicView, names: list[str], *, compact: bool = False) -> str:
    """The pending effects (`compact`: only when more than one — the wait's line names the one on top), a last
    call, when the window closes and who has passed."""
    lines = []
    for e in view.pending if not compact or len(view.pending) > 1 else []:
        lines.append(f"⏳ {describe_effect(e.kind, e.by, e.family, e.target, e.on, names)}")
    if view.round is not None and view.round.last_call is not None:
        r = view.round
        lines.append(f"📣 Last call by **{names[r.boss]}**: pays {money(r.promised)}, keeps {money(r.boss_keeps)}.")
    due = reading.reaction_deadline(table)
    tail = []
    if due is not None:
        # The window's one deadline line in the status (its "⏳" line leaves it here): how far off, and when.
        when = f"{timestamp(due)} ({timestamp(due, 'f')})"
        tail.append(f"Closes {when}." if compact else f"Closes {when} or when everyone else has passed.")
    if view.passed:
        tail.append("Passed: " + ", ".join(names[s] for s in view.passed))
    if compact:  # one line: the status fits one phone screen
        return "\n".join([*lines[:-1], " ".join(lines[-1:] + tail)]) if lines else " ".join(tail)
    return "\n".join(lines + tail)


def describe_effect(kind: str, by: int, fam: str | None, target: int | None, on: str | None, names: list[str]) -> str:
    if kind == "boss":
        return f"**{names[by]}**'s Boss card"
    if target is None:
        what = f"the {family(fam)} investor beside the board"
    else:
        what = f"**{names[target]}**'s {family(fam)} {'clan card' if on == 'clan' else 'investor'}"
    if kind == "travel":
        return f"**{names[by]}**'s travel card on {what}"
    return f"**{names[by]}**'s recruitment of {what}"


def _investors(view: PublicView, names: list[str]) -> str:
    parts = []
    for inv in view.investors:
        owner = names[inv.owner] if inv.owner is not None else "beside the board"
        parts.append(f"{family(inv.family)}: {owner}{' ✈️' if inv.on_travel else ''}")
    return " · ".join(parts)


def _players(view: PublicView, names: list[str]) -> str:
    if view.hand_sizes is not None:
        seats = " · ".join(f"{names[s]} {n} card{'s' if n != 1 else ''}" for s, n in enumerate(view.hand_sizes))
    else:
        seats = " · ".join(names)
    piles = f"Draw pile {view.draw_pile} · discard pile {view.discard_pile}"
    if view.last_roll is not None and view.phase in ("rolled",):
        piles += f" · last roll {view.last_roll}"
    return f"{seats}\n{piles}\nMoney stays private until the end (your own: `/game hand`)."


def _over(table: Table, view: PublicView, standings: Result, *, finished: bool) -> list[str]:
    names = table.names
    lines = ["🏁 **Game over.**" if finished else "🛑 **Game ended by a moderator.** Standings so far:"]
    if view.end_reason:
        lines.append(f"_{table.render(view.end_reason)}_")
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    for s in standings.standings:
        lines.append(f"{medals.get(s.rank, f'{s.rank}.')} **{names[s.seat]}** — {money(s.score)}")
    winners = standings.winners
    if finished and len(winners) > 1:
        lines.append("Equal money shares the win: " + " and ".join(names[w] for w in winners) + ".")
    return lines


def buttons(view: PublicView) -> list[Button]:
    """The moves of the moment; keys with a window number go stale (and are refused) once that window closes."""
    out = [Button("My hand", "hand", "primary", "🂠")]
    wid = reading.window_id(view)
    if wid is not None:
        if view.pending:
            out += [Button("Pass", f"pass:{wid}", "secondary"), Button("STOP", f"stop:{wid}", "danger", "✋")]
        else:
            out += [Button("Let it go", f"pass:{wid}", "success"), Button("Call off", f"cancel:{wid}", "secondary")]
        return out
    if _discarding(view):
        return out
    if view.phase == "turn":
        out += [Button("Open the deal", "open", "success"), Button("Roll", "roll", "secondary", "🎲")]
    elif view.phase == "rolled":
        out += [Button("Open the deal", "open", "success"), Button("Draw 3", "draw", "secondary")]
    elif view.phase == "round" and view.round is not None:
        if view.round.can_close:
            out.append(Button("Close the deal", "close", "success"))
        out.append(Button("Fail", "fail", "danger"))
    return out


def _discarding(view: PublicView) -> bool:
    return view.wait is not None and view.wait.key.startswith("discard:")
