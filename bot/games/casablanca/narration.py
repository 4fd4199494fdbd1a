"""The table's narration in words: one line per event, from its `kind` and `data` alone (the engine speaks no
language), in the language being spoken.

`event_words` words every event the engine emits, public and private; the presentation chooses which of them the
thread hears (`CasablancaPresentation.event_line`)."""

from collections.abc import Sequence
from typing import Any

from bot.presentation import Table
from engine.casablanca.state import Announcement, Auction
from engine.casablanca.views import PublicView
from engine.events import Event

from .i18n import _, and_list, n_
from .maptext import in_words, money, place, said


def agent_name(view: PublicView, agent: Any) -> str:
    return view.agents[agent].name if isinstance(agent, int) and 0 <= agent < len(view.agents) else "?"


def claims_words(auction: Auction, active: int, names: Sequence[str], separator: str) -> list[str]:
    """An auction's claims as a live table hears them: "Bert $100", "Anna matches", … (the middle as "…")."""
    words = []
    for seat, word, amount in auction.claims(active):
        who = names[seat]
        if word == "claim":
            words.append(f"{who} {money(amount)}")
        elif word == "match":
            words.append(_("%(player)s matches", player=who))
        else:
            words.append(_("%(player)s passes", player=who))
    if len(words) > 8:
        words = [*words[:4], "…", *words[-4:]]
    return words


def auction_words(view: PublicView, auction: Auction, active: int, agent: int, names: Sequence[str]) -> str:
    """One auction's outcome in a sentence (the narration's; the announcement post has its own compact line)."""
    name = agent_name(view, agent)
    if auction.ending == "withdrawn":
        return _(
            "%(player)s withdrew before %(objector)s's objection — it stands.",
            player=names[active],
            objector=names[auction.objector],
        )
    if auction.ending == "no_opening":
        # A live table hears only a pass: nothing says whether the objector had no money on the agent or bluffed.
        return _(
            "%(objector)s passes without a claim on %(agent)s — the objection fails.",
            objector=names[auction.objector],
            agent=name,
        )
    claims = ", ".join(claims_words(auction, active, names, ", "))
    if auction.succeeded:
        return _("Claims on %(agent)s: %(claims)s — the objection succeeds.", agent=name, claims=claims)
    return _("Claims on %(agent)s: %(claims)s — the objection fails.", agent=name, claims=claims)


def announcement_of(data: dict[str, Any]) -> Announcement:
    """The announcement an `announced` event names."""
    return Announcement(
        no=data.get("no", 0),
        kind=data.get("what", "move"),
        seat=data.get("seat", 0),
        agent=data.get("agent", 0),
        source=data.get("source", ""),
        to=data.get("to"),
        suitcase=bool(data.get("suitcase")),
        victim=data.get("victim"),
        behind=bool(data.get("behind")),
    )


def end_words(view: PublicView, data: dict[str, Any], names: Sequence[str]) -> str:
    """How the game ended (`won`'s `reason`), as a sentence."""
    mover = agent_name(view, data.get("mover"))
    where = in_words(str(data.get("where") or "?"))
    winners = [names[s] for s in data.get("winners", [])]
    match data.get("reason"):
        case "hq":
            first = winners[0] if winners else "?"
            return _("%(player)s brought the suitcase into their HQ, %(building)s.", player=first, building=where)
        case "last_agent":
            return _("%(agent)s is the last agent left and can no longer end the game.", agent=mover)
    return _("%(agent)s brought the suitcase home to %(building)s.", agent=mover, building=where)


def sheet_words(view: PublicView, bribes: Sequence[Sequence[int]], names: Sequence[str]) -> list[str]:
    out = []
    for seat, row in enumerate(bribes):
        if seat >= len(names):
            continue
        spent = ", ".join(f"{agent_name(view, a)} {money(v)}" for a, v in enumerate(row) if v) or _("nothing")
        out.append(f"{names[seat]}: {spent}")
    return out


def event_words(table: Table, view: PublicView, event: Event) -> str | None:
    """`event` in words (None: a kind this game doesn't emit)."""
    d: dict[str, Any] = dict(event.data)
    names = table.names

    def who(key: str = "seat") -> str:
        seat = d.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    match event.kind:
        case "turn" if d.get("begins") and d.get("variant"):
            return _("%(player)s begins: move an agent, bribe one agent, or hit.", player=who())
        case "turn" if d.get("begins"):
            return _("%(player)s begins: bribe at least three agents.", player=who())
        case "turn" if d.get("first"):
            return _(
                "%(player)s, it's your first turn: bribe at least three agents (nothing else this turn).", player=who()
            )
        case "turn" if d.get("variant"):
            return _("%(player)s, it's your turn: move an agent, bribe one agent, or hit.", player=who())
        case "turn":
            return _("%(player)s, it's your turn: bribe, move an agent, or hit.", player=who())
        case "bribed" if d.get("by_default"):
            return _("Time's up: %(player)s bribed (the default for a first turn).", player=who())
        case "bribed":
            return _("%(player)s bribed.", player=who())
        case "your_bribe":
            amounts = d.get("amounts") or {}
            spent = and_list(
                [
                    _("%(amount)s on %(agent)s", amount=money(v), agent=agent_name(view, int(a)))
                    for a, v in amounts.items()
                ]
            )
            capital = money(d.get("capital", 0))
            if d.get("by_default"):
                return _("Time ran out, so you put %(spent)s. Capital left: %(capital)s.", spent=spent, capital=capital)
            return _("You put %(spent)s. Capital left: %(capital)s.", spent=spent, capital=capital)
        case "announced":
            return _("%(player)s announces: %(what)s.", player=who(), what=said(view, announcement_of(d)))
        case "no_window":
            return _("Nobody can object (every other sheet lies face down).")
        case "object_now":
            return _("%(players)s: do you object?", players=and_list([names[s] for s in d.get("seats", [])]))
        case "answered":
            return _("%(player)s has answered.", player=who())
        case "your_objection" if d.get("dropped"):
            return _("You drop your objection.")
        case "your_objection" if d.get("limit") is not None:
            return _(
                "You object, with a limit of %(limit)s on %(agent)s.",
                limit=money(d["limit"]),
                agent=agent_name(view, d.get("agent")),
            )
        case "your_objection":
            return _("No objection from you.")
        case "your_limit":
            return _("Your limit is now %(limit)s.", limit=money(d.get("limit", 0)))
        case "window_closed":
            objectors = [names[s] for s in d.get("objectors", [])]
            if not objectors:
                return _("No objections.")
            return n_(
                "Objection from %(players)s.",
                "Objections from %(players)s.",
                len(objectors),
                players=and_list(objectors),
            )
        case "objection_dropped":
            return _("%(player)s dropped their objection.", player=who())
        case "contest_now":
            return _(
                "%(player)s: %(objector)s objects — contest (give your limit on %(agent)s) or withdraw?",
                player=who(),
                objector=who("objector"),
                agent=agent_name(view, d.get("agent")),
            )
        case "auction":
            active = d.get("active", 0)
            auction = Auction(objector=d.get("objector", 0), ending=d.get("ending", "no_opening"), top=d.get("top", 0))
            outcome = auction_words(view, auction, active, d.get("agent", 0), names)
            if d.get("by_default"):
                return _("Time's up: %(player)s contests. %(outcome)s", player=who("active"), outcome=outcome)
            return _("%(player)s contests. %(outcome)s", player=who("active"), outcome=outcome)
        case "withdrawn":
            return _(
                "%(player)s withdraws the announcement (%(agent)s): %(objector)s's objection stands.",
                player=who(),
                agent=agent_name(view, d.get("agent")),
                objector=who("objector"),
            )
        case "undone" if d.get("how") == "turn_over":
            return _("Nothing of it happens: %(player)s's turn is over.", player=who())
        case "undone" if d.get("how") == "off":
            return _("Their announcement is off: nothing of it happens.")
        case "undone":
            return _(
                "Nothing of it happens. %(player)s, announce another move or hit, or end your turn (no more bribing).",
                player=who(),
            )
        case "face_down":
            return _(
                "%(player)s lost the objection: their sheet lies face down and they lose their next turn.",
                player=who(),
            )
        case "sheet_up":
            return _("%(player)s turns their sheet back up — that is their whole turn.", player=who())
        case "moved" if d.get("suitcase"):
            return _(
                "%(agent)s moves to %(building)s with the suitcase.",
                agent=agent_name(view, d.get("agent")),
                building=in_words(str(d.get("to"))),
            )
        case "moved":
            return _(
                "%(agent)s moves to %(building)s.",
                agent=agent_name(view, d.get("agent")),
                building=in_words(str(d.get("to"))),
            )
        case "hit":
            victim = agent_name(view, d.get("victim"))
            sheet = and_list([f"{names[s]} {money(a)}" for s, a in enumerate(d.get("amounts", [])) if s < len(names)])
            line = _(
                "%(hitter)s hits %(victim)s, who is out of the game (%(player)s pays %(cost)s of their bribe on "
                "%(hitter)s). Bribes on %(victim)s, now lost: %(sheet)s.",
                hitter=agent_name(view, d.get("hitter")),
                victim=victim,
                player=who(),
                cost=money(d.get("cost", 1_000)),
                sheet=sheet,
            )
            if d.get("dropped"):
                line += " " + _("The suitcase stays in %(building)s.", building=in_words(str(d.get("where"))))
            return line
        case "won":
            reason = end_words(view, d, names)
            players = and_list([names[s] for s in d.get("winners", []) if s < len(names)])
            count = len(d.get("winners", []))
            if d.get("agent") is None:
                return (
                    reason
                    + " "
                    + n_("%(players)s wins Casablanca!", "%(players)s win Casablanca!", count, players=players)
                )
            most = n_(
                "Most money on %(agent)s: %(players)s with %(amount)s — %(players)s wins Casablanca!",
                "Most money on %(agent)s: %(players)s with %(amount)s — %(players)s share the win!",
                count,
                agent=agent_name(view, d.get("agent")),
                players=players,
                amount=money(d.get("amount") or 0),
            )
            return f"{reason} {most}"
        case "sheets":
            return _("All bribe sheets: %(sheets)s.", sheets=" · ".join(sheet_words(view, d.get("bribes", []), names)))
        case "timeout" if d.get("what") == "hq":
            return _("Time's up: %(player)s gets an HQ at random.", player=who())
        case "timeout":
            return _("Time's up: %(player)s's turn passes.", player=who())
        case "left":
            line = _(
                "%(player)s has left the game: their bribes stay on the agents and count for nobody.", player=who()
            )
            if d.get("hq"):
                line += " " + _("%(building)s is an ordinary building now.", building=place(str(d["hq"])))
            return line
        case "hq" if d.get("dealt"):
            return _("%(player)s gets %(building)s as their HQ.", player=who(), building=in_words(str(d.get("hq"))))
        case "hq":
            return _("%(player)s takes %(building)s as their HQ.", player=who(), building=in_words(str(d.get("hq"))))
        case "choose_hq":
            return _("%(player)s, choose your HQ.", player=who())
        case "hqs":
            owners = sorted((d.get("owners") or {}).items(), key=lambda i: i[1])
            listed = ", ".join(f"{names[s]} {place(hq)}" for hq, s in owners if s < len(names))
            return _("HQs dealt: %(owners)s.", owners=listed)
        case "turn_ended":
            return _("%(player)s ends their turn.", player=who())
    return None
