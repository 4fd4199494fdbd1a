"""Delivers outbox rows to Discord: narration into the table thread, the one status message and the one hand DM per
player edited in place, reminders, the lobby message. Each delivery pass marks its rows delivered in one transaction;
a move's rows are queued by its commit and delivered behind its answer (see `bot.notifier.delivery`). How the parts
fit together (a queue, and collaborators for posts, the status and hands): `bot.notifier.notifier`.

Exactly once, across crashes. Edits (status, hand, lobby) are idempotent: they are rendered from the game's current
state, so delivering one twice is harmless and several pending ones collapse into one edit. A new message (a post,
a first status or hand message, a DM) is not idempotent, so before sending it the row is marked "in flight"
(`mark_failed(IN_FLIGHT)`; the rows a process committed are marked in flight together, in one write per delivery
pass, before the first of them is tried: `Sender.attempting`, `bot.outbox`), and the message is sent with a nonce
derived from the row (Discord drops a repeated nonce for a few minutes). If the process dies between sending and
marking, the next delivery of that row finds the in-flight mark and first looks at the channel's messages since the
row was written (a row of an older version without the mark: since its guard); a row read back without the mark was
never tried, so it is sent at once, without a look (the start-up catch-up reads no thread for it). In a look, a
message of the bot with the same signature (its text, or for embeds its title and footer) is taken as the delivery
instead of sending again. The one way to post twice is a crash in the instant between Discord accepting a message
and the bot getting the answer, followed by someone editing that message before the restart; we accept that.

Discord errors never touch game state (it is committed before anything is delivered). A closed DM marks the seat
`dm_ok=false` and tells the thread once; other errors are logged, reported once per game and problem to the game's
creator (by DM, else in the lobby channel), recorded on the row and retried later with back-off. A failing thread
row stops that game's delivery until the retry, so narration never comes out of order.

An interaction that is not yet answered may be handed in as a `Carrier`: one of this action's rows is then
delivered as the interaction's response (a narration as the reply in the thread, or the status/lobby/hand message
edited by the button that was clicked), which saves a REST call per action. A `private` carrier (a click on a hand
DM or an ephemeral message) never carries the public narration.

A command lends its token to its move's later messages (`bot.notifier.tokens`): a narration its answer could not
carry (an earlier move of the game still being delivered) follows, in order, as the command's follow-up, and a
message a command made is edited with its token while the token lives (15 minutes) — calls outside Discord's global
limit of 50 a second, which is what makes deliveries queue under load. Anything a token can't do, the bot does.

A narration longer than one Discord message (2000 characters; e.g. the end of a big game: every payout, then the
standings) is split at line breaks into several messages, never cut. The parts share their row's exactly-once
guard: the row is marked in flight once, before the first part (a retry keeps the first attempt's mark), and a
retry posts only the parts it doesn't find among the bot's messages since that mark; a part that fails after
others went out leaves the row in flight, not merely failed, for the same reason.

A new tracked post marked `replaces_narration` (e.g. an offer's own message, a reaction window's announcement) is
posted in place of its action's narration message: one message with the post and, below it, the narration's own
lines (who is awaited, with mentions — a mention pings only in a new message); when the action came with an
interaction, that message is the reply, and its id (the response returns it) becomes the tracked reference, stored
with the narration row's delivery. Reply + post would be two calls; this is one.

Hand messages carry the hand's buttons (`Presentation.private_view(...).buttons`, as persistent `GameButton`s; an
empty view when there are none, which clears old ones). Tracked messages are edited only when what they show
changed since this process last sent them (`Sender.shown`), so refreshing `live_posts` after every commit is free when
nothing changed; after a restart the first refresh edits once.
"""

from bot.notifier.hands import hand_post
from bot.notifier.notifier import Notifier
from bot.notifier.posts import split_lines
from bot.notifier.sending import IN_FLIGHT, MAX_ATTEMPTS, MENTIONS, Carrier, DeliveryStop, FlushReport

__all__ = [
    "IN_FLIGHT",
    "MAX_ATTEMPTS",
    "MENTIONS",
    "Carrier",
    "DeliveryStop",
    "FlushReport",
    "Notifier",
    "hand_post",
    "split_lines",
]
