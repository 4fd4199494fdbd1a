"""`/game new reaction_time:` (`90m`, `4h`, `1d`; the old `reaction_minutes` too), refused privately when it can't be
used, and the windows' lengths where a table reads them: the lobby message and `/game rules`."""

import pytest
import simcord

from tests.bot.helpers import embed_text, make_server


async def test_the_lobby_shows_each_kind_of_window_with_its_games_own_length(env: simcord.Env) -> None:
    server = make_server(env)
    anna = server.members[0]
    casablanca = await anna.slash(server.channel, "game new", game="casablanca")
    assert "objection window 12 hours, contest or withdraw 8 hours" in embed_text(casablanca.response.message)
    kkk = await anna.slash(server.channel, "game new", game="kkk")
    assert "STOP window 6 hours, last call 6 hours" in embed_text(kkk.response.message)
    kesse = await anna.slash(server.channel, "game new", game="kesse_ruegen")
    assert "window" not in embed_text(kesse.response.message)  # a game without reaction windows names none
    records = await server.bot.store.games.find()
    assert [r.options["reaction_time"] for r in records] == [None, None, None]


@pytest.mark.parametrize(
    ("typed", "shown", "stored"),
    [("90m", "1 hour 30 minutes", "PT1H30M"), ("4h", "4 hours", "PT4H"), ("1d", "1 day", "P1D")],
)
async def test_a_typed_reaction_time_sets_every_window_of_the_table(
    env: simcord.Env, typed: str, shown: str, stored: str
) -> None:
    server = make_server(env)
    opened = await server.members[0].slash(server.channel, "game new", game="kkk", reaction_time=typed)
    assert not opened.response.ephemeral
    assert f"every reaction window {shown}" in embed_text(opened.response.message)
    assert (await server.bot.store.games.get(1)).options["reaction_time"] == stored


async def test_the_old_reaction_minutes_keeps_working(env: simcord.Env) -> None:
    server = make_server(env)
    opened = await server.members[0].slash(server.channel, "game new", game="casablanca", reaction_minutes=45)
    assert "every reaction window 45 minutes" in embed_text(opened.response.message)
    assert (await server.bot.store.games.get(1)).options["reaction_time"] == "PT45M"


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("0", "“0” has no unit: give a duration such as `90m`, `4h` or `1d`"),
        ("0m", "is less than a minute"),
        ("-2h", "A reaction time can't be negative"),
        ("soon", "I can't read “soon” as a duration"),
        ("30d", "A reaction window of more than 7 days would stall the table"),
        ("99999999999d", "A reaction window of more than 7 days would stall the table"),
    ],
)
async def test_a_reaction_time_that_cant_be_used_is_refused_privately_and_opens_nothing(
    env: simcord.Env, typed: str, why: str
) -> None:
    server = make_server(env)
    refused = await server.members[0].slash(server.channel, "game new", game="kkk", reaction_time=typed)
    assert refused.response.ephemeral and why in refused.response.content, refused.response.content
    assert "`1d`" in refused.response.content or "1m" in refused.response.content  # the fix is named
    assert await server.bot.store.games.find() == []


async def test_both_forms_at_once_are_refused(env: simcord.Env) -> None:
    server = make_server(env)
    both = await server.members[0].slash(
        server.channel, "game new", game="kkk", reaction_time="4h", reaction_minutes=30
    )
    assert both.response.ephemeral and "Give the reaction time once" in both.response.content
    assert await server.bot.store.games.find() == []


@pytest.mark.parametrize(
    ("game", "lines"),
    [
        ("casablanca", ["objection window: 12 hours", "contest or withdraw: 8 hours"]),
        ("kkk", ["STOP window: 6 hours", "last call: 6 hours"]),
    ],
)
async def test_game_rules_show_the_windows_lengths(env: simcord.Env, game: str, lines: list[str]) -> None:
    server = make_server(env)
    shown = await server.members[0].slash(server.channel, "game rules", game=game)
    text = embed_text(shown.response.message)
    assert "Reaction windows" in text and "closes as soon as everyone it asks has answered" in text
    assert all(line in text for line in lines), text
    assert "reaction_time" in text
    kesse = await server.members[0].slash(server.channel, "game rules", game="kesse_ruegen")
    assert "Reaction windows" not in embed_text(kesse.response.message)
