"""Naming another player in a command, computer players included (`bot.seat_choice`), through SimCord.

For each command that names a player — `/kkk offer to:`, `/kkk travel target:`, `/kr duel opponent:` — at a table
of people and computer players: the suggestions list the other seats by name (🤖 marked); naming a computer player
works (a picked suggestion, or its name typed); naming a person still works (by name or @mention); a name that
matches nobody is refused privately, lists the players, and changes nothing.

KKK is prepared as in `tests/bot/games/kkk/test_table.py` (`tables.round_a`: seat 0 has opened a deal and is the Boss,
holding the Knetowitz travel card and the joker; Knetowitz is seat 1's investor, Piepenbrok seat 3's), with the
seats anna, Robo Anna 🤖, Robo Bruno 🤖, bert. No time passes in the KKK tests, so the computer players never move.
"""

from collections.abc import Callable

import pytest
import simcord
from simcord import MemberActor

from bot.client import BoardroomBot
from bot.presentation import Table
from engine import registry
from engine.kesse_ruegen.actions import Challenge
from engine.kkk.state import KkkState
from tests.bot.games.kkk.helpers import KkkTable, prepare
from tests.bot.helpers import Server, make_server, thread_of
from tests.bot.seated import open_kkk, play_on
from tests.engine.kkk import tables

KKK = registry.get("kkk")
KR = registry.get("kesse_ruegen")


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={"kkk": KKK, "kesse_ruegen": KR}, presentations={})


async def kkk_round(env: simcord.Env) -> tuple[Server, MemberActor, MemberActor]:
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    opened = await open_kkk(server, [anna, bert], bots=2)
    await anna.click(opened.response, label="Start")
    await prepare_round(server)
    return server, anna, bert


async def prepare_round(server: Server) -> None:
    await prepare(KkkTable(server, []), tables.round_a().state, "Prepared table.")


async def kkk_state(server: Server) -> KkkState:
    state = KKK.load_state((await server.bot.store.games.snapshot(1)).state)
    assert isinstance(state, KkkState)
    return state


async def version(server: Server, game_id: int = 1) -> int:
    return (await server.bot.store.games.get(game_id)).version


async def accepted(server: Server, member: MemberActor, command: str, **options: object) -> None:
    before = await version(server)
    done = await member.slash(thread_of(server), command, **options)
    assert await version(server) > before, done.response.content


async def refused(server: Server, member: MemberActor, command: str, **options: object) -> str:
    before = await version(server)
    done = await member.slash(thread_of(server), command, **options)
    assert done.response.ephemeral and await version(server) == before
    return done.response.content


async def test_kkk_offer_to_a_computer_player_or_a_person(env: simcord.Env) -> None:
    server, anna, bert = await kkk_round(env)
    offered = await anna.autocomplete(thread_of(server), "kkk offer", "to", "", price=1)
    assert [(c["name"], c["value"]) for c in offered] == [
        ("Robo Anna 🤖", "seat:2"),
        ("Robo Bruno 🤖", "seat:3"),
        ("bert", "seat:4"),
    ]
    assert [c["name"] for c in await anna.autocomplete(thread_of(server), "kkk offer", "to", "bru", price=1)] == [
        "Robo Bruno 🤖"
    ]

    await accepted(server, anna, "kkk offer", price=1, to=offered[0]["value"])  # the picked suggestion
    await accepted(server, anna, "kkk offer", price=2, to="robo bruno")  # typed, any case, without the 🤖
    await accepted(server, anna, "kkk offer", price=3, to="bert")  # a person by name
    await accepted(server, anna, "kkk offer", price=4, to=bert.mention)  # …and by @mention, as before
    state = await kkk_state(server)
    assert [(o.price, o.seller) for o in state.offers] == [(1, 1), (2, 2), (3, 3), (4, 3)]

    text = await refused(server, anna, "kkk offer", price=5, to="Robo Zed")
    assert text == (
        "“Robo Zed” isn't playing at Kohle, Kies & Knete #1. "
        "The players you can name: Robo Anna 🤖, Robo Bruno 🤖, bert."
    )
    text = await refused(server, anna, "kkk offer", price=5, to="robo")  # fits two: not guessed
    assert text.startswith("“robo” isn't playing at Kohle, Kies & Knete #1.")
    assert len((await kkk_state(server)).offers) == 4


async def test_kkk_travel_on_a_computer_players_card_or_a_persons(env: simcord.Env) -> None:
    server, anna, _bert = await kkk_round(env)
    targets = await anna.autocomplete(thread_of(server), "kkk travel", "target", "", family="K")
    assert [c["name"] for c in targets] == ["Robo Anna 🤖", "Robo Bruno 🤖", "bert"]
    # The family's suggestions follow the target named so far (a computer player's cards, too).
    families = await anna.autocomplete(thread_of(server), "kkk travel", "family", "", target="Robo Anna")
    assert families and all("Knetowitz" in c["name"] for c in families)

    text = await refused(server, anna, "kkk travel", family="K", target="nobody")
    assert "“nobody” isn't playing at Kohle, Kies & Knete #1." in text
    assert not (await kkk_state(server)).pending

    await accepted(server, anna, "kkk travel", family="K", target="Robo Anna 🤖")
    (travel,) = (await kkk_state(server)).pending
    assert (travel.kind, travel.family, travel.target) == ("travel", "K", 1)

    await prepare_round(server)  # again from the round's start: the joker on bert's Piepenbrok, bert named by seat
    await accepted(server, anna, "kkk travel", family="P", target="4", joker=True)
    (travel,) = (await kkk_state(server)).pending
    assert (travel.family, travel.target, travel.cards) == ("P", 3, ["travel:*"])


def challenger(table: Table) -> int | None:
    """The person (seat 0 or 2) who may challenge now, if any."""
    for seat in (0, 2):
        if any(isinstance(a, Challenge) for a in KR.legal_actions(table.state, seat)):
            return seat
    return None


async def kr_table(env: simcord.Env) -> tuple[Server, int, MemberActor, MemberActor]:
    """anna, Robo Anna 🤖, bert at Kesse Rügen, played on until a person may challenge: the server, that person's
    seat, that person and the other one."""
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    opened = await anna.slash(server.channel, "game new", game="kesse_ruegen", bots=1, random_order=False)
    await bert.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    seats = await server.bot.store.seats.of_game(1)
    assert [(s.display_name, s.bot) for s in seats] == [("anna", False), ("Robo Anna 🤖", True), ("bert", False)]
    await play_on(server, until=lambda table: challenger(table) is not None, chunk=60, steps=200)
    seat = challenger(await server.bot.service.read.table(1))
    assert seat is not None
    return server, seat, *((anna, bert) if seat == 0 else (bert, anna))


async def test_kr_duel_a_computer_player_or_a_person(env: simcord.Env) -> None:
    """Three seats (anna, Robo Anna 🤖, bert), so challenges are named; played on (the computer player by itself)
    until it is a person's turn to challenge."""
    server, seat, me, _ = await kr_table(env)
    thread = thread_of(server)
    names = await me.autocomplete(thread, "kr duel", "opponent", "")
    others = [name for n, name in enumerate(["anna", "Robo Anna 🤖", "bert"]) if n != seat]  # in seat order
    assert [c["name"] for c in names] == others

    text = await refused(server, me, "kr duel", opponent="Robo Zed")
    assert text == f"“Robo Zed” isn't playing at Kesse Rügen #1. The players you can name: {', '.join(others)}."
    await accepted(server, me, "kr duel", opponent="Robo Anna")
    state = KR.load_state((await server.bot.store.games.snapshot(1)).state)
    assert state.duel is not None and (state.duel.challenger, state.duel.challenged) == (seat, 1)


async def test_kr_duel_a_person_by_name(env: simcord.Env) -> None:
    server, seat, me, other = await kr_table(env)
    await accepted(server, me, "kr duel", opponent=other.name.upper())
    state = KR.load_state((await server.bot.store.games.snapshot(1)).state)
    assert state.duel is not None and (state.duel.challenger, state.duel.challenged) == (seat, 2 - seat)
