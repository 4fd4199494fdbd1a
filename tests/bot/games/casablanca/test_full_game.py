"""Whole games through Discord (SimCord), from `/game new` to the standings: a main game for four players and the
HQ variant for three — bribes with `/cb bribe` and the sheet's buttons, announcements with `/cb move` / `/cb hit` and
the sheet's panels, answers with the DM buttons, the announcement's buttons and `/cb noobjection`, an objection
auction, a hit with its announcements, the variant's lost turn."""

import simcord
from simcord import ChannelHandle, MemberActor

from tests.bot.helpers import Server, dms, embed_text, make_server

from .helpers import (
    announcement,
    answer_by_dm,
    contest_in_thread,
    hand_message,
    labels,
    no_objection_in_thread,
    object_by_dm,
    public_messages,
    start_game,
    state,
    status,
)


async def everyone_lets_it_pass(server: Server, thread: ChannelHandle, players: list[MemberActor]) -> None:
    """Each player asked answers No objection — by DM, on the announcement post, or by command, in turn."""
    game = await state(server)
    for i, seat in enumerate(list(game.awaited)):
        member = players[seat]
        match i % 3:
            case 0:
                clicked = await answer_by_dm(member, "No objection")
                assert clicked.response is not None and clicked.response.message is not None
            case 1:
                await no_objection_in_thread(member, thread)
            case _:
                said = await member.slash(thread, "cb noobjection")
                assert said.response.ephemeral and "No objection from you" in said.response.content


async def move(
    server: Server, thread: ChannelHandle, players: list[MemberActor], agent: str, to: str, case: bool
) -> None:
    game = await state(server)
    mover = players[game.turn]
    said = await mover.slash(thread, "cb move", agent=agent, to=to, suitcase=case)
    assert not said.response.ephemeral and said.response.content.startswith("📣"), said.response.content
    assert "Do you object?" in said.response.content
    await everyone_lets_it_pass(server, thread, players)


async def test_a_four_player_main_game_from_game_new_to_the_standings(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, players=4, options="first_seat=1")
    anna, bert, cleo, dave = players
    # First turns: the rulebook's bribe for anna; the table hears only "… bribed".
    for member, amounts in (
        (anna, "purple 1300, green 500, grey 400"),
        (bert, "green 2000, purple 600, red 1000"),
        (cleo, "purple 300, blue 300, white 300"),
        (dave, "green 100, red 100, brown 1200"),
    ):
        bribed = await member.slash(thread, "cb bribe", amounts=amounts)
        assert bribed.response.ephemeral and "only you know it" in bribed.response.content
    assert f"💵 {anna.name} bribed." in "\n".join(m.content for m in thread.history())
    seen = "\n".join(public_messages(server))
    assert "1,300" not in seen and "1300" not in seen

    # anna moves Lila Sheela out of Rick's Café; everyone lets it pass.
    await move(server, thread, players, "purple", "10", False)
    assert (await state(server)).at[1] == "10"

    # bert's move is objected to by anna (DM: Object… → $1,000); bert contests with all he has ($600) and loses.
    said = await bert.slash(thread, "cb move", agent="purple", to="12")
    assert said.response.content.startswith("📣")
    objected = await object_by_dm(anna, "$1,000")
    assert objected.response is not None
    await no_objection_in_thread(cleo, thread)
    await dave.slash(thread, "cb noobjection")
    post = announcement(thread)
    assert f"**{anna.name}** objects" in post.content and labels(post) == ["Contest…", "Withdraw"]
    assert f"⚖️ {bert.name}: {anna.name} objects" in "\n".join(m.content for m in thread.history())
    await contest_in_thread(bert, thread, "$600")
    post = announcement(thread)  # the same message, edited: the claims in one line, and the verdict
    assert f"{anna.name} $100 · {bert.name} matches" in post.content
    assert f"{anna.name} $700 · {bert.name} passes → the objection succeeds" in post.content
    assert "❌ Stopped by an objection" in post.content and not labels(post)
    game = await state(server)
    assert game.at[1] == "10" and game.turn == 1 and game.objected
    # Stopped: bert may not bribe, but may announce another move (with the sheet's panels).
    refused = await bert.slash(thread, "cb bribe", amounts="red 100")
    assert refused.response.ephemeral and "can't bribe any more" in refused.response.content
    panel = await answer_by_dm(bert, "Move…")
    agents = await bert.user.click(panel.response.message, label="Betty Blue")
    went = await bert.user.click(agents.response.message, label="house 1")
    assert went.response is not None
    await everyone_lets_it_pass(server, thread, players)
    assert (await state(server)).at[2] == "1"

    # cleo, dave and anna carry on with Lila Sheela; cleo's turn first.
    await move(server, thread, players, "purple", "12", False)
    # dave hits Rudy Red with Bruno Brown in the Airport: $1,000 off his bribe, every bribe on Rudy Red announced.
    hit = await dave.slash(thread, "cb hit", agent="brown", victim="red")
    assert "Bruno Brown hits Rudy Red" in hit.response.content
    await everyone_lets_it_pass(server, thread, players)
    text = "\n".join(m.content for m in thread.history())
    assert (
        f"Bribes on Rudy Red, now lost: {anna.name} $0, {bert.name} $1,000, {cleo.name} $0 and {dave.name} $100" in text
    )
    assert "Rudy Red (hit by Bruno Brown" in embed_text(status(thread))
    assert "$1,100" in embed_text(hand_message(dave))  # 1,200 − 1,000 on Bruno Brown … and $1,100 lost
    for agent, to, case in [
        ("purple", "Bazaar", False),
        ("purple", "12", True),
        ("purple", "10", True),
        ("purple", "Rick's Café", True),  # home with the suitcase, but only one agent has carried it
        ("green", "8", True),  # Don Greenwood takes it from her: no hit needed
    ]:
        await move(server, thread, players, agent, to, case)
    game = await state(server)
    assert game.phase == "turn" and game.carried_by == [1, 0]
    assert "Carried so far by 2 agents (Don Greenwood, Lila Sheela)" in embed_text(status(thread))
    await move(server, thread, players, "green", "Rick's Café", True)

    final = await state(server)
    assert final.phase == "over" and final.winners == [1] and final.winner_agent == 0
    record = await server.bot.store.games.get(1)
    assert record.status == "finished"
    text = "\n".join(m.content for m in thread.history())
    assert f"Most money on Don Greenwood: {bert.name} with $2,000" in text
    assert f"🥇 **{bert.name}** — $2,000" in text
    board = embed_text(status(thread))
    rematch_only = [c.label for row in status(thread).components for c in row.children]  # type: ignore[attr-defined]
    assert "Bribe sheets" in board and rematch_only == ["Details", "Rematch"]
    # The end message, read as a player would (issue 26): the winner, each player's place and the bribe sheets once
    # each — the status, with its own "Bribe sheets", stays where it was.
    (end,) = [m for m in thread.history() if "**Casablanca #1 is over** —" in m.content]
    said = embed_text(end)
    assert not end.embeds and said.count("Bribe sheets") == 1 and said.count(f"**{bert.name}**: ") == 1, said
    assert all(said.count(f"**{p.name}** —") == 1 for p in players), said
    for member in players:
        assert len(dms(member)) == 1 and not dms(member)[0].components
    late = await anna.slash(thread, "cb move", agent="blue", to="2")
    assert late.response.ephemeral and "over" in late.response.content


async def test_a_three_player_variant_game_to_the_win(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, players=3, options="variant=hq")
    anna, bert, cleo = players
    # HQs in seat order: anna by the sheet's button, bert and cleo by command.
    await answer_by_dm(anna, "Hotel")
    await bert.slash(thread, "cb hq", hq="Police Station")
    await cleo.slash(thread, "cb hq", hq="Airport")
    game = await state(server)
    assert game.hq_owner == {"Hotel": 0, "Police Station": 1, "Airport": 2} and game.turn == 1
    board = embed_text(status(thread))
    assert "HQ variant" in board and f"**{bert.name}** — HQ Police Station" in board
    assert f"**{cleo.name}** — HQ Airport" in board
    details = await bert.click(status(thread), label="Details")  # the map: the picture's, and in full here
    assert f"**Police Station** (HQ of {bert.name})" in embed_text(details.response.message)

    await move(server, thread, players, "yellow", "7", False)  # bert
    await move(server, thread, players, "yellow", "4", False)  # cleo
    await move(server, thread, players, "yellow", "Bazaar", False)  # anna
    await move(server, thread, players, "yellow", "4", True)  # bert takes the suitcase
    # cleo bribes with the sheet's buttons: one agent per turn in the variant.
    panel = await answer_by_dm(cleo, "Bribe…")
    chosen = await cleo.user.click(panel.response.message, label="Rudy Red")
    await cleo.user.click(chosen.response.message, label="$500")
    assert (await state(server)).bribes[2][4] == 500
    # anna moves; bert objects with nothing (a bluff, $0) and loses: his sheet goes face down, his turn is lost.
    await anna.slash(thread, "cb move", agent="white", to="1")
    await object_by_dm(bert, "$0 (bluff)")
    await answer_by_dm(cleo, "No objection")
    await contest_in_thread(anna, thread, "$0")
    text = "\n".join(m.content for m in thread.history())
    assert f"{bert.name} lost the objection: their sheet lies face down" in text
    assert f"{bert.name} turns their sheet back up — that is their whole turn." in text
    assert (await state(server)).turn == 2
    await move(server, thread, players, "yellow", "7", True)  # cleo carries it toward bert's HQ …
    await anna.slash(thread, "cb bribe", amounts="grey 100")
    await move(server, thread, players, "yellow", "Police Station", True)  # … and bert brings it in

    final = await state(server)
    assert final.phase == "over" and final.winners == [1]
    text = "\n".join(m.content for m in thread.history())
    assert f"{bert.name} brought the suitcase into their HQ, the Police Station. {bert.name} wins Casablanca!" in text
    assert f"🥇 **{bert.name}** — brought the suitcase home" in text
