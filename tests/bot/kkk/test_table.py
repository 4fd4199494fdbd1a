"""The KKK table in Discord, move by move: consent by 🤝, stacked Boss cards and stale buttons, refusals, away
players, the Boss's own assignment, and what an ordinary move costs in REST calls.

Each test starts a lobby of anna, bert, cleo and dave (seats in that order) and prepares one of the engine tests'
tables (`tests/engine/kkk/tables.py`) with `helpers.prepare`: space 8 (R, L, K + 2 of T/P/H, 6 × $2M = $12M), anna
to move, investors Heiermann anna / Knetowitz bert / Liebgeld cleo / Piepenbrok dave, Raffzahn and Talerfeld beside
the board, and the hands of `tables.HANDS` (anna: 4 clan cards, Knetowitz travel, joker, STOP, Boss, 3 recruitment;
bert: Knetowitz and Liebgeld clans, Heiermann travel, STOP, Boss, 2 recruitment; cleo: Talerfeld clan, STOP, Boss,
Liebgeld travel; dave: Piepenbrok clan, Liebgeld and Piepenbrok travel).
"""

import pytest
import simcord

from bot.games.kkk import status as status_module
from tests.bot.helpers import dms, embed_text, rest_calls_since
from tests.bot.kkk.helpers import KKK, KkkTable, prepare, start
from tests.engine.kkk import tables

SHAKE = "🤝"


async def table(env: simcord.Env, build=tables.turn_a, **kwargs) -> KkkTable:  # type: ignore[no-untyped-def]
    t = await start(env, **kwargs)
    await prepare(t, build().state, "Prepared table.")
    return t


async def test_consent_is_the_shake_and_can_be_taken_back_before_it_binds(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, cleo, _ = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk offer", price=4, family="K")
    offer = await t.offer_message(1)
    await t.react(bert, offer, SHAKE)
    assert (await t.state()).offers[0].status == "shaken"
    await t.unreact(bert, await t.offer_message(1), SHAKE)  # consent taken back
    assert (await t.state()).offers[0].status == "open"
    assert "Open — **anna** and **bert**" in (await t.offer_message(1)).content
    # A counter-offer replaces the open one; the old message says so.
    await t.ok(anna, "kkk offer", price=3, family="K", to=bert)
    assert "🔁 Replaced by offer #2." in (await t.offer_message(1)).content
    # A 🤝 on the replaced offer is refused with the reason, in the thread, and taken off.
    await t.react(bert, await t.offer_message(1), SHAKE)
    assert "bert's shake on offer #1 doesn't count: Offer #1 is replaced: make a new offer." in t.narration()
    # /kkk shake is the same consent as the reaction; the autocomplete lists what is waiting for you.
    listed = await bert.autocomplete(t.thread, "kkk shake", "offer", "")
    assert [c["value"] for c in listed] == [2]
    await t.ok(bert, "kkk shake", offer=2)
    await t.react(anna, await t.offer_message(2), SHAKE)
    assert (await t.state()).offers[1].status == "binding"
    # After it binds, taking a 🤝 off changes nothing; an onlooker's 🤝 is removed and means nothing.
    version = await t.version()
    await t.unreact(anna, await t.offer_message(2), SHAKE)
    await t.react(cleo, await t.offer_message(2), SHAKE)
    assert await t.version() == version
    assert "✅ **Binding**: anna pays bert $3M" in (await t.offer_message(2)).content
    assert "bert's investor (agreement #2)" in embed_text(t.status())
    assert "Offer #2 is binding: it stands until the round ends" in await t.refused(bert, "kkk withdraw", offer=2)
    await t.assert_hands_secret()


async def test_stacked_boss_cards_a_stale_button_and_stop(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, cleo, dave = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk boss")
    first = await t.window_message()
    await t.ok(cleo, "kkk boss")  # answers bert's Boss card: a new window
    second = await t.window_message()
    assert second.id != first.id
    # The first window's buttons are stale: refused, and nothing happens to the newer window.
    version = await t.version()
    stale = await t.click(anna, first, "STOP")
    assert stale.response.ephemeral and "That window has already closed" in stale.response.content
    assert await t.version() == version
    # anna STOPs cleo's Boss card: bert's stands again, in a window of its own.
    await t.click(anna, second, "STOP")
    assert "cleo's Boss card is cancelled" in t.narration() and "bert's Boss card stands again" in t.narration()
    third = await t.window_message()
    assert third.id not in (first.id, second.id)
    assert "Pass" in [c.label for row in third.components for c in row.children]  # type: ignore[union-attr]
    for member in (anna, cleo, dave):
        await t.click(member, third, "Pass")
    state = await t.state()
    assert state.round is not None and state.round.boss == 1 and state.turn == 1
    assert (await t.tracked("kkk.window", str(state.window))).content.startswith("🔔 Window closed: bert is the Boss")
    assert "the Boss is **bert**" in embed_text(t.status())
    await t.assert_hands_secret()


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
    assert "olga isn't playing in this game" in await t.refused(anna, "kkk offer", price=2, family="H", to=outsider)
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
    await t.ok(dave, "kkk travel", family="L", target=cleo)
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
    await t.ok(anna, "kkk close", use=other["value"])
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
    """Measured costs (REST calls): the reply (the narration), the status edit, and a changed DM each count."""
    t = await start(env)
    state = tables.turn_a().state
    state.turn = 3  # dave (3 cards) to move, so his draw stays under the limit
    await prepare(t, state, "Prepared table.")
    anna, bert, _, dave = t.players

    async def cost(member, command, **options) -> list[str]:  # type: ignore[no-untyped-def]
        before = len(env.http_requests)
        await t.ok(member, command, **options)
        return rest_calls_since(env, before)

    assert len(await cost(dave, "kkk roll")) == 2  # reply + status
    assert len(await cost(dave, "kkk draw")) == 3  # reply + status + dave's DM
    assert len(await cost(anna, "kkk open")) == 2  # reply + status
    space = (await t.state()).marker
    usable = next(f for f in "KL" if f in KKK.data.space(space).families)  # type: ignore[attr-defined]
    assert len(await cost(bert, "kkk clan", family=usable)) == 3  # reply + status + bert's DM
    assert len(await cost(dave, "kkk travel", family="L", target=t.players[2])) == 4  # + the window message
    assert len(await cost(anna, "kkk pass")) == 2  # reply + status
    assert len(await cost(anna, "kkk stop")) == 4  # reply + status + anna's DM + the window message, closed
    # An offer has its own message with 🤝 added: reply + status + post + reaction.
    calls = await cost(dave, "kkk offer", price=2, family="P")
    assert len(calls) == 4 and any(c.startswith("PUT") and "reactions" in c for c in calls)
    before = len(env.http_requests)
    await t.react(dave, await t.offer_message(1), SHAKE)
    assert len(rest_calls_since(env, before)) == 3  # narration + offer message + status
    before = len(env.http_requests)
    await t.react(anna, await t.offer_message(1), SHAKE)  # it binds: both DMs list the agreement
    assert len(rest_calls_since(env, before)) == 5  # narration + offer message + status + 2 DMs
    assert len(dms(dave)) == 1


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
