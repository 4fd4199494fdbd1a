"""A restart in the middle of a trading round: the new process carries on with the hand DMs' buttons posted by the
old one, and the trading turn's own deadline (not the turn deadline) fires on time with its default."""

import simcord

from engine import registry
from tests.bot.helpers import dms, embed_text, make_server

from .helpers import buttons, click_hand, hand_message, start_game, state


async def test_a_restart_mid_trading_round_keeps_buttons_hands_and_the_trading_deadline(
    env: simcord.Env,
    make_bot,  # type: ignore[no-untyped-def]
) -> None:
    server = make_server(env)
    thread, players = await start_game(server, options="trade_hours=2")
    game = await state(server)
    while game.phase != "trade":  # cards are played (events carried out) until an offer opens a trading round
        offers = [c for c in game.black_market[game.turn] if game.cards[c].event is None]
        if game.phase == "play" and offers:
            await players[game.turn].slash(thread, "sm play", card=offers[0])
        else:
            await click_hand(players[game.turn], buttons(hand_message(players[game.turn]))[0])
        game = await state(server)
    await click_hand(players[game.turn], "No trade, move 1")
    game = await state(server)
    trader = players[game.turn]
    marker = game.marker

    # The process dies mid-round and a new one starts on the same database.
    env.bot.scheduler.close()
    await env.restart_bot(make_bot(games={"schwarzmarkt": registry.get("schwarzmarkt")}, presentations={}))

    # The trader's hand DM, posted by the old process, still works.
    assert "No trade, move 1" in buttons(hand_message(trader))
    await click_hand(trader, "No trade, move 1")
    game = await state(server)
    assert game.marker == marker + 1 and game.phase == "trade"
    next_trader = players[game.turn]
    assert len(dms(next_trader)) == 1 and buttons(hand_message(next_trader))

    # The trading turn's deadline is the game's own 2 hours: nothing at 1 hour 59, the default at 2 hours.
    await env.advance_time(2 * 3600 - 60)
    assert (await state(server)).turn == game.turn
    await env.advance_time(61)
    after = await state(server)
    assert after.turn != game.turn and after.marker == game.marker + 1
    said = [m.content for m in thread.history()]
    assert any(f"⏰ Time's up: {next_trader.name} doesn't trade and moves the marker 1 space" in t for t in said)
    assert "Your goods" in embed_text(hand_message(next_trader))
