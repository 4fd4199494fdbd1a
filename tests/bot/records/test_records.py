"""Players' records (issue 32) after whole games played through SimCord, as players read them.

Each game is opened with `/game new … bots:N`, played to its end by `/game move` (the people) and the computer
players' own timers (`tests.bot.seated.play_on`, seeded), then read as a player would: `/game history`, `/game log`
(page by page, with its buttons), `/me profile`, `/game top`. Then every record is derived again from the logs
(`Recorder.rebuild`, what `/mod records rebuild` and `python -m bot rebuild-records` run) and must come out the same
row for row: the records never say anything the logs don't.

Also: a game with a move undone by a moderator (the undone move counts for nobody), a player removed mid-game (their
moves stay theirs, the game counts as left, and their seat is not rated), a private profile (refused to others,
moderators too), and a game ended by a moderator (in the history, not rated).
"""

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.client import BoardroomBot
from engine import registry
from tests.bot.helpers import Server, embed_text, make_server, mod_undo
from tests.bot.seated import play_on

KINDS = ("kkk", "kesse_ruegen", "casablanca", "schwarzmarkt")
TITLES = {
    "kkk": "Kohle, Kies & Knete",
    "kesse_ruegen": "Kesse Rügen",
    "casablanca": "Casablanca",
    "schwarzmarkt": "Schwarzmarkt",
}


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={kind: registry.get(kind) for kind in KINDS}, presentations={})


async def open_table(server: Server, kind: str, people: int, bots: int, **options: Any) -> int:
    opener, *others = server.members[:people]
    opened = await opener.slash(server.channel, "game new", game=kind, bots=bots, random_order=False, **options)
    assert not opened.response.ephemeral, opened.response.content
    for member in others:
        await member.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    record = max(await server.bot.store.games.find(), key=lambda g: g.id)
    assert record.status == "active"
    return record.id


def moderator(server: Server) -> MemberActor:
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return server.guild.add_member(server.env.create_user("mia"), roles=[admins])


async def records_of(bot: BoardroomBot, game_ids: list[int], people: list[int]) -> dict[str, Any]:
    """Every stored record the commands read: results, placements, each person's stats and ratings."""
    await bot.recorder.settled(timeout=None)
    store = bot.store
    out: dict[str, Any] = {"results": [], "placements": [], "stats": {}, "ratings": {}}
    for game_id in game_ids:
        out["results"].append(await store.records.game_result(game_id))
        out["placements"].append(await store.records.placements(game_id))
    for person in people:
        out["stats"][person] = await store.records.player_stats(person)
        out["ratings"][person] = await store.records.player_ratings(person)
    guild_ids = {r.guild_id for r in out["results"] if r is not None}
    out["top"] = {(g, k): await store.records.top_ratings(g, k, limit=50) for g in guild_ids for k in KINDS}  # type: ignore[arg-type]
    return out


async def rebuilt_equal(server: Server, game_ids: list[int]) -> dict[str, Any]:
    """The records as the live bot wrote them equal the records derived again from the logs."""
    people = [m.id for m in server.members]
    live = await records_of(server.bot, game_ids, people)
    counts = await server.bot.recorder.rebuild()
    assert counts.skipped == 0 and counts.recorded >= len(game_ids)
    assert await records_of(server.bot, game_ids, people) == live
    return live


async def log_pages(member: MemberActor, channel: Any, game_id: int) -> list[str]:
    """`/game log game:N`, then ▶ until the last page: the text of every page."""
    shown = await member.slash(channel, "game log", game=game_id)
    assert shown.response.ephemeral
    pages = [embed_text(shown.response.message)]
    result = shown
    for _ in range(200):
        message = result.response.message
        labels = {c.label: c for row in message.components for c in getattr(row, "children", [])}
        nxt = labels.get("Next ▶")
        if nxt is None or nxt.disabled:
            break
        result = await member.click(result.response, label="Next ▶")
        pages.append(embed_text(result.response.message))
    return pages


def private_texts(entries: list[Any], names: list[str]) -> set[str]:
    """Texts the log addressed to some seats only, that the table never read in a public event."""
    from engine.text import render

    public = {render(str(e["text"]), names) for x in entries for e in x.events if e.get("to") is None}
    return {
        render(str(e["text"]), names)
        for x in entries
        for e in x.events
        if e.get("to") is not None and e.get("text") and render(str(e["text"]), names) not in public
    }


# --- all four games, played to the end ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "people", "bots", "options"),
    [
        ("kesse_ruegen", 2, 0, {}),
        # The HQ variant: a whole game of two ends in a fraction of the main game's moves (~40 s of the suite's
        # time saved); what the records keep doesn't depend on the variant.
        ("casablanca", 1, 1, {"options": "variant=hq"}),
        ("schwarzmarkt", 2, 1, {}),
        ("kkk", 2, 1, {}),
    ],
)
async def test_a_finished_game_makes_history_profiles_and_ratings(
    env: simcord.Env, kind: str, people: int, bots: int, options: dict[str, Any]
) -> None:
    server = make_server(env, ("anna", "bert", "olga"))
    olga = server.members[-1]
    game_id = await open_table(server, kind, people=people, bots=bots, **options)
    await play_on(server, game_id=game_id, chunk=120, steps=20000)
    record = await server.bot.store.games.get(game_id)
    assert record.status == "finished"

    # /game history: the game, its date, its thread, who won and who else played; anyone may look (olga didn't play)
    history = await olga.slash(server.channel, "game history")
    assert history.response.ephemeral
    text = embed_text(history.response.message)
    result = await server.bot.store.records.game_result(game_id)
    assert result is not None and result.outcome == "finished" and result.rated
    assert f"#{game_id} {TITLES[kind]}" in text and f"<#{record.thread_id}>" in text
    assert f"<t:{int(record.finished_at.timestamp())}:d>" in text  # type: ignore[union-attr]
    winners = {s.seat for s in result.seats if s.rank == 1}
    seats = await server.bot.store.seats.of_game(game_id)
    trophy_line = next(line for line in text.splitlines() if line.startswith("🏆"))
    for s in seats:
        shown = f"{s.display_name} 🤖" if s.bot else f"<@{s.player_id}>"
        assert shown in trophy_line
        assert (trophy_line.index(shown) < trophy_line.find(" · ") or " · " not in trophy_line) == (s.seat in winners)

    # /me profile: one game played, won if they won, their moves counted, no game going on
    for member in server.members[:people]:
        seat = next(s.seat for s in seats if s.player_id == member.id)
        profile = embed_text((await member.slash(server.channel, "me profile")).response.message)
        assert f"{TITLES[kind]}: 1 game, {1 if seat in winners else 0} won" in profile
        moves = sum(
            1 for e in await server.bot.store.log.entries(game_id) if e.kind == "action" and e.user_id == member.id
        )
        assert f"Moves made: **{moves}**" in profile
        assert "Playing now: nothing at the moment" in profile
        assert "rating **" in profile

    # /game top: everyone who played is rated, the computer players marked
    top = embed_text((await olga.slash(server.channel, "game top", game=kind)).response.message)
    assert f"Best at {TITLES[kind]}" in top
    for s in seats:
        assert (f"{s.display_name} 🤖" if s.bot else f"<@{s.player_id}>") in top
    assert ("🤖" in top.split("Rating:")[0]) == bool(bots)

    # /game log: the public account, page by page, with nothing only a seat was told
    pages = await log_pages(olga, server.channel, game_id)
    account = "\n".join(pages)
    assert f"📖 {TITLES[kind]} #{game_id}" in account and "the public log only" in account
    names = [s.display_name for s in seats]
    secrets = private_texts(await server.bot.store.log.entries(game_id), names)
    assert not [t for t in secrets if t in account]

    # the records derived again from the logs are the very same
    await rebuilt_equal(server, [game_id])


# --- undo, a player who leaves, privacy, a game ended by a moderator ------------------------------------------


async def test_an_undone_move_counts_for_nobody(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    mia = moderator(server)
    game_id = await open_table(server, "kesse_ruegen", people=2, bots=0)
    thread = next(t for t in server.channel.threads)
    await play_on(server, game_id=game_id, until=lambda t: t.record.version >= 6, steps=200)
    log_before = await server.bot.store.log.entries(game_id)
    last = log_before[-1]
    assert last.kind == "action" and last.user_id is not None
    undone = await mod_undo(mia, thread, force=True)
    assert "undid (forced)" in undone.response.content
    assert (await server.bot.store.log.entries(game_id))[-1].kind == "undo"
    await play_on(server, game_id=game_id, chunk=120, steps=3000)
    assert (await server.bot.store.games.get(game_id)).status == "finished"
    entries = await server.bot.store.log.entries(game_id)
    for member in (anna, bert):
        made = sum(1 for e in entries if e.kind == "action" and e.user_id == member.id)
        stood = made - (1 if member.id == last.user_id else 0)
        profile = embed_text((await member.slash(server.channel, "me profile")).response.message)
        assert f"Moves made: **{stood}**" in profile, profile
    result = await server.bot.store.records.game_result(game_id)
    assert result is not None and result.moves == sum(1 for e in entries if e.kind == "action") - 1
    await rebuilt_equal(server, [game_id])


async def test_a_removed_player_keeps_their_moves_and_is_not_rated(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo", "olga"))
    anna, bert, cleo, olga = server.members
    mia = moderator(server)
    game_id = await open_table(server, "kesse_ruegen", people=3, bots=0)
    thread = next(t for t in server.channel.threads)
    await play_on(server, game_id=game_id, until=lambda t: t.record.version >= 12, steps=300)
    bert_moves = sum(
        1 for e in await server.bot.store.log.entries(game_id) if e.user_id == bert.id and e.kind == "action"
    )
    assert bert_moves > 0
    kicked = await mia.slash(thread, "mod kick", player=bert)
    assert "autopilot" in kicked.response.content
    await play_on(server, game_id=game_id, chunk=120, steps=4000)
    assert (await server.bot.store.games.get(game_id)).status == "finished"

    profile = embed_text((await bert.slash(server.channel, "me profile")).response.message)
    assert "Kesse Rügen: 1 game, 0 won" in profile and "left 1" in profile
    assert f"Moves made: **{bert_moves}**" in profile
    assert "rating" not in profile  # his seat wasn't his at the end: not rated
    top = embed_text((await olga.slash(server.channel, "game top", game="kesse_ruegen")).response.message)
    assert f"<@{anna.id}>" in top and f"<@{cleo.id}>" in top and f"<@{bert.id}>" not in top
    history = embed_text((await olga.slash(server.channel, "game history")).response.message)
    assert "~~bert~~" in history  # his seat, played on by the autopilot, held by nobody at the end
    await rebuilt_equal(server, [game_id])


async def test_a_private_profile_is_refused_to_others_moderators_too(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    mia = moderator(server)
    game_id = await open_table(server, "kesse_ruegen", people=1, bots=1)
    await play_on(server, game_id=game_id, chunk=120, steps=3000)
    seen = await bert.slash(server.channel, "me profile", player=anna)
    assert "anna's record" in embed_text(seen.response.message) and seen.response.ephemeral

    said = await anna.slash(server.channel, "me private")
    assert said.response.ephemeral and "private now" in said.response.content
    for asker in (bert, mia):
        refused = await asker.slash(server.channel, "me profile", player=anna)
        assert refused.response.ephemeral
        assert refused.response.content == "anna keeps their profile private."
        assert not refused.response.message.embeds
    own = await anna.slash(server.channel, "me profile")
    assert "Kesse Rügen: 1 game" in embed_text(own.response.message)

    await anna.slash(server.channel, "me private", on=False)
    again = await bert.slash(server.channel, "me profile", player=anna)
    assert "Kesse Rügen: 1 game" in embed_text(again.response.message)


async def test_a_game_ended_by_a_moderator_is_history_but_not_rated(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    mia = moderator(server)
    game_id = await open_table(server, "kesse_ruegen", people=2, bots=0)
    await play_on(server, game_id=game_id, until=lambda t: t.record.version >= 4, steps=100)
    await mia.slash(server.channel, "mod end", game=game_id)
    history = embed_text((await anna.slash(server.channel, "game history")).response.message)
    assert f"#{game_id} Kesse Rügen" in history and "🛑 ended by a moderator" in history
    top = await anna.slash(server.channel, "game top", game="kesse_ruegen")
    assert top.response.content == (
        "Nobody has a Kesse Rügen rating here yet: ratings come with each game finished by its rules."
    )
    profile = embed_text((await bert.slash(server.channel, "me profile")).response.message)
    assert "Kesse Rügen: 1 game, 0 won" in profile and "average place" not in profile
    refused = await anna.slash(server.channel, "game log", game=game_id + 1)
    assert refused.response.ephemeral and "no game" in refused.response.content
    await rebuilt_equal(server, [game_id])


async def test_a_game_still_going_has_no_log_yet(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna, _ = server.members
    game_id = await open_table(server, "kesse_ruegen", people=2, bots=0)
    refused = await anna.slash(server.channel, "game log", game=game_id)
    assert refused.response.ephemeral
    assert refused.response.content.startswith(f"Kesse Rügen #{game_id} is still going")
    empty = await anna.slash(server.channel, "game history")
    assert empty.response.content == "No game has ended here yet. When one does, `/game history` lists it."


# --- Discord's limits --------------------------------------------------------------------------------------------


async def test_the_command_tree_stays_within_discords_limits(env: simcord.Env) -> None:
    """With every game's commands and the record commands: at most 100 top-level commands, 25 subcommands (or
    groups) in a group, 25 options in a command, names of 1–32 characters and descriptions of 1–100."""
    from discord import app_commands

    tree = env.bot.tree  # type: ignore[attr-defined]
    top = tree.get_commands()
    assert len(top) <= 100
    names = {c.name for c in top}
    assert {"game", "me", "mod"} <= names

    def check(command: Any, depth: int) -> None:
        assert 1 <= len(command.name) <= 32 and 1 <= len(command.description) <= 100, command.qualified_name
        if isinstance(command, app_commands.Group):
            assert depth < 2, f"{command.qualified_name}: groups nest two levels at most"
            assert 1 <= len(command.commands) <= 25, f"{command.qualified_name}: {len(command.commands)} subcommands"
            for sub in command.commands:
                check(sub, depth + 1)
        else:
            assert len(command.parameters) <= 25, command.qualified_name

    for command in top:
        check(command, 0)
    game = next(c for c in top if c.name == "game")
    assert {"history", "log", "top"} <= {c.name for c in game.commands}
    mod = next(c for c in top if c.name == "mod")
    assert "records rebuild" in {c.qualified_name.removeprefix("mod ") for c in mod.walk_commands()}
