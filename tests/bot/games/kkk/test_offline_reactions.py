"""A 🤝 added or taken off while the bot is offline counts once it is back (`ReactionCog.reconcile`).

Discord sends no event for what happened while a bot was away, and SimCord models that exactly when the reaction is
put straight into its backend (the message's reaction list) without a gateway event: the running bot never hears of
it, as if it were down. Then a new bot starts on the same database (`env.restart_bot`), and must find it.
"""

import discord
import simcord
from simcord.backend.models.message import Reaction

from bot.service import parse_reaction_note, reaction_note
from engine import registry
from tests.bot.games.kkk.helpers import KkkTable, prepare, start
from tests.bot.helpers import mod_undo
from tests.engine.kkk import tables

SHAKE = "🤝"


async def table(env: simcord.Env) -> KkkTable:
    t = await start(env)
    await prepare(t, tables.turn_a().state, "Prepared table.")
    return t


def silently(env: simcord.Env, message: discord.Message, member: simcord.MemberActor, *, added: bool) -> None:
    """The member's 🤝 put on (or taken off) the message with no gateway event: what the bot misses while down."""
    stored = env.backend.get_message(message.channel.id, message.id)
    reaction = stored.reaction_for(SHAKE)
    if added:
        if reaction is None:
            reaction = Reaction(emoji=SHAKE)
            stored.reactions.append(reaction)
        reaction.user_ids.append(member.id)
    else:
        assert reaction is not None and member.id in reaction.user_ids
        reaction.user_ids.remove(member.id)


def shakers(env: simcord.Env, message: discord.Message) -> list[int]:
    reaction = env.backend.get_message(message.channel.id, message.id).reaction_for(SHAKE)
    return list(reaction.user_ids) if reaction else []


async def restart(t: KkkTable, make_bot) -> None:  # type: ignore[no-untyped-def]
    t.bot.scheduler.close()
    await t.env.restart_bot(make_bot(games={"kkk": registry.get("kkk")}, presentations={}))


async def test_a_shake_given_while_the_bot_was_down_binds_the_agreement(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    t = await table(env)
    anna, bert, cleo, _dave = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk offer", price=4, family="K")  # bert's offer is his own 🤝
    offer = await t.offer_message(1)
    silently(env, offer, bert, added=True)  # out of habit: it changes nothing
    silently(env, offer, anna, added=True)
    silently(env, offer, cleo, added=True)  # an onlooker: stray
    await env.settle()
    assert (await t.state()).offers[0].status == "shaken"  # the running bot heard nothing
    await restart(t, make_bot)
    state = await t.state()
    assert state.offers[0].status == "binding" and sorted(state.offers[0].shaken) == [0, 1]
    assert "✅ **Binding**: anna pays bert $4M" in (await t.offer_message(1)).content
    assert "✅ **Binding**: anna pays bert $4M when the deal concludes." in t.narration()  # the offer's message
    assert cleo.id not in shakers(env, offer)  # the onlooker's 🤝 was taken off, without a word in the thread
    assert "cleo" not in t.narration().split("✅ **Binding**")[-1]
    # The moves are recorded as reactions, so a second restart finds nothing new and posts nothing.
    notes = [parse_reaction_note(e.note) for e in await t.bot.store.log.entries(1)]
    assert [n[2] for n in notes if n is not None] == [True]  # anna's 🤝: the only one that meant a move
    posted = len(t.thread.history())
    version = await t.version()
    await restart(t, make_bot)
    assert await t.version() == version and len(t.thread.history()) == posted
    await t.assert_hands_secret()


async def test_a_shake_taken_back_while_the_bot_was_down_is_taken_back(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    t = await table(env)
    anna, bert, cleo, dave = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk offer", price=4, family="K")
    await t.react(anna, await t.offer_message(1))  # binding …
    await t.ok(cleo, "kkk boss")
    for player in (anna, bert, dave):
        await t.ok(player, "kkk pass")  # … until cleo is the Boss: it reopens, and both shake again
    await t.react(bert, await t.offer_message(1))  # bert shakes on its new message by 🤝
    await t.ok(dave, "kkk offer", price=2, family="P")  # dave's offer to cleo is his 🤝, with none on its message
    silently(env, await t.offer_message(1), bert, added=False)  # bert takes his 🤝 back while the bot is down
    await restart(t, make_bot)
    state = await t.state()
    assert state.offers[0].status == "open" and state.offers[0].shaken == []
    assert "Both of you, **cleo** and **bert**, react 🤝 here to agree again" in (await t.offer_message(1)).content
    # dave made his offer: no 🤝 of his on its message, and his consent stands.
    assert state.offers[1].status == "shaken" and state.offers[1].shaken == [3]


async def test_a_proposers_own_shake_taken_off_while_the_bot_was_down_changes_nothing(
    env: simcord.Env, make_bot
) -> None:  # type: ignore[no-untyped-def]
    t = await table(env)
    anna, bert, _cleo, _dave = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk offer", price=4, family="K")
    await t.react(bert, await t.offer_message(1))  # out of habit
    silently(env, await t.offer_message(1), bert, added=False)
    await restart(t, make_bot)
    assert (await t.state()).offers[0].shaken == [1]  # his consent is the offer: he withdraws it to take it back
    assert f"⏳ Waiting for <@{anna.id}>'s 🤝" in (await t.offer_message(1)).content


async def test_a_shake_over_the_payout_given_offline_is_refused_with_the_reason(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    t = await table(env)
    anna, bert, cleo, _dave = t.players
    await t.ok(anna, "kkk open")  # the deal pays $12M
    await t.ok(bert, "kkk offer", price=8, family="K")
    await t.ok(anna, "kkk shake", offer=1)
    await t.ok(cleo, "kkk offer", price=8, family="L")
    offer = await t.offer_message(2)
    silently(env, offer, anna, added=True)
    await restart(t, make_bot)
    assert (await t.state()).offers[1].status == "shaken"
    assert "🤝 anna's shake on offer #2 doesn't count: Shaking on #2 would promise $16M" in t.narration()
    assert anna.id not in shakers(env, offer)  # taken off, like a live refused 🤝


async def test_a_shake_a_moderator_undid_is_not_given_again_by_its_reaction(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    t = await start(env)  # played from the seed (an undo replays the log), not prepared
    admins = t.server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = t.server.guild.add_member(env.create_user("mia"), roles=[admins])
    state = await t.state()
    view = registry.get("kkk").view(state, None)
    space, family, seller = next(
        (s.number, f, state.investors[f])
        for s in view.spaces
        for f in (*s.required, *s.group)
        if state.investors[f] is not None and state.investors[f] != state.turn
    )
    await t.ok(t.players[state.placer], "kkk place", space=space)
    await t.ok(t.players[state.turn], "kkk open")
    await t.ok(t.players[seller], "kkk offer", price=1, family=family)
    await t.react(t.players[state.turn], await t.offer_message(1))  # the Boss's 🤝 binds it
    assert (await t.state()).offers[0].status == "binding"
    undone = await mod_undo(mia, t.thread)
    # What was undone is named from the events' own text by the platform (bot/service/moderation.py); KKK's events
    # carry codes now (issue 28), so it says "the last move" until the platform words them through `event_line`.
    assert undone.response is not None and "undid:" in undone.response.content
    assert (await t.state()).offers[0].status == "shaken"  # the Boss's 🤝 is still on the message
    await restart(t, make_bot)
    assert (await t.state()).offers[0].status == "shaken"  # the undo stands


def test_the_reaction_note_reads_back_and_ignores_other_notes() -> None:
    assert parse_reaction_note(reaction_note(123, SHAKE, True)) == (123, SHAKE, True)
    assert parse_reaction_note(reaction_note(123, "<:deal:42>", False)) == (123, "<:deal:42>", False)
    for other in ("", "undo of entry 3", "reaction:", "reaction:+:x:🤝", "reaction:*:1:🤝", "reaction:+:1:"):
        assert parse_reaction_note(other) is None


async def test_an_offer_made_by_command_is_taken_back_by_command(env: simcord.Env) -> None:
    """A player who can't react (the reason `/kkk shake` exists) can take their consent back before it binds: their
    offer is their consent, so they withdraw it."""
    t = await table(env)
    anna, bert, _cleo, _dave = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk offer", price=4, family="K")
    assert (await t.state()).offers[0].shaken == [1]
    assert "making it was your 🤝. To take it back, withdraw it" in await t.refused(bert, "kkk unshake", offer=1)
    assert "was your 🤝 already: it binds when anna shakes" in await t.refused(bert, "kkk shake", offer=1)
    await t.ok(bert, "kkk withdraw", offer=1)
    assert (await t.state()).offers[0].status == "withdrawn"
    await t.ok(bert, "kkk offer", price=5, family="K")
    await t.ok(anna, "kkk shake", offer=2)
    assert "binding: it stands" in await t.refused(bert, "kkk withdraw", offer=2)
    assert (await t.state()).offers[1].status == "binding"
