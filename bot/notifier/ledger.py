"""A delivery pass's bookkeeping: the rows it delivered (with the message references they made), marked in one
transaction at its end, and the message references it needs, each looked up by what it stands for (kind, seat, key)
and kept up to date by the pass.

A pass never reads all of its game's references: their number grows with the game (every offer and window has one
until it is settled), and a move's cost must not. The first lookup of a pass reads, in one round trip
(`refs.find_many`), the reference asked for and those the game's recent passes asked for and found (at most
`RECENT_KEYS`: a pass mostly needs the same — the status, the hands, a window — and a hand of another seat than the
last move's), so a pass still costs about one read, of a bounded number of rows. References of settled posts are
retired (`retire_ref`) in the pass's closing transaction.

Outside a pass (a call with no `Session` of its game in the context) every mark and reference goes to the store at
once. Which rows this process committed and has not tried yet (`fresh`: nothing of them can be on Discord) and which
are delivered but not yet marked (`marked`: no other pass delivers them again meanwhile) is kept here too."""

import contextvars
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from storage import MessageRef, OutboxRecord

if TYPE_CHECKING:
    from bot.host import Host


RefKey = tuple[str, int | None, str]


@dataclass
class Session:
    """One delivery pass over a game's rows: the game's message references, read once when first needed and kept up
    to date by the pass, and the rows delivered (with the references they created), marked in one transaction at the
    end (`Ledger.close`)."""

    game_id: int
    refs: dict[RefKey, MessageRef | None] = field(default_factory=dict)
    """What the pass knows of the game's references, by (kind, seat, key): looked up, made or dropped by it (None:
    nothing stands for it)."""
    marks: list[tuple[int | None, list[MessageRef]]] = field(default_factory=list)
    retired: set[int] = field(default_factory=set)
    """Message ids whose references are deleted with the marks (settled posts shown for the last time)."""
    asked: set[RefKey] = field(default_factory=set)
    """The references the pass looked up itself (not those read along): the next pass of the game reads them along
    with its first lookup."""


RECALLED = 4096
"""How many games' recent lookups the ledger remembers (`RECENT_KEYS` each at most), the most recently delivered."""
RECENT_KEYS = 16
"""How many of a game's recently found references a pass reads along with its first lookup."""

_SESSION: contextvars.ContextVar[Session | None] = contextvars.ContextVar("delivery_session", default=None)


class Ledger:
    """The marks and message references of the delivery pass under way (see the module's docstring)."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        self.fresh: set[int] = set()
        """Rows this process committed and has not tried to deliver yet: nothing of them can be on Discord, so
        sending them needs neither an in-flight mark in the database nor a look at the channel first."""
        self.marked: set[int] = set()
        """Rows delivered whose marking is not yet committed: no other pass delivers them again meanwhile."""
        self.retiring: dict[int, set[int]] = {}
        """Per game, message ids retired by passes that have left (`leave`), deleted by the game's next `close`."""
        self.asked: OrderedDict[int, dict[RefKey, None]] = OrderedDict()
        """Per game, the references its recent passes looked up and found, most recent last: read along with the
        next pass's first lookup."""
        self.stamp: Callable[[MessageRef], MessageRef] = lambda ref: ref
        """A reference as stored: with the token of the command that made its message, while it lives
        (`TokenBook.stamp`, set by the `Sender`): written with the reference, no write of its own."""
        self.learn: Callable[[MessageRef], None] = lambda ref: None
        """Told of each reference read from the store (`TokenBook.learn`: a token stored with it is used again)."""

    # --- the pass ---------------------------------------------------------------------------------------

    def open(self, session: Session) -> contextvars.Token[Session | None]:
        """`session` is the pass of its game from now on, in this task (until `leave`)."""
        return _SESSION.set(session)

    def leave(self, token: contextvars.Token[Session | None]) -> None:
        session = _SESSION.get()
        _SESSION.reset(token)
        if session is not None and session.retired:
            # Retired with the game's next closing transaction: an answer's pass hands its marks to the game's
            # worker (`GameQueue.marks`) instead of closing, and its retirements go along the same way.
            self.retiring.setdefault(session.game_id, set()).update(session.retired)
            session.retired = set()

    def session(self, game_id: int | None) -> Session | None:
        session = _SESSION.get()
        return session if session is not None and session.game_id == game_id else None

    async def close(self, session: Session) -> None:
        """Mark the pass's rows delivered, in one transaction."""
        ids = {i for i, _ in session.marks if i is not None}
        recent = self.asked.pop(session.game_id, {})
        for k, ref in session.refs.items():  # gone (dropped, retired, never there): not read along any more
            if ref is None:
                recent.pop(k, None)
        for k in session.asked:
            if session.refs.get(k) is not None:
                recent.pop(k, None)
                recent[k] = None
        while len(recent) > RECENT_KEYS:
            del recent[next(iter(recent))]
        if recent:
            self.asked[session.game_id] = recent
            while len(self.asked) > RECALLED:
                self.asked.popitem(last=False)
        retired = session.retired | self.retiring.pop(session.game_id, set())
        try:
            if session.marks or retired:
                await self.bot.store.outbox.mark_delivered_many(session.marks, now=self.bot.clock(), retired=retired)
        finally:
            self.marked -= ids
            self.fresh -= ids

    # --- rows and message references --------------------------------------------------------------------

    async def mark(self, row: OutboxRecord, refs: Sequence[MessageRef] = ()) -> None:
        """The row is delivered (with the references of the messages it created): marked with the pass's other
        rows at its end, or at once outside a pass."""
        refs = [self.stamp(r) for r in refs]
        session = self.session(row.game_id)
        if session is None:
            await self.bot.store.outbox.mark_delivered(row.id, refs=refs)
            return
        session.marks.append((row.id, list(refs)))
        self.marked.add(row.id)
        for ref in refs:
            _know(session, ref)

    async def find_ref(self, game_id: int, kind: str, *, seat: int | None = None, key: str = "") -> MessageRef | None:
        wanted = (kind, seat, key)
        session = self.session(game_id)
        if session is None:
            ref = await self.bot.store.refs.find(game_id, kind, seat=seat, key=key)
            if ref is not None:
                self.learn(ref)
            return ref
        session.asked.add(wanted)
        if wanted not in session.refs:
            keys = {wanted} | (self.asked.get(game_id, {}).keys() - session.refs.keys())
            found = await self.bot.store.refs.find_many(game_id, keys)
            for ref in found.values():
                self.learn(ref)
            made = {r.message_id for _, refs in session.marks for r in refs} | session.retired
            made |= self.retiring.get(game_id, set())
            for k in keys:
                if k in session.refs:
                    continue  # made or dropped by the pass meanwhile: it knows better than the database
                ref = found.get(k)
                # A message the pass re-keyed or retired no longer stands for what the database says.
                session.refs[k] = ref if ref is None or ref.message_id not in made else None
            for _, refs in session.marks:  # references of rows delivered but not yet marked (an answer's)
                for ref in refs:
                    if (ref.kind, ref.seat, ref.key) in keys:
                        session.refs[(ref.kind, ref.seat, ref.key)] = ref
        return session.refs[wanted]

    async def put_ref(self, ref: MessageRef) -> None:
        ref = self.stamp(ref)
        session = self.session(ref.game_id)
        if session is None:
            await self.bot.store.refs.put(ref)
            return
        session.marks.append((None, [ref]))
        session.retired.discard(ref.message_id)
        _know(session, ref)

    async def drop_ref(self, game_id: int, message_id: int, *, replaced: bool = False) -> None:
        """Forget a message reference. `replaced`: a reference of the same kind takes its place in this pass's
        marks, which replaces it in the database too (no write of its own)."""
        session = self.session(game_id)
        if session is not None:
            _forget(session, message_id)
            if replaced:
                return
        await self.bot.store.refs.delete(message_id)

    async def retire_ref(self, game_id: int, message_id: int) -> None:
        """Forget the reference of a settled post (`Post.settled`), shown for the last time: in the pass's closing
        transaction (no write of its own), or at once outside a pass. Nothing will look it up again, so a game
        holds only the references of what is still live, however long it runs."""
        session = self.session(game_id)
        if session is None:
            await self.bot.store.refs.delete(message_id)
            return
        _forget(session, message_id)
        session.retired.add(message_id)


def _know(session: Session, ref: MessageRef) -> None:
    """The pass made `ref`: it stands for its (kind, seat, key), and its message for nothing else."""
    _forget(session, ref.message_id, marks=False)
    session.refs[(ref.kind, ref.seat, ref.key)] = ref


def _forget(session: Session, message_id: int, *, marks: bool = True) -> None:
    for k, r in session.refs.items():
        if r is not None and r.message_id == message_id:
            session.refs[k] = None
    if marks:
        session.marks = [(i, [r for r in refs if r.message_id != message_id]) for i, refs in session.marks]
