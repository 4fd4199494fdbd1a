"""`/game rules` from the players' pages in `docs/rules/`, `/game back` for someone who wasn't away, and a start-up
that logs nothing alarming (issue 13, parts 5 and 8)."""

import logging
from pathlib import Path

import discord
import pytest
import simcord

from bot import rules
from bot.game_options import describe
from bot.settings import Settings
from engine import registry
from tests.bot.helpers import embed_text, make_server

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_game_has_a_players_page_and_each_embed_page_fits_discord(name: str) -> None:
    game = registry.get(name)
    found = rules.load(name)
    assert found is not None, f"docs/rules/{name}.md is missing"
    assert found.intro and 3 <= len(found.pages) <= 6
    assert any("Commands" in p.title for p in found.pages) and any("win" in p.title.lower() for p in found.pages)
    for n in range(len(found.pages)):
        post = rules.rules_post(
            found, n, name=name, players="2–8 players", link=f"https://example.org/{name}.md", options=describe(game)
        )
        assert len(post.title or "") <= rules.MAX_TITLE and len(post.description or "") <= 1800  # a phone screen
        assert rules.embed_size(post) <= rules.MAX_EMBED and all(len(v) <= 1024 for _, v in post.fields)
        text = f"{post.title}\n{post.description}"
        assert "shared/rules" not in text and "README" not in text
    assert f"(docs/rules/{name}.md)" in README.read_text()  # the README links every page


def test_the_pages_are_the_files_split_at_their_headings() -> None:
    text = "# Game\n\nIntro line\none.\n\n## First\nA.\n\n## Second\nB\nC\n"
    parsed = rules.parse(text, "game")
    assert parsed.title == "Game" and parsed.intro == "Intro line one."
    assert [(p.title, p.body) for p in parsed.pages] == [("First", "A."), ("Second", "B\nC")]


async def test_rules_are_paged_with_buttons(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    await env.restart_bot(make_bot(games={"kkk": registry.get("kkk")}, presentations={}))
    server = make_server(env)
    shown = await server.members[0].slash(server.channel, "game rules", game="kkk")
    assert shown.response.ephemeral
    pages = rules.load("kkk")
    assert pages is not None
    first = embed_text(shown.response.message)
    assert f"Kohle, Kies & Knete — {pages.pages[0].title}" in first and f"Page 1 of {len(pages.pages)}" in first
    turned = await server.members[0].click(shown.response, label="Next ▶")
    second = embed_text(turned.response.message)
    assert f"— {pages.pages[1].title}" in second and f"Page 2 of {len(pages.pages)}" in second
    assert pages.pages[1].body.splitlines()[0] in second  # the page's own text, from docs/rules/kkk.md
    last = await server.members[0].slash(server.channel, "game rules", game="kkk", page=len(pages.pages))
    assert f"Page {len(pages.pages)} of {len(pages.pages)}" in embed_text(last.response.message)


async def test_back_for_someone_who_was_never_away(env: simcord.Env) -> None:
    server = make_server(env)
    opened = await server.members[0].slash(server.channel, "game new", game="toy")
    await server.members[1].click(opened.response, label="Join")
    back = await server.members[1].slash(server.channel, "game back")
    assert back.response.ephemeral and back.response.content.startswith("You weren't away")
    await server.members[1].slash(server.channel, "game away", duration="2h")
    back = await server.members[1].slash(server.channel, "game back")
    assert back.response.content.startswith("👋 Welcome back")


def test_building_the_bot_logs_no_voice_warning(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.client import create_bot

    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as in a fresh process without PyNaCl
    with caplog.at_level(logging.WARNING):
        create_bot(settings, games={}, presentations={})
    assert not [r for r in caplog.records if "PyNaCl" in r.getMessage() or "voice" in r.getMessage().lower()]
