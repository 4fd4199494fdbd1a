"""Through SimCord: the table's status message carries its picture, uploaded again only when the board changed; a
picture that fails or is slow never holds up the text; `/game status` shows it too."""

import logging
import threading
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord

from bot import outbox, pictures
from bot.client import BoardroomBot
from bot.games.kesse_ruegen.presentation import KesseRuegenPresentation
from engine import registry
from tests.bot.games.kesse_ruegen.helpers import start_game
from tests.bot.helpers import make_server
from tests.bot.pictures.walk import states


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={"kesse_ruegen": registry.get("kesse_ruegen")}, presentations={})


async def status_message(env: simcord.Env, thread: Any) -> discord.Message:
    ref = await env.bot.store.refs.find(1, outbox.STATUS)  # type: ignore[attr-defined]
    return next(m for m in thread.history() if m.id == ref.message_id)


def picture_of(message: discord.Message) -> discord.Attachment:
    (embed,) = message.embeds
    assert embed.image.url == "attachment://table.png"
    (attachment,) = message.attachments
    assert attachment.filename == "table.png"
    return attachment


def uploads_since(env: simcord.Env, start: int) -> int:
    """Requests since `start` that upload a file (discord.py numbers new files 0, 1, …; a kept one has its id)."""
    count = 0
    for entry in env.http_requests[start:]:
        body = entry.json if isinstance(entry.json, dict) else {}
        count += sum(1 for a in body.get("attachments") or [] if int(a.get("id", -1)) < 1000)
    return count


async def test_the_status_shows_the_board_and_uploads_it_only_when_it_changes(env: simcord.Env) -> None:
    server = make_server(env)
    admin_role = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admin_role])
    thread, (anna, bert) = await start_game(server)
    first = picture_of(await status_message(env, thread))

    before = len(env.http_requests)
    await anna.slash(thread, "kr place", square="b2")  # the board changes: a pawn on b2
    placed = picture_of(await status_message(env, thread))
    assert placed.id != first.id, "a new picture for the new board"
    assert uploads_since(env, before) == 1

    before = len(env.http_requests)
    paused = await mia.slash(thread, "mod pause")  # the status changes (paused), the board does not
    assert "pause" in (paused.response.content or "").lower()
    message = await status_message(env, thread)
    assert any("Paused" in (e.description or "") for e in message.embeds), "the status text was edited"
    assert picture_of(message).id == placed.id, "the same picture, kept"
    assert uploads_since(env, before) == 0

    shown = await bert.slash(thread, "game status")
    assert shown.response.embeds[0].image.url == "attachment://table.png"
    assert [a.filename for a in shown.response.attachments] == ["table.png"]


async def test_a_failing_picture_never_holds_up_the_text(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    server = make_server(env)
    thread, (anna, _) = await start_game(server)
    first = picture_of(await status_message(env, thread))

    def broken(self: object, game: object, view: object, names: object) -> bytes:
        raise RuntimeError("no ink")

    monkeypatch.setattr(KesseRuegenPresentation, "picture", broken)
    with caplog.at_level(logging.ERROR, logger="boardroom.pictures"):
        await anna.slash(thread, "kr place", square="b2")
    message = await status_message(env, thread)
    assert "b2" in (message.embeds[0].description or "") + "".join(f.value for f in message.embeds[0].fields)
    assert picture_of(message).id == first.id, "the old picture stays until a new one can be drawn"
    assert any("drawing the picture failed" in r.getMessage() for r in caplog.records)


async def test_a_slow_picture_lets_the_text_go_first_and_is_then_served_from_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(Outside SimCord, whose clock stands still while a worker thread draws: a timeout could never fire there.)"""
    game = registry.get("kesse_ruegen")
    state = next(iter(states("kesse_ruegen", 1, 0)))
    record = SimpleNamespace(id=7, version=3)
    table = SimpleNamespace(game=game, state=state, record=record, seats=[])
    release = threading.Event()
    drawn = KesseRuegenPresentation.picture

    def slow(self: KesseRuegenPresentation, game: Any, view: Any, names: Any) -> bytes | None:
        release.wait(5)
        return drawn(self, game, view, names)

    monkeypatch.setattr(KesseRuegenPresentation, "picture", slow)
    cache = pictures.Pictures()
    presentation = KesseRuegenPresentation()
    found, late = await cache.picture_or_task(presentation, table, wait=0.05)  # type: ignore[arg-type]
    assert found is None and late is not None, "the text does not wait"
    release.set()
    picture = await late
    assert picture is not None and picture.png.startswith(b"\x89PNG")
    again, still = await cache.picture_or_task(presentation, table, wait=0.05)  # type: ignore[arg-type]
    assert again == picture and still is None and cache.renders == 1
    record.version = 4  # a move that changed nothing public: the same picture, not drawn again
    assert await cache.picture(presentation, table) == picture and cache.renders == 1


async def test_the_picture_shows_the_seats_names_and_a_rename_draws_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache is keyed by what the picture shows: the public view and the names. A rename changes no version."""
    game = registry.get("kesse_ruegen")
    state = next(iter(states("kesse_ruegen", 1, 0)))
    seats = [
        SimpleNamespace(seat=0, display_name="anna"),
        SimpleNamespace(seat=1, display_name="bert"),
        SimpleNamespace(seat=2, display_name=None),  # no name (yet): its seat
    ]
    record = SimpleNamespace(id=8, version=5)
    table = SimpleNamespace(game=game, state=state, record=record, seats=seats)
    drawn_with: list[tuple[str, ...]] = []
    drawn = KesseRuegenPresentation.picture

    def seeing(self: KesseRuegenPresentation, game: Any, view: Any, names: Any) -> bytes | None:
        drawn_with.append(tuple(names))
        return drawn(self, game, view, names)

    monkeypatch.setattr(KesseRuegenPresentation, "picture", seeing)
    cache = pictures.Pictures()
    presentation = KesseRuegenPresentation()
    first = await cache.picture(presentation, table, wait=5)  # type: ignore[arg-type]
    assert drawn_with == [("anna", "bert", "Seat 3")]
    assert await cache.picture(presentation, table, wait=5) == first and cache.renders == 1  # type: ignore[arg-type]

    seats[1].display_name = "Bertram"
    renamed = await cache.picture(presentation, table, wait=5)  # type: ignore[arg-type]
    assert cache.renders == 2 and drawn_with[-1] == ("anna", "Bertram", "Seat 3")
    assert renamed is not None and first is not None and renamed.digest != first.digest

    record.version = 6  # nothing shown changed: no new drawing
    assert await cache.picture(presentation, table, wait=5) == renamed and cache.renders == 2  # type: ignore[arg-type]
