"""Issue 13's “what can I do now?” at a Kohle, Kies & Knete table, through SimCord as the players use it:
`/game help` (and the status's ❓ button) for the player to move, the Boss, a player in a reaction window and an
onlooker; `/game move` suggesting moves in words and playing the one picked; and the wording of a voided clan-card
offer."""

import simcord

from bot.games.kkk import posts
from bot.moves import HELP, STALE
from engine.kkk import actions as A
from tests.bot.games.kkk.helpers import KkkTable, prepare, start
from tests.bot.games.kkk.test_rendering import table_for
from tests.bot.helpers import embed_text
from tests.engine.kkk import tables


async def help_of(t: KkkTable, member: simcord.MemberActor) -> str:
    asked = await member.slash(t.thread, "game help")
    assert asked.response is not None and asked.response.ephemeral  # for the asker's eyes only
    return embed_text(asked.response.message)


async def test_help_for_the_player_to_move_and_for_the_others(env: simcord.Env) -> None:
    t = await start(env)
    await prepare(t, tables.turn_a().state, "anna to move.")
    anna, bert = t.players[0], t.players[1]
    mine = await help_of(t, anna)
    assert "The game waits for you" in mine
    assert "**Open the deal** on space 8" in mine and "`/kkk open`" in mine and "`/kkk roll`" in mine
    theirs = await help_of(t, bert)
    assert "**anna**'s turn" in theirs and "Nothing for you to do right now" in theirs
    assert "/kkk open" not in theirs
    # The same answer from the ❓ button on the status message, privately.
    clicked = await bert.click(t.status(), label="What can I do?")
    assert clicked.response.ephemeral and embed_text(clicked.response.message) == theirs


async def test_help_for_the_boss_and_for_a_player_in_a_reaction_window(env: simcord.Env) -> None:
    t = await start(env)
    await prepare(t, tables.round_a().state, "anna opened the deal.")
    boss = await help_of(t, t.players[0])
    assert "`/kkk fail`" in boss and "`/kkk offer price: family: to:`" in boss  # the Boss offers to a holder
    assert "`/kkk boss`" not in boss  # the Boss plays no Boss card against themselves
    await prepare(t, tables.pending_travel().state, "dave sends cleo's Liebgeld investor on travel.")
    cleo = await help_of(t, t.players[2])
    assert "The game waits for you" in cleo
    assert "**No STOP from you**: the **Pass** button on the window's message, or `/kkk pass`" in cleo
    assert "`/kkk stop`" in cleo  # cleo holds a STOP
    dave = await help_of(t, t.players[3])  # the card's own player: not awaited, and can't STOP it
    assert "The game waits for you" not in dave and "`/kkk stop`" not in dave


async def test_help_for_an_onlooker_says_who_is_awaited_and_how_to_follow(env: simcord.Env) -> None:
    t = await start(env)
    await prepare(t, tables.turn_a().state, "anna to move.")
    mia = t.server.guild.add_member(env.create_user("mia"))
    seen = await help_of(t, mia)
    assert "You don't play in this game" in seen and f"<#{t.thread.id}>" in seen
    assert "**anna**'s turn" in seen and "/kkk" not in seen


async def test_game_move_suggests_words_and_plays_the_picked_move(env: simcord.Env) -> None:
    t = await start(env)
    await prepare(t, tables.turn_a().state, "anna to move.")
    anna = t.players[0]
    choices = await anna.autocomplete(t.thread, "game move", "action", "")
    names = {c["name"]: c["value"] for c in choices}
    assert set(names) == {"Open the deal on space 8", "Roll the die"}
    assert not any("{" in value or "type" in value for value in names.values())  # opaque tokens, no JSON
    rolled = await anna.slash(t.thread, "game move", action=names["Roll the die"])
    # The roll pings nobody new (anna goes on): its line joins the thread's newest narration message, and anna
    # gets the same line privately.
    assert "anna rolls" in rolled.response.content and "anna rolls" in t.narration()
    assert (await t.state()).phase == "rolled"
    # The same pick again is stale: the game moved on since the list was shown.
    version = await t.version()
    again = await anna.slash(t.thread, "game move", action=names["Roll the die"])
    assert again.response.ephemeral and again.response.content == f"{STALE} {HELP}" and "`/game help`" in HELP
    assert await t.version() == version
    # Typed words of a suggestion work too; typed nonsense is refused kindly, naming /game help.
    drew = await anna.slash(t.thread, "game move", action="draw 3 cards")
    assert "anna draws 3 cards" in drew.response.content and "anna draws 3 cards" in t.narration()
    nonsense = await t.players[1].slash(t.thread, "game move", action="win the game")
    assert nonsense.response.ephemeral and "`/game help`" in nonsense.response.content


def test_a_voided_clan_card_offer_names_the_clan_card() -> None:
    t = tables.round_a()
    t(1, A.PlayClan(family="L"))  # bert's Liebgeld clan card (cleo owns the Liebgeld investor)
    t(1, A.Offer(price=2, family="L"))
    t(3, A.Travel(target=1, family="L", on="clan"))
    events = [e for actor in (0, 1, 2) for e in t(actor, A.Pass())]
    assert any(e.kind == "offer_void" for e in events)
    (offer,) = [p for p in posts.event_posts(table_for(t.state), events) if p.ref == (posts.OFFER, "1")]
    assert "for bert's Liebgeld clan card" in offer.content and "investor" not in offer.content
