"""A whole two-player game of Kesse Rügen through Discord (SimCord), from `/game new` to the win: pawns with
`/kr place`, duels that start by themselves (two players: the challenge is automatic), fists closed with the buttons
on each player's hand DM, guesses with `/kr guess`, actions with the prompt's buttons — and no closed fist readable
by anyone else before the reveal."""

import simcord
from simcord import ChannelHandle, MemberActor

from tests.bot.helpers import dms, embed_text, make_server, rest_calls_since

from .helpers import action_prompt, close_fist_by_dm, dm_texts, public_messages, start_game, state

# The first player's 13 fields: a snake along rows 1 and 2, then a3, b3 and a4 (the barn c3 is never a field).
# Each winning duel is 4 actions; the last plant wins mid-duel.
PLAN = [
    ["plant", "→", "plant", "→"],  # a1, b1
    ["plant", "→", "plant", "→"],  # c1, d1
    ["plant", "↑", "plant", "←"],  # e1, e2
    ["plant", "←", "plant", "←"],  # d2, c2
    ["plant", "←", "plant", "↑"],  # b2, a2
    ["plant", "→", "plant", "↖"],  # a3, b3
    ["plant"],  # a4: the 13th field
]


async def assert_fists_secret(server, owners: dict[MemberActor, str]) -> None:  # type: ignore[no-untyped-def]
    """Both fists are closed, nothing revealed yet: a fist's number is only in its owner's DMs. (The strong form of
    this check — everything others see is identical whatever the fist holds — is in test_secrets.py.)"""
    seen = public_messages(server) + [t for m in owners for t in public_messages(server, viewer=m)]
    assert not [t for t in seen if "fist holds" in t or "fist against" in t or "closed your fist on" in t]
    for owner, kind in owners.items():
        assert any(f"you closed your fist on **2 {kind}**" in t for t in dm_texts(owner))
        for other in owners:
            if other is not owner:
                assert not [t for t in dm_texts(other) if f"fist on **2 {kind}**" in t]


async def winning_duel(server, thread: ChannelHandle, a: MemberActor, b: MemberActor, actions: list[str]) -> None:  # type: ignore[no-untyped-def]
    game = await state(server)  # a's turn: the duel with b is on by itself
    assert game.phase == "choose" and game.duel is not None and game.duel.challenger == game.turn
    assert f"{a.name}'s turn: the duel with {b.name} is on" in thread.history()[-1].content
    await close_fist_by_dm(a, 2)
    await close_fist_by_dm(b, 2)
    await assert_fists_secret(server, {a: "carrots", b: "sugar beets"})
    await a.slash(thread, "kr guess", total=4)
    revealed = await b.slash(thread, "kr guess", total=0)
    assert "held 2" in revealed.response.content and "takes 4 actions" in revealed.response.content
    prompt = action_prompt(thread)
    for label in actions:
        clicked = await a.click(prompt, label="Plant" if label == "plant" else label)
        assert not clicked.response.ephemeral, clicked.response.content


async def losing_duel(thread: ChannelHandle, b: MemberActor, a: MemberActor) -> None:
    """The second player's turn: both fists empty, both guesses wrong, the turn passes back."""
    await close_fist_by_dm(b, 0)
    await close_fist_by_dm(a, 0)
    await b.slash(thread, "kr guess", total=4)
    revealed = await a.slash(thread, "kr guess", total=3)
    assert "Nobody guessed right" in revealed.response.content


async def test_a_two_player_game_from_game_new_to_the_win(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server)
    game = await state(server)
    a, b = players[game.first], players[1 - game.first]  # the first player wins this game

    assert (await a.slash(thread, "kr place", square="a1")).response.content.startswith("📍")
    await b.slash(thread, "kr place", square="e5")
    for i, actions in enumerate(PLAN):
        await winning_duel(server, thread, a, b, actions)
        if i < len(PLAN) - 1:
            assert (await state(server)).fields_of(game.first) == 2 * (i + 1)
            await losing_duel(thread, b, a)

    final = await state(server)
    assert final.phase == "over" and final.winner == game.first and final.fields_of(game.first) == 13
    record = await server.bot.store.games.get(1)
    assert record.status == "finished"
    said = [m.content for m in thread.history()]
    assert any(f"🏆 {a.name} has carrots on 13 fields and wins Kesse Rügen!" in t for t in said)
    assert any(f"🥇 **{a.name}** — 13 fields" in t for t in said)  # the standings
    # The final message pings both players once, gives the standings once and sums the game up.
    ending = [m for m in env.backend.messages[thread.id].values() if "Kesse Rügen #1 is over** —" in m.content]
    assert len(ending) == 1 and set(ending[0].ping_user_ids) == {a.id, b.id}
    assert ending[0].content.count(f"🥇 **{a.name}**") == 1
    # The winning plant's line says who won and how; the standings, each place once; no "reason" line repeating the
    # first (issue 26); the summary only what the standings don't say.
    assert "duels played · left in supply:" in ending[0].content and ending[0].content.count(" 13 fields") == 2
    assert not ending[0].embeds  # the status, with the standings again, is not on it (issue 26)
    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Kesse Rügen #1")
    board = embed_text(status)
    assert f"🏆 **{a.name}** wins" in board
    # The board (in the Details: the status has the picture), top row first: row 1 is all carrots; the winner's
    # pawn (🟠) stands on a4, on the last carrot — both shown. Each square: its pawn (or soil), then its tuber.
    details = await a.click(status, label="Details")
    rows = details.response.message.embeds[0].description.split("\n")
    assert rows[4].split("\u200b")[1:] == ["🟫🔶"] * 5
    assert rows[3].split("\u200b")[1:] == ["🟫🔶"] * 5
    assert rows[2].split("\u200b")[1:] == ["🟫🔶", "🟫🔶", "🛖🛖", "🟫🟫", "🟫🟫"]
    assert rows[1].split("\u200b")[1:] == ["🟠🔶", "🟫🟫", "🟫🟫", "🟫🟫", "🟫🟫"]
    assert rows[0].split("\u200b")[1:] == ["🟫🟫", "🟫🟫", "🟫🟫", "🟫🟫", "⚪🟫"]
    assert f"**{a.name}** 🏆 (carrots) — **13/13** fields · 3 in supply" in board
    assert "pawn on a4, on their own 🔶" in board
    labels = [c.label for row in status.components for c in row.children]  # type: ignore[attr-defined]
    assert labels == ["Details", "Rematch"]  # no move buttons once the game is over: the table, and play again
    last_prompt = next(m for m in reversed(thread.history()) if "won — the game is over" in m.content)
    assert not last_prompt.components
    # Each player has exactly one DM: the hand, edited in place (its fist buttons came and went with each duel).
    assert len(dms(a)) == 1 and len(dms(b)) == 1
    assert not dms(a)[0].components and not dms(b)[0].components
    for member in (a, b):  # …and each says the game is over, with the final standings
        assert "🏁 **Kesse Rügen #1 is over.**" in dms(member)[0].content
        assert f"🥇 **{a.name}** — 13 fields" in dms(member)[0].content
    # The lobby message says the game is finished and who won.
    lobby = embed_text(server.channel.history()[0])
    assert "Kesse Rügen #1 — finished" in lobby and f"🏆 Won by **{a.name}**" in lobby
    # Rematch: a new lobby for the same game in the channel, the clicker seated, the other player invited.
    clicked = await b.click(status, label="Rematch")
    assert clicked.response.ephemeral and "rematch lobby is open" in clicked.response.content
    rematch = await server.bot.store.games.get(2)
    assert (rematch.kind, rematch.status, rematch.options) == ("kesse_ruegen", "lobby", record.options)
    assert [s.player_id for s in await server.bot.store.seats.of_game(2)] == [b.id]
    invite = next(m for m in env.backend.messages[server.channel.id].values() if "Rematch of" in m.content)
    assert invite.ping_user_ids == [a.id]
    again = await a.click(status, label="Rematch")
    assert "already open" in again.response.content  # one rematch at a time
    # A move after the end is refused privately.
    late = await b.slash(thread, "kr duel", opponent=a.mention)
    assert late.response.ephemeral and "is over" in late.response.content


async def test_an_action_button_costs_at_most_three_rest_calls(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server)
    game = await state(server)
    a, b = players[game.first], players[1 - game.first]
    await a.slash(thread, "kr place", square="a1")
    before = len(env.http_requests)
    await b.slash(thread, "kr place", square="e5")
    calls = rest_calls_since(env, before)
    # The last pawn starts the duel (two players): the narration (the command's private reply and an edit of the
    # thread's newest message: it pings nobody), the status edit, the placer's hand DM gaining its buttons, and the
    # other's hand coming down to them as a new DM with theirs — their prompt (posted, the old one deleted).
    assert len(calls) <= 6, calls
    before = len(env.http_requests)
    await close_fist_by_dm(a, 1)
    calls = rest_calls_since(env, before)
    assert len(calls) <= 3, calls  # the hand DM edited as the click's response, the narration, the status edit
    await close_fist_by_dm(b, 1)
    await a.slash(thread, "kr guess", total=2)
    await b.slash(thread, "kr guess", total=3)
    prompt = action_prompt(thread)
    before = len(env.http_requests)
    planted = await a.click(prompt, label="Plant")
    calls = rest_calls_since(env, before)
    assert len(calls) <= 3, calls  # the narration as the reply, the prompt edit, the status edit
    assert f"{a.name} plants a carrot on a1 (1 action left)." in planted.response.content
    # The prompt was edited in place: no Plant any more (a1 holds a carrot), the moves are still there.
    labels = [c.label for row in action_prompt(thread).components for c in row.children]
    assert "Plant" not in labels and set(labels) == {"↑", "↗", "→"}
    assert action_prompt(thread).id == prompt.id
    # The other player's click on it is refused privately, with names.
    wrong = await b.click(prompt, label="→")
    assert wrong.response.ephemeral
    assert wrong.response.content == f"You have no actions to take — {a.name} is taking their actions."
