"""The rulebook's worked example (the 13th deal: Axel, Bert, Chris and Doris) replayed through Discord.

Source: the rulebook's "Example of a Round of Negotiations". The prepared game is the engine
scenario's own table (`tests/engine/kkk/test_worked_example.start`: twelve deals done, a dividend worth $5M, the
marker on space 8 "R, L, K + 2 of T/P/H, 6 dividends", the example's hands and investors, a die that rolls 5),
written into the store with `helpers.prepare` after a lobby of axel, bert, chris and doris started the game. Every
move is then a `/kkk` command, a button or a 🤝 reaction, and the payouts are the rulebook's: the bank pays Bert $30M,
Bert pays Doris and Axel $10M each and keeps $10M; Bert rolls a 5 and the game goes on with Chris.

Every step also runs the checks of `helpers.KkkTable.check_step`: the secrecy checks (text and twins) and the
status's facts against the state (`status_facts`), so the status is checked through the whole example: the payout,
who covers Raffzahn and Liebgeld, the pending travel and Boss cards with their deadline, the last call.
"""

import simcord

from tests.bot.games.kkk.helpers import prepare, start
from tests.bot.helpers import dms, embed_text
from tests.engine.kkk.test_worked_example import start as example_table

SHAKE = "🤝"


async def test_the_thirteenth_deal_through_discord(env: simcord.Env) -> None:
    t = await start(env, names=("axel", "bert", "chris", "doris"))
    axel, bert, chris, doris = t.players
    await prepare(t, example_table().state, "The rulebook's example: twelve deals are done.")
    await t.assert_hands_secret()

    # Axel opens; his Liebgeld and Piepenbrok are in play; he lays his Heiermann and Raffzahn clan cards.
    await t.ok(axel, "kkk open")
    assert "6 dividends × $5M = **$30M**" in embed_text(t.status())
    await t.ok(axel, "kkk clan", family="H")
    await t.ok(axel, "kkk clan", family="R")

    # "One share for Knetowitz?" — "Nothing less than $8M." Axel accepts with gritted teeth: his 🤝 on Bert's
    # counter-offer (Bert's own offer is his 🤝) seals it.
    await t.ok(axel, "kkk offer", price=1, unit="dividends", family="K", to=bert.mention)
    await t.ok(bert, "kkk offer", price=8, family="K")
    assert "🔁 Replaced by offer #2." in (await t.offer_message(1)).content
    two = await t.offer_message(2)
    assert f"⏳ Waiting for <@{axel.id}>'s 🤝" in two.content
    await t.react(axel, two, SHAKE)
    assert "✅ **Binding**: axel pays bert $8M" in (await t.offer_message(2)).content
    await t.assert_hands_secret()

    # Chris sends Axel's Liebgeld on vacation; Axel fends it off with a STOP.
    await t.ok(chris, "kkk travel", family="L", target=axel.mention)
    await t.ok(axel, "kkk stop")
    # Doris does the same; Axel has no more STOP cards, and everyone else passes (buttons and a command).
    await t.ok(doris, "kkk travel", family="L", target=axel.mention)
    window = await t.window_message()
    await t.click(axel, window, "Pass")
    await t.click(bert, window, "Pass")
    await t.ok(chris, "kkk pass")
    assert "✈️ The Liebgeld investor is on travel." in embed_text(t.status())

    # Doris lays a Liebgeld clan card and offers it for $9M.
    await t.ok(doris, "kkk clan", family="L")
    await t.ok(doris, "kkk offer", price=9, family="L")

    # "I'm the Boss!" — Axel answers with a Boss card — Bert plays another. Nobody else has one.
    await t.ok(bert, "kkk boss")
    await t.ok(axel, "kkk boss")
    await t.ok(bert, "kkk boss")
    for member in (axel, chris, doris):
        await t.ok(member, "kkk pass")
    state = await t.state()
    assert state.round is not None and state.round.boss == 1 and state.turn == 1
    assert "❌ Agreement #2 is void: bert is the Boss now." in (await t.offer_message(2)).content
    assert "❌ Offer #3 is void" in (await t.offer_message(3)).content
    await t.assert_hands_secret()

    # Bert lays Talerfeld and Piepenbrok; he still lacks Raffzahn and Liebgeld.
    await t.ok(bert, "kkk clan", family="T")
    await t.ok(bert, "kkk clan", family="P")
    status = embed_text(t.status())
    assert "❌ Raffzahn — not covered" in status and "❌ Liebgeld — not covered" in status
    # Doris: Liebgeld for $10M. Axel: his Raffzahn clan card for $10M. Chris: his Raffzahn investor for $8M.
    await t.ok(doris, "kkk offer", price=10, family="L")
    await t.ok(axel, "kkk offer", price=10, family="R")
    await t.ok(chris, "kkk offer", price=8, family="R")

    # Axel recruits Chris's Raffzahn (Chris has no STOP): Chris's offer is void.
    await t.ok(axel, "kkk recruit", family="R")
    window = await t.window_message()
    for member in (bert, chris, doris):
        await t.click(member, window, "Pass")
    assert (await t.state()).investors["R"] == 0
    assert "❌ Offer #6 is void: chris no longer has Raffzahn to bring." in (await t.offer_message(6)).content

    # "Usury!" — Bert shakes on both $10M offers (Axel's and Doris's offers are their own 🤝) and closes.
    for offer in (5, 4):
        await t.react(bert, await t.offer_message(offer), SHAKE)
        assert "✅ **Binding**" in (await t.offer_message(offer)).content
    await t.ok(bert, "kkk close")
    call = await t.window_message()
    assert "The bank pays **$30M**." in call.content
    assert "• bert pays doris $10M (#4)" in call.content and "• bert pays axel $10M (#5)" in call.content
    assert "**bert** keeps **$10M**." in call.content
    assert "Raffzahn (axel's investor)" in call.content  # the newly recruited investor, not his clan card
    for member in (axel, chris, doris):
        await t.click(member, call, "Let it go")

    # The banker pays $30M to Bert, who pays Doris and Axel $10M each and keeps $10M; Bert rolls a 5.
    text = t.narration()
    assert "🏦 The bank pays bert $30M." in text
    assert "💸 bert pays doris $10M (#4)." in text and "💸 bert pays axel $10M (#5)." in text
    assert "💼 bert keeps $10M." in text
    assert "bert rolls 5 (ends on 1, 2, 3, 4): play goes on." in text
    state = await t.state()
    assert state.money == [10, 10, 0, 10] and state.deals == 13 and state.turn == 2
    assert "**chris**'s turn" in embed_text(t.status())
    for member, amount in ((axel, 10), (bert, 10), (chris, 0), (doris, 10)):
        assert f"**${amount}M** — only you see this" in embed_text(dms(member)[0])
    assert all("only you see this" not in m for m in t.texts())
    await t.assert_hands_secret()
