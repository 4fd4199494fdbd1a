"""The daily digest (`/me digest`): a DM at the player's own hour, only when something waits on them, never twice,
kept across a restart; bad input is refused privately, naming the fix, and changes nothing; `/me settings` shows it.

SimCord's clock starts at 2026-01-01 00:00 UTC, 01:00 in Berlin: a digest at 08:00 Berlin time is due at 07:00 UTC.
"""

from datetime import UTC, datetime

import simcord

from tests.bot.helpers import Server, dms, make_server

HOUR = 3600


async def anna_to_move(server: Server, hours: int = 24) -> None:
    """A toy game in seat order anna, bert, cleo: it waits on anna (her turn), not on bert."""
    anna, bert, cleo = server.members[:3]
    opened = await anna.slash(server.channel, "game new", game="toy", random_order=False, turn_hours=hours)
    await bert.click(opened.response, label="Join")
    await cleo.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")


def digests(member) -> list[str]:  # type: ignore[no-untyped-def]
    return [m.content for m in dms(member) if "Your Boardroom digest" in m.content]


async def test_the_digest_comes_at_the_hour_only_when_something_waits(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    set_up = await anna.user.slash("me digest", at="08:00", timezone="Europe/Berlin")  # in a DM with the bot
    assert set_up.response.ephemeral
    due = int(datetime(2026, 1, 1, 7, tzinfo=UTC).timestamp())
    assert "every day at 08:00 (Europe/Berlin)" in set_up.response.content and f"<t:{due}:f>" in set_up.response.content
    await bert.slash(server.channel, "me digest", at="8:00", timezone="europe/berlin")
    await anna_to_move(server)

    await env.advance_time(7 * HOUR - 60)  # 07:59 in Berlin: not yet
    assert digests(anna) == [] and digests(bert) == []
    await env.advance_time(61)  # 08:00: anna's digest lists her turn; bert, awaited nowhere, gets none
    (digest,) = digests(anna)
    assert "1 thing waits on you" in digest and "**Toy #1** (Test Guild) — your turn: play a card or draw" in digest
    assert digests(bert) == []
    assert server.bot.digests.sent == 1 and server.bot.digests.skipped == 1
    # The next ones are tomorrow at 08:00 Berlin time, for both.
    rows = await server.bot.store.settings.deliveries([anna.id, bert.id])
    assert {r.digest_next for r in rows.values()} == {datetime(2026, 1, 2, 7, tzinfo=UTC)}
    await env.advance_time(12 * HOUR)
    assert len(digests(anna)) == 1  # never twice a day

    # /me settings shows it; off stops it.
    shown = await anna.user.slash("me settings")
    assert shown.response.ephemeral
    assert "Daily digest: every day at 08:00 (Europe/Berlin), next <t:" in shown.response.content
    assert "pinged in each table's thread (the default)" in shown.response.content
    off = await anna.user.slash("me digest", at="off")
    assert off.response.content == "✅ Your daily digest is off."
    await env.advance_time(24 * HOUR)
    assert len(digests(anna)) == 1
    assert "Daily digest: off" in (await anna.user.slash("me settings")).response.content


async def test_the_digest_survives_a_restart_and_is_never_sent_twice(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    anna = server.members[0]
    await anna.slash(server.channel, "me digest", at="08:00", timezone="Europe/Berlin")
    await anna_to_move(server, hours=72)  # still her turn tomorrow
    # The process dies before the hour and is down when it comes: the new one sends it at start-up, once.
    env.bot.digests.close()
    env.bot.scheduler.close()
    await env.advance_time(7 * HOUR + 5 * 60)
    assert digests(anna) == []
    await env.restart_bot(make_bot())
    assert len(digests(anna)) == 1
    # Another restart the same day sends nothing more; the next day's comes at its hour.
    await env.restart_bot(make_bot())
    await env.advance_time(HOUR)
    assert len(digests(anna)) == 1
    await env.advance_time(23 * HOUR)
    assert len(digests(anna)) == 2


async def test_bad_input_is_refused_privately_and_changes_nothing(env: simcord.Env) -> None:
    server = make_server(env)
    anna = server.members[0]
    refusals = {
        ("25:00", "Europe/Berlin"): "isn't a time of day",
        ("8 o'clock", "Europe/Berlin"): "isn't a time of day",
        ("08:00", "Europe/Berln"): "isn't a time zone I know",
        ("08:00", None): "Which time zone is your hour in?",
    }
    for (at, zone), problem in refusals.items():
        options = {"at": at} if zone is None else {"at": at, "timezone": zone}
        refused = await anna.user.slash("me digest", **options)
        assert refused.response.ephemeral
        assert problem in refused.response.content and "Nothing was changed." in refused.response.content
        assert "`08:00`" in refused.response.content or "Europe/Berlin" in refused.response.content  # the fix
    stored = (await server.bot.store.settings.deliveries([anna.id]))[anna.id]
    assert stored.digest_at is None and stored.digest_next is None and stored.updated_at is None

    # Once a zone is known, a later change of hour keeps it; a bad hour still changes nothing.
    await anna.user.slash("me digest", at="07:30", timezone="America/New_York")
    moved = await anna.user.slash("me digest", at="06:15")
    assert "every day at 06:15 (America/New_York)" in moved.response.content
    await anna.user.slash("me digest", at="24:00")
    stored = (await server.bot.store.settings.deliveries([anna.id]))[anna.id]
    assert (stored.digest_at, stored.digest_zone) == ("06:15", "America/New_York")
    choices = await anna.user.autocomplete("me digest", "timezone", "berl", at="08:00")
    assert [c["value"] for c in choices] == ["Europe/Berlin"]
