"""What the last commits computed, kept so that the next move of a game need not compute it again."""

from collections import OrderedDict
from typing import Any

from pydantic import BaseModel

from engine.events import Wait
from engine.game import Game
from storage import GameRecord, Snapshot

FINGERPRINTS_KEPT = 2048
STATES_KEPT = 1024


class StateCache:
    """Each game's last committed state (with its waits) and each state's hand fingerprints, least recently used
    dropped first. Shared by the move path, which fills it, and the reader, which reads tables through it."""

    def __init__(self) -> None:
        self._states: OrderedDict[int, tuple[tuple[Any, ...], BaseModel, list[Wait]]] = OrderedDict()
        """Game id → (which game and version, the state, its waits) its last commit wrote: the next move starts from
        that object instead of parsing the snapshot's JSON again (see `state_of`), and knows its waits."""
        self._fingerprints: OrderedDict[tuple[Any, ...], dict[int, str]] = OrderedDict()
        """(game, version, seats) → each seat's hand fingerprint in that state (see `bot.service.commit`)."""

    def state_of(self, game: Game, record: GameRecord, snapshot: Snapshot) -> BaseModel:  # type: ignore[type-arg]
        """The snapshot's state: the object the game's last commit wrote when that is the version read (equal to
        what parsing the text gives, by the engine's round trip; nothing changes a state once made: `Game.apply`
        works on a copy), parsed otherwise. Keyed by the game's creation too, so a reused id never matches."""
        kept = self._states.get(record.id)
        if kept is not None and kept[0] == (record.created_at, snapshot.version):
            self._states.move_to_end(record.id)
            return kept[1]
        return game.load_state(snapshot.state)  # type: ignore[no-any-return]

    def waits_of(self, game: Game, game_id: int, state: BaseModel) -> list[Wait]:  # type: ignore[type-arg]
        """The state's waits: those kept with it when it is the state the game's last commit wrote."""
        kept = self._states.get(game_id)
        return kept[2] if kept is not None and kept[1] is state else game.waiting_on(state)

    def keep(self, record: GameRecord, version: int, state: BaseModel, waits: list[Wait]) -> None:
        self._states[record.id] = ((record.created_at, version), state, waits)
        self._states.move_to_end(record.id)
        while len(self._states) > STATES_KEPT:
            self._states.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """Another writer (another process) moved the game: drop what this process kept of it. (Never needed for
        correctness — `state_of` matches the version read — but nothing is kept that can no longer serve.)"""
        self._states.pop(game_id, None)

    def prints(self, key: tuple[Any, ...]) -> dict[int, str]:
        """The hand fingerprints computed for (game, version, seats), if any."""
        return self._fingerprints.get(key, {})

    def keep_prints(self, key: tuple[Any, ...], prints: dict[int, str]) -> None:
        self._fingerprints[key] = prints
        while len(self._fingerprints) > FINGERPRINTS_KEPT:
            self._fingerprints.popitem(last=False)
