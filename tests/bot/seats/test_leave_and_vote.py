"""Leaving a running game and the replacement vote, through Discord (SimCord) in simulated time.

- `/game leave to:@…`: the named person takes the seat with the status message's button (the leaver plays on until
  then; the newcomer gets the seat's hand DM, the leaver's hand DM is retired); the offer lapses at the next
  deadline; `/game leave autopilot:true` hands the seat to the autopilot at once;
- `/game vote replace`: open only against a player who let two turn deadlines in a row pass; it passes with a
  majority of the others (to the autopilot, or to a substitute who takes the seat), fails once a majority can no
  longer be reached, and expires with the next deadline;
- bad input is answered privately and changes nothing.
"""

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from bot.settings import Settings
from tests.bot.helpers import dms, make_server, start_toy, texts, thread_of
from tests.bot.seated import kkk_bot, open_kkk, play_on

HOUR = 3600


@pytest.fixture
def settings(db_path: Path) -> Settings:
    return Settings(_env_file=None, discord_token="test-token", database_path=db_path, reminders=False)  # type: ignore[call-arg]


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot], request: pytest.FixtureRequest) -> BoardroomBot:
    return kkk_bot(make_bot) if "kkk" in request.node.name else make_bot()


def with_button(server, label: str) -> discord.Message:  # type: ignore[no-untyped-def]
    """The thread's newest message that carries a button with this label (the status message)."""
    found = [
        m
        for m in thread_of(server).history()
        if any(getattr(c, "label", None) == label for row in m.components for c in getattr(row, "children", []))
    ]
    assert found, f"no message has a {label!r} button"
    return max(found, key=lambda m: m.id)


def labels(server) -> set[str]:  # type: ignore[no-untyped-def]
    return {
        getattr(c, "label", "")
        for m in thread_of(server).history()
        for row in m.components
        for c in getattr(row, "children", [])
    }


def private(result: simcord.InteractionResult) -> str:
    """What the command or click told its user alone (the public narration may be the command's reply)."""
    parts = [result.response, *result.followups]
    return "\n".join(m.content for m in parts if m is not None and m.ephemeral)


async def test_leave_to_a_person_who_takes_the_seat(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo", "erik"))
    players = await start_toy(server)
    leaver, erik = players[1], server.members[3]
    number = 2
    thread = thread_of(server)
    offered = await leaver.slash(thread, "game leave", to=erik)
    assert "Offered your seat to erik" in private(offered)
    assert any(f"offers their seat (seat {number}) to <@{erik.id}>" in t for t in texts(thread))
    assert (await server.bot.store.seats.of_game(1))[1].player_id == leaver.id  # they hold it until erik takes it

    status = with_button(server, f"Take seat {number}")
    wrong = await players[2].click(status, label=f"Take seat {number}")
    assert "is offered to erik, not to you" in private(wrong)
    taken = await erik.click(status, label=f"Take seat {number}")
    assert "You play seat 2" in private(taken)
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.player_id == erik.id and seat.display_name == "erik" and seat.handover is None
    assert any(f"<@{erik.id}> takes over seat {number} from {leaver.name}" in t for t in texts(thread))
    assert any(m.embeds and "Hand" in str([f.name for f in m.embeds[0].fields]) for m in dms(erik))
    assert "You no longer play in **Toy #1**: you offered it to erik" in dms(leaver)[-1].content
    assert not dms(leaver)[-1].embeds  # the old hand is gone from the leaver's DM
    assert f"Take seat {number}" not in labels(server)


async def test_an_offer_lapses_at_the_next_deadline_and_can_be_withdrawn(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo", "erik"))
    players = await start_toy(server)
    leaver, erik = players[1], server.members[3]
    thread = thread_of(server)
    await leaver.slash(thread, "game leave", to=erik)
    await env.advance_time(24 * HOUR + 1)  # the turn's deadline
    assert any("The offer of seat 2 to erik lapsed" in t for t in texts(thread))
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.player_id == leaver.id and seat.handover is None
    assert "Take seat 2" not in labels(server)

    await leaver.slash(thread, "game leave", to=erik)
    withdrawn = await leaver.click(with_button(server, "Decline"), label="Decline")
    assert private(withdrawn) == "You withdrew the offer of seat 2."
    assert (await server.bot.store.seats.of_game(1))[1].handover is None


async def test_leave_refusals_change_nothing(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo", "erik"))
    players = await start_toy(server)
    thread = thread_of(server)
    before = texts(thread)
    nowhere = await players[0].slash(thread, "game leave")
    assert "Say who takes your seat: `to:@someone`" in private(nowhere)
    myself = await players[0].slash(thread, "game leave", to=players[0])
    assert "Name someone else" in private(myself)
    seated = await players[0].slash(thread, "game leave", to=players[1])
    assert "already plays in Toy #1" in private(seated)
    no_autopilot = await players[0].slash(thread, "game leave", autopilot=True)
    assert "has no autopilot yet" in private(no_autopilot)
    vote = await players[0].slash(thread, "game vote replace", player=players[1], autopilot=True)
    assert "hasn't let 2 turn deadlines in a row pass (so far: 0)" in private(vote)
    assert texts(thread) == before
    assert all(s.handover is None for s in await server.bot.store.seats.of_game(1))


async def test_kkk_leave_to_the_autopilot(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    opened = await open_kkk(server, server.members, bots=0)
    await server.members[0].click(opened.response, label="Start")
    cleo = server.members[2]
    left = await cleo.slash(thread_of(server), "game leave", autopilot=True)
    assert "the autopilot plays seat 3" in private(left)
    seat = (await server.bot.store.seats.of_game(1))[2]
    assert seat.player_id is None and seat.autopilot
    assert any("**cleo** left the game: the autopilot plays their seat" in t for t in texts(thread_of(server)))
    assert "You left **Kohle, Kies & Knete #1**" in dms(cleo)[-1].content and not dms(cleo)[-1].embeds
    await play_on(server, until=lambda t: False, steps=30)  # type: ignore[arg-type]
    assert any(e.actor_seat == 2 and e.user_id is None for e in await server.bot.store.log.entries(1))


async def kkk_with_bert_gone(server) -> None:  # type: ignore[no-untyped-def]
    """A 3-player KKK table where bert (seat 2) has let two turn deadlines in a row pass."""
    opened = await open_kkk(server, server.members[:3], bots=0)
    await server.members[0].click(opened.response, label="Start")
    await play_on(server, until=lambda t: t.seats[1].missed >= 2, idle=frozenset({1}), steps=400)


async def test_kkk_vote_passes_to_the_autopilot(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    anna, bert, cleo = server.members
    await kkk_with_bert_gone(server)
    thread = thread_of(server)
    opened = await anna.slash(thread, "game vote replace", player=bert, autopilot=True)
    assert private(opened) == "Vote opened: you voted yes."
    assert any("**anna** asks to hand **bert**'s seat to the autopilot" in t for t in texts(thread))
    not_yours = await bert.click(with_button(server, "Yes: replace bert"), label="Yes: replace bert")
    assert "Only the other players" in private(not_yours)
    passed = await cleo.click(with_button(server, "Yes: replace bert"), label="Yes: replace bert")
    assert "passed the vote" in private(passed)
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.autopilot and seat.player_id == bert.id and seat.handover is None
    assert any("The table voted (2 yes, 0 no): the autopilot plays **bert**'s seat" in t for t in texts(thread))


async def test_kkk_vote_to_a_substitute_who_takes_the_seat(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo", "erik"))
    anna, bert, cleo, erik = server.members
    await kkk_with_bert_gone(server)
    thread = thread_of(server)
    await anna.slash(thread, "game vote replace", player=bert, **{"with": erik})
    await cleo.click(with_button(server, "Yes: replace bert"), label="Yes: replace bert")
    assert any(f"to hand **bert**'s seat to <@{erik.id}>: take it with **Take seat 2**" in t for t in texts(thread))
    await erik.click(with_button(server, "Take seat 2"), label="Take seat 2")
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.player_id == erik.id and not seat.autopilot and seat.missed == 0
    assert any("the table voted to hand it to erik" in m.content and not m.embeds for m in dms(bert))
    assert any(m.embeds for m in dms(erik))  # the seat's hand


async def test_kkk_vote_fails(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    anna, bert, cleo = server.members
    await kkk_with_bert_gone(server)
    thread = thread_of(server)
    await anna.slash(thread, "game vote replace", player=bert, autopilot=True)
    failed = await cleo.click(with_button(server, "No: keep bert"), label="No: keep bert")
    assert "the vote failed" in private(failed)
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert not seat.autopilot and seat.handover is None
    assert any("failed (1 yes, 1 no): they keep it." in t for t in texts(thread))
    assert "Yes: replace bert" not in labels(server)


async def test_kkk_vote_expires_with_the_next_deadline(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    anna, bert, _ = server.members
    await kkk_with_bert_gone(server)
    thread = thread_of(server)
    await anna.slash(thread, "game vote replace", player=bert, autopilot=True)
    expires = (await server.bot.store.seats.of_game(1))[1].handover["expires"]  # type: ignore[index]
    again = await anna.slash(thread, "game vote replace", player=bert, autopilot=True)
    assert "is open already" in private(again)
    await env.advance_time((datetime.fromisoformat(expires) - server.bot.clock()).total_seconds() + 1)
    assert any("The vote to hand **bert**'s seat to the autopilot expired" in t for t in texts(thread))
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.handover is None and seat.player_id == bert.id


async def test_kkk_vote_names_a_player_in_quiet_hours_without_a_ping(env: simcord.Env) -> None:
    """Cleo is inside her quiet hours when the vote opens: the thread names her without a ping (the vote waits on
    the status's buttons until she looks); anna, awake, is not pinged either — she opened it."""
    server = make_server(env, ("anna", "bert", "cleo"))
    anna, bert, cleo = server.members
    await kkk_with_bert_gone(server)
    thread = thread_of(server)
    now = env.now()
    start, end = ((now + timedelta(hours=h)).strftime("%H:%M") for h in (-1, 2))
    await cleo.slash(server.channel, "me quiet", **{"from": start, "to": end, "timezone": "UTC"})
    assert (await server.bot.store.settings.quiet_of([cleo.id])).get(cleo.id) is not None
    await anna.slash(thread, "game vote replace", player=bert, autopilot=True)
    # (The line may be merged into the thread's last message, which pinged her for her turn before her quiet hours.)
    (line,) = [x for t in texts(thread) for x in t.splitlines() if "asks to hand **bert**'s seat to the autopilot" in x]
    assert "cleo" in line and f"<@{cleo.id}>" not in line, line
