"""Opening a table — the lobby message, then its thread — so that a crash at any point can be completed later.

`/game new` makes the game's row, posts the lobby message and remembers it at once (`attach_lobby_message`), then
opens the thread from that message and remembers it (`attach_thread`). A process killed in between leaves a lobby
without a thread. `repair_lobby` completes it: with its message known, the thread is opened from it (or found: a
thread started from a message has the message's id); without one (killed before the message was remembered: no
player could have seen it working), or when Discord refuses the thread, the lobby is closed cleanly and its
message, if known, says so. It runs at start-up for every such lobby and whenever one is touched (its buttons,
`/game join`, `/game start`). `Lobby.start` refuses a lobby without a thread, so no game ever starts without
its table.
"""

import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n.platform import _
from bot.service import LOBBY_REF, Done, Refusal
from storage import GameRecord

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.lobby")
THREAD_ALREADY_CREATED = 160004
"""Discord's error code for a message that already has a thread (whose id is the message's)."""


class ThreadRefused(Exception):
    """Discord would not open the table's thread; `reason` says what it answered."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def open_thread(bot: "Host", record: GameRecord, channel_id: int, message_id: int) -> list[int]:
    """Open the table's thread from the lobby message and remember it; the outbox rows that follow (the creator's
    welcome, the thread's first words). Raises `ThreadRefused`."""
    title = bot.service.read.game(record.kind).title
    try:
        # Straight to the endpoint: a partial message may lack the guild that `create_thread` insists on.
        thread = await bot.http.start_thread_with_message(
            channel_id, message_id, name=f"{title} #{record.id}", auto_archive_duration=10080
        )
        thread_id = int(thread["id"])
    except discord.HTTPException as exc:
        if exc.code != THREAD_ALREADY_CREATED:
            raise ThreadRefused(exc.text or str(exc.status)) from None
        thread_id = message_id  # opened before a crash, not yet remembered
    return await bot.service.lobby.attach_thread(record.id, thread_id)


async def open_thread_or_close(bot: "Host", record: GameRecord, channel_id: int, message_id: int) -> list[int]:
    """`open_thread` for a lobby just posted (`/game new`, a rematch): if Discord refuses the thread, the lobby is
    closed at once and the person who asked is told what permission is missing (`Refusal`)."""
    try:
        return await open_thread(bot, record, channel_id, message_id)
    except ThreadRefused as exc:
        await bot.service.lobby.cancel_lobby(record.id, None, is_moderator=True, why="by itself: no table thread")
        await bot.notifier.flush(record.id)
        raise Refusal(
            _(
                "I couldn't open a thread for the table here (%(reason)s). I need “Create Public Threads” and "
                "“Send Messages in Threads” in this channel. The lobby is closed.",
                reason=exc.reason,
            )
        ) from None


async def repair_lobby(bot: "Host", record: GameRecord) -> GameRecord:
    """Complete a lobby that has no thread, or close it; the record as it is afterwards."""
    if record.status != "lobby" or record.thread_id is not None:
        return record
    refs = await bot.store.refs.of_game(record.id, kind=LOBBY_REF)
    done: Done | None = None
    if refs:
        try:
            ids = await open_thread(bot, record, refs[0].channel_id, refs[0].message_id)
            done = Done(record.id, ids)
            log.info("completed a half-opened lobby", extra={"game": record.id})
        except ThreadRefused as exc:
            why = f"by itself: its table thread could not be opened ({exc.reason})"
            done = await bot.service.lobby.cancel_lobby(record.id, None, is_moderator=True, why=why)
    else:
        done = await bot.service.lobby.cancel_lobby(
            record.id, None, is_moderator=True, why="by itself: it was never fully opened"
        )
        log.info("closed a lobby that was never fully opened", extra={"game": record.id})
    await bot.notifier.flush(record.id)
    return await bot.store.games.get(done.game_id)


async def repair_all(bot: "Host") -> None:
    """At start-up: every lobby left without its thread by a crash is completed or closed."""
    for record in await bot.store.games.find(statuses=["lobby"]):
        if record.thread_id is None:
            try:
                await repair_lobby(bot, record)
            except Exception:
                log.exception("could not repair a half-opened lobby", extra={"game": record.id})
