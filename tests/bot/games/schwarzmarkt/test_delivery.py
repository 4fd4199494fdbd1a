"""Schwarzmarkt's trading turns, decided on the hand, where they meet `/me notify` (issues 26 and 27): the turn
reaches a player who chose DMs as their hand coming down as one new DM — not that and a 🔔 DM besides — and reaches
one who chose the digest only there: their hand edited in place, no ping. Counted over everything SimCord holds
(`tests.bot.test_notify.Reach`)."""

import simcord

from tests.bot.helpers import make_server
from tests.bot.test_delivery_joints import tells
from tests.bot.test_notify import Reach

from .helpers import buttons, click_hand, hand_message, start_game
from .helpers import state as sm_state


async def test_a_trading_turn_reaches_a_dm_player_as_the_hand_coming_down_once(env: simcord.Env) -> None:
    """Schwarzmarkt's trading turns are decided on the hand: a player who chose DMs gets the hand as one new DM (its
    prompt), not the hand plus a 🔔 DM; nobody is pinged for it."""
    server = make_server(env)
    for m in server.members[:4]:
        await m.user.slash("me notify", mode="dm")
    _, players = await start_game(server)
    reach = Reach(env)
    handed = 0
    for _ in range(16):
        game = await sm_state(server)
        member = players[game.turn]
        labels = buttons(hand_message(member))
        await click_hand(member, labels[-1] if game.phase == "trade" else labels[0])
        await env.settle()
        pinged, dmed = reach.look()
        after = await sm_state(server)
        if after.phase != "trade" or after.turn == game.turn:
            continue
        trader = players[after.turn]
        assert trader.id not in pinged, pinged
        new = dmed.get(trader.id, [])
        assert len(new) == 1 and tells(new) == [], new  # the hand, once; no 🔔 DM besides
        assert hand_message(trader).content.strip(), "the hand that came down says what waits"
        handed += 1
    assert handed >= 3


async def test_a_digest_only_trader_gets_no_hand_resent_and_no_ping(env: simcord.Env) -> None:
    """A player who chose the digest only hears of a trading turn there: their hand is edited in place (its buttons),
    not sent anew, and the thread names them without a ping."""
    server = make_server(env)
    _, players = await start_game(server)
    quiet_one = players[1]
    await quiet_one.slash(server.channel, "me digest", at="08:00", timezone="Europe/Berlin")
    chosen = await quiet_one.slash(server.channel, "me notify", mode="digest")
    assert "only in your daily digest" in chosen.response.content
    reach = Reach(env)
    hand_id = hand_message(quiet_one).id
    theirs = 0
    for _ in range(24):
        game = await sm_state(server)
        member = players[game.turn]
        labels = buttons(hand_message(member))
        await click_hand(member, labels[-1] if game.phase == "trade" else labels[0])
        await env.settle()
        pinged, dmed = reach.look()
        assert quiet_one.id not in pinged, pinged
        after = await sm_state(server)
        if after.phase == "trade" and after.turn == 1 and game.turn != 1:
            assert dmed.get(quiet_one.id, []) == [], dmed
            assert hand_message(quiet_one).id == hand_id, "the hand was edited in place, not re-sent"
            assert buttons(hand_message(quiet_one)), "its buttons are on it"
            theirs += 1
    assert theirs >= 1
