"""The KKK table in Discord, move by move: consent by 🤝, stacked Boss cards and stale buttons, refusals, away
players, the Boss's own assignment, and what an ordinary move costs in REST calls.

Each test starts a lobby of anna, bert, cleo and dave (seats in that order) and prepares one of the engine tests'
tables (`tests/engine/kkk/tables.py`) with `helpers.prepare`: space 8 (R, L, K + 2 of T/P/H, 6 × $2M = $12M), anna
to move, investors Heiermann anna / Knetowitz bert / Liebgeld cleo / Piepenbrok dave, Raffzahn and Talerfeld beside
the board, and the hands of `tables.HANDS` (anna: 4 clan cards, Knetowitz travel, joker, STOP, Boss, 3 recruitment;
bert: Knetowitz and Liebgeld clans, Heiermann travel, STOP, Boss, 2 recruitment; cleo: Talerfeld clan, STOP, Boss,
Liebgeld travel; dave: Piepenbrok clan, Liebgeld and Piepenbrok travel).
"""

from datetime import timedelta

import discord
import pytest
import simcord

from bot.games.kkk import status as status_module
from tests.bot.games.kkk.helpers import KkkTable, prepare, start
from tests.bot.helpers import ThreadMeter, dms, embed_text, make_server, rest_calls_since
from tests.engine.kkk import tables

SHAKE = "🤝"


def shakes(message) -> int:  # type: ignore[no-untyped-def]
    return sum(r.count for r in message.reactions if str(r.emoji) == SHAKE)


async def table(env: simcord.Env, build=tables.turn_a, **kwargs) -> KkkTable:  # type: ignore[no-untyped-def]
    t = await start(env, **kwargs)
    await prepare(t, build().state, "Prepared table.")
    return t


async def test_the_start_tells_the_table_who_owns_which_investor_and_who_starts(env: simcord.Env) -> None:
    t = await start(env)
    state = await t.state()
    names = [p.name for p in t.players]
    owners = {f: names[o] if o is not None else "beside the board" for f, o in state.investors.items()}
    begins = next(m.content for m in t.thread.history() if "begins!" in m.content)
    lines = begins.splitlines()
    assert lines[0].startswith("🎲 **Kohle, Kies & Knete #1 begins!** Seat order: 1. anna, 2. bert")
    assert (
        lines[1]
        == "Investors — "
        + ", ".join(
            f"{f}: {owners[k]}"
            for k, f in zip(
                "HKLPRT", ("Heiermann", "Knetowitz", "Liebgeld", "Piepenbrok", "Raffzahn", "Talerfeld"), strict=True
            )
        )
        + "."
    )
    assert lines[2] == (
        f"{names[state.turn]} holds the first investor alphabetically and starts; "
        f"{names[state.placer]} places the dollar marker."
    )
    assert lines[3].startswith(f"⏳ <@{t.players[state.placer].id}>, your turn: place the dollar marker")


async def test_an_offer_is_its_proposers_shake_and_binds_with_the_other_partys(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, cleo, _ = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk offer", price=4, family="K")
    offer = await t.offer_message(1)
    assert (await t.state()).offers[0].status == "shaken"  # making the offer was bert's consent
    assert f"⏳ Waiting for <@{anna.id}>'s 🤝 to make it binding" in offer.content  # whose 🤝 it waits for
    version = await t.version()
    await t.react(bert, offer, SHAKE)  # out of habit: it changes nothing …
    await t.unreact(bert, await t.offer_message(1), SHAKE)  # … nor does taking it off (he withdraws instead)
    assert await t.version() == version
    # A counter-offer replaces the open one; the old message says so.
    await t.ok(anna, "kkk offer", price=3, family="K", to=bert.mention)
    assert "🔁 Replaced by offer #2." in (await t.offer_message(1)).content
    # A 🤝 on the replaced offer is refused with the reason, in the thread, and taken off.
    await t.react(bert, await t.offer_message(1), SHAKE)
    assert "bert's shake on offer #1 doesn't count: Offer #1 is replaced: make a new offer." in t.narration()
    assert shakes(await t.offer_message(1)) == 1  # bert's refused 🤝 was taken off: only the bot's stays
    # /kkk shake is the same consent as the reaction; the autocomplete lists what is waiting for you.
    listed = await bert.autocomplete(t.thread, "kkk shake", "offer", "")
    assert [c["value"] for c in listed] == [2]
    assert await anna.autocomplete(t.thread, "kkk shake", "offer", "") == []  # her offer is her 🤝
    await t.ok(bert, "kkk shake", offer=2)
    assert (await t.state()).offers[1].status == "binding"
    # After it binds, a 🤝 put on or taken off changes nothing; an onlooker's 🤝 is removed and means nothing.
    version = await t.version()
    await t.react(anna, await t.offer_message(2), SHAKE)
    await t.unreact(anna, await t.offer_message(2), SHAKE)
    await t.react(cleo, await t.offer_message(2), SHAKE)
    assert await t.version() == version
    assert "✅ **Binding**: anna pays bert $3M" in (await t.offer_message(2)).content
    assert "bert's investor (agreement #2)" in embed_text(t.status())
    assert "Offer #2 is binding: it stands until the round ends" in await t.refused(bert, "kkk withdraw", offer=2)
    await t.assert_hands_secret()


async def test_stacked_boss_cards_move_the_window_and_stop(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, cleo, dave = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk boss")
    first = await t.window_message()
    first_window = (await t.state()).window
    await t.ok(cleo, "kkk boss")  # answers bert's Boss card: a new window
    second = await t.window_message()
    second_window = (await t.state()).window
    assert second.id != first.id
    # The first window's message says where the window went and loses its buttons (a click racing that edit is
    # refused by its stale window number: see test_rendering).
    first = t.message(first.channel.id, first.id)
    assert await t.bot.store.refs.find(t.game_id, "kkk.window", key=str(first_window)) is None  # settled: retired
    assert first.content.startswith("⏭️ 👔 cleo answers with a Boss card") and not first.components
    # anna STOPs cleo's Boss card: its window's message closes; bert's stands again, in a window of its own.
    await t.click(anna, second, "STOP")
    assert "cleo's Boss card is cancelled" in t.narration() and "bert's Boss card stands again" in t.narration()
    second = t.message(second.channel.id, second.id)
    assert await t.bot.store.refs.find(t.game_id, "kkk.window", key=str(second_window)) is None
    assert second.content.startswith("✋ anna plays STOP: cleo's Boss card is cancelled") and not second.components
    third = await t.window_message()
    assert third.id not in (first.id, second.id)
    assert "Pass" in [c.label for row in third.components for c in row.children]  # type: ignore[union-attr]
    for member in (anna, cleo, dave):
        await t.click(member, third, "Pass")
    state = await t.state()
    assert state.round is not None and state.round.boss == 1 and state.turn == 1
    assert t.message(third.channel.id, third.id).content.startswith("🔔 Window closed: bert is the Boss")
    assert await t.bot.store.refs.find(t.game_id, "kkk.window", key=str(state.window)) is None  # retired
    assert "the Boss is **bert**" in embed_text(t.status())
    await t.assert_hands_secret()


async def test_agreements_add_up_and_a_counter_offer_names_the_one_it_replaces(env: simcord.Env) -> None:
    """Issue 9, point 1, at the table: two shares agreed with the same player stand side by side; `/kkk offer
    counter:` (picked from its suggestions) replaces agreement #1 only when it binds, and its message says so."""
    t = await table(env)
    anna, bert, _cleo, dave = t.players
    await t.ok(anna, "kkk open")  # the deal pays $12M
    await t.ok(bert, "kkk offer", price=4, family="K")
    await t.react(anna, await t.offer_message(1), SHAKE)  # #1: anna pays bert $4M for his Knetowitz
    await t.ok(anna, "kkk offer", price=1, to=dave.mention)
    await t.react(dave, await t.offer_message(2), SHAKE)
    await t.ok(anna, "kkk offer", price=2, to=dave.mention)
    assert "replaces" not in (await t.offer_message(3)).content  # a second share stands on its own
    await t.react(dave, await t.offer_message(3), SHAKE)
    state = await t.state()
    assert [o.status for o in state.offers] == ["binding"] * 3
    # bert asks for more for his card: a counter-offer to #1, picked from the suggestions.
    listed = await t.autocomplete(bert, "kkk offer", "counter", "")
    assert [c["value"] for c in listed] == [1]
    await t.ok(bert, "kkk offer", price=5, counter=1)
    four = (await t.offer_message(4)).content
    assert "for bert's Knetowitz investor" in four
    assert "🔁 Counter-offer: if agreed, it **replaces agreement #1** (which stands until then)." in four
    assert f"⏳ Waiting for <@{anna.id}>'s 🤝" in four
    assert (await t.state()).offers[0].status == "binding"  # #1 stands until the counter-offer binds
    await t.react(anna, await t.offer_message(4), SHAKE)
    state = await t.state()
    assert [o.status for o in state.offers] == ["replaced", "binding", "binding", "binding"]
    assert "🔁 Replaced by offer #4." in (await t.offer_message(1)).content
    assert "🔁 It replaces agreement #1." in (await t.offer_message(4)).content
    assert "✅ **Binding**: anna pays bert $5M when the deal concludes.\n🔁 It replaces agreement #1." in t.narration()
    await t.assert_hands_secret()


async def test_a_round_names_the_owners_of_the_investors_it_needs_and_never_pings_the_boss_for_their_own_moves(
    env: simcord.Env,
) -> None:
    """Opening the deal names the players whose investors the space needs, without a ping: it hands the wait to
    nobody new (the Boss goes on), so it is an edit (issue 26) — each owner is pinged by the offer made to them.
    The Boss's deadline restarts with every move of the round, shown in the status, not pinged; an offer to the
    Boss pings the Boss, whose 🤝 it waits for."""
    t = await table(env)
    anna, bert, _cleo, dave = t.players
    meter = ThreadMeter.start(env, t.thread.id)
    await t.ok(anna, "kkk open")
    state = await t.state()
    assert state.round is not None
    space = state.data.space(state.round.space)
    owners = {state.investors[f] for f in space.families if state.investors[f] is not None} - {0}
    assert owners, "the prepared table's space needs other players' investors"
    assert meter.step(anna.id) == []  # no new message: the thread's newest one is edited with it
    said = "\n".join(m.content for m in t.thread.history())
    assert all(f"**{t.players[s].name}** (" in said.split("Investors it needs:")[-1] for s in owners), said
    deadline = (await t.state()).deadline
    assert deadline is not None
    await env.advance_time(60)
    await t.ok(bert, "kkk clan", family="K")
    moved = (await t.state()).deadline
    assert moved is not None and moved.until > deadline.until  # the Boss's time restarted…
    assert all(anna.id not in p for p in meter.step(bert.id))  # …without a ping
    await env.advance_time(60)
    await t.ok(dave, "kkk offer", price=2, family="P")
    assert meter.step(dave.id) == [{anna.id}]  # the offer's message pings the Boss, and only her
    moved = (await t.state()).deadline
    assert moved is not None
    assert f"<t:{int(moved.until.timestamp())}:R>" in embed_text(t.status())  # the status shows the new deadline


async def test_refusals_are_private_name_the_fix_and_change_nothing(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, _cleo, dave = t.players
    assert await t.refused(bert, "kkk roll") == "It's anna's turn — you can roll when it's yours."
    assert "Roll first" in await t.refused(anna, "kkk draw")
    await t.ok(anna, "kkk open")
    assert await t.refused(bert, "kkk close") == "Only the Boss (anna) can close the deal."
    assert "You can't close yet: you still need" in await t.refused(anna, "kkk close")
    assert await t.refused(anna, "kkk boss") == "You're already the Boss."
    assert "There's nothing to STOP right now" in await t.refused(bert, "kkk stop")
    assert await t.refused(dave, "kkk clan", family="H") == "You don't hold a Heiermann clan card."
    assert "I don't know the family “Z”" in await t.refused(dave, "kkk clan", family="Z")
    assert await t.refused(dave, "kkk recruit", family="K") == (
        "While investors lie beside the board, a recruitment must take one of those first: Raffzahn or Talerfeld."
    )
    outsider = t.server.guild.add_member(env.create_user("olga"))
    refused = await t.refused(anna, "kkk offer", price=2, family="H", to=outsider.mention)
    assert refused.startswith(f"{outsider.mention} isn't playing at Kohle, Kies & Knete #1. The players you can name:")
    assert "You're not playing" in await t.refused(outsider, "kkk pass")
    assert "I can't read “banana” as a card" in await t.refused(bert, "kkk discard", cards="banana")
    assert "You don't need to discard" in await t.refused(bert, "kkk discard", cards="STOP")
    await t.assert_hands_secret()


async def test_an_away_player_passes_and_a_window_closes_on_time(env: simcord.Env) -> None:
    t = await table(env)
    anna, _bert, cleo, dave = t.players
    away = await cleo.slash(t.thread, "game away", duration="1d")
    assert away.response.ephemeral
    await t.ok(anna, "kkk open")
    await t.ok(dave, "kkk travel", family="L", target=cleo.mention)
    assert "cleo is away: passing for them" in t.narration()
    await t.ok(anna, "kkk pass")
    assert (await t.state()).pending  # bert has not answered
    await env.advance_time(4 * 60)
    assert (await t.state()).pending
    await env.advance_time(61)
    state = await t.state()
    assert not state.pending and state.round.travel == {"L": "travel:L"}  # type: ignore[union-attr]
    assert "Time's up: nobody STOPped dave's travel card" in t.narration()
    assert "✈️ The Liebgeld investor is on travel." in embed_text(t.status())


async def test_the_boss_may_close_with_another_assignment(env: simcord.Env) -> None:
    t = await start(env)
    round_d = tables.round_d().state  # space 2 (K + 1 of T/P): anna owns Knetowitz, Talerfeld, Piepenbrok
    await prepare(t, round_d, "Prepared table.")
    anna = t.players[0]
    suggested = await anna.autocomplete(t.thread, "kkk close", "use", "")
    assert suggested[0]["name"].startswith("Bot's choice — K: own inv.")
    other = suggested[1]
    before = len(t.env.http_requests)
    await t.ok(anna, "kkk close", use=other["value"])
    assert len(rest_calls_since(t.env, before)) == 2  # the last call's message is the reply, and the status
    call = await t.window_message()
    state = await t.state()
    chosen = {u.family for u in state.round.last_call.uses}  # type: ignore[union-attr]
    assert chosen == {"K", "T"} and "Talerfeld (own investor)" in call.content  # the bot would have used P
    assert "The bank pays **$6M**." in call.content
    await t.click(anna, call, "Call off")
    assert (await t.state()).round.last_call is None  # type: ignore[union-attr]
    assert (await t.tracked("kkk.window", str(state.window))).content.startswith("📣 Last call off")
    assert "Pick an assignment from the suggestions" in await t.refused(anna, "kkk close", use="nonsense")


async def test_rest_calls_per_ordinary_move(env: simcord.Env) -> None:
    """Measured costs in REST calls. The platform's target is three or fewer per ordinary move besides the reply
    (an interaction callback, outside Discord's per-channel limits): the narration (the reply itself, or an edit
    adding it to the thread's newest narration message), the status edit, and a DM whose content changed. Moves
    that by the issue change more messages are asserted at their measured cost, each with why. An edit of a message
    a command made (its reply) is made with that command's token while it lives ("token edit": outside Discord's
    global limit, `bot.notifier.tokens`)."""
    t = await start(env)
    state = tables.turn_a().state
    state.turn = 3  # dave (3 cards) to move, so his draw stays under the limit
    await prepare(t, state, "Prepared table.")
    anna, bert, cleo, dave = t.players
    dm_channels = {m.user.dm_channel.id for m in t.players}

    def kinds(calls: list[str]) -> list[str]:
        """Each call by what it does: reply, post, delete, status (an edit of the message showing the status after
        the move: it may have moved down onto the newest narration message), edit (another message), token edit
        (an edit with the token of the command that made the message), dm, reaction."""
        status = t.status().id
        out = []
        for call in calls:
            method, path = call.split(" ", 1)
            if path.startswith("/interactions/"):
                out.append("reply")
            elif path.startswith("/webhooks/") and method == "PATCH":
                out.append("token edit")
            elif method == "DELETE":
                out.append("delete")
            elif method == "PUT" and "/reactions/" in path:
                out.append("reaction")
            elif method == "PATCH" and path.endswith(f"/messages/{status}"):
                out.append("status")
            elif method == "PATCH" and int(path.split("/")[2]) in dm_channels:
                out.append("dm")
            elif method == "PATCH":
                out.append("edit")
            else:
                out.append("post")
        # The status may have moved down into a command's reply (e.g. the one that pinged the Boss): its edit is
        # then a token edit of that reply.
        if "status" not in out and "token edit" in out and t.status().interaction_metadata is not None:
            out[out.index("token edit")] = "status"
        return sorted(out)

    async def cost(member, command, **options) -> list[str]:  # type: ignore[no-untyped-def]
        before = len(env.http_requests)
        await t.ok(member, command, **options)
        return kinds(rest_calls_since(env, before))

    async def reacting(member, offer_id: int) -> list[str]:  # type: ignore[no-untyped-def]
        before = len(env.http_requests)
        await t.react(member, await t.offer_message(offer_id), SHAKE)
        return kinds(rest_calls_since(env, before))

    # Ordinary moves: at most three calls besides the reply. A roll pings nobody new (dave goes on): its line is
    # added to the newest narration message (an edit), and the reply tells dave privately.
    assert await cost(dave, "kkk roll") == ["edit", "reply", "status"]
    # The draw's reply is public: the status, on the bot's own message (only its rate-limited edit changes that), moves
    # onto it with the command's token and its old message goes (`Status._cheaper_below`); its next edits are free.
    assert await cost(dave, "kkk draw") == ["delete", "dm", "reply", "status"]
    # Opening the deal hands the wait to nobody new (anna goes on as the Boss; the owners are named, not pinged):
    # its line is added to the newest narration message — the previous command's reply, edited with its token, which
    # carries the status now: one edit shows both.
    assert await cost(anna, "kkk open") == ["reply", "status"]
    state = await t.state()
    assert state.marker is not None
    usable = next(f for f in "KL" if f in state.data.space(state.marker).families)
    assert await cost(bert, "kkk clan", family=usable) == ["dm", "reply", "status"]  # (its line with the status)
    # The window's announcement is the command's reply, with the mentions of who may STOP: no separate narration.
    assert await cost(dave, "kkk travel", family="L", target=cleo.mention) == ["dm", "reply", "status"]
    window = await t.window_message()
    assert f"<@{anna.id}>" in window.content and window.components
    assert "dave plays a travel card on cleo's Liebgeld investor" in window.content
    assert await cost(anna, "kkk pass") == ["reply", "status"]
    # A STOP changes four messages: the narration, the closed window's message, the status, the player's DM. The
    # window's message was dave's reply to his travel: edited with his command's token.
    assert await cost(anna, "kkk stop") == ["dm", "reply", "status", "token edit"]
    assert await cost(bert, "kkk travel", family="H", target=anna.mention) == ["dm", "reply", "status"]
    key = str((await t.state()).window)
    await t.tracked("kkk.window", key)  # seen while open: its reference is retired when it closes
    assert await cost(anna, "kkk pass") == ["reply", "status"]
    assert await cost(cleo, "kkk pass") == ["reply", "status"]
    # The last pass closes the window's message; the travel takes effect, and anna's DM shows her investor away.
    # It is on the Boss again: the reply is a new message that pings him (an edit notifies nobody), and the
    # status moves down into it (an edit of the reply with its token, the old status deleted) rather than sink.
    closing = await cost(dave, "kkk pass")
    # (Or, when the status is still near the bottom — opening the deal added no message — it is edited in place.)
    assert closing in (["delete", "dm", "reply", "status", "token edit"], ["dm", "reply", "status", "token edit"])
    assert "🔔 Window closed: The Heiermann investor goes on travel" in (await t.tracked("kkk.window", key)).content
    # An offer: its own message is the command's reply, plus the bot's 🤝 on it and the status (the DMs list
    # agreements once they bind).
    assert await cost(dave, "kkk offer", price=2, family="P") == ["reaction", "reply", "status"]
    offer = await t.offer_message(1)
    assert offer.content.startswith("🤝 **Offer #1**: **anna** (the Boss) pays **dave** **$2M**")
    assert len([m for m in t.thread.history() if "Offer #1" in m.content or "offers anna" in m.content]) == 1
    # The proposer's own 🤝 costs nothing: making the offer already was his shake.
    assert await reacting(dave, 1) == []
    # An agreement that binds changes four messages: the offer's message (✅ Binding — no narration besides), the
    # status and both parties' DMs (each shows their open agreements) — a move between two players.
    assert await reacting(anna, 1) == ["dm", "dm", "status", "token edit"]
    assert len(dms(dave)) == 1
    # A Boss card: its window's announcement is the reply; the status and the player's DM (one card less).
    assert await cost(bert, "kkk boss") == ["dm", "reply", "status"]


async def test_hand_sizes_can_be_hidden_with_a_game_option(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    anna, bert, cleo = server.members
    suggested = await anna.autocomplete(server.channel, "game new", "options", "", game="kkk")
    assert [c["value"] for c in suggested] == ["hide_hand_sizes"]
    opened = await anna.slash(server.channel, "game new", game="kkk", options="hide_hand_sizes", random_order=False)
    assert "options: hide_hand_sizes" in embed_text(opened.response.message)
    for m in (bert, cleo):
        await m.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    assert (await server.bot.store.games.get(1)).options["hide_hand_sizes"] is True
    t = KkkTable(server, [anna, bert, cleo])
    players = embed_text(t.status()).split("Players: ", 1)[1]
    assert players.startswith("anna · bert · cleo · Draw pile") and "12 cards" not in players
    rules = await anna.slash(t.thread, "game rules")
    assert "`hide_hand_sizes` (on/off, default off) — On: the table doesn't show how many cards" in (
        embed_text(rules.response.message)
    )


async def test_a_moderator_ends_the_game_and_the_standings_show_money(env: simcord.Env) -> None:
    t = await start(env)
    state = tables.turn_a().state
    state.money = [12, 40, 7, 40]
    await prepare(t, state, "Prepared table.")
    admins = t.server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = t.server.guild.add_member(env.create_user("mia"), roles=[admins])
    ended = await mia.slash(t.thread, "mod end")
    lines = ended.response.content.splitlines()
    everyone = " ".join(f"<@{p.id}>" for p in t.players)
    assert lines[1:] == [
        f"🏁 **Kohle, Kies & Knete #1 has ended** — {everyone}",
        "🥇 **bert** — $40M",
        "🥇 **dave** — $40M",
        "🥉 **anna** — $12M",
        "4. **cleo** — $7M",
        "🔁 **Rematch** on the status message opens a new lobby for the same table.",
    ]
    assert "🥇 **bert** — $40M" in embed_text(t.status())


async def test_the_secrecy_check_catches_a_leak(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check used in every scenario is not vacuous: a status message that shows a hand fails it."""
    t = await table(env)
    await t.assert_hands_secret()
    original = status_module.status_post

    def leaky(tbl):  # type: ignore[no-untyped-def]
        from bot.games.kkk import reading
        from bot.games.kkk.words import hand_block

        post = original(tbl)
        post.fields.append(("Leak", hand_block(reading.mine(tbl, 2).hand)))
        return post

    monkeypatch.setattr(status_module, "status_post", leaky)
    with pytest.raises(AssertionError, match="cleo's hand is in a public message"):
        await t.ok(t.players[0], "kkk roll")  # the status message is edited after the roll: now with the leak


async def test_an_extension_is_never_shortened_by_the_next_move_of_the_same_turn(env: simcord.Env) -> None:
    """The Boss's time restarts with every move of a round; a moderator's `/mod extend` lasts anyway: the deadline
    never comes back earlier than the extended one while the Boss is still the one awaited."""
    t = await table(env)
    anna, bert, _cleo, _dave = t.players
    admins = t.server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = t.server.guild.add_member(env.create_user("mia"), roles=[admins])
    await t.ok(anna, "kkk open")
    before = (await t.state()).deadline
    assert before is not None
    extended = await mia.slash(t.thread, "mod extend", hours=12.0)
    assert "extended the current deadline by 12 hours" in extended.response.content
    table_ = await t.bot.service.read.table(t.game_id)
    due = table_.deadline(0, table_.waits[0])
    assert due == before.until + timedelta(hours=12)
    await env.advance_time(60)
    await t.ok(bert, "kkk clan", family="K")  # the Boss's time restarts (from now: shorter than the extension)
    table_ = await t.bot.service.read.table(t.game_id)
    assert table_.waits[0].seats == (0,) and table_.deadline(0, table_.waits[0]) == due
    assert f"<t:{int(due.timestamp())}:R>" in embed_text(t.status())


async def test_who_each_message_pings(env: simcord.Env) -> None:
    """The exact mention set of each kind of message: a travel card's window pings the others who may STOP; a pass
    pings nobody (no new message); an offer pings its other party; the 🤝 that binds it pings nobody; the closing
    of the window pings the Boss, once (the window's message is only edited, which notifies nobody, and it is on
    her again); a reminder pings the awaited player, once."""
    t = await table(env)
    anna, bert, cleo, dave = t.players
    await t.ok(anna, "kkk open")
    meter = ThreadMeter.start(env, t.thread.id)
    await t.ok(dave, "kkk travel", family="L", target=cleo.mention)
    assert meter.step(dave.id) == [{anna.id, bert.id, cleo.id}]  # one message: whoever may STOP
    await t.ok(bert, "kkk pass")
    assert meter.step(bert.id) == []  # shown on the status: no message
    await t.ok(dave, "kkk offer", price=2, family="P")
    assert meter.step(dave.id) == [{anna.id}]  # the offer's message: the Boss, whose 🤝 it waits for
    await t.react(anna, await t.offer_message(1))
    assert meter.step(anna.id) == []  # "✅ Binding" on the offer's message
    await t.ok(anna, "kkk pass")
    await t.ok(cleo, "kkk pass")  # the last pass closes the window: it is on the Boss again
    assert meter.step(cleo.id) == [{anna.id}]
    # A reminder halfway to the Boss's deadline: she alone, named once, with what for.
    table_ = await t.bot.service.read.table(t.game_id)
    due = table_.deadline(0, table_.waits[0])
    await env.advance_time((due - t.bot.clock()).total_seconds() / 2 + 60)
    (reminder,) = meter.step(None)
    assert reminder == {anna.id}
    text = next(m.content for m in reversed(t.thread.history()) if m.content.startswith("⏰ Reminder"))
    assert text.count(f"<@{anna.id}>") == 1 and "your turn as the Boss: close the deal (or fail)" in text


async def test_a_quiet_line_merged_just_before_a_crash_is_not_added_again(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    """A quiet line is added to the newest narration message without marking anything first (no write per quiet
    move); when the process dies after the edit but before the row is marked delivered, the restarted bot finds
    the edited message (the bot's, edited since the commit, holding the line) and does not add it again."""
    from engine import registry

    t = await start(env)
    state = tables.turn_a().state
    state.turn = 3
    await prepare(t, state, "Prepared table.")
    dave = t.players[3]

    async def dies(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the process died before marking")

    t.bot.store.outbox.mark_delivered_many = dies
    t.bot.notifier.retries.schedule = lambda game_id, attempts: None  # (dead: no retry in this process)
    await t.ok(dave, "kkk roll")
    rolled = [m for m in t.thread.history() if "dave rolls" in m.content]
    assert len(rolled) == 1 and rolled[0].content.startswith("🧪 Prepared table.")  # added to the newest message
    assert any(r.kind == "post" for r in await t.bot.store.outbox.undelivered(game_id=t.game_id))

    await env.restart_bot(make_bot(games={"kkk": registry.get("kkk")}, presentations={}))
    assert sum(m.content.count("dave rolls") for m in t.thread.history()) == 1
    assert not [r for r in await t.bot.store.outbox.undelivered(game_id=t.game_id) if r.kind == "post"]


async def test_a_status_posted_afresh_is_the_commands_follow_up_and_its_token_edits_it(env: simcord.Env) -> None:
    # People talk below the status until it sinks past the deepest it may go, and the next move posts nothing to
    # move it into (a pass in a window is told privately): the status is posted afresh — as the follow-up of that
    # command, so the command's token edits it from then on instead of the bot's rate-limited call.
    t = await start(env)
    state = tables.turn_a().state
    state.turn = 3
    await prepare(t, state, "Prepared table.")
    anna, bert, cleo, dave = t.players
    await t.ok(dave, "kkk roll")
    await t.ok(dave, "kkk draw")
    await t.ok(anna, "kkk open")
    state = await t.state()
    assert state.marker is not None
    await t.ok(bert, "kkk clan", family=next(f for f in "KL" if f in state.data.space(state.marker).families))
    await t.ok(dave, "kkk travel", family="L", target=cleo.mention)
    for k in range(14):
        await t.server.members[1].send(t.thread, f"chat {k}")
    old = t.status()
    before = len(env.http_requests)
    await t.ok(anna, "kkk pass")
    calls = rest_calls_since(env, before)
    new = t.status()
    assert new.id != old.id and new.interaction_metadata is not None  # posted afresh, as a follow-up
    # (Its old message, a reply, loses it by an edit with its own command's token.) No call of the bot's own.
    assert not [c for c in calls if c.split(" ")[1].startswith(f"/channels/{t.thread.id}/")], calls
    before = len(env.http_requests)
    await t.ok(cleo, "kkk pass")
    calls = rest_calls_since(env, before)
    assert t.status().id == new.id
    assert not [c for c in calls if c.startswith(f"PATCH /channels/{t.thread.id}/")], calls
