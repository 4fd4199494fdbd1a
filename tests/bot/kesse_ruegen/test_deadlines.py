"""Deadlines in simulated time, driven by the platform's scheduler: a silent challenged player's fist closes on 0
and their guess is the lowest total still free; a silent player to move loses the turn. The fist buttons leave the
hand DM when the deadline closes the fist; an ephemeral fist prompt clicked after its duel is over changes nothing
and turns into the hand, with the reason."""

import simcord

from tests.bot.helpers import dms, embed_text, make_server, texts

from .helpers import buttons, close_fist_by_dm, hand_message, start_game, state

DAY = 24 * 3600


async def test_silent_players_get_the_defaults_at_the_deadline(env: simcord.Env) -> None:
    server = make_server(env)
    thread, (anna, bert) = await start_game(server)
    await anna.slash(thread, "kr place", square="a1")
    await bert.slash(thread, "kr place", square="e5")
    await anna.slash(thread, "kr duel", opponent=bert)
    await close_fist_by_dm(anna, 2)
    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Kesse Rügen #1")
    stale_prompt = (await bert.click(status, label="Choose in secret")).response
    assert buttons(hand_message(bert)) == ["0", "1", "2"]

    await env.advance_time(DAY - 60)
    assert (await state(server)).phase == "choose"  # not yet
    assert any("⏰ Reminder" in t and f"<@{bert.id}>" in t for t in texts(thread))
    await env.advance_time(60)
    game = await state(server)
    assert game.phase == "guess" and game.duel is not None and game.duel.challenged_choice == 0
    said = "\n".join(texts(thread))
    assert f"⏰ Time's up: {bert.name}'s fist is closed for them." in said
    assert "0 sugar beets" not in said  # the number stays secret until the reveal
    assert "Time ran out, so your fist holds 0 sugar beets" in dms(bert)[0].embeds[0].fields[-1].value
    assert buttons(hand_message(bert)) == []  # the fist is closed: its buttons left the hand DM

    await anna.slash(thread, "kr guess", total=3)
    await env.advance_time(DAY)
    game = await state(server)
    assert game.last_duel is not None and game.last_duel.challenged_guess == 0  # 0 is the lowest total still free
    said = "\n".join(texts(thread))
    assert f"Time's up: {bert.name} guesses 0 by default." in said
    assert f"Fists open: {anna.name} held 2, {bert.name} held 0 — total 2. Nobody guessed right." in said
    assert game.turn == 1 and game.phase == "challenge"

    # Bert's turn: he stays silent and loses it.
    await env.advance_time(DAY)
    game = await state(server)
    assert game.turn == 0 and game.phase == "challenge"
    assert f"Time's up: {bert.name} challenged nobody, so the turn passes." in "\n".join(texts(thread))

    # His old ephemeral fist prompt now only says the duel is over (on top of his hand), and changes nothing.
    version = (await server.bot.store.get_game(1)).version
    late = await bert.click(stale_prompt, label="1")
    assert late.response.ephemeral and late.response.id == stale_prompt.id
    assert late.response.content == "That duel is over — these buttons no longer count."
    assert not late.response.message.components and "Nothing secret right now" in embed_text(late.response.message)
    assert (await server.bot.store.get_game(1)).version == version
