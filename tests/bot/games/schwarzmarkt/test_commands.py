"""The `/sm` commands at the table: refusals are private and name the fix; the dealer option picks who starts."""

import simcord

from tests.bot.helpers import make_server, rest_calls_since

from .helpers import buttons, click_hand, hand_message, start_game, state


async def test_refusals_are_private_and_say_what_to_do(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server)
    game = await state(server)
    starter, other = players[game.starter], players[(game.starter + 1) % 4]
    early = await other.slash(thread, "sm trade")
    assert early.response.ephemeral and "There's no trading round under way" in early.response.content
    assert starter.name in early.response.content, "the refusal names who the game waits for"
    wrong = await other.slash(thread, "sm play", card=game.black_market[game.starter][0])
    assert wrong.response.ephemeral and "You can't play a black-market card now" in wrong.response.content
    stolen = await starter.slash(thread, "sm play", card=game.black_market[(game.starter + 1) % 4][0])
    assert stolen.response.ephemeral and "isn't in your hand" in stolen.response.content
    tea = await starter.slash(thread, "sm trade", cards="2 tea")
    assert tea.response.ephemeral and "isn't a kind of goods" in tea.response.content


async def test_the_dealer_option_chooses_who_starts(env: simcord.Env) -> None:
    server = make_server(env)
    _, players = await start_game(server, players=3, options="dealer=me")
    game = await state(server)
    assert players[(game.starter - 1) % 3] == server.members[0], "the one who opened the game deals"


async def test_a_trading_turn_by_button_costs_at_most_four_rest_calls(env: simcord.Env) -> None:
    """The narration, the status edit, the clicked hand DM (the click's own response) and the next trader's DM — which
    comes down to them as a new DM, their prompt (issue 26): posted, and the old one deleted; one more when the
    status has sunk too deep and moves down (it then takes the old status message's place: one edit to show it on
    the newest message, one to strip or delete the old)."""
    server = make_server(env)
    _, players = await start_game(server)
    for _ in range(12):
        game = await state(server)
        member = players[game.turn]
        labels = buttons(hand_message(member))
        before = len(env.http_requests)
        status = await server.bot.store.refs.find(1, "status")
        await click_hand(member, labels[-1] if game.phase == "trade" else labels[0])
        calls = rest_calls_since(env, before)
        moved = status != await server.bot.store.refs.find(1, "status")
        assert len(calls) <= (6 if moved else 5), calls
        if game.phase == "trade":
            assert sum(c.startswith("PATCH") for c in calls) <= (3 if moved else 2), "the status, the next trader's DM"
