"""Kesse Rügen fixes from the review of issues 4 and 6, through Discord (SimCord):

- REST calls per action: every action costs at most three calls, except one that starts a duel (a challenge, or
  with two players the move that starts the next turn), which costs four (see
  `test_the_challenge_is_the_one_explained_exception_at_four_calls`); the reveal no longer edits both hand DMs,
  and the action prompt it opens is the `/kr guess` reply itself;
- a failed hand-DM edit is retried (the duellist gets their fist buttons after all);
- the first player is chosen as a person and begins, whatever the shuffle;
- the lobby shows no reaction time (Kesse Rügen has no reaction windows) and `/game rules` reads well;
- `/mod kick remove:true` (the game's leave rule) with three players lets the game go on (the seat is skipped, its
  tubers stay); with two it ends.
"""

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from tests.bot.helpers import Server, embed_text, make_server, rest_calls_since, seat_players, texts

from .helpers import (
    action_prompt,
    buttons,
    close_fist_by_dm,
    hand_message,
    start_game,
    state,
    thread_of_game,
)


async def calls_of(env: simcord.Env, step) -> list[str]:  # type: ignore[no-untyped-def]
    before = len(env.http_requests)
    await step
    return rest_calls_since(env, before)


async def placed_game(server: Server) -> tuple[ChannelHandle, MemberActor, MemberActor]:
    thread, players = await start_game(server)
    game = await state(server)
    a, b = players[game.first], players[1 - game.first]
    await a.slash(thread, "kr place", square="a1")
    await b.slash(thread, "kr place", square="e5")
    return thread, a, b


# --- REST calls ----------------------------------------------------------------------------------------------


async def test_the_challenge_is_the_one_explained_exception_at_four_calls(env: simcord.Env) -> None:
    """The explained exception to "three calls per action": a challenge changes two private messages — each
    duellist's hand DM gains its own secret 0 / 1 / 2 buttons (they can't share one message) — on top of the
    narration and the status message (the board's "fists: ⏳ choosing"). Since the duel is played in the duellists'
    DMs (issue 26), the challenged player's fist prompt reaches them as their hand coming down as a new DM (a post,
    and the old hand deleted: two calls where an edit was one), and the narration, which pings nobody now, is added
    to the thread's newest message (the command's private reply and that edit: two calls where the reply was one).
    6 = 2 + 1 + 1 + 2. With two players the challenge is automatic: the move that starts the turn (here the last
    pawn) costs the same."""
    server = make_server(env)
    thread, players, _mia = await three_placed(server)
    game = await state(server)
    a, b = players[game.turn], players[(game.turn + 1) % 3]
    old_hand = hand_message(b).id
    calls = await calls_of(env, a.slash(thread, "kr duel", opponent=b.mention))
    assert len(calls) == 6, calls
    assert calls[0].startswith("POST /interactions/")  # the command's (private) reply
    assert {c.rsplit("/", 1)[1] for c in calls if c.startswith("PATCH")} >= {str(hand_message(a).id)}
    assert f"DELETE {hand_message(b).channel.id}/messages/{old_hand}".split()[1] in " ".join(calls)
    assert hand_message(b).id != old_hand and "Your turn" in hand_message(b).content

    two = make_server(env, ("erin", "finn"))
    thread, players = await start_game(two)
    game = await state(two, 2)
    a, b = players[game.first], players[1 - game.first]
    await a.slash(thread, "kr place", square="a1")
    calls = await calls_of(env, b.slash(thread, "kr place", square="e5"))
    assert len(calls) <= 6, calls
    assert {c.rsplit("/", 1)[1] for c in calls if c.startswith("PATCH")} >= {str(hand_message(b, 2).id)}
    assert "Your turn" in hand_message(a, 2).content  # the other duellist's hand came down to them


async def test_every_other_action_costs_at_most_three_calls(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server)
    game = await state(server)
    a, b = players[game.first], players[1 - game.first]
    measured: dict[str, int] = {}
    measured["place"] = len(await calls_of(env, a.slash(thread, "kr place", square="a1")))
    starts = {"place (the last pawn)": len(await calls_of(env, b.slash(thread, "kr place", square="e5")))}
    measured["fist by DM button"] = len(await calls_of(env, close_fist_by_dm(a, 2)))
    await close_fist_by_dm(b, 1)
    measured["first guess"] = len(await calls_of(env, a.slash(thread, "kr guess", total=3)))
    reveal = await calls_of(env, b.slash(thread, "kr guess", total=2))
    measured["reveal opening actions"] = len(reveal)
    measured["plant"] = len(await calls_of(env, a.click(action_prompt(thread), label="Plant")))
    measured["move"] = len(await calls_of(env, a.click(action_prompt(thread), label="→")))
    # The last action passes the turn, and with two players starts the next duel: the challenge's exception.
    starts["last action (turn passes)"] = len(await calls_of(env, a.click(action_prompt(thread), label="Plant")))
    # A duel nobody wins: the reveal ends the turn (and starts the next duel).
    await close_fist_by_dm(b, 0)
    await close_fist_by_dm(a, 0)
    await b.slash(thread, "kr guess", total=4)
    starts["reveal, nobody right"] = len(await calls_of(env, a.slash(thread, "kr guess", total=3)))
    print("\nREST calls per Kesse Rügen action:", measured, "and starting a duel:", starts)
    # The first guess is played in the duellists' DMs (issue 26): the command's private reply and the narration
    # added to the thread's newest message, the status, the guesser's hand losing its guess buttons, and the other
    # duellist's hand coming down to them as a new DM (posted, the old one deleted) for their guess: six.
    assert all(n <= 3 for k, n in measured.items() if k != "first guess"), measured
    assert measured["first guess"] <= 6, measured
    # A move that starts a duel costs the challenge's six; so does the last action (its prompt's edit on top, and
    # its narration a new message — it pings the next challenger — where the others edited the thread's newest).
    # The last pawn's five: the status already rides on a command's reply there (`Status._cheaper_below`), and the
    # same edit shows the status and the narration's line.
    assert starts == {"place (the last pawn)": 5, "last action (turn passes)": 6, "reveal, nobody right": 6}
    # The reveal: the reply (the prompt, with the guess and the reveal on top), the status, and the second
    # guesser's hand losing its guess buttons.
    assert measured["reveal opening actions"] == 3, reveal


async def test_the_winning_plant_costs_at_most_three_calls_and_the_ending(env: simcord.Env) -> None:
    from .test_full_game import PLAN, losing_duel, winning_duel

    server = make_server(env)
    thread, a, b = await placed_game(server)
    for actions in PLAN[:-1]:
        await winning_duel(server, thread, a, b, actions)
        await losing_duel(thread, b, a)
    await winning_duel(server, thread, a, b, [])  # the last duel: four actions won, none taken yet
    calls = await calls_of(env, a.click(action_prompt(thread), label="Plant"))
    assert (await state(server)).phase == "over"
    # The reply, the prompt's "won", the status with the standings; and the ending: the lobby message (finished,
    # who won) and each player's hand DM (the game is over, the final standings).
    assert len(calls) <= 3 + 1 + 2, calls


async def test_a_three_player_reveal_edits_no_hand_of_an_earlier_duellist(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players, _ = await three_placed(server)
    game = await state(server)
    a, b, c = (players[(game.first + i) % 3] for i in range(3))
    # a vs b, nobody right: b moves next and challenges c.
    await a.slash(thread, "kr duel", opponent=b.mention)
    await close_fist_by_dm(a, 0)
    await close_fist_by_dm(b, 0)
    await a.slash(thread, "kr guess", total=4)
    await b.slash(thread, "kr guess", total=3)
    await b.slash(thread, "kr duel", opponent=c.mention)
    await close_fist_by_dm(b, 1)
    await close_fist_by_dm(c, 1)
    await b.slash(thread, "kr guess", total=0)
    a_hand = (hand_message(a).edited_at, embed_text(hand_message(a)))
    calls = await calls_of(env, c.slash(thread, "kr guess", total=2))  # c right: 2 actions
    assert len(calls) <= 3, calls
    assert (hand_message(a).edited_at, embed_text(hand_message(a))) == a_hand  # a's duel line stays, unedited


async def test_a_fist_closed_from_an_ephemeral_prompt_while_dms_work_is_a_second_exception(env: simcord.Env) -> None:
    """Three calls, two private messages changing. A duellist whose DMs work but who presses **Choose in secret** (or
    uses `/kr choose`) clicks an ephemeral prompt; the click's answer redraws that prompt as the hand (the one call
    any click costs), the narration goes to the thread with the status (one edit of the command's reply the status
    rides on: `Status._cheaper_below`), and the hand DM must lose its 0 / 1 / 2 buttons, or it would go on asking a
    question already answered."""
    server = make_server(env)
    thread, _a, b = await placed_game(server)
    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Kesse Rügen #1")
    prompt = (await b.click(status, label="Choose in secret")).response
    calls = await calls_of(env, b.click(prompt, label="1"))
    assert len(calls) == 3, calls
    assert buttons(hand_message(b)) == []


async def test_the_reveal_leaves_the_hand_dms_alone_and_what_they_say_stays_true(env: simcord.Env) -> None:
    server = make_server(env)
    thread, a, b = await placed_game(server)
    await close_fist_by_dm(a, 2)
    await close_fist_by_dm(b, 1)
    await a.slash(thread, "kr guess", total=3)
    before = {m: (hand_message(m).edited_at, embed_text(hand_message(m))) for m in (a, b)}
    revealed = await b.slash(thread, "kr guess", total=2)
    after = {m: (hand_message(m).edited_at, embed_text(hand_message(m))) for m in (a, b)}
    assert after[a] == before[a]  # not edited; b's loses the guess buttons it had (the guess is made)
    assert buttons(hand_message(b)) == [] and "Your guess" not in after[b][1]
    assert "✊ Duel #1 vs **" in after[a][1] and "you closed your fist on **2 carrots**" in after[a][1]
    assert "you closed your fist on **1 sugar beet**" in after[b][1]
    # `/game hand` after the reveal tells the same, as history.
    fresh = await a.slash(thread, "game hand")
    assert "Nothing secret right now" in embed_text(fresh.response.message)
    assert "Last: ✊ Duel #1 vs **" in embed_text(fresh.response.message)
    # The reply is the action prompt: the guess and the reveal on top, the buttons below, the wait under it.
    reply = revealed.response.message
    assert reply.content.splitlines()[:3] == [
        f"🔢 {b.name} guesses 2.",
        f"👐 Fists open: {a.name} held 2, {b.name} held 1 — total 3. {a.name} guessed right and takes 3 actions.",
        f"🎯 **{a.name}**, take your actions: **3 left** of 3 (done 0). Your pawn is on a1.",
    ]
    assert f"⏳ <@{a.id}>" in reply.content and "Plant" in buttons(reply)
    assert action_prompt(thread).id == reply.id
    # No second message says the same: the narration was not posted on its own.
    assert sum("Fists open" in t for t in texts(thread)) == 1
    # After an action the prompt is edited in place, and keeps the reveal on top.
    await a.click(reply, label="Plant")
    edited = action_prompt(thread)
    assert edited.id == reply.id and edited.content.startswith(f"🔢 {b.name} guesses 2.\n👐 Fists open")
    assert "**2 left** of 3" in edited.content


async def test_a_reveal_by_the_deadline_keeps_its_narration_and_posts_the_prompt_after_it(env: simcord.Env) -> None:
    server = make_server(env)
    thread, a, b = await placed_game(server)
    await close_fist_by_dm(a, 1)
    await close_fist_by_dm(b, 0)
    await a.slash(thread, "kr guess", total=0)
    await env.advance_time(24 * 3600 + 60)  # b stays silent: the lowest total still free, 1, is right
    said = texts(thread)
    narration = next(t for t in said if "by default" in t)
    assert narration.startswith(f"⏰ Time's up: {b.name} guesses 1 by default.\n👐 Fists open:")
    prompt = action_prompt(thread)
    assert prompt.content.startswith(f"🔢 {b.name} guesses 1.\n👐 Fists open:") and buttons(prompt)
    assert said.index(narration) < said.index(prompt.content)


async def test_a_failed_hand_dm_edit_is_retried(env: simcord.Env) -> None:
    """From the review's probe: one 503 on the challenged player's hand-DM edit used to leave them without fist
    buttons for good, while the creator was told "I'll keep retrying"."""
    server = make_server(env)
    thread, players = await start_game(server)
    game = await state(server)
    a, b = players[game.first], players[1 - game.first]
    await a.slash(thread, "kr place", square="a1")
    hand = hand_message(b)
    env.inject_error("PATCH", f"/channels/{hand.channel.id}/messages/{hand.id}", status=503, times=1)
    await b.slash(thread, "kr place", square="e5")  # two players: the duel starts with the last pawn
    assert buttons(hand_message(b)) == []  # the edit failed
    assert any("I'll keep retrying" in m.content for m in server.members[0].user.dm_channel.history())
    await env.advance_time(60)  # the first retry comes 30 s later
    assert buttons(hand_message(b)) == ["0", "1", "2"]
    assert await server.bot.store.outbox.undelivered(game_id=1) == []
    await close_fist_by_dm(b, 1)  # and they work


# --- the first player ----------------------------------------------------------------------------------------


async def open_with(server: Server, options: str, **params: object) -> simcord.InteractionResult:
    return await server.members[0].slash(server.channel, "game new", game="kesse_ruegen", options=options, **params)


async def test_the_first_player_is_the_person_chosen_whatever_the_shuffle(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, cleo, _ = server.members
    opened = await open_with(server, "first_seat=2")  # the second to join: bert
    lobby = embed_text(opened.response.message)
    assert "first player: the 2nd to join" in lobby and "first_seat=" not in lobby
    assert "reaction time" not in lobby  # Kesse Rügen has no reaction windows
    await bert.click(opened.response, label="Join")
    assert f"first player: <@{bert.id}>" in embed_text(server.channel.history()[0])
    await cleo.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    players = await seat_players(server, 1)
    assert players.index(bert) != 1  # the seat order was shuffled: bert is not the second seat
    game = await state(server)
    assert game.first == players.index(bert) and game.turn == players.index(bert)
    record = await server.bot.store.games.get(1)
    assert record.options["first_seat"] == players.index(bert)  # stored as the seat: the game replays
    thread = thread_of_game(server, 1)
    assert any(f"⏳ <@{bert.id}>, your turn: place your pawn" in t for t in texts(thread))
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    assert "✅" in (await mia.slash(thread, "mod verify")).response.content


async def test_a_first_player_by_mention_or_me(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, _, dave = server.members
    opened = await open_with(server, f"first_seat=<@{bert.id}>")
    assert f"first player: <@{bert.id}> (not joined yet)" in embed_text(opened.response.message)
    await dave.click(opened.response, label="Join")
    refused = await anna.click(opened.response, label="Start")
    assert refused.response.ephemeral and refused.response.content == (
        f"The first player was set to <@{bert.id}>, who hasn't joined: they can press **Join** (or open a new game "
        "without `first_seat`)."
    )
    await bert.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    game = await state(server)
    assert (await seat_players(server, 1))[game.first] == bert

    mine = await open_with(server, "first_seat=me")
    assert f"first player: <@{anna.id}>" in embed_text(mine.response.message)


async def test_a_first_player_out_of_the_lobbys_seats_is_refused_when_set(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, _, _ = server.members
    refused = await open_with(server, "first_seat=3", seats=2)
    assert refused.response.ephemeral and refused.response.content == (
        "The option `first_seat` can't be “3”: this table has 2 seats, so the first player is one of the first 2 to "
        "join — give a number from 1 to 2, `me`, or a @mention."
    )
    assert await server.bot.store.games.find() == []
    plain = await open_with(server, "first_seat=@bert")
    assert "plain text, not a mention" in plain.response.content
    # Within the seats but not joined yet at the start: the start says what to do.
    opened = await open_with(server, "first_seat=3")
    await bert.click(opened.response, label="Join")
    waiting = await anna.click(opened.response, label="Start")
    assert waiting.response.content == (
        "The first player was set to the 3rd to join, and 2 have joined: wait for a 3rd player (**Join**), or open "
        "a new game without `first_seat`."
    )


async def test_the_rules_read_well(env: simcord.Env) -> None:
    server = make_server(env)
    shown = await server.members[0].slash(server.channel, "game rules", game="kesse_ruegen")
    rules = embed_text(shown.response.message)
    assert "int | None" not in rules and ".." not in rules and "shared/rules/" not in rules
    assert (
        "`first_seat` (a player: a @mention, `me`, or a join number such as `2` for the second to join) — Who "
        "places the first pawn and makes the first challenge (the rulebook: the oldest player); not set: drawn at "
        "random" in rules
    )


# --- /mod kick -------------------------------------------------------------------------------------------------


async def three_placed(server: Server) -> tuple[ChannelHandle, list[MemberActor], MemberActor]:
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(server.env.create_user("mia"), roles=[admins])
    thread, players = await start_game(server, joiners=2)
    game = await state(server)
    squares = iter(["a1", "e5", "a5"])
    seat = game.first
    for _ in range(3):
        await players[seat].slash(thread, "kr place", square=next(squares))
        seat = (seat + 1) % 3
    return thread, players, mia


async def test_a_kick_in_a_three_player_game_lets_it_go_on(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players, mia = await three_placed(server)
    game = await state(server)
    a = players[game.first]
    b = players[(game.first + 1) % 3]
    c = players[(game.first + 2) % 3]
    await a.slash(thread, "kr duel", opponent=b.mention)
    await close_fist_by_dm(a, 2)
    kicked = await mia.slash(thread, "mod kick", player=b, remove=True)
    assert f"removed {b.name} from the game" in kicked.response.content
    assert f"The duel between {a.name} and {b.name} is off; no fist is shown." in kicked.response.content
    record = await server.bot.store.games.get(1)
    assert record.status == "active"
    after = await state(server)
    seat_b = players.index(b)
    assert after.left == [seat_b] and after.pawns[seat_b] is None
    # Clockwise from the challenger, skipping b: c, whose duel with a (two players left) is on by itself.
    assert after.phase == "choose" and players[after.turn] == c
    # a's hand DM no longer says "closed your fist on 2": it asks for the fist of the new duel. (The private note
    # "Your duel is off: your fist of 2 … goes back unseen" is the presentation's `private_line` now that events
    # carry no words: it comes back when the platform asks it.)
    assert "closed your fist on" not in embed_text(hand_message(a))
    assert "Close your fist in secret" in embed_text(hand_message(a))
    # Nobody challenges any more (two players), and the game still replays exactly.
    refused = await c.slash(thread, "kr duel", opponent=a.mention)
    assert refused.response.ephemeral and "the challenge is automatic" in refused.response.content
    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Kesse Rügen #1")
    assert f"~~{b.name}~~" in embed_text(status) and "left the game" in embed_text(status)
    assert "✅" in (await mia.slash(thread, "mod verify")).response.content


async def test_a_kick_in_a_two_player_game_ends_it(env: simcord.Env) -> None:
    server = make_server(env)
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    thread, _a, b = await placed_game(server)
    ended = await mia.slash(thread, "mod kick", player=b, remove=True)
    assert "The game cannot go on without that player. The game ends here." in ended.response.content
    assert (await server.bot.store.games.get(1)).status == "abandoned"
