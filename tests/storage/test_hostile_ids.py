"""An id beyond SQLite's 64-bit INTEGER (only forged input has one) is "not found" in every call that takes an id,
never an `OverflowError` (issue 24, item 3): the store refuses it itself, whatever the caller checked before."""

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from storage import GameNotFound, GameStore, MessageRef, NewLogEntry, NewSeat, NewTimer
from tests.storage.helpers import start
from tests.storage.toy_game import ToyDraw

HUGE = [2**63, 9999999999999999999, 99999999999999999999, -(2**63) - 1]
T = datetime(2026, 1, 1, tzinfo=UTC)


def calls(n: int) -> dict[str, Callable[[GameStore], Awaitable[Any]]]:
    return {
        "get_game": lambda s: s.get_game(n),
        "load_game": lambda s: s.load_game(n),
        "get_snapshot": lambda s: s.get_snapshot(n),
        "update_game": lambda s: s.update_game(n, status="abandoned"),
        "commit": lambda s: s.commit(n, 0, NewLogEntry.for_note("x", T), None),
        "seats": lambda s: s.seats(n),
        "set_seats": lambda s: s.set_seats(n, [NewSeat(seat=0, player_id=1, display_name="a")]),
        "update_seat": lambda s: s.update_seat(n, 0, missed=1),
        "seats_of_player": lambda s: s.seats_of_player(n),
        "log": lambda s: s.log(n),
        "log_entry": lambda s: s.log_entry(n, 1),
        "add_timers": lambda s: s.add_timers(n, [NewTimer(kind="x", due_at=T)]),
        "timers": lambda s: s.timers(n),
        "delete_timer": lambda s: s.delete_timer(n),
        "delete_timers": lambda s: s.delete_timers(n),
        "outbox_item": lambda s: s.outbox_item(n),
        "mark_failed": lambda s: s.mark_failed(n, "x"),
        "message_ref": lambda s: s.message_ref(n),
        "message_refs": lambda s: s.message_refs(n),
        "find_message_ref": lambda s: s.find_message_ref(n, "status"),
        "delete_message_ref": lambda s: s.delete_message_ref(n),
        "find_game_by_thread": lambda s: s.find_game_by_thread(n),
        "list_games": lambda s: s.list_games(guild_id=n),
        "guild_settings": lambda s: s.guild_settings(n),
        "put_message_ref": lambda s: s.put_message_ref(
            MessageRef(message_id=n, channel_id=1, game_id=1, kind="status", created_at=T)
        ),
    }


@pytest.mark.parametrize("number", HUGE)
async def test_every_call_refuses_an_id_beyond_64_bits_as_not_found(store: GameStore, number: int) -> None:
    game_id = await start(store, ToyDraw())
    before = await store.get_game(game_id)
    for name, call in calls(number).items():
        try:
            await call(store)
        except GameNotFound:
            pass  # "not found": what every caller already answers clearly
        except Exception as exc:  # which error it is, is the point
            pytest.fail(f"{name}({number}) raised {type(exc).__name__}: {exc}")
    assert await store.get_game(game_id) == before
    assert await store.check_integrity() == []
