"""A whole four-player game of Schwarzmarkt through Discord (SimCord), from `/game new` to the standings: cards
played with `/sm play` and with the hand DM's buttons, trading turns with `/sm trade` and with the buttons, event
choices with the buttons — and no goods hand readable by anyone else."""

import simcord
from simcord import MemberActor

from tests.bot.helpers import dms, embed_text, make_server

from .helpers import buttons, click_hand, hand_message, readable, start_game, state, status_message


def pick_label(labels: list[str], phase: str) -> str:
    """The button a simple player clicks: sell as much as possible, else move as far as allowed; for a card or an
    event's choice, the first one."""
    if phase == "trade":
        sells = [b for b in labels if b.startswith("Sell")]
        if sells:
            return max(sells, key=lambda b: sum(int(w) for w in b.split() if w.isdigit()))
        return labels[-1]
    return labels[0]


async def test_a_four_player_game_from_game_new_to_the_standings(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, options="trade_hours=6")
    game = await state(server)
    assert game.options.trade_hours == 6 and game.seats == 4

    # Every hand DM shows its own goods by kind, its black-market cards and luxury.
    for seat, member in enumerate(players):
        text = embed_text(hand_message(member))
        assert "Your goods** (9)" in text and "Your black-market cards" in text and "💰 0" in text
        for kind, n in zip(("potatoes", "flour", "coffee", "butter", "sugar"), game.goods[seat], strict=True):
            if n > 1:
                assert f"{n} {kind}" in text

    status = embed_text(status_message(thread))
    assert "Game round 1 of 2" in status and "`[1] 2 3 4 5 6 8 10 12 15 20 25 35 50🏁`" in status

    # The starter plays their first card with the command.
    starter = players[game.starter]
    card = game.black_market[game.starter][0]
    played = await starter.slash(thread, "sm play", card=card)
    assert not played.response.ephemeral, played.response.content

    commands_used = 0
    for _ in range(600):
        game = await state(server)
        if game.phase == "over":
            break
        member = players[game.turn]
        hand = hand_message(member)
        labels = buttons(hand)
        assert labels, f"{member.name} is awaited but their hand has no buttons: {embed_text(hand)}"
        if game.phase == "trade" and commands_used < 3 and not any(b.startswith("Sell") for b in labels):
            # Now and then a trading turn by command: no trade, the default move of 1 (0 at the last call).
            answer = await member.slash(thread, "sm trade")
            # The answer tells what happened (privately when the thread's newest message is edited with it: the
            # next trader is prompted in their DM, so the thread gets no new message for a turn — issue 26).
            assert "doesn't trade" in answer.response.content, answer.response.content
            commands_used += 1
            continue
        clicked = await click_hand(member, pick_label(labels, game.phase))
        assert "earlier turn" not in (clicked.response.content or "")
    final = await state(server)
    assert final.phase == "over" and final.game_round == 2
    assert commands_used == 3

    record = await server.bot.store.games.get(1)
    assert record.status == "finished"
    said = [m.content for m in thread.history()]
    richest = max(final.luxury)
    winner = players[final.luxury.index(richest)]
    assert any(f"🥇 **{winner.name}** — 💰 {richest}" in t for t in said), said[-5:]
    end = embed_text(status_message(thread))
    finished = [c.label for row in status_message(thread).components for c in row.children]  # type: ignore[attr-defined]
    assert "Game over" in end and finished == ["Rematch"]
    # One DM each, the hand, edited in place; no buttons left once the game is over.
    for member in players:
        assert len(dms(member)) == 1 and not hand_message(member).components


async def test_no_one_can_read_another_players_goods(env: simcord.Env) -> None:
    """Each hand's exact goods line appears only in its owner's DM: never in the thread or in another's DMs."""
    server = make_server(env)
    thread, players = await start_game(server)
    game = await state(server)
    lines = {}
    for member in players:
        text = embed_text(hand_message(member))
        lines[member] = next(line for line in text.splitlines() if line.startswith("**Your goods**"))
    for owner, line in lines.items():
        others: list[MemberActor] = [m for m in players if m is not owner]
        seen = readable(thread) + [t for m in others for t in readable(thread, m)]
        seen += [embed_text(d) for m in others for d in dms(m)]
        assert not [t for t in seen if line in t]
    assert game.phase == "play"
