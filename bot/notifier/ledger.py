"""A delivery pass's bookkeeping: the rows it delivered (with the message references they made), marked in one
transaction at its end, and the game's message references, read once per pass and kept up to date by it.

Outside a pass (a call with no `Session` of its game in the context) every mark and reference goes to the store at
once. Which rows this process committed and has not tried yet (`fresh`: nothing of them can be on Discord) and which
are delivered but not yet marked (`marked`: no other pass delivers them again meanwhile) is kept here too."""

import contextvars
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from storage import MessageRef, OutboxRecord

if TYPE_CHECKING:
    from bot.host import Host


@dataclass
class Session:
    """One delivery pass over a game's rows: the game's message references, read once when first needed and kept up
    to date by the pass, and the rows delivered (with the references they created), marked in one transaction at the
    end (`Ledger.close`)."""

    game_id: int
    refs: dict[tuple[str, int | None, str], MessageRef] | None = None
    marks: list[tuple[int | None, list[MessageRef]]] = field(default_factory=list)


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

    # --- the pass ---------------------------------------------------------------------------------------

    def open(self, session: Session) -> contextvars.Token[Session | None]:
        """`session` is the pass of its game from now on, in this task (until `leave`)."""
        return _SESSION.set(session)

    def leave(self, token: contextvars.Token[Session | None]) -> None:
        _SESSION.reset(token)

    def session(self, game_id: int | None) -> Session | None:
        session = _SESSION.get()
        return session if session is not None and session.game_id == game_id else None

    async def close(self, session: Session) -> None:
        """Mark the pass's rows delivered, in one transaction."""
        ids = {i for i, _ in session.marks if i is not None}
        try:
            if session.marks:
                await self.bot.store.outbox.mark_delivered_many(session.marks, now=self.bot.clock())
        finally:
            self.marked -= ids
            self.fresh -= ids

    # --- rows and message references --------------------------------------------------------------------

    async def mark(self, row: OutboxRecord, refs: Sequence[MessageRef] = ()) -> None:
        """The row is delivered (with the references of the messages it created): marked with the pass's other
        rows at its end, or at once outside a pass."""
        session = self.session(row.game_id)
        if session is None:
            await self.bot.store.outbox.mark_delivered(row.id, refs=refs)
            return
        session.marks.append((row.id, list(refs)))
        self.marked.add(row.id)
        if session.refs is not None:
            for ref in refs:
                session.refs[(ref.kind, ref.seat, ref.key)] = ref

    async def find_ref(self, game_id: int, kind: str, *, seat: int | None = None, key: str = "") -> MessageRef | None:
        session = self.session(game_id)
        if session is None:
            return await self.bot.store.refs.find(game_id, kind, seat=seat, key=key)
        if session.refs is None:
            refs = {(r.kind, r.seat, r.key): r for r in await self.bot.store.refs.of_game(game_id)}
            for _, made in session.marks:  # references of rows delivered but not yet marked (an answer's)
                for ref in made:
                    refs = {k: r for k, r in refs.items() if r.message_id != ref.message_id}
                    refs[(ref.kind, ref.seat, ref.key)] = ref
            session.refs = refs
        return session.refs.get((kind, seat, key))

    async def put_ref(self, ref: MessageRef) -> None:
        session = self.session(ref.game_id)
        if session is None:
            await self.bot.store.refs.put(ref)
            return
        session.marks.append((None, [ref]))
        if session.refs is not None:
            session.refs[(ref.kind, ref.seat, ref.key)] = ref

    async def drop_ref(self, game_id: int, message_id: int, *, replaced: bool = False) -> None:
        """Forget a message reference. `replaced`: a reference of the same kind takes its place in this pass's
        marks, which replaces it in the database too (no write of its own)."""
        session = self.session(game_id)
        if session is not None:
            if session.refs is not None:
                session.refs = {k: r for k, r in session.refs.items() if r.message_id != message_id}
            session.marks = [(i, [r for r in refs if r.message_id != message_id]) for i, refs in session.marks]
            if replaced:
                return
        await self.bot.store.refs.delete(message_id)
