"""The outbox rows the platform writes with a commit, and what each kind means to the notifier.

Rows describe intent, not finished messages: the status message and the hands are rendered from the game's current
state when they are delivered (so coalescing several rows into one edit is always right), narration from the events
stored in the row. Kinds:

- `post`: narration in the table thread: plain texts to lead with (`intro`), public events, plain texts (with seat
  references), the awaited seats to mention with their deadlines (not `actor`, the seat whose action it narrates:
  see `bot.awaiting`; nor the seats `elsewhere`, whose players chose DMs or the digest: see `bot.routing`), and the
  final standings when the game ended (`result`).
- `tracked`: the game's own tracked messages for these public events (`Presentation.event_posts`, e.g. one message
  per offer with 🤝 on it), each posted once and then edited in place through its message reference; and its live
  ones (`Presentation.live_posts`), edited to match the current state if they were posted. Written with every
  commit after which either hook has something (a change without events, such as an undo, has no event posts).
- `status`: bring the one status message up to date (post it the first time).
- `hand`: bring one seat's hand DM up to date, with its buttons (post it the first time); `notes` are that seat's
  private events. `retry_dm` tries the DM even for a seat whose DMs were found closed (`/game dms`). `prompt`: the
  seat is newly awaited for a decision made on its hand, so the hand is sent again as a new DM (the old one
  deleted) that says so — a DM notifies, an edit doesn't — and the thread names the seat without a mention.
- `dm`: a new direct message to a seat's player (a prompt or a reminder, for a player who chose DMs): the wait it is
  about (`bot.routing`), worded at delivery — in the DM, or in the thread mentioning them should their DMs be
  closed. (Rows of older databases carry the finished `text` and `fallback` instead.) A `post` row may carry a
  `reminder` (a wait) the same way: worded at delivery, mentioning the `ping` seats.
- `retire`: a player who lost their seat (a substitution) is told so in their old hand DM, which loses the hand.
- `lobby`: bring the lobby message up to date; `welcome`: the first DM to a player who joined the lobby (it later
  becomes their hand message).

Every row a commit writes carries a `guard` in its payload: a Discord message id (snowflake) from a few seconds
before the commit, the bound of any later look for what it sent (`bot.notifier`), and `marked`
(`ATTEMPTS_MARKED`): the process that committed it marks it in flight in the database before its first attempt, in
one write for all the rows of a delivery pass (`Sender.attempting`), not one per send, and one that does not wait for
the disk (`store.outbox.mark_in_flight`: it must outlast the process, not the machine). Read back after a crash with
that mark, it may have been sent: the notifier looks among the messages posted since its guard before sending it
again. Read back without it, it was never tried, so nothing of it can be on Discord: it is sent without a look (the
start-up catch-up reads no thread for it). A row of an older version (a guard, no `marked`) is always looked for.
"""

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

import discord.utils

from bot.awaiting import wait_data
from engine.events import Event, Wait
from storage.models import NewOutbox, OutboxRecord

POST = "post"
TRACKED = "tracked"
STATUS = "status"
HAND = "hand"
DM = "dm"
LOBBY = "lobby"
WELCOME = "welcome"
RETIRE = "retire"
GUARD = "guard"
ATTEMPTS_MARKED = "marked"
"""In a guarded row's payload: its attempts are marked in the database before they are made (see above)."""
IN_HAND = "in_hand"
"""A narration's awaited seats prompted in their hand DM (`bot.service.commit.in_hand_prompts`)."""
ELSEWHERE = "elsewhere"


def never_attempted(row: OutboxRecord) -> bool:
    """A row read back that no process ever tried to deliver: committed with `ATTEMPTS_MARKED` and never marked in
    flight (nor failed) since. Nothing of it can be on Discord."""
    return bool(row.payload.get(ATTEMPTS_MARKED)) and not row.last_error


def discord_guard(now: datetime) -> int:
    """The guard of rows committed at `now` (see the module docstring)."""
    return discord.utils.time_snowflake(now - timedelta(seconds=5))


def post(
    *,
    events: Sequence[Event] = (),
    texts: Sequence[str] = (),
    awaits: Sequence[tuple[Wait, datetime]] = (),
    result: bool = False,
    intro: Sequence[str] = (),
    actor: int | None = None,
    ping: Sequence[int] = (),
    in_hand: Sequence[int] = (),
    guard: int | None = None,
    elsewhere: Sequence[Sequence[int]] = (),
    hush: Sequence[int] = (),
) -> NewOutbox | None:
    public = [e.model_dump(mode="json") for e in events if e.public]
    waiting = [wait_data(w, due) for w, due in awaits]
    for wait, reached in zip(waiting, elsewhere, strict=False):
        if reached:
            wait[ELSEWHERE] = list(reached)  # reached by DM or the digest (`bot.routing`): named, not mentioned
    if not (public or texts or waiting or result or intro):
        return None
    payload: dict[str, Any] = {"events": public, "texts": list(texts), "awaits": waiting, "result": result}
    if intro:
        payload["intro"] = list(intro)
    if actor is not None:
        payload["actor"] = actor  # the awaits' lines name them without a ping
    if ping:
        payload["ping"] = list(ping)  # seats whose references in `texts` are mentions
    hushed = [s for s in hush if result or any(s in w["seats"] for w in waiting)]
    if hushed:
        # In their quiet hours: named without a ping (if awaited, a `wake` reminder pings them when they end).
        payload["hush"] = hushed
    if in_hand:
        payload[IN_HAND] = list(in_hand)  # awaited seats prompted in their hand DM: named, not mentioned
    return _row(POST, {"to": "thread"}, payload, guard)


def tracked(events: Sequence[Event], *, guard: int | None = None) -> NewOutbox:
    public = [e.model_dump(mode="json") for e in events if e.public]
    return _row(TRACKED, {"to": "thread"}, {"events": public}, guard)


def status(*, guard: int | None = None) -> NewOutbox:
    return _row(STATUS, {"to": "thread"}, {}, guard)


def hand(
    seat: int,
    notes: Iterable[str | dict[str, Any]] = (),
    *,
    retry_dm: bool = False,
    prompt: dict[str, Any] | None = None,
    guard: int | None = None,
) -> NewOutbox:
    """`prompt` (`bot.awaiting.wait_data`: seats, what, about, kind, deadline): the seat is newly awaited for a
    decision it makes on its hand, and the hand comes down to it as a new DM saying so (see
    `Presentation.prompt_in_hand`)."""
    payload: dict[str, Any] = {"seat": seat, "notes": list(notes)}
    if retry_dm:
        payload["retry_dm"] = True
    if prompt is not None:
        payload["prompt"] = prompt
    return _row(HAND, {"seat": seat}, payload, guard)


def guarded(item: NewOutbox, guard: int) -> NewOutbox:
    """The row with the commit's `guard` in its payload (last)."""
    return item.model_copy(update={"payload": {**item.payload, GUARD: guard, ATTEMPTS_MARKED: 1}})


def _row(kind: str, target: dict[str, Any], payload: dict[str, Any], guard: int | None) -> NewOutbox:
    """A row of the builders above; `guard`: the commit's guard, put in its payload (last) when it is built, so that
    a commit does not encode the row a second time to add it (`guarded`)."""
    if guard is not None:
        payload[GUARD] = guard
        payload[ATTEMPTS_MARKED] = 1
    return NewOutbox(kind=kind, target=target, payload=payload)


def retire(user_id: int, text: str, hand: tuple[int, int] | None) -> NewOutbox:
    """Tell a player who no longer holds their seat (a moderator's substitution): their hand DM (`hand`: its channel
    and message id) becomes `text`, without the hand; a new DM if it is gone."""
    payload: dict[str, Any] = {"user_id": user_id, "text": text}
    if hand is not None:
        payload["hand"] = list(hand)
    return NewOutbox(kind=RETIRE, target={"user": user_id}, payload=payload)


def dm(seat: int, text: str) -> NewOutbox:
    return NewOutbox(kind=DM, target={"seat": seat}, payload={"seat": seat, "text": text})


def lobby(*, guard: int | None = None) -> NewOutbox:
    return _row(LOBBY, {"to": "lobby"}, {}, guard)


def welcome(user_id: int) -> NewOutbox:
    return NewOutbox(kind=WELCOME, target={"user_id": user_id}, payload={"user_id": user_id})


def private_notes(events: Sequence[Event], seat: int) -> list[dict[str, Any]]:
    """The seat's private events, kept as they are: the hand DM words them when it is sent, in its reader's language
    (`Presentation.private_line`). Rows of an older database carry finished text instead."""
    return [e.model_dump(mode="json") for e in events if e.to is not None and seat in e.to]
