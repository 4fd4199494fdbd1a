"""The table's words in the table's language (issue 28): every platform text a table shows is marked (the
pseudo-language finds no word outside ⟦…⟧), a Dutch table reads its status, prompts and reminders in Dutch through
SimCord, and a player's `/me language` words their hand DM and DM prompts in theirs."""

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import discord
import pytest
import simcord

from bot import away, handover
from bot.awaiting import about_words, help_words, own_words, prompt_words
from bot.helping import help_post
from bot.i18n import LANGUAGE_NAMES, speaking
from bot.lobby import lobby_post
from bot.post import Post, Task
from bot.presentation import GenericPresentation, Table, standings_lines, waiting_lines
from bot.routing import dm_words, fallback_words, reminder_words
from engine.events import Wait
from engine.game import Result, Standing
from storage import GameRecord, SeatRecord
from tests.bot.helpers import Server, dms, embed_text, make_server, move, texts, thread_of
from tests.bot.toygame import Toy

HOUR = 3600
NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
NAMES = ("anna", "bert", "cleo")


class Wrapped(GenericPresentation):
    """A game whose own words are all marked (as a converted game's are), so only the platform's words are tested."""

    def wait_task(self, table: Table, wait: Wait, names: Sequence[str]) -> Task:
        if wait.kind == "reaction":
            return Task(f"⟦STOP or pass on {names[0]}'s card⟧", None, (0,))
        return Task("⟦play a card or draw⟧", "⟦Boss⟧" if wait.about.get("boss") else None)

    def help_lines(self, table: Table, seat: int) -> list[str]:
        return ["⟦• **Play** a card: `/toy play`⟧"]

    def private_view(self, table: Table, seat: int) -> Post:
        mine = super().private_view(table, seat)
        return replace(mine, fields=[])  # the engine's own fields (the generic hand dumps them)


def unmarked(text: str) -> list[str]:
    """The words of `text` outside ⟦…⟧, once names, mentions, channels, timestamps and links are taken out."""
    while True:
        inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if inner == text:
            break
        text = inner
    text = re.sub(r"<(@|#|t:)[^>]*>|https?://\S+|`[^`]*`", " ", text)
    for name in (*NAMES, "Toy", *LANGUAGE_NAMES.values()):  # a language is named in its own words everywhere
        text = re.sub(rf"\b{name}\b", " ", text)
    return re.findall(r"[A-Za-zÀ-ÿ]{2,}", text)


def toy_table(*, language: str = "en", status: str = "active", started: bool = True) -> Table:
    game = Toy()
    record = GameRecord(
        id=7,
        kind="toy",
        guild_id=1,
        channel_id=2,
        thread_id=3 if started else None,
        status=status,  # type: ignore[arg-type]
        options={"language": language},
        seed=12345 if started else None,
        created_by=100,
        version=1,
        created_at=NOW,
        updated_at=NOW,
    )
    seats = [
        SeatRecord(game_id=7, seat=i, player_id=100 + i, display_name=n, joined_at=NOW) for i, n in enumerate(NAMES)
    ]
    seats[1] = seats[1].model_copy(update={"away_until": NOW + timedelta(days=2), "away_mode": "autopilot"})
    state = game.setup(3, game.parse_options({}), 12345, NOW) if started else None
    return Table(game, record, seats, state, NOW, words=Wrapped())


def wait(seats: tuple[int, ...], kind: str = "turn", **about: object) -> Wait:
    return Wait.model_construct(
        seats=seats, what="play", about=dict(about), kind=kind, since=NOW, until=NOW + timedelta(hours=5), timeout=None
    )


def test_every_platform_text_of_a_table_is_marked_in_the_pseudo_language(monkeypatch: pytest.MonkeyPatch) -> None:
    # The lobby speaks its table's language, which can't be the pseudo-language (not a table's option).
    monkeypatch.setattr("bot.lobby.speaking_at", lambda record: speaking("qps"))
    table = toy_table(language="qps")
    names = table.names
    shown: list[str] = []
    with speaking("qps"):
        names = table.names
        turn, boss, window = wait((1,)), wait((1,), boss=True), wait((1, 2), "reaction")
        for w in (turn, boss, window):
            shown += [
                prompt_words(table, w, names, table.mention, [1]),
                about_words(table, w, names),
                own_words(table, w, names),
                help_words(table, w, names),
                reminder_words(table, w, names, [1]),
                dm_words(table, w, reminder=True),
                dm_words(table, w),
                fallback_words(table, w, 1),
                fallback_words(table, w, 1, reminder=True),
            ]
        shown += waiting_lines(table)
        status = table.presentation.status(table)
        away.add_status_lines(status, table)
        shown += [status.text or "", status.description or "", status.footer or "", *(b.label for b in status.buttons)]
        for seat in (0, None):
            helped = help_post(table.presentation, table, seat)
            shown += [helped.title or "", helped.description or "", helped.footer or ""]
        mine = table.presentation.private_view(table, 0)
        shown += [mine.title or "", mine.description or "", mine.footer or ""]
        shown += away.status_lines(table.seats, NOW) + handover.status_lines(table.seats)
        lobby = lobby_post(toy_table(status="lobby", started=False), random_order=True)
        shown += [lobby.title or "", lobby.description or "", lobby.footer or "", *(b.label for b in lobby.buttons)]
        result = Result(standings=(Standing(seat=0, rank=1, score=15), Standing(seat=2, rank=2, score=9)))
        over = toy_table(language="qps", status="finished")
        shown += standings_lines(over, result, over.presentation)
        ended = over.presentation.status(over)
        # Without the result's reason (`_…_`, the engine's words, worded by a converted game's presentation).
        lines = (ended.description or "").split("\n")
        shown += [line for line in lines if not line.startswith("_")] + [b.label for b in ended.buttons]
    assert len(shown) > 40
    for text in shown:
        assert not unmarked(text), (text, unmarked(text))


async def new_table(server: Server, language: str, players: int = 3) -> None:
    """A toy game whose table speaks `language` (the game's `language` option, as `/game new` will set it), seat
    order anna, bert (, cleo): anna's turn first."""
    anna = server.members[0]
    await anna.slash(server.channel, "game new", game="toy", random_order=False)
    await server.bot.store.games.update(1, options={"language": language})
    joins = ["Join", *["Meedoen" if language == "nl" else "Mitspielen"] * (players - 2)]  # it says so once re-drawn
    for member, label in zip(server.members[1:players], joins, strict=True):
        await member.click(lobby_message(server), label=label)
    await anna.click(lobby_message(server), label="Start")


def lobby_message(server: Server) -> discord.Message:
    return next(m for m in server.channel.history() if m.embeds)


async def test_a_dutch_table_reads_its_lobby_status_prompts_and_reminders_in_dutch(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    await new_table(server, "nl")
    lobby = embed_text(lobby_message(server))
    assert "— bezig" in lobby and "Spelers: " in lobby and "De tafel is in" in lobby, lobby
    thread = thread_of(server)
    opening = "\n".join(texts(thread))
    assert "begint!** Volgorde:" in opening and "jouw beurt" in opening, opening
    await anna.slash(thread, "game move", action=move({"type": "draw"}))  # bert's turn
    said = texts(thread)
    assert any(f"<@{bert.id}>, jouw beurt: play a card or draw (deadline <t:" in t for t in said), said
    status = "\n".join(embed_text(m) for m in thread.history() if m.embeds)
    assert "**bert** is aan de beurt: play a card or draw — deadline" in status, status
    await env.advance_time(12 * HOUR + 1)  # the halfway reminder, in the thread
    assert any(t.startswith(f"⏰ Herinnering: <@{bert.id}>, jouw beurt: ") for t in texts(thread)), texts(thread)


async def test_a_players_own_language_words_their_hand_and_dm_prompts_the_table_keeps_its_own(
    env: simcord.Env,
) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    chosen = await bert.user.slash("me language", language="de")
    assert chosen.response.ephemeral and "Deutsch" in chosen.response.content, chosen.response.content
    assert "Sprache des Tisches" in chosen.response.content  # said in the language just chosen
    await bert.user.slash("me notify", mode="dm")
    await new_table(server, "nl", players=2)
    hand = embed_text(dms(bert)[-1])
    assert "Deine Hand — Toy #1" in hand, hand
    await anna.slash(thread_of(server), "game move", action=move({"type": "draw"}))  # bert's turn: by DM
    prompt = next(m.content for m in reversed(dms(bert)) if m.content.startswith("🔔"))
    assert prompt.startswith("🔔 Toy #1 — du bist dran: play a card or draw. Frist <t:"), prompt
    # The table's thread keeps the table's language: bert is named there in Dutch, not pinged.
    assert any("**bert** is aan de beurt" in embed_text(m) for m in thread_of(server).history() if m.embeds)
    await env.advance_time(12 * HOUR + 1)
    reminder = next(m.content for m in reversed(dms(bert)) if m.content.startswith("⏰"))
    assert reminder.startswith("⏰ Erinnerung: Toy #1 — du bist dran:"), reminder
    back = await bert.user.slash("me language", language="reset")
    assert "each table's own language" in back.response.content  # the reader's (English) words again
    hands = [embed_text(m) for m in dms(bert) if m.embeds]
    assert len(hands) == 1 and "Je hand — Toy #1" in hands[0], hands  # the same hand DM, drawn again in Dutch
