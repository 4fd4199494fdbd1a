"""One short line of narration per public event, in the table thread.

The engine's texts are already written for the table (with seat references); this module only shortens the few
that have a message of their own (an offer, a pending card, a last call: the tracked posts of `posts` carry their
details and buttons) and drops events that are only for renderers. Private events never reach here: the platform
passes public events only, and each player's private notes go to their own DM.
"""

from bot.presentation import Table
from engine.events import Event
from engine.text import seat

SILENT = {"offers_ended", "discarded_played", "unshaken", "offer_replaced", "turn"}
"""Events said elsewhere: an offer's own message shows unshakes and replacements; a new turn is announced by the
platform's "⏳ @player — … (deadline …)" line, which mentions the player."""

ICONS = {"round_opened": "🤝 ", "deal_closed": "✅ ", "deal_failed": "💥 ", "game_over": "🏁 ", "payout": "🏦 "}
ICONS |= {"paid": "💸 ", "boss_keeps": "💼 ", "tile_placed": "🧱 ", "end_roll": "🎲 ", "rolled": "🎲 "}
ICONS |= {"pending_discarded": "🗑️ "}


def event_line(table: Table, event: Event) -> str | None:
    if event.kind in SILENT or not event.text:
        return None
    text = event.text
    if event.kind == "pending":
        text = text.split(" Anyone may STOP", 1)[0]
    elif event.kind == "offer":
        text = "💬 " + text
    elif event.kind == "offer_reopened":
        boss = seat(int(event.data["boss"]))  # type: ignore[arg-type]
        text = f"↪️ Agreement #{event.data['offer']} reopens as an offer to the new Boss {boss}: both shake 🤝 again."
    elif event.kind == "last_call":
        boss = event.text.split(" closes the deal", 1)[0].removeprefix("Last call! ")
        text = f"📣 Last call: {boss} closes the deal — let it go or play a card."
    elif event.kind in ICONS:
        text = ICONS[event.kind] + text
    return table.render(text)
