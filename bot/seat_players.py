"""Seats that play themselves: computer players and the autopilot — their names, their timers, their limits.

A seat plays itself when it is a computer player (`SeatRecord.bot`: no Discord user, a name from `BOT_NAMES` with
🤖) or a person's seat on autopilot (`SeatRecord.autopilot`). It never acts at the moment something happens: after
every commit the service plans, beside the deadlines and reminders (`bot.timers`), one `seat` timer per such seat
that a wait includes (`plan`), stored with the game's other timers so that it survives a restart. When it fires
(`bot.service.autopilot`), the seat's own view and legal actions go to the game's policy (`engine.policy`) and its
choice is applied through the same path as a person's move.

When a seat acts — the secrets rule:
- the delay (`delay`) is derived from public facts only: the game, the seat, the wait's kind and its key (kind +
  since + timeout action, `bot.timers.wait_key`), never from a hand or from what the policy will decide. Every
  decision of the same kind falls in the same bounds (`DELAYS`), and the timer exists whatever the seat holds, so
  how long a computer player takes to answer a reaction window tells nobody what it holds;
- the timer is due `delay` after the wait began (so other players' moves in the same window never push it back);
  a wait that began `delay` ago or longer (the autopilot was just switched on, the seat let an earlier chance go,
  or it has just moved in this same wait, e.g. an offer in a round that stays open) is answered `delay` after the
  commit that planned it, like a person reading the table anew — never twice at the same instant;
- the delay is at most half the wait's own span (`until - since`), so the seat always answers before its deadline;
- a seat that may act though no wait names it (`Game.free_to_act`: anyone in an open Kohle, Kies & Knete round, to
  answer an offer made to it or to offer its cards) gets its timer too, timed by the game's first wait in the same
  way, after every commit whatever it holds; when its policy has nothing to do, nothing happens;
- a seat makes at most `SeatRules.per_hour` moves an hour (counted in the log); past it, its timer waits until
  the oldest of those moves is an hour old. A computer player can never spam a thread, whatever its policy does.

The random generator a policy gets is seeded from the game's secret set-up seed, the log version and the seat
(`policy_rng`): a replay decides the same, yet nobody at the table can predict a computer player's mixing.

Names: the first free name of `BOT_NAMES` ("Robo Anna 🤖", …); the 🤖 is part of the stored display name, so every
place that prints names (the lobby, the status, the narration) shows it. So is the level of an easy or a hard
computer player, short enough for a phone: "Robo Anna 🤖 (hard)"; a normal one (the default) has none, so that
tables without levels read as before. The level itself is stored with the seat (`SeatRecord.level`) and picks the
policy (`engine.policy.policy_for(game, level)`); a person's seat on autopilot plays the autopilot, whatever level.
A seat on autopilot keeps its player's name and is shown as "name (autopilot)" (`bot.presentation.Table.names`); it
is never pinged.
"""

import hashlib
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot import timers as timing
from engine.events import Wait
from engine.game import Game
from engine.policy import LEVELS, Level
from storage.models import NewSeat, NewTimer

SEAT = "seat"
"""The timer kind of a seat that plays itself."""
MARK = "🤖"
BOT_NAMES = (
    "Anna",
    "Bruno",
    "Carla",
    "Dietrich",
    "Edith",
    "Fritz",
    "Greta",
    "Hugo",
    "Ida",
    "Jonas",
    "Klara",
    "Ludwig",
)
"""Computer players are "Robo <name> 🤖", the first name not yet taken at the table."""
DELAYS: dict[str, tuple[timedelta, timedelta]] = {
    "turn": (timedelta(seconds=40), timedelta(seconds=120)),
    "reaction": (timedelta(seconds=20), timedelta(seconds=60)),
}
"""How long a seat that plays itself takes for a decision, by the wait's kind (the bounds of `delay`)."""
AUTOPILOT_NOTE = "autopilot"
BOT_NOTE = "computer player"
"""The log notes of moves a seat made by itself (the cap counts them)."""


@dataclass(frozen=True)
class SeatRules:
    """The server's limits for seats that play themselves (from `bot.settings.Settings`)."""

    autopilot_after: int = 3
    """Missed deadlines in a row after which a person's seat goes on autopilot (0: never); a DM warns one before."""
    per_hour: int = 120
    """At most this many moves an hour per seat that plays itself."""


def plays_itself(seat: NewSeat) -> bool:
    return seat.bot or seat.autopilot


def bot_name(taken: Sequence[str], level: Level = "normal") -> str:
    """The first computer player's name not yet at the table (whatever the level of the one who has it), with its
    level unless it is normal."""
    used = {name.removesuffix(f" ({other})") for name in taken for other in LEVELS}

    def named(base: str) -> str:
        return base if level == "normal" else f"{base} ({level})"

    for name in BOT_NAMES:
        full = f"Robo {name} {MARK}"
        if full not in used:
            return named(full)
    n = len(BOT_NAMES) + 1
    while f"Robo {n} {MARK}" in used:
        n += 1
    return named(f"Robo {n} {MARK}")


def _unit(*parts: object) -> float:
    """A number in [0, 1) from public facts (sha256: the same on every machine and Python)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def delay(game_id: int, seat: int, wait: Wait, key: str) -> timedelta:
    """How long the seat takes to answer this wait: public facts only (see the module docstring)."""
    low, high = DELAYS.get(wait.kind, DELAYS["turn"])
    chosen = low + (high - low) * _unit(game_id, seat, wait.kind, key)
    span = wait.until - wait.since
    return max(min(chosen, span / 2), timedelta(0))


def plan(
    game: Game,  # type: ignore[type-arg]
    game_id: int,
    waits: Sequence[Wait],
    seats: Sequence[NewSeat],
    now: datetime,
    free: Collection[int] = (),
) -> list[NewTimer]:
    """One `seat` timer per seat that plays itself and is awaited, at its earliest due time over its waits; a seat
    among `free` (`Game.free_to_act`: it may act though no wait names it) is timed by the first wait as if it were
    awaited by it."""
    playing = {s.seat for s in seats if plays_itself(s)}
    due: dict[int, tuple[datetime, Wait, str]] = {}
    for index, wait in enumerate(waits):
        key = timing.wait_key(game, wait)
        for seat in (*wait.seats, *(sorted(free) if index == 0 else ())):
            if seat not in playing:
                continue
            pause = delay(game_id, seat, wait, key)
            at = wait.since + pause
            if at <= now:
                at = now + pause
            if seat not in due or at < due[seat][0]:
                due[seat] = (at, wait, key)
    return [
        NewTimer(kind=SEAT, due_at=at, payload={"seat": seat, "wait": key, "wait_kind": wait.kind})
        for seat, (at, wait, key) in sorted(due.items())
    ]


def policy_rng(seed: int | None, version: int, seat: int) -> random.Random:
    """The policy's generator for one decision: secret (the set-up seed) yet replayable (see the module docstring)."""
    digest = hashlib.sha256(f"policy:{seed}:{version}:{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))
