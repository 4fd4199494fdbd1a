"""Quiet hours per person (`/me quiet`), through SimCord in simulated time: bad input is refused privately and
changes nothing; a turn deadline that would end inside the awaited player's quiet hours moves to their end and the
status says so; no reminder, DM or new ping reaches anyone inside their quiet hours — over a seeded multi-day play
too, whose count of DMs delivered inside quiet hours is printed (it must be 0).

SimCord's clock starts on Thursday 1 January 2026, 00:00 UTC (Berlin is UTC+1 then, New York UTC−5)."""

import json
import random
from datetime import UTC, datetime, time, timedelta

import pytest
import simcord
from simcord import MemberActor

from bot import quiet
from storage import QuietHours
from tests.bot.helpers import Server, dms, embed_text, make_server, move, seat_players, state, thread_of

HOUR = 3600


async def to(env: simcord.Env, when: datetime) -> None:
    await env.advance_time((when - env.now()).total_seconds())


async def set_quiet(member: MemberActor, channel: simcord.ChannelHandle, start: str, end: str, zone: str) -> str:
    done = await member.slash(channel, "me quiet", **{"from": start, "to": end, "timezone": zone})
    assert done.response.ephemeral
    return done.response.content


def status(server: Server) -> str:
    found = next(m for m in thread_of(server).history() if m.embeds and m.embeds[0].title == "Toy #1")
    return embed_text(found)


async def test_bad_input_is_refused_privately_and_changes_nothing(env: simcord.Env) -> None:
    server = make_server(env)
    anna = server.members[0]
    said = await set_quiet(anna, server.channel, "23:00", "08:00", "Europe/Berlin")
    assert "quiet hours 23:00–08:00 (Europe/Berlin), in every server" in said
    # 01:00 in Berlin: quiet now, until 08:00 CET (07:00 UTC), shown as a Discord timestamp.
    until = int(datetime(2026, 1, 1, 7, 0, tzinfo=UTC).timestamp())
    assert f"now, until <t:{until}:f> (<t:{until}:R>)" in said, said
    kept = QuietHours(start=time(23, 0), end=time(8, 0), timezone="Europe/Berlin")
    for start_at, end_at, zone, fix in [
        ("23:00", "08:00", "Europe/Berlim", "is not a time zone I know: give an IANA name such as Europe/Berlin"),
        ("25:00", "08:00", "Europe/Berlin", "`from`: “25:00” is not a time of day: hours go from 00 to 23"),
        ("23:00", "8am", "Europe/Berlin", "`to`: “8am” is not a time of day: give it as HH:MM on a 24-hour clock"),
        ("22:00", "22:00", "Europe/Berlin", "quiet hours need an end different from their start"),
    ]:
        said = await set_quiet(anna, server.channel, start_at, end_at, zone)
        assert fix in said and "Nothing was changed." in said, said
        assert (await server.bot.store.settings.quiet_of([anna.id])).get(anna.id) == kept
    half = await anna.slash(server.channel, "me quiet", **{"from": "22:00"})
    assert half.response.ephemeral and "Give both `from` and `to`" in half.response.content
    # Without a time zone, a newcomer is asked for one; someone who has quiet hours keeps theirs.
    bert = server.members[1]
    asked = await bert.slash(server.channel, "me quiet", **{"from": "22:00", "to": "06:00"})
    assert "Give your `timezone` too" in asked.response.content
    assert (await server.bot.store.settings.quiet_of([bert.id])).get(bert.id) is None
    moved = await anna.slash(server.channel, "me quiet", **{"from": "00:30", "to": "07:00"})
    assert "quiet hours 00:30–07:00 (Europe/Berlin)" in moved.response.content
    # Shown without options; off turns them off. Stored per person: the same in a DM.
    shown = await anna.user.slash("me quiet")
    assert shown.response.ephemeral and "quiet hours 00:30–07:00 (Europe/Berlin)" in shown.response.content
    off = await anna.slash(server.channel, "me quiet", off=True)
    assert off.response.ephemeral and "No quiet hours" in off.response.content
    assert (await server.bot.store.settings.quiet_of([anna.id])).get(anna.id) is None


async def start_toy(server: Server, players: int = 3, **options: object) -> list[MemberActor]:
    opener = server.members[0]
    opened = await opener.slash(server.channel, "game new", game="toy", random_order=False, **options)
    assert not opened.response.ephemeral, opened.response.content
    for m in server.members[1:players]:
        await m.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    return await seat_players(server, 1)


def in_quiet(hours: QuietHours, when: datetime) -> bool:
    return quiet.inside(hours, when)


async def test_a_deadline_inside_quiet_hours_moves_to_their_end_and_reminders_wait(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[0], server.members[1]
    berlin = QuietHours(start=time(23, 0), end=time(8, 0), timezone="Europe/Berlin")  # 22:00–07:00 UTC
    await set_quiet(bert, server.channel, "23:00", "08:00", "Europe/Berlin")
    # Anna opens at 12:00 UTC and plays at 23:30 UTC (00:30 in Berlin): Bert's turn begins in his quiet hours.
    await to(env, datetime(2026, 1, 1, 12, 0, tzinfo=UTC))
    players = await start_toy(server, 2)
    assert players == [anna, bert]
    await to(env, datetime(2026, 1, 1, 23, 30, tzinfo=UTC))
    thread = thread_of(server)
    done = await anna.slash(thread, "game move", action=move({"type": "draw"}))
    assert not done.response.ephemeral, done.response.content
    await env.settle()
    # Named, not pinged: the ping comes when his quiet hours end.
    last = [m for m in thread.history() if m.content][-1]
    assert "play a card or draw" in last.content and bert.name in last.content
    assert f"<@{bert.id}>" not in last.content
    # 24 hours would end at 23:30 UTC on 2 January, 00:30 in Berlin: moved to 08:00 Berlin, 07:00 UTC on the 3rd.
    due = datetime(2026, 1, 3, 7, 0, tzinfo=UTC)
    stamp = int(due.timestamp())
    assert f"<t:{stamp}:f> (<t:{stamp}:R>)" in status(server), status(server)
    assert f"moved to the end of {bert.name}'s quiet hours" in status(server)
    # 07:00 UTC on the 2nd: the wake-up reminder, with its ping, once: in the thread, where he chose (the default).
    await to(env, datetime(2026, 1, 2, 6, 59, tzinfo=UTC))
    assert not any("⏰" in m.content for m in dms(bert))
    await to(env, datetime(2026, 1, 2, 7, 1, tzinfo=UTC))
    woke = [m for m in thread.history() if "⏰ Reminder" in m.content]
    assert len(woke) == 1 and f"<@{bert.id}>" in woke[0].content
    assert sum("⏰" in m.content for m in dms(bert)) == 0
    # Not at 23:30 UTC, the 24 hours: at 07:00 UTC on the 3rd.
    await to(env, datetime(2026, 1, 3, 6, 59, tzinfo=UTC))
    assert (await state(server, 1)).turn == 1
    await to(env, datetime(2026, 1, 3, 7, 1, tzinfo=UTC))
    assert (await state(server, 1)).turn == 0, "his turn passed at the moved deadline"
    for m in dms(bert):
        assert not in_quiet(berlin, m.created_at), (m.created_at, m.content)
    for m in thread.history():
        if f"<@{bert.id}>" in m.content:
            assert not in_quiet(berlin, m.created_at), (m.created_at, m.content)


async def test_the_lobby_shows_the_tables_clock(env: simcord.Env) -> None:
    server = make_server(env)
    opened = await server.members[0].slash(
        server.channel, "game new", game="toy", options="deadline=daily 19:00 timezone=Europe/Amsterdam weekdays_only"
    )
    assert "turn deadline daily 19:00 (Europe/Amsterdam), weekends off" in embed_text(opened.response.message)
    bad = await server.members[0].slash(server.channel, "game new", game="toy", options="timezone=Mars/Olympus")
    assert bad.response.ephemeral
    assert "“Mars/Olympus” is not a time zone: give an IANA name such as Europe/Amsterdam" in bad.response.content
    assert len(await server.bot.store.games.find()) == 1


PEOPLE = {
    "anna": ("23:00", "08:00", "Europe/Berlin"),
    "bert": ("22:00", "07:00", "America/New_York"),
    "cleo": ("00:00", "09:00", "Asia/Tokyo"),
}


@pytest.mark.parametrize("told", [True, False], ids=["quiet hours set", "never told"])
async def test_a_seeded_multi_day_play_delivers_no_dm_inside_quiet_hours(env: simcord.Env, told: bool) -> None:
    """Three players in three time zones look in at random every 1–8 hours over five days (seeded) and move when it
    is their turn (or let it pass), each having chosen to be told by DM; the counts are printed for the record.
    "never told": the same people who never set their quiet hours, for comparison (what the bot did before it knew
    of them)."""
    server = make_server(env)
    hours: dict[int, QuietHours] = {}
    for m in server.members[:3]:
        start, end, zone = PEOPLE[m.name]
        # By DM (`/me notify`): prompts and reminders alike, so every one of them is a DM this play can time.
        chosen = await m.slash(server.channel, "me notify", mode="dm")
        assert chosen.response.ephemeral, chosen.response.content
        if told:
            await set_quiet(m, server.channel, start, end, zone)
        hours[m.id] = quiet.parse(start, end, zone)
    # Everyone is awake at 13:00 UTC (their quiet hours: 22–07 UTC, 03–12 UTC, 15–24 UTC).
    await to(env, datetime(2026, 1, 1, 13, 0, tzinfo=UTC))
    players = await start_toy(server, 3, turn_hours=12, options="target=80")
    thread = thread_of(server)
    rng = random.Random(2701)
    looks = {m.id: env.now() + timedelta(hours=rng.uniform(1, 8)) for m in players}
    end = env.now() + timedelta(days=5)
    moves = 0
    while env.now() < end:
        who = min(looks, key=looks.__getitem__)
        if looks[who] >= end:
            break
        await to(env, looks[who])
        looks[who] = env.now() + timedelta(hours=rng.uniform(1, 8))
        game = await state(server, 1)
        if game.over:
            break
        seat = next(i for i, m in enumerate(players) if m.id == who)
        if game.window is not None and seat in game.window.waiting:
            action = {"type": "pass"}
        elif game.window is None and game.turn == seat and rng.random() < 0.8:
            hand = game.hands[seat]
            action = {"type": "play", "card": hand[0]} if len(hand) > 2 or not game.deck else {"type": "draw"}
        else:
            continue
        done = await players[seat].slash(thread, "game move", action=json.dumps(action))
        # Accepted, the move is told in the thread: merged into its last message when it pings nobody, with a
        # private copy for the mover (`bot.notifier.posts`); refused, only privately.
        moves += "can't" not in done.response.content and "not your" not in done.response.content.lower()
    await env.settle()
    sent = {m.id: [d for d in dms(m) if d.author.bot] for m in players}
    inside = sum(in_quiet(hours[pid], d.created_at) for pid, ds in sent.items() for d in ds)
    reminders = sum("⏰" in d.content for ds in sent.values() for d in ds)
    pings = [(m.id, msg.created_at) for msg in thread.history() for m in players if f"<@{m.id}>" in msg.content]
    pings_inside = sum(in_quiet(hours[pid], at) for pid, at in pings)
    print(
        f"\nquiet hours play ({'quiet hours set' if told else 'never told'}): {moves} moves over "
        f"{env.now() - datetime(2026, 1, 1, 13, 0, tzinfo=UTC)}, "
        f"{sum(len(ds) for ds in sent.values())} DMs ({reminders} reminders), DMs delivered inside quiet hours: "
        f"{inside}; thread pings {len(pings)}, inside quiet hours: {pings_inside}"
    )
    assert moves > 5 and reminders > 0
    if told:
        assert inside == 0
        assert pings_inside == 0


def test_quiet_hours_across_midnight_and_daylight_saving() -> None:
    berlin = QuietHours(start=time(23, 0), end=time(8, 0), timezone="Europe/Berlin")
    # Winter: 23:00–08:00 CET is 22:00–07:00 UTC; summer: 21:00–06:00 UTC.
    assert quiet.period_end(berlin, datetime(2026, 1, 1, 21, 59, tzinfo=UTC)) is None
    assert quiet.period_end(berlin, datetime(2026, 1, 1, 22, 0, tzinfo=UTC)) == datetime(2026, 1, 2, 7, 0, tzinfo=UTC)
    assert quiet.period_end(berlin, datetime(2026, 1, 2, 6, 59, tzinfo=UTC)) == datetime(2026, 1, 2, 7, 0, tzinfo=UTC)
    assert quiet.period_end(berlin, datetime(2026, 1, 2, 7, 0, tzinfo=UTC)) is None
    # The spring-forward night (29 March 2026): 23:00 CET to 08:00 CEST, 8 hours on the clock of 9.
    night = quiet.period_end(berlin, datetime(2026, 3, 28, 23, 0, tzinfo=UTC))
    assert night == datetime(2026, 3, 29, 6, 0, tzinfo=UTC)
    # New York's quiet hours inside one day, on the fall-back day (1 November 2026): 01:00 EDT to 03:00 EST, 3 hours.
    ny = QuietHours(start=time(1, 0), end=time(3, 0), timezone="America/New_York")
    end = quiet.period_end(ny, datetime(2026, 11, 1, 5, 30, tzinfo=UTC))
    assert end == datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
    # Two people's quiet hours in a row: a deadline moves past both.
    tokyo = QuietHours(start=time(15, 0), end=time(17, 0), timezone="Asia/Tokyo")  # 06:00–08:00 UTC
    when, by = quiet.after({0: berlin, 1: tokyo}, [0, 1], datetime(2026, 1, 2, 3, 0, tzinfo=UTC))
    assert (when, by) == (datetime(2026, 1, 2, 8, 0, tzinfo=UTC), [0, 1])
