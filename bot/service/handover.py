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

from collections.abc import Sequence
from datetime import datetime

from bot import outbox
from bot.handover import Handover, of_seat, receiver
from bot.logs import game_logger
from bot.names import shown
from bot.service.moves import MovePath, require_running
from bot.service.results import Done, Person, Refusal
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

    async def _retire(self, record: GameRecord, held: SeatRecord, text: str) -> NewOutbox | None:
        """The row that tells the seat's old player they are out, in their old hand DM (which loses the hand)."""
        if held.player_id is None:
            return None
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
                raise Refusal(f"You're not playing in {game.title} #{game_id}.")
            number = held.seat + 1
            if (to is None) == (not autopilot):
                raise Refusal(
                    "Say who takes your seat: `to:@someone` (they accept with a button; you play on until they do) "
                    "or `autopilot:true` (the autopilot plays it from now on)."
                )
            if to is None:
                if self.read.policy(record.kind) is None:
                    raise Refusal(f"{game.title} has no autopilot yet: name someone to take your seat with `to:@…`.")
                goodbye = await self._retire(
                    record,
                    held,
                    f"👋 You left **{self._title(record)}**; the autopilot plays your seat. Thanks for playing!",
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
                said = (
                    f"👋 **{shown(held.display_name)}** left the game: the autopilot plays their seat from now on "
                    f"(safe moves only). `/mod substitute seat:{number}` can seat someone else."
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
                return Done(game_id, ids, f"You left {self._title(record)}; the autopilot plays seat {number}.")
            if to.user_id == leaver.user_id:
                raise Refusal("Name someone else to take your seat (or `autopilot:true`).")
            if any(s.player_id == to.user_id for s in loaded.seats):
                raise Refusal(f"{shown(to.name)} already plays in {game.title} #{game_id}: name someone who doesn't.")
            expires = await self._next_deadline(loaded, game)
            offer = Handover(
                kind="leave", by=leaver.user_id, of=leaver.user_id, to=to.user_id, to_name=to.name, expires=expires
            )
            await self.store.seats.update(game_id, held.seat, handover=offer.model_dump(mode="json"))
            said = (
                f"🔁 **{shown(held.display_name)}** offers their seat (seat {number}) to <@{to.user_id}>: take it with "
                f"**Take seat {number}** on the status message before <t:{int(expires.timestamp())}:f>. Until then "
                f"{shown(held.display_name)} plays on."
            )
            ids = await self._note(game_id, f"seat {number} offered to {to.name}", [said], user_id=leaver.user_id)
            self.moves.settle(game_id)
            return Done(
                game_id,
                ids,
                f"Offered your seat to {shown(to.name)} until <t:{int(expires.timestamp())}:f>; you play on until they "
                "take it. **Decline** on the status message withdraws the offer.",
            )

    async def take(self, game_id: int, user: Person, number: int) -> Done:
        """The offered person takes the seat (the **Take seat N** button)."""
        async with self.moves.lock(game_id):
            loaded, game = await self._running(game_id)
            record = loaded.record
            held = next((s for s in loaded.seats if s.seat == number - 1), None)
            offer = of_seat(held) if held is not None else None
            if held is None or offer is None or offer.stage != "offered":
                raise Refusal("That offer isn't open any more.")
            if offer.to != user.user_id:
                raise Refusal(f"Seat {number} is offered to {shown(offer.to_name)}, not to you.")
            if any(s.player_id == user.user_id for s in loaded.seats):
                raise Refusal(f"You already play in {game.title} #{game_id}.")
            old_name = held.display_name
            why = "you offered it to" if offer.kind == "leave" else "the table voted to hand it to"
            goodbye = await self._retire(
                record,
                held,
                f"👋 You no longer play in **{self._title(record)}**: {why} {shown(user.name)}, who took your seat. "
                "Thanks for playing!",
            )
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
            said = (
                f"🔁 {seat_ref(held.seat)} takes over seat {number} from {shown(old_name)}. Welcome! Your hand is in "
                "your DMs (or `/game hand`); `/game help` says what you can do."
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
                game_id, ids, f"You play seat {number} of {game.title} #{game_id} now. Your hand is in your DMs."
            )

    async def drop(self, game_id: int, user: Person, number: int) -> Done:
        """**Decline**: the offered person says no, or the leaver (or a vote's opener) withdraws the offer."""
        async with self.moves.lock(game_id):
            loaded, _ = await self._running(game_id)
            held = next((s for s in loaded.seats if s.seat == number - 1), None)
            offer = of_seat(held) if held is not None else None
            if held is None or offer is None or offer.stage != "offered":
                raise Refusal("That offer isn't open any more.")
            if user.user_id not in (offer.to, offer.by, held.player_id):
                raise Refusal("Only the person offered the seat, or the one who offered it, can decline it.")
            await self.store.seats.update(game_id, held.seat, handover=None)
            who = "declined" if user.user_id == offer.to else "withdrew"
            said = f"🔁 {shown(user.name)} {who} the offer of seat {number}: **{shown(held.display_name)}** keeps it."
            ids = await self._note(game_id, f"offer of seat {number} {who}", [said], user_id=user.user_id)
            self.moves.settle(game_id)
            return Done(game_id, ids, f"You {who} the offer of seat {number}.")

    async def expire(self, record: GameRecord, number: int) -> list[int]:
        """An offer or a vote reached its deadline (a `handover` timer, under the game's lock)."""
        held = next((s for s in await self.store.seats.of_game(record.id) if s.seat == number - 1), None)
        offer = of_seat(held) if held is not None else None
        if held is None or offer is None or offer.expires > self.read.now():
            return []
        await self.store.seats.update(record.id, held.seat, handover=None)
        name = shown(held.display_name)
        if offer.stage == "voting":
            yes, _ = offer.tally()
            said = (
                f"⌛ The vote to hand **{name}**'s seat to {receiver(offer)} expired with the deadline "
                f"({yes} yes of {offer.needed()} needed): **{name}** keeps it."
            )
        else:
            said = f"⌛ The offer of seat {number} to {shown(offer.to_name)} lapsed: **{name}** keeps it."
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
            if mine is None:
                raise Refusal(f"Only the players of {game.title} #{game_id} can vote on its seats.")
            held = next((s for s in loaded.seats if s.player_id == absent.user_id), None)
            if held is None:
                raise Refusal(f"{shown(absent.name)} doesn't hold a seat in {game.title} #{game_id}.")
            if held is mine:
                raise Refusal("You can't vote on your own seat: `/game leave` hands it on.")
            if (to is None) == (not autopilot):
                raise Refusal(
                    "Say who should take the seat: `with:@someone` (they accept with a button) or `autopilot:true`."
                )
            if held.autopilot:
                raise Refusal(f"The autopilot plays {shown(absent.name)}'s seat already.")
            if held.missed < VOTE_AFTER:
                raise Refusal(
                    f"{shown(absent.name)} hasn't let {VOTE_AFTER} turn deadlines in a row pass "
                    f"(so far: {held.missed}): a replacement vote is for a player who is gone. A moderator can still "
                    "help (`/mod substitute`)."
                )
            if of_seat(held) is not None:
                raise Refusal(f"A handover of {shown(absent.name)}'s seat is open already: see the status message.")
            if to is None and self.read.policy(record.kind) is None:
                raise Refusal(f"{game.title} has no autopilot yet: name a substitute with `with:@…`.")
            if to is not None and any(s.player_id == to.user_id for s in loaded.seats):
                raise Refusal(f"{shown(to.name)} already plays in {game.title} #{game_id}.")
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
                return Done(game_id, await self._passed(record, held, vote, asker), "The vote passed at once.")
            await self.store.seats.update(game_id, held.seat, handover=vote.model_dump(mode="json"))
            others = [s.seat for s in loaded.seats if s.player_id in voters and s.player_id != asker.user_id]
            said = (
                f"🗳️ **{shown(asker.name)}** asks to hand **{shown(held.display_name)}**'s seat to {receiver(vote)}: "
                f"they let {held.missed} turn deadlines in a row pass. "
                + ", ".join(seat_ref(s) for s in others)
                + f": vote with the buttons on the status message; {vote.needed()} yes of {len(voters)} pass it. The "
                f"vote ends with the next deadline, <t:{int(expires.timestamp())}:f>."
            )
            ids = await self._note(
                game_id, f"vote to replace seat {held.seat + 1} opened", [said], user_id=asker.user_id, ping=others
            )
            self.moves.settle(game_id)
            return Done(game_id, ids, "Vote opened: you voted yes.")

    async def cast(self, game_id: int, voter: Person, number: int, yes: bool) -> Done:
        """A vote's **Yes** or **No** button."""
        async with self.moves.lock(game_id):
            loaded, _ = await self._running(game_id)
            record = loaded.record
            held = next((s for s in loaded.seats if s.seat == number - 1), None)
            vote = of_seat(held) if held is not None else None
            if held is None or vote is None or vote.stage != "voting":
                raise Refusal("That vote isn't open any more.")
            if voter.user_id not in vote.voters:
                raise Refusal("Only the other players at this table vote on it.")
            if held.player_id != vote.of or held.missed == 0 or held.autopilot:
                # They came back (a move of theirs), or a moderator acted on the seat: the vote is off.
                await self.store.seats.update(game_id, held.seat, handover=None)
                said = f"🗳️ The vote on **{shown(held.display_name)}**'s seat is off: the seat is played again."
                ids = await self._note(game_id, f"vote on seat {number} off", [said], user_id=voter.user_id)
                self.moves.settle(game_id)
                return Done(game_id, ids, "That vote is off: the seat is played again.")
            votes = {**vote.votes, str(voter.user_id): yes}
            vote = vote.model_copy(update={"votes": votes})
            yes_n, no_n = vote.tally()
            if yes_n >= vote.needed():
                ids = await self._passed(record, held, vote, voter)
                return Done(game_id, ids, "Your yes passed the vote.")
            if no_n > len(vote.voters) - vote.needed():
                await self.store.seats.update(game_id, held.seat, handover=None)
                said = (
                    f"🗳️ The vote to hand **{shown(held.display_name)}**'s seat to {receiver(vote)} failed "
                    f"({yes_n} yes, {no_n} no): they keep it."
                )
                ids = await self._note(game_id, f"vote on seat {number} failed", [said], user_id=voter.user_id)
                self.moves.settle(game_id)
                return Done(game_id, ids, "Your no decided it: the vote failed.")
            await self.store.seats.update(game_id, held.seat, handover=vote.model_dump(mode="json"))
            # Only the status's tally changes: no new line in the thread for one more vote.
            ids = await self._note(
                game_id, f"vote on seat {number}: {'yes' if yes else 'no'}", [], user_id=voter.user_id
            )
            self.moves.settle(game_id)
            return Done(game_id, ids, f"You voted {'yes' if yes else 'no'} ({yes_n} yes, {no_n} no so far).")

    async def _passed(self, record: GameRecord, held: SeatRecord, vote: Handover, by: Person) -> list[int]:
        """The vote passed (under the lock): the autopilot plays the seat, or the substitute is offered it."""
        game_id, number, name = record.id, held.seat + 1, shown(held.display_name)
        yes, no = vote.tally()
        if vote.to is None:
            await self.store.seats.update(game_id, held.seat, autopilot=True, missed=0, handover=None)
            said = (
                f"🗳️ The table voted ({yes} yes, {no} no): the autopilot plays **{name}**'s seat from now on (safe "
                f"moves only). {name}: `/game back` takes it back."
            )
            ids = await self._note(game_id, f"vote passed: seat {number} on autopilot", [said], user_id=by.user_id)
        else:
            loaded = await self.store.games.load(game_id)
            expires = await self._next_deadline(loaded, self.read.game(record.kind))
            offer = vote.model_copy(update={"stage": "offered", "expires": expires})
            await self.store.seats.update(game_id, held.seat, handover=offer.model_dump(mode="json"))
            said = (
                f"🗳️ The table voted ({yes} yes, {no} no) to hand **{name}**'s seat to <@{vote.to}>: take it with "
                f"**Take seat {number}** on the status message before <t:{int(expires.timestamp())}:f>."
            )
            ids = await self._note(
                game_id, f"vote passed: seat {number} offered to {vote.to_name}", [said], user_id=by.user_id
            )
        ids += await self.moves.auto_pass(game_id, after_commit=True)
        self.moves.settle(game_id)
        game_logger(game_id, "boardroom.service").info("replacement vote passed", extra={"fields": {"seat": held.seat}})
        return ids
