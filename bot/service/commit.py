"""One commit in named steps: what it carries (`Commit`), the status it leaves, its clocks and timers, and its
outbox rows (narration, tracked posts, status, lobby, hands), worked out before the one store transaction
(`bot.service.moves.MovePath.commit` writes it).

A commit writes a seat's `hand` row when the seat got private events or its `hand_fingerprint` (the game's
`hands.digest` plus the hand's buttons) changed, so buttons that come and go (a secret choice opening after a
challenge, or again after an undo) always reach the DM through the outbox. It writes a `tracked` row when the
events have event posts or the presentation has live posts (refreshed even after an undo, which has no events).

A wait is announced in the thread (mentioning who is awaited) only when it is news: someone is awaited for
something they were not awaited for just before (`announcements`). A deadline that merely moved — the same people
awaited for the same thing, e.g. a Boss whose time restarts with every move of a round — is shown by the status
message, not pinged again; one more pass in a reaction window pings nobody. After an undo every wait is announced.
A player awaited while inside their quiet hours (`bot.quiet`) is named without a ping: their `wake` reminder pings
them when their quiet hours end (`bot.timers`).

A newly awaited player deciding on their hand (`Presentation.prompt_in_hand`, `in_hand_prompts`) is prompted there
instead: their hand row carries the prompt (the hand comes down to them as a new DM) and the narration names them
without a mention — unless their DMs are closed, or they just acted; or they are in their quiet hours (woken when
they end), or chose to hear only in their digest (`/me notify`). Whatever their `/me notify` choice otherwise, such
a prompt is the hand coming down to them, once: the decision is made there, and one DM with the buttons beats a
ping that sends them to the DM anyway.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel

from bot import away, outbox, routing, seat_players
from bot import quiet as quietness
from bot import timers as timing
from bot.awaiting import same_task, wait_data
from bot.handover import HANDOVER, expiries
from bot.outbox import discord_guard
from bot.presentation import Presentation, Table, hand_fingerprint
from engine import daily
from engine.events import Event, Wait
from engine.game import Game
from storage import GameRecord, NewLogEntry, NewOutbox, NewTimer, NotifyMode, QuietHours, SeatRecord, TimerRecord

OVER = ("finished", "abandoned")


@dataclass(frozen=True)
class Commit:
    """What one commit carries: the log entry taking the game from `before` (at `version`) to `after`, and how
    to word and time it."""

    record: GameRecord
    version: int
    before: BaseModel
    after: BaseModel
    events: Sequence[Event]
    entry: NewLogEntry
    texts: Sequence[str] = ()
    """Lines for the thread besides the events' own (a moderator's note, an away pass)."""
    status: str | None = None
    """The game's new status (None: finished if the move finished it, active again if an undo reopened it)."""
    fresh_clocks: bool = False
    """An undo: every wait's clock restarts from now, and every wait is announced."""
    clocks: dict[str, timing.Clock] | None = None
    """The waits' clocks to carry on (None: as the old timers hold them)."""
    extra: Sequence[NewOutbox] = ()
    result_post: bool | None = None
    """Post the standings (None: when the move finished the game)."""
    ping: Sequence[int] = ()
    seats: list[SeatRecord] | None = None
    """As the caller read them under the lock (read by the commit otherwise)."""
    old_timers: list[TimerRecord] | None = None
    """As the caller read them under the lock (read by the commit otherwise)."""


@dataclass
class Planned:
    """A commit worked out, ready for its transaction."""

    new_status: str | None
    """The status to store (None: unchanged)."""
    status: str
    """The game's status after the commit."""
    waits: list[Wait]
    timers: list[NewTimer]
    items: list[NewOutbox]
    table: Table
    """The game after the commit, as rendered for its rows (its memo goes on to the notifier)."""
    prints: dict[int, str]
    """Each seat's hand fingerprint after the commit."""


def plan(
    game: Game,  # type: ignore[type-arg]
    presentation: Presentation,
    c: Commit,
    *,
    seats: list[SeatRecord],
    old_timers: list[TimerRecord],
    waits_before: list[Wait],
    known_prints: Mapping[int, str],
    reminders: bool,
    modes: Mapping[int, NotifyMode] | None = None,
    quiet: Mapping[int, QuietHours] | None = None,
) -> Planned:
    """Everything the commit writes besides its log entry and snapshot (see the module docstring). `quiet`: the
    quiet hours of the seats' players, by person (`bot.quiet.KnownQuietHours`)."""
    now = c.entry.at
    by_seat = quietness.of_seats(seats, quiet or {})
    waits_after = game.waiting_on(c.after)
    pauses = away.paused_seats(seats)
    clocks = _clocks(game, c, waits_after, old_timers)
    if pauses or any(x.away for x in clocks.values()):
        clocks = timing.away_clocks(game, waits_after, clocks, pauses, _off_weekend(c.after))
    finished = game.result(c.after) is not None
    new_status, status = _status(c, finished)
    over = status in OVER
    timers = (
        []
        if over
        else _timers(game, c, waits_before, waits_after, clocks, old_timers, seats, status, reminders, by_seat)
    )
    deadlines = timing.effective_deadlines(game, waits_after, timing.clocks_from(timers) if timers else clocks)
    if not over:
        timers += [
            NewTimer(kind=away.AWAY_END, due_at=at, payload={"seat": seat}) for seat, at in away.ends(seats, now)
        ]
        timers += [NewTimer(kind=HANDOVER, due_at=at, payload={"seat": seat}) for seat, at in expiries(seats)]
    # A turn that resumes after a reaction window is announced too: the window's closing reaches its player
    # only as an edit, which notifies nobody, and it is on them again (KKK's Boss must close the deal).
    awaits = [] if over else announcements(waits_before, waits_after, deadlines, fresh=c.fresh_clocks)
    table_before = Table(game, c.record, seats, c.before, now, words=presentation)
    table_after = Table(game, c.record.model_copy(update={"status": status}), seats, c.after, now, words=presentation)
    table_before.memo[("waits", id(c.before))] = waits_before  # `Table.waits`: the engine is asked once per state
    table_after.memo[("waits", id(c.after))] = waits_after
    guard = discord_guard(now)
    finished_now = finished and c.record.status != "finished"
    hush = [s for s, q in by_seat.items() if quietness.inside(q, now)]
    # A decision made on the hand is prompted there (the hand comes down as a new DM), except to those in their
    # quiet hours (their `wake` reminder) or who chose the digest only.
    digest = {s.seat for s in seats if s.player_id is not None and (modes or {}).get(s.player_id) == "digest"}
    prompts = {
        s: p
        for s, p in in_hand_prompts(presentation, table_after, awaits, c.entry.actor_seat).items()
        if s not in hush and s not in digest
    }
    # Each other awaited player hears of it where they chose (`bot.routing`): pinged here, or by DM, or in their
    # digest; one in their quiet hours is named without a ping and gets no DM now: their `wake` reminder reaches
    # them, where they chose, when their quiet hours end (`bot.timers`).
    elsewhere, dms = routing.prompt_rows(
        awaits, c.entry.actor_seat, seats, modes or {}, c.record, table_after.title, no_dm={*hush, *prompts}
    )
    items = _posts(presentation, c, table_after, awaits, finished_now, guard, elsewhere, hush, in_hand=sorted(prompts))
    items.append(outbox.status(guard=guard))
    ending = new_status in OVER
    if ending:
        items.append(outbox.lobby(guard=guard))  # the lobby message says it's over, and who won
    hands, prints = _hands(game, presentation, c, table_before, table_after, known_prints, ending, guard, prompts)
    items += hands
    items += [outbox.guarded(d, guard) for d in dms]  # below the hand's edit: the newest DM says what waits
    return Planned(new_status, status, waits_after, timers, items, table_after, prints)


def seats_key(seats: Sequence[SeatRecord]) -> tuple[Any, ...]:
    """What of the seats a hand's fingerprint depends on (the key of `bot.service.states.StateCache.prints`)."""
    return tuple((x.seat, x.player_id, x.display_name, x.dm_ok, x.autopilot, x.bot) for x in seats)


def _clocks(
    game: Game,  # type: ignore[type-arg]
    c: Commit,
    waits_after: list[Wait],
    old_timers: list[TimerRecord],
) -> dict[str, timing.Clock]:
    """The waits' clocks after the commit: restarted from now after an undo, else carried on."""
    clocks = c.clocks if c.clocks is not None else timing.clocks_from(old_timers)
    if c.fresh_clocks:
        return {timing.wait_key(game, w): timing.Clock(shift=c.entry.at - w.since) for w in waits_after}
    return timing.carry_floors(game, waits_after, clocks, old_timers)


def _status(c: Commit, finished: bool) -> tuple[str | None, str]:
    """The status to store (None: unchanged) and the game's status after the commit (`finished`: the game has a
    result after it)."""
    record = c.record
    new_status = c.status or ("finished" if finished and record.status != "finished" else None)
    if new_status is None and not finished and record.status == "finished":
        new_status = "active"  # an undo of the final move
    return new_status, new_status or record.status


def _timers(
    game: Game,  # type: ignore[type-arg]
    c: Commit,
    waits_before: list[Wait],
    waits_after: list[Wait],
    clocks: dict[str, timing.Clock],
    old_timers: list[TimerRecord],
    seats: list[SeatRecord],
    status: str,
    reminders: bool,
    quiet: Mapping[int, QuietHours],
) -> list[NewTimer]:
    """The timers of a game that goes on: its waits' deadlines and reminders (after the awaited players' `quiet`
    hours, by seat), and its self-playing seats' moves."""
    now = c.entry.at
    paused = status == "paused"
    interrupted = timing.interruptions(waits_before, waits_after, old_timers)
    timers = timing.plan(
        game,
        waits_after,
        clocks,
        now,
        paused=paused,
        reminders=reminders,
        interrupted=interrupted,
        pauses=away.paused_seats(seats),
        quiet=quiet,
    )
    if not paused:
        timers += seat_players.plan(game, c.record.id, waits_after, seats, now, game.free_to_act(c.after))
    return timers


def _posts(
    presentation: Presentation,
    c: Commit,
    table_after: Table,
    awaits: list[tuple[Wait, datetime]],
    finished_now: bool,
    guard: int,
    elsewhere: Sequence[Sequence[int]] = (),
    hush: Sequence[int] = (),
    *,
    in_hand: Sequence[int] = (),
) -> list[NewOutbox]:
    """The thread's rows: the narration, the tracked posts, and the caller's extra rows. Awaited seats reached
    elsewhere (`elsewhere`, by wait: a DM or the digest), in their quiet hours (`hush`) or prompted in their hand DM
    (`in_hand`) are named without a mention."""
    items: list[NewOutbox] = []
    narration = outbox.post(
        events=c.events,
        texts=c.texts,
        awaits=awaits,
        elsewhere=elsewhere,
        result=c.result_post if c.result_post is not None else finished_now,
        actor=c.entry.actor_seat,
        ping=[s for s in c.ping if s not in hush],  # in their quiet hours: named, not pinged
        in_hand=in_hand,
        guard=guard,
        hush=hush,
    )
    if narration is not None:
        items.append(narration)
    public = [e for e in c.events if e.public]
    if (public and presentation.event_posts(table_after, public)) or presentation.live_posts(table_after):
        items.append(outbox.tracked(public, guard=guard))
    items += [outbox.guarded(i, guard) for i in c.extra]
    return items


def _hands(
    game: Game,  # type: ignore[type-arg]
    presentation: Presentation,
    c: Commit,
    table_before: Table,
    table_after: Table,
    known_prints: Mapping[int, str],
    ending: bool,
    guard: int,
    prompts: Mapping[int, dict[str, Any]] | None = None,
) -> tuple[list[NewOutbox], dict[int, str]]:
    """A hand row for each seat with private events or a hand that changed (every hand at the end, which shows
    the standings), and each seat's fingerprint after the commit. A hand's fingerprint before this commit is the
    one the previous commit computed after it (same version, same seats): each state's are computed once. A seat in
    `prompts` gets its row with the prompt (its hand comes down to it as a new DM), changed or not."""
    prompts = prompts or {}
    items: list[NewOutbox] = []
    after_prints: dict[int, str] = {}
    for s in range(game.seat_count(c.after)):
        notes = outbox.private_notes(c.events, s)
        before_print = known_prints.get(s)
        if before_print is None:
            before_print = hand_fingerprint(presentation, table_before, s)
        after_prints[s] = hand_fingerprint(presentation, table_after, s)
        if notes or ending or before_print != after_prints[s] or s in prompts:
            items.append(outbox.hand(s, notes, prompt=prompts.get(s), guard=guard))
    return items, after_prints


def in_hand_prompts(
    presentation: Presentation, table: Table, awaits: Sequence[tuple[Wait, datetime]], actor: int | None
) -> dict[int, dict[str, Any]]:
    """The newly awaited seats whose prompt reaches them in their hand DM instead of a mention in the thread:
    for a decision made on the hand (`Presentation.prompt_in_hand`), a person's seat whose DMs are not known to be
    closed, never the player who just acted (they know). Each with the prompt's wait (what, kind, deadline)."""
    people = {s.seat: s for s in table.seats if s.player_id is not None and not s.autopilot and s.dm_ok is not False}
    out: dict[int, dict[str, Any]] = {}
    for wait, due in awaits:
        if not presentation.prompt_in_hand(table, wait):
            continue
        for seat in wait.seats:
            if seat in people and seat != actor:
                out[seat] = wait_data(wait, due)
    return out


def announcements(
    before: Sequence[Wait], after: Sequence[Wait], deadlines: Mapping[int, datetime], *, fresh: bool = False
) -> list[tuple[Wait, datetime]]:
    """The waits to announce in the thread, each with the seats to mention: those now awaited for something they
    were not awaited for just before (same kind, `what` and `about`). A deadline that only moved — the same people
    awaited for the same thing, e.g. the Boss's time restarting with every move of a round — is no news (the
    status message shows it), nor is a window where one more player passed. `fresh` (an undo): announce all."""
    out: list[tuple[Wait, datetime]] = []
    for i, wait in enumerate(after):
        due = deadlines.get(i, wait.until)
        if fresh:
            out.append((wait, due))
            continue
        known = {s for old in before if same_task(old, wait) for s in old.seats}
        new = tuple(s for s in wait.seats if s not in known)
        if new:
            out.append((wait.model_copy(update={"seats": new}), due))
    return out


def _off_weekend(state: Any) -> Callable[[datetime], datetime] | None:
    """For a table with weekends off (`weekdays_only`): a deadline moved onto a weekend by an away player's pause goes
    on to the Monday after, at the same local time — as the engine does with the deadline itself (`engine.daily`)."""
    options = getattr(state, "options", None)
    if options is None or not getattr(options, "weekdays_only", False):
        return None
    return lambda due: daily.next_deadline(due, timedelta(0), options.timezone, weekdays_only=True)
