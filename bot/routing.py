"""Where a prompt or a reminder reaches each awaited player: the thread, a DM, or only the daily digest
(`/me notify`), and the cache of those choices that the move path reads.

The rule, the same for prompts (a wait announced after a move) and reminders:

- `thread` (the default): the player is mentioned in the table's thread, as before;
- `dm`: the player is named in the thread without a ping, and gets a DM with what the table waits for, its deadline
  and a link to the table. A seat whose DMs are known to be closed is pinged in the thread instead, and a DM that
  turns out to be closed at delivery falls back to a ping in the thread (`bot.notifier.hands`): no prompt is lost
  because of a setting;
- `digest`: the player is named in the thread without a ping and hears of it in their daily digest (`bot.digest`);
  the thread's status shows the wait as for everyone.

A seat played by the autopilot or a computer player needs no prompt: it is routed to the thread, where it is named,
never pinged (`Table.mention`). Which seats are awaited, and by when, never depends on anyone's choice here: only
where each awaited player hears of it.

The choices are per person and change only through `/me`, in this process: `Deliveries` keeps the ones read so
far, so a move reads none of them after the first (one read for all the players it lacks).
"""

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from bot import outbox
from bot.awaiting import own_words, prompt_words, wait_data
from bot.i18n.platform import _
from bot.kept import KeptPerPerson
from bot.table import timestamp
from engine.events import Wait
from storage import GameRecord, GameStore, NewOutbox, NotifyMode, PlayerDelivery, SeatRecord

if TYPE_CHECKING:
    from bot.table import Table

Route = Literal["thread", "dm", "digest"]


def route(seat: int, seats: Sequence[SeatRecord], modes: Mapping[int, NotifyMode]) -> Route:
    """Where the player of `seat` hears of a prompt or a reminder (see the module docstring)."""
    held = next((s for s in seats if s.seat == seat), None)
    if held is None or held.player_id is None or held.autopilot or held.bot:
        return "thread"
    mode = modes.get(held.player_id, "thread")
    if mode == "dm":
        return "thread" if held.dm_ok is False else "dm"
    return mode


def routes(awaited: Sequence[int], seats: Sequence[SeatRecord], modes: Mapping[int, NotifyMode]) -> dict[int, Route]:
    return {s: route(s, seats, modes) for s in awaited}


def jump_link(guild_id: int | None, channel_id: int | None, message_id: int | None = None) -> str | None:
    """A link that opens the table's thread (or one of its messages) from anywhere, a DM included."""
    if channel_id is None:
        return None
    where = f"https://discord.com/channels/{guild_id if guild_id is not None else '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id is not None else where


class Deliveries:
    """Each person's delivery choices as read or set so far (`store.settings.deliveries`, `put_delivery`)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._kept = KeptPerPerson[PlayerDelivery](store.settings.deliveries)

    async def of(self, player_ids: Collection[int]) -> dict[int, PlayerDelivery]:
        known = await self._kept.of(player_ids)
        # The store answers for everyone asked (the defaults for those who never chose).
        return {p: d if d is not None else PlayerDelivery(player_id=p) for p, d in known.items()}

    async def modes(self, seats: Sequence[SeatRecord]) -> dict[int, NotifyMode]:
        """Each seated person's notify mode (players only: computer players have no choice to read)."""
        players = [s.player_id for s in seats if s.player_id is not None and not s.bot]
        if not players:
            return {}
        return {p: d.notify for p, d in (await self.of(players)).items()}

    async def get(self, player_id: int) -> PlayerDelivery:
        return (await self.of([player_id]))[player_id]

    async def put(self, delivery: PlayerDelivery, *, now: datetime) -> PlayerDelivery:
        stored = await self.store.settings.put_delivery(delivery, now=now)
        self._kept.keep(delivery.player_id, stored)
        return stored

    def forget(self, player_id: int) -> None:
        """Read the person's choices from the store next time (after a claim moved their digest on)."""
        self._kept.forget(player_id)


# --- the rows that carry prompts and reminders ------------------------------------------------------------


def prompt_rows(
    awaits: Sequence[tuple[Wait, datetime]],
    actor: int | None,
    seats: Sequence[SeatRecord],
    modes: Mapping[int, NotifyMode],
    record: GameRecord,
    title: str = "",
    *,
    no_dm: Collection[int] = (),
) -> tuple[list[list[int]], list[NewOutbox]]:
    """For the waits a commit announces: per wait, the seats reached elsewhere (named in the thread, not pinged),
    and a DM row for each awaited player who chose DMs (never the actor, who knows: they are not pinged either).
    `no_dm`: seats that get no DM now — in their quiet hours (their wake reminder comes where they chose when the
    hours end), or prompted by their hand coming down as a DM. The DM keeps the wait and is worded at delivery
    (`dm_words`)."""
    elsewhere: list[list[int]] = []
    rows: list[NewOutbox] = []
    for wait, due in awaits:
        where = routes(wait.seats, seats, modes)
        elsewhere.append([s for s, r in where.items() if r != "thread"])
        for s, r in where.items():
            if r == "dm" and s != actor and s not in no_dm:
                rows.append(_dm(s, wait, due))
    return elsewhere, rows


def reminder_rows(
    wait: Wait,
    deadline: datetime,
    seats: Sequence[SeatRecord],
    modes: Mapping[int, NotifyMode],
) -> list[NewOutbox]:
    """A reminder, once per awaited player in the place they chose: one thread post mentioning those who chose the
    thread (none if nobody did), a DM to each who chose DMs, nothing for the digest's (their digest has it). Each
    keeps the wait and is worded at delivery (`reminder_words`, `dm_words`)."""
    seats_awaited = list(wait.seats)
    where = routes(seats_awaited, seats, modes)
    in_thread = [s for s in seats_awaited if where[s] == "thread"]
    expires = deadline.isoformat()  # a reminder delivered after its deadline would only confuse
    rows: list[NewOutbox] = []
    if in_thread:
        payload = {
            "texts": [],
            REMINDER: wait_data(wait, deadline),
            "ping": in_thread,
            "expires": expires,
        }
        rows.append(NewOutbox(kind=outbox.POST, target={"to": "thread"}, payload=payload))
    for s in seats_awaited:
        if where[s] == "dm":
            rows.append(_dm(s, wait, deadline, reminder=True))
    return rows


def reminder_words(table: "Table", wait: Wait, names: Sequence[str], ping: Collection[int]) -> str:
    """A reminder in the thread, the seats in `ping` mentioned: "⏰ Reminder: @anna, your turn: … Deadline …"."""
    said = prompt_words(table, wait, names, table.mention, ping)
    return _("⏰ Reminder: %(said)s. Deadline %(when)s.", said=said, when=timestamp(wait.until))


def dm_words(table: "Table", wait: Wait, *, reminder: bool = False) -> str:
    """A prompt's or a reminder's DM to one awaited player (`wait.seats`: theirs), with the link to the table:
    "🔔 KKK #4 — your turn: open the deal or roll. Deadline … https://…"."""
    task = own_words(table, wait, table.names)
    when = f"{timestamp(wait.until, 'f')} ({timestamp(wait.until)})"
    values = {"title": table.title, "task": task, "when": when}
    if reminder:
        text = _("⏰ Reminder: %(title)s — %(task)s. Deadline %(when)s.", **values)
    else:
        text = _("🔔 %(title)s — %(task)s. Deadline %(when)s.", **values)
    link = jump_link(table.record.guild_id, table.record.thread_id)
    return f"{text} {link}" if link else text


def fallback_words(table: "Table", wait: Wait, seat: int, *, reminder: bool = False) -> str:
    """What the thread says, pinging the player, when their DM can't be delivered (`bot.notifier.hands`)."""
    mine = wait.model_copy(update={"seats": (seat,)})
    said = prompt_words(table, mine, table.names, table.mention, [seat])
    if reminder:
        return _("⏰ Reminder: %(said)s. Deadline %(when)s.", said=said, when=timestamp(wait.until))
    return _("⏳ %(said)s (deadline %(when)s)", said=said, when=timestamp(wait.until))


def _dm(seat: int, wait: Wait, due: datetime, *, reminder: bool = False) -> NewOutbox:
    data = wait_data(wait.model_copy(update={"seats": (seat,)}), due)
    payload: dict[str, Any] = {"seat": seat, WAIT: data, "expires": due.isoformat()}
    if reminder:
        payload[REMINDER] = True
    return NewOutbox(kind=outbox.DM, target={"seat": seat}, payload=payload)


FALLBACK = "fallback"
"""A DM row's text for the thread, mentioning the seat, should the DM not reach them (rows of older databases: the
newer keep the wait, `WAIT`, and word it at delivery)."""
WAIT = "wait"
"""A prompt's or a reminder's DM row: the wait it is about (`bot.awaiting.wait_data`), worded at delivery."""
REMINDER = "reminder"
"""A DM row: whether it is a reminder; a thread post: the wait it reminds of, worded at delivery."""
