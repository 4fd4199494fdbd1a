"""Deadlines in simulated time, driven by the platform's scheduler: a silent challenged player's fist closes on a
hidden random pick, told to the table in the words of a fist closed by hand, and their guess is the lowest total
still free; a silent player to move (three players) loses the turn. The fist buttons leave the hand DM when the
deadline closes the fist; an ephemeral fist prompt clicked after its duel is over changes nothing and turns into the
hand, with the reason."""

import simcord

from tests.bot.helpers import embed_text, make_server, texts

from .helpers import buttons, close_fist_by_dm, hand_message, start_game, state

DAY = 24 * 3600


async def test_silent_players_get_the_defaults_at_the_deadline(env: simcord.Env) -> None:
    server = make_server(env)
    thread, (anna, bert) = await start_game(server)
    await anna.slash(thread, "kr place", square="a1")
    await bert.slash(thread, "kr place", square="e5")  # two players: anna's duel with bert is on at once
    await close_fist_by_dm(anna, 2)
    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Kesse Rügen #1")
    stale_prompt = (await bert.click(status, label="Choose in secret")).response
    assert buttons(hand_message(bert)) == ["0", "1", "2"]

    await env.advance_time(DAY - 60)
    assert (await state(server)).phase == "choose"  # not yet
    assert any("⏰ Reminder" in t and f"<@{bert.id}>" in t for t in texts(thread))
    await env.advance_time(60)
    game = await state(server)
    assert game.phase == "guess" and game.duel is not None
    held = game.duel.challenged_choice
    assert held in (0, 1, 2)  # a hidden random pick
    said = "\n".join(texts(thread))
    # The same words as anna's own fist: nothing says the deadline chose, let alone what.
    assert f"✊ {anna.name}'s fist is closed." in said and f"✊ {bert.name}'s fist is closed." in said
    assert "Time's up" not in said and "sugar beet" not in said  # the number stays secret until the reveal
    beets = "sugar beet" if held == 1 else "sugar beets"
    # His hand says what the deadline put in his fist. (The private note "Time ran out, so your fist holds …" is the
    # presentation's `private_line` now that events carry no words: it comes back when the platform asks it.)
    assert f"you closed your fist on **{held} {beets}**" in embed_text(hand_message(bert))
    assert buttons(hand_message(bert)) == []  # the fist is closed: its buttons left the hand DM

    await anna.slash(thread, "kr guess", total=1)  # anna holds 2: the total is 2 or more
    await env.advance_time(DAY)
    game = await state(server)
    assert game.last_duel is not None and game.last_duel.challenged_guess == 0  # 0 is the lowest total still free
    said = "\n".join(texts(thread))
    assert f"Time's up: {bert.name} guesses 0 by default." in said
    assert f"Fists open: {anna.name} held 2, {bert.name} held {held} — total {2 + held}. Nobody guessed right." in said
    # Bert's turn: with two players his duel with anna is on at once (there is no challenge to wait for).
    assert game.turn == 1 and game.phase == "choose"
    assert game.duel is not None and (game.duel.challenger, game.duel.challenged) == (1, 0)
    assert f"{bert.name}'s turn: the duel with {anna.name} is on (the only opponent)." in said

    # His old ephemeral fist prompt now only says the duel is over (on top of his hand), and changes nothing.
    version = (await server.bot.store.games.get(1)).version
    late = await bert.click(stale_prompt, label="1")
    assert late.response.ephemeral and late.response.id == stale_prompt.id
    assert late.response.content == "That duel is over — these buttons no longer count."
    # It shows his hand instead: the fist of the new duel, asked for afresh.
    assert f"Your duel with **{anna.name}** is on!" in embed_text(late.response.message)
    assert (await server.bot.store.games.get(1)).version == version


async def test_a_silent_player_to_move_loses_the_turn_with_three_players(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, joiners=2)
    for square in ("a1", "e5", "a5"):
        await players[(await state(server)).turn].slash(thread, "kr place", square=square)
    game = await state(server)
    assert game.phase == "challenge"  # three players: the player to move picks an opponent
    first = game.turn
    await env.advance_time(DAY)
    game = await state(server)
    assert game.turn == (first + 1) % 3 and game.phase == "challenge"
    said = "\n".join(texts(thread))
    assert f"Time's up: {players[first].name} challenged nobody, so the turn passes." in said
