"""Rebuilding a game from its set-up and its log entries, for any game that implements `engine.game.Game`: pure,
no database (the coroutines that read a store are in `replay.stored`).

The log's meaning, entry by entry (state[0] is `game.setup(seat_count, options, seed, setup_at)`):
- action: state[seq] = game.apply(state[seq-1], actor_seat, action, at).state
- undo:   state[seq] = state[undo_to]          (a moderator's "the game is now as after entry N")
- note:   state[seq] = state[seq-1]
So an undo never deletes anything: the undone actions stay in the log, and an undo can itself be undone by an undo
to a later entry. The stored snapshot after entry n must equal state[n]; `compare_states` checks that.
"""

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.errors import RuleError
from engine.game import Game
from replay.errors import ReplayError
from storage.models import GameRecord, LogEntry


@dataclass
class ReplayRun:
    state: BaseModel
    event_mismatches: list[int] = field(default_factory=list)


def replay_entries(
    game: Game[Any, Any], record: GameRecord, entries: list[LogEntry], check_events: bool = False
) -> ReplayRun:
    """Apply `entries` (seq 1…n, in order) to the game's set-up; see the module docstring."""
    if record.seed is None or record.seat_count is None or record.setup_at is None:
        raise ReplayError(record.id, 0, "the game has not been set up (it is still in its lobby)")
    try:
        options = game.parse_options(record.options)
        state = game.setup(record.seat_count, options, record.seed, record.setup_at)
    except (RuleError, ValidationError) as exc:
        raise ReplayError(record.id, 0, f"set-up is refused: {_message(exc)}") from None
    targets = {e.undo_to for e in entries if e.kind == "undo"}
    kept: dict[int, BaseModel] = {0: state} if 0 in targets else {}
    mismatches: list[int] = []
    for expected_seq, entry in enumerate(entries, start=1):
        if entry.seq != expected_seq:
            raise ReplayError(record.id, entry.seq, f"expected entry {expected_seq} here: the log has a gap")
        if entry.kind == "action":
            try:
                outcome = game.apply(state, entry.actor_seat, entry.action, entry.at)
            except (RuleError, ValidationError) as exc:
                raise ReplayError(record.id, entry.seq, f"the rules refuse the action: {_message(exc)}") from None
            state = outcome.state
            if check_events:
                replayed = [e.model_dump(mode="json") for e in outcome.events]
                if replayed != entry.events:
                    mismatches.append(entry.seq)
        elif entry.kind == "undo":
            assert entry.undo_to is not None
            if entry.undo_to >= entry.seq:
                raise ReplayError(record.id, entry.seq, f"an undo can only go back (to entry {entry.undo_to})")
            state = kept[entry.undo_to]
        if entry.seq in targets:
            kept[entry.seq] = state
    return ReplayRun(state=state, event_mismatches=mismatches)


def compare_states(stored: str, replayed: str) -> list[str]:
    """The top-level fields in which two state JSON texts differ ([] when equal as JSON)."""
    if stored == replayed:
        return []
    a, b = json.loads(stored), json.loads(replayed)
    if a == b:
        return []
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return ["(whole state)"]
    return sorted(k for k in a.keys() | b.keys() if a.get(k, _MISSING) != b.get(k, _MISSING))


_MISSING = object()


def _message(exc: Exception) -> str:
    if isinstance(exc, RuleError):
        return exc.message
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        return f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
    return str(exc)
