"""One short line of narration per public event, in the table thread.

The engine's events carry codes and values; `telling` words each in the language being spoken, and this module
shortens the few that have a message of their own (an offer, a pending card, a last call: the tracked posts of
`posts` carry their details and buttons) and drops events that are only for renderers. Private events never reach
here: the platform passes public events only, and each player's private notes go to their own DM.
"""

from bot.games.kkk import reading, telling
from bot.games.kkk.i18n import _
from bot.games.kkk.words import family
from bot.presentation import Aside, Table
from engine.events import Event

SILENT = {"offers_ended", "discarded_played", "unshaken", "offer_replaced", "turn", "passed", "shaken", "agreement"}
SILENT |= {"withdrawn"}
"""Events said elsewhere: an offer's own message shows half-shakes, unshakes and replacements (edited in place); the
status message shows who has passed in a reaction window or on a last call; a new turn is announced by the
platform's "⏳ @player … (deadline …)" line, which mentions the player; a withdrawn offer's message says so."""

ICONS = {"round_opened": "🤝 ", "deal_closed": "✅ ", "deal_failed": "💥 ", "game_over": "🏁 ", "payout": "🏦 "}
ICONS |= {"paid": "💸 ", "boss_keeps": "💼 ", "tile_placed": "🧱 ", "end_roll": "🎲 ", "rolled": "🎲 "}
ICONS |= {"pending_discarded": "🗑️ "}


ASIDES = {"clan_played", "always_pass", "always_pass_off", "on_travel", "clan_travelled", "recruited", "stopped"}
ASIDES |= {"last_call_cancelled"}
"""Events shown elsewhere, said only as an `Aside`: the status shows the cards on the table and who passes on
everything; a window's own message, edited when it closes, says how it ended (a travel, a recruitment, a STOP)."""


def event_line(table: Table, event: Event) -> str | None:
    if event.kind in SILENT:
        return None
    who = telling.plain(table.names)
    text = telling.sentence(event, who)
    if not text:
        return None
    if event.kind in ASIDES:
        return Aside(text)
    if event.kind == "offer":
        text = "💬 " + text
    elif event.kind == "offer_reopened":
        text = "↪️ " + _(
            "Agreement #%(offer)d reopens as an offer to the new Boss %(boss)s: both shake 🤝 again.",
            offer=int(event.data["offer"]),  # type: ignore[arg-type]
            boss=who(int(event.data["boss"])),  # type: ignore[arg-type]
        )
    elif event.kind == "last_call":
        boss = who(int(event.data["boss"]))  # type: ignore[arg-type]
        text = "📣 " + _("Last call: %(who)s closes the deal — let it go or play a card.", who=boss)
    elif event.kind == "round_opened":
        return ICONS[event.kind] + text + _needed_owners(table, event)
    elif event.kind in ICONS:
        # A game over says why (everyone's final money is the standings just below it, issue 26).
        text = ICONS[event.kind] + text
    return text


def _needed_owners(table: Table, event: Event) -> str:
    """The players whose investors the opened space needs (the Boss excepted): they are the ones the Boss will want
    to bargain with. Named, not mentioned: opening the deal hands the wait to nobody new (the Boss goes on), so it
    is told by an edit of the thread's newest message; each of them is mentioned when the Boss makes them an offer
    (its own message), the news they must act on (issue 26)."""
    view = reading.public(table)
    number, boss = event.data.get("space"), event.data.get("boss")
    space = next((s for s in view.spaces if s.number == number), None)
    if space is None:
        return ""
    needed = set(space.required) | set(space.group)
    owners: dict[int, list[str]] = {}
    for inv in view.investors:
        if inv.family in needed and inv.owner is not None and inv.owner != boss:
            owners.setdefault(inv.owner, []).append(family(inv.family))
    if not owners:
        return ""
    who = ", ".join(f"**{table.names[s]}** ({', '.join(fams)})" for s, fams in sorted(owners.items()))
    return "\n👥 " + _("Investors it needs: %(who)s.", who=who)
