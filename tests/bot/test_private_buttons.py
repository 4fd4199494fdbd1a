"""Private buttons: a presentation's hand buttons ride on the hand DM and on `/game hand`, the DM is edited when its
buttons change (even if its secret did not), a click on them acts for the right seat and answers by editing the
clicked message, and `button_reply` answers a public button privately. With a toy presentation whose player to move
gets Draw / Play buttons on their hand, and a public "Pick a card" button answered privately."""

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from bot.presentation import Button, Post, Table
from bot.service import Refusal
from tests.bot.helpers import (
    dms,
    embed_text,
    make_server,
    rest_calls_since,
    start_toy,
    state,
    texts,
    thread_of,
)
from tests.bot.toy_presentation import ToyControls, ToyPresentation


class HandButtonsControls(ToyControls):
    """Draw and Play buttons on the hand; the status's "Pick a card" answers with them privately."""

    presentation: "HandButtons"

    def button_reply(self, table: Table, seat: int, key: str) -> Post | None:
        if key != "pick":
            return None
        moves = self.presentation.moves(table, seat)
        if not moves:
            raise Refusal("You can pick a card on your turn.")
        return Post(content="Your cards, for your eyes only:", buttons=moves)

    def button_action(self, table: Table, seat: int, key: str) -> Any | None:
        if key == "draw":
            return {"type": "draw"}
        if key.startswith("play."):
            return {"type": "play", "card": int(key[5:])}
        return super().button_action(table, seat, key)


class HandButtons(ToyPresentation):
    controls_type = HandButtonsControls

    def moves(self, table: Table, seat: int) -> list[Button]:
        game: Any = table.state
        if game is None or game.over or game.window is not None or game.turn != seat:
            return []
        plays = [Button(f"Play {c}", f"play.{c}", "success") for c in sorted(set(game.hands[seat]))]
        return [Button("Draw", "draw"), *plays]

    def private_view(self, table: Table, seat: int) -> Post:
        post = super().private_view(table, seat)
        post.buttons = self.moves(table, seat)
        return post

    def status(self, table: Table) -> Post:
        post = super().status(table)
        if table.state is not None and table.result is None:
            post.buttons.append(Button("Pick a card", "pick", "primary"))
        return post


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(presentations={"toy": HandButtons()})


def labels(message: Any) -> list[str]:
    if isinstance(message, simcord.InteractionResult):
        message = message.response.message
    return [c.label for row in message.components for c in getattr(row, "children", [])]


def status_message(thread):  # type: ignore[no-untyped-def]
    return next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1")


async def test_hand_dms_carry_buttons_and_follow_the_turn(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot]
) -> None:
    server = make_server(env)
    first, second, third = await start_toy(server)
    game = await state(server, 1)
    assert labels(dms(first)[0]) == ["Draw"] + [f"Play {c}" for c in sorted(set(game.hands[0]))]
    assert labels(dms(second)[0]) == [] and labels(dms(third)[0]) == []
    second_hand = embed_text(dms(second)[0])

    before = len(env.http_requests)
    drawn = await first.user.click(dms(first)[0], label="Draw")
    calls = rest_calls_since(env, before)
    # The click's response is the edit of that hand DM; then the narration and the status; then the next player's
    # hand, whose buttons changed.
    assert len(calls) <= 4, calls
    assert not any(c.startswith(f"PATCH /channels/{first.user.dm_channel.id}/") for c in calls), calls
    assert drawn.response.id == dms(first)[0].id and "You drew a" in embed_text(drawn.response.message)
    assert labels(dms(first)[0]) == []
    assert (await state(server, 1)).turn == 1 and sum("draws a card" in t for t in texts(thread_of(server))) == 1
    # The second player's DM was edited for its buttons alone: what it says is the same.
    assert labels(dms(second)[0])[0] == "Draw" and embed_text(dms(second)[0]) == second_hand
    assert [len(dms(m)) for m in (first, second, third)] == [1, 1, 1]

    # After a restart the DM's buttons still work.
    env.bot.scheduler.close()
    await env.restart_bot(make_bot(presentations={"toy": HandButtons()}))
    card = (await state(server, 1)).hands[1][0]
    played = await second.user.click(dms(second)[0], label=f"Play {card}")
    assert played.response.id == dms(second)[0].id and labels(dms(second)[0]) == []
    assert any(f"plays a {card}" in t for t in texts(thread_of(server)))


async def test_game_hand_and_a_private_reply_offer_the_same_buttons(env: simcord.Env) -> None:
    server = make_server(env)
    first, second, _ = await start_toy(server)
    thread = thread_of(server)
    mine = await first.slash(thread, "game hand")
    assert mine.response.ephemeral and labels(mine)[0] == "Draw"
    theirs = await second.slash(thread, "game hand")
    assert theirs.response.ephemeral and labels(theirs) == []

    # "Pick a card" on the public status message answers the clicker alone: with buttons, or why not.
    refused = await second.click(status_message(thread), label="Pick a card")
    assert refused.response.ephemeral and refused.response.content == "You can pick a card on your turn."
    version = (await server.bot.store.games.get(1)).version
    picked = await first.click(status_message(thread), label="Pick a card")
    assert picked.response.ephemeral and picked.response.content == "Your cards, for your eyes only:"
    assert labels(picked) == labels(mine)
    assert (await server.bot.store.games.get(1)).version == version  # a reply is not a move
    for m in thread.history():
        assert m.flags.ephemeral or "for your eyes only" not in m.content

    # A click there plays; the private answer says so, without buttons (the hand DM shows the move: a second copy
    # of the hand would only go stale beside it); the narration is public.
    clicked = await first.click(picked.response, label="Draw")
    assert clicked.response.ephemeral and clicked.response.id == picked.response.id
    assert embed_text(clicked.response.message) == "✅ Done. Your DM shows where you stand." and labels(clicked) == []
    assert (await state(server, 1)).turn == 1
    (narration,) = [m for m in thread.history() if "draws a card" in m.content]
    assert not narration.flags.ephemeral

    # The older ephemeral hand, clicked now, is refused on top of the current hand; nothing changes.
    version = (await server.bot.store.games.get(1)).version
    late = await first.click(mine.response, label="Draw")
    assert late.response.content == f"It's {second.name}'s turn." and labels(late) == []
    assert (await server.bot.store.games.get(1)).version == version


async def test_a_hand_dm_answers_only_its_own_player(env: simcord.Env) -> None:
    server = make_server(env)
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    first, _, _ = await start_toy(server)
    thread = thread_of(server)
    old_dm = dms(first)[0]
    olga = server.guild.add_member(env.create_user("olga"))
    await mia.slash(thread, "mod substitute", old=first, new=olga)
    version = (await server.bot.store.games.get(1)).version

    # The replaced player's old hand DM is retired: it says so, without the hand or its buttons.
    retired = next(m for m in dms(first) if m.id == old_dm.id)
    assert "You no longer play in **Toy #1**" in retired.content and not retired.components
    assert (await server.bot.store.games.get(1)).version == version
    # The new player has their own hand DM, with the seat's buttons.
    assert labels(dms(olga)[0])[0] == "Draw"

    # Seated again, the first player gets a new hand DM; the old one stays retired.
    await mia.slash(thread, "mod substitute", old=olga, new=first)
    assert (await server.bot.store.games.get(1)).version == version + 1  # only the substitution's note
    fresh = dms(first)[-1]
    assert fresh.id != old_dm.id
    await first.user.click(fresh, label="Draw")
    assert (await state(server, 1)).turn == 1
    assert "You no longer play in **Toy #1**" in dms(olga)[0].content and not dms(olga)[0].components


async def test_an_old_hand_of_another_seat_is_refused(env: simcord.Env) -> None:
    server = make_server(env)
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    first, second, third = await start_toy(server)
    thread = thread_of(server)
    old_dm = dms(first)[0]
    assert labels(old_dm)[0] == "Draw"
    await mia.slash(thread, "mod kick", player=first)  # seat 1 is left without a player; its DM keeps its buttons
    assert labels(dms(first)[0])[0] == "Draw"
    await mia.slash(thread, "mod substitute", old=third, new=first)  # ... and the same member now plays seat 3
    version = (await server.bot.store.games.get(1)).version
    refused = await first.user.click(old_dm, label="Draw")
    assert refused.response.ephemeral
    assert refused.response.content == "These buttons belong to another seat's hand. `/game hand` shows yours."
    assert (await server.bot.store.games.get(1)).version == version
    assert (await state(server, 1)).turn == 1 and labels(dms(second)[0])[0] == "Draw"
