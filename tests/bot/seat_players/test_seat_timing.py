"""When a seat that plays itself is due (`bot.seat_players.plan`): its delay after the wait began, and never at the
instant it was planned — a computer player that has just moved in a wait still open (an offer in a negotiation
round) waits its delay again rather than moving twice at once."""

from datetime import UTC, datetime, timedelta

from bot import seat_players
from bot import timers as timing
from engine import registry
from engine.events import Wait
from storage.models import NewSeat

KKK = registry.get("kkk")
T0 = datetime(2026, 1, 1, tzinfo=UTC)
SEATS = [NewSeat(seat=0, player_id=1, display_name="anna"), NewSeat(seat=1, display_name="Robo Anna 🤖", bot=True)]


def window(since: datetime) -> Wait:
    return Wait(
        seats=(0, 1), what="react", kind="reaction", since=since, until=since + timedelta(minutes=5), timeout={}
    )


def due(wait: Wait, now: datetime) -> datetime:
    (timer,) = seat_players.plan(KKK, 1, [wait], SEATS, now)
    assert timer.payload["seat"] == 1  # the person's seat gets no timer
    return timer.due_at


def test_a_seat_is_due_its_delay_after_the_wait_began_and_never_at_once() -> None:
    wait = window(T0)
    pause = seat_players.delay(1, 1, wait, timing.wait_key(KKK, wait))
    low, high = seat_players.DELAYS["reaction"]
    assert low <= pause <= high
    assert due(wait, T0) == T0 + pause
    assert due(wait, T0 + pause / 2) == T0 + pause  # another player's move in the window doesn't push it back
    assert due(wait, T0 + pause) == T0 + 2 * pause  # planned when it is due (it just moved): its delay again
    assert due(wait, T0 + 3 * pause) == T0 + 4 * pause  # a chance let go long ago: as if reading the table anew
