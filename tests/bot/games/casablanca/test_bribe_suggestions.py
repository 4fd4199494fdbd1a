"""Bribes suggested to a player on a phone: `/game move` and `/cb bribe` offer a few unequal, useful bribes (most on
the agents nearest to winning or to the suitcase, within the capital left, said in words), not the legal list's
equal samples; picking one makes it. They are worked out from the player's own sheet and the map alone: another
player's hidden bribe changes nothing in them."""

import re

import simcord
from simcord import MemberActor

from engine.casablanca.state import START_CAPITAL
from tests.bot.helpers import make_server

from .helpers import hand_message, start_game, state, thread_of_game

BRIBE = re.compile(r"Bribe (.+?) — (.+)")


def amounts(name: str) -> dict[str, int]:
    """The agents and dollars a suggestion's words name: "Bribe red $1,500, blue $500 — …" → {"red": 1500, …}."""
    m = BRIBE.fullmatch(name)
    assert m is not None, name
    out = {}
    for part in m.group(1).split(", "):
        colour, dollars = part.split(" $")
        out[colour] = int(dollars.replace(",", ""))
    return out


async def suggested(member: MemberActor, thread: simcord.ChannelHandle, current: str = "") -> list[dict]:
    return await member.autocomplete(thread, "game move", "action", current)


async def test_a_first_turn_is_offered_unequal_bribes_in_words_and_picking_one_makes_it(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, players=4)
    game = await state(server)
    first = players[game.turn]
    choices = await suggested(first, thread)
    names = [c["name"] for c in choices]
    bribes = [amounts(n) for n in names if n.startswith("Bribe ")]
    assert 3 <= len(bribes) <= 6, names
    for b in bribes:
        assert len(b) >= 3  # a first turn bribes three agents or more
        assert sum(b.values()) <= START_CAPITAL and all(v % 100 == 0 and v > 0 for v in b.values())
    assert all(len(set(b.values())) > 1 for b in bribes), names  # no equal split among them
    assert all(" — " in n and len(n) <= 100 for n in names), names  # each says why, in a suggestion's length
    # Only bribes can be made in a first turn: nothing else is offered.
    assert len(bribes) == len(names)

    picked = choices[0]
    done = await first.slash(thread, "game move", action=picked["value"])
    assert done.response.ephemeral or done.response.content is not None
    after = await state(server)
    wanted = amounts(picked["name"])
    by_colour = {a.colour: i for i, a in enumerate(after.agents)}
    assert {c: after.bribes[game.turn][by_colour[c]] for c in wanted} == wanted
    assert after.started[game.turn]


async def test_cb_bribe_suggests_whole_bribes_that_the_command_reads(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, players=4)
    game = await state(server)
    first = players[game.turn]
    choices = await first.autocomplete(thread, "cb bribe", "amounts", "")
    whole = [c for c in choices if " — " in c["name"]]
    assert len(whole) >= 3, choices
    value = whole[1]["value"]
    assert re.fullmatch(r"[a-z]+ \d+(, [a-z]+ \d+){2,}", value), value
    # Typing the start of one keeps it; typing something else leaves the colours to complete.
    typed = value.split(",")[0]
    assert value in [c["value"] for c in await first.autocomplete(thread, "cb bribe", "amounts", typed)]
    await first.slash(thread, "cb bribe", amounts=value)
    after = await state(server)
    by_colour = {a.colour: i for i, a in enumerate(after.agents)}
    for part in value.split(", "):
        colour, dollars = part.split(" ")
        assert after.bribes[game.turn][by_colour[colour]] == int(dollars)


async def test_a_later_turn_offers_bribes_within_the_capital_and_the_moves(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, players=3, options="first_seat=1")
    anna, bert, cleo = players
    await anna.slash(thread, "cb bribe", amounts="red 6000, green 2000, blue 1500")
    await bert.slash(thread, "cb bribe", amounts="red 300, green 100, blue 100")
    await cleo.slash(thread, "cb bribe", amounts="purple 100, green 100, blue 100")
    names = [c["name"] for c in await suggested(anna, thread)]
    bribes = [amounts(n) for n in names if n.startswith("Bribe ")]
    assert bribes and all(sum(b.values()) <= 500 for b in bribes), names  # $500 left
    assert any("more on your agent (you have $6,000)" in n for n in names), names
    assert any(n.startswith("Move ") for n in names), names  # the moves are there too
    # Typing narrows the list, to the moves of one agent say.
    assert all("red" in c["name"].lower() for c in await suggested(anna, thread, "red"))


async def twin(server: simcord.Env, red: int) -> list[str]:
    """A game where anna puts `red` on Rudy Red in her first turn; what `/game move` then suggests to bert."""
    thread, players = await start_game(server, players=3, options="first_seat=1")
    anna, bert, _ = players
    await anna.slash(thread, "cb bribe", amounts=f"red {red}, green 100, blue 100")
    game_id = max(g.id for g in await server.bot.store.games.find())
    return [c["name"] for c in await suggested(bert, thread_of_game(server, game_id))]


async def test_the_suggestions_do_not_depend_on_anyone_elses_hidden_bribe(env: simcord.Env) -> None:
    server = make_server(env)
    small = await twin(server, 100)
    large = await twin(server, 5_000)
    assert small == large
    assert any(n.startswith("Bribe ") for n in small)


async def test_the_bribe_form_hints_an_amount_for_each_agent_picked_most_on_the_one_that_matters(
    env: simcord.Env,
) -> None:
    server = make_server(env)
    _, players = await start_game(server, players=4)
    game = await state(server)
    first = players[game.turn]
    picked = await first.user.click(hand_message(first), label="Bribe…")
    for agent in game.agents[:3]:
        picked = await first.user.click(picked.response.message, label=agent.name)
    shown = await first.user.click(picked.response.message, label="Amounts…")
    assert shown.modal is not None
    hints = [c["components"][0]["placeholder"] for c in shown.modal["components"]]
    sums = [int(h.rsplit("e.g. ", 1)[1]) for h in hints]
    assert all(h.startswith("in $100 steps, e.g. ") for h in hints), hints
    assert len(set(sums)) > 1 and sum(sums) <= START_CAPITAL and all(s % 100 == 0 for s in sums), hints
