"""Handing a seat over while the game goes on: `/game leave` in a running game and the replacement vote (see
`bot.handover` for what is kept and shown, and why a handover never touches a secret).

Decisions where the issue is silent:
- `/game leave` must say where the seat goes: `to:@someone` (an offer they accept with a button) or
  `autopilot:true` (at once, where the game has an autopilot). Leaving to the autopilot is like a moderator's kick:
  the player is out (no hand DM any more), the seat plays on by itself, and `/mod substitute` can seat someone.
- A new offer replaces the leaver's pending one; an offer or a vote is dropped when a moderator changes the seat
  (substitute, autopilot, kick) or when the seat's player moves again (a vote only: they are back).
- A vote is for a seat whose player has let two turn deadlines in a row pass (`SeatRecord.missed` ≥ 2) and that is
  still a person's, not on autopilot (no moderator has acted). Voters are the other people at the table when it
  opens; whoever opens it votes yes. A vote that passes to the autopilot keeps the player on the seat (they may
  `/game back`); to a person, it becomes an offer to them until the next deadline from then.
- Casting a vote is a log note that edits the status (the tally) and posts nothing: only the opening, the outcome
  and the expiry are lines in the thread.
"""

from collections.abc import Callable, Sequence
from datetime import datetime

from bot import outbox
from bot.handover import Handover, of_seat, receiver
from bot.i18n import speaking
from bot.i18n.platform import _
from bot.logs import game_logger
from bot.names import shown
from bot.service.moves import MovePath, require_running
from bot.service.results import Done, Person, Refusal
from bot.table import language_of, speaking_at
from engine.game import Game
from engine.text import seat as seat_ref
from storage import GameRecord, LoadedGame, NewLogEntry, NewOutbox, SeatRecord

VOTE_AFTER = 2
"""Turn deadlines in a row a player must have let pass before the others may vote to replace them."""


class Handovers:
    """`/game leave` in a running game, the offer's answer, the replacement vote (see the module docstring)."""

    def __init__(self, moves: MovePath) -> None:
        self.moves = moves
        self.read = moves.read
        self.store = moves.store

    # --- helpers ----------------------------------------------------------------------------------------

    async def _running(self, game_id: int) -> tuple[LoadedGame, Game]:  # type: ignore[type-arg]
        loaded = await self.store.games.load(game_id)
        game = self.read.game(loaded.record.kind)
        require_running(loaded.record, game)
        return loaded, game

    async def _next_deadline(self, loaded: LoadedGame, game: Game) -> datetime:  # type: ignore[type-arg]
        """The table's next deadline as it stands (a turn's or a window's), or a turn's length from now."""
        table = await self.read.table_of(loaded)
        due = [table.deadline(i, w) for i, w in enumerate(table.waits)]
        now = self.read.now()
        later = [d for d in due if d > now]
        if later:
            return min(later)
        return now + game.parse_options(loaded.record.options).turn_deadline

    async def _note(
        self,
        game_id: int,
        note: str,
        texts: Sequence[str],
        *,
        user_id: int | None,
        extra: Sequence[NewOutbox] = (),
        ping: Sequence[int] = (),
    ) -> list[int]:
        entry = NewLogEntry.for_note(note, self.read.now(), user_id=user_id)
        return await self.moves.commit_note(game_id, entry, list(texts), extra=extra, ping=list(ping))

    def _title(self, record: GameRecord) -> str:
        return f"{self.read.game(record.kind).title} #{record.id}"

    async def _retire(self, record: GameRecord, held: SeatRecord, words: Callable[[], str]) -> NewOutbox | None:
        """The row that tells the seat's old player they are out, in their old hand DM (which loses the hand),
        `words` said in their own language (`/me language`, else the table's)."""
        if held.player_id is None:
            return None
        chosen = (await self.read.deliveries.get(held.player_id)).language
        with speaking(chosen or language_of(record)):
            text = words()
        old_hand = await self.store.refs.find(record.id, outbox.HAND, seat=held.seat)
        if old_hand is not None:
            await self.store.refs.delete(old_hand.message_id)
        return outbox.retire(
            held.player_id, text, (old_hand.channel_id, old_hand.message_id) if old_hand is not None else None
        )

    # --- leaving ----------------------------------------------------------------------------------------

    async def leave(self, game_id: int, leaver: Person, *, to: Person | None, autopilot: bool) -> Done:
        """`/game leave` in a running game: to the autopilot at once, or an offer to `to` (see the docstring)."""
        async with self.moves.lock(game_id):
            loaded, game = await self._running(game_id)
            record = loaded.record
            held = next((s for s in loaded.seats if s.player_id == leaver.user_id), None)
            if held is None:
                raise Refusal(_("You're not playing in %(title)s.", title=f"{game.title} #{game_id}"))
            number = held.seat + 1
            if (to is None) == (not autopilot):
                raise Refusal(
                    _(
                        "Say who takes your seat: `to:@someone` (they accept with a button; you play on until they "
                        "do) or `autopilot:true` (the autopilot plays it from now on)."
                    )
                )
            if to is None:
                if self.read.policy(record.kind) is None:
                    raise Refusal(
                        _(
                            "%(game)s has no autopilot yet: name someone to take your seat with `to:@…`.",
                            game=game.title,
                        )
                    )
                title = self._title(record)
                goodbye = await self._retire(
                    record,
                    held,
                    lambda: _(
                        "👋 You left **%(title)s**; the autopilot plays your seat. Thanks for playing!", title=title
                    ),
                )
                await self.store.seats.update(
                    game_id,
                    held.seat,
                    player_id=None,
                    autopilot=True,
                    missed=0,
                    dm_ok=None,
                    away_until=None,
                    away_mode=None,
                    handover=None,
                )
                with speaking_at(record):
                    said = _(
                        "👋 **%(name)s** left the game: the autopilot plays their seat from now on (safe moves only). "
                        "`/mod substitute seat:%(number)d` can seat someone else.",
                        name=shown(held.display_name),
                        number=number,
                    )
                ids = await self._note(
                    game_id,
                    f"seat {number} left to the autopilot",
                    [said],
                    user_id=leaver.user_id,
                    extra=[goodbye] if goodbye else [],
                )
                ids += await self.moves.auto_pass(game_id, after_commit=True)
                self.moves.settle(game_id)
                game_logger(game_id, "boardroom.service").info(
                    "left to the autopilot", extra={"fields": {"seat": held.seat}}
                )
                said = _("You left %(title)s; the autopilot plays seat %(number)d.", title=title, number=number)
                return Done(game_id, ids, said)
            if to.user_id == leaver.user_id:
                raise Refusal(_("Name someone else to take your seat (or `autopilot:true`)."))
            if any(s.player_id == to.user_id for s in loaded.seats):
                raise Refusal(
                    _(
                        "%(name)s already plays in %(title)s: name someone who doesn't.",
                        name=shown(to.name),
                        title=f"{game.title} #{game_id}",
                    )
                )
            expires = await self._next_deadline(loaded, game)
            offer = Handover(
                kind="leave", by=leaver.user_id, of=leaver.user_id, to=to.user_id, to_name=to.name, expires=expires
            )
            await self.store.seats.update(game_id, held.seat, handover=offer.model_dump(mode="json"))
            until = f"<t:{int(expires.timestamp())}:f>"
            with speaking_at(record):
                said = _(
                    "🔁 **%(name)s** offers their seat (seat %(number)d) to %(to)s: take it with **Take seat "
                    "%(number)d** on the status message before %(until)s. Until then %(name)s plays on.",
                    name=shown(held.display_name),
                    number=number,
                    to=f"<@{to.user_id}>",
                    until=until,
                )
            ids = await self._note(game_id, f"seat {number} offered to {to.name}", [said], user_id=leaver.user_id)
            self.moves.settle(game_id)
            return Done(
                game_id,
                ids,
                _(
                    "Offered your seat to %(name)s until %(until)s; you play on until they take it. **Decline** on "
                    "the status message withdraws the offer.",
                    name=shown(to.name),
                    until=until,
                ),
            )

    async def take(self, game_id: int, user: Person, number: int) -> Done:
        """The offered person takes the seat (the **Take seat N** button)."""
        async with self.moves.lock(game_id):
            loaded, game = await self._running(game_id)
            record = loaded.record
            held = next((s for s in loaded.seats if s.seat == number - 1), None)
            offer = of_seat(held) if held is not None else None
            if held is None or offer is None or offer.stage != "offered":
                raise Refusal(_("That offer isn't open any more."))
            if offer.to != user.user_id:
                raise Refusal(
                    _("Seat %(number)d is offered to %(name)s, not to you.", number=number, name=shown(offer.to_name))
                )
            if any(s.player_id == user.user_id for s in loaded.seats):
                raise Refusal(_("You already play in %(title)s.", title=f"{game.title} #{game_id}"))
            old_name = held.display_name
            title, taker = self._title(record), shown(user.name)

            def farewell() -> str:
                if offer.kind == "leave":
                    return _(
                        "👋 You no longer play in **%(title)s**: you offered it to %(name)s, who took your seat. "
                        "Thanks for playing!",
                        title=title,
                        name=taker,
                    )
                return _(
                    "👋 You no longer play in **%(title)s**: the table voted to hand it to %(name)s, who took your "
                    "seat. Thanks for playing!",
                    title=title,
                    name=taker,
                )

            goodbye = await self._retire(record, held, farewell)
            await self.store.seats.update(
                game_id,
                held.seat,
                player_id=user.user_id,
                display_name=user.name,
                dm_ok=None,
                away_until=None,
                away_mode=None,
                autopilot=False,
                bot=False,
                missed=0,
                handover=None,
            )
            with speaking_at(record):
                said = _(
                    "🔁 %(who)s takes over seat %(number)d from %(old)s. Welcome! Your hand is in your DMs (or "
                    "`/game hand`); `/game help` says what you can do.",
                    who=seat_ref(held.seat),
                    number=number,
                    old=shown(old_name),
                )
            extra = [outbox.hand(held.seat), *([goodbye] if goodbye else [])]
            ids = await self._note(
                game_id,
                f"{user.name} took seat {number} from {old_name}",
                [said],
                user_id=user.user_id,
                extra=extra,
                ping=[held.seat],
            )
            self.moves.settle(game_id)
            game_logger(game_id, "boardroom.service").info("seat handed over", extra={"fields": {"seat": held.seat}})
            return Done(
                game_id,
                ids,
                _(
                    "You play seat %(number)d of %(title)s now. Your hand is in your DMs.",
                    number=number,
                    title=f"{game.title} #{game_id}",
                ),
            )

    async def drop(self, game_id: int, user: Person, number: int) -> Done:
        """**Decline**: the offered person says no, or the leaver (or a vote's opener) withdraws the offer."""
        async with self.moves.lock(game_id):
            loaded, _game = await self._running(game_id)
            held = next((s for s in loaded.seats if s.seat == number - 1), None)
            offer = of_seat(held) if held is not None else None
            if held is None or offer is None or offer.stage != "offered":
                raise Refusal(_("That offer isn't open any more."))
            if user.user_id not in (offer.to, offer.by, held.player_id):
                raise Refusal(_("Only the person offered the seat, or the one who offered it, can decline it."))
            await self.store.seats.update(game_id, held.seat, handover=None)
            declined = user.user_id == offer.to
            who = "declined" if declined else "withdrew"
            values = {"who": shown(user.name), "number": number, "name": shown(held.display_name)}
            with speaking_at(loaded.record):
                if declined:
                    said = _("🔁 %(who)s declined the offer of seat %(number)d: **%(name)s** keeps it.", **values)
                else:
                    said = _("🔁 %(who)s withdrew the offer of seat %(number)d: **%(name)s** keeps it.", **values)
            ids = await self._note(game_id, f"offer of seat {number} {who}", [said], user_id=user.user_id)
            self.moves.settle(game_id)
            if declined:
                return Done(game_id, ids, _("You declined the offer of seat %(number)d.", number=number))
            return Done(game_id, ids, _("You withdrew the offer of seat %(number)d.", number=number))

    async def expire(self, record: GameRecord, number: int) -> list[int]:
        """An offer or a vote reached its deadline (a `handover` timer, under the game's lock)."""
        held = next((s for s in await self.store.seats.of_game(record.id) if s.seat == number - 1), None)
        offer = of_seat(held) if held is not None else None
        if held is None or offer is None or offer.expires > self.read.now():
            return []
        await self.store.seats.update(record.id, held.seat, handover=None)
        name = shown(held.display_name)
        with speaking_at(record):
            if offer.stage == "voting":
                yes, _no = offer.tally()
                said = _(
                    "⌛ The vote to hand **%(name)s**'s seat to %(to)s expired with the deadline (%(yes)d yes of "
                    "%(needed)d needed): **%(name)s** keeps it.",
                    name=name,
                    to=receiver(offer),
                    yes=yes,
                    needed=offer.needed(),
                )
            else:
                said = _(
                    "⌛ The offer of seat %(number)d to %(to)s lapsed: **%(name)s** keeps it.",
                    number=number,
                    to=shown(offer.to_name),
                    name=name,
                )
        return await self._note(record.id, f"handover of seat {number} expired", [said], user_id=None)

    # --- the replacement vote ---------------------------------------------------------------------------

    async def open_vote(
        self, game_id: int, asker: Person, absent: Person, *, to: Person | None, autopilot: bool
    ) -> Done:
        """`/game vote replace`: open a vote to hand the absent player's seat on (see the module docstring)."""
        async with self.moves.lock(game_id):
            loaded, game = await self._running(game_id)
            record = loaded.record
            mine = next((s for s in loaded.seats if s.player_id == asker.user_id), None)
            title = f"{game.title} #{game_id}"
            if mine is None:
                raise Refusal(_("Only the players of %(title)s can vote on its seats.", title=title))
            held = next((s for s in loaded.seats if s.player_id == absent.user_id), None)
            if held is None:
                raise Refusal(_("%(name)s doesn't hold a seat in %(title)s.", name=shown(absent.name), title=title))
            if held is mine:
                raise Refusal(_("You can't vote on your own seat: `/game leave` hands it on."))
            if (to is None) == (not autopilot):
                raise Refusal(
                    _("Say who should take the seat: `with:@someone` (they accept with a button) or `autopilot:true`.")
                )
            if held.autopilot:
                raise Refusal(_("The autopilot plays %(name)s's seat already.", name=shown(absent.name)))
            if held.missed < VOTE_AFTER:
                raise Refusal(
                    _(
                        "%(name)s hasn't let %(after)d turn deadlines in a row pass (so far: %(missed)d): a "
                        "replacement vote is for a player who is gone. A moderator can still help (`/mod substitute`).",
                        name=shown(absent.name),
                        after=VOTE_AFTER,
                        missed=held.missed,
                    )
                )
            if of_seat(held) is not None:
                raise Refusal(
                    _("A handover of %(name)s's seat is open already: see the status message.", name=shown(absent.name))
                )
            if to is None and self.read.policy(record.kind) is None:
                raise Refusal(_("%(game)s has no autopilot yet: name a substitute with `with:@…`.", game=game.title))
            if to is not None and any(s.player_id == to.user_id for s in loaded.seats):
                raise Refusal(_("%(name)s already plays in %(title)s.", name=shown(to.name), title=title))
            voters = [s.player_id for s in loaded.seats if s.player_id is not None and not s.bot and s is not held]
            expires = await self._next_deadline(loaded, game)
            vote = Handover(
                kind="vote",
                by=asker.user_id,
                of=absent.user_id,
                to=to.user_id if to else None,
                to_name=to.name if to else "",
                stage="voting",
                expires=expires,
                votes={str(asker.user_id): True},
                voters=voters,
            )
            if vote.tally()[0] >= vote.needed():
                return Done(game_id, await self._passed(record, held, vote, asker), _("The vote passed at once."))
            await self.store.seats.update(game_id, held.seat, handover=vote.model_dump(mode="json"))
            others = [s.seat for s in loaded.seats if s.player_id in voters and s.player_id != asker.user_id]
            with speaking_at(record):
                said = _(
                    "🗳️ **%(asker)s** asks to hand **%(name)s**'s seat to %(to)s: they let %(missed)d turn deadlines "
                    "in a row pass. %(voters)s: vote with the buttons on the status message; %(needed)d yes of "
                    "%(count)d pass it. The vote ends with the next deadline, %(until)s.",
                    asker=shown(asker.name),
                    name=shown(held.display_name),
                    to=receiver(vote),
                    missed=held.missed,
                    voters=", ".join(seat_ref(s) for s in others),
                    needed=vote.needed(),
                    count=len(voters),
                    until=f"<t:{int(expires.timestamp())}:f>",
                )
            ids = await self._note(
                game_id, f"vote to replace seat {held.seat + 1} opened", [said], user_id=asker.user_id, ping=others
            )
            self.moves.settle(game_id)
            return Done(game_id, ids, _("Vote opened: you voted yes."))

    async def cast(self, game_id: int, voter: Person, number: int, yes: bool) -> Done:
        """A vote's **Yes** or **No** button."""
        async with self.moves.lock(game_id):
            loaded, _game = await self._running(game_id)
            record = loaded.record
            held = next((s for s in loaded.seats if s.seat == number - 1), None)
            vote = of_seat(held) if held is not None else None
            if held is None or vote is None or vote.stage != "voting":
                raise Refusal(_("That vote isn't open any more."))
            if voter.user_id not in vote.voters:
                raise Refusal(_("Only the other players at this table vote on it."))
            if held.player_id != vote.of or held.missed == 0 or held.autopilot:
                # They came back (a move of theirs), or a moderator acted on the seat: the vote is off.
                await self.store.seats.update(game_id, held.seat, handover=None)
                with speaking_at(record):
                    said = _(
                        "🗳️ The vote on **%(name)s**'s seat is off: the seat is played again.",
                        name=shown(held.display_name),
                    )
                ids = await self._note(game_id, f"vote on seat {number} off", [said], user_id=voter.user_id)
                self.moves.settle(game_id)
                return Done(game_id, ids, _("That vote is off: the seat is played again."))
            votes = {**vote.votes, str(voter.user_id): yes}
            vote = vote.model_copy(update={"votes": votes})
            yes_n, no_n = vote.tally()
            if yes_n >= vote.needed():
                ids = await self._passed(record, held, vote, voter)
                return Done(game_id, ids, _("Your yes passed the vote."))
            if no_n > len(vote.voters) - vote.needed():
                await self.store.seats.update(game_id, held.seat, handover=None)
                with speaking_at(record):
                    said = _(
                        "🗳️ The vote to hand **%(name)s**'s seat to %(to)s failed (%(yes)d yes, %(no)d no): they keep "
                        "it.",
                        name=shown(held.display_name),
                        to=receiver(vote),
                        yes=yes_n,
                        no=no_n,
                    )
                ids = await self._note(game_id, f"vote on seat {number} failed", [said], user_id=voter.user_id)
                self.moves.settle(game_id)
                return Done(game_id, ids, _("Your no decided it: the vote failed."))
            await self.store.seats.update(game_id, held.seat, handover=vote.model_dump(mode="json"))
            # Only the status's tally changes: no new line in the thread for one more vote.
            ids = await self._note(
                game_id, f"vote on seat {number}: {'yes' if yes else 'no'}", [], user_id=voter.user_id
            )
            self.moves.settle(game_id)
            if yes:
                said = _("You voted yes (%(yes)d yes, %(no)d no so far).", yes=yes_n, no=no_n)
            else:
                said = _("You voted no (%(yes)d yes, %(no)d no so far).", yes=yes_n, no=no_n)
            return Done(game_id, ids, said)

    async def _passed(self, record: GameRecord, held: SeatRecord, vote: Handover, by: Person) -> list[int]:
        """The vote passed (under the lock): the autopilot plays the seat, or the substitute is offered it."""
        game_id, number, name = record.id, held.seat + 1, shown(held.display_name)
        yes, no = vote.tally()
        if vote.to is None:
            await self.store.seats.update(game_id, held.seat, autopilot=True, missed=0, handover=None)
            with speaking_at(record):
                said = _(
                    "🗳️ The table voted (%(yes)d yes, %(no)d no): the autopilot plays **%(name)s**'s seat from now on "
                    "(safe moves only). %(name)s: `/game back` takes it back.",
                    yes=yes,
                    no=no,
                    name=name,
                )
            ids = await self._note(game_id, f"vote passed: seat {number} on autopilot", [said], user_id=by.user_id)
        else:
            loaded = await self.store.games.load(game_id)
            expires = await self._next_deadline(loaded, self.read.game(record.kind))
            offer = vote.model_copy(update={"stage": "offered", "expires": expires})
            await self.store.seats.update(game_id, held.seat, handover=offer.model_dump(mode="json"))
            with speaking_at(record):
                said = _(
                    "🗳️ The table voted (%(yes)d yes, %(no)d no) to hand **%(name)s**'s seat to %(to)s: take it with "
                    "**Take seat %(number)d** on the status message before %(until)s.",
                    yes=yes,
                    no=no,
                    name=name,
                    to=f"<@{vote.to}>",
                    number=number,
                    until=f"<t:{int(expires.timestamp())}:f>",
                )
            ids = await self._note(
                game_id, f"vote passed: seat {number} offered to {vote.to_name}", [said], user_id=by.user_id
            )
        ids += await self.moves.auto_pass(game_id, after_commit=True)
        self.moves.settle(game_id)
        game_logger(game_id, "boardroom.service").info("replacement vote passed", extra={"fields": {"seat": held.seat}})
        return ids
