"""The platform with a real game on the generic presentation: a lobby of four starts Kohle, Kies & Knete and deals
the hands by DM (the game's own presentation is tested in tests/bot/games/kkk/)."""

import simcord

from bot.presentation import GenericPresentation, private_part
from engine import registry
from tests.bot.helpers import dms, embed_text, make_server, seat_players, thread_of


async def test_a_lobby_starts_kkk_and_deals_hands_by_dm(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    kkk = registry.get("kkk")
    await env.restart_bot(make_bot(games={"kkk": kkk}, presentations={"kkk": GenericPresentation()}))
    server = make_server(env)
    opener = server.members[0]
    opened = await opener.slash(server.channel, "game new", game="kkk")
    assert "Kohle, Kies & Knete #1" in embed_text(opened.response.message)
    for m in server.members[1:]:
        await m.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    thread = thread_of(server)
    players = await seat_players(server, 1)
    snap = await server.bot.store.games.snapshot(1)
    state = kkk.load_state(snap.state)
    public = [embed_text(m) for m in thread.history()] + [embed_text(m) for m in server.channel.history()]
    for seat, member in enumerate(players):
        (hand,) = dms(member)
        cards = ", ".join(private_part(kkk, state, seat)["hand"])
        assert f"Hand: {cards}" in embed_text(hand)
        assert all(f"Hand: {cards}" not in text for text in public)
    # The game waits on the player right of the starter to place the marker, and takes a move from Discord.
    (wait,) = kkk.waiting_on(state)
    placer = players[wait.seats[0]]
    # Pinged, unless the placer is the opener who just pressed Start: named instead (no ping for their own step).
    who = placer.name if placer.id == opener.id else f"<@{placer.id}>"
    assert any(f"⏳ {who}, your turn: place marker" in text for text in public)
    assert placer.id != opener.id or all(f"<@{placer.id}>" not in text for text in public)
    choices = await placer.autocomplete(thread, "game move", "action", "place")
    assert choices
    placed = await placer.slash(thread, "game move", action=choices[0]["value"])
    assert not placed.response.ephemeral, placed.response.content
    assert (await server.bot.store.games.get(1)).version == 1
