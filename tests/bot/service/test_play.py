"""Playing through Discord: moves, buttons and reactions, REST calls per action, and secrets kept in DMs."""

from collections import Counter

import simcord

from bot.presentation import GenericPresentation
from tests.bot.helpers import (
    Server,
    dms,
    embed_text,
    make_server,
    move,
    rest_calls_since,
    start_toy,
    state,
    texts,
    thread_of,
)

EXEMPT = ("POST /interactions/", "PATCH /webhooks/")
"""REST calls outside Discord's global limit: an interaction's answer and its token's edits."""


def public_messages(server: Server) -> list[str]:
    """Everything anyone can read in the server's channels (no DMs, no ephemeral replies)."""
    out = []
    for channel in (server.channel, thread_of(server)):
        for m in channel.history():
            if not m.flags.ephemeral:
                out.append(embed_text(m))
    return out


async def test_an_ordinary_move_costs_at_most_three_rest_calls(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server, 4)
    thread = thread_of(server)
    first = players[0]
    hand_before = list((await state(server, 1)).hands[0])
    before = len(env.http_requests)
    drawn = await first.slash(thread, "game move", action=move({"type": "draw"}))
    calls = rest_calls_since(env, before)
    # The reply in the thread is the narration, then the status edit and the hand edit: three calls. (The first
    # move's status, on the bot's own message, moves onto the reply instead — `Status._cheaper_below` —: the reply,
    # the status onto it with the command's token, the old message deleted, the hand edit. Still two calls under
    # Discord's global limit, and the next moves' status edits ride on tokens.)
    assert len(calls) <= 4 and len([c for c in calls if not c.startswith(EXEMPT)]) <= 2, calls
    assert drawn.response is not None and not drawn.response.ephemeral
    assert "draws a card" in drawn.response.content
    assert f"<@{players[1].id}>" in drawn.response.content  # the next player is mentioned
    # Still one DM, edited: the hand now holds four cards and says which was drawn.
    (hand,) = dms(first)
    game = await state(server, 1)
    assert len(game.hands[0]) == 4
    (card,) = (Counter(game.hands[0]) - Counter(hand_before)).elements()
    assert f"You drew a {card}." in embed_text(hand)
    assert "Hand: " + ", ".join(map(str, game.hands[0])) in embed_text(hand)
    # Neither the drawn card nor any hand is in a message others can read.
    for text in public_messages(server):
        assert "You drew" not in text and "Hand: " not in text
    for other in players[1:]:
        assert "You drew" not in embed_text(dms(other)[0])


async def test_play_react_and_pass_with_buttons_and_reactions(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server, 4)
    thread = thread_of(server)
    game = await state(server, 1)
    card = game.hands[0][0]
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    assert any(f"plays a {card}" in t for t in texts(thread))
    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1")
    # Pass with the status message's button (edited in place), twice.
    before = len(env.http_requests)
    await players[1].click(status, label="Pass")
    assert len(rest_calls_since(env, before)) <= 3
    await players[2].click(status, label="Pass")
    # A non-player's click is refused privately.
    outsider = server.guild.add_member(env.create_user("olga"))
    refused = await outsider.click(status, label="Pass")
    assert refused.response.ephemeral and "not playing" in refused.response.content
    # The last one STOPs by reacting 🛑 on the window's tracked message.
    window_msg = next(m for m in thread.history() if "STOP card #1" in m.content)
    await players[3].react(window_msg, "🛑")
    game = await state(server, 1)
    assert card in game.hands[0] and game.scores[0] == 0
    assert any("STOPs" in t for t in texts(thread))
    # A reaction by someone not playing, or on an unrelated message, changes nothing.
    version = (await server.bot.store.games.get(1)).version
    await outsider.react(window_msg, "🛑")
    await players[1].react(status, "🛑")
    assert (await server.bot.store.games.get(1)).version == version


async def test_rule_errors_are_private_and_change_nothing(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server, 4)
    thread = thread_of(server)
    version = (await server.bot.store.games.get(1)).version
    wrong = await players[1].slash(thread, "game move", action=move({"type": "draw"}))
    assert wrong.response.ephemeral
    assert wrong.response.content == f"It's {players[0].name}'s turn."
    nonsense = await players[0].slash(thread, "game move", action=move({"type": "fly"}))
    assert nonsense.response.ephemeral and "isn't a move Toy understands" in nonsense.response.content
    assert (await server.bot.store.games.get(1)).version == version


async def test_hand_and_status_commands(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server, 4)
    thread = thread_of(server)
    game = await state(server, 1)
    shown = await players[2].slash(thread, "game hand")
    assert shown.response.ephemeral
    assert ", ".join(map(str, game.hands[2])) in embed_text(shown.response.message)
    status = await players[2].slash(server.channel, "game status")
    assert status.response.ephemeral and "⏳ **bert**'s turn" in embed_text(status.response.message)
    listing = await players[0].slash(server.channel, "game list")
    assert "#1 Toy (playing" in listing.response.content
    rules = await players[0].slash(thread, "game rules")
    assert rules.response.ephemeral and "Play a card to score it" in embed_text(rules.response.message)


async def test_generic_presentation_plays_any_game(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    await env.restart_bot(make_bot(presentations={"toy": GenericPresentation()}))
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    choices = await players[0].autocomplete(thread, "game move", "action", "")
    game = await state(server, 1)
    card = game.hands[0][0]
    # Suggestions read as words (the generic `describe_action`), never as the engine's JSON.
    names = {c["name"]: c["value"] for c in choices}
    assert "Draw" in names and f"Play: card {card}" in names
    assert not any("{" in c["name"] or '"' in c["name"] for c in choices)
    before = len(env.http_requests)
    await players[0].slash(thread, "game move", action=names[f"Play: card {card}"])
    calls = rest_calls_since(env, before)
    assert len(calls) <= 4 and len([c for c in calls if not c.startswith(EXEMPT)]) <= 2, calls  # (as above)
    assert card not in (await state(server, 1)).hands[0]


async def test_the_game_ends_with_standings(env: simcord.Env) -> None:
    server = make_server(env)
    opener = server.members[0]
    opened = await opener.slash(server.channel, "game new", game="toy", random_order=False)
    await server.members[1].click(opened.response, label="Join")
    await server.bot.store.games.update(1, options={"target": 1})  # the first card to stand wins
    await opener.click(opened.response, label="Start")
    thread = thread_of(server)
    card = (await state(server, 1)).hands[0][0]
    await opener.slash(thread, "game move", action=move({"type": "play", "card": card}))
    last = await server.members[1].slash(thread, "game move", action=move({"type": "pass"}))
    assert "anna ends the game." in last.response.content
    assert f"🥇 **anna** — {card}" in last.response.content and "**bert** — 0" in last.response.content
    record = await server.bot.store.games.get(1)
    assert record.status == "finished" and record.finished_at is not None
    assert await server.bot.store.timers.of_game(1) == []
    assert "Game over." in embed_text(next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1"))
    over = await opener.slash(thread, "game move", action=move({"type": "draw"}))
    assert over.response.ephemeral and "is over" in over.response.content
