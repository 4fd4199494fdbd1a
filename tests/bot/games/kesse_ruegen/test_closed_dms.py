"""A player whose DMs are closed closes their fist with ephemeral buttons: the status message's **Choose in secret**,
`/kr choose`, `/game hand`, or the private follow-up of their own command that started the duel. Nobody else ever sees
those buttons or the number. Once they allow DMs, `/game dms` brings their hand (with its buttons) to their DMs."""

import simcord
from simcord import MemberActor

from tests.bot.helpers import dms, embed_text, make_server, texts

from .helpers import buttons, close_fist_by_dm, hand_message, public_messages, start_game, state


def close_dms(env: simcord.Env, member: MemberActor) -> None:
    env.inject_error(
        "POST",
        f"/channels/{member.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


def status_message(thread):  # type: ignore[no-untyped-def]
    return next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Kesse Rügen #1")


async def test_closed_dms_get_ephemeral_fist_buttons(env: simcord.Env) -> None:
    server = make_server(env)
    close_dms(env, server.members[1])
    thread, players = await start_game(server)
    game = await state(server)
    assert game.first == 0  # the seeded draw: anna begins; bert is the one without DMs
    anna, bert = players
    cleo = server.members[2]
    await anna.slash(thread, "kr place", square="a1")

    # Bert's pawn is the last: with two players anna's duel with him is on at once. The narration tells Bert where
    # his buttons are, and his own command's answer brings them, for his eyes only; Anna's come on her hand DM.
    duel = await bert.slash(thread, "kr place", square="e5")
    assert (
        f"📪 {bert.name}: I can't DM you — press **Choose in secret** on the status message (or `/kr choose`) "
        "for your buttons." in duel.response.content
    )
    (private,) = duel.followups
    assert private.ephemeral and "Your duel with **anna** is on!" in private.content
    assert buttons(status_message(thread)) == ["My hand", "Choose in secret", "Details", "What can I do?"]
    await close_fist_by_dm(anna, 1)

    # Bert presses "Choose in secret": an ephemeral answer with 0 / 1 / 2, seen by him alone.
    asked = await bert.click(status_message(thread), label="Choose in secret")
    assert asked.response.ephemeral
    assert buttons(asked) == ["0", "1", "2"]
    assert "how many sugar beets" in asked.response.content and "Your duel with **anna**" in asked.response.content
    # The same buttons come with /kr choose and /game hand (which also says how to get DMs back).
    assert buttons(await bert.slash(thread, "kr choose")) == ["0", "1", "2"]
    shown = await bert.slash(thread, "game hand")
    assert shown.response.ephemeral and buttons(shown) == ["0", "1", "2"]
    assert "`/game dms`" in shown.response.content
    # Anyone else pressing it is told privately why not.
    onlooker = await cleo.click(status_message(thread), label="Choose in secret")
    assert onlooker.response.ephemeral and onlooker.response.content == "You're not playing in Kesse Rügen #1."
    closed = await anna.click(status_message(thread), label="Choose in secret")
    assert closed.response.ephemeral and "already closed on 1" in closed.response.content

    # His click closes the fist: the ephemeral answer turns into his hand, which now says what he holds.
    version = (await server.bot.store.games.get(1)).version
    before = len(env.http_requests)
    clicked = await bert.click(asked.response, label="2")
    # The answer's edit, the narration, the status edit, and Anna's guess: her hand comes down to her as a new DM
    # with the guess buttons (the old one deleted), which is how the guess reaches her.
    assert len(env.http_requests) - before <= 5
    assert clicked.response.ephemeral and "you closed your fist on **2 sugar beets**" in embed_text(
        clicked.response.message
    )
    assert not clicked.response.message.components  # no buttons any more
    assert (await server.bot.store.games.get(1)).version == version + 1
    assert (await state(server)).duel.challenged_choice == 2  # type: ignore[union-attr]
    assert f"✊ {bert.name}'s fist is closed." in "\n".join(texts(thread))
    for text in public_messages(server) + public_messages(server, viewer=anna) + public_messages(server, cleo):
        assert "how many sugar beets" not in text and "fist holds" not in text and "closed your fist on" not in text
    again = await bert.slash(thread, "kr choose")
    assert again.response.ephemeral and "already closed on 2" in again.response.content
    onlooker = await cleo.slash(thread, "kr choose")
    assert onlooker.response.ephemeral and onlooker.response.content == "You're not playing in Kesse Rügen #1."
    # The other ephemeral prompt, clicked now, changes nothing and turns into the hand with the reason.
    late = await bert.click(shown.response, label="0")
    assert "already closed on 2" in late.response.content and not late.response.message.components
    assert (await state(server)).duel.challenged_choice == 2  # type: ignore[union-attr]

    # Nobody guesses right; now it is Bert's turn, his duel with Anna is on by itself, and his guess command (the
    # move that started it) brings his buttons privately.
    # Bert's guess can't reach him by DM (closed): the thread pings him for it, in a new message.
    asked = await anna.slash(thread, "kr guess", total=0)
    assert not asked.response.ephemeral and f"<@{bert.id}>" in asked.response.content
    guessed = await bert.slash(thread, "kr guess", total=1)
    assert (await state(server)).turn == 1
    # (Told privately: Anna's fist prompt is her hand DM, so the thread's newest message is edited with it.)
    assert "the duel with anna is on" in guessed.response.content
    (private,) = guessed.followups
    assert private.ephemeral and "Your duel with **anna** is on!" in private.content
    clicked = await bert.click(private, label="0")
    assert "you closed your fist on **0 sugar beets**" in embed_text(clicked.response.message)
    await close_fist_by_dm(anna, 2)
    assert (await state(server)).phase == "guess"
    for text in public_messages(server, viewer=anna):
        assert "Your duel with" not in text and "0 sugar beets" not in text

    # Bert allows DMs and asks for them back: his hand arrives by DM, and his next fist is closed there.
    assert dms(bert) == []
    env.backend.faults.clear()
    back = await bert.slash(thread, "game dms")
    assert back.response.ephemeral and "📬 DMs work" in back.response.content
    assert "you closed your fist on **0 sugar beets**" in embed_text(hand_message(bert))
    assert [s.dm_ok for s in await server.bot.store.seats.of_game(1) if s.player_id == bert.id] == [True]
    await bert.slash(thread, "kr guess", total=3)
    await anna.slash(thread, "kr guess", total=1)  # nobody: 0 + 2 = 2; anna's turn, her duel with bert is on
    assert buttons(hand_message(bert)) == ["0", "1", "2"]
    await close_fist_by_dm(bert, 1)
    assert len(dms(bert)) == 1  # the one hand message, edited


async def test_a_hand_prompt_that_cannot_be_delivered_pings_in_the_thread(env: simcord.Env) -> None:
    """Anna's DMs close mid-game: her duel's prompt, meant to come down as her hand, can't reach her, so the thread
    pings her with it instead — a closed DM never loses a prompt (issue 27)."""
    server = make_server(env)
    thread, players = await start_game(server)
    anna, bert = players
    await anna.slash(thread, "kr place", square="a1")
    close_dms(env, anna)
    before = {m.id for m in thread.history()}
    await bert.slash(thread, "kr place", square="e5")  # the duel is on: anna is asked for her fist
    await env.settle()
    new = [m for m in thread.history() if m.id not in before]
    # (The 📪 notice names her with its mentions switched off: it notifies nobody.)
    assert any(m.content.startswith("📪") for m in new), [m.content for m in new]
    pinged = [m for m in new if f"<@{anna.id}>" in m.content and not m.content.startswith("📪")]
    assert len(pinged) == 1, [m.content for m in new]
    assert "⏳" in pinged[0].content and "deadline" in pinged[0].content, pinged[0].content
