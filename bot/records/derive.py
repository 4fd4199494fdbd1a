"""A game's record, derived from its log alone: who held which seat, how it ended, and each player's figures.

Pure (no I/O): `derive` takes the game as it was set up, the game's row, its seats as they are at the end and its
whole log, and replays the history that stands. The figures are those of that history: a move a moderator undid
(`/mod undo`) did not happen, so it counts for nobody; the log keeps it, the record doesn't.

What each figure means (decisions where the issue is silent):
- a **move** is an action of a seat: a person's (the log names its user), or a computer player's (its note). The
  autopilot's moves (and the passes made for someone away) are the platform's, not the player's: counted for no one.
- an **answer** is a person's move while a wait named their seat (a turn, or a reaction window): the time to
  answer is from when that wait began (`Wait.since`) to the move. A move no wait asked for (an offer in Kohle, Kies &
  Knete's open round) is a move, not an answer.
- a **missed deadline** is a turn's deadline that passed (the wait's own timeout applied by the platform) on a seat;
  a reaction window closing by time is how windows usually end, not a miss (as `bot.service.autopilot` counts it).
  It is held against the person in the seat then: the last person who moved in it before, else the first who moves
  in it after, else whoever holds it at the end. Reliability is turns answered out of turns answered + missed.
- the **placement** (rank, score) goes to whoever holds the seat at the end (a substitute takes over the seat's
  place); anyone who moved in a seat and no longer holds it at the end **left** the game (kicked, or replaced).
- **outcome**: "finished" when the rules ended it, "ended" when a moderator did (`/mod end`, or a removal the game
  could not go on without, or the removal that was its last move). Only a finished game with two holders or more
  is rated; an ended one keeps the standings so far (shown, never counted as a win).
"""

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.seat_players import BOT_NOTE
from engine.events import Wait
from engine.game import Game, Leave, Result
from storage import GameRecord, GameResult, LogEntry, Placement, SeatRecord, SeatResult


@dataclass
class _Tally:
    moves: int = 0
    answers: int = 0
    answer_s: float = 0.0
    turns: int = 0
    missed: int = 0


@dataclass
class Derived:
    result: GameResult
    placements: list[Placement] = field(default_factory=list)


def standing_history(entries: list[LogEntry], version: int) -> list[LogEntry]:
    """The entries whose effects stand after entry `version`, oldest first: followed back from the last entry, an
    undo jumps to the entry it went back to, so the undone entries drop out."""
    by_seq = {e.seq: e for e in entries}
    chain: list[LogEntry] = []
    cur = version
    while cur > 0:
        entry = by_seq[cur]
        if entry.kind == "undo" and entry.undo_to is not None:
            cur = entry.undo_to
            continue
        chain.append(entry)
        cur -= 1
    chain.reverse()
    return chain


def _prompt(waits: list[Wait], seat: int) -> Wait | None:
    """The wait that asked this seat for a move, if any (turns before reaction windows)."""
    named = [w for w in waits if seat in w.seats]
    return next((w for w in named if w.kind == "turn"), named[0] if named else None)


def derive(game: Game[Any, Any], record: GameRecord, seats: list[SeatRecord], entries: list[LogEntry]) -> Derived:
    """The record of a started game that is over. `game` must be the game as set up (`Game.for_state`)."""
    assert record.seed is not None and record.seat_count is not None and record.setup_at is not None
    state: Any = game.setup(record.seat_count, game.parse_options(record.options), record.seed, record.setup_at)
    tallies: dict[tuple[int, int | None], _Tally] = {}  # (seat, person's user id or None for the computer player)
    people_moves: dict[int, list[tuple[int, int]]] = {}  # seat -> [(position, user id)] of the people's moves
    misses: list[tuple[int, int]] = []  # (seat, position)
    moves = 0
    last_leave = False
    for position, entry in enumerate(standing_history(entries, record.version)):
        if entry.kind != "action":
            continue
        action = game.parse_action(entry.action)
        seat = entry.actor_seat
        last_leave = isinstance(action, Leave)
        if seat is not None:
            moves += 1
            if entry.user_id is not None:
                tally = tallies.setdefault((seat, entry.user_id), _Tally())
                tally.moves += 1
                people_moves.setdefault(seat, []).append((position, entry.user_id))
                wait = _prompt(game.waiting_on(state), seat)
                if wait is not None:
                    tally.answers += 1
                    tally.answer_s += max((entry.at - wait.since).total_seconds(), 0.0)
                    tally.turns += wait.kind == "turn"
            elif entry.note == BOT_NOTE:
                tallies.setdefault((seat, None), _Tally()).moves += 1
        elif not last_leave:
            for wait in game.waiting_on(state):
                if wait.kind == "turn" and _same_action(game, wait.timeout, entry.action):
                    misses += [(s, position) for s in wait.seats]
                    break
        if last_leave:
            state = game.apply(state, seat, action, entry.at).state
        else:
            # The replay owns its state and keeps no earlier one, so the move is made on it in place: `apply` would
            # first deep-copy the whole state for every move (three quarters of a replay's time). A logged move was
            # accepted once, so the rules accept it again: nothing is left half-done.
            game.step(state, seat, action, entry.at)
    final_holders = {s.seat: s for s in seats}
    for seat, position in misses:
        person = _person_at(people_moves.get(seat, []), position)
        if person is None:
            held = final_holders.get(seat)
            if held is None or held.bot or held.player_id is None:
                continue
            person = held.player_id
        tallies.setdefault((seat, person), _Tally()).missed += 1

    finished = record.status == "finished" and not last_leave
    standings: Result | None = game.result(state) if finished else None
    if standings is None:
        finished = False
        standings = game.standings(state)
    places = {s.seat: s for s in standings.standings}
    seat_results: list[SeatResult] = []
    placements: list[Placement] = []
    holders = 0
    for seat in range(record.seat_count):
        held = final_holders.get(seat)
        place = places.get(seat)
        rank = place.rank if place is not None else None
        score = place.score if place is not None else None
        name = held.display_name if held is not None else ""
        bot = bool(held is not None and held.bot)
        person = held.player_id if held is not None and not bot else None
        seat_results.append(SeatResult(seat=seat, id=person, name=name, bot=bot, rank=rank, score=score))
        if bot or person is not None:
            holders += 1
            tally = tallies.pop((seat, None if bot else person), _Tally())
            placements.append(_placement(record.id, seat, person, name, bot, True, rank, score, tally))
    for (seat, person), tally in sorted(tallies.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        if person is not None:  # someone who left this seat (a computer player stopped mid-game is not a player)
            placements.append(_placement(record.id, seat, person, "", False, False, None, None, tally))
    ended_at = record.finished_at or record.updated_at
    result = GameResult(
        game_id=record.id,
        guild_id=record.guild_id,
        kind=record.kind,
        thread_id=record.thread_id,
        started_at=record.setup_at,
        ended_at=ended_at,
        outcome="finished" if finished else "ended",
        rated=finished and holders >= 2,
        moves=moves,
        seats=seat_results,
    )
    return Derived(result=result, placements=placements)


def _placement(
    game_id: int,
    seat: int,
    person: int | None,
    name: str,
    bot: bool,
    held: bool,
    rank: int | None,
    score: int | None,
    tally: _Tally,
) -> Placement:
    return Placement(
        game_id=game_id,
        seat=seat,
        player_id=person,
        name=name,
        bot=bot,
        held=held,
        rank=rank if held else None,
        score=score if held else None,
        moves=tally.moves,
        answers=tally.answers,
        answer_s=round(tally.answer_s, 3),
        turns=tally.turns,
        missed=tally.missed,
    )


def _person_at(moves: list[tuple[int, int]], position: int) -> int | None:
    """Who sat in a seat at `position`: the last person to move in it before, else the first to move after."""
    before = [uid for pos, uid in moves if pos < position]
    if before:
        return before[-1]
    return moves[0][1] if moves else None


def _same_action(game: Game[Any, Any], timeout: Any, logged: dict[str, Any] | None) -> bool:
    if logged is None or timeout is None:
        return False
    dumped = game.dump_action(timeout) if isinstance(timeout, BaseModel) else timeout
    return bool(dumped == logged)
