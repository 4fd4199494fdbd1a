"""Rematch: a finished table's players start again with one click.

The 🔁 Rematch button on a finished (or moderator-ended) game's status message opens a new lobby in the game's
channel — same game, same options, same seat limit, seat order and player picks — with the clicker seated, and
pings the other players of the old table in the lobby message ("🔁 Rematch of #7: @anna @bert — join below").
The old table's computer players are seated again (as many, at the same levels, right after the clicker, named
afresh: "Robo Anna 🤖", "Robo Bruno 🤖 (hard)", …), so a group that needed them to play needs no clicks to have them
back; a seat whose computer player a moderator turned off (`/mod autopilot off`) is not a computer player any more
and is not refilled. A person's seat that ended
on autopilot is a person's seat: they are invited like everyone else.
Only someone who played in the old game may ask; one rematch per game (a second click points to the first one while
its lobby is open, and may open another once that one has started or closed).
"""

from typing import TYPE_CHECKING

from bot.clicks import Click, GameButton
from bot.components import view_for
from bot.i18n.platform import _
from bot.lobby import lobby_post
from bot.lobby_repair import open_thread_or_close
from bot.names import PINGS
from bot.presentation import Table
from bot.replies import Answer
from bot.service import Person, Refusal
from bot.table import speaking_at
from storage import GameNotFound, MessageRef

if TYPE_CHECKING:
    from bot.host import Host

REMATCH_REF = "rematch"
"""A reference on the old game whose key is the rematch's game id. It points to no message of its own (the rematch's
lobby message is the new game's reference), so its message id is the new game's id, negated: never a Discord id."""


async def rematch(bot: "Host", game_id: int, person: Person) -> Answer:
    service, store = bot.service, bot.store
    record = await store.games.get(game_id)
    engine = service.read.game(record.kind)
    if record.status not in ("finished", "abandoned"):
        raise Refusal(
            _("%(title)s is still being played: a rematch comes after the end.", title=f"{engine.title} #{game_id}")
        )
    seats = await store.seats.of_game(game_id)
    if person.user_id not in {s.player_id for s in seats}:
        raise Refusal(
            _(
                "Only the players of %(title)s can ask for its rematch. `/game new` opens a game.",
                title=f"{engine.title} #{game_id}",
            )
        )
    for ref in await store.refs.of_game(game_id, kind=REMATCH_REF):
        try:
            earlier = await store.games.get(int(ref.key))
        except GameNotFound:
            continue
        if earlier.status == "lobby":
            where = f"<#{earlier.thread_id}>" if earlier.thread_id else f"<#{earlier.channel_id}>"
            raise Refusal(
                _(
                    "The rematch is already open: %(title)s in %(where)s. Join it there.",
                    title=f"{engine.title} #{earlier.id}",
                    where=where,
                )
            )
    settings = await service.read.lobby_settings(record)
    bots = [s.level for s in seats if s.bot]
    new = await service.lobby.create_lobby(
        record.kind,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        creator=person,
        options=record.options,
        bots=bots,
        max_seats=settings.max_seats,
    )
    table = Table(
        engine, new, await store.seats.of_game(new.id), None, service.read.now(), lobby_max=settings.max_seats
    )
    others = " ".join(f"<@{s.player_id}>" for s in seats if s.player_id not in (None, person.user_id))
    with speaking_at(new):  # the lobby speaks the table's language
        post = lobby_post(table, random_order=settings.random_order, picks=settings.picks)
        if others:
            invite = _(
                "🔁 Rematch of %(title)s: %(others)s — join below!", title=f"{engine.title} #{game_id}", others=others
            )
        else:
            invite = _("🔁 Rematch of %(title)s.", title=f"{engine.title} #{game_id}")
    channel = bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
    message = await channel.send(
        content=invite, embed=post.embed(), view=view_for(new.id, post.buttons), allowed_mentions=PINGS
    )
    await service.lobby.attach_lobby_message(new.id, message_id=message.id, channel_id=channel.id, settings=settings)
    ids = await open_thread_or_close(bot, new, channel.id, message.id)
    await store.refs.put(
        MessageRef(message_id=-new.id, channel_id=channel.id, game_id=game_id, kind=REMATCH_REF, key=str(new.id))
    )
    if ids:
        await bot.notifier.flush(new.id)
    return Answer(
        text=_(
            "🔁 The rematch lobby is open in %(where)s (%(title)s); the others are invited.",
            where=f"<#{channel.id}>",
            title=f"{engine.title} #{new.id}",
        )
    )


class RematchButton(GameButton, keys="rematch"):
    """🔁 Rematch on a finished game's status message."""

    async def clicked(self, click: Click) -> Answer | None:
        return await rematch(click.bot, click.game_id, click.person)
