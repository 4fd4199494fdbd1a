"""A damaged database file, met while the bot runs (issue 24, items 4 and 5).

A damaged page: one game's row on the games table's page is made to point at an overflow page the file doesn't have
(what a flipped sector looks like to SQLite: "database disk image is malformed"). Every game's record lies on that
page too, but only the damaged game's snapshot and timers are read through the broken pointer, so the other game
stays playable. The damaged game's players get a clear private answer, the log gets one error line naming the game
and no traceback, and the other game's moves and deadlines go on.

A torn `-wal` file: SQLite replays the WAL up to the first frame whose checksum fails and drops the rest without a
word, so a game silently goes back to an earlier version. Nothing can detect it (the file is sound); the test shows
that this is what happens and that the bot starts and plays on, and the README's backup section says so.
"""

import logging
import random
import shutil
import sqlite3
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord
from simcord import ChannelHandle, MemberActor

from bot.client import BoardroomBot
from bot.replies import DAMAGED, SORRY
from engine import registry
from engine.policy import policy_for
from tests.bot.helpers import Server, make_server, move

GAMES = {"kkk": registry.get("kkk"), "kesse_ruegen": registry.get("kesse_ruegen")}
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games=GAMES, presentations={})


async def open_game(server: Server, kind: str, people: list[MemberActor]) -> tuple[int, ChannelHandle]:
    opened = await people[0].slash(server.channel, "game new", game=kind, random_order=False)
    for m in people[1:]:
        await m.click(opened.response, label="Join")
    await people[0].click(opened.response, label="Start")
    record = (await server.bot.store.games.find())[-1]
    return record.id, next(t for t in server.channel.threads if t.id == record.thread_id)


async def a_move(server: Server, game_id: int, thread: ChannelHandle) -> tuple[MemberActor, str]:
    """A legal move of the first seat that has one (chosen by the game's policy), as `/game move` JSON."""
    table = await server.bot.service.read.table(game_id)
    game = table.game
    policy = policy_for(game)
    assert table.state is not None and policy is not None
    for s in table.seats:
        legal = game.legal_actions(table.state, s.seat)
        if legal and s.player_id is not None:
            action = policy.decide(game.view(table.state, s.seat), legal, s.seat, random.Random(1))
            if action is not None:
                return server.member(s.player_id), move(game.dump_action(action))
    raise AssertionError("nobody has a move")


async def stop(bot: BoardroomBot) -> None:
    """The bot goes down and its database file is closed (what a stopped process leaves)."""
    bot.scheduler.close()
    bot.housekeeper.close()
    bot.notifier.close()
    await bot.store.close()


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = data[at + i]
        if i == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    raise AssertionError("not a varint")


def break_snapshot_pointer(path: Path, game_id: int) -> None:
    """Overwrite the 4 bytes of the games table's page that lead to game `game_id`'s overflow page (its snapshot
    and timers) with a page number beyond the file. The page's layout is SQLite's documented file format."""
    with sqlite3.connect(path) as db:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        leaves = db.execute("SELECT pageno FROM dbstat WHERE name = 'games' AND pagetype = 'leaf'").fetchall()
    assert len(leaves) == 1, "the games table grew beyond one page: find the row's page first"
    start = (leaves[0][0] - 1) * size
    with path.open("r+b") as f:
        f.seek(start)
        page = f.read(size)
        assert page[0] == 0x0D, "not a table leaf page"
        for i in range(struct.unpack(">H", page[3:5])[0]):
            (cell,) = struct.unpack(">H", page[8 + 2 * i : 10 + 2 * i])
            payload, at = _varint(page, cell)
            rowid, at = _varint(page, at)
            if rowid != game_id:
                continue
            most = size - 35
            assert payload > most, "the game's row has no overflow page"
            least = (size - 12) * 32 // 255 - 23
            local = least + (payload - least) % (size - 4)
            f.seek(start + at + (local if local <= most else least))
            f.write(b"\xff\xff\xff\xff")
            return
    raise AssertionError(f"no row for game {game_id}")


async def test_a_damaged_page_answers_its_players_clearly_and_the_other_game_plays_on(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot], db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = make_server(env)
    anna, bert, cleo, dave = server.members
    damaged, damaged_thread = await open_game(server, "kkk", [anna, bert, cleo])  # a row with an overflow page
    sound, sound_thread = await open_game(server, "kesse_ruegen", [dave, anna])
    mover, action = await a_move(server, damaged, damaged_thread)
    await env.settle()
    await stop(server.bot)
    break_snapshot_pointer(db_path, damaged)
    caplog.set_level(logging.INFO)
    caplog.clear()

    await env.restart_bot(make_bot(games=GAMES, presentations={}))
    for answered in (
        await mover.slash(damaged_thread, "game move", action=action),
        await bert.slash(damaged_thread, "game hand"),
    ):
        assert answered.response.ephemeral
        assert answered.response.content == DAMAGED
        assert "backup" in answered.response.content and SORRY not in answered.response.content

    # The other game on the same file: a move, and its deadline fires a day later.
    version = (await server.bot.store.games.get(sound)).version
    player, action = await a_move(server, sound, sound_thread)
    played = await player.slash(sound_thread, "game move", action=action)
    assert SORRY not in (played.response.content or "") and DAMAGED not in (played.response.content or "")
    assert (await server.bot.store.games.get(sound)).version == version + 1
    await env.advance_time(25 * 3600)
    assert (await server.bot.store.games.get(sound)).version > version + 1  # the deadline's move was committed

    about = [r for r in caplog.records if getattr(r, "game", None) == damaged and r.levelno >= logging.WARNING]
    assert len(about) == 1, [r.getMessage() for r in about]
    assert about[0].levelno == logging.ERROR and f"game {damaged}" in about[0].getMessage()
    assert "damaged" in about[0].getMessage() and "backup" in about[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info], "no traceback: the cause is the file"


def tear_wal(wal: Path, drop: int) -> None:
    """Flip a byte in the first frame of the last `drop` transactions of a WAL file: from that frame on, the
    checksums fail."""
    data = bytearray(wal.read_bytes())
    size = struct.unpack(">I", data[8:12])[0]
    frame = 24 + size
    starts = [32]  # where each transaction's frames begin
    for at in range(32, len(data) - frame + 1, frame):
        if struct.unpack(">I", data[at + 4 : at + 8])[0]:  # "database size after commit": a commit's last frame
            starts.append(at + frame)
    starts.pop()  # after the last commit: no frame
    assert len(starts) > drop, f"the WAL holds {len(starts)} commits"
    data[starts[-drop] + 24 + size // 2] ^= 0xFF
    wal.write_bytes(bytes(data))


async def test_a_torn_wal_rolls_a_game_back_silently_and_the_bot_plays_on(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot], db_path: Path, tmp_path: Path
) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    game_id, thread = await open_game(server, "kesse_ruegen", [anna, bert])
    first = await server.bot.store.games.get(game_id)
    for _ in range(4):
        player, action = await a_move(server, game_id, thread)
        await player.slash(thread, "game move", action=action)
    await env.settle()
    before = (await server.bot.store.games.get(game_id)).version
    assert before >= first.version + 4
    # A crash here leaves the database and its WAL on disk (copied while the bot runs, as a crash would).
    crash = tmp_path / "crash"
    crash.mkdir()
    shutil.copy(db_path, crash / db_path.name)
    shutil.copy(db_path.with_name(db_path.name + "-wal"), crash / (db_path.name + "-wal"))
    await stop(server.bot)
    for f in db_path.parent.glob(db_path.name + "*"):
        f.unlink()
    shutil.copy(crash / db_path.name, db_path)
    wal = db_path.with_name(db_path.name + "-wal")
    shutil.copy(crash / wal.name, wal)
    tear_wal(wal, drop=5)  # (a move is three transactions: its commit, its rows marked in flight, then delivered)

    await env.restart_bot(make_bot(games=GAMES, presentations={}))
    after = (await server.bot.store.games.get(game_id)).version
    assert after < before  # the later commits were dropped …
    assert await server.bot.store.maintenance.check_integrity() == []  # … and nothing in the file can tell
    player, action = await a_move(server, game_id, thread)
    played = await player.slash(thread, "game move", action=action)
    assert SORRY not in (played.response.content or "")
    assert (await server.bot.store.games.get(game_id)).version == after + 1
    backups = README.read_text().split("### Backups and restoring one", 1)[1].split("\n### ", 1)[0]
    assert "torn" in backups and "-wal" in backups and "newest backup" in backups
