"""The notifier's public face: what the rest of the bot calls (`enqueue`, `settled`, `flush`, `flush_all`, `close`,
`saw_message`, `report_stuck_timer`), composed of the delivery queue and its collaborators.

Who does what: `DeliveryQueue` (`bot.notifier.delivery`) holds each game's committed rows and their worker;
`Dispatcher` hands a pass's rows to `Posts` (narration, tracked posts), `Status` (the status message), `LobbyMessage`
and `Hands` (DMs); all of them send through one `Sender` (exactly once, with a command's token where it can) and
record through one `Ledger` (the pass's marks and message references); `Threads` is what they know of each thread's
newest messages; `Problems` records failures and tells the game's creator."""

import asyncio
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from bot import damage, outbox
from bot.logs import game_logger
from bot.notifier.delivery import DeliveryQueue, Retries
from bot.notifier.dispatch import Dispatcher
from bot.notifier.hands import Hands
from bot.notifier.ledger import Ledger
from bot.notifier.posts import Posts
from bot.notifier.problems import Problems
from bot.notifier.sending import MAX_ATTEMPTS, Carrier, FlushReport, Sender
from bot.notifier.status import LobbyMessage, Status
from bot.notifier.threads import Threads
from bot.notifier.tokens import TokenBook
from bot.pictures import Pictures
from bot.presentation import Table
from storage import DamagedData, OutboxRecord

if TYPE_CHECKING:
    from bot.host import Host

CATCH_UP_AT_ONCE = 4
"""How many games the start-up catch-up delivers at a time: it goes on behind play, never in its way."""
CATCH_UP_PER_SECOND = 12.0
"""At most this many games a second: with ~1.5 rate-limited calls a game (its narration, a reaction or a hand edit
for some; no read of the thread for rows never tried), about a third of Discord's global limit of 50 calls a second,
so live play keeps the rest."""


class Notifier:
    """Delivers outbox rows to Discord (see the package's docstring)."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[Any]] = set()
        """Every background task of the notifier (workers, retries, late pictures), so one can wait for them all."""
        self.ledger = Ledger(bot)
        self.sender = Sender(bot, self.ledger)
        self.threads = Threads()
        self.problems = Problems(self.sender)
        self.status = Status(self.sender, self.ledger, self.threads, self._tasks, lambda game_id: self.flush(game_id))
        self.posts = Posts(self.sender, self.ledger, self.threads, self.status)
        self._left_behind: list[int] | None = None
        """`starting`'s reading of the outbox, made once per process."""
        self.hands = Hands(self.sender, self.ledger)
        self.lobby = LobbyMessage(self.sender, self.ledger)
        self.retries = Retries(lambda game_id: self.flush(game_id), self._tasks)
        dispatcher = Dispatcher(
            self.sender, self.ledger, self.problems, self.posts, self.status, self.lobby, self.hands
        )
        self.queue = DeliveryQueue(bot, self.sender, self.ledger, self.threads, dispatcher, self.retries, self._tasks)

    @property
    def tokens(self) -> TokenBook:
        """Messages made by recent commands, edited with their tokens; rows posted as a command's follow-ups."""
        return self.sender.tokens

    @tokens.setter
    def tokens(self, book: TokenBook) -> None:
        self.sender.tokens = book

    @property
    def pictures(self) -> Pictures:
        """The tables' pictures (`bot.pictures`): rendered, cached, and which one each status message shows."""
        return self.status.pictures

    # --- delivery -----------------------------------------------------------------------------------------

    def enqueue(self, game_id: int, rows: list[OutboxRecord]) -> None:
        """A commit's rows (`MovePath.on_committed`), in commit order (`DeliveryQueue.enqueue`)."""
        self.queue.enqueue(game_id, rows)

    def settled(self, game_id: int, table: Table) -> None:
        """A move is complete and `table` is its game as it is now (`MovePath.on_settled`): render from it."""
        self.queue.settled(game_id, table)

    async def flush(self, game_id: int, carrier: Carrier | None = None) -> FlushReport:
        """Deliver the game's pending rows: with a move's interaction, answer first and deliver behind; otherwise
        every pending row, in order, before returning (`DeliveryQueue.flush`)."""
        return await self.queue.flush(game_id, carrier)

    async def starting(self) -> list[int]:
        """At start-up, before anything is delivered: the games with rows a previous process left undelivered,
        oldest first (read once: `on_ready` and each shard's catch-up share it). Those with a status row among them
        may show their status where the stored reference does not say (a move of it cut short): their first delivery
        looks (`Status.suspects`); every other table's stored reference is where its status is."""
        if self._left_behind is None:  # once: what live play commits after it is delivered behind its own moves
            rows = await self.bot.store.outbox.undelivered(max_attempts=MAX_ATTEMPTS, limit=1_000_000)
            self._left_behind = list(dict.fromkeys(r.game_id for r in rows if r.game_id is not None))
            # (A status row never tried moved nothing: only one that may have been tried makes its table a suspect.)
            suspects = {
                r.game_id
                for r in rows
                if r.kind == outbox.STATUS and r.game_id is not None and not outbox.never_attempted(r)
            }
            self.status.suspects = suspects | (self.status.suspects or set())
        return self._left_behind

    async def catch_up(self, game_ids: Sequence[int]) -> None:
        """Deliver what the outbox holds for these games (at start-up, behind play: a few games at a time, at
        most `CATCH_UP_PER_SECOND`). An active table's status edits wait for its next move
        (`DeliveryQueue.flush(defer=True)`): no read of every thread to find its status, no status moved or posted
        afresh at start-up."""
        if not game_ids:
            return
        active = {r.id for r in await self.bot.store.games.find(statuses=("active",))}
        loop = asyncio.get_running_loop()
        pace = CATCH_UP_AT_ONCE / CATCH_UP_PER_SECOND
        games = iter(enumerate(game_ids))

        async def worker() -> None:
            for index, game_id in games:
                began = loop.time()
                try:
                    await self.queue.flush(game_id, defer=game_id in active)
                except DamagedData as exc:
                    damage.report(self.bot, game_id, exc.problem)
                except Exception:
                    game_logger(game_id, "boardroom.notifier").exception("delivery failed")
                if index + CATCH_UP_AT_ONCE < len(game_ids):
                    await asyncio.sleep(max(0.0, pace - (loop.time() - began)))

        await asyncio.gather(*(worker() for _ in range(min(CATCH_UP_AT_ONCE, len(game_ids)))))

    async def flush_all(self, only: Collection[int] | None = None) -> None:
        """Deliver what is pending for every game (of `only`, one shard's, if given) (at start-up: what a crash left
        behind; `catch_up`)."""
        await self.catch_up([g for g in await self.starting() if only is None or g in only])

    def lock(self, game_id: int) -> asyncio.Lock:
        """The notifier's own lock of the game, held while its rows are delivered."""
        return self.queue.lock(game_id)

    def close(self) -> None:
        """Cancel the pending retries."""
        self.retries.close()

    # --- news from elsewhere ------------------------------------------------------------------------------

    def edited_elsewhere(self, message_id: int) -> None:
        """A message the notifier tracks (a hand DM) was edited by other code (a click's answer): what it shows is
        no longer what the notifier last sent, so its next edit is made even if it looks the same (`Sender.shown`)."""
        self.sender.shown.pop(message_id, None)

    def saw_message(self, channel_id: int, message_id: int) -> None:
        """A new message in a thread, from the gateway (`Threads.saw_message`)."""
        self.threads.saw_message(channel_id, message_id)

    async def report_stuck_timer(self, game_id: int, attempts: int) -> None:
        """A timer of the game keeps failing to fire: tell its table and creator once (`Problems`)."""
        await self.problems.report_stuck_timer(game_id, attempts)
