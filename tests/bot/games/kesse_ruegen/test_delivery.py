"""A duel's fist and guess, decided on the hand, where they meet `/me notify` (issues 26 and 27): a duellist who chose
DMs gets each as their hand coming down as one new DM — not that and a 🔔 DM besides — and nobody is pinged for them.
Counted over everything SimCord holds (`tests.bot.test_notify.Reach`)."""

import simcord

from tests.bot.helpers import make_server
from tests.bot.test_delivery_joints import tells
from tests.bot.test_notify import Reach

from .helpers import buttons, close_fist_by_dm, hand_message, start_game, state


async def test_a_dm_duellist_gets_the_fist_and_the_guess_once_each_on_the_hand(env: simcord.Env) -> None:
    server = make_server(env)
    for m in server.members[:2]:
        await m.user.slash("me notify", mode="dm")
    thread, players = await start_game(server)
    assert (await state(server)).first == 0  # the seeded draw: anna begins
    anna, bert = players
    await anna.slash(thread, "kr place", square="a1")
    reach = Reach(env)
    # Bert's pawn is the last: the duel with anna is on at once. Anna's fist is asked on her hand, which comes down.
    await bert.slash(thread, "kr place", square="e5")
    await env.settle()
    pinged, dmed = reach.look()
    assert anna.id not in pinged, pinged
    assert len(dmed.get(anna.id, [])) == 1 and tells(dmed[anna.id]) == [], dmed
    assert buttons(hand_message(anna)) == ["0", "1", "2"]
    assert tells(dmed.get(bert.id, [])) == [], "bert acted: no 🔔 for his own fist"
    # Both fists closed: the guess is asked on the guesser's hand, once.
    await close_fist_by_dm(anna, 1)
    await close_fist_by_dm(bert, 2)
    await env.settle()
    pinged, dmed = reach.look()
    game = await state(server)
    assert game.phase == "guess" and game.duel is not None
    guesser = players[game.duel.guesser()]
    assert guesser != bert, "the one who just closed his fist is not the guesser here: the prompt is news"
    assert guesser.id not in pinged, pinged
    assert len(dmed.get(guesser.id, [])) == 1 and tells(dmed[guesser.id]) == [], dmed
    assert buttons(hand_message(guesser)), "the guess buttons are on the hand that came down"


async def test_a_fist_asked_on_a_hand_whose_dms_just_closed_pings_in_the_thread(env: simcord.Env) -> None:
    """Anna's DMs worked at the start and close mid-game: her fist, asked on her hand, can't come down to her, so the
    thread pings her for it instead — once — as it does for any prompt a closed DM would lose."""
    server = make_server(env)
    thread, players = await start_game(server)
    anna, bert = players
    await anna.slash(thread, "kr place", square="a1")
    env.inject_error(
        "POST",
        f"/channels/{anna.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    reach = Reach(env)
    await bert.slash(thread, "kr place", square="e5")
    await env.settle()
    pinged, _ = reach.look()
    assert pinged.get(anna.id) == 1, pinged
    assert [s.dm_ok for s in await server.bot.store.seats.of_game(1) if s.player_id == anna.id] == [False]
